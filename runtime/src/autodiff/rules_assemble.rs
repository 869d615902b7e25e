//! Gradient rules of the shape and assembly family (`ops/assemble`), and
//! how the parts of a tuple result (`split`, `meshgrid`, `atleast_*` of
//! several arrays) are recorded one by one. Each rule reads its call's
//! arguments again through the forward's own parsing, then sends `g` back
//! with ops that run on every device: views, a remap the other way, a
//! segment sum along each mapped axis (`backend::assemble::axis_sum`), a
//! store into a view of zeros, a fused `where`. `take` reads its indices
//! on the host to group them; `take_along_axis` adds `g` back through
//! indexing's `add_at` (as indexing's gradient does).

use super::arrays::sum_to;
use super::{GradCall, GradFn, NodeKind, differentiable, flat_inputs};
use crate::array::create::value_to_array;
use crate::array::index::Index;
use crate::array::{Array, Scalar};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::assemble::{AxisMap, PadMode, Segments};
use crate::ops::assemble as asm;
use crate::value::Value;

type Grads = Result<Vec<Option<Value>>>;

/// Whether a tape is active and tracks any of `vs`.
pub(crate) fn any_tracked(i: &Interp, vs: &[&Value]) -> bool {
    i.tape
        .as_ref()
        .is_some_and(|t| vs.iter().any(|v| t.tracks_value(v)))
}

/// One array of a call's tuple result, recorded on the tape (when one is
/// active and tracks an input in `pos`) as a node of op `op` whose rule
/// `rule` sees `pos` and `kw` (its part's own arguments).
pub(crate) fn record_part(
    i: &mut Interp,
    op: &str,
    rule: GradFn,
    pos: Vec<Value>,
    kw: Vec<(String, Value)>,
    out: Array,
) -> Result<Array> {
    if !any_tracked(i, &pos.iter().collect::<Vec<_>>()) || !differentiable(&out) {
        return Ok(out);
    }
    let def = super::op(op)?;
    let Some(tape) = i.tape.as_mut() else {
        return Ok(out);
    };
    let inputs = flat_inputs(&pos)
        .iter()
        .map(|v| match v {
            Value::Array(x) if tape.tracks(x) => x.node(),
            _ => 0,
        })
        .collect();
    let kind = NodeKind::Op {
        op: def,
        rule,
        pos,
        kw,
        out: out.clone(),
        inputs,
    };
    let id = tape.push(kind, &out);
    Ok(out.with_node(id))
}

/// The call's arguments as the forward read them.
fn args(call: &GradCall, name: &'static str) -> Args {
    Args::new(name, call.pos.clone(), call.kw.clone(), Default::default())
}

fn array(v: Value) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a.with_node(0)),
        _ => Err(Error::internal("gradient rule: expected an array argument")),
    }
}

fn ishape(s: &[usize]) -> Vec<i64> {
    s.iter().map(|&d| d as i64).collect()
}

fn one(g: Array) -> Grads {
    Ok(vec![Some(g.into())])
}

/// The shape of an argument of a join (arrays, or literals made on the host).
fn shape_of(i: &Interp, v: &Value) -> Result<Vec<usize>> {
    Ok(match v {
        Value::Array(a) => a.shape().to_vec(),
        other => value_to_array(other, None, i.float_x())?.shape().to_vec(),
    })
}

/// `g` cut along the joining axis into each input's part, in its shape.
fn join_grad(i: &mut Interp, call: &GradCall, kind: asm::JoinKind, name: &'static str) -> Grads {
    let mut a = args(call, name);
    let items: Vec<Value> = match a.req("arrays")? {
        tv @ (Value::List(_) | Value::Tuple(_)) => tv.seq_items().unwrap_or_default().to_vec(),
        _ => return Err(Error::internal("join gradient: arrays")),
    };
    let shapes = items
        .iter()
        .map(|v| shape_of(i, v))
        .collect::<Result<Vec<_>>>()?;
    let first = asm::prepared_shape(kind, &shapes[0]);
    let axis = kind.axis(first.len());
    let mut start = 0i64;
    let mut out = Vec::with_capacity(items.len());
    for s in &shapes {
        let n = asm::prepared_shape(kind, s)[axis] as i64;
        let mut idx = vec![Index::full(); axis];
        idx.push(Index::Slice {
            start: Some(start),
            stop: Some(start + n),
            step: None,
        });
        out.push(Some(call.g.index(&idx)?.reshape(&ishape(s))?.into()));
        start += n;
    }
    Ok(out)
}

