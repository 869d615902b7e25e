//! The backward pass: walk the tape from the output to the leaves, turning
//! each node's upstream gradient into its inputs' gradients. Elementwise
//! nodes are differentiated symbolically into new fused trees (one fused pass
//! per tracked input); other nodes call their op-table rule. Gradients are
//! summed back to each input's shape (broadcasting) and dtype.

use super::arrays::{
    add_nodes, cached_one, cast, fill_like, leaf, op_count, same_tree, scatter_add, sum_to,
    to_array, tree_shape,
};
use super::{GradCall, NodeKind, Tape};
use crate::array::Array;
use crate::array::layout::broadcast_shapes;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::opid::ReduceOp;
use crate::ops::elementwise::ew_def;
use crate::ops::fuse::{self, EwNode, Operand};
use crate::profile::GradOf;
use crate::value::Value;

/// An adjoint tree with more ops than this is evaluated before a node's rule
/// repeats it (rules may use `g` more than once).
const REUSE_OPS: usize = 24;
/// An adjoint tree with more ops than this is evaluated rather than grown.
const KEEP_OPS: usize = 48;

impl Tape {
    /// The gradient of `root` (a tracked scalar) with respect to every node;
    /// `None` where no gradient reached. The tape must not be active.
    ///
    /// Adjoints are kept as elementwise trees until something needs their
    /// values: an elementwise node differentiates with its adjoint tree as `g`
    /// (so `mean(-y * log(p))`'s backward and sigmoid's run as one fused pass),
    /// `sum`/`mean` over every element pass `g` (over n) down without a launch,
    /// and an argument reached by several paths adds them all in one pass.
    /// A tree is evaluated when a rule needs an array, when it must be summed
    /// over broadcast dims, or when it grows past `KEEP_OPS`.
    pub(crate) fn backward(
        mut self,
        interp: &mut Interp,
        root: &Array,
    ) -> Result<Vec<Option<Array>>> {
        let mut grads: Vec<Option<Array>> = vec![None; self.nodes.len()];
        let Some(r) = self.index_of(root.node()) else {
            return Ok(grads);
        };
        let fx = interp.float_x();
        let _pass = interp.grad_record(GradOf::Pass, root);
        // The seed: a cached 0-d one when the root is computed (not an argument
        // itself), so a training step does not pay a launch for it.
        let seed = if matches!(self.nodes[r].kind, NodeKind::Leaf) || root.ndim() != 0 {
            None
        } else {
            Some(cached_one(root, fx)?)
        };
        let mut adj: Vec<Option<EwNode>> = vec![None; self.nodes.len()];
        adj[r] = Some(leaf(match &seed {
            Some(s) => s.clone(),
            None => fill_like(root, 1.0, fx)?,
        }));
        // The gradients reaching each `Multi` node's items, by node index.
        let mut parts: crate::fxhash::FxHashMap<usize, Vec<Option<Array>>> = Default::default();
        for i in (0..=r).rev() {
            if let Some(gs) = parts.remove(&i) {
                let kind = std::mem::replace(&mut self.nodes[i].kind, NodeKind::Leaf);
                self.backward_multi(interp, fx, &mut adj, kind, gs)?;
                continue;
            }
            let Some(g) = adj[i].take() else { continue };
            let kind = std::mem::replace(&mut self.nodes[i].kind, NodeKind::Leaf);
            match kind {
                NodeKind::Leaf => grads[i] = Some(self.materialize(i, g, fx, true)?),
                NodeKind::Ew { tree, out } => {
                    let _rec = interp.grad_record(GradOf::Tree(&tree), &out);
                    let g = match op_count(&g) > REUSE_OPS {
                        true => leaf(self.materialize(i, g, fx, false)?),
                        false => g,
                    };
                    self.backward_tree(fx, &mut adj, &tree, Some(out), g)?;
                }
                NodeKind::Reduce { tree, scale, out } => {
                    // Every element's adjoint is g (times 1/n for a mean),
                    // broadcast by the tree's own leaves.
                    let _rec = interp.grad_record(GradOf::Tree(&tree), &out);
                    let g = match scale == 1.0 {
                        true => g,
                        false => EwNode::Op {
                            op: super::op("multiply")?,
                            args: vec![g, EwNode::Leaf(Operand::Float(scale))],
                        },
                    };
                    self.backward_tree(fx, &mut adj, &tree, None, g)?;
                }
                NodeKind::Op {
                    op,
                    rule,
                    pos,
                    kw,
                    out,
                    inputs,
                } => {
                    let _rec = interp.grad_record(GradOf::Op(op.name), &out);
                    if let Some(t) = whole_reduction(op.reduce_op(), &pos, &kw, &g) {
                        self.add_tree(fx, &mut adj, inputs[0], t)?;
                        continue;
                    }
                    let needs = inputs
                        .iter()
                        .map(|&id| self.index_of(id).is_some())
                        .collect();
                    let g = self.materialize(i, g, fx, false)?;
                    let call = GradCall {
                        needs,
                        pos,
                        kw,
                        out,
                        g,
                        outs: Vec::new(),
                        gs: Vec::new(),
                    };
                    let grads = rule(interp, &call)?;
                    for (gv, id) in grads.into_iter().zip(inputs) {
                        if let Some(gv) = gv {
                            self.add_tree(fx, &mut adj, id, value_leaf(gv)?)?;
                        }
                    }
                }
                NodeKind::Part { multi, k } => {
                    let g = self.materialize(i, g, fx, false)?;
                    if let Some(j) = self.index_of(multi)
                        && let NodeKind::Multi { outs, .. } = &self.nodes[j].kind
                    {
                        let n = outs.len();
                        let slot = parts.entry(j).or_insert_with(|| vec![None; n]);
                        if let Some(s) = slot.get_mut(k) {
                            *s = Some(g);
                        }
                    }
                }
                NodeKind::Multi { .. } => {}
                NodeKind::View { flat, layout } => {
                    let g = self.materialize(i, g, fx, false)?;
                    let _rec = interp.grad_record(GradOf::Index, &g);
                    if let Some(j) = self.index_of(flat) {
                        let (len, dtype) = (self.nodes[j].shape[0], self.nodes[j].dtype);
                        let v = super::writes::view_grad(&g, &layout, len, dtype)?;
                        self.add_tree(fx, &mut adj, flat, leaf(v))?;
                    }
                }
                NodeKind::Write(w) => {
                    let g = self.materialize(i, g, fx, false)?;
                    let _rec = interp.grad_record(GradOf::Index, &g);
                    for (id, v) in super::writes::write_grads(&w, &g, fx)? {
                        self.add_tree(fx, &mut adj, id, leaf(v))?;
                    }
                }
                NodeKind::Index { base, idx } => {
                    let g = self.materialize(i, g, fx, false)?;
                    let _rec = interp.grad_record(GradOf::Index, &g);
                    if let Some(b) = self.index_of(base) {
                        let (shape, dtype) = (self.nodes[b].shape.clone(), self.nodes[b].dtype);
                        let v = scatter_add(&g, &shape, dtype, &idx)?;
                        self.add_tree(fx, &mut adj, base, leaf(v))?;
                    }
                }
            }
        }
        // A gradient that is the shared seed itself (or a view of it) is copied,
        // so writing into a returned gradient can never change the cache.
        if let Some(s) = &seed {
            for a in grads.iter_mut().flatten() {
                if std::sync::Arc::ptr_eq(a.storage(), s.storage()) {
                    *a = a.copy()?;
                }
            }
        }
        Ok(grads)
    }

