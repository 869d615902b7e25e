//! `average cov corrcoef`: written as NumPy writes them, out of other ops
//! of the table (sum, mean, matmul, sqrt, clip...) called through the
//! interpreter, so they run on every device and, under `grad`, each step is
//! recorded on the tape: their gradients are the composition's (no rule of
//! their own). Argument checks and dtype rules are NumPy 2's.

use super::creation::op;
use super::stat_args as sa;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "average",
        "average(x, axis=none, weights=none, returned=false, keepdims=false)",
        "The weighted mean sum(x * w) / sum(w) along axis (an int, a tuple, or none for all); without weights, mean(x). 1-D weights along a single axis are allowed; returned=true also gives sum(w). Ints and bools give float64. Weights summing to 0 are an error (as NumPy's ZeroDivisionError; this reads one bool back from the device).",
        false,
        average
    ),
    op!(
        "cov",
        "cov(m, y=none, rowvar=true, bias=false, ddof=none, dtype=none)",
        "The covariance matrix of the variables in m's rows (columns when rowvar=false), y's variables appended; divides by n - 1 (n when bias=true, n - ddof when ddof is given). At least float64 (NumPy's rule) unless dtype= names the dtype to compute in; one variable gives a 0-d array.",
        false,
        cov
    ),
    op!(
        "corrcoef",
        "corrcoef(x, y=none, rowvar=true, dtype=none)",
        "Pearson correlation coefficients: cov(x, y, rowvar) divided by the products of the standard deviations, clipped to [-1, 1].",
        false,
        corrcoef
    ),
];

/// Calls op `name` of the table through the interpreter (taped under grad).
pub(crate) fn call_op(
    i: &mut Interp,
    name: &str,
    pos: Vec<Value>,
    kw: Vec<(&str, Value)>,
) -> Result<Value> {
    let def = crate::ops::lookup(name)
        .ok_or_else(|| Error::internal(format!("stats: op {name} missing from the table")))?;
    let kw = kw.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    // An inner call has no place in the source: its error takes the
    // user's call's (the caller's `at`), not the start of the file.
    i.call_value(Value::Builtin(def), pos, kw, Span::default())
        .map_err(|mut e| {
            if e.span == Some(Span::default()) {
                e.span = None;
            }
            e
        })
}

pub(crate) fn arr(v: Value, name: &str) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        v => Err(Error::internal(format!(
            "{name}: expected an array, got {}",
            v.a_type_name()
        ))),
    }
}

fn astype(i: &mut Interp, x: &Array, d: DType) -> Result<Value> {
    if x.dtype() == d {
        return Ok(Value::Array(x.clone()));
    }
    call_op(
        i,
        "astype",
        vec![Value::Array(x.clone()), Value::Str(d.name().into())],
        vec![],
    )
}

