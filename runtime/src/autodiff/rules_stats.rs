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
    let d = leaf(&g) * op("exp", [leaf(&x) - leaf(&out)]);
    Ok(vec![Some(ev(i, d)?.into())])
}
