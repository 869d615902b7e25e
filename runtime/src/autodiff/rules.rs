//! Gradient rules of the non-elementwise ops, named by their op-table entries
//! (`grad: Some(rules::sum_grad)`): reductions, linear algebra, shape ops,
//! astype. Rules build gradients from ops that run on every device (fused
//! trees, reductions, matmul, views); none reads values back to the host.
//! Conventions: max/min split the gradient evenly between tied maxima;
//! prod handles zeros exactly (one zero: the product of the others).

use super::GradCall;
use super::arrays::sum_to;
use super::ewb::{E, c, e, eq, where_};
use crate::array::Array;
use crate::array::index::Index;
use crate::array::shape_ops::norm_axis;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::opid::ReduceOp;
use crate::ops::fuse::{self, EwNode, Operand};
use crate::ops::linalg;
use crate::ops::reduce::reduce;
use crate::value::Value;

pub(crate) type Grads = Result<Vec<Option<Value>>>;

/// Argument `i` by position, else by keyword `name`.
pub(crate) fn arg<'a>(call: &'a GradCall, i: usize, name: &str) -> Option<&'a Value> {
    call.pos
        .get(i)
        .or_else(|| call.kw.iter().find(|(k, _)| k == name).map(|(_, v)| v))
}

pub(crate) fn array(v: Option<&Value>) -> Result<Array> {
    match v {
        Some(Value::Array(a)) => Ok(a.clone().with_node(0)),
        _ => Err(Error::internal("gradient rule: expected an array argument")),
    }
}

pub(crate) fn leaf(a: &Array) -> E {
    e(&EwNode::Leaf(Operand::Array(a.clone())))
}

/// Evaluate a built tree into an array.
pub(crate) fn ev(interp: &Interp, t: E) -> Result<Array> {
    let t =
        t.0.ok_or_else(|| Error::internal("gradient rule: op missing"))?;
    match fuse::eval(t, interp.float_x())? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("gradient rule: scalar result")),
    }
}

pub(crate) fn ishape(s: &[usize]) -> Vec<i64> {
    s.iter().map(|&d| d as i64).collect()
}

/// A reduction's axes (normalized, all when none) and ddof (keepdims needs
/// nothing: g is reshaped to the kept-dims shape either way).
pub(crate) struct Red {
    pub axes: Vec<usize>,
    pub ddof: i64,
}

pub(crate) fn red(call: &GradCall, x: &Array) -> Result<Red> {
    let nd = x.ndim();
    let axes = match arg(call, 1, "axis") {
        None | Some(Value::None) => (0..nd).collect(),
        Some(Value::Int(i)) => vec![norm_axis(*i, nd, "grad")?],
        Some(v @ (Value::Tuple(_) | Value::List(_))) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|v| match v {
                Value::Int(i) => norm_axis(*i, nd, "grad"),
                _ => Err(Error::internal("axis")),
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(Error::internal("gradient rule: axis")),
    };
    let ddof = match arg(call, 3, "ddof") {
        Some(Value::Int(i)) => *i,
        _ => 0,
    };
    Ok(Red { axes, ddof })
}

impl Red {
    pub fn kd_shape(&self, x: &Array) -> Vec<usize> {
        let mut s = x.shape().to_vec();
        for &a in &self.axes {
            s[a] = 1;
        }
        s
    }
    pub fn count(&self, x: &Array) -> f64 {
        self.axes.iter().map(|&a| x.shape()[a]).product::<usize>() as f64
    }
    pub fn ax(&self) -> Vec<isize> {
        self.axes.iter().map(|&a| a as isize).collect()
    }
}

/// The input, its reduction parameters, and `a` (g or out) with the reduced dims kept.
pub(crate) fn red_parts(call: &GradCall) -> Result<(Array, Red, Array, Array)> {
    let x = array(arg(call, 0, "x"))?;
    let r = red(call, &x)?;
    let kd = ishape(&r.kd_shape(&x));
    Ok((x, r, call.g.reshape(&kd)?, call.out.reshape(&kd)?))
}

pub fn sum_grad(_: &mut Interp, call: &GradCall) -> Grads {
    let (x, _, g, _) = red_parts(call)?;
    Ok(vec![Some(g.broadcast_to(x.shape())?.into())])
}

pub fn mean_grad(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, _) = red_parts(call)?;
    let g = ev(i, leaf(&g) * c(1.0 / r.count(&x)))?;
    Ok(vec![Some(g.broadcast_to(x.shape())?.into())])
}

pub fn prod_grad(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, out) = red_parts(call)?;
    let fx = i.float_x();
    let zero = eq(leaf(&x), c(0.0));
    let nz = ev(i, where_(zero.clone(), c(1.0), leaf(&x)))?;
    let nz_prod = reduce(ReduceOp::Prod, &nz, Some(&r.ax()), true, fx)?;
    let zc = reduce(
        ReduceOp::Sum,
        &ev(i, zero.clone())?,
        Some(&r.ax()),
        true,
        fx,
    )?;
    let at_zero = where_(eq(leaf(&zc), c(1.0)), leaf(&nz_prod), c(0.0));
    let d = where_(zero, at_zero, leaf(&out) / leaf(&x));
    Ok(vec![Some(ev(i, leaf(&g) * d)?.into())])
}

