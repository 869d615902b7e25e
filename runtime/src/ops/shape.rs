//! Shape builtins: `reshape transpose squeeze expand_dims flatten ravel concat
//! stack broadcast_to astype`, thin wrappers over the `Array` methods.

use super::creation::{array_arg, dtype_arg, op, shape_arg};
use crate::array::Array;
use crate::builtins::lang::int_arg;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "reshape",
        "reshape(x, shape, order=\"C\") | x.reshape(d0, d1, ...)",
        "The elements of x in a new shape (one dimension may be -1). A view when x is contiguous, else a copy. order=\"F\" reads and fills in column-major order.",
        true,
        reshape,
        grad: crate::autodiff::rules::reshape
    ),
    op!(
        "view",
        "x.view() | x.view(d0, d1, ...) | x.view(dtype)",
        "A new array object over the same elements: x.view() shares x's data (writes through one show in the other, NumPy's view); x.view(d0, d1, ...) is PyTorch's view, a reshape that must not copy (x contiguous). Decision: x.view(dtype) only for x's own dtype (gcalc does not reinterpret bytes; use astype to convert).",
        true,
        view,
        grad: crate::autodiff::rules::reshape
    ),
    op!(
        "transpose",
        "transpose(x, axes=none) | x.T",
        "x with its axes permuted (reversed by default). A view.",
        true,
        transpose,
        grad: crate::autodiff::rules::transpose
    ),
    op!(
        "squeeze",
        "squeeze(x, axis=none)",
        "x without its axes of length 1 (all of them, or the given axis or axes). A view.",
        true,
        squeeze,
        grad: crate::autodiff::rules::squeeze
    ),
    op!(
        "expand_dims",
        "expand_dims(x, axis)",
        "x with a new axis of length 1 at position axis (a tuple of axes: one at each, positions in the result, as NumPy). A view.",
        true,
        expand_dims,
        grad: crate::autodiff::rules::expand_dims
    ),
    op!("flatten", "x.flatten(order=\"C\")", "A 1-d copy of x (order=\"F\": column by column).", true, flatten, grad: crate::autodiff::rules::flatten),
    op!(
        "ravel",
        "x.ravel(order=\"C\")",
        "x as 1-d: a view when x is contiguous, else a copy (order=\"F\": column by column).",
        true,
        ravel,
        grad: crate::autodiff::rules::ravel
    ),
    op!(
        "concat",
        "concat(arrays, axis=0, dtype=none, casting=\"same_kind\")",
        "Join a list of arrays along an existing axis (axis=none: raveled first, as NumPy); dtype= casts each array first under casting (NumPy's rules).",
        false,
        concat,
        grad: crate::autodiff::rules::concat
    ),
    op!(
        "concatenate",
        "concatenate(arrays, axis=0, dtype=none, casting=\"same_kind\")",
        "NumPy's name for concat: join a list of arrays along an existing axis.",
        false,
        concat,
        grad: crate::autodiff::rules::concat
    ),
    op!(
        "stack",
        "stack(arrays, axis=0, dtype=none, casting=\"same_kind\")",
        "Join a list of arrays of one shape along a new axis; dtype= casts each array first under casting (NumPy's rules).",
        false,
        stack,
        grad: crate::autodiff::rules::stack
    ),
    op!(
        "broadcast_to",
        "broadcast_to(x, shape)",
        "A read-only-style view of x broadcast to shape (NumPy's rules).",
        false,
        broadcast_to,
        grad: crate::autodiff::rules::broadcast_to
    ),
    op!(
        "astype",
        "x.astype(dtype)",
        "A copy of x converted to dtype (float->int truncates toward zero; nan -> 0).",
        true,
        astype,
        grad: crate::autodiff::rules::astype
    ),
];

/// Integers given as one tuple/list or as several positional ints.
fn ints(first: &Value, rest: Vec<Value>, what: &str) -> Result<Vec<i64>> {
    let mut out = match first {
        Value::Tuple(_) | Value::List(_) => first
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|v| int_arg(v, what))
            .collect::<Result<Vec<_>>>()?,
        v => vec![int_arg(v, what)?],
    };
    for v in rest {
        out.push(int_arg(&v, what)?);
    }
    Ok(out)
}

fn reshape(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xv = a.req("x")?;
    let x = array_arg(i, &xv)?;
    let first = a.req("shape")?;
    let rest = a.rest();
    let f = super::shape_order::fortran(a.kw("order"), "reshape")?;
    a.finish()?;
    let shape = ints(&first, rest, "a dimension")?;
    if f {
        return super::shape_order::reshape_f(i, xv, shape);
    }
    Ok(x.reshape(&shape)?.into())
}

fn view(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let first = a.opt("shape")?;
    let rest = a.rest();
    a.finish()?;
    let shape = match first {
        None | Some(Value::None) => None,
        Some(Value::DType(d)) if d == x.dtype() && rest.is_empty() => None,
        Some(Value::DType(d)) => {
            return Err(Error::type_(format!(
                "view: gcalc does not reinterpret {} data as {d}",
                x.dtype()
            ))
            .with_op("view")
            .with_help(format!("convert the values with x.astype({d})")));
        }
        Some(first) => Some(ints(&first, rest, "a dimension")?),
    };
    match shape {
        // The same layout over the same buffer: a new array object.
        None => Ok(x.view(x.shape(), x.strides(), x.offset()).into()),
        Some(_) if !x.is_contiguous() => Err(Error::value(format!(
            "view: an array of shape {:?} that is not contiguous cannot be viewed in a new shape",
            x.shape()
        ))
        .with_op("view")
        .with_help("use reshape (it copies when it must), or x.copy().view(...)")),
        Some(s) => Ok(x.reshape(&s)?.into()),
    }
}

