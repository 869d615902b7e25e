//! The backward pass: walk the tape from the output to the leaves, turning
//! each node's upstream gradient into its inputs' gradients. Elementwise
//! nodes are differentiated symbolically into new fused trees (one fused pass
//! per tracked input); other nodes call their op-table rule. Gradients are
//! summed back to each input's shape (broadcasting) and dtype.

use super::{GradCall, NodeKind, Tape};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::ops::elementwise::ew_def;
use crate::ops::fuse::{self, EwNode, Operand};
use crate::profile::GradOf;
use crate::value::Value;

impl Tape {
    /// The gradient of `root` (a tracked scalar) with respect to every node;
    /// `None` where no gradient reached. The tape must not be active.
    pub(crate) fn backward(
        mut self,
        interp: &mut Interp,
        root: &Array,
    ) -> Result<Vec<Option<Array>>> {
        let mut adj: Vec<Option<Array>> = vec![None; self.nodes.len()];
        let Some(r) = self.index_of(root.node()) else {
            return Ok(adj);
        };
        let _pass = interp.grad_record(GradOf::Pass, root);
        // The seed: a cached 0-d one when the root is computed (not an argument
        // itself), so a training step does not pay a launch for it.
        let seed = if matches!(self.nodes[r].kind, NodeKind::Leaf) || root.ndim() != 0 {
            None
        } else {
            Some(cached_one(root, interp.float_x())?)
        };
        adj[r] = Some(match &seed {
            Some(s) => s.clone(),
            None => fill_like(root, 1.0, interp.float_x())?,
        });
        // Adjoint trees of arguments, not yet evaluated: an argument reached by
        // several paths (w in logreg: the penalty and the matmul) gets one
        // fused pass that adds them all, instead of one pass per path plus adds.
        let mut pending: Vec<Option<EwNode>> = vec![None; self.nodes.len()];
        for i in (0..=r).rev() {
            if let Some(t) = pending[i].take() {
                let t = match adj[i].take() {
                    Some(a) => add_nodes(t, EwNode::Leaf(Operand::Array(a)))?,
                    None => t,
                };
                let v = to_array(fuse::eval(t, interp.float_x())?)?;
                adj[i] = Some(cast(v, self.nodes[i].dtype)?);
            }
            let Some(g) = adj[i].take() else { continue };
            let kind = std::mem::replace(&mut self.nodes[i].kind, NodeKind::Leaf);
            let _rec = interp.grad_record(kind.grad_of(), &g);
            match kind {
                NodeKind::Leaf => adj[i] = Some(g),
                NodeKind::Ew { tree, out } => {
                    let mut parts: Vec<(u64, EwNode)> = Vec::new();
                    let gn = EwNode::Leaf(Operand::Array(g));
                    self.diff(&tree, Some(out), gn, &mut parts);
                    while let Some((id, first)) = parts.pop() {
                        // Every occurrence of the same input, summed in one fused tree.
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
                        // Another input whose only adjoint is the same tree (the
                        // operands of `x + b`) shares this evaluation.
                        let twin = parts.iter().position(|(other, t)| {
                            same_tree(t, &sum)
                                && parts.iter().filter(|p| p.0 == *other).count() == 1
                        });
                        if twin.is_none()
                            && let Some(j) = self.deferrable(&sum, id)
                        {
                            pending[j] = Some(match pending[j].take() {
                                Some(p) => add_nodes(p, sum)?,
                                None => sum,
                            });
                            continue;
                        }
                        let v = fuse::eval(sum, interp.float_x())?.into_value();
                        if let Some(k) = twin {
                            let (other, _) = parts.swap_remove(k);
                            self.accumulate(interp, &mut adj, other, v.clone())?;
                        }
                        self.accumulate(interp, &mut adj, id, v)?;
                    }
                }
                NodeKind::Op {
                    op: _,
                    rule,
                    pos,
                    kw,
                    out,
                    inputs,
                } => {
                    let needs = inputs
                        .iter()
                        .map(|&id| self.index_of(id).is_some())
                        .collect();
                    let call = GradCall {
                        needs,
                        pos,
                        kw,
                        out,
                        g,
                    };
                    let grads = rule(interp, &call)?;
                    for (gv, id) in grads.into_iter().zip(inputs) {
                        if let Some(gv) = gv {
                            self.accumulate(interp, &mut adj, id, gv)?;
                        }
                    }
                }
                NodeKind::Index { base, idx } => {
                    if let Some(b) = self.index_of(base) {
                        let (shape, dtype) = (self.nodes[b].shape.clone(), self.nodes[b].dtype);
                        let v = scatter_add(&g, &shape, dtype, &idx)?;
                        self.accumulate(interp, &mut adj, base, Value::Array(v))?;
                    }
                }
            }
        }
        // A gradient that is the shared seed itself (or a view of it) is copied,
        // so writing into a returned gradient can never change the cache.
        if let Some(s) = &seed {
            for a in adj.iter_mut().flatten() {
                if std::sync::Arc::ptr_eq(a.storage(), s.storage()) {
                    *a = a.copy()?;
                }
            }
        }
        Ok(adj)
    }

