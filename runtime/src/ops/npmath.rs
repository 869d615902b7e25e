//! NumPy's comparison helpers and float decompositions, written as NumPy
//! writes them out of other ops of the table (so they run on every device
//! and, under `grad`, each step is taped): `isclose array_equal
//! array_equiv isscalar`, `around` (also `round(x, decimals)`), `float_power`,
//! `divmod modf frexp`. Dtypes are NumPy 2's with gcalc's floatX rule for
//! float functions of ints.

use super::creation::op;
use super::fuse::{EwNode, Operand, operand};
use super::stat_args as sa;
use super::stats::{arr, call_op};
use crate::autodiff::ewb::{E, c, call};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "isclose",
        "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)",
        "Elementwise |a - b| <= atol + rtol * |b| (not symmetric: b is the reference), giving bool; equal infinities are close, nan is close to nan only with equal_nan=true. Integer b is compared as float64. One fused pass.",
        false,
        isclose
    ),
    op!(
        "array_equal",
        "array_equal(a1, a2, equal_nan=false)",
        "true if a1 and a2 have the same shape and elements (a bool, read back from the device); equal_nan=true counts nan == nan.",
        false,
        array_equal
    ),
    op!(
        "array_equiv",
        "array_equiv(a1, a2)",
        "true if a1 and a2 broadcast to one shape and are equal elementwise there (false when they do not broadcast).",
        false,
        array_equiv
    ),
    op!(
        "isscalar",
        "isscalar(element)",
        "true for a number, a bool or a string (Python's scalars); false for arrays (0-d ones too, as NumPy's), lists and everything else.",
        false,
        isscalar
    ),
    op!(
        "around",
        "around(x, decimals=0)",
        "Round to `decimals` decimal places, halves to even, as NumPy's round: x * 10**decimals rounded then divided (negative decimals round to tens, hundreds...). Ints are kept (rounded to tens... for negative decimals). round(x, decimals) is the same.",
        false,
        around
    ),
    op!(
        "float_power",
        "float_power(x, y)",
        "x ** y computed in float64 (float64 result whatever the inputs, as NumPy's float_power): negative ints to negative powers work.",
        false,
        float_power
    ),
    op!(
        "divmod",
        "divmod(x, y)",
        "The tuple (floor_divide(x, y), mod(x, y)), as Python's and NumPy's divmod.",
        false,
        divmod
    ),
    op!(
        "modf",
        "modf(x)",
        "The tuple (fractional part, integral part) of x, both with x's sign (modf(-3.5) is (-0.5, -3.0); inf gives (0.0, inf)); ints give floatX.",
        false,
        modf
    ),
    op!(
        "frexp",
        "frexp(x)",
        "The tuple (mantissa, exponent) with x == mantissa * 2**exponent and 0.5 <= |mantissa| < 1; the exponent is int32; 0, inf and nan give (x, 0). Inverse: ldexp.",
        false,
        frexp
    ),
];

fn leaf(o: Operand) -> E {
    E(Some(EwNode::Leaf(o)))
}

fn eval(i: &mut Interp, t: E, name: &str) -> Result<Value> {
    let tree =
        t.0.ok_or_else(|| Error::internal(format!("{name}: an op is missing")))?;
    Ok(i.eval_tree(tree)?.into_value())
}

/// An argument as an elementwise operand: numbers stay weak scalars, lists
/// become arrays.
fn ew_arg(i: &Interp, v: Value, name: &str) -> Result<Operand> {
    match v {
        Value::List(_) | Value::Tuple(_) => Ok(Operand::Array(sa::data(i, v, name)?)),
        v => operand(&v).map_err(|e| e.with_op(name)),
    }
}

fn isclose(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "isclose";
    let x = ew_arg(i, a.req("a")?, name)?;
    let y = ew_arg(i, a.req("b")?, name)?;
    let rtol = ew_arg(i, a.opt("rtol")?.unwrap_or(Value::Float(1e-5)), name)?;
    let atol = ew_arg(i, a.opt("atol")?.unwrap_or(Value::Float(1e-8)), name)?;
    let equal_nan = sa::flag(a.opt("equal_nan")?, "equal_nan", name, false)?;
    a.finish_with(&["rtol", "atol", "equal_nan"])?;
    // NumPy: y = asarray(y, dtype=result_type(y, 1.0)): integer b as float64.
    let y = match y {
        Operand::Array(b) if !b.dtype().is_float() => {
            Operand::Array(crate::backend::copy::cast(&b, DType::Float64)?)
        }
        Operand::Int(k) => Operand::Float(k as f64),
        Operand::Bool(t) => Operand::Float(t as u8 as f64),
        y => y,
    };
    let (xe, ye) = (leaf(x), leaf(y));
    let diff = call("abs", [xe.clone() - ye.clone()]);
    let bound = leaf(atol) + leaf(rtol) * call("abs", [ye.clone()]);
    let close = call(
        "logical_and",
        [
            call("less_equal", [diff, bound]),
            call("isfinite", [ye.clone()]),
        ],
    );
    let mut r = call(
        "logical_or",
        [close, call("equal", [xe.clone(), ye.clone()])],
    );
    if equal_nan {
        let both = call("logical_and", [call("isnan", [xe]), call("isnan", [ye])]);
        r = call("logical_or", [r, both]);
    }
    eval(i, r, name)
}

