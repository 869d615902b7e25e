//! NumPy 2's construction, manipulation, set and index-helper functions and
//! the further random draws (issue 17's breadth). Table entries by help
//! family: `construct.rs` (asarray, empty_like, logspace, geomspace,
//! ndim/shape/size; the index builders tri, *_indices, indices, ix_,
//! vander in `grids.rs`), `manip.rs` (append, resize, h/v/dsplit,
//! rollaxis, broadcast_arrays/shapes; delete and insert in `edit.rs`),
//! `pick.rs` (choose, select, piecewise; place and put in `writes.rs`),
//! `sets.rs`
//! (intersect1d ... unique_all; lexsort, unravel_index, ravel_multi_index
//! in `ravel.rs`), `hist2d.rs` (histogram2d), `draws.rs` (random, integers,
//! multinomial, dirichlet; the parameterised draws in `dists.rs`).
//!
//! Every function is composed of other table ops called through the
//! interpreter (`Calls`), so it runs on every device and, under `grad`,
//! each step is on the tape: the gradients are the composition's. Index
//! arithmetic that depends only on shapes and small index arguments is done
//! on the host and sent to the array's device once.

pub mod construct;
pub mod dists;
pub mod draws;
pub mod edit;
pub mod grids;
pub mod hist2d;
pub mod manip;
pub mod pick;
pub mod ravel;
pub mod sets;
pub mod writes;

use crate::array::Array;
use crate::array::create::value_to_array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::ops::linalg_calls::Calls;
use crate::value::Value;
use gcalc_lang::Span;

/// The construction functions (help family: creation).
pub static CONSTRUCT_OPS: &[crate::ops::OpDef] = construct::OPS;
/// The manipulation functions (help family: shape).
pub static MANIP_OPS: &[crate::ops::OpDef] = manip::OPS;
/// choose, select, place, put, piecewise (help family: indexing).
pub static PICK_OPS: &[crate::ops::OpDef] = pick::OPS;
/// Sets and index helpers (help family: sorting and searching).
pub static SET_OPS: &[crate::ops::OpDef] = sets::OPS;
/// histogram2d (help family: reduction).
pub static HIST2D_OPS: &[crate::ops::OpDef] = hist2d::OPS;
/// The further random draws (help family: random).
pub static DRAW_OPS: &[crate::ops::OpDef] = draws::OPS;

/// Op `name` of the table called through the interpreter.
pub(crate) fn call(
    i: &mut Interp,
    span: Span,
    name: &str,
    pos: Vec<Value>,
    kw: Vec<(&str, Value)>,
) -> Result<Value> {
    Calls::new(i, span).call(name, pos, kw)
}

/// Like `call`, for an op that gives an array.
pub(crate) fn arr(
    i: &mut Interp,
    span: Span,
    name: &str,
    pos: Vec<Value>,
    kw: Vec<(&str, Value)>,
) -> Result<Array> {
    Calls::new(i, span).arr(name, pos, kw)
}

/// The items of a tuple/list result.
pub(crate) fn items(v: Value, name: &str) -> Result<Vec<Value>> {
    v.seq_items()
        .map(|it| it.iter().cloned().collect())
        .ok_or_else(|| Error::internal(format!("{name}: expected a tuple")))
}