fn extreme_grad(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, out) = red_parts(call)?;
    let mask = eq(leaf(&x), leaf(&out));
    let count = reduce(
        ReduceOp::Sum,
        &ev(i, mask.clone())?,
        Some(&r.ax()),
        true,
        i.float_x(),
    )?;
    let d = where_(mask, leaf(&g) / leaf(&count), c(0.0));
    Ok(vec![Some(ev(i, d)?.into())])
}

pub fn max_grad(i: &mut Interp, call: &GradCall) -> Grads {
    extreme_grad(i, call)
}

pub fn min_grad(i: &mut Interp, call: &GradCall) -> Grads {
    extreme_grad(i, call)
}

pub fn var_grad(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, _) = red_parts(call)?;
    let m = reduce(ReduceOp::Mean, &x, Some(&r.ax()), true, i.float_x())?;
    let k = 2.0 / (r.count(&x) - r.ddof as f64);
    Ok(vec![Some(
        ev(i, leaf(&g) * c(k) * (leaf(&x) - leaf(&m)))?.into(),
    )])
}

pub fn std_grad(i: &mut Interp, call: &GradCall) -> Grads {
    let (x, r, g, out) = red_parts(call)?;
    let m = reduce(ReduceOp::Mean, &x, Some(&r.ax()), true, i.float_x())?;
    let n = r.count(&x) - r.ddof as f64;
    let d = leaf(&g) * (leaf(&x) - leaf(&m)) / (c(n) * leaf(&out));
    Ok(vec![Some(ev(i, d)?.into())])
}

/// The last two axes swapped (a view).
fn swap(a: &Array) -> Result<Array> {
    let nd = a.ndim() as i64;
    let mut p: Vec<i64> = (0..nd).collect();
    p.swap(nd as usize - 2, nd as usize - 1);
    a.transpose(Some(&p))
}

pub fn matmul(i: &mut Interp, call: &GradCall) -> Grads {
    let (a, b) = (array(call.pos.first())?, array(call.pos.get(1))?);
    let fx = i.float_x();
    let a2 = if a.ndim() == 1 {
        a.reshape(&[1, -1])?
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        b.reshape(&[-1, 1])?
    } else {
        b.clone()
    };
    let mut gs = call.out.shape().to_vec();
    if a.ndim() == 1 {
        gs.insert(gs.len() - usize::from(b.ndim() > 1), 1);
    }
    if b.ndim() == 1 {
        gs.push(1);
    }
    let g2 = call.g.reshape(&ishape(&gs))?;
    let need = |k: usize| call.needs.get(k).copied().unwrap_or(false);
    let ga = match need(0) {
        true => {
            let r = sum_to(&linalg::matmul(&g2, &swap(&b2)?)?, a2.shape(), fx)?;
            Some(r.reshape(&ishape(a.shape()))?.into())
        }
        false => None,
    };
    let gb = match need(1) {
        true => {
            let r = sum_to(&linalg::matmul(&swap(&a2)?, &g2)?, b2.shape(), fx)?;
            Some(r.reshape(&ishape(b.shape()))?.into())
        }
        false => None,
    };
    Ok(vec![ga, gb])
}

pub fn dot(i: &mut Interp, call: &GradCall) -> Grads {
    let scalar = |v: Option<&Value>| !matches!(v, Some(Value::Array(a)) if a.ndim() > 0);
    if !(scalar(call.pos.first()) || scalar(call.pos.get(1))) {
        return matmul(i, call);
    }
    // A scalar operand: dot is multiply.
    let mut out = Vec::new();
    for k in 0..2 {
        let other = fuse::operand(call.pos.get(1 - k).unwrap_or(&Value::None))?;
        out.push(match (call.needs.get(k), call.pos.get(k)) {
            (Some(true), Some(Value::Array(x))) => {
                let p = ev(i, leaf(&call.g) * e(&EwNode::Leaf(other)))?;
                Some(sum_to(&p, x.shape(), i.float_x())?.into())
            }
            _ => None,
        });
    }
    Ok(out)
}

pub fn outer(_: &mut Interp, call: &GradCall) -> Grads {
    let (x, y) = (array(call.pos.first())?, array(call.pos.get(1))?);
    let (xf, yf) = (x.reshape(&[-1])?, y.reshape(&[-1])?);
    let gx = linalg::matmul(&call.g, &yf)?.reshape(&ishape(x.shape()))?;
    let gy = linalg::matmul(&xf, &call.g)?.reshape(&ishape(y.shape()))?;
    Ok(vec![Some(gx.into()), Some(gy.into())])
}

