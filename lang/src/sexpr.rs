//! A compact S-expression rendering of the AST, for golden tests, fuzzing
//! and debugging: `(= x (+ 1 (* 2 3)))`.

use crate::ast::*;
use std::fmt::Write;

/// One line per top-level statement, each prefixed with its byte span.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    for s in &p.stmts {
        let _ = writeln!(out, "{}..{} {}", s.span.start, s.span.end, stmt(s));
    }
    out
}

/// A statement.
pub fn stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Expr(e) => expr(e),
        StmtKind::Assign { target: t, value } => format!("(= {} {})", target(t), expr(value)),
        StmtKind::AugAssign {
            target: t,
            op,
            value,
        } => {
            format!("({}= {} {})", op.symbol(), target(t), expr(value))
        }
        StmtKind::FnDef { name, func } => format!("(def {} {})", name.name, fn_body(func)),
        StmtKind::For { var, iter, body } => {
            format!("(for {} {} {})", target(var), expr(iter), block(body))
        }
        StmtKind::While { cond, body } => format!("(while {} {})", expr(cond), block(body)),
        StmtKind::Break => "break".into(),
        StmtKind::Continue => "continue".into(),
        StmtKind::Return(None) => "(return)".into(),
        StmtKind::Return(Some(e)) => format!("(return {})", expr(e)),
        StmtKind::Set(None) => "(set)".into(),
        StmtKind::Set(Some(f)) => format!("(set {} {:?})", f.name.name, f.value_text),
        StmtKind::Assert { cond, msg: None } => format!("(assert {})", expr(cond)),
        StmtKind::Assert { cond, msg: Some(m) } => format!("(assert {} {})", expr(cond), expr(m)),
        StmtKind::Del(targets) => list("del", targets.iter().map(target)),
        StmtKind::Raise { class, msg } => format!(
            "(raise {} {})",
            class.as_ref().map_or("_", |c| c.name.as_str()),
            opt(msg)
        ),
    }
}

/// An assignment or loop target.
pub fn target(t: &Target) -> String {
    match t {
        Target::Name(id) => id.name.clone(),
        Target::Tuple(items, _) => list("tuple", items.iter().map(target)),
        Target::Index { base, index, .. } => index_expr(base, index),
        Target::Attr { base, attr, .. } => format!("(. {} {})", expr(base), attr.name),
        Target::Starred(t, _) => format!("(* {})", target(t)),
    }
}

/// A block.
pub fn block(b: &Block) -> String {
    list("block", b.stmts.iter().map(stmt))
}

fn list(head: &str, items: impl Iterator<Item = String>) -> String {
    let mut s = format!("({head}");
    for it in items {
        s.push(' ');
        s.push_str(&it);
    }
    s.push(')');
    s
}

fn fn_body(f: &FnBody) -> String {
    let params = f.params.iter().map(|p| match (&p.default, p.kind) {
        (_, ParamKind::Star) => format!("*{}", p.name.name),
        (_, ParamKind::DoubleStar) => format!("**{}", p.name.name),
        (Some(d), _) => format!("({} {})", p.name.name, expr(d)),
        (None, _) => p.name.name.clone(),
    });
    let body = match &f.body {
        FnBodyKind::Expr(e) => expr(e),
        FnBodyKind::Block(b) => block(b),
    };
    format!("{} {body}", list("params", params))
}

fn opt(e: &Option<Expr>) -> String {
    e.as_ref().map_or_else(|| "_".to_string(), expr)
}

fn index_expr(base: &Expr, index: &[IndexItem]) -> String {
    let items = index.iter().map(|it| match it {
        IndexItem::Expr(e) => expr(e),
        IndexItem::Slice {
            start, stop, step, ..
        } => {
            format!("(slice {} {} {})", opt(start), opt(stop), opt(step))
        }
        IndexItem::Ellipsis(_) => "...".into(),
    });
    list(&format!("index {}", expr(base)), items)
}

