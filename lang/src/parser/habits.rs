//! Python habits the parser recognizes to say what to write in gcalc: a
//! statement that fails to parse and starts with one of Python's own
//! keywords (`def`, `import`, `class`...) gets an error that names it, and
//! `lambda x: e` is accepted as `fn(x) = e` (and `elif` as `else if`, in
//! `compound.rs`).

use super::lexical::{self, keyword, op_token, ws};
use super::{PErr, Parser};
use crate::ast::*;

/// Python's keywords gcalc does not have, with what to write instead.
const PYTHON_ONLY: &[(&str, &str)] = &[
    (
        "def",
        "functions are `fn name(x) = expr` or `fn name(x) { ... }`",
    ),
    (
        "import",
        "gcalc has no imports: NumPy's functions are builtins (`exp(x)`, not `np.exp(x)`)",
    ),
    (
        "from",
        "gcalc has no imports: NumPy's functions are builtins (`exp(x)`, not `np.exp(x)`)",
    ),
    (
        "class",
        "gcalc has no classes; a dict holds named values: {\"w\": w, \"b\": b}",
    ),
    (
        "try",
        "gcalc has no exceptions: an error stops the statement and says why",
    ),
    (
        "except",
        "gcalc has no exceptions: an error stops the statement and says why",
    ),
    ("with", "gcalc has no `with`; `time { ... }` times a block"),
    (
        "global",
        "a function reads the session's variables; it returns what it changes",
    ),
    (
        "nonlocal",
        "a function reads the enclosing variables; it returns what it changes",
    ),
    (
        "yield",
        "gcalc has no generators: build a list, e.g. [f(x) for x in xs]",
    ),
];

impl<'a> Parser<'a> {
    /// A statement that failed at `e` and starts (at `stmt`) with a word
    /// that is a Python keyword gcalc lacks: the error says so instead.
    pub(crate) fn python_habit(&self, stmt: &'a str, e: Box<PErr>) -> Box<PErr> {
        let Ok((after, w)) = lexical::word(stmt) else {
            return e;
        };
        let Some((_, say)) = PYTHON_ONLY.iter().find(|(k, _)| *k == w) else {
            return e;
        };
        // `del = 3` or `from(x)` are gcalc code, not the Python keyword.
        let next = ws(after, false);
        if matches!(op_token(next), Ok((_, "=")))
            || next.starts_with(['(', '[', '.', '\n', ';'])
            || next.is_empty()
        {
            return e;
        }
        let mut err = self.err_at(
            stmt,
            format!("`{w}` is Python's; gcalc has no `{w}` statement"),
        );
        err.resume = e.resume;
        err.help(*say)
    }

    /// `lambda a, b=1: expr` (`r` at the word `lambda`, `after` past it), or
    /// `None` when what follows is not a lambda's parameters (then `lambda`
    /// is an ordinary name: `lambda = 0.01`).
    pub(crate) fn python_lambda(
        &mut self,
        start: usize,
        after: &'a str,
        nl: bool,
    ) -> Result<Option<(&'a str, Expr)>, Box<PErr>> {
        // One nesting level more, as `fn(...)` takes: `lambda: lambda: ...` stays bounded.
        self.enter(after)?;
        let r = self.python_lambda_inner(start, after, nl);
        self.leave();
        r
    }

    fn python_lambda_inner(
        &mut self,
        start: usize,
        after: &'a str,
        nl: bool,
    ) -> Result<Option<(&'a str, Expr)>, Box<PErr>> {
        let mut params = Vec::new();
        let mut rest = ws(after, nl);
        loop {
            if let Some(body) = rest.strip_prefix(':') {
                self.check_param_order(&params)?;
                let (r, e) = self.operand(body, nl, "lambda ...:", Self::expr)?;
                let span = self.span_from(start, r);
                let func = FnBody {
                    params,
                    body: FnBodyKind::Expr(Box::new(e)),
                    span,
                };
                return Ok(Some((
                    r,
                    Expr {
                        kind: ExprKind::Lambda(func),
                        span,
                    },
                )));
            }
            // `lambda *args, **kw: ...`
            let (kind, at) = if let Some(a) = rest.strip_prefix("**") {
                (ParamKind::DoubleStar, a)
            } else if let Some(a) = rest.strip_prefix('*') {
                (ParamKind::Star, a)
            } else {
                (ParamKind::Plain, rest)
            };
            let Ok((r, w)) = lexical::word(at) else {
                return Ok(None);
            };
            if lexical::is_keyword(w) {
                return Ok(None);
            }
            let name = Ident {
                name: w.to_string(),
                span: self.span_from(self.pos(at), r),
            };
            let mut r2 = ws(r, nl);
            let mut default = None;
            if let Ok((after_eq, "=")) = op_token(r2) {
                let (r3, d) = self.expr(after_eq, nl)?;
                default = Some(d);
                r2 = ws(r3, nl);
            }
            params.push(Param {
                name,
                default,
                kind,
            });
            rest = match r2.strip_prefix(',') {
                Some(a) => ws(a, nl),
                None if r2.starts_with(':') => r2,
                None => return Ok(None),
            };
            if keyword(rest, "lambda").is_some() {
                return Ok(None);
            }
        }
    }
}
