//! Bracketed collections beyond plain sequences: list comprehensions and
//! generator expressions (`[e for x in xs if c]`, `(e for x in xs)`), dict
//! literals `{"w": w}` and dict comprehensions `{k: v for k in ks}`; set
//! literals `{1, 2}` and comprehensions `{x for x in xs}`, read as calls of
//! `set` on a list display or comprehension.
//! Newlines are free inside the brackets.

use super::lexical::{self, keyword, ws};
use super::{PErr, PResult, Parser};
use crate::ast::*;

/// What `seq_or_comp` found: the items, whether a trailing comma followed
/// the last one, and the comprehension when the first item was followed by `for`.
type SeqOrComp = (Vec<Expr>, bool, Option<ExprKind>);

const BLOCK_HELP: &str = "a `{` here starts a dict `{\"key\": value}`; a block `{ ... }` follows `if`, `else`, `fn(...)`, `for`, `while` or `time`";

/// `set(items)`: what a set literal or comprehension means (`items` a list
/// display or comprehension spanning the braces).
fn set_call(items: Expr) -> ExprKind {
    let span = items.span;
    ExprKind::Call {
        func: Box::new(Expr {
            kind: ExprKind::Name("set".into()),
            span: crate::span::Span::new(span.start as usize, span.start as usize + 1),
        }),
        args: vec![Arg {
            name: None,
            value: items,
            span,
        }],
    }
}

