//! Expressions. Elementwise subtrees (operators and elementwise builtins) are
//! collected whole into one `EwNode` tree and evaluated by one fused pass;
//! everything else (calls, indexing, matmul, reductions) cuts the tree.
//! Indexing expressions are in `index.rs`.

use super::Interp;
use crate::error::{Error, Result};
use crate::ops::fuse::{self, EwNode, Operand};
use crate::ops::{self, OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::ast::*;

/// Deepest expression nesting evaluated before an error (instead of a stack overflow).
const MAX_DEPTH: usize = 400;

/// The ops behind the operators, in the order `binop_def`, `cmp_def` and
/// `NEGATIVE` index them (looked up once, not at every evaluation).
const OPERATOR_OPS: [&str; 21] = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "mod",
    "power",
    "matmul",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "negative",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
    "invert",
];
const NEGATIVE: usize = 14;
const INVERT: usize = 20;

fn operator_op(i: usize) -> Result<&'static OpDef> {
    static TABLE: std::sync::OnceLock<Vec<Option<&'static OpDef>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| OPERATOR_OPS.iter().map(|n| ops::lookup(n)).collect());
    table[i].ok_or_else(|| {
        Error::internal(format!(
            "op `{}` missing from the op table",
            OPERATOR_OPS[i]
        ))
    })
}

pub(crate) fn binop_def(op: BinOp) -> Result<&'static OpDef> {
    operator_op(match op {
        BinOp::Add => 0,
        BinOp::Sub => 1,
        BinOp::Mul => 2,
        BinOp::Div => 3,
        BinOp::FloorDiv => 4,
        BinOp::Mod => 5,
        BinOp::Pow => 6,
        BinOp::MatMul => 7,
        BinOp::BitAnd => 15,
        BinOp::BitOr => 16,
        BinOp::BitXor => 17,
        BinOp::LShift => 18,
        BinOp::RShift => 19,
    })
}

fn cmp_def(op: CmpOp) -> Result<&'static OpDef> {
    operator_op(match op {
        CmpOp::Eq => 8,
        CmpOp::Ne => 9,
        CmpOp::Lt => 10,
        CmpOp::Le => 11,
        CmpOp::Gt => 12,
        CmpOp::Ge => 13,
        CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn => {
            return Err(Error::internal(format!(
                "`{}` is not elementwise",
                op.symbol()
            )));
        }
    })
}

pub(crate) fn operand_value(o: Operand) -> Value {
    match o {
        Operand::Array(a) => Value::Array(a),
        Operand::Int(i) => Value::Int(i),
        Operand::Float(f) => Value::Float(f),
        Operand::Bool(b) => Value::Bool(b),
        Operand::Complex(re, im) => Value::Complex(re, im),
    }
}

/// A fusion node, or a value that cannot be one.
pub(crate) type Node = std::result::Result<EwNode, Value>;

/// What a call by name calls.
enum Callee {
    /// An elementwise builtin whose call joins the fused tree.
    Fused(&'static OpDef),
    Value(Value),
}

/// A leaf: numeric values join the fused tree (moved, not cloned), others stay values.
pub(super) fn leaf(v: Value) -> Node {
    match v {
        Value::Array(a) => Ok(EwNode::Leaf(Operand::Array(a))),
        Value::Int(i) => Ok(EwNode::Leaf(Operand::Int(i))),
        Value::Float(f) => Ok(EwNode::Leaf(Operand::Float(f))),
        Value::Bool(b) => Ok(EwNode::Leaf(Operand::Bool(b))),
        Value::Complex(re, im) => Ok(EwNode::Leaf(Operand::Complex(re, im))),
        other => Err(other),
    }
}

/// The node of an operand that must be numeric.
fn numeric(n: Node, span: gcalc_lang::Span) -> Result<EwNode> {
    n.or_else(|v| fuse::operand(&v).map(EwNode::Leaf).map_err(|e| e.at(span)))
}

impl Interp {
    pub fn eval(&mut self, e: &Expr) -> Result<Value> {
        self.nested(e.span, |s| s.eval_inner(e))
    }

    /// Run `f` one expression level deeper (guarding the native stack), its
    /// errors pointing at `span` unless they point somewhere already.
    #[inline(always)]
    fn nested<R>(
        &mut self,
        span: gcalc_lang::Span,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(Error::value("expression nested too deeply").at(span));
        }
        let r = f(self).map_err(|err| err.at(span));
        self.depth -= 1;
        r
    }

