//! Names before running: the names a program reads that nothing can bind,
//! found from the AST alone (like pyflakes), so that a misspelled name on
//! the last line of a long loop is reported before the loop starts.
//!
//! A name is bindable when the program binds it anywhere (an assignment or
//! `for` target at any level and in any branch, a function's name or
//! parameter, a comprehension's variable) or when the caller knows it (a
//! builtin, a session variable: the `known` predicate). Anything else that is
//! read can never have a value when its line runs. `x += 1` reads `x` (it does
//! not bind a name that was never bound). Attribute names and keyword names
//! are not variables and are not checked. Reads inside function bodies are
//! checked only when asked (`Scope::WholeProgram`): in a notebook a function
//! may use a variable that a later cell defines before the call.

use crate::ast::*;
use crate::span::Span;
use std::collections::HashSet;

/// Where a program runs, which decides whether function bodies are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A script or an `-e` program: nothing can bind a name after it.
    WholeProgram,
    /// A prompt input or notebook cell: later inputs may define what
    /// functions read, so only the code that runs now is checked.
    Cell,
}

/// A name read but never bound, at its first read.
#[derive(Clone, Debug, PartialEq)]
pub struct Unresolved {
    pub name: String,
    pub span: Span,
    /// The attribute chain read from it, when it is one: `np.linalg.norm`.
    pub dotted: Option<String>,
    /// How many times the program reads it.
    pub reads: usize,
}

/// The names `program` reads that neither it nor `known` binds, in source order.
pub fn unresolved(
    program: &Program,
    known: &dyn Fn(&str) -> bool,
    scope: Scope,
) -> Vec<Unresolved> {
    let mut w = Walker::new(Pass::Bind, known);
    w.stmts(&program.stmts);
    w.pass = Pass::Read {
        in_functions: scope == Scope::WholeProgram,
    };
    w.stmts(&program.stmts);
    w.out
}

/// Every name `program` binds anywhere (for spelling suggestions), sorted.
pub fn bound_names(program: &Program) -> Vec<String> {
    let mut w = Walker::new(Pass::Bind, &|_| true);
    w.stmts(&program.stmts);
    let mut v: Vec<String> = w.bound.into_iter().collect();
    v.sort();
    v
}

/// What a walk over the program does.
#[derive(Clone, Copy, PartialEq)]
enum Pass {
    /// Collect every name bound anywhere (function bodies included).
    Bind,
    /// Check every read against what the first pass collected.
    Read { in_functions: bool },
}

struct Walker<'a> {
    pass: Pass,
    bound: HashSet<String>,
    known: &'a dyn Fn(&str) -> bool,
    out: Vec<Unresolved>,
}

impl<'a> Walker<'a> {
    fn new(pass: Pass, known: &'a dyn Fn(&str) -> bool) -> Self {
        Walker {
            pass,
            bound: HashSet::new(),
            known,
            out: Vec::new(),
        }
    }

    fn bind(&mut self, name: &str) {
        if self.pass == Pass::Bind {
            self.bound.insert(name.to_string());
        }
    }

