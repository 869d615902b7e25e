//! Statements: bindings, destructuring, writes into arrays, augmented
//! assignment, loops, function definitions and `set`.

use super::{Flow, Interp, Iter, Source};
use crate::error::{Error, Result};
use crate::ops::fuse::{self, EwNode};
use crate::value::{Function, Value};
use gcalc_lang::ast::*;
use std::sync::Arc;

impl Interp {
    /// Run statements in order; the flow of the last one (its value when it is an expression).
    pub(crate) fn exec_block(&mut self, stmts: &[Stmt]) -> Result<Flow> {
        let mut last = Flow::Normal(None);
        for s in stmts {
            self.check_interrupt().map_err(|e| e.at(s.span))?;
            last = self.exec_stmt(s)?;
            if !matches!(last, Flow::Normal(_)) {
                return Ok(last);
            }
        }
        Ok(last)
    }

    pub(crate) fn exec_stmt(&mut self, s: &Stmt) -> Result<Flow> {
        self.current_stmt = s.span;
        crate::backend::devices::set_statement(&self.source, s.span);
        match &s.kind {
            StmtKind::Expr(e) => {
                let v = self.eval(e)?;
                // `return`/`break`/`continue` inside an `if` block used as a statement.
                if let Some(r) = self.pending_return.take() {
                    return Ok(Flow::Return(r));
                }
                if let Some(b) = self.pending_break.take() {
                    return Ok(if b { Flow::Break } else { Flow::Continue });
                }
                Ok(Flow::Normal(Some(v)))
            }
            StmtKind::Assign { target, value } => {
                let v = self.eval(value)?;
                self.assign(target, v)?;
                Ok(Flow::Normal(None))
            }
            StmtKind::AugAssign { target, op, value } => {
                self.aug_assign(target, *op, value, s.span)?;
                Ok(Flow::Normal(None))
            }
            StmtKind::FnDef { name, func } => {
                let f = self.make_function(&name.name, func);
                self.bind(&name.name, f);
                Ok(Flow::Normal(None))
            }
            StmtKind::For { var, iter, body } => self.exec_for(var, iter, body),
            StmtKind::While { cond, body } => self.run_loop(body, |s| {
                s.check_interrupt().map_err(|e| e.at(cond.span))?;
                let c = s.eval(cond)?;
                s.truthy(&c).map_err(|e| e.at(cond.span))
            }),
            StmtKind::Break => {
                if self.loop_depth == 0 {
                    return Err(
                        Error::new(crate::ErrorKind::Syntax, "`break` outside a loop").at(s.span),
                    );
                }
                Ok(Flow::Break)
            }
            StmtKind::Continue => {
                if self.loop_depth == 0 {
                    return Err(
                        Error::new(crate::ErrorKind::Syntax, "`continue` outside a loop")
                            .at(s.span),
                    );
                }
                Ok(Flow::Continue)
            }
            StmtKind::Return(e) => {
                if self.frames.is_empty() {
                    return Err(Error::new(
                        crate::ErrorKind::Syntax,
                        "`return` outside a function",
                    )
                    .at(s.span));
                }
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::None,
                };
                Ok(Flow::Return(v))
            }
            StmtKind::Assert { cond, msg } => {
                let c = self.eval(cond)?;
                if self.truthy(&c).map_err(|e| e.at(cond.span))? {
                    return Ok(Flow::Normal(None));
                }
                let text = match msg {
                    Some(m) => crate::display::to_text(&self.eval(m)?),
                    None => format!(
                        "`{}` is false",
                        self.source
                            .text
                            .get(cond.span.start as usize..cond.span.end as usize)
                            .unwrap_or("the condition")
                    ),
                };
                Err(Error::new(crate::ErrorKind::Assertion, text).at(cond.span))
            }
            StmtKind::Raise { class, msg } => {
                let text = match msg {
                    Some(m) => crate::display::to_text(&self.eval(m)?),
                    None => String::new(),
                };
                Err(raised(class.as_ref().map(|c| c.name.as_str()), text).at(s.span))
            }
            StmtKind::Del(targets) => {
                for t in targets {
                    self.delete(t)?;
                }
                Ok(Flow::Normal(None))
            }
            StmtKind::Set(None) => {
                let listing = self.flags.listing(crate::array::print::line_width());
                self.print(&listing);
                Ok(Flow::Normal(None))
            }
            StmtKind::Set(Some(f)) => {
                let mut flags = self.flags.clone();
                flags
                    .set(&f.name.name, &f.value_text)
                    .map_err(|e| e.at(f.name.span.to(f.value_span)))?;
                if let crate::flags::DeviceFlag::Gpu(i) = flags.device {
                    crate::builtins::device::check_gpu(i).map_err(|e| e.at(f.value_span))?;
                }
                self.flags = flags;
                self.flags_changed();
                Ok(Flow::Normal(None))
            }
        }
    }

    fn exec_for(&mut self, var: &Target, iter: &Expr, body: &Block) -> Result<Flow> {
        let it = self.eval(iter)?;
        let mut items = self.iterate(it).map_err(|e| e.at(iter.span))?;
        self.loop_depth += 1;
        let result = if self.loop_graphs_apply(&items) {
            self.graph_loop(var, &mut items, body, iter.span)
        } else {
            self.plain_loop(var, Vec::new(), &mut items, body, iter.span)
        };
        self.loop_depth -= 1;
        items.finish(self);
        result
    }

    /// A `for` loop's iterations, as usual: `first` (items already taken,
    /// `loop_graph.rs`), then the rest of `items`.
    pub(super) fn plain_loop(
        &mut self,
        var: &Target,
        first: Vec<Value>,
        items: &mut Iter,
        body: &Block,
        iter_span: gcalc_lang::Span,
    ) -> Result<Flow> {
        let mut first = first.into_iter();
        loop {
            let item = match first.next() {
                Some(item) => item,
                None => match items.next(self)? {
                    Some(item) => item,
                    None => break,
                },
            };
            self.check_interrupt().map_err(|e| e.at(iter_span))?;
            self.assign(var, item)?;
            match self.exec_block(&body.stmts)? {
                Flow::Break => break,
                Flow::Return(v) => return Ok(Flow::Return(v)),
                _ => {}
            }
        }
        Ok(Flow::Normal(None))
    }

    /// A `while` loop: `next` readies the next iteration (false: the loop
    /// ends), then the body runs. `loop_depth` counts every loop here and in
    /// `exec_for`, so `break`/`continue` inside any loop are in a loop.
    fn run_loop(
        &mut self,
        body: &Block,
        mut next: impl FnMut(&mut Self) -> Result<bool>,
    ) -> Result<Flow> {
        self.loop_depth += 1;
        let result = (|| {
            while next(self)? {
                match self.exec_block(&body.stmts)? {
                    Flow::Break => break,
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    _ => {}
                }
            }
            Ok(Flow::Normal(None))
        })();
        self.loop_depth -= 1;
        result
    }

    pub(crate) fn make_function(&self, name: &str, func: &FnBody) -> Value {
        let captured = self
            .frames
            .last()
            .map(|f| f.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        Value::Func(Arc::new(Function {
            name: name.to_string(),
            def: func.clone(),
            captured: captured.unwrap_or_default(),
            source: self.source.clone(),
        }))
    }

    /// Bind a name in the innermost scope.
    pub fn bind(&mut self, name: &str, v: Value) {
        if let Some(w) = &self.watch {
            w.write(name);
        }
        let map = match self.frames.last_mut() {
            Some(f) => f,
            None => &mut self.globals,
        };
        // Rebinding (a loop body) replaces in place: no new key string.
        match map.get_mut(name) {
            Some(slot) => *slot = v,
            None => {
                map.insert(name.to_string(), v);
            }
        }
    }

    pub(crate) fn assign(&mut self, target: &Target, v: Value) -> Result<()> {
        match target {
            Target::Name(id) => {
                self.bind(&id.name, v);
                Ok(())
            }
            Target::Tuple(targets, span) => {
                let items: Vec<Value> = match v {
                    // The values moved out when nothing else holds the tuple.
                    Value::Tuple(t) => Arc::try_unwrap(t)
                        .map_or_else(|t| t.to_vec(), crate::nested::Items::into_vec),
                    Value::List(l) => l.snapshot().to_vec(),
                    Value::Dict(d) => d.keys(),
                    v @ (Value::Range(..) | Value::Str(_)) => self.collect_items(v)?,
                    Value::Array(a) if a.ndim() > 0 => {
                        let n = a.shape()[0];
                        (0..n)
                            .map(|i| {
                                self.index_array(&a, &[crate::array::index::Index::Int(i as i64)])
                                    .map(Value::Array)
                            })
                            .collect::<Result<_>>()?
                    }
                    other => {
                        return Err(Error::type_(format!(
                            "cannot unpack {} into {} names",
                            other.a_type_name(),
                            targets.len()
                        ))
                        .at(*span));
                    }
                };
                self.assign_items(targets, items, *span)
            }
            Target::Index { base, index, span } => {
                let b = self.eval(base)?;
                let Value::Array(arr) = b else {
                    return self.assign_item(b, index, v).map_err(|e| e.at(*span));
                };
                let idx = self.eval_index(index)?;
                self.check_not_temporary(&arr, "this assignment")
                    .map_err(|e| e.at(base.span))?;
                self.assign_index(&arr, &idx, &v).map_err(|e| e.at(*span))
            }
            Target::Starred(_, span) => Err(Error::new(
                crate::ErrorKind::Syntax,
                "a starred name must be in a tuple: `a, *rest = xs`",
            )
            .at(*span)),
            Target::Attr { attr, span, .. } => Err(Error::type_(format!(
                "attribute `{}` cannot be assigned",
                attr.name
            ))
            .at(*span)
            .with_help("attributes like shape and dtype are read-only; use reshape or astype")),
        }
    }

    /// Bind the items of a tuple target: one each, the rest (as a list)
    /// to a starred name (`a, *mid, b = xs`), as Python's unpacking.
    fn assign_items(
        &mut self,
        targets: &[Target],
        mut items: Vec<Value>,
        span: gcalc_lang::Span,
    ) -> Result<()> {
        let star = targets
            .iter()
            .position(|t| matches!(t, Target::Starred(..)));
        let fixed = targets.len() - star.is_some() as usize;
        let fits = match star {
            Some(_) => items.len() >= fixed,
            None => items.len() == fixed,
        };
        if !fits {
            let need = match star {
                Some(_) => format!("at least {fixed}"),
                None => fixed.to_string(),
            };
            return Err(Error::value(format!(
                "cannot unpack {} values into {need} names",
                items.len()
            ))
            .at(span));
        }
        if let Some(s) = star {
            let after = targets.len() - s - 1;
            let tail = items.split_off(items.len() - after);
            let rest = items.split_off(s);
            items.push(Value::list(rest));
            items.extend(tail);
        }
        for (t, item) in targets.iter().zip(items) {
            match t {
                Target::Starred(inner, _) => self.assign(inner, item)?,
                t => self.assign(t, item)?,
            }
        }
        Ok(())
    }

    /// `del x` (unbind), `del d[k]`, `del xs[i]` / `del xs[a:b]` (remove).
    fn delete(&mut self, t: &Target) -> Result<()> {
        match t {
            Target::Name(id) => {
                let map = match self.frames.last_mut() {
                    Some(f) => f,
                    None => &mut self.globals,
                };
                if map.remove(id.name.as_str()).is_none() {
                    return Err(Error::name(format!("unknown name `{}`", id.name))
                        .at(id.span)
                        .with_help("`del` unbinds a variable this scope has"));
                }
                Ok(())
            }
            Target::Index { base, index, span } => {
                let b = self.eval(base)?;
                self.delete_item(b, index).map_err(|e| e.at(*span))
            }
            other => Err(Error::new(
                crate::ErrorKind::Syntax,
                "`del` takes names and items: `del x`, `del d[k]`, `del xs[i]`",
            )
            .at(other.span())),
        }
    }

    /// `x op= e`: in place (NumPy semantics: views see it) when the result fits x's
    /// shape and dtype; a plain rebinding when x is a scalar or the only holder of its buffer.
    fn aug_assign(
        &mut self,
        target: &Target,
        op: BinOp,
        value: &Expr,
        span: gcalc_lang::Span,
    ) -> Result<()> {
        let cur = match target {
            Target::Name(id) => {
                if let Some(f) = self.frames.last()
                    && !f.contains_key(id.name.as_str())
                    && self.globals.contains_key(id.name.as_str())
                {
                    // Python's UnboundLocalError: the assignment would make a
                    // local copy and leave the global as it was.
                    let n = &id.name;
                    return Err(Error::name(format!(
                        "`{n} {}=` in a function: `{n}` is a global, and a function cannot rebind one (gcalc has no `global`)",
                        op.symbol()
                    ))
                    .at(span)
                    .with_help(format!(
                        "return the new value (`{n} = f({n})`), keep it in a dict or list (`state[\"{n}\"] {}= ...`), or change an array in place: `{n}[...] {}= ...`",
                        op.symbol(),
                        op.symbol()
                    )));
                }
                self.lookup(&id.name, id.span)?
            }
            Target::Index { base, index, .. } => {
                let b = self.eval(base)?;
                let Value::Array(arr) = b else {
                    // `d[k] += 1`, `xs[i] -= x`: read, compute; an array item
                    // (of at least one dimension) is updated in place as
                    // Python's `__isub__` does, so other names of it see the
                    // change; anything else is written back.
                    let cur = self.index_value(b.clone(), index)?;
                    let rhs = self.eval(value)?;
                    let new = self
                        .binary_values(op, cur.clone(), rhs)
                        .map_err(|e| e.at(span))?;
                    if let (Value::Array(x), Value::Array(r)) = (&cur, &new)
                        && x.ndim() > 0
                    {
                        aug_fits(x, r, op, span)?;
                        return self.aug_in_place(x, r).map_err(|e| e.at(span));
                    }
                    return self.assign_item(b, index, new).map_err(|e| e.at(span));
                };
                let idx = self.eval_index(index)?;
                self.check_not_temporary(&arr, "this augmented assignment")
                    .map_err(|e| e.at(base.span))?;
                return self
                    .aug_index(&arr, &idx, op, value)
                    .map_err(|e| e.at(span));
            }
            _ => return Err(Error::type_("cannot use an augmented assignment here").at(span)),
        };
        // Python's in-place `xs += items` (extend) and `d |= other` (update):
        // every name bound to the list or dict sees the change.
        match (&cur, op) {
            (Value::List(l), BinOp::Mul) => {
                // `xs *= n`: repeated in place, as list.__imul__.
                let rhs = self.eval(value)?;
                let new = self
                    .binary_values(op, cur.clone(), rhs)
                    .map_err(|e| e.at(span))?;
                let items = self.collect_items(new).map_err(|e| e.at(span))?;
                l.modify(|xs| *xs = items);
                return Ok(());
            }
            (Value::List(l), BinOp::Add) => {
                let rhs = self.eval(value)?;
                let new = self.collect_items(rhs).map_err(|e| e.at(value.span))?;
                l.modify(|xs| xs.extend(new));
                return Ok(());
            }
            (Value::Dict(d), BinOp::BitOr) => {
                let Value::Dict(other) = self.eval(value)? else {
                    return Err(Error::type_("`|=` on a dict needs a dict").at(value.span));
                };
                for (k, v) in other.snapshot().values() {
                    d.insert(k.clone(), v.clone())?;
                }
                return Ok(());
            }
            // Strings, tuples, sets, ranges: Python's `s += t` makes a new
            // value (`out += c` builds a string) and rebinds the name.
            (Value::Str(_) | Value::Tuple(_) | Value::Range(..) | Value::Object(_), _)
            | (Value::List(_) | Value::Dict(_), _) => {
                let rhs = self.eval(value)?;
                let new = self
                    .binary_values(op, cur.clone(), rhs)
                    .map_err(|e| e.at(span))?;
                return self.assign(target, new);
            }
            _ => {}
        }
        let result = if op == BinOp::MatMul {
            let rhs = self.eval(value)?;
            self.matmul_values(cur.clone(), rhs)
                .map_err(|e| e.at(span))?
        } else {
            // `x op= e` is one fused tree `x op e` (`w -= 0.1 * g`: one pass, one launch).
            let rhs = match self.ew_node(value)? {
                Ok(n) => n,
                // `x += [1, 2]` on an array: NumPy's array-like.
                n @ Err(_) if matches!(cur, Value::Array(_)) => {
                    self.array_like_node(n, value.span)?
                }
                Err(v) => EwNode::Leaf(fuse::operand(&v).map_err(|e| e.at(value.span))?),
            };
            let node = EwNode::Op {
                op: super::eval::binop_def(op)?,
                args: vec![EwNode::Leaf(fuse::operand(&cur)?), rhs],
            };
            super::eval::operand_value(self.eval_tree(node).map_err(|e| e.at(span))?)
        };
        match (&cur, &result) {
            // A 0-d array stands for NumPy's scalar, which `op=` cannot change
            // in place: the name is rebound to the result (its dtype and shape
            // as they come), and other names of the old value keep it
            // (`best = loss; loss += 1` leaves best alone).
            (Value::Array(x), Value::Array(_)) if x.ndim() == 0 => self.assign(target, result),
            (Value::Array(x), Value::Array(r)) => {
                aug_fits(x, r, op, span)?;
                // The only holder of the buffer: rebinding is the same as writing in
                // place, and saves a pass. Otherwise write through (views see it).
                if self.sole_holder(x) {
                    let r = match r.dtype() == x.dtype() {
                        true => Value::Array(r.clone()),
                        false => {
                            let def = super::eval::op_named("astype")?;
                            let to = Value::DType(x.dtype());
                            self.call_builtin(def, vec![result.clone(), to], vec![], span)?
                        }
                    };
                    return self.assign(target, r);
                }
                self.aug_in_place(x, r).map_err(|e| e.at(span))
            }
            _ => self.assign(target, result),
        }
    }
}

