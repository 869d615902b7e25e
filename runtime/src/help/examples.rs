//! A worked example for every array op, made from its signature: each
//! required parameter takes a sample argument chosen by its name (and, for
//! elementwise ops, by the op's domain and dtype rule); arrays are bound to
//! their parameter's name first. Candidates are tried in order until the
//! call runs, in a scratch session, so an example shown is an example that
//! works, with its real output.

use super::{first_form, required, scratch};
use crate::flags::Flags;
use crate::ops::elementwise::{Domain, EwDef, Rule};
use crate::ops::family::Family;
use crate::ops::{OpDef, OpKind};

const MATRIX: &str = "array([[1.0, 2.0], [3.0, 4.0]])";

/// Optional parameters an example passes (with their sample value).
const SHOWN_OPTIONAL: &[&str] = &["axis", "num", "shape"];

/// Sample arguments for the `i`th parameter `p` of an elementwise op.
fn elementwise(e: &EwDef, i: usize, p: &str) -> Vec<&'static str> {
    let v = match (e.rule, e.domain, i) {
        // Bits of ints (bools work too; floats do not).
        (Rule::Bitwise, ..) => ["array([12, 10, 7])", "array([10, 6, 3])"][i.min(1)],
        (Rule::Shift, ..) => ["array([1, 8, -16])", "array([3, 1, 2])"][i.min(1)],
        (Rule::Logical, ..) => {
            ["array([true, false, true])", "array([true, true, false])"][i.min(1)]
        }
        (Rule::Where, _, 0) => "array([true, false, true])",
        (Rule::Where, ..) => ["", "array([1.0, 2.0, 3.0])", "array([10.0, 20.0, 30.0])"][i.min(2)],
        (Rule::Pred, ..) => "array([1.0, 0.0, -1.0]) / array([1.0, 0.0, 0.0])",
        (Rule::Cmp, ..) => ["array([1.0, 2.0, 3.0])", "array([3.0, 2.0, 1.0])"][i.min(1)],
        (_, Domain::Positive | Domain::AboveMinusOne, 0) => "array([0.5, 1.0, 2.0])",
        (_, Domain::Small | Domain::Unit, 0) => "array([-0.5, 0.0, 0.5])",
        (_, Domain::AtLeastOne, 0) => "array([1.0, 2.0, 10.0])",
        (_, Domain::NonZero, 0) => "array([0.5, -2.0, 4.0])",
        (_, Domain::NonZeroDivisor, 0) => "array([7.0, -7.0, 5.5])",
        (_, Domain::NonZeroDivisor, _) => "array([2.0, 2.0, -2.0])",
        (_, Domain::Power, 0) => "array([1.0, 2.0, 3.0])",
        (_, Domain::Power, _) => "array([2.0, 3.0, 2.0])",
        (_, _, 0) => "array([-1.5, 0.0, 2.5])",
        (_, _, 1) if e.arity == 2 => "array([1.0, -1.0, 2.0])",
        _ => return by_name(p),
    };
    vec![v]
}