/// An expression.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(v) => format!("{v:?}"),
        ExprKind::Imag(v) => format!("{v:?}j"),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::None => "none".into(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Tuple(items) => list("tuple", items.iter().map(expr)),
        ExprKind::List(items) => list("list", items.iter().map(expr)),
        ExprKind::Unary { op, operand } => {
            let op = match op {
                UnaryOp::Neg => "neg",
                UnaryOp::Pos => "pos",
                UnaryOp::Invert => "invert",
            };
            format!("({op} {})", expr(operand))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", op.symbol(), expr(lhs), expr(rhs))
        }
        ExprKind::Compare { op, lhs, rhs } => {
            format!(
                "({} {} {})",
                op.symbol().replace(' ', "-"),
                expr(lhs),
                expr(rhs)
            )
        }
        ExprKind::Logic { op, lhs, rhs } => {
            let op = match op {
                LogicOp::And => "and",
                LogicOp::Or => "or",
            };
            format!("({op} {} {})", expr(lhs), expr(rhs))
        }
        ExprKind::Not(x) => format!("(not {})", expr(x)),
        ExprKind::Walrus { target, value } => format!("(:= {} {})", target.name, expr(value)),
        ExprKind::Starred { expr: x, double } => {
            format!("({} {})", if *double { "**" } else { "*" }, expr(x))
        }
        ExprKind::Call { func, args } => {
            let args = args.iter().map(|a| match &a.name {
                Some(n) => format!("(kw {} {})", n.name, expr(&a.value)),
                None => expr(&a.value),
            });
            list(&format!("call {}", expr(func)), args)
        }
        ExprKind::Index { base, index } => index_expr(base, index),
        ExprKind::Attr { base, attr } => format!("(. {} {})", expr(base), attr.name),
        ExprKind::Lambda(f) => format!("(fn {})", fn_body(f)),
        ExprKind::If { cond, then, else_ } => match else_ {
            Some(e) => format!("(if {} {} {})", expr(cond), block(then), expr(e)),
            None => format!("(if {} {})", expr(cond), block(then)),
        },
        ExprKind::Block(b) => block(b),
        ExprKind::Time(b) => format!("(time {})", block(b)),
        ExprKind::Ternary { cond, then, else_ } => {
            format!("(ifexp {} {} {})", expr(cond), expr(then), expr(else_))
        }
        ExprKind::FString(parts) => fstring("fstr", parts),
        ExprKind::ListComp { elt, clauses } => {
            format!("(listcomp {}{})", expr(elt), comp_clauses(clauses))
        }
        ExprKind::Dict(entries) => list(
            "dict",
            entries
                .iter()
                .map(|(k, v)| format!("({} {})", expr(k), expr(v))),
        ),
        ExprKind::DictComp {
            key,
            value,
            clauses,
        } => format!(
            "(dictcomp ({} {}){})",
            expr(key),
            expr(value),
            comp_clauses(clauses)
        ),
    }
}

fn fstring(head: &str, parts: &[FStringPart]) -> String {
    list(
        head,
        parts.iter().map(|p| match p {
            FStringPart::Lit(s) => format!("{s:?}"),
            FStringPart::Field(f) => {
                let mut s = format!("(field {}", expr(&f.expr));
                if let Some(d) = &f.debug {
                    s.push_str(&format!(" (debug {d:?})"));
                }
                if let Some(c) = f.conversion {
                    s.push_str(&format!(" !{c}"));
                }
                if !f.spec.is_empty() {
                    s.push(' ');
                    s.push_str(&fstring("spec", &f.spec));
                }
                s.push(')');
                s
            }
        }),
    )
}

fn comp_clauses(clauses: &[CompClause]) -> String {
    let mut s = String::new();
    for c in clauses {
        match c {
            CompClause::For { target: t, iter } => {
                s.push_str(&format!(" (for {} {})", target(t), expr(iter)))
            }
            CompClause::If(cond) => s.push_str(&format!(" (if {})", expr(cond))),
        }
    }
    s
}
