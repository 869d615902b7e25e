//! Gradient rules of the scans and `diff`, named by their op-table entries:
//! cumsum's is a cumsum from the end; cumprod's divides by x where no zero
//! came before and treats the first zero of a lane exactly (the product of
//! the others); cummax/cummin send each gradient to the element that set the
//! running value (`backend::scan::extreme_backward`); diff's is the adjoint
//! difference applied n times. All run on the inputs' device.

use super::arrays::sum_to;
use super::ewb::{E, c, call as op, eq, where_};
use super::rules::{Grads, arg, array, ev, ishape, leaf};
use crate::array::Array;
use crate::backend;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::opid::ScanOp;
use crate::ops::scan::{diff_args, scan_input, slice_axis};
use crate::value::Value;

/// The scanned input (flattened when axis is none) and its axis.
fn scanned(call: &super::GradCall) -> Result<(Array, Array, usize)> {
    let x = array(arg(call, 0, "x"))?;
    let axis = match arg(call, 1, "axis") {
        None | Some(Value::None) => None,
        Some(Value::Int(k)) => Some(crate::array::shape_ops::norm_axis(*k, x.ndim(), "grad")?),
        Some(_) => return Err(crate::error::Error::internal("gradient rule: axis")),
    };
    let (flat, ax) = scan_input(&x, axis)?;
    Ok((x, flat, ax))
}

fn rev_cumsum(a: &Array, axis: usize) -> Result<Array> {
    backend::scan::scan(ScanOp::Cumsum, a, axis, true)
}

pub fn cumsum(_: &mut Interp, call: &super::GradCall) -> Grads {
    let (x, _, ax) = scanned(call)?;
    let r = rev_cumsum(&call.g, ax)?;
    Ok(vec![Some(r.reshape(&ishape(x.shape()))?.into())])
}

pub fn cumprod(i: &mut Interp, call: &super::GradCall) -> Grads {
    let (x0, x, ax) = scanned(call)?;
    let zero = eq(leaf(&x), c(0.0));
    // How many zeros so far, and the first zero of each lane.
    let count = backend::scan::scan(ScanOp::Cumsum, &ev(i, zero.clone())?, ax, false)?;
    let first = op("logical_and", [zero, eq(leaf(&count), c(1.0))]);
    let ones = ev(i, where_(first.clone(), c(1.0), leaf(&x)))?;
    let others = backend::scan::scan(ScanOp::Cumprod, &ones, ax, false)?;
    let at_first = rev_cumsum(&ev(i, leaf(&call.g) * leaf(&others))?, ax)?;
    let before = rev_cumsum(&ev(i, leaf(&call.g) * leaf(&call.out))?, ax)?;
    let d: E = where_(
        eq(leaf(&count), c(0.0)),
        leaf(&before) / leaf(&x),
        where_(first, leaf(&at_first), c(0.0)),
    );
    Ok(vec![Some(ev(i, d)?.reshape(&ishape(x0.shape()))?.into())])
}

/// cummax and cummin.
pub fn cummax(_: &mut Interp, call: &super::GradCall) -> Grads {
    let (x0, x, ax) = scanned(call)?;
    let r = backend::scan::extreme_backward(&x, &call.out, &call.g, ax)?;
    Ok(vec![Some(r.reshape(&ishape(x0.shape()))?.into())])
}

pub fn diff(i: &mut Interp, call: &super::GradCall) -> Grads {
    let args = Args::new(
        "diff",
        call.pos.clone(),
        call.kw.clone(),
        Default::default(),
    );
    let d = diff_args(i, args)?;
    if d.n == 0 {
        return Ok(vec![Some(call.g.clone().into())]);
    }
    // The forward stopped differencing once the axis was empty.
    let steps = d.n.min(d.joined.shape()[d.axis]);
    let mut g = call.g.clone();
    for _ in 0..steps {
        // y = c[1:] - c[:-1]: c's gradient is [0, g] - [g, 0].
        let mut zs = g.shape().to_vec();
        zs[d.axis] = 1;
        let z = Array::zeros(&zs, g.dtype(), g.device())?;
        let hi = Array::concat(&[z.clone(), g.clone()], d.axis as i64)?;
        let lo = Array::concat(&[g, z], d.axis as i64)?;
        g = ev(i, leaf(&hi) - leaf(&lo))?;
    }
    let part =
        |start: usize, len: usize| slice_axis(&g, d.axis, start as i64, Some((start + len) as i64));
    let gx = part(d.pre_len, d.x_len)?;
    let mut out = vec![Some(gx.into())];
    // prepend and append given by position get theirs (summed back to a scalar's shape).
    let app_len = d.joined.shape()[d.axis] - d.pre_len - d.x_len;
    for (k, start, len) in [(3, 0, d.pre_len), (4, d.pre_len + d.x_len, app_len)] {
        while out.len() < k {
            out.push(None);
        }
        out.push(match call.pos.get(k) {
            Some(Value::Array(e)) => {
                Some(sum_to(&part(start, len)?, e.shape(), i.float_x())?.into())
            }
            _ => None,
        });
    }
    Ok(out)
}
