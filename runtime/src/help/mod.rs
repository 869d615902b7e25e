//! The help page of a builtin (`help(exp)`, `exp?`, Jupyter's Shift-Tab):
//! signature and doc from its op-table entry, then what rules derive from the
//! entry — its family, the dtypes it gives (found by running it on each
//! dtype), the devices it runs on, its gradient, the NumPy (or Python,
//! PyTorch, JAX) equivalent and a worked example, run to show its result.
//! Nothing here is written per op except the equivalents NumPy does not name
//! `np.<name>` (`numpy.rs`).

mod examples;
mod numpy;
mod scratch;

use crate::flags::Flags;
use crate::ops::family::{Family, family};
use crate::ops::{OpDef, OpKind};

/// The first form of a signature: `sum(x, axis=none, keepdims=false)` from
/// `sum(...) | x.sum(...)`.
fn first_form(sig: &str) -> &str {
    sig.split(" | ").next().unwrap_or(sig)
}

/// Parameters of a signature form, split at top-level commas.
fn params(form: &str) -> Vec<&str> {
    let Some(open) = form.find('(') else {
        return vec![];
    };
    let inner = form[open + 1..]
        .strip_suffix(')')
        .unwrap_or(&form[open + 1..]);
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// Required parameters (no default, not variadic).
fn required(form: &str) -> Option<Vec<&str>> {
    let ps = params(form);
    if ps.iter().any(|p| p.contains("...")) {
        return None;
    }
    Some(ps.into_iter().filter(|p| !p.contains('=')).collect())
}

/// Where an op runs, by family.
fn devices(f: Family) -> &'static str {
    match f {
        Family::Elementwise => {
            "cpu, gpu — on the device of its operands; fused with neighbouring elementwise ops into one pass (one kernel on a GPU)"
        }
        Family::Fourier => {
            "cpu (complex arrays and the FFT family do not run on a GPU yet: to(z, gpu()) is an error)"
        }
        f if f.is_array_math() => "cpu, gpu — on the device of its operands (or device=)",
        Family::Devices => "moves or inspects data between cpu and gpu(N)",
        Family::Files => {
            "reads and writes files on the host; arrays come and go through host memory"
        }
        Family::Plots => "draws on the host (arrays on a GPU are copied to draw them)",
        _ => "any (no device work of its own)",
    }
}

/// The whole help page of `d`, with the session's `flags` (floatX).
pub fn page(d: &OpDef, flags: &Flags) -> String {
    let fam = family(d);
    let mut s = format!("{}\n\n{}\n", d.sig, d.doc);
    // A method of the op table (x.sum()), not of lists and dicts (xs.append()).
    if d.method && crate::ops::lookup(d.name).is_some_and(|g| std::ptr::eq(g, d)) {
        s.push_str(&format!("(also a method: x.{}(...))\n", d.name));
    }
    s.push('\n');
    // `key:     value`, the value wrapped at the line width under itself.
    let width = crate::array::print::line_width();
    let mut line = |k: &str, v: &str| {
        let head = format!("{k:<9} ");
        let hang = " ".repeat(head.chars().count().min(10));
        let opts = textwrap::Options::new(width)
            .initial_indent(&head)
            .subsequent_indent(&hang)
            .break_words(false);
        s.push_str(&textwrap::fill(v, opts));
        s.push('\n');
    };
    if let Some(f) = fam {
        line("family:", f.name());
        if let Some(dt) = scratch::dtypes(d, f, flags) {
            line("dtypes:", &dt);
        }
        line("devices:", devices(f));
    }
    let grad = match &d.kind {
        OpKind::Elementwise(e) => e.grad.is_some(),
        OpKind::Func(_) | OpKind::Reduce(_) => d.grad.is_some(),
    };
    if fam.is_some_and(Family::is_array_math) {
        line(
            "gradient:",
            if grad {
                "yes (grad differentiates through it)"
            } else {
                "none flows through it"
            },
        );
    }
    if let Some((label, eq)) = numpy::equivalent(d, fam) {
        line(&format!("{label}:"), &eq);
    }
    if let Some(f) = fam
        && let Some(ex) = examples::example(d, f, flags)
    {
        s.push_str("example:\n");
        for l in ex.lines() {
            s.push_str(&format!("  {l}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_forms() {
        assert_eq!(first_form("sync() | x.sync()"), "sync()");
        assert_eq!(
            required("arange(start, stop, step=1, dtype=none)"),
            Some(vec!["start", "stop"])
        );
        assert_eq!(required("print(values..., sep=\" \")"), None);
        assert_eq!(
            params("bar(labels, values, size=(640, 480), file=)"),
            vec!["labels", "values", "size=(640, 480)", "file="]
        );
        assert_eq!(required("x.astype(dtype)"), Some(vec!["dtype"]));
    }
}