    /// A tuple-returning op's backward: its rule gets every item's gradient
    /// (`GradCall::gs`) in one call.
    fn backward_multi(
        &self,
        interp: &mut Interp,
        fx: DType,
        adj: &mut [Option<EwNode>],
        kind: NodeKind,
        gs: Vec<Option<Array>>,
    ) -> Result<()> {
        let NodeKind::Multi {
            op,
            rule,
            pos,
            kw,
            outs,
            inputs,
        } = kind
        else {
            return Ok(());
        };
        let (Some(out), Some(g)) = (outs.iter().flatten().next(), gs.iter().flatten().next())
        else {
            return Ok(());
        };
        let _rec = interp.grad_record(GradOf::Op(op.name), out);
        let call = GradCall {
            needs: inputs
                .iter()
                .map(|&id| self.index_of(id).is_some())
                .collect(),
            pos,
            kw,
            out: out.clone(),
            g: g.clone(),
            outs: outs.clone(),
            gs: gs.clone(),
        };
        for (gv, id) in rule(interp, &call)?.into_iter().zip(inputs) {
            if let Some(gv) = gv {
                self.add_tree(fx, adj, id, value_leaf(gv)?)?;
            }
        }
        Ok(())
    }

    /// One elementwise node's backward: the adjoint tree of each tracked input
    /// (every occurrence of an input summed in one tree), passed on lazily.
    fn backward_tree(
        &self,
        fx: DType,
        adj: &mut [Option<EwNode>],
        tree: &EwNode,
        out: Option<Array>,
        g: EwNode,
    ) -> Result<()> {
        // The tree's own shape: every leaf's adjoint is summed from it. The
        // adjoint expression may be smaller (a lazily broadcast seed: the
        // `g` of `sum(tree)` is 0-d), and a leaf broadcast against another
        // leaf (`a[:, None] + b`) must still count every position it fed.
        let mut full = None;
        fuse::tree_shape(tree, &mut full)?;
        let full = full.as_deref();
        let mut parts: Vec<(u64, EwNode)> = Vec::new();
        self.diff(tree, out, g, &mut parts);
        while let Some((id, first)) = parts.pop() {
            let mut sum = first;
            let mut k = 0;
            while k < parts.len() {
                if parts[k].0 == id {
                    let (_, t) = parts.swap_remove(k);
                    sum = add_nodes(sum, t)?;
                } else {
                    k += 1;
                }
            }
            // Another input whose only adjoint is the same tree (the operands
            // of `x + b`) shares one evaluation of it.
            let twin = parts.iter().position(|(other, t)| {
                same_tree(t, &sum) && parts.iter().filter(|p| p.0 == *other).count() == 1
            });
            match twin {
                Some(k) => {
                    let v = value_leaf(fuse::eval(sum, fx)?.into_value())?;
                    let (other, _) = parts.swap_remove(k);
                    self.add_tree_within(fx, adj, other, v.clone(), full)?;
                    self.add_tree_within(fx, adj, id, v, full)?;
                }
                None => self.add_tree_within(fx, adj, id, sum, full)?,
            }
        }
        Ok(())
    }