    /// The index of node `id` when its adjoint tree `t` may wait: the node is
    /// an argument (nothing reads its adjoint before the end) and `t` has its
    /// shape already (no sum over broadcast dims needed).
    fn deferrable(&self, t: &EwNode, id: u64) -> Option<usize> {
        let j = self.index_of(id)?;
        let node = &self.nodes[j];
        if !matches!(node.kind, NodeKind::Leaf) {
            return None;
        }
        let mut shape: Option<Vec<usize>> = None;
        tree_shape(t, &mut shape).ok()?;
        (shape.as_deref() == Some(node.shape.as_slice())).then_some(j)
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

    /// Add `v` (summed to the node's shape, cast to its dtype) to node `id`'s gradient.
    fn accumulate(
        &self,
        interp: &mut Interp,
        adj: &mut [Option<Array>],
        id: u64,
        v: Value,
    ) -> Result<()> {
        let Some(j) = self.index_of(id) else {
            return Ok(());
        };
        let node = &self.nodes[j];
        let a = match v {
            Value::Array(a) => a,
            other => {
                let o = fuse::operand(&other)?;
                return Err(Error::internal(format!(
                    "gradient rule gave a non-array {o:?}"
                )));
            }
        };
        let a = cast(sum_to(&a, &node.shape, interp.float_x())?, node.dtype)?;
        adj[j] = Some(match adj[j].take() {
            None => a,
            Some(prev) => {
                let t = EwNode::Op {
                    op: super::op("add")?,
                    args: vec![
                        EwNode::Leaf(Operand::Array(prev)),
                        EwNode::Leaf(Operand::Array(a)),
                    ],
                };
                to_array(fuse::eval(t, interp.float_x())?)?
            }
        });
        Ok(())
    }
}

impl NodeKind {
    /// What the profiler calls this node's backward step.
    fn grad_of(&self) -> GradOf<'_> {
        match self {
            NodeKind::Leaf => GradOf::Leaf,
            NodeKind::Ew { tree, .. } => GradOf::Tree(tree),
            NodeKind::Op { op, .. } => GradOf::Op(op),
            NodeKind::Index { .. } => GradOf::Index,
        }
    }
}

/// Whether two trees compute the same values: the same ops over the same
/// views of the same buffers and the same scalars.
fn same_tree(a: &EwNode, b: &EwNode) -> bool {
    match (a, b) {
        (EwNode::Op { op: o1, args: a1 }, EwNode::Op { op: o2, args: a2 }) => {
            std::ptr::eq(*o1, *o2)
                && a1.len() == a2.len()
                && a1.iter().zip(a2).all(|(x, y)| same_tree(x, y))
        }
        (EwNode::Leaf(x), EwNode::Leaf(y)) => match (x, y) {
            (Operand::Array(p), Operand::Array(q)) => p.same_as(q),
            (Operand::Int(p), Operand::Int(q)) => p == q,
            (Operand::Float(p), Operand::Float(q)) => p.to_bits() == q.to_bits(),
            (Operand::Bool(p), Operand::Bool(q)) => p == q,
            _ => false,
        },
        _ => false,
    }
}