    fn eval_inner(&mut self, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::Imag(f) => Ok(Value::Complex(0.0, *f)),
            ExprKind::Str(s) => Ok(Value::str(s.as_str())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::None => Ok(Value::None),
            ExprKind::Name(n) => self.lookup(n, e.span),
            ExprKind::Tuple(items) => Ok(Value::tuple(self.eval_list(items)?)),
            ExprKind::List(items) => Ok(Value::list(self.eval_list(items)?)),
            ExprKind::Unary { .. } | ExprKind::Binary { .. } | ExprKind::Compare { .. } => {
                self.eval_ew(e)
            }
            ExprKind::Call { func, args } => {
                let ExprKind::Name(n) = &func.kind else {
                    return self.eval_call(func, args, e.span);
                };
                // The name is looked up once: to see whether the call joins a
                // fused tree, and as the callee otherwise.
                match self.callee_by_name(n, func.span, args)? {
                    Callee::Fused(def) => {
                        let node = self.ew_call(def, args, e.span)?;
                        self.node_to_value(Ok(node))
                    }
                    Callee::Value(callee) => self.call_with_args(callee, args, e.span),
                }
            }
            ExprKind::Logic { op, lhs, rhs } => {
                let l = self.eval(lhs)?;
                // A comparison chain `a < x < b` is `(a < x) and (x < b)`
                // sharing `x`: its operands overlap.
                let word = match op {
                    LogicOp::And if rhs.span.start < lhs.span.end => "chain",
                    LogicOp::And => "and",
                    LogicOp::Or => "or",
                };
                let t = self.logic_truth(&l, word).map_err(|err| err.at(lhs.span))?;
                match (op, t) {
                    (LogicOp::And, false) | (LogicOp::Or, true) => Ok(l),
                    _ => {
                        let r = self.eval(rhs)?;
                        // `a and b` of a scalar and an array still needs one truth.
                        self.logic_truth(&r, word).map_err(|err| err.at(rhs.span))?;
                        Ok(r)
                    }
                }
            }
            ExprKind::Not(x) => {
                let v = self.eval(x)?;
                Ok(Value::Bool(
                    !self.logic_truth(&v, "not").map_err(|err| err.at(x.span))?,
                ))
            }
            ExprKind::Ternary { cond, then, else_ } => {
                let c = self.eval(cond)?;
                if self.truthy(&c).map_err(|err| err.at(cond.span))? {
                    self.eval(then)
                } else {
                    self.eval(else_)
                }
            }
            ExprKind::FString(parts) => self.eval_fstring(parts).map(Value::str),
            ExprKind::ListComp { elt, clauses } => self.eval_list_comp(elt, clauses),
            ExprKind::Dict(entries) => {
                let d = crate::containers::Dict::new();
                for (k, v) in entries {
                    let kv = self.eval(k)?;
                    let vv = self.eval(v)?;
                    d.insert(kv, vv).map_err(|err| err.at(k.span))?;
                }
                Ok(Value::Dict(d))
            }
            ExprKind::DictComp {
                key,
                value,
                clauses,
            } => self.eval_dict_comp(key, value, clauses),
            ExprKind::Index { base, index } => {
                let b = self.eval(base)?;
                self.index_value(b, index)
            }
            ExprKind::Attr { base, attr } => {
                let b = self.eval(base)?;
                self.get_attr(b, attr)
            }
            ExprKind::Lambda(f) => Ok(self.make_function("<fn>", f)),
            ExprKind::If { cond, then, else_ } => {
                let c = self.eval(cond)?;
                if self.truthy(&c).map_err(|err| err.at(cond.span))? {
                    self.eval_block_value(then)
                } else if let Some(e) = else_ {
                    self.eval(e)
                } else {
                    Ok(Value::None)
                }
            }
            ExprKind::Block(b) => self.eval_block_value(b),
            // Python's `:=` binds in the enclosing function or the globals; a
            // comprehension's own variables are put back after it, this one stays.
            ExprKind::Walrus { target, value } => {
                let v = self.eval(value)?;
                self.bind(&target.name, v.clone());
                Ok(v)
            }
            ExprKind::Starred { double, .. } => Err(Error::new(
                crate::ErrorKind::Syntax,
                format!(
                "`{}` unpacks only in a call's arguments (`f(*xs)`, `f(**d)`) or on the left of `=` (`a, *rest = xs`)",
                if *double { "**" } else { "*" }
            ))
            .at(e.span)),
            ExprKind::Time(b) => {
                crate::builtins::device::sync_all()?;
                let t0 = std::time::Instant::now();
                self.eval_block_value(b)?;
                crate::builtins::device::sync_all()?;
                Ok(Value::Float(t0.elapsed().as_secs_f64()))
            }
        }
    }

