//! NumPy's calculus and NaN-skipping helpers, written as NumPy writes them
//! out of other ops of the table (take, diff, cumsum, sort, searchsorted...
//! called through the interpreter: every device, and taped under `grad`):
//! `trapezoid ediff1d cumulative_sum cumulative_prod nancumsum nancumprod
//! nanprod unwrap gradient interp` and `nanmedian nanpercentile
//! nanquantile` (no NaN in x: exactly median/percentile/quantile; else each
//! lane's numbers sorted and interpolated, NumPy's linear method).

use super::creation::op;
use super::stat_args as sa;
use super::stats::{arr, call_op};
use crate::array::Array;
use crate::array::shape_ops::norm_axis;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "trapezoid",
        "trapezoid(y, x=none, dx=1.0, axis=-1)",
        "The integral of y along axis by the trapezoidal rule: sum((y[1:] + y[:-1]) / 2 * d), d the spacing dx or diff(x) (x 1-d along axis, or y's shape). Ints give floatX.",
        false,
        trapezoid
    ),
    op!(
        "ediff1d",
        "ediff1d(ary, to_end=none, to_begin=none)",
        "The differences of the flattened ary (ary[1:] - ary[:-1]), with to_begin and to_end (numbers or arrays, flattened, cast to ary's dtype) joined before and after.",
        false,
        ediff1d
    ),
    op!(
        "cumulative_sum",
        "cumulative_sum(x, axis=none, dtype=none, include_initial=false)",
        "NumPy 2's cumsum: the running sum along axis (needed unless x is 1-d); include_initial=true starts each lane with 0 (one more element).",
        false,
        |i, a| cumulative(i, a, "cumulative_sum", "cumsum", "zeros")
    ),
    op!(
        "cumulative_prod",
        "cumulative_prod(x, axis=none, dtype=none, include_initial=false)",
        "NumPy 2's cumprod: the running product along axis (needed unless x is 1-d); include_initial=true starts each lane with 1.",
        false,
        |i, a| cumulative(i, a, "cumulative_prod", "cumprod", "ones")
    ),
    op!(
        "nancumsum",
        "nancumsum(x, axis=none, dtype=none)",
        "cumsum with NaN taken as 0 (flattened when axis is none).",
        false,
        |i, a| nan_scan(i, a, "nancumsum", "cumsum", 0.0)
    ),
    op!(
        "nancumprod",
        "nancumprod(x, axis=none, dtype=none)",
        "cumprod with NaN taken as 1 (flattened when axis is none).",
        false,
        |i, a| nan_scan(i, a, "nancumprod", "cumprod", 1.0)
    ),
    op!(
        "nanprod",
        "nanprod(x, axis=none, keepdims=false)",
        "prod with NaN taken as 1 (all-NaN lanes give 1).",
        false,
        nanprod
    ),
    op!(
        "unwrap",
        "unwrap(p, discont=none, axis=-1, period=2*pi)",
        "p with jumps between neighbours along axis larger than max(discont, period/2) taken back by multiples of period (phase unwrapping). Ints give floatX.",
        false,
        unwrap
    ),
    op!(
        "gradient",
        "gradient(f, *spacings, axis=none, edge_order=1)",
        "Central differences of f (one-sided of order edge_order, 1 or 2, at the ends) along each axis: spacings are none (1), one number for all axes, or one per axis (a number, or the coordinates as a 1-d array). One array for one axis, else a tuple of arrays. Ints give floatX.",
        false,
        super::npmath_grad::gradient
    ),
    op!(
        "interp",
        "interp(x, xp, fp, left=none, right=none, period=none)",
        "Piecewise-linear interpolation of the points (xp, fp) at x (xp increasing); left/right (default fp[0], fp[-1]) outside; period: xp and x taken modulo it. float64 result, as NumPy.",
        false,
        super::npmath_grad::interp
    ),
    op!(
        "nanmedian",
        "nanmedian(x, axis=none, keepdims=false)",
        "median ignoring NaN (an all-NaN lane gives NaN).",
        false,
        |i, a| super::npmath_nanq::nanq(i, a, super::quantile::Kind::Median)
    ),
    op!(
        "nanpercentile",
        "nanpercentile(x, q, axis=none, keepdims=false, method=\"linear\")",
        "percentile ignoring NaN (an all-NaN lane gives NaN); methods linear, lower, higher, nearest, midpoint (all of percentile's when x holds no NaN).",
        false,
        |i, a| super::npmath_nanq::nanq(i, a, super::quantile::Kind::Percentile)
    ),
    op!(
        "nanquantile",
        "nanquantile(x, q, axis=none, keepdims=false, method=\"linear\")",
        "quantile ignoring NaN (an all-NaN lane gives NaN); methods linear, lower, higher, nearest, midpoint (all of quantile's when x holds no NaN).",
        false,
        |i, a| super::npmath_nanq::nanq(i, a, super::quantile::Kind::Quantile)
    ),
];

/// Calls op `name` with positional arguments only.
pub(crate) fn c(i: &mut Interp, name: &str, pos: Vec<Value>) -> Result<Value> {
    call_op(i, name, pos, vec![])
}

