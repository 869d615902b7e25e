//! Constructs built around `{ ... }` blocks and parameter lists: blocks,
//! anonymous and named function bodies, `if` expressions and the bodies of
//! `for` / `while`.

use super::lexical::{self, keyword, op_token, ws};
use super::{PErr, PResult, Parser};
use crate::ast::*;
use crate::span::Span;

impl<'a> Parser<'a> {
    /// A `{ ... }` block; `i` starts with `{`. Statements inside are
    /// separated by newlines or `;`, and each one that fails is reported and
    /// skipped.
    pub(crate) fn block(&mut self, i: &'a str) -> PResult<'a, Block> {
        let open = self.pos(i);
        self.enter(i)?;
        let (rest, stmts) = self.stmts(i.get(1..).unwrap_or(""), true);
        self.leave();
        match rest.strip_prefix('}') {
            Some(after) => Ok((
                after,
                Block {
                    stmts,
                    span: self.span_from(open, after),
                },
            )),
            None => Err(self.unclosed(open, '{', self.src.len())),
        }
    }

    /// The `{` that must start the body of `what` (e.g. "`while`"); `r` is
    /// at the token after the condition or header.
    pub(crate) fn body_block(&mut self, r: &'a str, what: &str) -> PResult<'a, Block> {
        if r.starts_with('{') {
            return self.block(r);
        }
        let e = self.expected(r, &format!("`{{` to start the body of {what}"));
        Err(match op_token(r) {
            Ok((_, "=")) => e.help("did you mean `==`?"),
            _ if r.starts_with(':') => {
                e.help("gcalc's blocks are `{ ... }`, opened on this line, not `:` and indentation")
            }
            _ if r.is_empty() || r.starts_with('\n') => {
                e.help("the `{` must be on the same line as the condition")
            }
            _ => e,
        })
    }

    /// `fn(params) = expr` or `fn(params) { ... }`; `r` is at `fn`.
    pub(crate) fn lambda(&mut self, r: &'a str, after_fn: &'a str, nl: bool) -> PResult<'a, Expr> {
        let start = self.pos(r);
        let r2 = ws(after_fn, nl);
        if !r2.starts_with('(') {
            let e = self.expected(r2, "`(` after `fn`");
            return Err(if lexical::word(r2).is_ok() {
                e.help("a named function is a statement of its own: `fn name(x) = ...`")
            } else {
                e
            });
        }
        self.enter(r2)?;
        let res = self.fn_body(start, r2, nl);
        self.leave();
        let (rest, func) = res?;
        Ok((
            rest,
            Expr {
                kind: ExprKind::Lambda(func),
                span: self.span_from(start, rest),
            },
        ))
    }

    /// Parameters (at `(`) and body of a function whose text starts at byte `start`.
    pub(crate) fn fn_body(
        &mut self,
        start: usize,
        params_at: &'a str,
        nl: bool,
    ) -> PResult<'a, FnBody> {
        let (rest, (params, _)) = self.seq(params_at, '(', Self::param, "a parameter name")?;
        self.check_param_order(&params)?;
        let r = ws(rest, nl);
        let (rest, body) = if r.starts_with('{') {
            let (rest, b) = self.block(r)?;
            (rest, FnBodyKind::Block(b))
        } else if let Ok((after, "=")) = op_token(r) {
            let at = ws(after, nl);
            let (rest, e) = self.expr(after, nl).map_err(|mut e| {
                if e.expected_expr && e.span.start as usize == self.pos(at) {
                    e.msg = format!(
                        "expected the function's expression after `=`, found {}",
                        lexical::describe(at)
                    );
                }
                e
            })?;
            (rest, FnBodyKind::Expr(Box::new(e)))
        } else {
            return Err(self.expected(r, "`=` or `{` after the parameters"));
        };
        Ok((
            rest,
            FnBody {
                params,
                body,
                span: self.span_from(start, rest),
            },
        ))
    }

    /// Python's order: one `*args` at most, one `**kwargs` at most and last.
    pub(crate) fn check_param_order(&self, params: &[Param]) -> Result<(), Box<PErr>> {
        let mut stars = 0;
        for (k, p) in params.iter().enumerate() {
            let bad = match p.kind {
                ParamKind::Star => {
                    stars += 1;
                    (stars > 1).then_some("only one `*args` parameter is allowed")
                }
                ParamKind::DoubleStar => {
                    (k + 1 != params.len()).then_some("`**kwargs` must be the last parameter")
                }
                ParamKind::Plain => None,
            };
            if let Some(msg) = bad {
                return Err(Box::new(PErr {
                    msg: msg.into(),
                    span: p.name.span,
                    help: Some("as in Python: fn f(a, b=1, *args, c=2, **kwargs)".into()),
                    resume: p.name.span.start as usize,
                    expected_expr: false,
                }));
            }
        }
        Ok(())
    }

    /// `name`, `name=default`, `*args` or `**kwargs`.
    fn param(&mut self, i: &'a str) -> PResult<'a, Param> {
        for (prefix, kind) in [("**", ParamKind::DoubleStar), ("*", ParamKind::Star)] {
            if let Some(after) = i.strip_prefix(prefix) {
                let (rest, name) = self.ident(after, "a parameter name")?;
                return Ok((
                    rest,
                    Param {
                        name,
                        default: None,
                        kind,
                    },
                ));
            }
        }
        let (rest, name) = self.ident(i, "a parameter name")?;
        let r = ws(rest, true);
        if let Ok((after, "=")) = op_token(r) {
            let (rest, d) = self.expr(after, true)?;
            return Ok((
                rest,
                Param {
                    name,
                    default: Some(d),
                    kind: ParamKind::Plain,
                },
            ));
        }
        Ok((
            rest,
            Param {
                name,
                default: None,
                kind: ParamKind::Plain,
            },
        ))
    }

    /// `if cond { ... } [else if ... | elif ... | else { ... }]`; `r` is at `if`.
    pub(crate) fn if_expr(&mut self, r: &'a str, after_if: &'a str, nl: bool) -> PResult<'a, Expr> {
        let start = self.pos(r);
        self.enter(r)?;
        let res = self.if_inner(start, after_if, nl);
        self.leave();
        res
    }