pub fn hstack(i: &mut Interp, call: &GradCall) -> Grads {
    join_grad(i, call, asm::JoinKind::H, "hstack")
}
pub fn vstack(i: &mut Interp, call: &GradCall) -> Grads {
    join_grad(i, call, asm::JoinKind::V, "vstack")
}
pub fn dstack(i: &mut Interp, call: &GradCall) -> Grads {
    join_grad(i, call, asm::JoinKind::D, "dstack")
}
pub fn column_stack(i: &mut Interp, call: &GradCall) -> Grads {
    join_grad(i, call, asm::JoinKind::Column, "column_stack")
}

/// The entry's rule of the ops whose result is a tuple: never called (each
/// part is recorded with its own rule by `record_part`).
fn parts_only(op: &str) -> Grads {
    Err(Error::internal(format!(
        "{op}: the parts of its tuple are differentiated one by one"
    )))
}

pub fn split(_: &mut Interp, _: &GradCall) -> Grads {
    parts_only("split")
}
pub fn meshgrid(_: &mut Interp, _: &GradCall) -> Grads {
    parts_only("meshgrid")
}

/// A part `x[.., start:stop]` (along `axis`): zeros of x with g in the part.
pub fn split_part(_: &mut Interp, call: &GradCall) -> Grads {
    let x = array(call.pos[0].clone())?;
    let kw = |k: &str| match call.kw.iter().find(|(n, _)| n == k) {
        Some((_, Value::Int(v))) => Ok(*v),
        _ => Err(Error::internal("split gradient: its part's bounds")),
    };
    let (start, stop, axis) = (kw("start")?, kw("stop")?, kw("axis")? as usize);
    let gx = Array::full(x.shape(), Scalar::Int(0), call.g.dtype(), call.g.device())?;
    let mut idx = vec![Index::full(); axis];
    idx.push(Index::Slice {
        start: Some(start),
        stop: Some(stop),
        step: None,
    });
    let view = gx.index(&idx)?;
    if view.size() > 0 {
        crate::backend::index::store_view(&view, &call.g)?;
    }
    one(gx)
}

/// Output `k` of meshgrid varies along `axis` only: the others are summed.
pub fn meshgrid_part(i: &mut Interp, call: &GradCall) -> Grads {
    let x = array(call.pos[0].clone())?;
    let axis = match call.kw.first() {
        Some((_, Value::Int(a))) => *a as usize,
        _ => return Err(Error::internal("meshgrid gradient: its part's axis")),
    };
    let mut keep = vec![1usize; call.g.ndim()];
    keep[axis] = call.g.shape()[axis];
    let s = sum_to(&call.g, &keep, i.float_x())?;
    one(s.reshape(&ishape(x.shape()))?)
}

fn flip_axes(call: &GradCall, x: &Array) -> Result<Vec<usize>> {
    let mut a = args(call, "flip");
    a.req("m")?;
    Ok(match a.opt("axis")? {
        None | Some(Value::None) => (0..x.ndim()).collect(),
        Some(v) => asm::axes_arg(&v, x.ndim(), "flip")?,
    })
}

pub fn flip(_: &mut Interp, call: &GradCall) -> Grads {
    let x = array(call.pos[0].clone())?;
    one(asm::flip_view(&call.g, &flip_axes(call, &x)?))
}
pub fn fliplr(_: &mut Interp, call: &GradCall) -> Grads {
    one(asm::flip_view(&call.g, &[1]))
}
pub fn flipud(_: &mut Interp, call: &GradCall) -> Grads {
    one(asm::flip_view(&call.g, &[0]))
}

pub fn rot90(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "rot90");
    a.req("m")?;
    let k = asm::opt_int(&mut a, "k", 1)?;
    let axes = match a.opt("axes")? {
        None => vec![0, 1],
        Some(v) => asm::int_list(&v, "an axis")?,
    };
    one(asm::rot90_view(&call.g, k.wrapping_neg(), &axes)?)
}