/// Sample arguments for a parameter named `p`, most telling first.
fn by_name(p: &str) -> Vec<&'static str> {
    match p {
        "x" | "a" | "b" | "m" | "A" | "*operands" => vec![
            MATRIX,
            "array([0.5, 1.0, 2.0])",
            "array([[0.5, 1.0, 2.0]])",
            "array([2.5])",
            "array([0, 1, 1, 3])",
            "array([[4.0, 2.0], [2.0, 3.0]])",
            // tensorinv's (2, 2, 2, 2): prod of the first two dims = of the last two.
            "reshape(eye(4) * 2.0, (2, 2, 2, 2))",
        ],
        "subscripts" => vec!["\"ij->ji\""],
        "y" => vec!["array([[5.0, 6.0], [7.0, 8.0]])", "array([1.0, 2.0, 3.0])"],
        "shape" => vec!["(2, 3)", "(4,)", "(3, 2, 2)"],
        "values" => vec!["[[1, 2], [3, 4]]"],
        "arrays" => vec!["[array([1.0, 2.0]), array([3.0, 4.0])]"],
        "start" => vec!["0", "1"],
        "stop" => vec!["5"],
        "num" => vec!["5"],
        "n" => vec!["3"],
        "value" => vec!["7.0"],
        "axis" => vec!["0"],
        "axes" => vec!["(1, 0)"],
        "q" => vec!["0.25"],
        "bins" => vec!["array([0.0, 1.0, 2.5])"],
        "lo" => vec!["0"],
        "hi" => vec!["3"],
        "mu" => vec!["0.0"],
        "sigma" => vec!["1.0"],
        "scale" | "theta" => vec!["2.0"],
        "lam" => vec!["3.0"],
        "p" => vec!["0.3", "array([0.0, 3.0, 6.5, 0.2])"],
        "h0" => vec!["0.5"],
        "dtype" => vec!["int32"],
        "k" | "kth" => vec!["1"],
        // searchsorted's values first; add_at's scalar after (the first that runs is shown).
        "v" => vec!["array([0.7, 2.0])", "1.0"],
        "element" => vec![MATRIX],
        "test_elements" => vec!["[1.0, 4.0]"],
        "device" => vec!["cpu()"],
        // The shape and assembly family's parameters (NumPy's names).
        "indices_or_sections" => vec!["2"],
        "source" => vec!["0"],
        "destination" => vec!["-1"],
        "axis1" => vec!["0"],
        "axis2" => vec!["1"],
        "pad_width" => vec!["1"],
        "repeats" => vec!["2"],
        "shift" => vec!["1"],
        "reps" => vec!["(2, 1)"],
        "indices" => vec!["[1, 0]", "array([[1], [0]])"],
        "idx" => vec!["[0, 0, 2]"],
        // NumPy's construction, manipulation and set functions (ops/nparr).
        "arr" | "prototype" => vec![MATRIX],
        "obj" => vec!["1"],
        "new_shape" => vec!["(3, 2)"],
        "*args" => vec!["[1.0, 2.0], [[3.0], [4.0]]"],
        "*shapes" => vec!["(2, 1), (3,)"],
        "*seqs" => vec!["[0, 1], [2, 3]"],
        "choices" => vec!["[10, 20, 30, 40]"],
        "condlist" => vec!["[array([true, false, true]), array([false, true, true])]"],
        "choicelist" => vec!["[array([1.0, 2.0, 3.0]), array([10.0, 20.0, 30.0])]"],
        "funclist" => vec!["[-1.0, 1.0]"],
        "mask" => vec!["array([[true, false], [false, true]])"],
        "vals" => vec!["[7.0, 8.0]"],
        "ind" => vec!["[0, 3]"],
        "ar1" => vec!["array([1, 3, 4, 3])"],
        "ar2" => vec!["array([3, 1, 2, 1])"],
        "keys" => vec!["[array([1, 5, 1, 4]), array([9, 4, 0, 4])]"],
        "multi_index" => vec!["([3, 6, 6], [4, 5, 1])"],
        "dims" => vec!["(7, 6)"],
        "dimensions" => vec!["(2, 3)"],
        "N" => vec!["3"],
        "low" => vec!["5"],
        "df" => vec!["3.0"],
        "pvals" => vec!["[0.2, 0.3, 0.5]"],
        "alpha" => vec!["[1.0, 2.0, 3.0]"],
        // The complex builtins' parameters.
        "z" => vec!["array([1 + 2j, 3 - 4j])"],
        // `complex(real, imag)`'s first parameter (Python's name, which is
        // also the `real` builtin's: compared by value, not as an op).
        n if n == crate::opid::CxOp::Real.name() => vec!["array([1.0, 2.0])"],
        // The "more NumPy math" family's parameters.
        "a1" => vec!["array([1.0, 2.0])"],
        "a2" => vec!["array([1.0, 2.0])", "array([[1.0, 2.0], [1.0, 2.0]])"],
        "x1" => vec![MATRIX, "array([1.0, 1.0])"],
        "x2" => vec!["array([1.0, 1.0])", MATRIX],
        "f" => vec!["array([1.0, 4.0, 9.0, 16.0])"],
        // ediff1d's 1-d array first; h/v/dsplit's 2-d and 3-d ones (ops/nparr).
        "ary" => vec![
            "array([1.0, 4.0, 9.0, 16.0])",
            MATRIX,
            "array([[[1.0, 2.0], [3.0, 4.0]]])",
        ],
        "xp" => vec!["array([0.0, 1.0, 2.0])"],
        "fp" => vec!["array([10.0, 20.0, 40.0])"],
        "*spacings" => vec!["1.0"],
        // Signals and polynomials (ops/signal).
        "M" => vec!["8"],
        "beta" => vec!["14.0"],
        "u" => vec!["array([3.0, 5.0, 2.0])"],
        "deg" => vec!["1"],
        "seq_of_zeros" => vec!["array([1.0, 2.0])"],
        "filt" => vec!["array([0, 0, 1, 2, 0])"],
        // The arrutil family's parameters (ops/arrutil).
        "condition" => vec!["array([true, false, true])"],
        "val" => vec!["5.0"],
        "*shape" => vec!["2, 2"],
        // NumPy 2's random API (ops/generator/).
        "left" => vec!["0.0"],
        "mode" => vec!["1.0"],
        "right" => vec!["3.0"],
        "mean" => vec!["1.5", "array([0.0, 1.0])"],
        "cov" => vec!["array([[2.0, 0.5], [0.5, 1.0]])"],
        "dfnum" => vec!["5.0"],
        "dfden" => vec!["7.0"],
        "nonc" => vec!["1.5"],
        "kappa" => vec!["2.0"],
        "ngood" => vec!["5"],
        "nbad" => vec!["7"],
        "nsample" => vec!["4"],
        "state" => vec!["get_state()"],
        _ => vec![],
    }
}

