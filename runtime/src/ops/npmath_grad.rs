//! `gradient` (NumPy's second-order central differences, one-sided ends of
//! order 1 or 2, uniform or coordinate spacings) and `interp` (NumPy's
//! piecewise-linear interpolation, `period` included), out of take, diff,
//! searchsorted and elementwise ops of the table: every device, taped.

use super::npmath_calc::{c, dims, floaty, shape_value, sl};
use super::stat_args as sa;
use super::stats::{arr, call_op};
use crate::array::shape_ops::norm_axis;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

fn add(i: &mut Interp, a: Value, b: Value) -> Result<Value> {
    c(i, "add", vec![a, b])
}
fn sub(i: &mut Interp, a: Value, b: Value) -> Result<Value> {
    c(i, "subtract", vec![a, b])
}
fn mul(i: &mut Interp, a: Value, b: Value) -> Result<Value> {
    c(i, "multiply", vec![a, b])
}
fn div(i: &mut Interp, a: Value, b: Value) -> Result<Value> {
    c(i, "divide", vec![a, b])
}
/// a*x + b*y + c*z.
fn comb(i: &mut Interp, t: [(Value, Value); 3]) -> Result<Value> {
    let [(a, x), (b, y), (k, z)] = t;
    let ax = mul(i, a, x)?;
    let by = mul(i, b, y)?;
    let kz = mul(i, k, z)?;
    let s = add(i, ax, by)?;
    add(i, s, kz)
}

/// The spacing along one axis.
enum Spacing {
    /// One step (a number, or a 0-d array as NumPy keeps it).
    Uniform(Value),
    /// The differences of the coordinates (1-d, length n - 1).
    Steps(Value),
}

fn spacing(i: &mut Interp, v: &Value, n: usize, ax: usize, name: &str) -> Result<Spacing> {
    match v {
        Value::Int(k) => Ok(Spacing::Uniform(Value::Float(*k as f64))),
        Value::Float(_) => Ok(Spacing::Uniform(v.clone())),
        v => {
            let x = floaty(i, v.clone(), name)?;
            let xa = arr(x.clone(), name)?;
            match xa.ndim() {
                0 => Ok(Spacing::Uniform(x)),
                1 if xa.size() == n => {
                    let d = c(i, "diff", vec![x])?;
                    // NumPy takes evenly spaced coordinates as one step.
                    let first = sl(i, &d, 0, 0, 1)?;
                    let same = c(i, "equal", vec![d.clone(), first.clone()])?;
                    let all = arr(c(i, "all", vec![same])?, name)?;
                    if all.to_f64_vec()?.first().is_some_and(|&t| t != 0.0) {
                        return Ok(Spacing::Uniform(c(i, "reshape", vec![first, shape_value(&[])])?));
                    }
                    Ok(Spacing::Steps(d))
                }
                _ => Err(Error::shape(
                    name,
                    format!(
                        "{name}: the coordinates for axis {ax} must be 1-d with {n} values (f's length there), got shape {:?}",
                        xa.shape()
                    ),
                )
                .with_help("give a number, or one coordinate per element along the axis")),
            }
        }
    }
}

/// `f[a] - f[b]` for slices along the axis.
fn diff2(
    i: &mut Interp,
    f: &Value,
    ax: usize,
    a: (usize, usize),
    b: (usize, usize),
) -> Result<Value> {
    let x = sl(i, f, ax, a.0, a.1)?;
    let y = sl(i, f, ax, b.0, b.1)?;
    sub(i, x, y)
}

/// `-(a) / (b * c)` and friends: `num / (p * q)`, `num` negated when `neg`.
fn ratio(i: &mut Interp, num: Value, neg: bool, p: Value, q: Value) -> Result<Value> {
    let num = if neg {
        c(i, "negative", vec![num])?
    } else {
        num
    };
    let den = mul(i, p, q)?;
    div(i, num, den)
}