    /// The items of a tuple display; `*xs` puts in each item of xs (`t = 1, *xs`).
    fn eval_list(&mut self, items: &[Expr]) -> Result<Vec<Value>> {
        let mut out = Vec::with_capacity(items.len());
        for x in items {
            match &x.kind {
                ExprKind::Starred {
                    expr,
                    double: false,
                } => {
                    let v = self.eval(expr)?;
                    out.extend(self.collect_items(v).map_err(|e| e.at(x.span))?);
                }
                _ => out.push(self.eval(x)?),
            }
        }
        Ok(out)
    }

    /// The value of a `{ ... }` used as an expression: its last expression statement.
    pub(crate) fn eval_block_value(&mut self, b: &Block) -> Result<Value> {
        match self.exec_block(&b.stmts)? {
            super::Flow::Normal(v) => Ok(v.unwrap_or(Value::None)),
            super::Flow::Return(v) => {
                self.pending_return = Some(v);
                Ok(Value::None)
            }
            super::Flow::Break => {
                self.pending_break = Some(true);
                Ok(Value::None)
            }
            super::Flow::Continue => {
                self.pending_break = Some(false);
                Ok(Value::None)
            }
        }
    }

    /// What `n(args)` calls, found as `lookup` finds names (variables, then
    /// special names, then the op table): an elementwise builtin called with
    /// positional arguments only joins the fused tree; anything else is a value.
    fn callee_by_name(&self, n: &str, span: gcalc_lang::Span, args: &[Arg]) -> Result<Callee> {
        if let Some(v) = self.lookup_var(n) {
            return Ok(Callee::Value(v.clone()));
        }
        if let Some(v) = super::call::special_name(self, n) {
            return Ok(Callee::Value(v));
        }
        match ops::lookup(n) {
            Some(d)
                if matches!(d.kind, OpKind::Elementwise(_))
                    && args.iter().all(|a| {
                        a.name.is_none() && !matches!(a.value.kind, ExprKind::Starred { .. })
                    })
                    && crate::ops::elementwise::alternate_exact(d, args.len()).is_none() =>
            {
                Ok(Callee::Fused(d))
            }
            Some(d) => Ok(Callee::Value(Value::Builtin(d))),
            None => self.lookup(n, span).map(Callee::Value),
        }
    }

    /// Evaluate a maximal elementwise subtree as one fused operation.
    fn eval_ew(&mut self, e: &Expr) -> Result<Value> {
        let node = self.ew_node(e)?;
        self.node_to_value(node)
    }

    /// `l op r` for a binary operator other than `@`, its operands built.
    pub(crate) fn binary_node(
        &mut self,
        op: BinOp,
        l: Node,
        r: Node,
        span: gcalc_lang::Span,
    ) -> Result<Node> {
        let (l, r) = repeat_count(self, op, l, r)?;
        let (l, r) = self.lift_beside_array(l, r, span)?;
        match (l, r) {
            (Ok(l), Ok(r)) => Ok(Ok(EwNode::Op {
                op: binop_def(op)?,
                args: vec![l, r],
            })),
            (l, r) => {
                // Strings, tuples and lists: `+` joins, `*` repeats.
                let lv = self.node_to_value(l)?;
                let rv = self.node_to_value(r)?;
                Ok(Err(sequence_op(op, &lv, &rv)?))
            }
        }
    }

