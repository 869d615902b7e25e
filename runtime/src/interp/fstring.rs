//! Evaluating f-strings: each field's value converted (`!r` repr, `!s` str,
//! `!a` ASCII repr) and formatted with its spec (`pyformat`), whose own
//! nested fields are evaluated first. `{x=}` shows the field's text, then
//! the value's repr (or its formatted value when a spec is given), as Python.

use super::Interp;
use crate::display::{py_repr as repr, to_text};
use crate::error::Result;
use gcalc_lang::ast::FStringPart;

impl Interp {
    pub(crate) fn eval_fstring(&mut self, parts: &[FStringPart]) -> Result<String> {
        let mut out = String::new();
        for p in parts {
            match p {
                FStringPart::Lit(s) => out.push_str(s),
                FStringPart::Field(f) => {
                    let v = self.eval(&f.expr)?;
                    let spec = self.eval_fstring(&f.spec)?;
                    if let Some(text) = &f.debug {
                        out.push_str(text);
                    }
                    let conversion = match (f.conversion, &f.debug) {
                        (Some(c), _) => Some(c),
                        (None, Some(_)) if spec.is_empty() => Some('r'),
                        _ => None,
                    };
                    let text = match conversion {
                        Some('r') => {
                            crate::pyformat::format_value(&crate::Value::str(repr(&v)), &spec)
                        }
                        Some('a') => crate::pyformat::format_value(
                            &crate::Value::str(ascii(&repr(&v))),
                            &spec,
                        ),
                        Some(_) => {
                            crate::pyformat::format_value(&crate::Value::str(to_text(&v)), &spec)
                        }
                        None => crate::pyformat::format_value(&v, &spec),
                    };
                    out.push_str(&text.map_err(|e| e.at(f.span))?);
                }
            }
        }
        Ok(out)
    }
}

/// Python's `ascii()`: non-ASCII characters as `\xNN`, `\uNNNN`, `\UNNNNNNNN`.
pub(crate) fn ascii(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let n = c as u32;
        match n {
            0..=0x7f => out.push(c),
            0x80..=0xff => out.push_str(&format!("\\x{n:02x}")),
            0x100..=0xffff => out.push_str(&format!("\\u{n:04x}")),
            _ => out.push_str(&format!("\\U{n:08x}")),
        }
    }
    out
}
