//! f-strings: `f"loss {l:.4f} at step {i}"`. The literal text is decoded as
//! a `"..."` string is (escapes; `"""` is raw), `{{` and `}}` stand for braces,
//! and each `{...}` is a replacement field parsed by the expression parser
//! itself, so a field may hold anything an expression may, strings included:
//! `f"{d["w"].shape}"`. A field is `{expr}`, `{expr=}` (Python's debug form),
//! `{expr!r}` / `!s` / `!a`, and `{expr:spec}` whose spec may hold fields
//! of its own (`{x:{w}.{p}f}`).

use super::lexical::{self, ws};
use super::{PErr, PResult, Parser};
use crate::ast::*;
use crate::span::Span;

impl<'a> Parser<'a> {
    /// An f-string; `r` starts at the `f` (or `F`) before the quote.
    pub(crate) fn fstring(&mut self, r: &'a str) -> PResult<'a, Expr> {
        let start = self.pos(r);
        let quote = r.get(1..).unwrap_or("");
        let (_, close) = lexical::delimiter(quote);
        let triple = close.len() == 3;
        let mut rest = quote.get(close.len()..).unwrap_or("");
        let mut parts = Vec::new();
        let mut lit = String::new();
        loop {
            if let Some(after) = rest.strip_prefix(close) {
                rest = after;
                break;
            }
            let Some(c) = rest.chars().next() else {
                return Err(self.unclosed_fstring(start, close));
            };
            match c {
                '\n' if !triple => return Err(self.unclosed_fstring(start, close)),
                '\\' if !triple => {
                    let mut it = rest[1..].chars();
                    match it.next() {
                        Some('n') => lit.push('\n'),
                        Some('t') => lit.push('\t'),
                        Some('r') => lit.push('\r'),
                        Some('0') => lit.push('\0'),
                        Some('\\') => lit.push('\\'),
                        Some('"') => lit.push('"'),
                        Some('\'') => lit.push('\''),
                        Some('\n') | None => return Err(self.unclosed_fstring(start, close)),
                        Some(other) => {
                            lit.push('\\');
                            lit.push(other);
                        }
                    }
                    let used = 1 + rest[1..].chars().next().map_or(0, char::len_utf8);
                    rest = &rest[used..];
                }
                '{' if rest.starts_with("{{") => {
                    lit.push('{');
                    rest = &rest[2..];
                }
                '}' if rest.starts_with("}}") => {
                    lit.push('}');
                    rest = &rest[2..];
                }
                '{' => {
                    rest = self.field_part(rest, close, &mut parts, &mut lit)?;
                }
                '}' => {
                    return Err(self
                        .err_at(rest, "a single `}` is not allowed in an f-string")
                        .help("write `}}` for a literal `}`"));
                }
                c => {
                    lit.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        if !lit.is_empty() {
            parts.push(FStringPart::Lit(lit));
        }
        Ok((
            rest,
            Expr {
                kind: ExprKind::FString(parts),
                span: self.span_from(start, rest),
            },
        ))
    }

    /// The text so far as a part, then the field at `rest` (its `{`);
    /// returns the rest after the field.
    fn field_part(
        &mut self,
        rest: &'a str,
        close: &'static str,
        parts: &mut Vec<FStringPart>,
        lit: &mut String,
    ) -> Result<&'a str, Box<PErr>> {
        if !lit.is_empty() {
            parts.push(FStringPart::Lit(std::mem::take(lit)));
        }
        let (r2, field) = self.fstring_field(rest, close)?;
        parts.push(FStringPart::Field(Box::new(field)));
        Ok(r2)
    }

    fn unclosed_fstring(&self, start: usize, close: &str) -> Box<PErr> {
        let end = if close.len() == 3 {
            self.src.len()
        } else {
            self.src[start..]
                .find('\n')
                .map_or(self.src.len(), |n| start + n)
        };
        Box::new(PErr {
            msg: "unclosed f-string".into(),
            span: Span::new(start, start + 1 + close.len()),
            help: Some(format!("end it with `{close}`")),
            resume: end,
            expected_expr: false,
        })
    }

    /// A replacement field; `open` starts at its `{`. Returns the rest after its `}`.
    fn fstring_field(&mut self, open: &'a str, close: &'static str) -> PResult<'a, FStringField> {
        let start = self.pos(open);
        self.enter(open)?;
        let r = self.fstring_field_inner(start, open, close);
        self.leave();
        r
    }

    fn fstring_field_inner(
        &mut self,
        start: usize,
        open: &'a str,
        close: &'static str,
    ) -> PResult<'a, FStringField> {
        let after = open.get(1..).unwrap_or("");
        let at = ws(after, true);
        if at.starts_with('}') || at.is_empty() {
            return Err(self
                .err_at(open, "empty expression in an f-string field")
                .help("put an expression between the braces, or write `{{` for a literal `{`"));
        }
        let (rest, expr) = self.expr(after, true)?;
        let mut r = ws(rest, true);
        let mut debug = None;
        if r.starts_with('=') && !r.starts_with("==") {
            let eq_end = self.pos(r) + 1;
            r = ws(&r[1..], true);
            let text_end = self.pos(r).max(eq_end);
            debug = Some(self.src[start + 1..text_end].to_string());
        }
        let mut conversion = None;
        if let Some(after_bang) = r.strip_prefix('!') {
            match after_bang.chars().next() {
                Some(c @ ('r' | 's' | 'a')) => {
                    conversion = Some(c);
                    r = ws(&after_bang[1..], true);
                }
                _ => {
                    return Err(self
                        .err_at(r, "expected `r`, `s` or `a` after `!` in an f-string field")
                        .help("`{x!r}` shows repr(x), `{x!s}` str(x)"));
                }
            }
        }
        let mut spec = Vec::new();
        if let Some(after_colon) = r.strip_prefix(':') {
            let (r2, parts) = self.fstring_spec(after_colon, close)?;
            spec = parts;
            r = r2;
        }
        let Some(after) = r.strip_prefix('}') else {
            let mut e = self.expected(r, "`}` to close the f-string field");
            if r.starts_with(close) || r.is_empty() || r.starts_with('\n') {
                e.span = Span::new(start, start + 1);
                e.msg = "unclosed `{` in an f-string".into();
            }
            return Err(e.help("a field is `{expr}`, `{expr:spec}` or `{expr!r}`"));
        };
        Ok((
            after,
            FStringField {
                expr,
                debug,
                conversion,
                spec,
                span: self.span_from(start, after),
            },
        ))
    }

    /// A format spec up to (not including) the `}` of its field; it may hold
    /// nested fields `{w}`.
    fn fstring_spec(
        &mut self,
        mut rest: &'a str,
        close: &'static str,
    ) -> PResult<'a, Vec<FStringPart>> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        loop {
            let Some(c) = rest.chars().next() else {
                return Err(self.expected(rest, "`}` to close the f-string field"));
            };
            match c {
                '}' => break,
                '{' => {
                    rest = self.field_part(rest, close, &mut parts, &mut lit)?;
                }
                _ if rest.starts_with(close) || (c == '\n' && close.len() == 1) => {
                    return Err(self.expected(rest, "`}` to close the f-string field"));
                }
                c => {
                    lit.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        if !lit.is_empty() {
            parts.push(FStringPart::Lit(lit));
        }
        Ok((rest, parts))
    }
}