/// An array argument: arrays as they are, numbers and (nested) lists made
/// into arrays (`array()`'s dtypes) on the session's default device.
pub(crate) fn data(i: &Interp, v: Value, name: &str, what: &str) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::List(_) | Value::Tuple(_) => {
            let a = value_to_array(&v, None, i.float_x()).map_err(|e| {
                Error::new(e.kind, format!("{name}: {what}: {}", e.message)).with_op(name)
            })?;
            crate::backend::to_device(&a, i.default_device())
        }
        v => Err(Error::type_(format!(
            "{name}() needs an array for `{what}`, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("make one with array([...])")),
    }
}

/// A second array argument on `dev`: arrays must be there already, literals
/// are put there.
pub(crate) fn data_on(i: &Interp, v: Value, dev: Device, name: &str, what: &str) -> Result<Array> {
    match v {
        Value::Array(a) if a.device() != dev => Err(Error::device_mismatch(name, dev, a.device())
            .with_help(format!("move `{what}` with .to({dev})"))),
        Value::Array(a) => Ok(a),
        v => {
            let a = data(i, v, name, what)?;
            crate::backend::to_device(&a, dev)
        }
    }
}

/// An int64 array made on the host from `v` and sent to `dev`.
pub(crate) fn host_i64(v: Vec<i64>, shape: &[usize], dev: Device) -> Result<Array> {
    crate::backend::to_device(&Array::from_vec(v, shape.to_vec()), dev)
}

/// A float64 array made on the host from `v` and sent to `dev`.
pub(crate) fn host_f64(v: Vec<f64>, shape: &[usize], dev: Device) -> Result<Array> {
    crate::backend::to_device(&Array::from_vec(v, shape.to_vec()), dev)
}

/// `x` as dtype `d` (itself when it has it).
pub(crate) fn astype(i: &mut Interp, span: Span, x: &Array, d: DType) -> Result<Array> {
    if x.dtype() == d {
        return Ok(x.clone());
    }
    arr(
        i,
        span,
        "astype",
        vec![x.clone().into(), Value::Str(d.name().into())],
        vec![],
    )
}

/// `x` flattened (C order).
pub(crate) fn ravel(i: &mut Interp, span: Span, x: &Array) -> Result<Array> {
    if x.ndim() == 1 {
        return Ok(x.clone());
    }
    arr(
        i,
        span,
        "reshape",
        vec![x.clone().into(), shape_value(&[x.size()])],
        vec![],
    )
}

/// `x` reshaped.
pub(crate) fn reshape(i: &mut Interp, span: Span, x: &Array, s: &[usize]) -> Result<Array> {
    Calls::new(i, span).reshape(x, s)
}

/// A shape as a tuple value.
pub(crate) fn shape_value(s: &[usize]) -> Value {
    crate::ops::linalg_calls::shape_value(s)
}

/// A tuple of arrays.
pub(crate) fn tuple_of(v: Vec<Array>) -> Value {
    Value::tuple(v.into_iter().map(Value::Array).collect())
}

/// An int argument `what` of `name`.
pub(crate) fn int(v: &Value, name: &str, what: &str) -> Result<i64> {
    match v {
        Value::Int(k) => Ok(*k),
        Value::Bool(b) => Ok(*b as i64),
        Value::Array(a) if a.size() == 1 && a.ndim() == 0 && !a.dtype().is_float() => {
            match a.item()? {
                Value::Int(k) => Ok(k),
                Value::Bool(b) => Ok(b as i64),
                _ => Err(int_error(v, name, what)),
            }
        }
        v => Err(int_error(v, name, what)),
    }
}

fn int_error(v: &Value, name: &str, what: &str) -> Error {
    Error::type_(format!(
        "{name}: `{what}` must be an int, got {}",
        v.a_type_name()
    ))
    .with_op(name)
    .with_help(format!("see help({name})"))
}

/// A float argument `what` of `name` (ints accepted).
pub(crate) fn float(v: &Value, name: &str, what: &str) -> Result<f64> {
    match v {
        Value::Int(k) => Ok(*k as f64),
        Value::Float(f) => Ok(*f),
        Value::Array(a) if a.size() == 1 && a.ndim() == 0 => match a.item()? {
            Value::Int(k) => Ok(k as f64),
            Value::Float(f) => Ok(f),
            Value::Bool(b) => Ok(b as i64 as f64),
            _ => Err(Error::internal("item gave a non-scalar")),
        },
        v => Err(Error::type_(format!(
            "{name}: `{what}` must be a number, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help(format!("see help({name})"))),
    }
}

/// A list of ints (an int, a tuple, a list, or a 1-d int array read back).
pub(crate) fn int_list(v: &Value, name: &str, what: &str) -> Result<Vec<i64>> {
    match v {
        Value::Tuple(_) | Value::List(_) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|d| int(d, name, what))
            .collect(),
        Value::Array(a) if a.ndim() == 1 && !a.dtype().is_float() && a.dtype() != DType::Bool => {
            a.to_vec::<i64>()
        }
        v => Ok(vec![int(v, name, what)?]),
    }
}

/// A ValueError of `name`.
pub(crate) fn value_err(name: &str, msg: String, help: &str) -> Error {
    Error::value(format!("{name}: {msg}"))
        .with_op(name)
        .with_help(help.to_string())
}

/// An axis of `nd` dims (negative from the end).
pub(crate) fn norm_axis(k: i64, nd: usize, name: &str) -> Result<usize> {
    crate::array::shape_ops::norm_axis(k, nd, name)
}

/// An array result.
pub(crate) fn as_array(v: Value) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        v => Err(Error::internal(format!(
            "expected an array, got {}",
            v.a_type_name()
        ))),
    }
}

/// The flat array `flat` repeated cyclically to `n` elements (on its
/// device: an `arange` taken with mode "wrap").
pub(crate) fn cyclic(i: &mut Interp, span: Span, flat: &Array, n: usize) -> Result<Array> {
    let idx = arr(
        i,
        span,
        "arange",
        vec![Value::Int(n as i64)],
        vec![
            ("dtype", Value::DType(DType::Int64)),
            ("device", Value::Device(flat.device())),
        ],
    )?;
    arr(
        i,
        span,
        "take",
        vec![flat.clone().into(), idx.into()],
        vec![("mode", Value::Str("wrap".into()))],
    )
}

/// The device of the first array among `vs` (the session's default when
/// every one is a literal): where literals beside arrays are put.
pub(crate) fn device_of(i: &Interp, vs: &[&Value]) -> Device {
    vs.iter()
        .find_map(|v| match v {
            Value::Array(a) => Some(a.device()),
            v => v.seq_items().and_then(|it| {
                it.iter().find_map(|x| match x {
                    Value::Array(a) => Some(a.device()),
                    _ => None,
                })
            }),
        })
        .unwrap_or_else(|| i.default_device())
}

/// Two array arguments on one device (an array's; literals go there).
pub(crate) fn pair(
    i: &Interp,
    a: Value,
    b: Value,
    name: &str,
    what: (&str, &str),
) -> Result<(Array, Array)> {
    let dev = device_of(i, &[&a, &b]);
    Ok((
        data_on(i, a, dev, name, what.0)?,
        data_on(i, b, dev, name, what.1)?,
    ))
}

/// min and max of an int array, read back (one sync).
pub(crate) fn min_max(i: &mut Interp, span: Span, x: &Array) -> Result<(i64, i64)> {
    let lo = arr(i, span, "min", vec![x.clone().into()], vec![])?.to_vec::<i64>()?[0];
    let hi = arr(i, span, "max", vec![x.clone().into()], vec![])?.to_vec::<i64>()?[0];
    Ok((lo, hi))
}