/// Both arguments as arrays on one device.
fn pair(
    i: &mut Interp,
    a: Value,
    b: Value,
    name: &str,
) -> Result<(Value, Value, Vec<usize>, Vec<usize>)> {
    let x = sa::data(i, a, name)?;
    let y = sa::on_device_of(i, b, &x, name, "a2")?;
    let (sx, sy) = (x.shape().to_vec(), y.shape().to_vec());
    Ok((Value::Array(x), Value::Array(y), sx, sy))
}

/// `all(x == y)` (nan == nan too when `equal_nan`), read back as a bool.
fn all_equal(i: &mut Interp, x: Value, y: Value, equal_nan: bool, name: &str) -> Result<bool> {
    let (xe, ye) = (leaf(operand(&x)?), leaf(operand(&y)?));
    let mut t = call("equal", [xe.clone(), ye.clone()]);
    if equal_nan {
        let both = call("logical_and", [call("isnan", [xe]), call("isnan", [ye])]);
        t = call("logical_or", [t, both]);
    }
    let eq = eval(i, t, name)?;
    let all = arr(call_op(i, "all", vec![eq], vec![])?, name)?;
    Ok(all.to_f64_vec()?.first().is_some_and(|&v| v != 0.0))
}

fn array_equal(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "array_equal";
    let (x, y) = (a.req("a1")?, a.req("a2")?);
    let equal_nan = sa::flag(a.opt("equal_nan")?, "equal_nan", name, false)?;
    a.finish_with(&["equal_nan"])?;
    let (x, y, sx, sy) = pair(i, x, y, name)?;
    if sx != sy {
        return Ok(Value::Bool(false));
    }
    Ok(Value::Bool(all_equal(i, x, y, equal_nan, name)?))
}

fn array_equiv(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "array_equiv";
    let (x, y) = (a.req("a1")?, a.req("a2")?);
    a.finish()?;
    let (x, y, sx, sy) = pair(i, x, y, name)?;
    if crate::array::layout::broadcast_shapes(&sx, &sy, name).is_err() {
        return Ok(Value::Bool(false));
    }
    Ok(Value::Bool(all_equal(i, x, y, false, name)?))
}

fn isscalar(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.req("element")?;
    a.finish()?;
    Ok(Value::Bool(matches!(
        v,
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Str(_)
    )))
}

/// `round` called with two arguments: of a Python number, Python's
/// `round(x, ndigits)` (exact, halves to even: `round(2.675, 2)` is 2.67);
/// of an array, NumPy's `around` (scaled: 2.68).
pub(crate) fn round_digits(i: &mut Interp, a: Args) -> Result<Value> {
    if let [x, d] = &a.pos[..]
        && a.kw.is_empty()
    {
        match *x {
            Value::Float(v) => {
                let nd = sa::int(d, "ndigits", a.name)?;
                return Ok(Value::Float(super::py_scalar::round_float_digits(v, nd)?));
            }
            Value::Int(k) => {
                let nd = sa::int(d, "ndigits", a.name)?;
                return Ok(Value::Int(super::py_scalar::round_int_digits(k, nd)?));
            }
            _ => {}
        }
    }
    around(i, a)
}

/// `around(x, decimals=0)`; also `round` called with two arguments.
pub(crate) fn around(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let x = a.req("x")?;
    let decimals = match a.opt("decimals")? {
        None | Some(Value::None) => 0,
        Some(v) => sa::int(&v, "decimals", name)?,
    };
    a.finish_with(&["decimals"])?;
    let x = match x {
        v @ (Value::List(_) | Value::Tuple(_)) => Value::Array(sa::data(i, v, name)?),
        v => v,
    };
    let int_dtype = match &x {
        Value::Array(arr) if matches!(arr.dtype(), DType::Int32 | DType::Int64) => {
            Some(arr.dtype())
        }
        _ => None,
    };
    // Python numbers: NumPy's steps in float64 here (Python ints stay ints).
    let scale = |v: f64| -> f64 {
        let f = 10f64.powi(decimals.clamp(-400, 400).unsigned_abs() as i32);
        if decimals >= 0 {
            (v * f).round_ties_even() / f
        } else {
            (v / f).round_ties_even() * f
        }
    };
    match x {
        Value::Float(v) => return Ok(Value::Float(scale(v))),
        Value::Int(k) if decimals < 0 => return Ok(Value::Int(scale(k as f64) as i64)),
        Value::Int(k) => return Ok(Value::Int(k)),
        _ => {}
    }
    if decimals == 0 || (int_dtype.is_some() && decimals > 0) {
        return call_op(i, "round", vec![x], vec![]);
    }
    if decimals.abs() > 400 {
        return Err(
            Error::value(format!("{name}: decimals={decimals} is out of range"))
                .with_op(name)
                .with_help("give decimals between -400 and 400"),
        );
    }
    // NumPy: ints round in float64 and are cast back.
    let xf = match int_dtype {
        Some(_) => call_op(i, "astype", vec![x, Value::str("float64")], vec![])?,
        None => x,
    };
    let f = Value::Float(10f64.powi(decimals.unsigned_abs() as i32));
    let (first, second) = if decimals >= 0 {
        ("multiply", "divide")
    } else {
        ("divide", "multiply")
    };
    let y = call_op(i, first, vec![xf, f.clone()], vec![])?;
    let y = call_op(i, "round", vec![y], vec![])?;
    let y = call_op(i, second, vec![y, f], vec![])?;
    match int_dtype {
        Some(d) => call_op(i, "astype", vec![y, Value::str(d.name())], vec![]),
        None => Ok(y),
    }
}

