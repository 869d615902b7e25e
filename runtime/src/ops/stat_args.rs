//! Argument readers shared by the scans, the statistics and the histogram
//! entries: the data argument (an array, a number or a list), one axis, a
//! flag, a float, and a second array argument (weights, quantiles, bins)
//! that must live where the data does. Errors name the function, the
//! argument and the fix.

use crate::array::{Array, create::value_to_array};
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::value::Value;

/// The data argument: arrays as they are; numbers and (nested) lists made
/// into arrays (ints int64, floats floatX, as `array()` makes them).
pub fn data(i: &Interp, v: Value, name: &str) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        Value::Int(_)
        | Value::Float(_)
        | Value::Complex(..)
        | Value::Bool(_)
        | Value::List(_)
        | Value::Tuple(_)
        | Value::Range(..) => value_to_array(&v, None, i.float_x()).map_err(|e| e.with_op(name)),
        v => Err(
            Error::type_(format!("{name}() needs an array, got {}", v.a_type_name()))
                .with_op(name)
                .with_help("make one with array([...])"),
        ),
    }
}

/// A second array argument `what` of `name` on `like`'s device: an array
/// must already be there (else a device error naming both); numbers and
/// lists are made into arrays and put there (they are literals).
pub fn on_device_of(i: &Interp, v: Value, like: &Array, name: &str, what: &str) -> Result<Array> {
    match v {
        Value::Array(a) if a.device() != like.device() => {
            Err(Error::device_mismatch(name, like.device(), a.device())
                .with_help(format!("move `{what}` with .to({})", like.device())))
        }
        Value::Array(a) => Ok(a),
        v => {
            let a = data(i, v, name).map_err(|e| {
                let m = format!("{what}: {}", e.message);
                Error::new(e.kind, m).with_op(name)
            })?;
            crate::backend::to_device(&a, like.device())
        }
    }
}

/// An axis of an array of `nd` dimensions, negative ones counted from the
/// end; `none` (or nothing) gives None.
pub fn axis(v: Option<Value>, nd: usize, name: &str) -> Result<Option<usize>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => {
            let k = axis_int(&v, name)?;
            crate::array::shape_ops::norm_axis(k, nd, name).map(Some)
        }
    }
}

/// An axis that must be given (a default applied by the caller).
pub fn axis_int(v: &Value, name: &str) -> Result<i64> {
    match index_of(v) {
        Some(k) => Ok(k),
        None => Err(Error::type_(format!(
            "{name}: axis must be an int or none, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("e.g. axis=-1")),
    }
}

/// An int as NumPy's `operator.index` reads one: a Python int or a 0-d
/// integer array (gcalc's stand-in for a NumPy integer scalar, e.g. the
/// result of `sum` or of indexing). Bools and other values give None.
pub fn index_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(k) => Some(*k),
        Value::Array(a) if a.ndim() == 0 && a.dtype().is_int() => {
            a.to_vec::<i64>().ok().map(|v| v[0])
        }
        _ => None,
    }
}

/// A real number as NumPy's `float()` reads one: an int, a float, or a 0-d
/// real (int, float or bool) array. Other values give None.
pub fn number_of(v: &Value) -> Option<f64> {
    match v {
        Value::Int(k) => Some(*k as f64),
        Value::Float(f) => Some(*f),
        Value::Array(a) if a.ndim() == 0 && !a.dtype().is_complex() => {
            a.to_vec::<f64>().ok().map(|v| v[0])
        }
        _ => None,
    }
}

/// A true/false argument `what` (default `default`).
pub fn flag(v: Option<Value>, what: &str, name: &str, default: bool) -> Result<bool> {
    flag_with(v, default, |v| {
        Error::type_(format!(
            "{name}: {what} must be true or false, got {}",
            v.a_type_name()
        ))
        .with_op(name)
    })
}

/// `v` read as a flag by `truth` (`default` when absent), else the error
/// `bad` builds: every flag parser's one path, each keeping its message.
pub fn flag_with(
    v: Option<Value>,
    default: bool,
    bad: impl FnOnce(&Value) -> Error,
) -> Result<bool> {
    match v {
        None => Ok(default),
        Some(v) => truth(&v).ok_or_else(|| bad(&v)),
    }
}

/// A flag's value as Python reads it: a bool, an int (NumPy takes
/// `keepdims=1`, `rowvar=0`), or a one-element bool or int array.
pub fn truth(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Int(k) => Some(*k != 0),
        Value::Array(a) if a.size() == 1 && (a.dtype().is_bool() || a.dtype().is_int()) => {
            a.to_vec::<i64>().ok()?.first().map(|&k| k != 0)
        }
        _ => None,
    }
}

/// An integer argument `what`.
pub fn int(v: &Value, what: &str, name: &str) -> Result<i64> {
    crate::builtins::lang::int_arg(v, what).map_err(|e| e.with_op(name))
}

/// A number argument `what` (ints, floats, one-element arrays).
pub fn float(v: &Value, what: &str, name: &str) -> Result<f64> {
    crate::builtins::lang::float_arg(v, what).map_err(|e| e.with_op(name))
}

/// `shape` with the length along `axis` replaced by `len`.
pub fn with_len(shape: &[usize], axis: usize, len: usize) -> Vec<usize> {
    let mut s = shape.to_vec();
    s[axis] = len;
    s
}