    /// Build the fusion tree of `e`; non-elementwise children are evaluated and
    /// become leaves. A non-numeric result (a string joined with `+`, a tuple)
    /// comes back as `Err(value)`: it cannot be part of a fused tree.
    pub(crate) fn ew_node(&mut self, e: &Expr) -> Result<Node> {
        match &e.kind {
            ExprKind::Unary { op, operand } => {
                let inner = numeric(self.ew_node(operand)?, operand.span)?;
                match op {
                    UnaryOp::Pos => Ok(Ok(inner)),
                    UnaryOp::Neg => Ok(Ok(EwNode::Op {
                        op: operator_op(NEGATIVE)?,
                        args: vec![inner],
                    })),
                    UnaryOp::Invert => Ok(Ok(EwNode::Op {
                        op: operator_op(INVERT)?,
                        args: vec![inner],
                    })),
                }
            }
            ExprKind::Binary {
                op: BinOp::MatMul, ..
            } => {
                let v = self.eval_matmul(e)?;
                Ok(leaf(v))
            }
            ExprKind::Binary {
                op: BinOp::Mod,
                lhs,
                rhs,
            } if self.watch.as_ref().is_some_and(|w| w.is_var(lhs)) => {
                self.watched_residue(lhs, rhs, e.span)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let l = self.ew_node(lhs)?;
                let r = self.ew_node(rhs)?;
                self.binary_node(*op, l, r, e.span)
            }
            ExprKind::Compare {
                op: op @ (CmpOp::Is | CmpOp::IsNot),
                lhs,
                rhs,
            } => {
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                let same = self.identical(&l, &r);
                Ok(Ok(EwNode::Leaf(Operand::Bool(if *op == CmpOp::Is {
                    same
                } else {
                    !same
                }))))
            }
            ExprKind::Compare {
                op: op @ (CmpOp::In | CmpOp::NotIn),
                lhs,
                rhs,
            } => {
                let item = self.eval(lhs)?;
                let container = self.eval(rhs)?;
                let found = self
                    .contains(&container, &item)
                    .map_err(|err| err.at(e.span))?;
                Ok(Ok(EwNode::Leaf(Operand::Bool(found == (*op == CmpOp::In)))))
            }
            ExprKind::Compare { op, lhs, rhs } => {
                // Non-numeric comparisons (strings, devices, dtypes...) are structural.
                let l = self.ew_node(lhs)?;
                let r = self.ew_node(rhs)?;
                let (l, r) = self.lift_beside_array(l, r, e.span)?;
                match (l, r) {
                    (Ok(l), Ok(r)) => Ok(Ok(EwNode::Op {
                        op: cmp_def(*op)?,
                        args: vec![l, r],
                    })),
                    (l, r) => {
                        let lv = self.node_to_value(l)?;
                        let rv = self.node_to_value(r)?;
                        if let Some(b) = crate::containers::set::set_compare(*op, &lv, &rv) {
                            return Ok(Ok(EwNode::Leaf(Operand::Bool(b))));
                        }
                        // NumPy compares an array with none or a string
                        // elementwise: all false for ==, all true for !=.
                        if let (
                            CmpOp::Eq | CmpOp::Ne,
                            Value::Array(a),
                            Value::None | Value::Str(_),
                        )
                        | (
                            CmpOp::Eq | CmpOp::Ne,
                            Value::None | Value::Str(_),
                            Value::Array(a),
                        ) = (op, &lv, &rv)
                        {
                            let fill = crate::array::Scalar::Bool(*op == CmpOp::Ne);
                            let r = crate::array::Array::full(
                                a.shape(),
                                fill,
                                crate::dtype::DType::Bool,
                                a.device(),
                            )
                            .map_err(|err| err.at(e.span))?;
                            return Ok(Ok(EwNode::Leaf(Operand::Array(r))));
                        }
                        let eq = self.values_equal(&lv, &rv);
                        match (op, &lv, &rv) {
                            (CmpOp::Eq, ..) => Ok(Ok(EwNode::Leaf(Operand::Bool(eq)))),
                            (CmpOp::Ne, ..) => Ok(Ok(EwNode::Leaf(Operand::Bool(!eq)))),
                            // Strings order by code points, as Python's.
                            (_, Value::Str(a), Value::Str(b)) => {
                                let o = a.cmp(b);
                                let r = match op {
                                    CmpOp::Lt => o.is_lt(),
                                    CmpOp::Le => o.is_le(),
                                    CmpOp::Gt => o.is_gt(),
                                    _ => o.is_ge(),
                                };
                                Ok(Ok(EwNode::Leaf(Operand::Bool(r))))
                            }
                            _ => Err(Error::type_(format!(
                                "`{}` is not defined between {} and {}",
                                op.symbol(),
                                lv.a_type_name(),
                                rv.a_type_name()
                            ))),
                        }
                    }
                }
            }
            ExprKind::Call { func, args } => {
                let ExprKind::Name(n) = &func.kind else {
                    return Ok(leaf(self.eval(e)?));
                };
                match self
                    .callee_by_name(n, func.span, args)
                    .map_err(|err| err.at(e.span))?
                {
                    Callee::Fused(def) => Ok(Ok(self.ew_call(def, args, e.span)?)),
                    // As `eval(e)` would call it (depth guard, error span), with
                    // the callee already looked up.
                    Callee::Value(callee) => {
                        let v = self.nested(e.span, |s| s.call_with_args(callee, args, e.span))?;
                        Ok(leaf(v))
                    }
                }
            }
            _ => {
                let v = self.eval(e)?;
                Ok(leaf(v))
            }
        }
    }

