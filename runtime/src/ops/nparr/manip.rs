//! NumPy 2's manipulation functions gcalc lacked: `append delete insert
//! resize hsplit vsplit dsplit rollaxis broadcast_arrays broadcast_shapes`.
//! Each is a `concat`/`take`/`split`/`transpose`/`broadcast_to` of the
//! array, with the positions worked out on the host from the shape and the
//! index argument (an index array on a GPU is read back once), so they run
//! on every device and are differentiable through those ops.

use super::edit::{delete, insert};
use super::{
    arr, call, data, int, int_list, norm_axis, ravel, reshape, shape_value, tuple_of, value_err,
};
use crate::array::Array;
use crate::array::alloc;
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
pub(super) fn target(
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