    fn read(&mut self, name: &str, span: Span, dotted: Option<String>) {
        if self.pass == Pass::Bind || self.bound.contains(name) || (self.known)(name) {
            return;
        }
        match self.out.iter_mut().find(|u| u.name == name) {
            Some(u) => u.reads += 1,
            None => self.out.push(Unresolved {
                name: name.to_string(),
                span,
                dotted,
                reads: 1,
            }),
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    /// A target: names are bound; an index or attribute target reads its parts.
    fn target(&mut self, t: &Target) {
        match t {
            Target::Name(id) => self.bind(&id.name),
            Target::Tuple(items, _) => items.iter().for_each(|t| self.target(t)),
            Target::Index { base, index, .. } => {
                self.expr(base);
                self.index(index);
            }
            Target::Attr { base, .. } => self.expr(base),
            Target::Starred(t, _) => self.target(t),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Assign { target, value } => {
                self.expr(value);
                self.target(target);
            }
            StmtKind::AugAssign { target, value, .. } => {
                match target {
                    // `x += 1` reads x and binds nothing new.
                    Target::Name(id) => self.read(&id.name, id.span, None),
                    t => self.target(t),
                }
                self.expr(value);
            }
            StmtKind::FnDef { name, func } => {
                self.bind(&name.name);
                self.func(func);
            }
            StmtKind::For { var, iter, body } => {
                self.expr(iter);
                self.target(var);
                self.stmts(&body.stmts);
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.stmts(&body.stmts);
            }
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue | StmtKind::Set(_) => {}
            StmtKind::Assert { cond, msg } => {
                self.expr(cond);
                if let Some(m) = msg {
                    self.expr(m);
                }
            }
            // The class of `raise ValueError(msg)` is a name, not a read.
            StmtKind::Raise { msg, .. } => {
                if let Some(m) = msg {
                    self.expr(m);
                }
            }
            // `del x` needs x bound; `del d[k]` reads d and k.
            StmtKind::Del(targets) => targets.iter().for_each(|t| match t {
                Target::Name(id) => self.read(&id.name, id.span, None),
                t => self.target(t),
            }),
        }
    }

    /// Parameters bind; defaults and the body run at call time, so their
    /// reads are checked only in whole programs.
    fn func(&mut self, f: &FnBody) {
        for p in &f.params {
            self.bind(&p.name.name);
        }
        if let Pass::Read {
            in_functions: false,
        } = self.pass
        {
            return;
        }
        for p in &f.params {
            if let Some(d) = &p.default {
                self.expr(d);
            }
        }
        match &f.body {
            FnBodyKind::Expr(e) => self.expr(e),
            FnBodyKind::Block(b) => self.stmts(&b.stmts),
        }
    }

    fn index(&mut self, items: &[IndexItem]) {
        for it in items {
            match it {
                IndexItem::Expr(e) => self.expr(e),
                IndexItem::Slice {
                    start, stop, step, ..
                } => [start, stop, step]
                    .into_iter()
                    .flatten()
                    .for_each(|e| self.expr(e)),
                IndexItem::Ellipsis(_) => {}
            }
        }
    }

    fn clauses(&mut self, clauses: &[CompClause]) {
        for c in clauses {
            match c {
                CompClause::For { target, iter } => {
                    self.expr(iter);
                    self.target(target);
                }
                CompClause::If(e) => self.expr(e),
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Name(n) => self.read(n, e.span, None),
            ExprKind::Walrus { target, value } => {
                self.expr(value);
                self.bind(&target.name);
            }
            ExprKind::Attr { .. } => {
                // `np.linalg.norm`: the base name, with the chain for hints.
                let mut chain = Vec::new();
                let mut base = e;
                while let ExprKind::Attr { base: b, attr } = &base.kind {
                    chain.push(attr.name.as_str());
                    base = b;
                }
                if let ExprKind::Name(n) = &base.kind {
                    chain.push(n);
                    chain.reverse();
                    self.read(n, base.span, Some(chain.join(".")));
                } else {
                    self.expr(base);
                }
            }
            _ => each_child(e, &mut |child| match child {
                Child::Expr(x) => self.expr(x),
                Child::Block(b) => self.stmts(&b.stmts),
                Child::Func(f) => self.func(f),
                Child::Clauses(c) => self.clauses(c),
                Child::Index(i) => self.index(i),
            }),
        }
    }
}

/// A direct part of an expression.
enum Child<'e> {
    Expr(&'e Expr),
    Block(&'e Block),
    Func(&'e FnBody),
    Clauses(&'e [CompClause]),
    Index(&'e [IndexItem]),
}

/// Call `f` on each direct part of `e` (names and literals have none).
fn each_child<'e>(e: &'e Expr, f: &mut dyn FnMut(Child<'e>)) {
    use Child as C;
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Imag(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Name(_) => {}
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().for_each(|x| f(C::Expr(x))),
        ExprKind::Unary { operand, .. } => f(C::Expr(operand)),
        ExprKind::Not(x) => f(C::Expr(x)),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::Logic { lhs, rhs, .. } => {
            f(C::Expr(lhs));
            f(C::Expr(rhs));
        }
        ExprKind::Call { func, args } => {
            f(C::Expr(func));
            args.iter().for_each(|a| f(C::Expr(&a.value)));
        }
        ExprKind::Index { base, index } => {
            f(C::Expr(base));
            f(C::Index(index));
        }
        ExprKind::Attr { base, .. } => f(C::Expr(base)),
        ExprKind::Lambda(func) => f(C::Func(func)),
        ExprKind::If { cond, then, else_ } => {
            f(C::Expr(cond));
            f(C::Block(then));
            if let Some(x) = else_ {
                f(C::Expr(x));
            }
        }
        ExprKind::Block(b) | ExprKind::Time(b) => f(C::Block(b)),
        ExprKind::Ternary { cond, then, else_ } => {
            f(C::Expr(then));
            f(C::Expr(cond));
            f(C::Expr(else_));
        }
        ExprKind::FString(parts) => fstring_children(parts, f),
        ExprKind::ListComp { elt, clauses } => {
            f(C::Clauses(clauses));
            f(C::Expr(elt));
        }
        ExprKind::Dict(entries) => entries.iter().for_each(|(k, v)| {
            f(C::Expr(k));
            f(C::Expr(v));
        }),
        ExprKind::DictComp {
            key,
            value,
            clauses,
        } => {
            f(C::Clauses(clauses));
            f(C::Expr(key));
            f(C::Expr(value));
        }
        ExprKind::Starred { expr, .. } => f(C::Expr(expr)),
        ExprKind::Walrus { value, .. } => f(C::Expr(value)),
    }
}

fn fstring_children<'e>(parts: &'e [FStringPart], f: &mut dyn FnMut(Child<'e>)) {
    for p in parts {
        if let FStringPart::Field(field) = p {
            f(Child::Expr(&field.expr));
            fstring_children(&field.spec, f);
        }
    }
}
