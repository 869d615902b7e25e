//! A throw-away session on the CPU with the asking session's floatX, where
//! help runs what it shows (dtype probes, examples): the user's variables,
//! RNG and devices are never touched.

use super::first_form;
use crate::flags::{DeviceFlag, Flags};
use crate::ops::elementwise::Rule;
use crate::ops::family::Family;
use crate::ops::{OpDef, OpKind};
use crate::output::Captured;
use crate::session::Session;

pub fn session(flags: &Flags) -> Session {
    let mut f = flags.clone();
    f.device = DeviceFlag::Cpu;
    f.profile = false;
    Session::new(f, Box::new(Captured::default()))
}

/// Run `code`; the shown value's text, or `None` on an error or no value.
pub fn value_text(s: &mut Session, code: &str) -> Option<String> {
    let r = s.execute(code, "<help>");
    if r.error.is_some() {
        return None;
    }
    r.value.map(|v| v.text)
}

/// `bool→float32 int32→float32 ... float64→float64`: what the op gives for
/// each input dtype, found by running it (elementwise ops and reductions).
pub fn dtypes(d: &OpDef, f: Family, flags: &Flags) -> Option<String> {
    let name = d.name;
    let call = |dt: &str| -> Option<String> {
        let a = format!("array([1, 2], dtype={dt})");
        match (&d.kind, f) {
            (OpKind::Elementwise(e), _) if e.rule == Rule::Where => {
                Some(format!("{name}(array([true, false]), {a}, {a})"))
            }
            (OpKind::Elementwise(e), _) => Some(format!("{name}({})", vec![a; e.arity].join(", "))),
            (_, Family::Reduction) if first_form(d.sig).starts_with(&format!("{name}(x")) => {
                Some(format!("{name}({a})"))
            }
            _ => None,
        }
    };
    call("float32")?;
    let mut s = session(flags);
    let parts: Vec<String> = crate::dtype::DType::ALL
        .iter()
        .map(|dt| {
            let code = call(dt.name()).unwrap_or_default();
            match value_text(&mut s, &format!("({code}).dtype")) {
                Some(out) => format!("{}→{out}", dt.name()),
                None => format!("{}: no", dt.name()),
            }
        })
        .collect();
    // A probe that runs on no dtype called the op wrongly (a required
    // argument it cannot guess: quantile's q): say nothing rather than "no".
    if parts.iter().all(|p| p.ends_with(": no")) {
        return None;
    }
    let mut text = parts.join("  ");
    if let OpKind::Elementwise(e) = &d.kind
        && e.rule == Rule::Float
    {
        text.push_str(&format!(
            "  (ints and bools give floatX, now {})",
            flags.float_x.name()
        ));
    }
    Some(text)
}
