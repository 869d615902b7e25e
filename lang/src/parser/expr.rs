//! Expressions by precedence climbing, lowest to highest: `a if c else b`,
//! `or`, `and`, `not`, comparisons (`== != < <= > >= is in`, non-associative),
//! `|`, `^`, `&`, `<< >>`, `+ -`, `* / // % @`, unary `- + ~`, `**`
//! (right-associative), postfix call/index/attribute, atoms (Python's order).
//! A comparison whose operand is an unparenthesized `& | ^` is an error that
//! says how to write it (`x > 1 & y` is `x > (1 & y)` in Python and NumPy).
//!
//! `nl` says whether newlines are insignificant here (inside `()` and `[]`).
//! Functions take the rest of the input (leading blanks allowed) and return
//! the rest right after the last token they used.

use super::lexical::{self, StrLex, keyword, op_token, ws};
use super::{PErr, PResult, Parser};
use crate::ast::*;
use crate::span::Span;

fn boxed(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn closer_of(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

type ItemFn<'a, T> = fn(&mut Parser<'a>, &'a str) -> PResult<'a, T>;

impl<'a> Parser<'a> {
    /// A full expression.
    pub(crate) fn expr(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.enter(i)?;
        let r = match self.walrus(i, nl) {
            Some(r) => r,
            None => self.ternary(i, nl),
        };
        self.leave();
        r
    }

    /// `name := value` (Python's assignment expression), when the input starts
    /// with a name and `:=`; `None` otherwise.
    fn walrus(&mut self, i: &'a str, nl: bool) -> Option<PResult<'a, Expr>> {
        let at = ws(i, nl);
        let (after, w) = lexical::word(at).ok()?;
        if lexical::is_keyword(w) {
            return None;
        }
        let op = ws(after, nl).strip_prefix(":=")?;
        let start = self.pos(at);
        let target = Ident {
            name: w.to_string(),
            span: self.span_from(start, after),
        };
        Some(self.operand(op, nl, ":=", Self::expr).map(|(rest, value)| {
            let span = target.span.to(value.span);
            (
                rest,
                boxed(
                    ExprKind::Walrus {
                        target,
                        value: Box::new(value),
                    },
                    span,
                ),
            )
        }))
    }

    /// An expression without a top-level `a if c else b`: the iterable and the
    /// conditions of a comprehension (where `if` starts a filter).
    pub(crate) fn expr_no_ternary(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.enter(i)?;
        let r = self.or_expr(i, nl);
        self.leave();
        r
    }

    /// `a if c else b` (Python's conditional expression), right-associative.
    fn ternary(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let (rest, then) = self.or_expr(i, nl)?;
        let r = ws(rest, nl);
        let Some(after_if) = keyword(r, "if") else {
            return Ok((rest, then));
        };
        let (r2, cond) = self.operand(after_if, nl, "if", Self::or_expr)?;
        let r3 = ws(r2, nl);
        let Some(after_else) = keyword(r3, "else") else {
            return Err(self
                .expected(r3, "`else` in `a if cond else b`")
                .help("Python's conditional expression needs an `else`: `a if cond else b`"));
        };
        let (rest, else_) = self.operand(after_else, nl, "else", Self::expr)?;
        let span = then.span.to(else_.span);
        Ok((
            rest,
            boxed(
                ExprKind::Ternary {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    else_: Box::new(else_),
                },
                span,
            ),
        ))
    }

    /// Parse an operand after operator `op`; a missing one is reported as
    /// "expected an expression after `op`".
    pub(crate) fn operand(
        &mut self,
        after: &'a str,
        nl: bool,
        op: &str,
        f: fn(&mut Self, &'a str, bool) -> PResult<'a, Expr>,
    ) -> PResult<'a, Expr> {
        let at = ws(after, nl);
        match f(self, after, nl) {
            Err(mut e) if e.expected_expr && e.span.start as usize == self.pos(at) => {
                e.msg = format!(
                    "expected an expression after `{op}`, found {}",
                    lexical::describe(at)
                );
                Err(e)
            }
            r => r,
        }
    }

    fn logic(
        &mut self,
        i: &'a str,
        nl: bool,
        kw: &str,
        op: LogicOp,
        next: fn(&mut Self, &'a str, bool) -> PResult<'a, Expr>,
    ) -> PResult<'a, Expr> {
        let (mut rest, mut lhs) = next(self, i, nl)?;
        let mut count = 0;
        loop {
            let r = ws(rest, nl);
            let Some(after) = keyword(r, kw) else {
                return Ok((rest, lhs));
            };
            self.chain(&mut count, r)?;
            let (r2, rhs) = self.operand(after, nl, kw, next)?;
            let span = lhs.span.to(rhs.span);
            lhs = boxed(
                ExprKind::Logic {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            );
            rest = r2;
        }
    }

    fn or_expr(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.logic(i, nl, "or", LogicOp::Or, Self::and_expr)
    }

    fn and_expr(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.logic(i, nl, "and", LogicOp::And, Self::not_expr)
    }

    fn not_expr(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let r = ws(i, nl);
        let Some(after) = keyword(r, "not") else {
            return self.cmp_expr(i, nl);
        };
        let start = self.pos(r);
        self.enter(r)?;
        let res = self.operand(after, nl, "not", Self::not_expr);
        self.leave();
        let (rest, e) = res?;
        let span = self.span_from(start, rest);
        Ok((rest, boxed(ExprKind::Not(Box::new(e)), span)))
    }

    /// A comparison operator at `r`, and the rest after it.
    fn cmp_op(&self, r: &'a str, nl: bool) -> Option<(&'a str, CmpOp)> {
        if let Some(after) = keyword(r, "in") {
            return Some((after, CmpOp::In));
        }
        if let Some(after) = keyword(r, "not") {
            let after_in = keyword(ws(after, nl), "in")?;
            return Some((after_in, CmpOp::NotIn));
        }
        if let Some(after) = keyword(r, "is") {
            let r2 = ws(after, nl);
            if let Some(after_not) = keyword(r2, "not") {
                return Some((after_not, CmpOp::IsNot));
            }
            return Some((after, CmpOp::Is));
        }
        let (after, tok) = op_token(r).ok()?;
        let op = match tok {
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            _ => return None,
        };
        Some((after, op))
    }

    /// A comparison; a chain `a < b < c` is Python's `(a < b) and (b < c)`
    /// when every inner operand can be read twice without a difference (a
    /// name, a literal, an attribute, an index or arithmetic of those).
    fn cmp_expr(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let (mut rest, first) = self.bit_or(i, nl)?;
        let mut links: Vec<(CmpOp, Expr)> = Vec::new();
        let mut count = 0;
        loop {
            let r = ws(rest, nl);
            let Some((after, op)) = self.cmp_op(r, nl) else {
                break;
            };
            self.chain(&mut count, r)?;
            let (r2, rhs) = self.operand(after, nl, op.symbol(), Self::bit_or)?;
            if count == 1 {
                self.check_bitwise_operand(&first, op, &rhs);
            }
            links.push((op, rhs));
            rest = r2;
        }
        if links.is_empty() {
            return Ok((rest, first));
        }
        let mut lhs = first;
        let mut chained: Option<Expr> = None;
        let n = links.len();
        for (k, (op, rhs)) in links.into_iter().enumerate() {
            let inner = k + 1 < n;
            if inner && !rereadable(&rhs) {
                let mut d = crate::Diagnostic::syntax(
                    "this comparison chain would compute its middle operand twice",
                    rhs.span,
                );
                d.help = Some(
                    "assign it to a name first: `m = ...; a < m < b` (a chain is `(a < m) and (m < b)`)"
                        .into(),
                );
                self.diags.push(d);
            }
            let span = lhs.span.to(rhs.span);
            let next_lhs = if inner { Some(rhs.clone()) } else { None };
            let cmp = boxed(
                ExprKind::Compare {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            );
            chained = Some(match chained {
                None => cmp,
                Some(prev) => {
                    let span = prev.span.to(cmp.span);
                    boxed(
                        ExprKind::Logic {
                            op: LogicOp::And,
                            lhs: Box::new(prev),
                            rhs: Box::new(cmp),
                        },
                        span,
                    )
                }
            });
            match next_lhs {
                Some(e) => lhs = e,
                None => break,
            }
        }
        Ok((rest, chained.expect("a comparison chain has a link")))
    }

    /// `a | b` over `^`, `^` over `&`, `&` over shifts, shifts over `+ -`.
    fn bit_or(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.bin_level(i, nl, &[("|", BinOp::BitOr)], Self::bit_xor)
    }

    fn bit_xor(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.bin_level(i, nl, &[("^", BinOp::BitXor)], Self::bit_and)
    }

    fn bit_and(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.bin_level(i, nl, &[("&", BinOp::BitAnd)], Self::shift)
    }

    fn shift(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.bin_level(
            i,
            nl,
            &[("<<", BinOp::LShift), (">>", BinOp::RShift)],
            Self::arith,
        )
    }

    /// One left-associative level of binary operators `ops` over `next`.
    fn bin_level(
        &mut self,
        i: &'a str,
        nl: bool,
        ops: &[(&str, BinOp)],
        next: fn(&mut Self, &'a str, bool) -> PResult<'a, Expr>,
    ) -> PResult<'a, Expr> {
        let (mut rest, mut lhs) = next(self, i, nl)?;
        let mut count = 0;
        loop {
            let r = ws(rest, nl);
            let Ok((after, tok)) = op_token(r) else {
                return Ok((rest, lhs));
            };
            let Some(&(_, op)) = ops.iter().find(|(t, _)| *t == tok) else {
                return Ok((rest, lhs));
            };
            self.chain(&mut count, r)?;
            let (r2, rhs) = self.operand(after, nl, tok, next)?;
            let span = lhs.span.to(rhs.span);
            lhs = boxed(
                ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            );
            rest = r2;
        }
    }

    /// `x > 1 & y` is `x > (1 & y)` (Python's and NumPy's precedence), which is
    /// rarely what a NumPy user means: an unparenthesized `& | ^` beside a
    /// comparison is reported, with both readings spelled out.
    fn check_bitwise_operand(&mut self, lhs: &Expr, op: CmpOp, rhs: &Expr) {
        fn bare_bitwise(e: &Expr) -> Option<(BinOp, &Expr, &Expr)> {
            match &e.kind {
                ExprKind::Binary {
                    op: bop @ (BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor),
                    lhs,
                    rhs,
                } if e.span == lhs.span.to(rhs.span) => Some((*bop, &**lhs, &**rhs)),
                _ => None,
            }
        }
        let text = |e: &Expr| self.src.get(e.span.range()).unwrap_or("").to_string();
        let cmp = op.symbol();
        let (bop, meant, other) = if let Some((bop, a, b)) = bare_bitwise(rhs) {
            let bit = bop.symbol();
            let meant = format!("({} {cmp} {}) {bit} {}", text(lhs), text(a), text(b));
            let other = format!("{} {cmp} ({})", text(lhs), text(rhs));
            (bop, meant, other)
        } else if let Some((bop, a, b)) = bare_bitwise(lhs) {
            let bit = bop.symbol();
            let meant = format!("{} {bit} ({} {cmp} {})", text(a), text(b), text(rhs));
            let other = format!("({}) {cmp} {}", text(lhs), text(rhs));
            (bop, meant, other)
        } else {
            return;
        };
        let mut d = crate::Diagnostic::syntax(
            format!(
                "`{}` binds tighter than `{cmp}`: add parentheses to say which you mean",
                bop.symbol()
            ),
            lhs.span.to(rhs.span),
        );
        d.help = Some(format!(
            "write `{meant}` to combine conditions, or `{other}` (Python's reading)"
        ));
        self.diags.push(d);
    }

    fn arith(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        self.bin_level(i, nl, &[("+", BinOp::Add), ("-", BinOp::Sub)], Self::term)
    }

    fn term(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let ops = [
            ("*", BinOp::Mul),
            ("/", BinOp::Div),
            ("//", BinOp::FloorDiv),
            ("%", BinOp::Mod),
            ("@", BinOp::MatMul),
        ];
        self.bin_level(i, nl, &ops, Self::unary)
    }

    fn unary(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let r = ws(i, nl);
        let op = match op_token(r) {
            Ok((after, "-")) => Some((after, UnaryOp::Neg, "-")),
            Ok((after, "+")) => Some((after, UnaryOp::Pos, "+")),
            Ok((after, "~")) => Some((after, UnaryOp::Invert, "~")),
            _ => None,
        };
        let Some((after, op, sym)) = op else {
            return self.power(i, nl);
        };
        let start = self.pos(r);
        self.enter(r)?;
        let res = self.operand(after, nl, sym, Self::unary);
        self.leave();
        let (rest, e) = res?;
        let span = self.span_from(start, rest);
        Ok((
            rest,
            boxed(
                ExprKind::Unary {
                    op,
                    operand: Box::new(e),
                },
                span,
            ),
        ))
    }

    fn power(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let (rest, base) = self.postfix(i, nl)?;
        let r = ws(rest, nl);
        let Ok((after, "**")) = op_token(r) else {
            return Ok((rest, base));
        };
        self.enter(r)?;
        let res = self.operand(after, nl, "**", Self::unary);
        self.leave();
        let (rest, exp) = res?;
        let span = base.span.to(exp.span);
        Ok((
            rest,
            boxed(
                ExprKind::Binary {
                    op: BinOp::Pow,
                    lhs: Box::new(base),
                    rhs: Box::new(exp),
                },
                span,
            ),
        ))
    }

    fn postfix(&mut self, i: &'a str, nl: bool) -> PResult<'a, Expr> {
        let (mut rest, mut e, can_postfix) = self.atom(i, nl)?;
        if !can_postfix {
            return Ok((rest, e));
        }
        let mut count = 0;
        loop {
            let r = ws(rest, nl);
            if r.starts_with(['(', '[', '.']) {
                self.chain(&mut count, r)?;
            }
            if r.starts_with('(') {
                let (r2, (args, _)) = self.seq(r, '(', Self::arg, "an argument")?;
                let span = Span::new(e.span.start as usize, self.pos(r2));
                e = boxed(
                    ExprKind::Call {
                        func: Box::new(e),
                        args,
                    },
                    span,
                );
                rest = r2;
            } else if r.starts_with('[') {
                let (r2, (index, _)) = self.seq(r, '[', Self::index_item, "an index")?;
                if index.is_empty() {
                    return Err(self
                        .err_at(r, "empty index `[]`")
                        .help("write an index like `x[0]` or `x[:]`"));
                }
                let span = Span::new(e.span.start as usize, self.pos(r2));
                e = boxed(
                    ExprKind::Index {
                        base: Box::new(e),
                        index,
                    },
                    span,
                );
                rest = r2;
            } else if let Some(after_dot) = r.strip_prefix('.') {
                let r2 = ws(after_dot, nl);
                let (r3, attr) = self.ident(r2, "an attribute name after `.`")?;
                let span = e.span.to(attr.span);
                e = boxed(
                    ExprKind::Attr {
                        base: Box::new(e),
                        attr,
                    },
                    span,
                );
                rest = r3;
            } else {
                return Ok((rest, e));
            }
        }
    }

    /// A name that is not a keyword.
    pub(crate) fn ident(&mut self, r: &'a str, what: &str) -> PResult<'a, Ident> {
        match lexical::word(r) {
            Ok((rest, w)) if !lexical::is_keyword(w) => {
                let start = self.pos(r);
                Ok((
                    rest,
                    Ident {
                        name: w.to_string(),
                        span: self.span_from(start, rest),
                    },
                ))
            }
            Ok((_, w)) => Err(self
                .expected(r, what)
                .help(format!("`{w}` is a reserved word"))),
            Err(_) => Err(self.expected(r, what)),
        }
    }

    fn expected_expr(&self, r: &str) -> Box<PErr> {
        let mut e = self.expected(r, "an expression");
        e.expected_expr = true;
        e
    }

    /// An atom, and whether postfix operators may follow it.
    fn atom(&mut self, i: &'a str, nl: bool) -> Result<(&'a str, Expr, bool), Box<PErr>> {
        let r = ws(i, nl);
        let start = self.pos(r);
        let Some(c) = r.chars().next() else {
            return Err(self.expected_expr(r));
        };
        if lexical::starts_number(r) {
            let (rest, e) = self.number(r)?;
            return Ok((rest, e, true));
        }
        if matches!(c, 'f' | 'F') && r[1..].starts_with(lexical::is_quote) {
            let (rest, e) = self.fstring(r)?;
            return Ok((rest, e, true));
        }
        if lexical::is_quote(c) {
            let (_, close) = lexical::delimiter(r);
            return match lexical::string(r) {
                StrLex::Ok(rest, s) => Ok((
                    rest,
                    boxed(ExprKind::Str(s), self.span_from(start, rest)),
                    true,
                )),
                StrLex::Unclosed { triple: true } => {
                    let mut e = self.err_at(r, format!("unclosed `{close}` string"));
                    e.span = Span::new(start, start + 3);
                    e.resume = self.src.len();
                    Err(e.help(format!("end it with `{close}`")))
                }
                StrLex::Unclosed { triple: false } => {
                    let mut e = self.err_at(r, "unclosed string");
                    e.span = Span::new(start, start + 1);
                    e.resume = start + r.find('\n').unwrap_or(r.len());
                    Err(e.help(format!(
                        "a `{close}` string ends on its own line; use `{close}{close}{close}` for text across lines"
                    )))
                }
            };
        }
        if c == '(' {
            let (rest, (mut items, trailing, comp)) = self.seq_or_comp(r, '(')?;
            let span = self.span_from(start, rest);
            if let Some(kind) = comp {
                return Ok((rest, boxed(kind, span), true));
            }
            if items.len() == 1
                && !trailing
                && let Some(mut e) = items.pop()
            {
                e.span = span;
                return Ok((rest, e, true));
            }
            return Ok((rest, boxed(ExprKind::Tuple(items), span), true));
        }
        if c == '[' {
            let (rest, (items, _, comp)) = self.seq_or_comp(r, '[')?;
            let kind = comp.unwrap_or(ExprKind::List(items));
            return Ok((rest, boxed(kind, self.span_from(start, rest)), true));
        }
        if c == '{' {
            let (rest, kind) = self.dict_atom(r)?;
            return Ok((rest, boxed(kind, self.span_from(start, rest)), true));
        }
        let Ok((after, w)) = lexical::word(r) else {
            let e = self.expected_expr(r);
            return Err(match c {
                '.' if r.starts_with("...") => {
                    e.help("`...` (all the other axes) is only valid inside `x[...]`")
                }
                _ => e,
            });
        };
        let lit = |k| Ok((after, boxed(k, Span::new(start, start + w.len())), true));
        match w {
            "true" | "True" => lit(ExprKind::Bool(true)),
            "false" | "False" => lit(ExprKind::Bool(false)),
            "none" | "None" => lit(ExprKind::None),
            "fn" => {
                let (rest, f) = self.lambda(r, after, nl)?;
                Ok((rest, f, false))
            }
            "if" => {
                let (rest, e) = self.if_expr(r, after, nl)?;
                Ok((rest, e, false))
            }
            "lambda" => match self.python_lambda(start, after, nl)? {
                Some((rest, f)) => Ok((rest, f, false)),
                None => lit(ExprKind::Name(w.to_string())),
            },
            "time" if ws(after, false).starts_with('{') => {
                let (rest, b) = self.block(ws(after, false))?;
                Ok((
                    rest,
                    boxed(ExprKind::Time(b), self.span_from(start, rest)),
                    true,
                ))
            }
            // In an expression `set` is Python's set (`set(xs)`, `isinstance(s,
            // set)`); at the start of a statement `set name = value` is the flag statement.
            "set" => lit(ExprKind::Name(w.to_string())),
            _ if lexical::is_keyword(w) => {
                let e = self.expected_expr(r);
                Err(match w {
                    "not" => e.help(
                        "`not` binds looser than comparisons: put it in parentheses, `(not x)`",
                    ),
                    "else" | "elif" => e.help(format!(
                        "`{w}` must follow the `}}` of an `if` block: `if c {{ ... }} {w} ...`"
                    )),
                    _ => e.help(format!(
                        "`{w}` is a reserved word and cannot be used as a name"
                    )),
                })
            }
            _ => lit(ExprKind::Name(w.to_string())),
        }
    }

    fn number(&mut self, r: &'a str) -> PResult<'a, Expr> {
        let start = self.pos(r);
        let Ok((rest, (text, is_float))) = lexical::number(r) else {
            return Err(self.expected_expr(r));
        };
        let span = self.span_from(start, rest);
        let text = text.replace('_', "");
        let radix = match text.get(..2) {
            Some("0x" | "0X") => Some(16),
            Some("0o" | "0O") => Some(8),
            Some("0b" | "0B") => Some(2),
            _ => None,
        };
        if let Some(radix) = radix {
            return match i64::from_str_radix(&text[2..], radix) {
                Ok(v) => Ok((rest, boxed(ExprKind::Int(v), span))),
                Err(_) => {
                    let mut d = crate::Diagnostic::syntax(
                        format!("integer literal `{text}` is too large for int64"),
                        span,
                    );
                    d.help = Some(format!("the largest int64 is {:#x}", i64::MAX));
                    self.diags.push(d);
                    Ok((rest, boxed(ExprKind::Int(0), span)))
                }
            };
        }
        let float = || {
            let mut t = text.replace(".e", ".0e").replace(".E", ".0E");
            if t.ends_with('.') {
                t.push('0');
            }
            if t.starts_with('.') {
                t.insert(0, '0');
            }
            t.parse::<f64>().unwrap_or(f64::NAN)
        };
        // Python's imaginary literal: a number followed by `j`/`J` that
        // does not go on as a name (`2j`, `1.5e-3J`; `2jx` is not one).
        if let Some(after) = rest.strip_prefix(['j', 'J'])
            && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            let span = self.span_from(start, after);
            return Ok((after, boxed(ExprKind::Imag(float()), span)));
        }
        if is_float {
            return Ok((rest, boxed(ExprKind::Float(float()), span)));
        }
        match text.parse::<i64>() {
            Ok(v) => Ok((rest, boxed(ExprKind::Int(v), span))),
            Err(_) => {
                let mut d = crate::Diagnostic::syntax(
                    format!("integer literal `{text}` is too large for int64"),
                    span,
                );
                d.help = Some(format!(
                    "the largest int64 is {}; write `{text}.0` for a float",
                    i64::MAX
                ));
                self.diags.push(d);
                Ok((rest, boxed(ExprKind::Float(float()), span)))
            }
        }
    }

    /// A call argument: `value` or `key=value`.
    fn arg(&mut self, i: &'a str) -> PResult<'a, Arg> {
        let start = self.pos(i);
        // `f(*args)`, `f(**kwargs)`: unpacked when the call is made.
        let star = if i.starts_with("**") {
            Some((2, true))
        } else if i.starts_with('*') {
            Some((1, false))
        } else {
            None
        };
        if let Some((len, double)) = star {
            let sym = if double { "**" } else { "*" };
            let (rest, inner) = self.operand(&i[len..], true, sym, Self::expr)?;
            let span = self.span_from(start, rest);
            let value = boxed(
                ExprKind::Starred {
                    expr: Box::new(inner),
                    double,
                },
                span,
            );
            return Ok((
                rest,
                Arg {
                    name: None,
                    span,
                    value,
                },
            ));
        }
        if let Ok((after, w)) = lexical::word(i) {
            let r = ws(after, true);
            if !lexical::is_keyword(w) && matches!(op_token(r), Ok((_, "="))) {
                let name = Ident {
                    name: w.to_string(),
                    span: self.span_from(start, after),
                };
                let (rest, value) =
                    self.operand(r.get(1..).unwrap_or(""), true, "=", Self::expr)?;
                return Ok((
                    rest,
                    Arg {
                        name: Some(name),
                        value,
                        span: self.span_from(start, rest),
                    },
                ));
            }
        }
        let (rest, value) = self.expr(i, true)?;
        let r = ws(rest, true);
        if let Some(after_for) = keyword(r, "for") {
            // `sum(x * x for x in xs)`: a generator expression, made a list.
            let (rest, clauses) = self.comp_clauses(r, after_for)?;
            let span = self.span_from(start, rest);
            let value = boxed(
                ExprKind::ListComp {
                    elt: Box::new(value),
                    clauses,
                },
                span,
            );
            return Ok((
                rest,
                Arg {
                    name: None,
                    span,
                    value,
                },
            ));
        }
        Ok((
            rest,
            Arg {
                name: None,
                span: value.span,
                value,
            },
        ))
    }

    /// One item of a subscript: an expression or `start:stop:step`.
    fn index_item(&mut self, i: &'a str) -> PResult<'a, IndexItem> {
        let start = self.pos(i);
        if let Some(after) = i.strip_prefix("...") {
            return Ok((after, IndexItem::Ellipsis(self.span_from(start, after))));
        }
        let (rest, first) = if i.starts_with(':') {
            (i, None)
        } else {
            self.expr(i, true).map(|(r, e)| (r, Some(e)))?
        };
        let r = ws(rest, true);
        let Some(after) = r.strip_prefix(':') else {
            return Ok((
                rest,
                first
                    .map(IndexItem::Expr)
                    .unwrap_or_else(|| unreachable_item(start)),
            ));
        };
        let ends = |s: &str| s.starts_with([':', ',', ']']);
        let r2 = ws(after, true);
        let (mut rest, stop) = if ends(r2) {
            (after, None)
        } else {
            self.expr(r2, true).map(|(r, e)| (r, Some(e)))?
        };
        let mut step = None;
        let r3 = ws(rest, true);
        if let Some(after) = r3.strip_prefix(':') {
            rest = after;
            let r4 = ws(after, true);
            if !r4.starts_with([',', ']']) {
                let (r5, e) = self.expr(r4, true)?;
                step = Some(e);
                rest = r5;
            }
        }
        Ok((
            rest,
            IndexItem::Slice {
                start: first,
                stop,
                step,
                span: self.span_from(start, rest),
            },
        ))
    }

    /// Comma-separated items between `open` (at the start of `i`) and its
    /// closer, newlines free. Returns the items and whether a trailing comma
    /// followed the last one.
    pub(crate) fn seq<T>(
        &mut self,
        i: &'a str,
        open: char,
        item: ItemFn<'a, T>,
        what: &str,
    ) -> PResult<'a, (Vec<T>, bool)> {
        let close = closer_of(open);
        let open_pos = self.pos(i);
        self.enter(i)?;
        let rest = i.get(1..).unwrap_or("");
        let res = self.seq_inner(rest, open, close, open_pos, item, what, Vec::new());
        self.leave();
        res
    }

    /// The items after `first` (already parsed; `rest` is right after it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn seq_inner<T>(
        &mut self,
        mut rest: &'a str,
        open: char,
        close: char,
        open_pos: usize,
        item: ItemFn<'a, T>,
        what: &str,
        first: Vec<T>,
    ) -> PResult<'a, (Vec<T>, bool)> {
        let mut trailing = false;
        if !first.is_empty() {
            let r = ws(rest, true);
            if let Some(after) = r.strip_prefix(',') {
                trailing = true;
                rest = after;
            }
        }
        let mut items = first;
        loop {
            let r = ws(rest, true);
            if let Some(after) = r.strip_prefix(close) {
                return Ok((after, (items, trailing)));
            }
            if r.is_empty() {
                return Err(self.unclosed(open_pos, open, self.src.len()));
            }
            if r.starts_with([')', ']', '}']) {
                return Err(self.mismatched(r, open, close, open_pos));
            }
            if !items.is_empty() && !trailing {
                return Err(self.bad_separator(rest, r, close, open_pos));
            }
            let (r2, it) = item(self, r).map_err(|mut e| {
                if e.expected_expr && e.span.start as usize == self.pos(r) {
                    e.msg = format!("expected {what}, found {}", lexical::describe(r));
                }
                e
            })?;
            items.push(it);
            trailing = false;
            let r3 = ws(r2, true);
            if let Some(after) = r3.strip_prefix(',') {
                trailing = true;
                rest = after;
            } else {
                rest = r2;
            }
        }
    }

    fn mismatched(&self, r: &str, open: char, close: char, open_pos: usize) -> Box<PErr> {
        let found = r.chars().next().unwrap_or(close);
        let mut e = self.unclosed(open_pos, open, self.pos(r));
        e.help = Some(format!("expected `{close}` before this `{found}`"));
        e
    }

    /// Two items with no comma between them.
    fn bad_separator(&self, before: &str, r: &str, close: char, open_pos: usize) -> Box<PErr> {
        let gap = &before[..before.len() - r.len()];
        if let Some(nl) = gap.find('\n') {
            // Likely a missing closer: point at the opener and resume at the
            // line break so that the next line parses as a statement.
            let open = self
                .src
                .get(open_pos..)
                .and_then(|s| s.chars().next())
                .unwrap_or('(');
            let (line, _) = crate::span::line_col(self.src, self.pos(r));
            let mut e = self.unclosed(open_pos, open, self.pos(before) + nl);
            e.help = Some(format!(
                "add a `{close}` to close it (line {line} looks like a new statement)"
            ));
            return e;
        }
        self.expected(r, &format!("`,` or `{close}`"))
            .help("separate items with `,`")
    }
}

/// An index item is an expression or a slice; `index_item` only returns
/// here when `first` is `Some`, so this value is never used, but it keeps
/// the code free of panics.
fn unreachable_item(start: usize) -> IndexItem {
    IndexItem::Slice {
        start: None,
        stop: None,
        step: None,
        span: Span::new(start, start),
    }
}

/// Whether reading `e` twice gives the same value and does nothing else: the
/// middle operands of a comparison chain, which the chain reads twice.
fn rereadable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Name(_) => true,
        ExprKind::Attr { base, .. } => rereadable(base),
        ExprKind::Unary { operand, .. } => rereadable(operand),
        ExprKind::Binary { lhs, rhs, .. } => rereadable(lhs) && rereadable(rhs),
        ExprKind::Tuple(items) => items.iter().all(rereadable),
        ExprKind::Index { base, index } => {
            rereadable(base)
                && index.iter().all(|it| match it {
                    IndexItem::Expr(x) => rereadable(x),
                    IndexItem::Slice {
                        start, stop, step, ..
                    } => [start, stop, step]
                        .iter()
                        .all(|p| p.as_ref().is_none_or(rereadable)),
                    IndexItem::Ellipsis(_) => true,
                })
        }
        _ => false,
    }
}