/// The broadcast shape of a tree's arrays (None: it has none).
fn tree_shape(n: &EwNode, acc: &mut Option<Vec<usize>>) -> Result<()> {
    match n {
        EwNode::Leaf(Operand::Array(a)) => {
            *acc = Some(match acc.take() {
                None => a.shape().to_vec(),
                Some(s) => crate::array::layout::broadcast_shapes(&s, a.shape(), "grad")?,
            });
            Ok(())
        }
        EwNode::Leaf(_) => Ok(()),
        EwNode::Op { args, .. } => args.iter().try_for_each(|a| tree_shape(a, acc)),
    }
}

fn add_nodes(a: EwNode, b: EwNode) -> Result<EwNode> {
    Ok(EwNode::Op {
        op: super::op("add")?,
        args: vec![a, b],
    })
}

fn to_array(o: Operand) -> Result<Array> {
    match o {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("a gradient came out as a scalar")),
    }
}

/// An array of `like`'s shape, dtype and device filled with `v` (one fused pass).
pub(crate) fn fill_like(like: &Array, v: f64, float_x: DType) -> Result<Array> {
    let t = EwNode::Op {
        op: super::op("where")?,
        args: vec![
            EwNode::Leaf(Operand::Bool(true)),
            EwNode::Leaf(Operand::Float(v)),
            EwNode::Leaf(Operand::Array(like.clone().with_node(0))),
        ],
    };
    to_array(fuse::eval(t, float_x)?)
}

/// A 0-d one of `like`'s dtype on `like`'s device, made once per (device,
/// dtype) and shared: never written (gradients returned to the user that
/// share its buffer are copied first).
fn cached_one(like: &Array, float_x: DType) -> Result<Array> {
    use std::sync::Mutex;
    type Seeds = Vec<(crate::Device, DType, Array)>;
    static SEEDS: Mutex<Seeds> = Mutex::new(Vec::new());
    let (dev, dt) = (like.device(), like.dtype());
    let mut seeds = SEEDS
        .lock()
        .map_err(|_| Error::internal("gradient seed cache lock"))?;
    if let Some((_, _, a)) = seeds.iter().find(|(d, t, _)| *d == dev && *t == dt) {
        return Ok(a.clone());
    }
    let one = fill_like(like, 1.0, float_x)?;
    seeds.push((dev, dt, one.clone()));
    Ok(one)
}

/// `a` summed over the dims that broadcasting added to reach its shape from `shape`.
pub(crate) fn sum_to(a: &Array, shape: &[usize], float_x: DType) -> Result<Array> {
    if a.shape() == shape {
        return Ok(a.clone());
    }
    if a.ndim() < shape.len() {
        return a.broadcast_to(shape);
    }
    let lead = a.ndim() - shape.len();
    let axes: Vec<isize> = (0..a.ndim())
        .filter(|&d| d < lead || (shape[d - lead] == 1 && a.shape()[d] != 1))
        .map(|d| d as isize)
        .collect();
    let s = crate::ops::reduce::reduce("sum", a, Some(&axes), false, float_x)?;
    let want: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    s.reshape(&want)
}

pub(crate) fn cast(a: Array, dtype: DType) -> Result<Array> {
    if a.dtype() == dtype {
        Ok(a)
    } else {
        a.astype(dtype)
    }
}

/// The gradient of `x[idx]` for `x` of `shape`: `g` added into zeros at the
/// selected positions (repeated indices add up, in index order, in float64).
/// The positions are worked out on the host from the index alone; a GPU `g`
/// stays on its device (`cuda::index::scatter_add`, deterministic).
fn scatter_add(g: &Array, shape: &[usize], dtype: DType, idx: &[Index]) -> Result<Array> {
    let size: usize = shape.iter().product();
    let pos = Array::from_vec((0..size as i64).collect::<Vec<i64>>(), shape.to_vec());
    let offs = pos.index(idx)?;
    let g = g.broadcast_to(offs.shape())?;
    if g.device().is_gpu() {
        return crate::cuda::index::scatter_add(&g, &offs.to_vec::<i64>()?, shape, dtype);
    }
    let (gv, ov) = (g.to_f64_vec()?, offs.to_vec::<i64>()?);
    let mut out = vec![0.0f64; size];
    for (o, v) in ov.into_iter().zip(gv) {
        if let Some(slot) = out.get_mut(o as usize) {
            *slot += v;
        }
    }
    Array::from_vec(out, shape.to_vec()).astype(dtype)
}