/// A float64 form of an argument: arrays cast (taped), numbers as floats.
fn to_f64(i: &mut Interp, v: Value, name: &str) -> Result<Value> {
    match v {
        Value::Int(k) => Ok(Value::Float(k as f64)),
        Value::Bool(b) => Ok(Value::Float(b as u8 as f64)),
        Value::Float(f) => Ok(Value::Float(f)),
        v => {
            let x = sa::data(i, v, name)?;
            if x.dtype() == DType::Float64 {
                return Ok(Value::Array(x));
            }
            call_op(
                i,
                "astype",
                vec![Value::Array(x), Value::str("float64")],
                vec![],
            )
        }
    }
}

fn float_power(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "float_power";
    let (x, y) = (a.req("x")?, a.req("y")?);
    a.finish()?;
    let x = to_f64(i, x, name)?;
    let y = to_f64(i, y, name)?;
    call_op(i, "power", vec![x, y], vec![])
}

fn divmod(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (x, y) = (a.req("x")?, a.req("y")?);
    a.finish()?;
    let q = call_op(i, "floor_divide", vec![x.clone(), y.clone()], vec![])?;
    let r = call_op(i, "mod", vec![x, y], vec![])?;
    Ok(Value::tuple(vec![q, r]))
}

/// x as a float array (ints and bools as floatX, numbers as weak floats).
fn float_arg(i: &mut Interp, v: Value, name: &str) -> Result<Value> {
    match v {
        Value::Int(k) => Ok(Value::Float(k as f64)),
        Value::Bool(b) => Ok(Value::Float(b as u8 as f64)),
        Value::Float(f) => Ok(Value::Float(f)),
        v => super::npmath_calc::floaty(i, v, name),
    }
}

fn modf(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "modf";
    let x = a.req("x")?;
    a.finish()?;
    let x = leaf(operand(&float_arg(i, x, name)?)?);
    let whole = call("trunc", [x.clone()]);
    let frac = call(
        "copysign",
        [
            call(
                "where",
                [
                    call("isinf", [x.clone()]),
                    c(0.0),
                    x.clone() - whole.clone(),
                ],
            ),
            x,
        ],
    );
    let frac = eval(i, frac, name)?;
    let whole = eval(i, whole, name)?;
    Ok(Value::tuple(vec![frac, whole]))
}

fn frexp(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "frexp";
    let x = a.req("x")?;
    a.finish()?;
    let xv = float_arg(i, x, name)?;
    let x = leaf(operand(&xv)?);
    let ax = call("abs", [x.clone()]);
    let fin = call(
        "logical_and",
        [
            call("isfinite", [x.clone()]),
            call("not_equal", [x.clone(), c(0.0)]),
        ],
    );
    // floor(log2|x|) + 1, then one step of correction where log2 rounded.
    let e0 = call(
        "floor",
        [call("log2", [call("where", [fin.clone(), ax, c(1.0)])])],
    ) + c(1.0);
    let e0 = eval(i, e0, name)?;
    let e0 = leaf(operand(&e0)?);
    let m0 = call("abs", [call("ldexp", [x.clone(), -e0.clone()])]);
    let up = call("greater_equal", [m0.clone(), c(1.0)]);
    let down = call("less", [m0, c(0.5)]);
    // bool + float keeps the float dtype (a weak 1.0 in where would give floatX).
    let e1 = e0 + up - down;
    let e1 = call("where", [fin.clone(), e1, c(0.0)]);
    let e1 = eval(i, e1, name)?;
    let el = leaf(operand(&e1)?);
    let m = call("where", [fin, call("ldexp", [x.clone(), -el]), x]);
    let m = eval(i, m, name)?;
    let e = match e1 {
        Value::Float(f) => Value::Int(f as i64),
        e => call_op(i, "astype", vec![e, Value::str("int32")], vec![])?,
    };
    Ok(Value::tuple(vec![m, e]))
}
