//! NumPy's `order=` of `reshape`, `ravel` and `flatten`: "C" (row-major,
//! gcalc's layout) or "F" (column-major, Fortran's). An "F" call is composed
//! of taped `transpose`/`reshape`/`ravel` calls, so `grad` follows it.

use super::npmath_calc::c;
use super::stats::call_op;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::OpDef;
use crate::value::Value;

/// The ops that take `order=`.
const ORDER_OPS: [&str; 3] = ["reshape", "ravel", "flatten"];

/// Whether `args` ask `def` for column-major order (the call is then made
/// of taped calls, not recorded as one op).
pub(crate) fn composed(def: &OpDef, args: &Args) -> bool {
    let f = |v: &Value| matches!(v, Value::Str(s) if is_f(s));
    ORDER_OPS.contains(&def.name)
        && (args.kw.iter().any(|(k, v)| k.as_str() == "order" && f(v))
            || args.pos.iter().skip(1).any(f))
}

fn is_f(s: &str) -> bool {
    s.eq_ignore_ascii_case("F")
}

/// Reads `order=` of `op`: true for "F"; "C", "A" and "K" read in C order
/// (gcalc's arrays are row-major, so "A" and "K" mean "C" for them).
pub(crate) fn fortran(order: Option<Value>, op: &str) -> Result<bool> {
    match order {
        None | Some(Value::None) => Ok(false),
        Some(Value::Str(s)) if is_f(&s) => Ok(true),
        Some(Value::Str(s)) if ["C", "c", "A", "a", "K", "k"].contains(&&*s) => Ok(false),
        Some(v) => Err(Error::value(format!(
            "{op}: order must be \"C\", \"F\", \"A\" or \"K\", got {}",
            match &v {
                Value::Str(s) => format!("\"{s}\""),
                v => v.a_type_name().to_string(),
            }
        ))
        .with_help(format!(
            "{op}(..., order=\"F\") reads and writes in column-major order"
        ))),
    }
}

/// `x.ravel(order="F")` / `x.flatten(order="F")`: the elements in column-major
/// order (`op` is "ravel" or "flatten").
pub(crate) fn flat_f(i: &mut Interp, op: &str, x: Value) -> Result<Value> {
    let t = c(i, "transpose", vec![x])?;
    c(i, op, vec![t])
}

/// `reshape(x, shape, order="F")`: x read and the result filled in
/// column-major order, i.e. `reshape(x.T, shape[::-1]).T`.
pub(crate) fn reshape_f(i: &mut Interp, x: Value, shape: Vec<i64>) -> Result<Value> {
    let t = c(i, "transpose", vec![x])?;
    let rev = Value::tuple(shape.into_iter().rev().map(Value::Int).collect());
    let r = call_op(i, "reshape", vec![t, rev], vec![])?;
    c(i, "transpose", vec![r])
}