    /// The fusion node of an elementwise builtin call with positional arguments.
    fn ew_call(
        &mut self,
        def: &'static OpDef,
        args: &[Arg],
        span: gcalc_lang::Span,
    ) -> Result<EwNode> {
        // Most builtins take one to three operands: no heap on this hot path.
        let mut built: smallvec::SmallVec<[Node; 3]> = smallvec::SmallVec::new();
        for a in args {
            built.push(self.ew_node(&a.value)?);
        }
        // `clip(x, 0, hi)` with hi none: the op's alt decides (no bound).
        let alt = crate::ops::elementwise::alternate(def, crate::ops::elementwise::ANY_ARITY);
        if let (Some(f), true) = (alt, built.iter().any(|n| matches!(n, Err(Value::None)))) {
            let vals = built
                .into_iter()
                .map(|n| self.node_to_value(n))
                .collect::<Result<Vec<_>>>()?;
            let v =
                f(self, super::Args::new(def.name, vals, vec![], span)).map_err(|e| e.at(span))?;
            return fuse::operand(&v).map(EwNode::Leaf);
        }
        let mut nodes = Vec::with_capacity(args.len());
        for (n, a) in built.into_iter().zip(args) {
            // NumPy's array-likes: `exp([1.0, 2.0])`.
            nodes.push(self.array_like_node(n, a.value.span)?);
        }
        crate::ops::elementwise::ew_checked(def, nodes.len()).map_err(|err| err.at(span))?;
        if def.name == PY_ROUND
            && let [n] = &nodes[..]
            && fuse::has_array(n)
            && zero_d(n)
        {
            // Python's round of a NumPy float scalar (a 0-d array here) is
            // an int: `range(round(m))`, `zeros(round(m))` work as in NumPy.
            let v = self.node_to_value(Ok(n.clone()))?;
            if let Value::Array(a) = &v
                && a.dtype().is_float()
            {
                let f = a.to_vec::<f64>()?.first().copied().unwrap_or(0.0);
                return crate::ops::py_scalar::round(&[Operand::Float(f)])
                    .map_err(|err| err.at(span))?
                    .map(EwNode::Leaf)
                    .ok_or_else(|| Error::internal("round: no Python result"));
            }
            return fuse::operand(&v).map(EwNode::Leaf);
        }
        Ok(EwNode::Op {
            op: def,
            args: nodes,
        })
    }

    /// The value of a built node (a fused tree is evaluated).
    pub(crate) fn node_value(&mut self, n: Node) -> Result<Value> {
        self.node_to_value(n)
    }

    /// NumPy's array-likes beside an array: in `x == [1, 2]` or
    /// `x + (1, 2)` the list or tuple is made an array, as NumPy does (a list
    /// beside a Python number keeps Python's meaning: `[0] * 3`).
    fn lift_beside_array(
        &mut self,
        l: Node,
        r: Node,
        span: gcalc_lang::Span,
    ) -> Result<(Node, Node)> {
        let seq = |n: &Node| matches!(n, Err(Value::List(_) | Value::Tuple(_)));
        let arr = |n: &Node| matches!(n, Ok(t) if fuse::has_array(t));
        let lift = |s: &mut Self, n: Node| -> Result<Node> {
            let Err(v) = n else { return Ok(n) };
            match s.lift_list(&v, span)? {
                Some(a) => Ok(Ok(EwNode::Leaf(fuse::operand(&a)?))),
                None => Ok(Err(v)),
            }
        };
        if seq(&l) && arr(&r) {
            Ok((lift(self, l)?, r))
        } else if arr(&l) && seq(&r) {
            let r = lift(self, r)?;
            Ok((l, r))
        } else {
            Ok((l, r))
        }
    }