/// The example's text: `>>> ` lines and the shown value.
pub fn example(d: &OpDef, f: Family, flags: &Flags) -> Option<String> {
    if !f.is_array_math() {
        return None;
    }
    let form = first_form(d.sig);
    let method = form.starts_with("x.");
    let mut ps = required(form)?;
    if method {
        ps.insert(0, "x");
    }
    // Optional parameters worth showing: `sum(x, axis=0)`, `linspace(0, 5, num=5)`.
    let shown: Vec<String> = super::params(form)
        .into_iter()
        .filter_map(|p| p.split_once('='))
        .filter(|(n, _)| SHOWN_OPTIONAL.contains(n))
        .map(|(n, _)| format!("{n}={}", by_name(n)[0]))
        .collect();
    let cands: Vec<Vec<&str>> = ps
        .iter()
        .enumerate()
        .map(|(i, p)| match &d.kind {
            OpKind::Elementwise(e) => elementwise(e, i, p),
            OpKind::Func(_) | OpKind::Reduce(_) => by_name(p),
        })
        .collect();
    if cands.iter().any(Vec::is_empty) {
        return None;
    }
    let mut s = scratch::session(flags);
    let random = f == Family::Random;
    // Every combination of candidates, first ones first.
    let total: usize = cands.iter().map(Vec::len).product();
    let with_optional = (0..total.min(64)).map(|k| (k, shown.as_slice()));
    let without = (0..total.min(64)).map(|k| (k, &[][..]));
    with_optional.chain(without).find_map(|(mut k, shown)| {
        let pick: Vec<&str> = cands
            .iter()
            .map(|c| {
                let v = c[k % c.len()];
                k /= c.len();
                v
            })
            .collect();
        let (setup, call) = render(d.name, method, &ps, &pick, shown, random);
        let code = setup
            .iter()
            .chain([&call])
            .cloned()
            .collect::<Vec<_>>()
            .join("\n");
        s.reset();
        let mut text: String = setup.iter().map(|l| format!(">>> {l}\n")).collect();
        match scratch::value_text(&mut s, &code) {
            Some(shown) => text.push_str(&format!(">>> {call}\n{shown}")),
            None => {
                // An update in place gives none: show its first argument after it.
                let first = ps.first()?;
                setup
                    .iter()
                    .find(|l| l.starts_with(&format!("{first} = ")))?;
                s.reset();
                let shown = scratch::value_text(&mut s, &format!("{code}\n{first}"))?;
                text.push_str(&format!(">>> {call}\n>>> {first}\n{shown}"));
            }
        }
        Some(text)
    })
}

/// Array arguments bound to their parameter's name, then the call.
fn render(
    name: &str,
    method: bool,
    ps: &[&str],
    pick: &[&str],
    optional: &[String],
    random: bool,
) -> (Vec<String>, String) {
    let mut setup = Vec::new();
    if random {
        setup.push("seed(0)".to_string());
    }
    let mut args: Vec<String> = ps
        .iter()
        .zip(pick)
        .map(|(p, v)| {
            if v.starts_with("array(") || v.contains(" / ") {
                let p = p.trim_start_matches('*');
                setup.push(format!("{p} = {v}"));
                p.to_string()
            } else {
                v.to_string()
            }
        })
        .collect();
    args.extend(optional.iter().cloned());
    let call = if method {
        format!("{}.{name}({})", args[0], args[1..].join(", "))
    } else {
        format!("{name}({})", args.join(", "))
    };
    (setup, call)
}
