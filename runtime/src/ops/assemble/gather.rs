//! Gathers and scatters by index arrays: `take` (one index list along an
//! axis), `take_along_axis` and `put_along_axis` (an index per position).
//! Index arrays stay on their device: the remap kernels read them there;
//! "raise" bounds are checked with a min and a max reduced on the device
//! (one read of two numbers). Index lists given as literals go to the
//! array's device, as `x[[0, 2]]`'s do.

use super::{choice_arg, data_arg, opt_axis};
use crate::array::layout::{broadcast_shapes, fmt_shape};
use crate::array::shape_ops::norm_axis;
use crate::array::{Array, Dims, Strides};
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::opid::assemble::{AxisMap, IndexMode, Remap};
use crate::value::Value;

/// An index argument on `like`'s device (a literal or a host array goes
/// there; an array on another GPU is an error): integers or bools (or an
/// empty float list, which NumPy accepts).
fn index_arg(i: &Interp, v: &Value, like: &Array, op: &str) -> Result<Array> {
    let a = match v {
        Value::Array(a) => a.clone(),
        other => crate::array::create::value_to_array(other, None, i.float_x())?,
    };
    if a.dtype().is_float() && a.size() > 0 {
        return Err(Error::dtype(
            op,
            format!("{op}: indices must be integers, not {}", a.dtype()),
        )
        .with_help("convert them with .astype(int64)"));
    }
    backend::index::values_for(like, &a, op)
}

/// Every entry of int64 `idx` in `-n..n` (checked with a min and a max
/// reduced on its device), else NumPy's IndexError.
fn check_bounds(idx: &Array, n: usize, axis: usize, op: &str) -> Result<()> {
    if idx.size() == 0 {
        return Ok(());
    }
    if n == 0 {
        return Err(Error::index(format!(
            "{op}: cannot take from the empty axis {axis} (the indices are not empty)"
        ))
        .with_op(op));
    }
    let fx = DType::Float64;
    let lo = crate::ops::reduce::reduce(ReduceOp::Min, idx, None, false, fx)?;
    let hi = crate::ops::reduce::reduce(ReduceOp::Max, idx, None, false, fx)?;
    let both = Array::concat(&[lo.reshape(&[1])?, hi.reshape(&[1])?], 0)?.to_vec::<i64>()?;
    let n = n as i64;
    let bad = if both[0] < -n { both[0] } else { both[1] };
    if both[0] < -n || both[1] >= n {
        return Err(Error::index(format!(
            "index {bad} is out of bounds for axis {axis} with size {n}"
        ))
        .with_op(op)
        .with_help(format!("valid indices are -{n}..{}", n - 1)));
    }
    Ok(())
}

/// `take`'s parts: the source (flattened without an axis), its axis, the
/// indices as contiguous int64 on its device, their shape, and the mode.
pub(crate) struct TakeParts {
    pub src: Array,
    pub ax: usize,
    pub idx: Array,
    pub idx_shape: Vec<usize>,
    pub mode: IndexMode,
}

impl TakeParts {
    /// The gathered shape before the index's own shape is put in:
    /// src's shape with the axis's length the number of indices.
    pub(crate) fn flat_shape(&self) -> Vec<usize> {
        let mut s = self.src.shape().to_vec();
        s[self.ax] = self.idx.size();
        s
    }
    /// The result's shape: a.shape[:axis] + indices.shape + a.shape[axis+1:].
    pub(crate) fn out_shape(&self) -> Vec<i64> {
        let s = self.src.shape();
        s[..self.ax]
            .iter()
            .chain(&self.idx_shape)
            .chain(&s[self.ax + 1..])
            .map(|&d| d as i64)
            .collect()
    }
}

