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
        "logsumexp(x, axis=none, keepdims=false, b=none, return_sign=false)",
        "log(sum(exp(x))) over axis (all when none), computed as max + log(sum(exp(x - max))) like SciPy's: no overflow, -inf for an empty or all -inf lane. b= weighs the terms (log(sum(b * exp(x))), broadcast against x; a negative sum gives NaN unless return_sign=true, which gives (log|sum|, sign)), as SciPy's.",
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
    let (b, sign) = if op == SoftmaxOp::Logsumexp {
        (
            a.kw("b").filter(|v| !matches!(v, Value::None)),
            sa::flag(a.kw("return_sign"), "return_sign", name, false)?,
        )
    } else {
        (None, false)
    };
    a.finish_with(if op == SoftmaxOp::Logsumexp {
        &["axis", "keepdims", "b", "return_sign"]
    } else {
        &["axis"]
    })?;
    if b.is_some() || sign {
        return weighted(i, x, b, axis.as_ref(), keepdims, sign);
    }
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

/// SciPy's `logsumexp(x, axis, b=b, keepdims, return_sign)`: the max of each
/// lane (0 where it is not finite) shifts the terms, `s = sum(b * exp(x -
/// max))`, and the result is `log|s| + max` with s's sign (NaN for a
/// negative s unless the sign is returned). x and b broadcast together;
/// the dtype is their promotion (ints as floatX, a Python number weak).
fn weighted(
    i: &mut Interp,
    x: Array,
    b: Option<Value>,
    axis: Option<&Value>,
    keepdims: bool,
    return_sign: bool,
) -> Result<Value> {
    use crate::autodiff::ewb::{c, call as f, where_};
    use crate::opid::ReduceOp;
    use crate::ops::quantile::{eval, leaf};
    let name = SoftmaxOp::Logsumexp.name();
    let fx = i.float_x();
    let floaty = |a: Array| -> Result<Array> {
        if a.dtype().is_float() || a.dtype().is_complex() {
            Ok(a)
        } else {
            a.astype(fx)
        }
    };
    let mut x = floaty(x)?;
    let mut b = match b {
        None => None,
        Some(Value::Int(k)) => Some(Array::from_vec(vec![k as f64], vec![]).astype(x.dtype())?),
        Some(Value::Float(v)) => Some(Array::from_vec(vec![v], vec![]).astype(x.dtype())?),
        Some(v) => Some(floaty(sa::data(i, v, name)?)?),
    };
    if let Some(bb) = &b {
        if bb.device() != x.device() {
            return Err(Error::device_mismatch(name, x.device(), bb.device()));
        }
        let d = crate::dtype::promote(x.dtype(), bb.dtype());
        let shape = crate::array::layout::broadcast_shapes(x.shape(), bb.shape(), name)?;
        x = x.astype(d)?.broadcast_to(&shape)?;
        b = Some(bb.astype(d)?.broadcast_to(&shape)?);
    }
    let d = x.dtype();
    let axes: Vec<isize> = axes_of(SoftmaxOp::Logsumexp, x.ndim(), axis)?
        .into_iter()
        .map(|a| a as isize)
        .collect();
    let reduce = |op, a: &Array| crate::ops::reduce::reduce(op, a, Some(&axes), true, d);
    let m = if x.size() == 0 {
        reduce(ReduceOp::Sum, &x)?
    } else {
        reduce(ReduceOp::Max, &x)?
    };
    let m = eval(where_(f("isfinite", [leaf(&m)]), leaf(&m), c(0.0)), d)?;
    let terms = f("exp", [leaf(&x) - leaf(&m)]);
    let terms = match &b {
        Some(b) => leaf(b) * terms,
        None => terms,
    };
    let s = reduce(ReduceOp::Sum, &eval(terms, d)?)?;
    let mut out = eval(f("log", [f("absolute", [leaf(&s)])]) + leaf(&m), d)?;
    let sgn = eval(f("sign", [leaf(&s)]), d)?;
    if !return_sign {
        out = eval(
            where_(
                crate::autodiff::ewb::lt(leaf(&s), c(0.0)),
                c(f64::NAN),
                leaf(&out),
            ),
            d,
        )?;
    }
    let squeeze = |a: Array| -> Result<Array> {
        if keepdims {
            return Ok(a);
        }
        let s: Vec<i64> = (0..x.ndim())
            .filter(|k| !axes.contains(&(*k as isize)))
            .map(|k| x.shape()[k] as i64)
            .collect();
        a.reshape(&s)
    };
    let out = squeeze(out)?;
    if return_sign {
        return Ok(Value::tuple(vec![
            Value::Array(out),
            Value::Array(squeeze(sgn)?),
        ]));
    }
    Ok(Value::Array(out))
}