    /// The node `n` as an operand, a list or tuple made an array as NumPy's
    /// array-likes are (`exp([1.0, 2.0])`, `x += [1, 2]`); errors point at `span`.
    pub(crate) fn array_like_node(&mut self, n: Node, span: gcalc_lang::Span) -> Result<EwNode> {
        let n = match n {
            Err(v) => match self.lift_list(&v, span).map_err(|e| e.at(span))? {
                Some(arr) => Err(arr),
                None => Err(v),
            },
            ok => ok,
        };
        numeric(n, span)
    }

    pub(super) fn node_to_value(&mut self, n: Node) -> Result<Value> {
        match n {
            Ok(EwNode::Leaf(o)) => Ok(operand_value(o)),
            Ok(node) => Ok(operand_value(self.eval_tree(node)?)),
            Err(v) => Ok(v),
        }
    }

    fn eval_matmul(&mut self, e: &Expr) -> Result<Value> {
        let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
            return Err(Error::internal("not a matmul"));
        };
        let l = self.eval(lhs)?;
        let r = self.eval(rhs)?;
        self.matmul_values(l, r).map_err(|err| err.at(e.span))
    }

    /// `l op r` of two values already computed (`d[k] += 1`).
    pub(crate) fn binary_values(&mut self, op: BinOp, l: Value, r: Value) -> Result<Value> {
        if op == BinOp::MatMul {
            return self.matmul_values(l, r);
        }
        let span = self.current_stmt;
        let (l, r) = repeat_count(self, op, leaf(l), leaf(r))?;
        let (l, r) = self.lift_beside_array(l, r, span)?;
        match (l, r) {
            (Ok(a), Ok(b)) => self.node_to_value(Ok(EwNode::Op {
                op: binop_def(op)?,
                args: vec![a, b],
            })),
            (a, b) => {
                let lv = self.node_to_value(a)?;
                let rv = self.node_to_value(b)?;
                sequence_op(op, &lv, &rv)
            }
        }
    }

    pub(crate) fn matmul_values(&mut self, l: Value, r: Value) -> Result<Value> {
        let def = binop_def(BinOp::MatMul)?;
        self.call_builtin(def, vec![l, r], vec![], self.current_stmt)
    }

    /// Structural equality of non-array values (for `==` on strings, devices,
    /// tuples...); nested tuples and lists are walked without recursion.
    pub(crate) fn values_equal(&self, a: &Value, b: &Value) -> bool {
        crate::nested::equal_nested(a, b, |p, q| self.leaf_equal(p, q))
    }

    /// `values_equal` of two values that are not both tuples or lists.
    fn leaf_equal(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::None, Value::None) => true,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Device(x), Value::Device(y)) => x == y,
            (Value::DType(x), Value::DType(y)) => x == y,
            // Python's `type(x) == int` (type() gives the type's name).
            (Value::Str(s), t @ Value::Builtin(_)) | (t @ Value::Builtin(_), Value::Str(s)) => {
                crate::builtins::python::type_name_is(s, t)
            }
            // NumPy's `x.dtype == "float32"`, `x.dtype == float`.
            (Value::DType(d), other @ (Value::Str(_) | Value::Builtin(_)))
            | (other @ (Value::Str(_) | Value::Builtin(_)), Value::DType(d)) => {
                crate::ops::creation::dtype_arg(other).is_ok_and(|o| o == *d)
            }
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => *x as f64 == *y,
            (Value::Float(x), Value::Float(y)) => x == y,
            // A 0-d array is NumPy's scalar: it equals a number or another
            // 0-d array of the same value (`losses.index(min(losses))`).
            (Value::Array(x), Value::Array(y)) if x.ndim() == 0 && y.ndim() == 0 => {
                x.same_as(y)
                    || scalar_value(x)
                        .zip(scalar_value(y))
                        .is_some_and(|(p, q)| p == q)
            }
            (Value::Array(x), n @ (Value::Int(_) | Value::Float(_) | Value::Bool(_)))
            | (n @ (Value::Int(_) | Value::Float(_) | Value::Bool(_)), Value::Array(x))
                if x.ndim() == 0 =>
            {
                let q = match n {
                    Value::Int(i) => *i as f64,
                    Value::Float(f) => *f,
                    Value::Bool(b) => *b as i64 as f64,
                    _ => f64::NAN,
                };
                scalar_value(x) == Some(q)
            }
            (Value::Complex(a, b), Value::Complex(c, d)) => a == c && b == d,
            (Value::Complex(a, b), Value::Float(c)) | (Value::Float(c), Value::Complex(a, b)) => {
                a == c && *b == 0.0
            }
            (Value::Complex(a, b), Value::Int(c)) | (Value::Int(c), Value::Complex(a, b)) => {
                *a == *c as f64 && *b == 0.0
            }
            // Arrays in containers compare by identity (their `==` is elementwise).
            (Value::Array(x), Value::Array(y)) => x.same_as(y),
            (Value::Range(a0, a1, a2), Value::Range(b0, b1, b2)) => (a0, a1, a2) == (b0, b1, b2),
            (Value::Func(x), Value::Func(y)) => std::sync::Arc::ptr_eq(x, y),
            (Value::Builtin(x), Value::Builtin(y)) => std::ptr::eq(*x, *y),
            (x @ Value::Object(_), y @ Value::Object(_)) => {
                crate::containers::set::set_compare(gcalc_lang::ast::CmpOp::Eq, x, y)
                    .unwrap_or(false)
            }
            _ => false,
        }
    }

    /// `a is b`: the same object (for arrays: the same buffer and view).
    pub(crate) fn identical(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Array(x), Value::Array(y)) => x.same_as(y),
            (Value::Tuple(x), Value::Tuple(y)) => std::sync::Arc::ptr_eq(x, y),
            (Value::List(x), Value::List(y)) => x.ptr_eq(y),
            (Value::Dict(x), Value::Dict(y)) => x.ptr_eq(y),
            (Value::Object(x), Value::Object(y)) => std::sync::Arc::ptr_eq(x, y),
            _ => self.values_equal(a, b),
        }
    }

    /// Truth of a condition: scalars, one-element arrays, non-empty sequences.
    pub fn truthy(&self, v: &Value) -> Result<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Complex(re, im) => *re != 0.0 || *im != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::List(l) => !l.is_empty(),
            Value::Dict(d) => !d.is_empty(),
            Value::Object(o) if o.len().is_some() => o.len() != Some(0),
            Value::Array(a) => {
                if a.size() != 1 {
                    return Err(Error::value(format!(
                        "the truth value of an array with {} elements is ambiguous",
                        a.size()
                    ))
                    .with_help("use any(x) or all(x)"));
                }
                a.to_host()?.get_f64(0)? != 0.0
            }
            Value::Range(a, b, s) => {
                if *s > 0 {
                    a < b
                } else {
                    a > b
                }
            }
            _ => true,
        })
    }
}