pub(crate) fn take_parts(
    i: &Interp,
    x: &Array,
    indices: &Value,
    axis: Option<i64>,
    mode: &str,
) -> Result<TakeParts> {
    let (src, ax) = match axis {
        None => (x.reshape(&[-1])?, 0),
        Some(a) => (x.clone(), norm_axis(a, x.ndim(), "take")?),
    };
    let idx = index_arg(i, indices, &src, "take")?;
    let idx_shape = idx.shape().to_vec();
    let idx = backend::copy::cast(&idx, DType::Int64)?.reshape(&[-1])?;
    let mode = IndexMode::named(mode).unwrap_or(IndexMode::Raise);
    let n = src.shape()[ax];
    // NumPy's order: a non-empty result from an empty axis is an error;
    // then, under "raise", every index is checked unless the axes before
    // `ax` hold nothing (its loop over them never starts).
    let before: usize = src.shape()[..ax].iter().product();
    let after: usize = src.shape()[ax + 1..].iter().product();
    if n == 0 && before * after * idx.size() > 0 {
        return Err(Error::index(format!(
            "take: cannot take from the empty axis {ax} (the indices are not empty)"
        ))
        .with_op("take"));
    }
    if mode == IndexMode::Raise && before > 0 {
        check_bounds(&idx, n, ax, "take")?;
    }
    Ok(TakeParts {
        src,
        ax,
        idx,
        idx_shape,
        mode,
    })
}

/// `take`'s arguments after `a` (shared with its gradient rule).
pub(crate) fn take_args(a: &mut Args) -> Result<(Value, Option<i64>, &'static str)> {
    let indices = a.req("indices")?;
    let axis = opt_axis(a, None)?;
    let mode = match a.opt("mode")? {
        None => "raise",
        Some(v) => choice_arg(&v, "take", "mode", &["raise", "wrap", "clip"])?,
    };
    Ok((indices, axis, mode))
}

pub(super) fn take(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let (indices, axis, mode) = take_args(&mut a)?;
    a.finish()?;
    let p = take_parts(i, &x, &indices, axis, mode)?;
    let mut m = Remap::identity(p.src.shape());
    m.shape = p.flat_shape();
    m.axes[p.ax] = AxisMap::Indices {
        idx: p.idx.clone(),
        mode: p.mode,
    };
    let out = backend::assemble::remap(&p.src, &m)?;
    Ok(out.reshape(&p.out_shape())?.into())
}

/// `take_along_axis`'s parts: the source viewed over the result's shape
/// (broadcast axes of stride 0, the axis as it is), the indices as
/// contiguous int64 of the result's shape (checked), the axis.
pub(crate) struct AlongParts {
    pub src: Array,
    pub idx: Array,
    pub ax: usize,
}

pub(crate) fn take_along_parts(
    i: &Interp,
    x: &Array,
    indices: &Value,
    axis: Option<i64>,
    op: &str,
) -> Result<AlongParts> {
    let idx = index_arg(i, indices, x, op)?;
    if !idx.dtype().is_int() && idx.size() > 0 {
        return Err(Error::dtype(
            op,
            format!(
                "{op}: indices must be an integer array, not {}",
                idx.dtype()
            ),
        )
        .with_help("argsort, argmax(..., keepdims=true) and astype(int64) give integer arrays"));
    }
    let (x, ax) = match axis {
        None if idx.ndim() != 1 => {
            return Err(Error::value(format!(
                "{op}: with axis=none the indices must have one dimension, not {}",
                idx.ndim()
            ))
            .with_op(op)
            .with_help("axis=none works on the flattened array"));
        }
        None => (x.reshape(&[-1])?, 0),
        Some(a) => (x.clone(), norm_axis(a, x.ndim(), op)?),
    };
    if idx.ndim() != x.ndim() {
        return Err(Error::value(format!(
            "{op}: indices of {} dimensions for an array of {} (they must be equal)",
            idx.ndim(),
            x.ndim()
        ))
        .with_op(op)
        .with_help("keep the reduced axis: argmax(x, axis=1, keepdims=true), or idx[:, none]"));
    }
    let mut shape: Vec<usize> = Vec::with_capacity(x.ndim());
    for d in 0..x.ndim() {
        shape.push(if d == ax {
            idx.shape()[d]
        } else {
            broadcast_shapes(&[x.shape()[d]], &[idx.shape()[d]], op)
                .map_err(|_| {
                    Error::index(format!(
                        "{op}: shape mismatch: the indices of shape {} do not broadcast with the array of shape {} (axis {ax} aside)",
                        fmt_shape(idx.shape()),
                        fmt_shape(x.shape())
                    ))
                    .with_op(op)
                    .with_help("on every other axis the lengths must be equal, or one of them 1")
                })?[0]
        });
    }
    let mut vshape = Dims::from_slice(&shape);
    vshape[ax] = x.shape()[ax];
    let strides: Strides = (0..x.ndim())
        .map(|d| {
            if d != ax && x.shape()[d] != shape[d] {
                0
            } else {
                x.strides()[d]
            }
        })
        .collect();
    let src = x.view(vshape, strides, x.offset());
    let idx = backend::copy::cast(&idx.broadcast_to(&shape)?, DType::Int64)?;
    check_bounds(&idx, x.shape()[ax], ax, op)?;
    Ok(AlongParts { src, idx, ax })
}

