//! Triangles and diagonals: `triu tril` (one fused `where` over the
//! array and two small `arange`s on its device), `diag` (a view of a 2-d
//! array's diagonal, or zeros with a 1-d array stored along a diagonal
//! view) and `trace` (a sum over the diagonal view).

use super::views::{diag_axes, diagonal_view};
use super::{data_arg, opt_int};
use crate::array::{Array, Scalar};
use crate::autodiff::ewb::{E, e, ge, le, where_};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::ops::fuse::{self, EwNode, Operand};
use crate::value::Value;

/// The mask tree of `triu` (`upper`) or `tril` over the last two axes of an
/// array of `shape` (a 1-d shape (n,) is taken as (n, n)), on `like`'s
/// device: `col - row >= k` (or `<= k`).
pub(crate) fn tri_mask(shape: &[usize], k: i64, upper: bool, like: &Array) -> Result<E> {
    let nd = shape.len();
    if nd == 0 {
        return Err(Error::shape(
            if upper { "triu" } else { "tril" },
            "triu and tril need an array of at least 1 dimension, not 0-d",
        )
        .with_help("a 1-d array is taken as the rows of a square"));
    }
    let cols = shape[nd - 1];
    let rows = if nd == 1 { cols } else { shape[nd - 2] };
    let dev = like.device();
    let r = Array::arange(0.0, rows as f64, 1.0, DType::Int64, dev)?.reshape(&[rows as i64, 1])?;
    let c = Array::arange(0.0, cols as f64, 1.0, DType::Int64, dev)?;
    let diff = leaf(&c) - leaf(&r);
    let k = E(Some(EwNode::Leaf(Operand::Int(k))));
    Ok(if upper { ge(diff, k) } else { le(diff, k) })
}

fn leaf(a: &Array) -> E {
    e(&EwNode::Leaf(Operand::Array(a.clone())))
}

/// `where(mask, x, 0)`: zero of x's kind (false for bools).
pub(crate) fn masked(x: &Array, mask: E, float_x: DType) -> Result<Array> {
    let zero = match x.dtype() {
        DType::Bool => Operand::Bool(false),
        d if d.is_int() => Operand::Int(0),
        _ => Operand::Float(0.0),
    };
    let t = where_(mask, leaf(x), E(Some(EwNode::Leaf(zero))));
    let t =
        t.0.ok_or_else(|| Error::internal("triu: `where` missing from the op table"))?;
    match fuse::eval(t, float_x)? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("triu: a scalar result")),
    }
}

fn tri(i: &mut Interp, mut a: Args, upper: bool) -> Result<Value> {
    let x = data_arg(i, &a.req("m")?)?;
    let k = opt_int(&mut a, "k", 0)?;
    a.finish()?;
    let mask = tri_mask(x.shape(), k, upper, &x)?;
    Ok(masked(&x, mask, i.float_x())?.into())
}

pub(super) fn triu(i: &mut Interp, a: Args) -> Result<Value> {
    tri(i, a, true)
}

pub(super) fn tril(i: &mut Interp, a: Args) -> Result<Value> {
    tri(i, a, false)
}

/// Zeros of `shape` and `x`'s dtype on `x`'s device with `v` (broadcast to
/// the diagonal's shape) stored along diagonal `k` over axes `a1`, `a2`.
pub(crate) fn with_diagonal(
    shape: &[usize],
    dtype: DType,
    v: &Array,
    k: i64,
    a1: usize,
    a2: usize,
) -> Result<Array> {
    let out = Array::full(shape, Scalar::Int(0), dtype, v.device())?;
    let view = diagonal_view(&out, k, a1, a2);
    if view.size() > 0 {
        let src = v.broadcast_to(view.shape())?;
        crate::backend::index::store_view(&view, &src)?;
    }
    Ok(out)
}

pub(super) fn diag(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("x")?)?;
    let k = opt_int(&mut a, "k", 0)?;
    a.finish()?;
    match x.ndim() {
        1 => {
            let n = x.size() + k.unsigned_abs() as usize;
            crate::array::alloc::checked_numel(&[n, n], x.dtype())?;
            Ok(with_diagonal(&[n, n], x.dtype(), &x, k, 0, 1)?.into())
        }
        2 => Ok(diagonal_view(&x, k, 0, 1).into()),
        d => Err(
            Error::value(format!("diag: the input must be 1-d or 2-d, not {d}-d"))
                .with_op("diag")
                .with_help("diagonal(a, offset, axis1, axis2) takes the diagonals of any array"),
        ),
    }
}

pub(super) fn trace(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let (offset, p, q) = diag_axes(&x, &mut a, "trace")?;
    let dt = match a.opt("dtype")? {
        None | Some(Value::None) => None,
        Some(v) => Some(crate::ops::creation::dtype_arg(&v)?),
    };
    a.finish()?;
    let d = diagonal_view(&x, offset, p, q);
    let d = match dt {
        Some(t) => d.astype(t)?,
        None => d,
    };
    let s = crate::ops::reduce::reduce(ReduceOp::Sum, &d, Some(&[-1]), false, i.float_x())?;
    Ok(match dt {
        Some(t) if s.dtype() != t => s.astype(t)?,
        _ => s,
    }
    .into())
}
