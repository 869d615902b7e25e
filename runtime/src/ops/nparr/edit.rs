//! NumPy's `delete` and `insert`: the positions that `obj` picks (an int,
//! a list or int array, a range read as a slice, a bool mask for delete)
//! worked out on the host from the axis length (an index array on a GPU is
//! read back once), then one `take` along the axis of the array (joined
//! with the inserted block for insert), so both run on every device and
//! their gradients are take's and concatenate's.

use super::manip::target;
use super::{arr, astype, call, data, host_i64, int_list, reshape, shape_value, value_err};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;
use gcalc_lang::Span;

/// Positions picked by `obj` along an axis of length `n`, for delete and
/// insert: `Scalar` (an int or 0-d int array), `Many` (a list, an int
/// array, a range read as a slice), `Mask`.
enum Picked {
    Scalar(i64),
    Many(Vec<i64>),
    Mask(Vec<bool>),
}

fn picked(obj: &Value, n: usize, name: &str) -> Result<Picked> {
    match obj {
        Value::Range(b, e, s) => {
            let (start, count, step) =
                crate::array::index::slice_range(Some(*b), Some(*e), Some(*s), n)?;
            Ok(Picked::Many(
                (0..count as i64).map(|k| start as i64 + k * step).collect(),
            ))
        }
        Value::Int(k) => Ok(Picked::Scalar(*k)),
        Value::Array(a) if a.dtype() == DType::Bool => Ok(Picked::Mask(
            a.to_vec::<i64>()?.into_iter().map(|v| v != 0).collect(),
        )),
        Value::Array(a) if a.dtype().is_float() => Err(index_type(name, a.dtype().name())),
        Value::Array(a) if a.ndim() == 0 => Ok(Picked::Scalar(a.to_vec::<i64>()?[0])),
        Value::Array(a) => Ok(Picked::Many(a.to_vec::<i64>()?)),
        Value::List(_) | Value::Tuple(_) => {
            let items = obj.seq_items().unwrap_or_default();
            if !items.is_empty() && items.iter().all(|v| matches!(v, Value::Bool(_))) {
                return Ok(Picked::Mask(
                    items
                        .iter()
                        .map(|v| matches!(v, Value::Bool(true)))
                        .collect(),
                ));
            }
            Ok(Picked::Many(int_list(obj, name, "obj")?))
        }
        v => Err(Error::type_(format!(
            "{name}: obj must be an int, a list or array of ints, a range or a bool mask, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("e.g. obj=[0, 2] or obj=range(1, 3)")),
    }
}

fn index_type(name: &str, got: &str) -> Error {
    Error::index(format!(
        "{name}: arrays used as indices must be of integer (or boolean) type, got {got}"
    ))
    .with_op(name)
    .with_help("give int positions")
}

/// An index outside the axis; `n` the axis length, `size` the one NumPy
/// names (insert's lists name the result's). delete picks existing entries
/// (-n..n-1); insert goes before one, or at the end (-n..n).
fn out_of_bounds(name: &str, k: i64, (ax, n, size): (usize, usize, usize), end_ok: bool) -> Error {
    let last = if end_ok { n as i64 } else { n as i64 - 1 };
    Error::index(format!(
        "{name}: index {k} is out of bounds for axis {ax} with size {size}"
    ))
    .with_op(name)
    .with_help(format!("positions go from -{n} to {last}"))
}

/// `x` gathered at `pos` along `ax` (a copy, on x's device).
fn gather(i: &mut Interp, span: Span, x: &Array, pos: Vec<i64>, ax: usize) -> Result<Array> {
    let len = pos.len();
    let idx = host_i64(pos, &[len], x.device())?;
    arr(
        i,
        span,
        "take",
        vec![x.clone().into(), idx.into()],
        vec![("axis", Value::Int(ax as i64))],
    )
}

pub(super) fn delete(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "delete";
    let x = data(i, a.req("arr")?, name, "arr")?;
    let obj = a.req("obj")?;
    let axis = a.opt("axis")?;
    a.finish_with(&["axis"])?;
    let (x, ax) = target(i, span, &x, axis, name)?;
    let n = x.shape()[ax];
    let mut keep = vec![true; n];
    match picked(&obj, n, name)? {
        Picked::Mask(m) => {
            if m.len() != n {
                return Err(value_err(
                    name,
                    format!(
                        "boolean array argument obj to delete must be one dimensional and match the axis length of {n}, got length {}",
                        m.len()
                    ),
                    "give a mask as long as the axis",
                ));
            }
            for (k, d) in m.into_iter().enumerate() {
                keep[k] = !d;
            }
        }
        Picked::Scalar(k) => {
            let p = wrap(k, n).ok_or_else(|| out_of_bounds(name, k, (ax, n, n), false))?;
            keep[p] = false;
        }
        Picked::Many(ks) => {
            for k in ks {
                let p = wrap(k, n).ok_or_else(|| out_of_bounds(name, k, (ax, n, n), false))?;
                keep[p] = false;
            }
        }
    }
    let pos: Vec<i64> = (0..n as i64).filter(|&k| keep[k as usize]).collect();
    Ok(Value::Array(gather(i, span, &x, pos, ax)?))
}

/// `k` in `-n..n` made non-negative.
fn wrap(k: i64, n: usize) -> Option<usize> {
    let n = n as i64;
    let p = if k < 0 { k + n } else { k };
    (0..n).contains(&p).then_some(p as usize)
}

pub(super) fn insert(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "insert";
    let x = a.req("arr")?;
    let obj = a.req("obj")?;
    let values = a.req("values")?;
    let (x, values) = super::pair(i, x, values, name, ("arr", "values"))?;
    let axis = a.opt("axis")?;
    a.finish_with(&["axis"])?;
    let (x, ax) = target(i, span, &x, axis, name)?;
    let n = x.shape()[ax];
    let nd = x.ndim();
    let mut vals = astype(i, span, &values, x.dtype())?;
    let (positions, scalar) = match picked(&obj, n, name)? {
        Picked::Mask(_) => {
            return Err(
                Error::index(format!("{name}: a bool obj is not a list of positions"))
                    .with_op(name)
                    .with_help("give int positions (flatnonzero(mask) gives a mask's)"),
            );
        }
        Picked::Scalar(k) => (vec![k], true),
        Picked::Many(ks) => {
            if ks.is_empty() {
                return call(i, span, "copy", vec![x.into()], vec![]);
            }
            (ks, false)
        }
    };
    let single = scalar || positions.len() == 1;
    if single {
        let k = positions[0];
        if k < -(n as i64) || k > n as i64 {
            return Err(out_of_bounds(name, k, (ax, n, n), true));
        }
        let index = if k < 0 { k + n as i64 } else { k } as usize;
        // NumPy: values made at least arr.ndim-d; a scalar obj moves their
        // first axis to `axis`.
        while vals.ndim() < nd {
            let mut s = vec![1];
            s.extend_from_slice(vals.shape());
            vals = reshape(i, span, &vals, &s)?;
        }
        if scalar && nd > 0 {
            vals = arr(
                i,
                span,
                "moveaxis",
                vec![vals.into(), Value::Int(0), Value::Int(ax as i64)],
                vec![],
            )?;
        }
        let numnew = if vals.ndim() > ax {
            vals.shape()[ax]
        } else {
            1
        };
        let block = block(i, span, &x, &vals, ax, numnew, name)?;
        let pos: Vec<i64> = (0..n + numnew)
            .map(|p| {
                if p < index {
                    p
                } else if p < index + numnew {
                    n + p - index
                } else {
                    p - numnew
                }
            } as i64)
            .collect();
        let joined = join(i, span, &x, &block, ax)?;
        return Ok(Value::Array(gather(i, span, &joined, pos, ax)?));
    }
    let numnew = positions.len();
    let mut idx: Vec<i64> = Vec::with_capacity(numnew);
    for &k in &positions {
        let p = if k < 0 { k + n as i64 } else { k };
        if p < 0 || p > n as i64 {
            return Err(out_of_bounds(name, k, (ax, n, n + numnew), true));
        }
        idx.push(p);
    }
    let mut order: Vec<usize> = (0..numnew).collect();
    order.sort_by_key(|&j| idx[j]);
    for (r, &j) in order.iter().enumerate() {
        idx[j] += r as i64;
    }
    let total = n + numnew;
    let mut src = vec![-1i64; total];
    for (j, &p) in idx.iter().enumerate() {
        src[p as usize] = (n + j) as i64;
    }
    for (old, s) in src.iter_mut().filter(|s| **s < 0).enumerate() {
        *s = old as i64;
    }
    let block = block(i, span, &x, &vals, ax, numnew, name)?;
    let joined = join(i, span, &x, &block, ax)?;
    Ok(Value::Array(gather(i, span, &joined, src, ax)?))
}

/// `vals` broadcast to x's shape with `numnew` along `ax`.
fn block(
    i: &mut Interp,
    span: Span,
    x: &Array,
    vals: &Array,
    ax: usize,
    numnew: usize,
    name: &str,
) -> Result<Array> {
    let mut s = x.shape().to_vec();
    s[ax] = numnew;
    if vals.shape() == s.as_slice() {
        return Ok(vals.clone());
    }
    arr(
        i,
        span,
        "broadcast_to",
        vec![vals.clone().into(), shape_value(&s)],
        vec![],
    )
    .map_err(|e| {
        Error::shape(
            name,
            format!(
                "{name}: values of shape {:?} do not fit the inserted block of shape {s:?}",
                vals.shape()
            ),
        )
        .with_help(e.message)
    })
}

fn join(i: &mut Interp, span: Span, x: &Array, b: &Array, ax: usize) -> Result<Array> {
    arr(
        i,
        span,
        "concatenate",
        vec![Value::list(vec![x.clone().into(), b.clone().into()])],
        vec![("axis", Value::Int(ax as i64))],
    )
}
