//! What the linear-algebra entries share: their dtype rule (NumPy's, with
//! gcalc's floatX for ints), the shape checks NumPy's `LinAlgError` makes
//! (at least 2-d, square), the NaN/inf check of the iterative solvers, and
//! argument readers (bools, strings, arrays).

use super::creation::array_arg;
use super::fuse::{self, Operand};
use crate::array::{Array, layout::fmt_shape};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::opid::ReduceOp;
use crate::value::Value;

/// The dtype LAPACK-style functions compute in: float32 and float64 as
/// given (promoted together), ints and bools in floatX (NumPy: float64);
/// float16 is an error, as in NumPy.
pub fn lapack_dtype(op: &str, arrays: &[&Array], float_x: DType) -> Result<DType> {
    let mut dt: Option<DType> = None;
    for a in arrays {
        let d = match a.dtype() {
            DType::Float16 => {
                return Err(Error::dtype(
                    op,
                    format!(
                        "{op}: array type float16 is unsupported in linear algebra (as in NumPy)"
                    ),
                )
                .with_help("convert first: x.astype(float32)"));
            }
            d if d.is_float() => d,
            _ => float_x,
        };
        dt = Some(match dt {
            None => d,
            Some(p) => crate::dtype::promote(p, d),
        });
    }
    Ok(dt.unwrap_or(float_x))
}

/// `a` in dtype `dt` (itself when it already is).
pub fn as_dtype(a: &Array, dt: DType) -> Result<Array> {
    if a.dtype() == dt {
        Ok(a.clone())
    } else {
        crate::backend::copy::cast(a, dt)
    }
}

/// An array argument (lists and numbers are made arrays).
pub fn arr(i: &Interp, v: &Value) -> Result<Array> {
    array_arg(i, v)
}

/// NumPy's "at least two-dimensional" check.
pub fn at_least_2d(op: &str, a: &Array) -> Result<()> {
    if a.ndim() < 2 {
        return Err(Error::shape(
            op,
            format!(
                "{op}: {}-dimensional array given (shape {}); the array must be at least two-dimensional",
                a.ndim(),
                fmt_shape(a.shape())
            ),
        )
        .with_help("a matrix has shape (n, m); a stack of matrices (..., n, m)"));
    }
    Ok(())
}

/// NumPy's "Last 2 dimensions of the array must be square" check (after `at_least_2d`).
pub fn square(op: &str, a: &Array) -> Result<usize> {
    at_least_2d(op, a)?;
    let nd = a.ndim();
    let (r, c) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    if r != c {
        return Err(Error::shape(
            op,
            format!(
                "{op}: the last 2 dimensions of the array must be square, got shape {} ({r}x{c})",
                fmt_shape(a.shape())
            ),
        )
        .with_help("for a non-square matrix use lstsq (least squares) or pinv (pseudo-inverse)"));
    }
    Ok(r)
}

/// The iterative solvers (SVD, eigh) do not converge on NaN or inf, and
/// NumPy raises LinAlgError for them: a clear error first (one reduction;
/// on a GPU one sync to read it).
pub fn check_finite(op: &str, a: &Array, float_x: DType) -> Result<()> {
    if reduce_test(a, "isfinite", ReduceOp::All, float_x)? {
        return Ok(());
    }
    Err(Error::value(format!(
        "{op}: the input (shape {}) holds NaN or infinity, on which the decomposition does not converge (NumPy raises LinAlgError)",
        fmt_shape(a.shape())
    ))
    .with_op(op)
    .with_help(NAN_HELP))
}

/// How to go on from NaN or inf in a decomposition's input.
pub const NAN_HELP: &str = "find them with isnan(x) / isfinite(x) and replace or drop them";

/// Whether any element of `a` is NaN (one reduction; on a GPU one sync).
pub fn any_nan(a: &Array, float_x: DType) -> Result<bool> {
    reduce_test(a, "isnan", ReduceOp::Any, float_x)
}

/// `op` (All or Any) of the elementwise `test` of `a`, read back as a bool
/// (one reduction; on a GPU one sync); an empty `a` gives `op`'s identity.
fn reduce_test(a: &Array, test: &str, op: ReduceOp, float_x: DType) -> Result<bool> {
    let empty = matches!(op, ReduceOp::All);
    if a.size() == 0 {
        return Ok(empty);
    }
    let t = match fuse::apply(test, vec![Operand::Array(a.clone())], float_x)? {
        Operand::Array(f) => f,
        _ => return Ok(empty),
    };
    let r = super::reduce::reduce(op, &t, None, false, float_x)?;
    Ok(matches!(r.item()?, Value::Bool(true)))
}

/// A `true`/`false` argument.
pub fn bool_arg(op: &str, name: &str, v: Option<Value>, default: bool) -> Result<bool> {
    super::stat_args::flag_with(v, default, |v| {
        Error::type_(format!(
            "{op}: {name} must be true or false, got {}",
            v.a_type_name()
        ))
        .with_op(op)
    })
}

/// A string argument (one of `choices`).
pub fn choice_arg(
    op: &str,
    name: &str,
    v: Option<Value>,
    default: &'static str,
    choices: &[&'static str],
) -> Result<&'static str> {
    let s = match v {
        None => return Ok(default),
        Some(Value::Str(s)) => s,
        Some(v) => {
            return Err(Error::type_(format!(
                "{op}: {name} must be a string, got {}",
                v.a_type_name()
            ))
            .with_op(op)
            .with_help(format!("one of: {}", quoted(choices))));
        }
    };
    choices.iter().copied().find(|c| **c == *s).ok_or_else(|| {
        Error::value(format!("{op}: unknown {name} \"{s}\""))
            .with_op(op)
            .with_help(format!("one of: {}", quoted(choices)))
    })
}

fn quoted(choices: &[&str]) -> String {
    choices
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Arrays on one device, or the mismatch error naming both.
pub fn same_device(op: &str, a: &Array, b: &Array) -> Result<()> {
    if a.device() != b.device() {
        return Err(Error::device_mismatch(op, a.device(), b.device()));
    }
    Ok(())
}