/// Whether `x op= ...` can write its result `r` into x in place: the same
/// shape, and a dtype x holds by a same-kind cast; else the error that says
/// how to make a new array.
fn aug_fits(
    x: &crate::array::Array,
    r: &crate::array::Array,
    op: BinOp,
    span: gcalc_lang::Span,
) -> Result<()> {
    let sym = op.symbol();
    if r.shape() != x.shape() {
        return Err(Error::shape(
            sym,
            format!(
                "`{sym}=` would change the shape from {} to {}",
                crate::array::layout::fmt_shape(x.shape()),
                crate::array::layout::fmt_shape(r.shape())
            ),
        )
        .at(span)
        .with_help(format!("write `x = x {sym} ...` to make a new array")));
    }
    if r.dtype() != x.dtype() && !crate::array::can_cast_same_kind(r.dtype(), x.dtype()) {
        return Err(Error::dtype(
            sym,
            format!(
                "cannot write the {} result of `{sym}=` into {} array in place",
                r.dtype(),
                crate::error::with_article(x.dtype().name())
            ),
        )
        .at(span)
        .with_help(format!(
            "write `x = x {sym} ...` to make a new array, or astype first"
        )));
    }
    Ok(())
}

impl Interp {
    /// Replace the current source (a new cell or script).
    pub(crate) fn set_source(&mut self, name: &str, text: &str) {
        self.source = Arc::new(Source {
            name: name.to_string(),
            text: text.to_string(),
        });
    }
}

/// The error `raise Class(text)` stops with: Python's exception classes as
/// the error kinds they match; any other class (`RuntimeError`, one of the
/// program's own) named before its message.
fn raised(class: Option<&str>, text: String) -> Error {
    use crate::ErrorKind as K;
    let kind = match class {
        Some("ValueError") => Some(K::Value),
        Some("TypeError") => Some(K::Type),
        Some("IndexError") => Some(K::Index),
        Some("KeyError") => Some(K::Key),
        Some("ZeroDivisionError") => Some(K::ZeroDivision),
        Some("OverflowError") => Some(K::Overflow),
        Some("AssertionError") => Some(K::Assertion),
        Some("NameError") => Some(K::Name),
        _ => None,
    };
    match (kind, class) {
        (Some(k), _) => Error::new(k, text),
        (None, Some(c)) if text.is_empty() => Error::value(c.to_string()),
        (None, Some(c)) => Error::value(format!("{c}: {text}")),
        (None, None) => Error::value(text),
    }
    .with_help("raised by the program (gcalc has no try/except: the run stops here)")
}