pub(super) fn take_along_axis(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("x")?)?;
    let indices = a.req("indices")?;
    let axis = opt_axis(&mut a, Some(-1))?;
    a.finish()?;
    let p = take_along_parts(i, &x, &indices, axis, "take_along_axis")?;
    let mut m = Remap::identity(p.idx.shape());
    m.axes[p.ax] = AxisMap::PerElement(p.idx.clone());
    Ok(backend::assemble::remap(&p.src, &m)?.into())
}

pub(super) fn put_along_axis(i: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "put_along_axis";
    let xv = a.req("x")?;
    let indices = a.req("indices")?;
    let values = a.req("values")?;
    let axis = opt_axis(&mut a, None)?;
    a.finish()?;
    if crate::autodiff::rules_assemble::any_tracked(i, &[&xv, &indices, &values]) {
        return Err(Error::value(format!(
            "{op} writes in place, which grad cannot differentiate"
        ))
        .with_op(op)
        .with_help(
            "build the result without writing: where(...), or take_along_axis and arithmetic",
        ));
    }
    let Value::Array(x) = xv else {
        return Err(Error::type_(format!(
            "{op} writes into its first argument, which must be an array, not {}",
            xv.a_type_name()
        ))
        .with_help("e.g. put_along_axis(x, idx, 0.0, axis=1) with x an array variable"));
    };
    // Cast as NumPy's put_along_axis writes (`arr[...] = values`: setitem's
    // casting; a Python int int32 cannot hold is an error).
    let vals = i.to_array_like(&values, &x)?;
    let vals = backend::index::values_for(&x, &vals, op)?;
    // With axis=none the flattened x: a view of it when x is contiguous.
    let p = take_along_parts(i, &x, &indices, axis, op)?;
    let shape = p.idx.shape().to_vec();
    let vals = vals.broadcast_to(&shape).map_err(|_| {
        Error::shape(
            op,
            format!(
                "could not broadcast the values of shape {} into the indices' shape {}",
                fmt_shape(vals.shape()),
                fmt_shape(&shape)
            ),
        )
        .with_help("values must broadcast to the shape of indices")
    })?;
    let vals = backend::copy::cast(&vals, x.dtype())?;
    if axis.is_some() || x.is_contiguous() {
        backend::assemble::put_along(&p.src, &p.idx, &vals, p.ax)?;
    } else {
        // A flat write into a strided view: into a contiguous copy, which
        // then goes back through the view (all on x's device).
        let flat = x.copy()?;
        backend::assemble::put_along(&flat.reshape(&[-1])?, &p.idx, &vals, 0)?;
        x.assign(&[crate::array::index::Index::Ellipsis], &flat)?;
    }
    Ok(Value::None)
}