fn transpose(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let axes = match a.opt("axes")? {
        None | Some(Value::None) => None,
        Some(first) => Some(ints(&first, a.rest(), "an axis")?),
    };
    a.finish()?;
    Ok(x.transpose(axes.as_deref())?.into())
}

fn squeeze(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let axes = match a.opt("axis")? {
        None | Some(Value::None) => None,
        Some(v) => Some(ints(&v, vec![], "axis")?),
    };
    a.finish()?;
    Ok(x.squeeze(axes.as_deref())?.into())
}

fn expand_dims(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let axis = a.req("axis")?;
    a.finish()?;
    let Some(axes) = axis.seq_items() else {
        return Ok(x.expand_dims(int_arg(&axis, "axis")?)?.into());
    };
    // NumPy: each axis is a position in the result (ndim + len(axes) dims).
    let out_ndim = (x.ndim() + axes.len()) as i64;
    let mut pos = Vec::with_capacity(axes.len());
    for v in axes.iter() {
        let k = int_arg(v, "axis")?;
        let p = if k < 0 { k + out_ndim } else { k };
        if !(0..out_ndim).contains(&p) {
            return Err(Error::index(format!(
                "expand_dims: axis {k} is out of bounds for a result of {out_ndim} dimensions"
            ))
            .with_help(format!("axes run from -{out_ndim} to {}", out_ndim - 1)));
        }
        if pos.contains(&p) {
            return Err(Error::value(format!("expand_dims: repeated axis {k}"))
                .with_help("give each new axis once"));
        }
        pos.push(p);
    }
    pos.sort_unstable();
    let mut y = x;
    for p in pos {
        y = y.expand_dims(p)?;
    }
    Ok(y.into())
}

fn flatten(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xv = a.req("x")?;
    let x = array_arg(i, &xv)?;
    if super::shape_order::fortran(a.opt("order")?, "flatten")? {
        a.finish()?;
        return super::shape_order::flat_f(i, "flatten", xv);
    }
    a.finish()?;
    Ok(x.flatten()?.into())
}

fn ravel(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xv = a.req("x")?;
    let x = array_arg(i, &xv)?;
    if super::shape_order::fortran(a.opt("order")?, "ravel")? {
        a.finish()?;
        return super::shape_order::flat_f(i, "ravel", xv);
    }
    a.finish()?;
    Ok(x.ravel()?.into())
}

/// The arrays of `concat([...])` / `stack([...])`. Literal data (`[0.0]`,
/// numbers) is made where the arrays among them are, else where new arrays
/// go (the `device` flag), as `array([...])` does: `concat([[0.0], x])`
/// works for x on a GPU.
fn array_list(i: &Interp, v: &Value, op: &str) -> Result<Vec<Array>> {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let t = v.seq_items().unwrap_or_default();
            let dev = t
                .iter()
                .find_map(|x| x.as_array().map(|a| a.device()))
                .unwrap_or_else(|| i.default_device());
            t.iter()
                .map(|x| match x {
                    Value::Array(a) => Ok(a.clone()),
                    x => crate::backend::to_device(&array_arg(i, x)?, dev),
                })
                .collect()
        }
        other => Err(Error::type_(format!(
            "{op} takes a list of arrays, not {}",
            other.a_type_name()
        ))
        .with_help(format!("e.g. {op}([a, b], axis=0)"))),
    }
}

fn join(i: &mut Interp, mut a: Args, stack: bool) -> Result<Value> {
    let op = a.name;
    let mut arrays = array_list(i, &a.req("arrays")?, op)?;
    let axis = a.opt("axis")?;
    let dtype = a.opt("dtype")?;
    let casting = a.opt("casting")?;
    a.finish_with(&["axis", "dtype", "casting"])?;
    if let Some(d) = dtype.filter(|d| !matches!(d, Value::None)) {
        // NumPy's dtype= with casting="same_kind" by default: each array cast first.
        let d = dtype_arg(&d)?;
        let casting = match casting {
            None | Some(Value::None) => "same_kind".to_string(),
            Some(Value::Str(s)) => s.to_string(),
            Some(v) => {
                return Err(Error::type_(format!(
                    "{op}: casting must be a string, not {}",
                    v.a_type_name()
                )));
            }
        };
        for x in &mut arrays {
            if !super::np_dtype::castable(x.dtype(), d, &casting, op)? {
                return Err(Error::type_(format!(
                    "{op}: cannot cast array data from {} to {d} according to the rule '{casting}'",
                    x.dtype()
                ))
                .with_op(op)
                .with_help(format!(
                    "pass casting=\"unsafe\" to allow it, or cast first: x.astype({d})"
                )));
            }
            *x = x.astype(d)?;
        }
    }
    if let (Some(Value::None), false) = (&axis, stack) {
        // NumPy's axis=None: the arrays raveled, then joined.
        let flat = arrays
            .iter()
            .map(|x| x.reshape(&[-1]))
            .collect::<Result<Vec<Array>>>()?;
        return Ok(Array::concat(&flat, 0)?.into());
    }
    let axis = axis.map(|v| int_arg(&v, "axis")).transpose()?.unwrap_or(0);
    Ok(if stack {
        Array::stack(&arrays, axis)?
    } else {
        Array::concat(&arrays, axis)?
    }
    .into())
}

fn concat(i: &mut Interp, a: Args) -> Result<Value> {
    join(i, a, false)
}

fn stack(i: &mut Interp, a: Args) -> Result<Value> {
    join(i, a, true)
}

fn broadcast_to(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let shape = shape_arg(&a.req("shape")?)?;
    a.finish()?;
    Ok(x.broadcast_to(&shape)?.into())
}

fn astype(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let d = dtype_arg(&a.req("dtype")?)?;
    a.finish()?;
    Ok(x.astype(d)?.into())
}