/// The gradient of f along `ax`.
fn along(
    i: &mut Interp,
    f: &Value,
    ax: usize,
    n: usize,
    nd: usize,
    sp: Spacing,
    order: i64,
) -> Result<Value> {
    let fl = |v: f64| Value::Float(v);
    let (first, mid, last) = match sp {
        Spacing::Uniform(h) => {
            let d = diff2(i, f, ax, (2, n), (0, n - 2))?;
            let h2 = mul(i, fl(2.0), h.clone())?;
            let mid = div(i, d, h2)?;
            if order == 1 {
                let d0 = diff2(i, f, ax, (1, 2), (0, 1))?;
                let d1 = diff2(i, f, ax, (n - 1, n), (n - 2, n - 1))?;
                let first = div(i, d0, h.clone())?;
                (first, mid, div(i, d1, h)?)
            } else {
                let mut coef = |v: f64| div(i, fl(v), h.clone());
                let (a0, b0, c0) = (coef(-1.5)?, coef(2.0)?, coef(-0.5)?);
                let (a1, b1, c1) = (coef(0.5)?, coef(-2.0)?, coef(1.5)?);
                let t0 = [
                    (a0, sl(i, f, ax, 0, 1)?),
                    (b0, sl(i, f, ax, 1, 2)?),
                    (c0, sl(i, f, ax, 2, 3)?),
                ];
                let first = comb(i, t0)?;
                let t1 = [
                    (a1, sl(i, f, ax, n - 3, n - 2)?),
                    (b1, sl(i, f, ax, n - 2, n - 1)?),
                    (c1, sl(i, f, ax, n - 1, n)?),
                ];
                (first, mid, comb(i, t1)?)
            }
        }
        Spacing::Steps(dx) => {
            let d1 = sl(i, &dx, 0, 0, n - 2)?;
            let d2 = sl(i, &dx, 0, 1, n - 1)?;
            let sum = add(i, d1.clone(), d2.clone())?;
            let a = ratio(i, d2.clone(), true, d1.clone(), sum.clone())?;
            let bn = sub(i, d2.clone(), d1.clone())?;
            let b = ratio(i, bn, false, d1.clone(), d2.clone())?;
            let k = ratio(i, d1, false, d2, sum)?;
            let mut shape = vec![1; nd];
            shape[ax] = n - 2;
            let sv = shape_value(&shape);
            let a = c(i, "reshape", vec![a, sv.clone()])?;
            let b = c(i, "reshape", vec![b, sv.clone()])?;
            let k = c(i, "reshape", vec![k, sv])?;
            let t = [
                (a, sl(i, f, ax, 0, n - 2)?),
                (b, sl(i, f, ax, 1, n - 1)?),
                (k, sl(i, f, ax, 2, n)?),
            ];
            let mid = comb(i, t)?;
            if order == 1 {
                let d0 = diff2(i, f, ax, (1, 2), (0, 1))?;
                let dl = diff2(i, f, ax, (n - 1, n), (n - 2, n - 1))?;
                let h0 = sl(i, &dx, 0, 0, 1)?;
                let hl = sl(i, &dx, 0, n - 2, n - 1)?;
                let first = div(i, d0, h0)?;
                (first, mid, div(i, dl, hl)?)
            } else {
                // First: p = dx[0], q = dx[1].
                let p = sl(i, &dx, 0, 0, 1)?;
                let q = sl(i, &dx, 0, 1, 2)?;
                let pq = add(i, p.clone(), q.clone())?;
                let two_p = mul(i, fl(2.0), p.clone())?;
                let an = add(i, two_p, q.clone())?;
                let a = ratio(i, an, true, p.clone(), pq.clone())?;
                let b = ratio(i, pq.clone(), false, p.clone(), q.clone())?;
                let k = ratio(i, p, true, q, pq)?;
                let t = [
                    (a, sl(i, f, ax, 0, 1)?),
                    (b, sl(i, f, ax, 1, 2)?),
                    (k, sl(i, f, ax, 2, 3)?),
                ];
                let first = comb(i, t)?;
                // Last: p = dx[-2], q = dx[-1].
                let p = sl(i, &dx, 0, n - 3, n - 2)?;
                let q = sl(i, &dx, 0, n - 2, n - 1)?;
                let pq = add(i, p.clone(), q.clone())?;
                let a = ratio(i, q.clone(), false, p.clone(), pq.clone())?;
                let b = ratio(i, pq.clone(), true, p.clone(), q.clone())?;
                let two_q = mul(i, fl(2.0), q.clone())?;
                let kn = add(i, two_q, p)?;
                let k = ratio(i, kn, false, q, pq)?;
                let t = [
                    (a, sl(i, f, ax, n - 3, n - 2)?),
                    (b, sl(i, f, ax, n - 2, n - 1)?),
                    (k, sl(i, f, ax, n - 1, n)?),
                ];
                (first, mid, comb(i, t)?)
            }
        }
    };
    let parts = Value::list(vec![first, mid, last]);
    call_op(
        i,
        "concat",
        vec![parts],
        vec![("axis", Value::Int(ax as i64))],
    )
}

