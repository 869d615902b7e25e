//! Gradient rules of the statistics, named by their op-table entries: the
//! NaN-skipping reductions (NaN elements get 0; the others as the plain
//! reduction over the numbers of their lane), ptp (max's gradient minus
//! min's, ties split evenly), and the rules of `ops/quantile.rs`,
//! `ops/stats.rs` and `ops/softmax.rs`. Built from ops that run on every
//! device; none reads values back to the host.

use super::GradCall;
use super::ewb::{E, c, call as op, eq, where_};
use super::rules::{Grads, arg, array, ev, ishape, leaf, red_parts};
use crate::array::Array;
use crate::error::Result;
use crate::interp::Interp;
use crate::opid::{ReduceOp, SoftmaxOp};
use crate::ops::quantile::{Kind, plan as qplan, selected};
use crate::ops::reduce::reduce;
use crate::ops::softmax::axes_of;

fn isnan(x: &Array) -> E {
    op("isnan", [leaf(x)])
}

/// `op` of `x` over `axes`, reduced dims kept.
fn kept(i: &Interp, op_: ReduceOp, x: &Array, axes: &[isize]) -> Result<Array> {
    reduce(op_, x, Some(axes), true, i.float_x())
}

/// The number of non-NaN elements of each lane, reduced dims kept.
fn counts(i: &mut Interp, x: &Array, axes: &[isize]) -> Result<Array> {
    let ok = ev(i, op("logical_not", [isnan(x)]))?;
    kept(i, ReduceOp::Sum, &ok, axes)
}

pub fn nansum(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, _, g, _) = red_parts(call)?;
    Ok(vec![Some(
        ev(i, where_(isnan(&x), c(0.0), leaf(&g)))?.into(),
    )])
}

pub fn nanmean(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, _) = red_parts(call)?;
    let n = counts(i, &x, &r.ax())?;
    let d = where_(isnan(&x), c(0.0), leaf(&g) / leaf(&n));
    Ok(vec![Some(ev(i, d)?.into())])
}

/// nanmax and nanmin: the lane's gradient split between its maxima (NaN
/// never is one).
pub fn nanextreme(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, out) = red_parts(call)?;
    let mask = eq(leaf(&x), leaf(&out));
    let n = kept(i, ReduceOp::Sum, &ev(i, mask.clone())?, &r.ax())?;
    let d = where_(mask, leaf(&g) / leaf(&n), c(0.0));
    Ok(vec![Some(ev(i, d)?.into())])
}

/// `x - nanmean(x)` over the lane, and the lane's count - ddof.
fn centred(i: &mut Interp, call: &GradCall) -> Result<(Array, E, E, Array, Array)> {
    let (x, r, g, out) = red_parts(call)?;
    let m = kept(i, ReduceOp::Nanmean, &x, &r.ax())?;
    let n = counts(i, &x, &r.ax())?;
    let dof = leaf(&n) - c(r.ddof as f64);
    Ok((x.clone(), leaf(&x) - leaf(&m), dof, g, out))
}

pub fn nanvar(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, dev, dof, g, _) = centred(i, call)?;
    let d = where_(isnan(&x), c(0.0), leaf(&g) * c(2.0) * dev / dof);
    Ok(vec![Some(ev(i, d)?.into())])
}

pub fn nanstd(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, dev, dof, g, out) = centred(i, call)?;
    let d = where_(isnan(&x), c(0.0), leaf(&g) * dev / (dof * leaf(&out)));
    Ok(vec![Some(ev(i, d)?.into())])
}

pub fn ptp(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, _) = red_parts(call)?;
    let share = |i: &mut Interp, op_: ReduceOp| -> Result<E> {
        let m = kept(i, op_, &x, &r.ax())?;
        let mask = eq(leaf(&x), leaf(&m));
        let n = kept(i, ReduceOp::Sum, &ev(i, mask.clone())?, &r.ax())?;
        Ok(where_(mask, c(1.0) / leaf(&n), c(0.0)))
    };
    let hi = share(i, ReduceOp::Max)?;
    let lo = share(i, ReduceOp::Min)?;
    Ok(vec![Some(ev(i, leaf(&g) * (hi - lo))?.into())])
}

/// The input, the axes of a softmax-family call, and them as reduction axes.
fn soft_parts(op_: SoftmaxOp, call: &GradCall) -> Result<(Array, Vec<isize>)> {
    let x = array(arg(call, 0, "x"))?;
    let axes = axes_of(op_, x.ndim(), arg(call, 1, "axis"))?;
    Ok((x, axes.iter().map(|&a| a as isize).collect()))
}

pub fn softmax(i: &mut Interp, call: &GradCall) -> Grads {
    let (_, axes) = soft_parts(SoftmaxOp::Softmax, call)?;
    let (g, y) = (&call.g, &call.out);
    let t = kept(i, ReduceOp::Sum, &ev(i, leaf(g) * leaf(y))?, &axes)?;
    Ok(vec![Some(ev(i, leaf(y) * (leaf(g) - leaf(&t)))?.into())])
}