pub(crate) fn shape_value(s: &[usize]) -> Value {
    Value::tuple(s.iter().map(|&d| Value::Int(d as i64)).collect())
}

pub(crate) fn dims(v: &Value, name: &str) -> Result<Vec<usize>> {
    Ok(arr(v.clone(), name)?.shape().to_vec())
}

/// x[start:stop] along axis `ax` (a gather, taped like any take).
pub(crate) fn sl(i: &mut Interp, x: &Value, ax: usize, start: usize, stop: usize) -> Result<Value> {
    let dev = arr(x.clone(), "slice")?.device();
    let idx = call_op(
        i,
        "arange",
        vec![Value::Int(start as i64), Value::Int(stop as i64)],
        vec![("device", Value::Device(dev))],
    )?;
    call_op(
        i,
        "take",
        vec![x.clone(), idx],
        vec![("axis", Value::Int(ax as i64))],
    )
}

/// x as a float array: floats as they are, ints and bools as floatX (taped).
pub(crate) fn floaty(i: &mut Interp, v: Value, name: &str) -> Result<Value> {
    let x = sa::data(i, v, name)?;
    if x.dtype().is_float() {
        return Ok(Value::Array(x));
    }
    let fx = i.float_x();
    call_op(
        i,
        "astype",
        vec![Value::Array(x), Value::str(fx.name())],
        vec![],
    )
}

fn axis_of(v: Option<Value>, nd: usize, default: i64, name: &str) -> Result<usize> {
    let k = match v {
        None => default,
        Some(v) => sa::axis_int(&v, name)?,
    };
    norm_axis(k, nd, name)
}

fn trapezoid(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "trapezoid";
    let y = floaty(i, a.req("y")?, name)?;
    let x = a.opt("x")?.filter(|v| !matches!(v, Value::None));
    let dx = a.opt("dx")?.unwrap_or(Value::Float(1.0));
    let ys = dims(&y, name)?;
    let ax = axis_of(a.opt("axis")?, ys.len(), -1, name)?;
    a.finish_with(&["x", "dx", "axis"])?;
    let n = ys[ax];
    let d = match x {
        None => dx,
        Some(x) => {
            let ya = arr(y.clone(), name)?;
            let xa = sa::on_device_of(i, x, &ya, name, "x")?;
            if xa.ndim() == 1 {
                if xa.size() != n {
                    return Err(Error::shape(
                        name,
                        format!(
                            "{name}: x has {} points, y has {n} along axis {ax}",
                            xa.size()
                        ),
                    )
                    .with_help("x gives one coordinate per element of y along axis"));
                }
                let d = call_op(i, "diff", vec![Value::Array(xa)], vec![])?;
                let mut s = vec![1; ys.len()];
                s[ax] = n.saturating_sub(1);
                c(i, "reshape", vec![d, shape_value(&s)])?
            } else {
                call_op(
                    i,
                    "diff",
                    vec![Value::Array(xa)],
                    vec![("axis", Value::Int(ax as i64))],
                )?
            }
        }
    };
    let hi = sl(i, &y, ax, 1, n.max(1))?;
    let lo = sl(i, &y, ax, 0, n.saturating_sub(1))?;
    let s = c(i, "add", vec![hi, lo])?;
    let s = c(i, "multiply", vec![d, s])?;
    let s = c(i, "divide", vec![s, Value::Float(2.0)])?;
    call_op(i, "sum", vec![s], vec![("axis", Value::Int(ax as i64))])
}

fn ediff1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "ediff1d";
    let x = sa::data(i, a.req("ary")?, name)?;
    let to_end = a.opt("to_end")?.filter(|v| !matches!(v, Value::None));
    let to_begin = a.opt("to_begin")?.filter(|v| !matches!(v, Value::None));
    a.finish_with(&["to_end", "to_begin"])?;
    let dt = x.dtype();
    let flat = c(i, "ravel", vec![Value::Array(x.clone())])?;
    let d = c(i, "diff", vec![flat])?;
    let mut parts = Vec::new();
    let piece = |i: &mut Interp, v: Value| -> Result<Value> {
        let p = sa::on_device_of(i, v, &x, name, "to_begin/to_end")?;
        let p = c(i, "ravel", vec![Value::Array(p)])?;
        c(i, "astype", vec![p, Value::str(dt.name())])
    };
    if let Some(b) = to_begin {
        parts.push(piece(i, b)?);
    }
    parts.push(d);
    if let Some(e) = to_end {
        parts.push(piece(i, e)?);
    }
    if parts.len() == 1 {
        return Ok(parts.pop().unwrap_or(Value::None));
    }
    c(i, "concat", vec![Value::list(parts)])
}