pub(crate) fn gradient(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "gradient";
    let f = floaty(i, a.req("f")?, name)?;
    let spacings = a.rest();
    let axis = a.kw("axis");
    let order = match a.kw("edge_order") {
        None => 1,
        Some(v) => sa::int(&v, "edge_order", name)?,
    };
    a.finish_with(&["axis", "edge_order"])?;
    if order != 1 && order != 2 {
        return Err(
            Error::value(format!("{name}: edge_order must be 1 or 2, got {order}")).with_op(name),
        );
    }
    let fs = dims(&f, name)?;
    let nd = fs.len();
    let fdt = arr(f.clone(), name)?.dtype();
    let (axes, one) = match axis {
        None | Some(Value::None) => ((0..nd).collect::<Vec<_>>(), false),
        Some(Value::Int(k)) => (vec![norm_axis(k, nd, name)?], true),
        Some(v) => match v.seq_items() {
            Some(items) => (
                items
                    .iter()
                    .map(|v| norm_axis(sa::axis_int(v, name)?, nd, name))
                    .collect::<Result<Vec<_>>>()?,
                false,
            ),
            None => {
                return Err(Error::type_(format!(
                    "{name}: axis must be an int, a tuple of ints or none"
                ))
                .with_op(name));
            }
        },
    };
    let per_axis: Vec<Value> = match spacings.len() {
        0 => vec![Value::Float(1.0); axes.len()],
        1 if axes.len() == 1
            || matches!(&spacings[0], Value::Int(_) | Value::Float(_))
            || matches!(&spacings[0], Value::Array(x) if x.ndim() == 0) =>
        {
            vec![spacings[0].clone(); axes.len()]
        }
        k if k == axes.len() => spacings,
        k => {
            return Err(Error::type_(format!(
                "{name}: {k} spacings for {} axes; give none, one, or one per axis",
                axes.len()
            ))
            .with_op(name));
        }
    };
    let mut out = Vec::new();
    for (&ax, sp) in axes.iter().zip(per_axis) {
        let n = fs[ax];
        if n < order as usize + 1 {
            return Err(Error::value(format!(
                "{name}: f has {n} elements along axis {ax}; at least edge_order + 1 = {} are needed",
                order + 1
            ))
            .with_op(name));
        }
        let sp = spacing(i, &sp, n, ax, name)?;
        let g = along(i, &f, ax, n, nd, sp, order)?;
        out.push(c(i, "astype", vec![g, Value::str(fdt.name())])?);
    }
    if one || out.len() == 1 {
        return Ok(out.pop().unwrap_or(Value::None));
    }
    Ok(Value::tuple(out))
}

/// `v[k]` as a 0-d array.
fn at(i: &mut Interp, v: &Value, k: usize) -> Result<Value> {
    let s = sl(i, v, 0, k, k + 1)?;
    c(i, "reshape", vec![s, shape_value(&[])])
}

/// An argument as a float64 array; numbers and lists are put on `like`'s
/// device, an array must already be there.
fn f64_arr(
    i: &mut Interp,
    v: Value,
    like: Option<&Value>,
    name: &str,
    what: &str,
) -> Result<Value> {
    let x = match like {
        Some(Value::Array(l)) => sa::on_device_of(i, v, l, name, what)?,
        _ => sa::data(i, v, name)?,
    };
    if x.dtype() == DType::Float64 {
        return Ok(Value::Array(x));
    }
    c(i, "astype", vec![Value::Array(x), Value::str("float64")])
}