fn average(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "average";
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?.unwrap_or(Value::None);
    let weights = a.opt("weights")?.unwrap_or(Value::None);
    let returned = sa::flag(a.opt("returned")?, "returned", name, false)?;
    let keepdims = sa::flag(a.opt("keepdims")?, "keepdims", name, false)?;
    a.finish_with(&["axis", "weights", "returned", "keepdims"])?;
    let kd = Value::Bool(keepdims);
    if matches!(weights, Value::None) {
        let avg = call_op(
            i,
            "mean",
            vec![Value::Array(x.clone())],
            vec![("axis", axis.clone()), ("keepdims", kd)],
        )?;
        let avg_a = arr(avg.clone(), name)?;
        if avg_a.size() == 0 {
            // NumPy divides a.size by the result's size here.
            return Err(Error::new(
                crate::error::ErrorKind::ZeroDivision,
                format!(
                    "{name}: the average over an empty result (shape {:?})",
                    avg_a.shape()
                ),
            )
            .with_op(name)
            .with_help("average along an axis that leaves elements"));
        }
        if !returned {
            return Ok(avg);
        }
        let n = x.size() / avg_a.size();
        let scl = Array::full(
            avg_a.shape(),
            crate::array::Scalar::Float(n as f64),
            avg_a.dtype(),
            avg_a.device(),
        )?;
        return Ok(Value::tuple(vec![avg, Value::Array(scl)]));
    }
    let w = sa::on_device_of(i, weights, &x, name, "weights")?;
    // NumPy: result_type(x, w), and at least float64 for int or bool x.
    let rd = match crate::dtype::promote(x.dtype(), w.dtype()) {
        d if d.is_float() && x.dtype().is_float() => d,
        _ => DType::Float64,
    };
    let mut w = w;
    if w.shape() != x.shape() {
        let nd = x.ndim();
        let ax = match &axis {
            Value::None => {
                return Err(Error::type_(format!(
                    "{name}: weights of shape {:?} need an axis for x of shape {:?}",
                    w.shape(),
                    x.shape()
                ))
                .with_op(name)
                .with_help("give axis=, or weights of x's shape"));
            }
            Value::Int(k) => crate::array::shape_ops::norm_axis(*k, nd, name)?,
            _ => {
                return Err(
                    Error::value(format!("{name}: 1-D weights go with one axis (an int)"))
                        .with_op(name),
                );
            }
        };
        if w.shape() != [x.shape()[ax]] {
            return Err(Error::value(format!(
                "{name}: weights of shape {:?} do not match x's axis {ax} of length {}",
                w.shape(),
                x.shape()[ax]
            ))
            .with_op(name)
            .with_help("weights must have x's shape, or be 1-D along axis"));
        }
        let s: Vec<i64> = (0..nd)
            .map(|d| if d == ax { x.shape()[ax] as i64 } else { 1 })
            .collect();
        w = arr(
            call_op(i, "reshape", vec![Value::Array(w), shape_value(&s)], vec![])?,
            name,
        )?;
    }
    let xf = astype(i, &x, rd)?;
    let wf = astype(i, &w, rd)?;
    let scl = call_op(
        i,
        "sum",
        vec![wf.clone()],
        vec![("axis", axis.clone()), ("keepdims", kd.clone())],
    )?;
    let scl_a = arr(scl.clone(), name)?;
    // One bool read back: whether any weight sum is 0 (NumPy raises then).
    let any_zero = if scl_a.size() == 0 {
        vec![]
    } else {
        let zeros = call_op(
            i,
            "equal",
            vec![Value::Array(scl_a.clone()), Value::Float(0.0)],
            vec![],
        )?;
        let any = call_op(i, "max", vec![zeros], vec![])?;
        arr(any, name)?.to_host()?.to_f64_vec()?
    };
    if any_zero.iter().any(|&v| v != 0.0) {
        return Err(Error::new(
            crate::error::ErrorKind::ZeroDivision,
            format!("{name}: weights sum to zero, can't be normalized"),
        )
        .with_op(name)
        .with_help("give weights with a nonzero sum along axis"));
    }
    let prod = call_op(i, "multiply", vec![xf, wf], vec![])?;
    let num = call_op(i, "sum", vec![prod], vec![("axis", axis), ("keepdims", kd)])?;
    let avg = call_op(i, "divide", vec![num, scl.clone()], vec![])?;
    if !returned {
        return Ok(avg);
    }
    let avg_a = arr(avg.clone(), name)?;
    let scl = call_op(
        i,
        "broadcast_to",
        vec![
            scl,
            shape_value(&avg_a.shape().iter().map(|&d| d as i64).collect::<Vec<_>>()),
        ],
        vec![],
    )?;
    Ok(Value::tuple(vec![avg, scl]))
}

fn shape_value(s: &[i64]) -> Value {
    Value::tuple(s.iter().map(|&d| Value::Int(d)).collect())
}