    fn if_inner(&mut self, start: usize, after_if: &'a str, nl: bool) -> PResult<'a, Expr> {
        let at = ws(after_if, nl);
        self.cond_not_block(at, "if")?;
        let (rest, cond) = self
            .expr(after_if, nl)
            .map_err(|e| self.missing_cond(e, at, "if"))?;
        let (mut rest, then) = self.body_block(ws(rest, nl), "`if`")?;
        let mut else_ = None;
        // `else` may start the next line: it cannot begin a statement.
        // Python's `elif c { }` is `else if c { }` (a habit kept, not refused).
        if let Some(after_elif) = keyword(ws(rest, true), "elif") {
            let r2 = ws(rest, true);
            let (r3, e) = self.if_expr(r2, after_elif, nl)?;
            else_ = Some(Box::new(e));
            rest = r3;
        } else if let Some(after_else) = keyword(ws(rest, true), "else") {
            let r2 = ws(after_else, nl);
            if let Some(after_if2) = keyword(r2, "if") {
                let (r3, e) = self.if_expr(r2, after_if2, nl)?;
                else_ = Some(Box::new(e));
                rest = r3;
            } else if r2.starts_with('{') {
                let (r3, b) = self.block(r2)?;
                let span = b.span;
                else_ = Some(Box::new(Expr {
                    kind: ExprKind::Block(b),
                    span,
                }));
                rest = r3;
            } else {
                return Err(self.expected(r2, "`{` or `if` after `else`"));
            }
        }
        let kind = ExprKind::If {
            cond: Box::new(cond),
            then,
            else_,
        };
        Ok((
            rest,
            Expr {
                kind,
                span: self.span_from(start, rest),
            },
        ))
    }

    /// A `{` right after `if`/`while`/`in` is a missing condition, not a dict.
    pub(crate) fn cond_not_block(&self, at: &str, kw: &str) -> Result<(), Box<PErr>> {
        if at.starts_with('{') {
            let mut e = self.expected(at, "a condition");
            e.msg = format!(
                "expected a condition after `{kw}`, found {}",
                lexical::describe(at)
            );
            return Err(e);
        }
        Ok(())
    }

    /// Reword "expected an expression" right after `kw` as a missing condition.
    pub(crate) fn missing_cond(&self, mut e: Box<PErr>, at: &str, kw: &str) -> Box<PErr> {
        if e.expected_expr && e.span.start as usize == self.pos(at) {
            e.msg = format!(
                "expected a condition after `{kw}`, found {}",
                lexical::describe(at)
            );
            e.help = None;
        }
        e
    }

    /// The variable(s) of a `for`: `i`, `a, b`, `(a, b), c`.
    /// `nl`: newlines are free (inside a comprehension's brackets).
    pub(crate) fn for_target(&mut self, i: &'a str, nl: bool) -> PResult<'a, Target> {
        let r = ws(i, nl);
        let start = self.pos(r);
        let mut items = Vec::new();
        let mut rest = r;
        loop {
            let (r2, t) = self.for_target_item(ws(rest, nl))?;
            items.push(t);
            let r3 = ws(r2, nl);
            match r3.strip_prefix(',') {
                Some(after) if keyword(ws(after, nl), "in").is_none() => rest = after,
                Some(after) => {
                    rest = after;
                    break;
                }
                None => {
                    rest = r2;
                    if items.len() == 1 {
                        return Ok((
                            rest,
                            items
                                .pop()
                                .unwrap_or_else(|| Target::Tuple(vec![], Span::default())),
                        ));
                    }
                    break;
                }
            }
        }
        if let Some(second) = items
            .iter()
            .filter(|t| matches!(t, Target::Starred(..)))
            .nth(1)
        {
            return Err(Box::new(PErr {
                msg: "several starred names in one loop target".into(),
                span: second.span(),
                help: Some("at most one `*name` takes the rest".into()),
                resume: second.span().start as usize,
                expected_expr: false,
            }));
        }
        Ok((rest, Target::Tuple(items, self.span_from(start, rest))))
    }

    fn for_target_item(&mut self, r: &'a str) -> PResult<'a, Target> {
        // `for first, *rest in rows`: the rest of each item as a list.
        if let Some(after) = r.strip_prefix('*') {
            let start = self.pos(r);
            let (rest, id) = self.ident(after, "a loop variable after `*`")?;
            let span = self.span_from(start, rest);
            return Ok((rest, Target::Starred(Box::new(Target::Name(id)), span)));
        }
        if r.starts_with('(') {
            let start = self.pos(r);
            let (rest, (items, _)) =
                self.seq(r, '(', |p, i| p.for_target_item(i), "a loop variable")?;
            return Ok((rest, Target::Tuple(items, self.span_from(start, rest))));
        }
        let (rest, id) = self.ident(r, "a loop variable")?;
        Ok((rest, Target::Name(id)))
    }
}