pub(crate) fn interp(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "interp";
    let x = f64_arr(i, a.req("x")?, None, name, "x")?;
    let mut xp = f64_arr(i, a.req("xp")?, Some(&x), name, "xp")?;
    let mut fp = f64_arr(i, a.req("fp")?, Some(&x), name, "fp")?;
    let num = |v: Option<Value>, what: &str| -> Result<Option<f64>> {
        match v {
            None | Some(Value::None) => Ok(None),
            Some(v) => sa::float(&v, what, name).map(Some),
        }
    };
    let left = num(a.opt("left")?, "left")?;
    let right = num(a.opt("right")?, "right")?;
    let period = num(a.opt("period")?, "period")?;
    a.finish_with(&["left", "right", "period"])?;
    let (xs, fs) = (dims(&xp, name)?, dims(&fp, name)?);
    if xs.len() != 1 || fs.len() != 1 {
        return Err(Error::value(format!(
            "{name}: xp and fp must be 1-d sequences, got shapes {xs:?} and {fs:?}"
        ))
        .with_op(name));
    }
    if xs != fs {
        return Err(Error::value(format!(
            "{name}: fp and xp are not of the same length ({} and {})",
            fs[0], xs[0]
        ))
        .with_op(name));
    }
    if xs[0] == 0 {
        return Err(
            Error::value(format!("{name}: the sample points xp are empty"))
                .with_op(name)
                .with_help("give at least one point"),
        );
    }
    let mut x = x;
    let (mut left, mut right) = (left, right);
    if let Some(p) = period {
        if p == 0.0 {
            return Err(
                Error::value(format!("{name}: period must be a non-zero value")).with_op(name),
            );
        }
        let p = Value::Float(p.abs());
        x = c(i, "mod", vec![x, p.clone()])?;
        xp = c(i, "mod", vec![xp, p.clone()])?;
        let order = c(i, "argsort", vec![xp.clone()])?;
        xp = c(i, "take", vec![xp, order.clone()])?;
        fp = c(i, "take", vec![fp, order])?;
        let n = xs[0];
        let (xl, xf) = (sl(i, &xp, 0, n - 1, n)?, sl(i, &xp, 0, 0, 1)?);
        let lo = sub(i, xl, p.clone())?;
        let hi = add(i, xf, p)?;
        xp = c(i, "concat", vec![Value::list(vec![lo, xp.clone(), hi])])?;
        let (fl, fh) = (sl(i, &fp, 0, n - 1, n)?, sl(i, &fp, 0, 0, 1)?);
        fp = c(i, "concat", vec![Value::list(vec![fl, fp.clone(), fh])])?;
        (left, right) = (None, None);
    }
    let n = dims(&xp, name)?[0];
    let (x_first, x_last) = (at(i, &xp, 0)?, at(i, &xp, n - 1)?);
    let (f_first, f_last) = (at(i, &fp, 0)?, at(i, &fp, n - 1)?);
    let inner = if n == 1 {
        f_first.clone()
    } else {
        let j = call_op(
            i,
            "searchsorted",
            vec![xp.clone(), x.clone()],
            vec![("side", Value::str("right"))],
        )?;
        let j = sub(i, j, Value::Int(1))?;
        let j0 = c(i, "clip", vec![j, Value::Int(0), Value::Int(n as i64 - 2)])?;
        let j1 = add(i, j0.clone(), Value::Int(1))?;
        let x0 = c(i, "take", vec![xp.clone(), j0.clone()])?;
        let x1 = c(i, "take", vec![xp.clone(), j1.clone()])?;
        let f0 = c(i, "take", vec![fp.clone(), j0])?;
        let f1 = c(i, "take", vec![fp.clone(), j1])?;
        let df = sub(i, f1.clone(), f0.clone())?;
        let dxp = sub(i, x1.clone(), x0.clone())?;
        let slope = div(i, df, dxp)?;
        let t0 = sub(i, x.clone(), x0.clone())?;
        let r = mul(i, slope.clone(), t0)?;
        let r = add(i, r, f0.clone())?;
        // NumPy: nan one way, try the other; exact at a sample point.
        let t1 = sub(i, x.clone(), x1)?;
        let r2 = mul(i, slope, t1)?;
        let r2 = add(i, r2, f1)?;
        let bad = c(i, "isnan", vec![r.clone()])?;
        let r = c(i, "where", vec![bad, r2, r])?;
        let hit = c(i, "equal", vec![x.clone(), x0])?;
        c(i, "where", vec![hit, f0, r])?
    };
    let at_last = c(i, "equal", vec![x.clone(), x_last.clone()])?;
    let r = c(i, "where", vec![at_last, f_last.clone(), inner])?;
    let below = c(i, "less", vec![x.clone(), x_first])?;
    let lv = left.map(Value::Float).unwrap_or(f_first);
    let r = c(i, "where", vec![below, lv, r])?;
    let above = c(i, "greater", vec![x, x_last])?;
    let rv = right.map(Value::Float).unwrap_or(f_last);
    c(i, "where", vec![above, rv, r])
}
