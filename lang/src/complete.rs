//! Whether an input typed at a prompt is complete, needs more lines (an
//! open bracket or `"""` string), or is an error that more input cannot fix.

use crate::parser::{StrLex, any_string};

/// The answer of [`is_complete`].
#[derive(Debug, Clone, PartialEq)]
pub enum Completeness {
    /// Parses without errors (or is empty): run it.
    Complete,
    /// A bracket or `"""` string is still open: read another line, indented by `indent`.
    Incomplete { indent: String },
    /// A syntax error that more lines cannot fix.
    Invalid,
}

/// Decide whether `src` is ready to run, like IPython: only an open `(`,
/// `[`, `{` or `"""` asks for more; a `"` string cannot span lines, so an
/// open one is invalid.
pub fn is_complete(src: &str) -> Completeness {
    let mut stack: Vec<u8> = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                match any_string(src, i) {
                    StrLex::Ok(after, _) => {
                        i = src.len() - after.len();
                        continue;
                    }
                    StrLex::Unclosed { triple: true } => {
                        return Completeness::Incomplete {
                            indent: "    ".repeat(stack.len()),
                        };
                    }
                    StrLex::Unclosed { triple: false } => {
                        // An unclosed `"` string ends at its line: the parse decides.
                        let rest = src.get(i..).unwrap_or("");
                        i += rest.find('\n').unwrap_or(rest.len());
                        continue;
                    }
                }
            }
            b'#' => {
                let rest = src.get(i..).unwrap_or("");
                i += rest.find('\n').unwrap_or(rest.len());
                continue;
            }
            c @ (b'(' | b'[' | b'{') => stack.push(c),
            c @ (b')' | b']' | b'}') => {
                let open = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if stack.pop() != Some(open) {
                    // A stray closer more lines cannot fix (unless it is raw
                    // text, as a `set` value is): the parse decides.
                    stack.clear();
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if !stack.is_empty() {
        return Completeness::Incomplete {
            indent: "    ".repeat(stack.len()),
        };
    }
    if crate::parse(src).diagnostics.is_empty() {
        Completeness::Complete
    } else {
        Completeness::Invalid
    }
}