/// The value of a 0-d array as a float (`None` when it cannot be read).
fn scalar_value(x: &crate::array::Array) -> Option<f64> {
    x.to_host().ok()?.get_f64(0).ok()
}

pub(crate) fn op_named(name: &str) -> Result<&'static OpDef> {
    ops::lookup(name)
        .ok_or_else(|| Error::internal(format!("op `{name}` missing from the op table")))
}

/// The length of `len` items repeated `n` times (Python's `s * n`, negative
/// `n` gives nothing), checked against the host's memory budget for items
/// of `size` bytes: a repetition that cannot fit is an out-of-memory error.
fn repeated_len(len: usize, n: i64, size: usize, what: &str) -> Result<usize> {
    let n = usize::try_from(n).unwrap_or(0);
    let total = len.checked_mul(n).ok_or_else(|| {
        Error::new(
            crate::error::ErrorKind::OutOfMemory,
            format!("{len} × {n} {what} are more than any memory can hold"),
        )
        .with_help("repeat fewer times")
    })?;
    crate::array::alloc::check_budget(total, size, what)?;
    Ok(total)
}

/// The items of `a` then `b`, checked against the host's memory budget.
fn joined(a: &[Value], b: &[Value]) -> Result<Vec<Value>> {
    let mut v = crate::array::alloc::try_vec(a.len() + b.len(), "list items")?;
    v.extend(a.iter().chain(b).cloned());
    Ok(v)
}

/// The builtin whose one-argument call of a 0-d float gives a Python int.
const PY_ROUND: &str = "round";

/// Whether every array leaf of `n` is 0-d (so is its result).
fn zero_d(n: &EwNode) -> bool {
    match n {
        EwNode::Leaf(Operand::Array(a)) => a.ndim() == 0,
        EwNode::Leaf(_) => true,
        EwNode::Op { args, .. } => args.iter().all(zero_d),
    }
}