impl<'a> Parser<'a> {
    /// `(...)` or `[...]` (`r` at the opener): comma-separated expressions,
    /// or one expression followed by comprehension clauses.
    pub(crate) fn seq_or_comp(&mut self, r: &'a str, open: char) -> PResult<'a, SeqOrComp> {
        self.enter(r)?;
        let res = self.seq_or_comp_inner(r, open);
        self.leave();
        res
    }

    fn seq_or_comp_inner(&mut self, r: &'a str, open: char) -> PResult<'a, SeqOrComp> {
        let close = if open == '(' { ')' } else { ']' };
        let open_pos = self.pos(r);
        let inner = r.get(1..).unwrap_or("");
        let at = ws(inner, true);
        if at.is_empty() || at.starts_with([')', ']', '}']) {
            let (rest, (items, trailing)) = self.seq_inner(
                inner,
                open,
                close,
                open_pos,
                Self::expr_item,
                "an expression",
                Vec::new(),
            )?;
            return Ok((rest, (items, trailing, None)));
        }
        let (rest, first) = self.expr_item(at).map_err(|e| self.expected_item(e, at))?;
        let r2 = ws(rest, true);
        if let Some(after_for) = keyword(r2, "for") {
            let (rest, clauses) = self.comp_clauses(r2, after_for)?;
            let rest = self.closer(rest, open, close, open_pos)?;
            let kind = ExprKind::ListComp {
                elt: Box::new(first),
                clauses,
            };
            return Ok((rest, (Vec::new(), false, Some(kind))));
        }
        let (rest, (items, trailing)) = self.seq_inner(
            rest,
            open,
            close,
            open_pos,
            Self::expr_item,
            "an expression",
            vec![first],
        )?;
        Ok((rest, (items, trailing, None)))
    }

    /// An item of a list or tuple display: an expression, or `*xs` (its
    /// items put in: `[*a, *b]`, `(0, *xs)`).
    fn expr_item(&mut self, i: &'a str) -> PResult<'a, Expr> {
        self.star_or_expr(i, true)
    }

    /// `*xs` (a starred item, unpacked where it stands) or an expression;
    /// `nl`: whether newlines are free (inside brackets).
    pub(crate) fn star_or_expr(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let r = ws(i, nl);
        if let Some(after) = r.strip_prefix('*').filter(|a| !a.starts_with(['*', '='])) {
            let start = self.pos(r);
            let (rest, inner) = self.operand(after, nl, "*", Self::expr)?;
            let span = self.span_from(start, rest);
            return Ok((
                rest,
                Expr {
                    kind: ExprKind::Starred {
                        expr: Box::new(inner),
                        double: false,
                    },
                    span,
                },
            ));
        }
        self.expr(i, nl)
    }

    /// Reword "expected an expression" at `at` (the first item of a bracket).
    fn expected_item(&self, mut e: Box<PErr>, at: &str) -> Box<PErr> {
        if e.expected_expr && e.span.start as usize == self.pos(at) {
            e.msg = format!("expected an expression, found {}", lexical::describe(at));
        }
        e
    }

    /// The closing bracket after a comprehension's clauses.
    fn closer(
        &mut self,
        rest: &'a str,
        open: char,
        close: char,
        open_pos: usize,
    ) -> Result<&'a str, Box<PErr>> {
        let r = ws(rest, true);
        if let Some(after) = r.strip_prefix(close) {
            return Ok(after);
        }
        if r.is_empty() {
            return Err(self.unclosed(open_pos, open, self.src.len()));
        }
        Err(self
            .expected(r, &format!("`{close}` after the comprehension"))
            .help("a comprehension is `[expr for x in xs if cond]`"))
    }

    /// `for t in xs [if c]... [for u in ys ...]`; `r` is at the first `for`.
    pub(crate) fn comp_clauses(
        &mut self,
        r: &'a str,
        after_for: &'a str,
    ) -> PResult<'a, Vec<CompClause>> {
        let mut clauses = Vec::new();
        let mut at_for = r;
        let mut after = after_for;
        let mut count = 0;
        loop {
            self.chain(&mut count, at_for)?;
            let (r1, target) = self.for_target(after, true)?;
            let r2 = ws(r1, true);
            let Some(after_in) = keyword(r2, "in") else {
                return Err(self.expected(r2, "`in` after the comprehension's variable"));
            };
            let (mut rest, iter) = self.operand(after_in, true, "in", Self::expr_no_ternary)?;
            clauses.push(CompClause::For { target, iter });
            loop {
                let r3 = ws(rest, true);
                if let Some(after_if) = keyword(r3, "if") {
                    self.chain(&mut count, r3)?;
                    let at = ws(after_if, true);
                    let (r4, cond) = self
                        .expr_no_ternary(after_if, true)
                        .map_err(|e| self.missing_cond(e, at, "if"))?;
                    clauses.push(CompClause::If(cond));
                    rest = r4;
                    continue;
                }
                if let Some(a) = keyword(r3, "for") {
                    at_for = r3;
                    after = a;
                    break;
                }
                return Ok((rest, clauses));
            }
        }
    }

    /// `{...}` in an expression (`r` at the `{`): a dict or a dict comprehension.
    pub(crate) fn dict_atom(&mut self, r: &'a str) -> PResult<'a, ExprKind> {
        self.enter(r)?;
        let res = self.dict_inner(r);
        self.leave();
        res
    }

    fn dict_inner(&mut self, r: &'a str) -> PResult<'a, ExprKind> {
        let open_pos = self.pos(r);
        let inner = r.get(1..).unwrap_or("");
        let at = ws(inner, true);
        if let Some(after) = at.strip_prefix('}') {
            return Ok((after, ExprKind::Dict(Vec::new())));
        }
        if at.is_empty() {
            return Err(self.unclosed(open_pos, '{', self.src.len()));
        }
        let (rest, key) = self.expr(at, true).map_err(|e| {
            let e = self.expected_item(e, at);
            if e.span.start as usize == self.pos(at) {
                e.help(BLOCK_HELP)
            } else {
                e
            }
        })?;
        let r2 = ws(rest, true);
        let Some(after_colon) = r2.strip_prefix(':') else {
            // A set comprehension `{e for x in xs}` is `set([e for x in xs])`.
            if let Some(after_for) = keyword(r2, "for") {
                let (rest, clauses) = self.comp_clauses(r2, after_for)?;
                let rest = self.closer(rest, '{', '}', open_pos)?;
                let span = self.span_from(open_pos, rest);
                let kind = ExprKind::ListComp {
                    elt: Box::new(key),
                    clauses,
                };
                return Ok((rest, set_call(Expr { kind, span })));
            }
            // A set literal `{a, b}` is `set([a, b])`.
            if r2.starts_with([',', '}']) {
                let (rest, (items, _)) = self.seq_inner(
                    rest,
                    '{',
                    '}',
                    open_pos,
                    Self::expr_item,
                    "an expression",
                    vec![key],
                )?;
                let span = self.span_from(open_pos, rest);
                let kind = ExprKind::List(items);
                return Ok((rest, set_call(Expr { kind, span })));
            }
            return Err(self.expected(r2, "`:` after the dict key").help(BLOCK_HELP));
        };
        let (rest, value) = self.operand(after_colon, true, ":", Self::expr)?;
        let r3 = ws(rest, true);
        if let Some(after_for) = keyword(r3, "for") {
            let (rest, clauses) = self.comp_clauses(r3, after_for)?;
            let rest = self.closer(rest, '{', '}', open_pos)?;
            let kind = ExprKind::DictComp {
                key: Box::new(key),
                value: Box::new(value),
                clauses,
            };
            return Ok((rest, kind));
        }
        let (rest, (entries, _)) = self.seq_inner(
            rest,
            '{',
            '}',
            open_pos,
            Self::dict_entry,
            "a `key: value` entry",
            vec![(key, value)],
        )?;
        Ok((rest, ExprKind::Dict(entries)))
    }

    /// `key: value`.
    fn dict_entry(&mut self, i: &'a str) -> PResult<'a, (Expr, Expr)> {
        let (rest, key) = self.expr(i, true)?;
        let r = ws(rest, true);
        let Some(after) = r.strip_prefix(':') else {
            return Err(self
                .expected(r, "`:` after the dict key")
                .help("each entry of a dict is `key: value`"));
        };
        let (rest, value) = self.operand(after, true, ":", Self::expr)?;
        Ok((rest, (key, value)))
    }
}
