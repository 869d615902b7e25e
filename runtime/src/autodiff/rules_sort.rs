//! Gradient rules of the sorting family: `sort` and `topk`'s values are
//! elements of x moved to other places, so the gradient of each output
//! place goes back to the place it came from (a scatter through the
//! permutation, `SortJob::ScatterLanes`, on x's device); nothing else of x
//! gets any. At ties the gradient goes where the stable order took the
//! element from, as PyTorch's does through its indices.

use super::GradCall;
use crate::array::Array;
use crate::backend;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::opid::SortJob;
use crate::ops::sort::{Layout, sort_along, to_lanes};
use crate::value::Value;

type Grads = Result<Vec<Option<Value>>>;

/// Argument `i` by position, else by keyword `name`.
fn arg<'a>(call: &'a GradCall, i: usize, name: &str) -> Option<&'a Value> {
    call.pos
        .get(i)
        .or_else(|| call.kw.iter().find(|(k, _)| k == name).map(|(_, v)| v))
}

fn x_of(call: &GradCall) -> Result<Array> {
    match arg(call, 0, "x") {
        Some(Value::Array(a)) => Ok(a.clone().with_node(0)),
        _ => Err(Error::internal("sort gradient: x is not an array")),
    }
}

/// The call's `axis=` (-1 when not given, none when none).
fn axis_of(call: &GradCall, i: usize) -> Option<i64> {
    match arg(call, i, "axis") {
        None => Some(-1),
        Some(Value::Int(a)) => Some(*a),
        Some(_) => None,
    }
}

fn flag_of(call: &GradCall, i: usize, name: &str, default: bool) -> bool {
    match arg(call, i, name) {
        Some(Value::Bool(b)) => *b,
        _ => default,
    }
}

/// `g` (lanes as `idx`, in x's axis order) scattered through `idx` into
/// zeros of x's shape.
fn scatter_back(x: &Array, g: &Array, idx: &Array, axis: Option<i64>) -> Result<Array> {
    let (gl, layout) = to_lanes(g, axis, "grad")?;
    let (il, _) = to_lanes(idx, axis, "grad")?;
    let n = match (&layout, axis) {
        (Layout::Flat, _) => x.size(),
        (_, Some(a)) => x.shape()[crate::array::shape_ops::norm_axis(a, x.ndim(), "grad")?],
        (_, None) => x.size(),
    };
    let gl = if gl.dtype() == x.dtype() {
        gl
    } else {
        gl.astype(x.dtype())?
    };
    let r = if gl.size() == 0 {
        let mut shape = gl.shape().to_vec();
        if let Some(last) = shape.last_mut() {
            *last = n;
        }
        crate::ops::sort::zeros_like_shape(x, &shape)?
    } else {
        let job = SortJob::ScatterLanes {
            g: &gl,
            idx: &il,
            n,
        };
        backend::sort::run(&job, x.device())?.remove(0)
    };
    let r = layout.restore(r)?;
    let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
    r.reshape(&shape)
}

/// `sort(x, axis, descending)`: g goes back through argsort's permutation.
pub fn sort_grad(_: &mut Interp, call: &GradCall) -> Grads {
    let x = x_of(call)?;
    let axis = axis_of(call, 1);
    let desc = flag_of(call, 2, "descending", false);
    let idx = sort_along(&x, axis, desc, false, true)?.remove(0);
    Ok(vec![Some(scatter_back(&x, &call.g, &idx, axis)?.into())])
}

/// `topk(x, k, axis)`'s values: g goes back to the positions topk gave.
/// The tape keeps only a tuple's float items, so the int64 positions are
/// computed again from the call's arguments (x untracked: nothing recorded).
pub fn topk_grad(interp: &mut Interp, call: &GradCall) -> Grads {
    let x = x_of(call)?;
    let axis = axis_of(call, 2);
    let (mut pos, mut kw) = (call.pos.clone(), call.kw.clone());
    match pos.first_mut() {
        Some(p) => *p = Value::Array(x.clone()),
        None => kw
            .iter_mut()
            .filter(|(k, _)| k == "x")
            .for_each(|(_, v)| *v = Value::Array(x.clone())),
    }
    let topk = Value::Builtin(super::op("topk")?);
    let idx = match interp.call_value(topk, pos, kw, Default::default())? {
        Value::Tuple(t) => match t.get(1) {
            Some(Value::Array(ix)) => ix.clone(),
            _ => return Err(Error::internal("topk gradient: no indices")),
        },
        _ => return Err(Error::internal("topk gradient: topk gave no tuple")),
    };
    Ok(vec![Some(scatter_back(&x, &call.g, &idx, axis)?.into())])
}