    /// Add the adjoint tree `t` to node `id`'s. A tree of a larger shape than
    /// the node's (broadcasting) is evaluated and summed back to it now; one
    /// that grows past `KEEP_OPS` is evaluated.
    fn add_tree(&self, fx: DType, adj: &mut [Option<EwNode>], id: u64, t: EwNode) -> Result<()> {
        self.add_tree_within(fx, adj, id, t, None)
    }

    /// `add_tree` for the adjoint of a leaf of a fused tree of shape `full`:
    /// the adjoint stands for every position of `full` (broadcast up to it
    /// first), and positions the leaf was broadcast to are summed back.
    fn add_tree_within(
        &self,
        fx: DType,
        adj: &mut [Option<EwNode>],
        id: u64,
        t: EwNode,
        full: Option<&[usize]>,
    ) -> Result<()> {
        let Some(j) = self.index_of(id) else {
            return Ok(());
        };
        let node = &self.nodes[j];
        let mut shape = None;
        tree_shape(&t, &mut shape)?;
        let shape = match (shape, full) {
            (Some(s), Some(f)) => Some(broadcast_shapes(&s, f, "grad")?),
            (s, f) => s.or_else(|| f.map(<[usize]>::to_vec)),
        };
        let t = match shape {
            Some(s) if broadcast_shapes(&s, &node.shape, "grad")? != node.shape => {
                let a = to_array(fuse::eval(t, fx)?)?;
                let a = match a.shape() == s.as_slice() {
                    true => a,
                    false => a.broadcast_to(&s)?,
                };
                leaf(cast(sum_to(&a, &node.shape, fx)?, node.dtype)?)
            }
            _ => t,
        };
        let t = match adj[j].take() {
            None => t,
            Some(prev) => add_nodes(prev, t)?,
        };
        adj[j] = Some(match op_count(&t) > KEEP_OPS {
            true => leaf(self.materialize(j, t, fx, false)?),
            false => t,
        });
        Ok(())
    }