pub fn swapaxes(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "swapaxes");
    let x = array(a.req("a")?)?;
    let a1 = crate::builtins::lang::int_arg(&a.req("axis1")?, "axis1")?;
    let a2 = crate::builtins::lang::int_arg(&a.req("axis2")?, "axis2")?;
    one(call
        .g
        .transpose(Some(&asm::swap_perm(x.ndim(), a1, a2, "swapaxes")?))?)
}

pub fn moveaxis(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "moveaxis");
    let x = array(a.req("a")?)?;
    let perm = asm::moveaxis_perm(x.ndim(), &a.req("source")?, &a.req("destination")?)?;
    let mut inv = vec![0i64; perm.len()];
    for (k, &p) in perm.iter().enumerate() {
        inv[p as usize] = k as i64;
    }
    one(call.g.transpose(Some(&inv))?)
}

pub fn diagonal(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "diagonal");
    let x = array(a.req("a")?)?;
    let (k, p, q) = asm::diag_axes(&x, &mut a, "diagonal")?;
    one(asm::with_diagonal(
        x.shape(),
        call.g.dtype(),
        &call.g,
        k,
        p,
        q,
    )?)
}

pub fn trace(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "trace");
    let x = array(a.req("a")?)?;
    let (k, p, q) = asm::diag_axes(&x, &mut a, "trace")?;
    let g = call.g.expand_dims(-1)?;
    one(asm::with_diagonal(x.shape(), x.dtype(), &g, k, p, q)?)
}

pub fn diag(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "diag");
    let x = array(a.req("x")?)?;
    let k = asm::opt_int(&mut a, "k", 0)?;
    match x.ndim() {
        1 => one(asm::diagonal_view(&call.g, k, 0, 1)),
        _ => one(asm::with_diagonal(
            x.shape(),
            call.g.dtype(),
            &call.g,
            k,
            0,
            1,
        )?),
    }
}

pub fn atleast(_: &mut Interp, call: &GradCall) -> Grads {
    let x = array(call.pos[0].clone())?;
    one(call.g.reshape(&ishape(x.shape()))?)
}

pub fn roll(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "roll");
    let x = array(a.req("a")?)?;
    let shift = a.req("shift")?;
    let axis = a.opt("axis")?;
    let plan = asm::roll_plan(x.shape(), &shift, axis.as_ref())?;
    one(asm::roll_apply(&call.g, &plan, true)?)
}

/// `g` summed back through the map of axis `d` (over a source axis of `n`).
fn unmap(g: &Array, d: usize, map: &AxisMap, n: usize) -> Result<Array> {
    let table = (0..g.shape()[d])
        .map(|c| map.source(c, n))
        .collect::<Option<Vec<i64>>>()
        .ok_or_else(|| Error::internal("gradient of a remap through an index array"))?;
    crate::backend::assemble::axis_sum(g, d, &Segments::of_table(&table, n))
}

pub fn tile(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "tile");
    let x = array(a.req("x")?)?;
    let plan = asm::tile_plan(x.shape(), &a.req("reps")?)?;
    let m = asm::tile_remap(&plan)?;
    let mut g = call.g.clone();
    for (d, map) in m.axes.iter().enumerate() {
        if !matches!(map, AxisMap::Same) {
            g = unmap(&g, d, map, plan.src_shape[d])?;
        }
    }
    one(g.reshape(&ishape(x.shape()))?)
}

pub fn repeat(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "repeat");
    let x = array(a.req("a")?)?;
    let counts = asm::int_list(&a.req("repeats")?, "repeats")?;
    let (shape, ax) = match asm::opt_axis(&mut a, None)? {
        None => (vec![x.size()], 0),
        Some(ax) => (
            x.shape().to_vec(),
            crate::array::shape_ops::norm_axis(ax, x.ndim(), "repeat")?,
        ),
    };
    let m = asm::repeat_remap(&shape, ax, &counts)?;
    let g = call.g.reshape(&ishape(&m.shape))?;
    one(unmap(&g, ax, &m.axes[ax], shape[ax])?.reshape(&ishape(x.shape()))?)
}