/// `cumulative_sum`/`cumulative_prod`: the scan, with the identity first
/// when include_initial.
fn cumulative(i: &mut Interp, mut a: Args, name: &str, scan: &str, fill: &str) -> Result<Value> {
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?.filter(|v| !matches!(v, Value::None));
    let dtype = a.opt("dtype")?.unwrap_or(Value::None);
    let initial = sa::flag(a.opt("include_initial")?, "include_initial", name, false)?;
    a.finish_with(&["axis", "dtype", "include_initial"])?;
    let nd = x.ndim();
    let ax = match (axis, nd) {
        (_, 0) => {
            return Err(
                Error::value(format!("{name}: x is 0-d; it needs at least one dimension"))
                    .with_op(name)
                    .with_help("give a 1-d array, e.g. x.reshape(1)"),
            );
        }
        (None, 1) => 0,
        (None, _) => {
            return Err(
                Error::value(format!("{name}: axis must be given for a {nd}-d array"))
                    .with_op(name)
                    .with_help(format!("e.g. {name}(x, axis=0)")),
            );
        }
        (Some(v), _) => norm_axis(sa::axis_int(&v, name)?, nd, name)?,
    };
    let dev = x.device();
    let r = call_op(
        i,
        scan,
        vec![Value::Array(x)],
        vec![("axis", Value::Int(ax as i64)), ("dtype", dtype)],
    )?;
    if !initial {
        return Ok(r);
    }
    let ra = arr(r.clone(), name)?;
    let mut s = ra.shape().to_vec();
    s[ax] = 1;
    let first = call_op(
        i,
        fill,
        vec![shape_value(&s)],
        vec![
            ("dtype", Value::str(ra.dtype().name())),
            ("device", Value::Device(dev)),
        ],
    )?;
    call_op(
        i,
        "concat",
        vec![Value::list(vec![first, r])],
        vec![("axis", Value::Int(ax as i64))],
    )
}

/// `where(isnan(x), fill, x)` of a float x; other dtypes as they are.
fn nan_as(i: &mut Interp, x: Array, fill: f64) -> Result<Value> {
    if !x.dtype().is_float() {
        return Ok(Value::Array(x));
    }
    let xv = Value::Array(x);
    let m = c(i, "isnan", vec![xv.clone()])?;
    c(i, "where", vec![m, Value::Float(fill), xv])
}

fn nan_scan(i: &mut Interp, mut a: Args, name: &str, scan: &str, fill: f64) -> Result<Value> {
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?.unwrap_or(Value::None);
    let dtype = a.opt("dtype")?.unwrap_or(Value::None);
    a.finish_with(&["axis", "dtype"])?;
    let x = nan_as(i, x, fill)?;
    call_op(i, scan, vec![x], vec![("axis", axis), ("dtype", dtype)])
}

fn nanprod(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "nanprod";
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?.unwrap_or(Value::None);
    let keepdims = a.opt("keepdims")?.unwrap_or(Value::Bool(false));
    a.finish_with(&["axis", "keepdims"])?;
    let x = nan_as(i, x, 1.0)?;
    call_op(
        i,
        "prod",
        vec![x],
        vec![("axis", axis), ("keepdims", keepdims)],
    )
}

fn unwrap(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "unwrap";
    let p = floaty(i, a.req("p")?, name)?;
    let discont = a.opt("discont")?.filter(|v| !matches!(v, Value::None));
    let ps = dims(&p, name)?;
    let ax = axis_of(a.opt("axis")?, ps.len(), -1, name)?;
    let period = match a.opt("period")? {
        None | Some(Value::None) => std::f64::consts::TAU,
        Some(v) => sa::float(&v, "period", name)?,
    };
    a.finish_with(&["discont", "axis", "period"])?;
    let discont = match discont {
        None => period / 2.0,
        Some(v) => sa::float(&v, "discont", name)?,
    };
    let n = ps[ax];
    if n < 2 {
        return c(i, "copy", vec![p]);
    }
    let axk = ("axis", Value::Int(ax as i64));
    let dd = call_op(i, "diff", vec![p.clone()], vec![axk.clone()])?;
    let high = period / 2.0;
    // ddmod = mod(dd + high, period) - high, with -high turned to +high where dd > 0.
    let m = c(i, "add", vec![dd.clone(), Value::Float(high)])?;
    let m = c(i, "mod", vec![m, Value::Float(period)])?;
    let m = c(i, "subtract", vec![m, Value::Float(high)])?;
    let at_low = c(i, "equal", vec![m.clone(), Value::Float(-high)])?;
    let pos = c(i, "greater", vec![dd.clone(), Value::Float(0.0)])?;
    let flip = c(i, "logical_and", vec![at_low, pos])?;
    let m = c(i, "where", vec![flip, Value::Float(high), m])?;
    let corr = c(i, "subtract", vec![m, dd.clone()])?;
    let small = c(i, "abs", vec![dd])?;
    let small = c(i, "less", vec![small, Value::Float(discont)])?;
    let corr = c(i, "where", vec![small, Value::Float(0.0), corr])?;
    let corr = call_op(i, "cumsum", vec![corr], vec![axk.clone()])?;
    let head = sl(i, &p, ax, 0, 1)?;
    let tail = sl(i, &p, ax, 1, n)?;
    let tail = c(i, "add", vec![tail, corr])?;
    call_op(i, "concat", vec![Value::list(vec![head, tail])], vec![axk])
}