pub fn log_softmax(i: &mut Interp, call: &GradCall) -> Grads {
    let (_, axes) = soft_parts(SoftmaxOp::LogSoftmax, call)?;
    let (g, y) = (&call.g, &call.out);
    let t = kept(i, ReduceOp::Sum, g, &axes)?;
    let d = leaf(g) - op("exp", [leaf(y)]) * leaf(&t);
    Ok(vec![Some(ev(i, d)?.into())])
}

pub fn logsumexp(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, axes) = soft_parts(SoftmaxOp::Logsumexp, call)?;
    let kd: Vec<usize> = (0..x.ndim())
        .map(|d| {
            if axes.contains(&(d as isize)) {
                1
            } else {
                x.shape()[d]
            }
        })
        .collect();
    let g = call.g.reshape(&ishape(&kd))?;
    let out = call.out.reshape(&ishape(&kd))?;
    let mut d = leaf(&g) * op("exp", [leaf(&x) - leaf(&out)]);
    if let Some(crate::value::Value::Array(b)) = arg(call, 3, "b") {
        // SciPy's b= weighs each term: d/dx = g * b * exp(x - out).
        d = d * leaf(b);
    }
    Ok(vec![Some(ev(i, d)?.into())])
}

/// median, percentile and quantile: each selected element's weight ((1 - t)
/// for the lower one, t for the upper one) split evenly between the
/// elements of its lane equal to it, summed over q.
fn quantile_of(i: &mut Interp, call: &GradCall, kind: Kind) -> Grads {
    let x = array(arg(call, 0, "x"))?;
    let at = |k: usize, name: &str| arg(call, k, name).cloned();
    let (q, axis, keepdims, method) = if kind == Kind::Median {
        (None, at(1, "axis"), at(2, "keepdims"), None)
    } else {
        (
            at(1, "q"),
            at(2, "axis"),
            at(3, "keepdims"),
            at(4, "method"),
        )
    };
    let name = if kind == Kind::Median {
        "median"
    } else {
        "quantile"
    };
    let kd = crate::ops::stat_args::flag(keepdims, "keepdims", name, false)?;
    let p = qplan(kind, &x, q.as_ref(), axis.as_ref(), kd, method.as_ref())?;
    let lanes = &p.lanes;
    let nd = lanes.ndim();
    let fx = x.dtype();
    if lanes.size() == 0 {
        return Ok(vec![Some(ev(i, leaf(&x) * c(0.0))?.into())]);
    }
    let (lo, hi, _) = selected(&p)?;
    let nq = p.picks.len();
    // Everything as [Q] + rest + [n]: the lanes, the selected, g, weights.
    let mut col = vec![nq as i64];
    col.extend(lo.shape()[1..].iter().map(|&d| d as i64));
    col.push(1);
    let mut one = vec![1i64];
    one.extend(lanes.shape().iter().map(|&d| d as i64));
    let xl = lanes.reshape(&one)?;
    let lo = lo.contiguous()?.reshape(&col)?;
    let hi = hi.contiguous()?.reshape(&col)?;
    let g = call.g.astype(fx)?.contiguous()?.reshape(&col)?;
    let ts: Vec<f64> = p.picks.iter().map(|k| k.2).collect();
    let mut tshape = vec![nq];
    tshape.extend(std::iter::repeat_n(1, nd));
    let t = crate::backend::to_device(&Array::from_vec(ts, tshape).astype(fx)?, x.device())?;
    let last = [nd as isize];
    let share = |i: &mut Interp, v: &Array| -> Result<E> {
        let mask = eq(leaf(&xl), leaf(v));
        let n = kept(i, ReduceOp::Sum, &ev(i, mask.clone())?, &last)?;
        Ok(where_(mask, c(1.0) / leaf(&n), c(0.0)))
    };
    let wl = share(i, &lo)?;
    let wh = share(i, &hi)?;
    let d = ev(i, leaf(&g) * ((c(1.0) - leaf(&t)) * wl + leaf(&t) * wh))?;
    let d = reduce(ReduceOp::Sum, &d, Some(&[0]), false, fx)?;
    // Back to x's layout: split the joined lane, undo the permutation.
    let moved: Vec<i64> = p.perm.iter().map(|&k| x.shape()[k] as i64).collect();
    let d = d.reshape(&moved)?;
    let mut inv = vec![0i64; p.perm.len()];
    for (k, &ax) in p.perm.iter().enumerate() {
        inv[ax] = k as i64;
    }
    Ok(vec![Some(d.transpose(Some(&inv))?.into())])
}

pub fn median(i: &mut Interp, call: &GradCall) -> Grads {
    quantile_of(i, call, Kind::Median)
}
pub fn percentile(i: &mut Interp, call: &GradCall) -> Grads {
    quantile_of(i, call, Kind::Percentile)
}
pub fn quantile(i: &mut Interp, call: &GradCall) -> Grads {
    quantile_of(i, call, Kind::Quantile)
}