pub fn pad(_: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "pad");
    let x = array(a.req("x")?)?;
    let pad_width = a.req("pad_width")?;
    let mode = match a.opt("mode")? {
        Some(Value::Str(s)) => s.to_string(),
        _ => "constant".into(),
    };
    let plan = asm::pad_plan(x.shape(), &pad_width, &mode, None)?;
    if plan.mode == Some(PadMode::Constant) {
        let idx: Vec<Index> = plan
            .widths
            .iter()
            .zip(x.shape())
            .map(|(&(b, _), &n)| Index::Slice {
                start: Some(b as i64),
                stop: Some((b + n) as i64),
                step: None,
            })
            .collect();
        return one(call.g.index(&idx)?);
    }
    let m = plan.remap(x.shape())?;
    let mut g = call.g.clone();
    for (d, map) in m.axes.iter().enumerate() {
        if !matches!(map, AxisMap::Same) {
            g = unmap(&g, d, map, x.shape()[d])?;
        }
    }
    one(g)
}

fn tri(i: &mut Interp, call: &GradCall, upper: bool) -> Grads {
    let mut a = args(call, if upper { "triu" } else { "tril" });
    let x = array(a.req("m")?)?;
    let k = asm::opt_int(&mut a, "k", 0)?;
    let mask = asm::tri_mask(x.shape(), k, upper, &call.g)?;
    one(asm::masked(&call.g, mask, i.float_x())?)
}

pub fn triu(i: &mut Interp, call: &GradCall) -> Grads {
    tri(i, call, true)
}
pub fn tril(i: &mut Interp, call: &GradCall) -> Grads {
    tri(i, call, false)
}

pub fn take(i: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "take");
    let x = array(a.req("a")?)?;
    let (indices, axis, mode) = asm::take_args(&mut a)?;
    let p = asm::take_parts(i, &x, &indices, axis, mode)?;
    let n = p.src.shape()[p.ax];
    let table: Vec<i64> = p
        .idx
        .to_vec::<i64>()?
        .into_iter()
        .map(|t| p.mode.apply(t, n))
        .collect();
    let g = call.g.reshape(&ishape(&p.flat_shape()))?;
    let gx = crate::backend::assemble::axis_sum(&g, p.ax, &Segments::of_table(&table, n))?;
    Ok(vec![Some(gx.reshape(&ishape(x.shape()))?.into()), None])
}

pub fn take_along_axis(i: &mut Interp, call: &GradCall) -> Grads {
    let mut a = args(call, "take_along_axis");
    let x = array(a.req("x")?)?;
    let indices = a.req("indices")?;
    let axis = asm::opt_axis(&mut a, Some(-1))?;
    let p = asm::take_along_parts(i, &x, &indices, axis, "take_along_axis")?;
    // g added into zeros of x's shape (the flattened x for axis=none) at
    // the positions read: x[c_0, ..., idx, ...] with the coordinates of the
    // other axes as broadcasting index arrays (0 where x broadcasts), by
    // indexing's add_at in float64, on g's device.
    let xs: Vec<usize> = match axis {
        None => vec![x.size()],
        Some(_) => x.shape().to_vec(),
    };
    let shape = p.idx.shape().to_vec();
    let dev = call.g.device();
    let nd = shape.len();
    let mut at: Vec<Index> = Vec::with_capacity(nd);
    for d in 0..nd {
        if d == p.ax {
            at.push(Index::Array(p.idx.clone()));
            continue;
        }
        let len = if xs[d] == 1 { 1 } else { shape[d] };
        let mut s = vec![1usize; nd];
        s[d] = len;
        let coords = Array::from_vec((0..len as i64).collect::<Vec<i64>>(), s);
        at.push(Index::Array(crate::backend::to_device(&coords, dev)?));
    }
    let z = crate::backend::create::full(&xs, Scalar::Int(0), DType::Float64, dev)?;
    let g64 = call.g.astype(DType::Float64)?;
    z.at(&z.resolve_index(&at)?, &g64, crate::opid::AtOp::Add)?;
    let gx = z.astype(x.dtype())?;
    Ok(vec![Some(gx.reshape(&ishape(x.shape()))?.into()), None])
}
