//! NumPy 2's manipulation functions gcalc lacked: `append delete insert
//! resize hsplit vsplit dsplit rollaxis broadcast_arrays broadcast_shapes`.
//! Each is a `concat`/`take`/`split`/`transpose`/`broadcast_to` of the
//! array, with the positions worked out on the host from the shape and the
//! index argument (an index array on a GPU is read back once), so they run
//! on every device and are differentiable through those ops.

use super::{
    arr, astype, call, data, host_i64, int, int_list, norm_axis, ravel, reshape, shape_value,
    tuple_of, value_err,
};
use crate::array::Array;
use crate::array::alloc;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{op, shape_arg};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "append",
        "append(arr, values, axis=none)",
        "arr with values appended at the end: both flattened when axis is none, else joined along axis (values must then have arr's shape off that axis); dtypes promote as in concat. Differentiable.",
        false,
        append
    ),
    op!(
        "delete",
        "delete(arr, obj, axis=none)",
        "A copy of arr without the entries obj along axis (of the flattened arr when axis is none): obj an int, a list or int array of positions (negative from the end), a range (as a slice), or a bool mask of the axis's length. Differentiable.",
        false,
        delete
    ),
    op!(
        "insert",
        "insert(arr, obj, values, axis=none)",
        "A copy of arr with values inserted before position(s) obj along axis (flattened when axis is none): an int inserts values as one block (broadcast to arr's other dims), a list, int array or range inserts one slice before each position; values take arr's dtype. Differentiable.",
        false,
        insert
    ),
    op!(
        "resize",
        "resize(a, new_shape)",
        "An array of new_shape filled with a's elements (flattened) repeated cyclically as often as needed; zeros when a is empty. Differentiable.",
        false,
        resize
    ),
    op!(
        "hsplit",
        "hsplit(ary, indices_or_sections)",
        "split along axis 1 (axis 0 for a 1-d array): a tuple of views.",
        false,
        |i, a| split_along(i, a, 1)
    ),
    op!(
        "vsplit",
        "vsplit(ary, indices_or_sections)",
        "split along axis 0 of an array of 2 or more dims: a tuple of views.",
        false,
        |i, a| split_along(i, a, 0)
    ),
    op!(
        "dsplit",
        "dsplit(ary, indices_or_sections)",
        "split along axis 2 of an array of 3 or more dims: a tuple of views.",
        false,
        |i, a| split_along(i, a, 2)
    ),
    op!(
        "rollaxis",
        "rollaxis(a, axis, start=0)",
        "A view of a with axis moved to before position start (NumPy's older moveaxis).",
        false,
        rollaxis
    ),
    op!(
        "broadcast_arrays",
        "broadcast_arrays(*args)",
        "A tuple of the arrays broadcast to their common shape (views; an array of that shape is given as it is).",
        false,
        broadcast_arrays
    ),
    op!(
        "broadcast_shapes",
        "broadcast_shapes(*shapes)",
        "The shape (a tuple) that arrays of the given shapes (ints or tuples) broadcast to.",
        false,
        broadcast_shapes
    ),
];

/// The array and axis an axis argument picks (none: the flattened array, axis 0).
fn target(
    i: &mut Interp,
    span: Span,
    x: &Array,
    axis: Option<Value>,
    name: &str,
) -> Result<(Array, usize)> {
    match axis {
        None | Some(Value::None) => Ok((ravel(i, span, x)?, 0)),
        Some(v) => {
            let k = int(&v, name, "axis")?;
            Ok((x.clone(), norm_axis(k, x.ndim(), name)?))
        }
    }
}

fn append(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "append";
    let (x, v) = (a.req("arr")?, a.req("values")?);
    let (x, v) = super::pair(i, x, v, name, ("arr", "values"))?;
    let axis = a.opt("axis")?;
    a.finish_with(&["axis"])?;
    let (x, v, ax) = match axis {
        None | Some(Value::None) => (ravel(i, span, &x)?, ravel(i, span, &v)?, 0),
        Some(k) => (x, v, int(&k, name, "axis")?),
    };
    call(
        i,
        span,
        "concatenate",
        vec![Value::list(vec![x.into(), v.into()])],
        vec![("axis", Value::Int(ax))],
    )
}

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

