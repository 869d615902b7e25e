//! Statements: the statement loop shared by the top level and blocks,
//! assignment and its targets, `fn` definitions, `for`, `while`, `return`,
//! `set`, and recovery to the next statement boundary after an error.

use super::lexical::{self, keyword, op_token, ws};
use super::{PErr, PResult, Parser};
use crate::ast::*;

/// After the word `kw` (`assert`, `del`) at the start of a statement, the
/// rest when it is Python's statement: not `assert = 1`, `del.x`, `del[0]`
/// or the word alone (then it is an ordinary name).
fn python_statement<'a>(i: &'a str, kw: &str, in_block: bool) -> Option<&'a str> {
    let after = i.strip_prefix(kw)?;
    if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let r = ws(after, false);
    if at_end(r, in_block) || r.starts_with(['.', '[', ',', ')', ']']) {
        return None;
    }
    match op_token(r) {
        Ok((_, tok)) if tok == "=" || aug_op(tok).is_some() => None,
        _ => Some(after),
    }
}

/// Whether `r` (after blanks) is at the end of a statement.
fn at_end(r: &str, in_block: bool) -> bool {
    r.is_empty() || r.starts_with(['\n', ';']) || (in_block && r.starts_with('}'))
}

fn aug_op(tok: &str) -> Option<BinOp> {
    Some(match tok {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "//=" => BinOp::FloorDiv,
        "%=" => BinOp::Mod,
        "**=" => BinOp::Pow,
        "@=" => BinOp::MatMul,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::LShift,
        ">>=" => BinOp::RShift,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    /// Statements up to the end of input, or (in a block) up to a `}` at
    /// this level, which is left in the returned rest.
    pub(crate) fn stmts(&mut self, i: &'a str, in_block: bool) -> (&'a str, Vec<Stmt>) {
        let mut rest = i;
        let mut out = Vec::new();
        loop {
            rest = ws(rest, true);
            while let Some(after) = rest.strip_prefix(';') {
                rest = ws(after, true);
            }
            if rest.is_empty() || (in_block && rest.starts_with('}')) {
                return (rest, out);
            }
            if let Some(c) = rest.chars().next().filter(|c| matches!(c, ')' | ']' | '}')) {
                let e = self.unexpected_closer(rest, c);
                self.push_err(*e);
                rest = rest.get(1..).unwrap_or("");
                continue;
            }
            let parsed = self
                .stmt(rest, in_block)
                .and_then(|(r, s)| Ok((self.stmt_end(r, in_block)?, s)));
            match parsed {
                Ok((r, s)) => {
                    out.push(s);
                    rest = r;
                }
                Err(e) => {
                    let e = self.python_habit(rest, e);
                    let start = self.pos(rest);
                    let resume = e.resume.max(start);
                    self.push_err(*e);
                    let next = self.recover(resume, in_block);
                    // Always make progress, whatever the error said.
                    rest = if self.pos(next) > start {
                        next
                    } else {
                        rest.get(rest.chars().next().map_or(1, char::len_utf8)..)
                            .unwrap_or("")
                    };
                }
            }
        }
    }

    fn unexpected_closer(&self, r: &str, c: char) -> Box<PErr> {
        let open = match c {
            ')' => '(',
            ']' => '[',
            _ => '{',
        };
        self.err_at(r, format!("unexpected `{c}`"))
            .help(format!("there is no open `{open}` for it"))
    }

    /// After a statement: only blanks, a comment, then a newline, `;`, the
    /// end, or the `}` of the enclosing block may follow.
    fn stmt_end(&self, rest: &'a str, in_block: bool) -> Result<&'a str, Box<PErr>> {
        let r = ws(rest, false);
        if at_end(r, in_block) {
            return Ok(r);
        }
        if let Some(c) = r.chars().next().filter(|c| matches!(c, ')' | ']' | '}')) {
            return Err(self.unexpected_closer(r, c));
        }
        Err(self
            .expected(r, "the end of the statement")
            .help("put a newline or `;` between statements"))
    }

    /// Skip from byte `from` to the next newline or `;` outside brackets and
    /// strings (or, in a block, to a `}` that closes it).
    pub(crate) fn recover(&self, from: usize, in_block: bool) -> &'a str {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut i = from.min(src.len());
        let mut depth = 0usize;
        while i < bytes.len() {
            match bytes[i] {
                b'"' | b'\'' => {
                    let rest = src.get(i..).unwrap_or("");
                    match lexical::any_string(src, i) {
                        lexical::StrLex::Ok(after, _) => i = src.len() - after.len(),
                        lexical::StrLex::Unclosed { triple: true } => return "",
                        lexical::StrLex::Unclosed { triple: false } => {
                            i += rest.find('\n').unwrap_or(rest.len());
                        }
                    }
                    continue;
                }
                b'#' => {
                    let rest = src.get(i..).unwrap_or("");
                    i += rest.find('\n').unwrap_or(rest.len());
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' => depth = depth.saturating_sub(1),
                b'}' if depth > 0 => depth -= 1,
                b'}' if in_block => break,
                b'\n' | b';' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        src.get(i..).unwrap_or("")
    }

    /// One statement starting at `i` (blanks already skipped).
    fn stmt(&mut self, i: &'a str, in_block: bool) -> PResult<'a, Stmt> {
        let start = self.pos(i);
        let (rest, kind) = self.stmt_kind(i, in_block)?;
        Ok((
            rest,
            Stmt {
                kind,
                span: self.span_from(start, rest),
            },
        ))
    }

    fn stmt_kind(&mut self, i: &'a str, in_block: bool) -> PResult<'a, StmtKind> {
        let start = self.pos(i);
        if let Some(after) = keyword(i, "fn") {
            let r = ws(after, false);
            if !r.starts_with('(') {
                let (r2, name) = self.ident(r, "a function name after `fn`")?;
                let params_at = ws(r2, false);
                if !params_at.starts_with('(') {
                    return Err(self.expected(params_at, "`(` after the function name"));
                }
                let (rest, func) = self.fn_body(start, params_at, false)?;
                return Ok((rest, StmtKind::FnDef { name, func }));
            }
        }
        if let Some(after) = keyword(i, "for") {
            let (r, var) = self.for_target(after, false)?;
            let r = ws(r, false);
            let Some(after_in) = keyword(r, "in") else {
                return Err(self.expected(r, "`in` after the loop variable"));
            };
            let at = ws(after_in, false);
            self.cond_not_block(at, "in")?;
            let (r2, iter) = self
                .expr(after_in, false)
                .map_err(|e| self.missing_cond(e, at, "in"))?;
            let (rest, body) = self.body_block(ws(r2, false), "`for`")?;
            return Ok((rest, StmtKind::For { var, iter, body }));
        }
        if let Some(after) = keyword(i, "while") {
            let at = ws(after, false);
            self.cond_not_block(at, "while")?;
            let (r, cond) = self
                .expr(after, false)
                .map_err(|e| self.missing_cond(e, at, "while"))?;
            let (rest, body) = self.body_block(ws(r, false), "`while`")?;
            return Ok((rest, StmtKind::While { cond, body }));
        }
        if let Some(after) = keyword(i, "break") {
            return Ok((after, StmtKind::Break));
        }
        if let Some(after) = keyword(i, "continue") {
            return Ok((after, StmtKind::Continue));
        }
        if let Some(after) = keyword(i, "return") {
            if at_end(ws(after, false), in_block) {
                return Ok((after, StmtKind::Return(None)));
            }
            let (rest, e) = self.expr_list(after)?;
            return Ok((rest, StmtKind::Return(Some(e))));
        }
        if let Some(after) = keyword(i, "set").filter(|a| !ws(a, false).starts_with('(')) {
            return self.set_stmt(after, in_block);
        }
        // Python's `pass` alone: a statement that does nothing (`if c { pass }`).
        if let Some(after) = keyword(i, "pass").filter(|a| at_end(ws(a, false), in_block)) {
            let span = self.span_from(start, after);
            return Ok((
                after,
                StmtKind::Expr(Expr {
                    kind: ExprKind::None,
                    span,
                }),
            ));
        }
        if let Some(after) = python_statement(i, "assert", in_block) {
            let (r, cond) = self.operand(after, false, "assert", Self::expr)?;
            if matches!(&cond.kind, ExprKind::Tuple(t) if !t.is_empty()) {
                return Err(Box::new(PErr {
                    msg: "`assert (cond, msg)` is always true: a tuple is never empty".into(),
                    span: cond.span,
                    help: Some("drop the parentheses: `assert cond, msg`".into()),
                    resume: cond.span.start as usize,
                    expected_expr: false,
                }));
            }
            let r2 = ws(r, false);
            if let Some(after_comma) = r2.strip_prefix(',') {
                let (rest, msg) = self.operand(after_comma, false, "assert ... ,", Self::expr)?;
                return Ok((
                    rest,
                    StmtKind::Assert {
                        cond,
                        msg: Some(msg),
                    },
                ));
            }
            return Ok((r, StmtKind::Assert { cond, msg: None }));
        }
        if let Some(after) = python_statement(i, "raise", in_block) {
            let (rest, e) = self.expr(after, false)?;
            let span = e.span;
            let kind = match e.kind {
                // `raise ValueError("msg")`, `raise ValueError`.
                ExprKind::Call { func, mut args }
                    if args.len() <= 1 && args.iter().all(|a| a.name.is_none()) =>
                {
                    let fspan = func.span;
                    match func.kind {
                        ExprKind::Name(name) => StmtKind::Raise {
                            class: Some(Ident { name, span: fspan }),
                            msg: args.pop().map(|a| a.value),
                        },
                        fkind => StmtKind::Raise {
                            class: None,
                            msg: Some(Expr {
                                kind: ExprKind::Call {
                                    func: Box::new(Expr {
                                        kind: fkind,
                                        span: fspan,
                                    }),
                                    args,
                                },
                                span,
                            }),
                        },
                    }
                }
                ExprKind::Name(name) => StmtKind::Raise {
                    class: Some(Ident { name, span: e.span }),
                    msg: None,
                },
                kind => StmtKind::Raise {
                    class: None,
                    msg: Some(Expr { kind, span: e.span }),
                },
            };
            return Ok((rest, kind));
        }
        if let Some(after) = python_statement(i, "del", in_block) {
            let (rest, e) = self.expr_list(after)?;
            let items = match e.kind {
                ExprKind::Tuple(items) => items,
                _ => vec![e],
            };
            let mut targets = Vec::with_capacity(items.len());
            for e in items {
                // `del(x)` is `del x`, as in Python.
                let e = match e.kind {
                    ExprKind::Tuple(mut one) if one.len() == 1 => one.remove(0),
                    _ => e,
                };
                match &e.kind {
                    ExprKind::Name(_) | ExprKind::Index { .. } => targets.push(self.to_target(e)?),
                    _ => {
                        return Err(Box::new(PErr {
                            msg: "`del` takes names and items: `del x`, `del d[k]`, `del xs[i]`"
                                .into(),
                            span: e.span,
                            help: Some("an attribute or a value cannot be deleted".into()),
                            resume: e.span.start as usize,
                            expected_expr: false,
                        }));
                    }
                }
            }
            return Ok((rest, StmtKind::Del(targets)));
        }
        let (rest, lhs) = self.expr_list(i)?;
        let r = ws(rest, false);
        match op_token(r) {
            Ok((after, "=")) => {
                let target = self.to_target(lhs)?;
                let (rest, value) = self.rhs(after, "=")?;
                let r2 = ws(rest, false);
                if let Ok((_, "=")) = op_token(r2) {
                    let e = self.err_at(r2, "gcalc has no chained assignment `a = b = value`");
                    return Err(e.help("assign once and copy the name: `b = value; a = b`"));
                }
                Ok((rest, StmtKind::Assign { target, value }))
            }
            Ok((after, tok)) if aug_op(tok).is_some() => {
                let op = aug_op(tok).unwrap_or(BinOp::Add);
                if let ExprKind::Tuple(_) = lhs.kind {
                    let e = self.err_at(r, format!("cannot use `{tok}` with several targets"));
                    return Err(e.help("update each variable on its own"));
                }
                let target = self.to_target(lhs)?;
                let (rest, value) = self.rhs(after, tok)?;
                Ok((rest, StmtKind::AugAssign { target, op, value }))
            }
            _ => Ok((rest, StmtKind::Expr(lhs))),
        }
    }

    /// The right side of an assignment.
    fn rhs(&mut self, after: &'a str, op: &str) -> PResult<'a, Expr> {
        let at = ws(after, false);
        self.expr_list(after).map_err(|mut e| {
            if e.expected_expr && e.span.start as usize == self.pos(at) {
                e.msg = format!(
                    "expected an expression after `{op}`, found {}",
                    lexical::describe(at)
                );
            }
            e
        })
    }

    /// `e` or `e1, e2, ...` (a tuple without parentheses), newlines significant.
    fn expr_list(&mut self, i: &'a str) -> PResult<'a, Expr> {
        let (mut rest, first) = self.list_item(i)?;
        let r = ws(rest, false);
        if !r.starts_with(',') {
            return Ok((rest, first));
        }
        let span0 = first.span;
        let mut items = vec![first];
        loop {
            let r = ws(rest, false);
            let Some(after) = r.strip_prefix(',') else {
                break;
            };
            rest = after;
            let r2 = ws(after, false);
            if at_end(r2, false) || r2.starts_with('}') || matches!(op_token(r2), Ok((_, "="))) {
                break;
            }
            let (r3, e) = self.list_item(after)?;
            items.push(e);
            rest = r3;
        }
        let span = crate::span::Span::new(span0.start as usize, self.pos(rest));
        Ok((
            rest,
            Expr {
                kind: ExprKind::Tuple(items),
                span,
            },
        ))
    }

    /// An item of `e1, e2, ...`: an expression, or `*name` (a starred
    /// target `a, *rest = xs`, or unpacked into a tuple `t = 1, *xs`).
    fn list_item(&mut self, i: &'a str) -> PResult<'a, Expr> {
        self.star_or_expr(i, false)
    }

    /// Turn the left side of `=` into an assignment target.
    fn to_target(&self, e: Expr) -> Result<Target, Box<PErr>> {
        let span = e.span;
        match e.kind {
            ExprKind::Name(name) => Ok(Target::Name(Ident { name, span })),
            ExprKind::Tuple(items) if !items.is_empty() => {
                let mut starred = 0;
                let mut ts = Vec::with_capacity(items.len());
                for e in items {
                    if let ExprKind::Starred {
                        expr,
                        double: false,
                    } = e.kind
                    {
                        starred += 1;
                        if starred > 1 {
                            return Err(Box::new(PErr {
                                msg: "several starred names in one assignment".into(),
                                span: e.span,
                                help: Some("at most one `*name` takes the rest".into()),
                                resume: span.start as usize,
                                expected_expr: false,
                            }));
                        }
                        ts.push(Target::Starred(Box::new(self.to_target(*expr)?), e.span));
                    } else {
                        ts.push(self.to_target(e)?);
                    }
                }
                Ok(Target::Tuple(ts, span))
            }
            ExprKind::Index { base, index } => Ok(Target::Index { base, index, span }),
            ExprKind::Attr { base, attr } => Ok(Target::Attr { base, attr, span }),
            kind => {
                let (what, help) = match &kind {
                    ExprKind::Call { func, .. } => (
                        "a function call",
                        match &func.kind {
                            ExprKind::Name(n) => {
                                Some(format!("to define a function write `fn {n}(...) = ...`"))
                            }
                            _ => None,
                        },
                    ),
                    ExprKind::Int(_)
                    | ExprKind::Float(_)
                    | ExprKind::Imag(_)
                    | ExprKind::Str(_)
                    | ExprKind::Bool(_)
                    | ExprKind::None => ("a literal", None),
                    ExprKind::Tuple(_) => ("an empty tuple", None),
                    ExprKind::Compare { .. } | ExprKind::Logic { .. } | ExprKind::Not(_) => {
                        ("a comparison", Some("to compare, use `==`".to_string()))
                    }
                    ExprKind::Binary { .. } | ExprKind::Unary { .. } => {
                        ("an operator expression", None)
                    }
                    ExprKind::Lambda(_) => ("a function", None),
                    ExprKind::Starred { .. } => (
                        "a starred name alone",
                        Some(
                            "a starred name takes the rest of a tuple: `a, *rest = xs`".to_string(),
                        ),
                    ),
                    ExprKind::If { .. } => ("an `if` expression", None),
                    ExprKind::List(_) => (
                        "a list",
                        Some("to unpack, use a tuple: `a, b = ...`".to_string()),
                    ),
                    _ => ("this expression", None),
                };
                let mut err = Box::new(PErr {
                    msg: format!("cannot assign to {what}"),
                    span,
                    help: None,
                    resume: span.start as usize,
                    expected_expr: false,
                });
                err.help = Some(help.unwrap_or_else(|| {
                    "the left side of `=` must be a name, `a, b`, `x[i]` or `x.attr`".to_string()
                }));
                Err(err)
            }
        }
    }

    /// `set` alone, or `set name = value` with the value kept as raw text.
    fn set_stmt(&mut self, after: &'a str, in_block: bool) -> PResult<'a, StmtKind> {
        let r = ws(after, false);
        if at_end(r, in_block) {
            return Ok((after, StmtKind::Set(None)));
        }
        let (r2, name) = self.ident(r, "a flag name after `set`")?;
        let r3 = ws(r2, false);
        let Ok((after_eq, "=")) = op_token(r3) else {
            let e = self.expected(r3, &format!("`=` after the flag name `{}`", name.name));
            return Err(e.help(format!("write `set {} = value`", name.name)));
        };
        let v = ws(after_eq, false);
        let mut end = v.len();
        let mut in_str = false;
        for (k, c) in v.char_indices() {
            match c {
                '"' | '\'' => in_str = !in_str,
                '\n' => {
                    end = k;
                    break;
                }
                ';' | '#' if !in_str => {
                    end = k;
                    break;
                }
                '}' if !in_str && in_block => {
                    end = k;
                    break;
                }
                _ => {}
            }
        }
        let text = v.get(..end).unwrap_or("").trim_end();
        if text.is_empty() {
            return Err(self
                .expected(v, "a value after `=`")
                .help(format!("e.g. `set {} = true`", name.name)));
        }
        let start = self.pos(v);
        let rest = v.get(text.len()..).unwrap_or("");
        let value_span = self.span_from(start, rest);
        let flag = SetFlag {
            name,
            value_text: text.to_string(),
            value_span,
        };
        Ok((rest, StmtKind::Set(Some(flag))))
    }
}
