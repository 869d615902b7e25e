//! `softmax log_softmax logsumexp`: numerically stable (each lane shifted
//! by its max), one pass structure on both backends (`backend::softmax`).
//! Several axes (a tuple, or none for all) are moved last and joined into
//! one lane first. Ints and bools compute in floatX; floats keep their dtype.

use super::creation::op;
use super::stat_args as sa;
use crate::array::Array;
use crate::backend;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::SoftmaxOp;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        SoftmaxOp::Softmax.name(),
        "softmax(x, axis=-1)",
        "exp(x - max) / sum(exp(x - max)) over axis (an int, a tuple, or none for all), numerically stable. Decision: axis defaults to -1 (PyTorch's and JAX's habit; SciPy's default is all axes).",
        false,
        |i, a| call(SoftmaxOp::Softmax, i, a),
        grad: crate::autodiff::rules_stats::softmax
    ),
    op!(
        SoftmaxOp::LogSoftmax.name(),
        "log_softmax(x, axis=-1)",
        "(x - max) - log(sum(exp(x - max))) over axis (an int, a tuple, or none for all): the log of softmax without its underflow.",
        false,
        |i, a| call(SoftmaxOp::LogSoftmax, i, a),
        grad: crate::autodiff::rules_stats::log_softmax
    ),
    op!(
        SoftmaxOp::Logsumexp.name(),
        "logsumexp(x, axis=none, keepdims=false)",
        "log(sum(exp(x))) over axis (all when none), computed as max + log(sum(exp(x - max))) like SciPy's: no overflow, -inf for an empty or all -inf lane.",
        false,
        |i, a| call(SoftmaxOp::Logsumexp, i, a),
        grad: crate::autodiff::rules_stats::logsumexp
    ),
];

/// The axes of a call of `op` on `nd` dimensions (`v` the axis argument:
/// an int, a tuple, none; missing: the op's default), sorted.
pub(crate) fn axes_of(op: SoftmaxOp, nd: usize, v: Option<&Value>) -> Result<Vec<usize>> {
    let name = op.name();
    let norm = |k: &Value| -> Result<usize> {
        crate::array::shape_ops::norm_axis(sa::axis_int(k, name)?, nd, name)
    };
    let mut axes = match v {
        None if op != SoftmaxOp::Logsumexp => vec![norm(&Value::Int(-1))?],
        None | Some(Value::None) => (0..nd).collect(),
        Some(tv @ (Value::Tuple(_) | Value::List(_))) => tv
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(norm)
            .collect::<Result<Vec<usize>>>()?,
        Some(k) => vec![norm(k)?],
    };
    axes.sort_unstable();
    if axes.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::value(format!("{name}: repeated axis")).with_op(name));
    }
    Ok(axes)
}

fn call(op: SoftmaxOp, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = op.name();
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?;
    let keepdims = if op == SoftmaxOp::Logsumexp {
        sa::flag(a.opt("keepdims")?, "keepdims", name, false)?
    } else {
        false
    };
    a.finish_with(if op == SoftmaxOp::Logsumexp {
        &["axis", "keepdims"]
    } else {
        &["axis"]
    })?;
    let x = if x.dtype().is_float() {
        x
    } else {
        x.astype(i.float_x())?
    };
    let axes = axes_of(op, x.ndim(), axis.as_ref())?;
    Ok(Value::Array(apply(op, &x, &axes, keepdims)?))
}

/// `op` of float array `x` over `axes` (sorted, distinct).
pub(crate) fn apply(op: SoftmaxOp, x: &Array, axes: &[usize], keepdims: bool) -> Result<Array> {
    let nd = x.ndim();
    let kept_shape = |r: &Array| -> Result<Array> {
        if !keepdims {
            return Ok(r.clone());
        }
        let s: Vec<i64> = (0..nd)
            .map(|d| {
                if axes.contains(&d) {
                    1
                } else {
                    x.shape()[d] as i64
                }
            })
            .collect();
        r.reshape(&s)
    };
    if nd == 0 {
        // A scalar is one lane of one element.
        let r = backend::softmax::softmax(op, &x.reshape(&[1])?, 0)?;
        return r.reshape(&[]);
    }
    if axes.len() == 1 {
        return kept_shape(&backend::softmax::softmax(op, x, axes[0])?);
    }
    // Several axes: kept axes first, reduced ones last, joined into one lane.
    let kept: Vec<usize> = (0..nd).filter(|d| !axes.contains(d)).collect();
    let perm: Vec<i64> = kept.iter().chain(axes).map(|&d| d as i64).collect();
    let moved = x.transpose(Some(&perm))?;
    let mut joined: Vec<i64> = kept.iter().map(|&d| x.shape()[d] as i64).collect();
    joined.push(axes.iter().map(|&d| x.shape()[d] as i64).product());
    let lane = moved.reshape(&joined)?;
    let r = backend::softmax::softmax(op, &lane, kept.len())?;
    if op == SoftmaxOp::Logsumexp {
        return kept_shape(&r);
    }
    let moved_shape: Vec<i64> = perm.iter().map(|&d| x.shape()[d as usize] as i64).collect();
    let r = r.reshape(&moved_shape)?;
    let mut inv = vec![0i64; nd];
    for (k, &d) in perm.iter().enumerate() {
        inv[d as usize] = k as i64;
    }
    r.transpose(Some(&inv))
}