fn out_of_bounds(name: &str, k: i64, ax: usize, n: usize) -> Error {
    Error::index(format!(
        "{name}: index {k} is out of bounds for axis {ax} with size {n}"
    ))
    .with_op(name)
    .with_help(format!("positions go from -{n} to {}", n as i64 - 1))
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

fn delete(i: &mut Interp, mut a: Args) -> Result<Value> {
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
            let p = wrap(k, n).ok_or_else(|| out_of_bounds(name, k, ax, n))?;
            keep[p] = false;
        }
        Picked::Many(ks) => {
            for k in ks {
                let p = wrap(k, n).ok_or_else(|| out_of_bounds(name, k, ax, n))?;
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

fn insert(i: &mut Interp, mut a: Args) -> Result<Value> {
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
            return Err(out_of_bounds(name, k, ax, n));
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
            return Err(out_of_bounds(name, k, ax, n + numnew));
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

fn resize(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "resize";
    let x = data(i, a.req("a")?, name, "a")?;
    let sv = a.req("new_shape")?;
    a.finish()?;
    let dims = int_list(&sv, name, "new_shape")?;
    if dims.iter().any(|&d| d < 0) {
        return Err(value_err(
            name,
            format!("all elements of `new_shape` must be non-negative, got {dims:?}"),
            "give sizes >= 0",
        ));
    }
    let shape = shape_arg(&sv)?;
    let total = alloc::checked_numel(&shape, x.dtype())?;
    if x.size() == 0 || total == 0 {
        return Ok(Value::Array(Array::zeros(&shape, x.dtype(), x.device())?));
    }
    let flat = ravel(i, span, &x)?;
    let g = super::cyclic(i, span, &flat, total)?;
    Ok(Value::Array(reshape(i, span, &g, &shape)?))
}

fn split_along(i: &mut Interp, mut a: Args, axis: usize) -> Result<Value> {
    let span = a.span;
    let name = a.name;
    let x = data(i, a.req("ary")?, name, "ary")?;
    let ios = a.req("indices_or_sections")?;
    a.finish()?;
    let need = match axis {
        1 => 1,
        0 => 2,
        _ => 3,
    };
    if x.ndim() < need {
        return Err(value_err(
            name,
            format!(
                "{name} only works on arrays of {need} or more dimensions, got shape {:?}",
                x.shape()
            ),
            "use split(x, n, axis=...) for other arrays",
        ));
    }
    let ax = if axis == 1 && x.ndim() == 1 { 0 } else { axis };
    call(
        i,
        span,
        "split",
        vec![x.into(), ios],
        vec![("axis", Value::Int(ax as i64))],
    )
}

fn rollaxis(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "rollaxis";
    let x = data(i, a.req("a")?, name, "a")?;
    let axis = int(&a.req("axis")?, name, "axis")?;
    let start = match a.opt("start")? {
        None => 0,
        Some(v) => int(&v, name, "start")?,
    };
    a.finish_with(&["start"])?;
    let n = x.ndim() as i64;
    let axis = norm_axis(axis, x.ndim(), name)?;
    let mut st = start;
    if st < 0 {
        st += n;
    }
    if !(0..n + 1).contains(&st) {
        return Err(Error::new(
            crate::error::ErrorKind::Index,
            format!(
                "{name}: 'start' arg requires {} <= start < {}, but {start} was passed in",
                -n,
                n + 1
            ),
        )
        .with_op(name)
        .with_help("give a start within the array's dims"));
    }
    let mut st = st as usize;
    if axis < st {
        st -= 1;
    }
    let mut axes: Vec<usize> = (0..x.ndim()).filter(|&d| d != axis).collect();
    axes.insert(st, axis);
    Ok(Value::Array(
        crate::ops::linalg_calls::Calls::new(i, span).permute(&x, &axes)?,
    ))
}

/// The broadcast shape of `shapes`, with NumPy's message on a mismatch.
fn common_shape(shapes: &[Vec<usize>], name: &str) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = vec![];
    for (k, s) in shapes.iter().enumerate() {
        out = crate::array::layout::broadcast_shapes(&out, s, name).map_err(|_| {
            let j = (0..k)
                .find(|&j| crate::array::layout::broadcast_shapes(&shapes[j], s, name).is_err())
                .unwrap_or(0);
            value_err(
                name,
                format!(
                    "shape mismatch: objects cannot be broadcast to a single shape. Mismatch is between arg {j} with shape {:?} and arg {k} with shape {s:?}.",
                    shapes[j]
                ),
                "each dim must match or be 1",
            )
        })?;
    }
    Ok(out)
}

fn broadcast_arrays(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "broadcast_arrays";
    let vs = a.rest();
    a.finish()?;
    let xs: Vec<Array> = vs
        .into_iter()
        .map(|v| data(i, v, name, "args"))
        .collect::<Result<_>>()?;
    let shapes: Vec<Vec<usize>> = xs.iter().map(|x| x.shape().to_vec()).collect();
    let s = common_shape(&shapes, name)?;
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        if x.shape() == s.as_slice() {
            out.push(x);
        } else {
            out.push(arr(
                i,
                span,
                "broadcast_to",
                vec![x.into(), shape_value(&s)],
                vec![],
            )?);
        }
    }
    Ok(tuple_of(out))
}

fn broadcast_shapes(_i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "broadcast_shapes";
    let vs = a.rest();
    a.finish()?;
    let shapes: Vec<Vec<usize>> = vs.iter().map(shape_arg).collect::<Result<_>>()?;
    Ok(shape_value(&common_shape(&shapes, name)?))
}