    /// Node `j`'s adjoint tree evaluated: its shape (broadcast up where the
    /// tree is smaller) and dtype. `fresh`: returned to the user, so never a
    /// broadcast view.
    fn materialize(&self, j: usize, t: EwNode, fx: DType, fresh: bool) -> Result<Array> {
        let node = &self.nodes[j];
        let a = cast(to_array(fuse::eval(t, fx)?)?, node.dtype)?;
        if a.shape() == node.shape.as_slice() {
            return Ok(a);
        }
        if broadcast_shapes(a.shape(), &node.shape, "grad")? != node.shape {
            return cast(sum_to(&a, &node.shape, fx)?, node.dtype);
        }
        let b = a.broadcast_to(&node.shape)?;
        if fresh { b.copy() } else { Ok(b) }
    }

    /// Differentiate a fused tree: the adjoint expression of each tracked leaf.
    /// `out` is the tree's computed value (used for the root's `o`).
    fn diff(&self, n: &EwNode, out: Option<Array>, g: EwNode, acc: &mut Vec<(u64, EwNode)>) {
        match n {
            EwNode::Leaf(Operand::Array(a)) if self.tracks(a) => acc.push((a.node(), g)),
            EwNode::Leaf(_) => {}
            EwNode::Op { op, args } => {
                let Some(rule) = ew_def(op).and_then(|d| d.grad) else {
                    return;
                };
                // The node's value: the computed output at the root, else the
                // subtree itself (borrowed: rules clone what they use).
                let root_out;
                let o = match out {
                    Some(a) => {
                        root_out = EwNode::Leaf(Operand::Array(a.with_node(0)));
                        &root_out
                    }
                    None => n,
                };
                for (i, a) in args.iter().enumerate() {
                    if self.tracks_tree(a)
                        && let Some(gi) = rule(args, o, &g, i)
                    {
                        self.diff(a, None, gi, acc);
                    }
                }
            }
        }
    }
}

/// A rule's gradient as a tree leaf (rules give arrays).
fn value_leaf(v: Value) -> Result<EwNode> {
    match v {
        Value::Array(a) => Ok(leaf(a)),
        other => {
            let o = fuse::operand(&other)?;
            Err(Error::internal(format!(
                "gradient rule gave a non-array {o:?}"
            )))
        }
    }
}

/// The input's adjoint tree for `sum(x)` / `mean(x)` over every element
/// (`keepdims` either way): `g` (over n), broadcast when it is used; `None`
/// for any other call (its rule runs).
fn whole_reduction(
    op: Option<ReduceOp>,
    pos: &[Value],
    kw: &[(String, Value)],
    g: &EwNode,
) -> Option<EwNode> {
    let whole = kw
        .iter()
        .all(|(k, v)| k == "keepdims" || (k == "axis" && matches!(v, Value::None)));
    let [Value::Array(x)] = pos else { return None };
    if !whole {
        return None;
    }
    let n = x.size();
    match op? {
        ReduceOp::Sum => Some(g.clone()),
        ReduceOp::Mean if n > 0 => Some(EwNode::Op {
            op: super::op("multiply").ok()?,
            args: vec![g.clone(), EwNode::Leaf(Operand::Float(1.0 / n as f64))],
        }),
        _ => None,
    }
}
