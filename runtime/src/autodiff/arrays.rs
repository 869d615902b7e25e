//! The arrays and trees the backward pass works with: the seed and fills,
//! sums back to an input's shape, casts, the scatter-add of indexing, and the
//! small tree utilities (sizes, shapes, identity) behind lazy adjoints.

use crate::array::Array;
use crate::array::Scalar;
use crate::array::index::Resolved;
use crate::dtype::DType;
use crate::error::{Error, Result};
pub(super) use crate::ops::fuse::tree_shape;
use crate::ops::fuse::{self, EwNode, Operand};

/// A leaf holding an array.
pub(super) fn leaf(a: Array) -> EwNode {
    EwNode::Leaf(Operand::Array(a))
}

/// The number of ops in a tree (what a lazy adjoint costs to repeat).
pub(super) fn op_count(n: &EwNode) -> usize {
    match n {
        EwNode::Leaf(_) => 0,
        EwNode::Op { args, .. } => 1 + args.iter().map(op_count).sum::<usize>(),
    }
}

/// Whether two trees compute the same values: the same ops over the same
/// views of the same buffers and the same scalars.
pub(super) fn same_tree(a: &EwNode, b: &EwNode) -> bool {
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

pub(super) fn add_nodes(a: EwNode, b: EwNode) -> Result<EwNode> {
    Ok(EwNode::Op {
        op: super::op("add")?,
        args: vec![a, b],
    })
}

pub(super) fn to_array(o: Operand) -> Result<Array> {
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
pub(super) fn cached_one(like: &Array, float_x: DType) -> Result<Array> {
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
    let s = crate::ops::reduce::reduce(crate::opid::ReduceOp::Sum, a, Some(&axes), false, float_x)?;
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

/// The gradient of `x[idx]` for x of `shape`: `g` added into zeros at the
/// selected positions, on g's device (index arrays are read there). A basic
/// index is a store into a view; an advanced one adds in float64 (every
/// repeat of a position adds: in index order on the CPU, by atomics on a
/// GPU), then casts to `dtype`.
pub(super) fn scatter_add(
    g: &Array,
    shape: &[usize],
    dtype: DType,
    idx: &Resolved,
) -> Result<Array> {
    if g.dtype().is_complex() {
        // The float64 scatter of each part, joined: re + 1j * im.
        use crate::ops::complex_ew::unary;
        use crate::ops::fuse::{Operand, apply};
        let fx = DType::Float64;
        let re = scatter_add(&unary(crate::opid::CxOp::Real, g, fx)?, shape, fx, idx)?;
        let im = scatter_add(&unary(crate::opid::CxOp::Imag, g, fx)?, shape, fx, idx)?;
        let j = apply(
            "multiply",
            vec![Operand::Array(im), Operand::Complex(0.0, 1.0)],
            fx,
        )?;
        return match apply("add", vec![Operand::Array(re), j], fx)? {
            Operand::Array(z) => cast(z, dtype),
            _ => Err(crate::error::Error::internal("scatter_add: a scalar")),
        };
    }
    let strides = crate::array::layout::contiguous_strides(shape);
    let sel = crate::array::index::select_in(shape, &strides, 0, idx)?;
    let g = g.broadcast_to(&sel.shape)?;
    if sel.entries.is_empty() {
        let z = crate::backend::create::full(shape, Scalar::Int(0), dtype, g.device())?;
        if let Some(v) = sel.as_view(&z) {
            crate::backend::index::store_view(&v, &g)?;
        }
        return Ok(z);
    }
    let z = crate::backend::create::full(shape, Scalar::Int(0), DType::Float64, g.device())?;
    let g64 = cast(g, DType::Float64)?;
    crate::backend::index::at(&z, &sel, &g64, crate::opid::AtOp::Add)?;
    cast(z, dtype)
}