/// NumPy's cov: the variables as rows (float64 at least), centred, X X^T / (n - ddof).
fn cov_of(
    i: &mut Interp,
    name: &str,
    m: Value,
    y: Value,
    (rowvar, bias, ddof): (bool, bool, Option<i64>),
    dtype: Option<DType>,
) -> Result<Value> {
    let as_rows = |i: &mut Interp, v: Value, what: &str| -> Result<Array> {
        let x = sa::data(i, v, name)?;
        let was_1d = x.ndim() == 1;
        if x.ndim() > 2 {
            return Err(Error::value(format!(
                "{name}: {what} has {} dimensions; at most 2 (variables x observations)",
                x.ndim()
            ))
            .with_op(name)
            .with_help("reshape it to 2-D"));
        }
        // NumPy: result_type(m, float64), float64 for every real dtype,
        // unless dtype= names one.
        let x = arr(astype(i, &x, dtype.unwrap_or(DType::Float64))?, name)?;
        let x = if x.ndim() < 2 {
            let n = x.size() as i64;
            arr(
                call_op(
                    i,
                    "reshape",
                    vec![Value::Array(x), shape_value(&[1, n])],
                    vec![],
                )?,
                name,
            )?
        } else {
            x
        };
        let x = if !rowvar && !was_1d {
            arr(
                call_op(i, "transpose", vec![Value::Array(x)], vec![])?,
                name,
            )?
        } else {
            x
        };
        Ok(x)
    };
    let mut x = as_rows(i, m, "m")?;
    if !matches!(y, Value::None) {
        let y = as_rows(i, y, "y")?;
        if y.device() != x.device() {
            return Err(Error::device_mismatch(name, x.device(), y.device()));
        }
        if y.shape()[1] != x.shape()[1] {
            return Err(Error::shape(
                name,
                format!(
                    "{name}: m has {} observations, y has {}",
                    x.shape()[1],
                    y.shape()[1]
                ),
            )
            .with_help("both need the same number of observations"));
        }
        x = arr(
            call_op(
                i,
                "concat",
                vec![Value::list(vec![Value::Array(x), Value::Array(y)])],
                vec![("axis", Value::Int(0))],
            )?,
            name,
        )?;
    }
    if x.shape()[0] == 0 {
        return Ok(Value::Array(Array::full(
            &[0, 0],
            crate::array::Scalar::Float(0.0),
            DType::Float64,
            x.device(),
        )?));
    }
    let ddof = ddof.unwrap_or(if bias { 0 } else { 1 });
    let fact = (x.shape()[1] as i64 - ddof).max(0) as f64;
    let xv = Value::Array(x);
    let avg = call_op(
        i,
        "mean",
        vec![xv.clone()],
        vec![("axis", Value::Int(1)), ("keepdims", Value::Bool(true))],
    )?;
    let xc = call_op(i, "subtract", vec![xv, avg], vec![])?;
    let xt = call_op(i, "transpose", vec![xc.clone()], vec![])?;
    let c = call_op(i, "matmul", vec![xc, xt], vec![])?;
    let c = call_op(i, "multiply", vec![c, Value::Float(1.0 / fact)], vec![])?;
    call_op(i, "squeeze", vec![c], vec![])
}

fn cov(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "cov";
    let m = a.req("m")?;
    let y = a.opt("y")?.unwrap_or(Value::None);
    let rowvar = sa::flag(a.opt("rowvar")?, "rowvar", name, true)?;
    let bias = sa::flag(a.opt("bias")?, "bias", name, false)?;
    let ddof = match a.opt("ddof")? {
        None | Some(Value::None) => None,
        Some(v) => Some(sa::int(&v, "ddof", name)?),
    };
    let dtype = dtype_opt(a.opt("dtype")?)?;
    a.finish_with(&["y", "rowvar", "bias", "ddof", "dtype"])?;
    cov_of(i, name, m, y, (rowvar, bias, ddof), dtype)
}

fn corrcoef(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "corrcoef";
    let x = a.req("x")?;
    let y = a.opt("y")?.unwrap_or(Value::None);
    let rowvar = sa::flag(a.opt("rowvar")?, "rowvar", name, true)?;
    let dtype = dtype_opt(a.opt("dtype")?)?;
    a.finish_with(&["y", "rowvar", "dtype"])?;
    let c = cov_of(i, name, x, y, (rowvar, false, None), dtype)?;
    let ca = arr(c.clone(), name)?;
    if ca.ndim() == 0 {
        // One variable: c / c (1, or NaN for a constant one), as NumPy.
        return call_op(i, "divide", vec![c.clone(), c], vec![]);
    }
    // The diagonal: sum(c * eye(k), axis=1) (exact: one term per row).
    let k = ca.shape()[0] as i64;
    let eye = call_op(
        i,
        "eye",
        vec![Value::Int(k)],
        vec![
            ("dtype", Value::Str("float64".into())),
            ("device", Value::Device(ca.device())),
        ],
    )?;
    let prod = call_op(i, "multiply", vec![c.clone(), eye], vec![])?;
    let d = call_op(i, "sum", vec![prod], vec![("axis", Value::Int(1))])?;
    let sd = call_op(i, "sqrt", vec![d], vec![])?;
    let col = call_op(i, "reshape", vec![sd.clone(), shape_value(&[k, 1])], vec![])?;
    let row = call_op(i, "reshape", vec![sd, shape_value(&[1, k])], vec![])?;
    let c = call_op(i, "divide", vec![c, col], vec![])?;
    let c = call_op(i, "divide", vec![c, row], vec![])?;
    call_op(
        i,
        "clip",
        vec![c, Value::Float(-1.0), Value::Float(1.0)],
        vec![],
    )
}

/// An optional `dtype=` argument (`none` = the function's default).
fn dtype_opt(v: Option<Value>) -> Result<Option<DType>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(d) => super::creation::dtype_arg(&d).map(Some),
    }
}