/// Ops that keep the elements and change the shape: the gradient is g in x's shape.
fn same_elements(call: &GradCall) -> Grads {
    let x = array(arg(call, 0, "x"))?;
    Ok(vec![Some(call.g.reshape(&ishape(x.shape()))?.into())])
}

pub fn reshape(_: &mut Interp, call: &GradCall) -> Grads {
    same_elements(call)
}
pub fn squeeze(_: &mut Interp, call: &GradCall) -> Grads {
    same_elements(call)
}
pub fn expand_dims(_: &mut Interp, call: &GradCall) -> Grads {
    same_elements(call)
}
pub fn flatten(_: &mut Interp, call: &GradCall) -> Grads {
    same_elements(call)
}
pub fn ravel(_: &mut Interp, call: &GradCall) -> Grads {
    same_elements(call)
}
pub fn copy(_: &mut Interp, call: &GradCall) -> Grads {
    same_elements(call)
}

/// astype: the gradient is cast back to x's dtype (by the accumulation).
pub fn astype(_: &mut Interp, call: &GradCall) -> Grads {
    Ok(vec![Some(call.g.clone().into())])
}

/// `x.to(d)` / `x.copyto(d)`: the gradient goes back to x's device.
pub fn to_device(_: &mut Interp, call: &GradCall) -> Grads {
    let x = array(arg(call, 0, "x"))?;
    Ok(vec![Some(
        crate::backend::to_device(&call.g, x.device())?.into(),
    )])
}

pub fn broadcast_to(i: &mut Interp, call: &GradCall) -> Grads {
    let x = array(arg(call, 0, "x"))?;
    Ok(vec![Some(sum_to(&call.g, x.shape(), i.float_x())?.into())])
}

pub fn transpose(_: &mut Interp, call: &GradCall) -> Grads {
    let x = array(arg(call, 0, "x"))?;
    let nd = x.ndim();
    let mut axes: Vec<i64> = Vec::new();
    let given: Vec<Value> = match arg(call, 1, "axes") {
        None | Some(Value::None) => Vec::new(),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => v.seq_items().unwrap_or_default().to_vec(),
        Some(_) => call.pos[1..].to_vec(),
    };
    for v in given {
        if let Value::Int(a) = v {
            axes.push(norm_axis(a, nd, "transpose")? as i64);
        }
    }
    if axes.is_empty() {
        return Ok(vec![Some(call.g.transpose(None)?.into())]);
    }
    let mut inv = vec![0i64; nd];
    for (k, &a) in axes.iter().enumerate() {
        if let Some(s) = inv.get_mut(a as usize) {
            *s = k as i64;
        }
    }
    Ok(vec![Some(call.g.transpose(Some(&inv))?.into())])
}

fn join_parts(call: &GradCall) -> Result<(Vec<Array>, usize)> {
    let arrays: Vec<Array> = match arg(call, 0, "arrays") {
        Some(v @ (Value::List(_) | Value::Tuple(_))) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|v| match v {
                Value::Array(a) => a.clone(),
                _ => Array::scalar(0.0f64),
            })
            .collect(),
        _ => return Err(Error::internal("gradient rule: arrays")),
    };
    let axis = match arg(call, 1, "axis") {
        Some(Value::Int(a)) => *a,
        _ => 0,
    };
    Ok((arrays, norm_axis(axis, call.g.ndim(), "grad")?))
}

pub fn concat(_: &mut Interp, call: &GradCall) -> Grads {
    if let Some(Value::None) = arg(call, 1, "axis") {
        // axis=None joined the raveled arrays: each gets its piece of g, reshaped.
        let (arrays, _) = join_parts(call)?;
        let mut start = 0i64;
        let mut out = Vec::new();
        for a in arrays {
            let n = a.size() as i64;
            let piece = call.g.index(&[Index::Slice {
                start: Some(start),
                stop: Some(start + n),
                step: None,
            }])?;
            let shape: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
            out.push(Some(piece.reshape(&shape)?.into()));
            start += n;
        }
        return Ok(out);
    }
    let (arrays, axis) = join_parts(call)?;
    let mut start = 0i64;
    let mut out = Vec::new();
    for a in arrays {
        let n = a.shape().get(axis).copied().unwrap_or(1) as i64;
        let mut idx = vec![Index::full(); axis];
        idx.push(Index::Slice {
            start: Some(start),
            stop: Some(start + n),
            step: None,
        });
        out.push(Some(call.g.index(&idx)?.into()));
        start += n;
    }
    Ok(out)
}

pub fn stack(_: &mut Interp, call: &GradCall) -> Grads {
    let (arrays, axis) = join_parts(call)?;
    let mut out = Vec::new();
    for k in 0..arrays.len() {
        let mut idx = vec![Index::full(); axis];
        idx.push(Index::Int(k as i64));
        out.push(Some(call.g.index(&idx)?.into()));
    }
    Ok(out)
}