/// `seq * n` with n a 0-d integer array (what `x.max() + 1` gives where
/// NumPy gives an integer scalar, whose `*` repeats a list as Python's int
/// does): n becomes a Python int, so `[0] * (labels.max() + 1)` repeats.
/// The other operand is computed first (it may be a fused tree); one of
/// any other shape goes on as a leaf.
fn repeat_count(s: &mut Interp, op: BinOp, l: Node, r: Node) -> Result<(Node, Node)> {
    if op != BinOp::Mul {
        return Ok((l, r));
    }
    let seq = |n: &Node| matches!(n, Err(Value::List(_) | Value::Tuple(_) | Value::Str(_)));
    let count = |s: &mut Interp, n: Node| -> Result<Node> {
        if n.is_err() {
            return Ok(n);
        }
        let v = s.node_to_value(n)?;
        Ok(match &v {
            Value::Array(a) if a.ndim() == 0 && a.dtype().is_int() => match v.as_py_index() {
                Some(k) => Err(Value::Int(k)),
                None => leaf(v),
            },
            _ => leaf(v),
        })
    };
    Ok(if seq(&l) {
        let r = count(s, r)?;
        (l, r)
    } else if seq(&r) {
        (count(s, l)?, r)
    } else {
        (l, r)
    })
}

/// `+` and `*` on strings, tuples and lists (Python's meaning).
fn sequence_op(op: BinOp, l: &Value, r: &Value) -> Result<Value> {
    if let Some(r) = crate::containers::set::set_op(op, l, r) {
        return r;
    }
    let repeat = |n: i64| usize::try_from(n).unwrap_or(0);
    match (op, l, r) {
        (BinOp::Add, Value::Str(a), Value::Str(b)) => {
            crate::array::alloc::check_budget(a.len() + b.len(), 1, "bytes of text")?;
            Ok(Value::str(format!("{a}{b}")))
        }
        (BinOp::Mod, Value::Str(fmt), args) => Ok(Value::str(
            crate::containers::str_methods::percent_format(fmt, args)?,
        )),
        (BinOp::Add, Value::Tuple(a), Value::Tuple(b)) => Ok(Value::tuple(joined(a, b)?)),
        (BinOp::Add, Value::List(a), Value::List(b)) => {
            let (a, b) = (a.snapshot(), b.snapshot());
            Ok(Value::list(joined(&a, &b)?))
        }
        (BinOp::BitOr, Value::Dict(a), Value::Dict(b)) => {
            // Python 3.9's merge: b's values win, a's order first.
            let d = a.copy();
            for (k, v) in b.snapshot().values() {
                d.insert(k.clone(), v.clone())?;
            }
            Ok(Value::Dict(d))
        }
        (BinOp::Mul, Value::Tuple(a), Value::Int(n))
        | (BinOp::Mul, Value::Int(n), Value::Tuple(a)) => {
            let total = repeated_len(a.len(), *n, std::mem::size_of::<Value>(), "tuple items")?;
            let mut v = crate::array::alloc::try_vec(total, "tuple items")?;
            v.extend(a.iter().cloned().cycle().take(total));
            Ok(Value::tuple(v))
        }
        (BinOp::Mul, Value::Str(a), Value::Int(n)) | (BinOp::Mul, Value::Int(n), Value::Str(a)) => {
            let total = repeated_len(a.len(), *n, 1, "bytes of text")?;
            let mut s = String::new();
            s.try_reserve_exact(total)
                .map_err(|_| crate::array::alloc::host_oom(total, "bytes of text", total as u64))?;
            (0..repeat(*n)).for_each(|_| s.push_str(a));
            Ok(Value::str(s))
        }
        (BinOp::Mul, Value::List(a), Value::Int(n))
        | (BinOp::Mul, Value::Int(n), Value::List(a)) => {
            let a = a.snapshot();
            let total = repeated_len(a.len(), *n, std::mem::size_of::<Value>(), "list items")?;
            let mut v = crate::array::alloc::try_vec(total, "list items")?;
            v.extend(a.iter().cloned().cycle().take(total));
            Ok(Value::list(v))
        }
        _ => Err(Error::type_(format!(
            "`{}` is not defined between {} and {}",
            op.symbol(),
            l.a_type_name(),
            r.a_type_name()
        ))
        .with_help(
            if matches!(l, Value::List(_)) || matches!(r, Value::List(_)) {
                "for elementwise math on a list, make an array first: array([...])"
            } else {
                "convert with str(), int() or float() first"
            },
        )),
    }
}
