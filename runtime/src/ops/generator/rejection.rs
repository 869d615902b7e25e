//! The draws NumPy makes by rejection, composed of table ops on whole
//! arrays: each round proposes a value for every element from fresh
//! uniforms and keeps it where the element is still open and the proposal
//! is accepted, until none is open (one bool read back per round; NumPy's
//! acceptance rates make that a few dozen rounds for millions of elements).
//! `vonmises` (Best-Fisher, NumPy's), `zipf` (NumPy's), and
//! `hypergeometric` by inversion: its pmf (ratios from the mode, on the
//! host) drawn through `choice(p=)`.

use super::steps::{Steps, value_err};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, shape_arg};
use crate::ops::nparr::{arr, astype, shape_value};
use crate::value::Value;
use std::f64::consts::PI;

/// Rounds before a draw gives up (never reached at NumPy's acceptance rates).
const MAX_ROUNDS: usize = 10_000;

fn as_bool(v: &Value) -> Result<bool> {
    Ok(match v {
        Value::Bool(b) => *b,
        Value::Array(x) => x.to_vec::<f64>()?.first().is_some_and(|v| *v != 0.0),
        _ => false,
    })
}

/// Rounds of `propose` (a candidate and its acceptance mask) until every
/// element has accepted one.
fn until_accepted(
    c: &mut Steps<'_>,
    name: &str,
    mut propose: impl FnMut(&mut Steps<'_>) -> Result<(Value, Value)>,
) -> Result<Value> {
    let kw = |c: &Steps<'_>, d: DType| {
        vec![("dtype", Value::DType(d)), ("device", Value::Device(c.dev))]
    };
    let shape = crate::ops::nparr::shape_value(&c.shape);
    let k = kw(&*c, DType::Float64);
    let mut out = crate::ops::nparr::call(c.i, c.span, "zeros", vec![shape.clone()], k)?;
    let k = kw(&*c, DType::Bool);
    let mut done = crate::ops::nparr::call(c.i, c.span, "zeros", vec![shape], k)?;
    for _ in 0..MAX_ROUNDS {
        let (cand, acc) = propose(c)?;
        let open = c.op("logical_not", vec![done.clone()])?;
        let take = c.op2("logical_and", acc.clone(), open)?;
        out = c.op("where", vec![take, cand, out])?;
        done = c.op2("logical_or", done, acc)?;
        let all = c.op("all", vec![done.clone()])?;
        if as_bool(&all)? {
            return Ok(out);
        }
    }
    Err(Error::value(format!(
        "{name}: no proposal accepted in {MAX_ROUNDS} rounds"
    ))
    .with_op(name))
}

/// NumPy's `random_vonmises`: kappa < 1e-8 uniform on [-pi, pi); kappa >
/// 1e6 a wrapped normal; else Best-Fisher rejection; then wrapped to [-pi, pi).
pub(super) fn vonmises(c: &mut Steps<'_>, mu: Value, kappa_in: Value) -> Result<Value> {
    // kappa as a float64 array (IEEE division, never Python's
    // ZeroDivisionError of weak numbers), at least 1e-300 in the branches;
    // kappa below 1e-8 takes the uniform branch at the end.
    let zero = crate::ops::nparr::call(
        c.i,
        c.span,
        "zeros",
        vec![shape_value(&[])],
        vec![
            ("dtype", Value::DType(DType::Float64)),
            ("device", Value::Device(c.dev)),
        ],
    )?;
    let kappa = c.op2("add", kappa_in.clone(), zero)?;
    let kappa = c.op2("maximum", kappa, Value::Float(1e-300))?;
    // s from kappa (elementwise, with NumPy's small-kappa branch).
    let k2 = c.op2("multiply", kappa.clone(), kappa.clone())?;
    let k24 = c.op2("multiply", k2, Value::Float(4.0))?;
    let t = c.op2("add", k24, Value::Float(1.0))?;
    let t = c.op("sqrt", vec![t])?;
    let r = c.op2("add", t, Value::Float(1.0))?;
    let r2 = c.op2("multiply", r.clone(), Value::Float(2.0))?;
    let sr = c.op("sqrt", vec![r2])?;
    let num = c.op2("subtract", r, sr)?;
    let den = c.op2("multiply", kappa.clone(), Value::Float(2.0))?;
    let rho = c.op2("divide", num, den)?;
    let rho2 = c.op2("multiply", rho.clone(), rho.clone())?;
    let top = c.op2("add", rho2, Value::Float(1.0))?;
    let bot = c.op2("multiply", rho, Value::Float(2.0))?;
    let s_big = c.op2("divide", top, bot)?;
    let inv = c.op2("divide", Value::Float(1.0), kappa.clone())?;
    let s_small = c.op2("add", inv, kappa.clone())?;
    let small = c.op2("less", kappa.clone(), Value::Float(1e-5))?;
    let s = c.op("where", vec![small, s_small, s_big])?;
    let w = until_accepted(c, "vonmises", |c| {
        let u = c.uniform()?;
        let pu = c.op2("multiply", u, Value::Float(PI))?;
        let z = c.op("cos", vec![pu])?;
        let sz = c.op2("multiply", s.clone(), z.clone())?;
        let n = c.op2("add", sz, Value::Float(1.0))?;
        let d = c.op2("add", s.clone(), z)?;
        let w = c.op2("divide", n, d)?;
        let sw = c.op2("subtract", s.clone(), w.clone())?;
        let y = c.op2("multiply", kappa.clone(), sw)?;
        let v = c.uniform()?;
        let two_y = c.op2("subtract", Value::Float(2.0), y.clone())?;
        let a = c.op2("multiply", y.clone(), two_y)?;
        let a = c.op2("subtract", a, v.clone())?;
        let ok1 = c.op2("greater_equal", a, Value::Float(0.0))?;
        let q = c.op2("divide", y.clone(), v)?;
        let lq = c.op("log", vec![q])?;
        let b = c.op2("add", lq, Value::Float(1.0))?;
        let b = c.op2("subtract", b, y)?;
        let ok2 = c.op2("greater_equal", b, Value::Float(0.0))?;
        let ok = c.op2("logical_or", ok1, ok2)?;
        Ok((w, ok))
    })?;
    let u = c.uniform()?;
    let ang = c.op("arccos", vec![w])?;
    let neg = c.op2("less", u, Value::Float(0.5))?;
    let nang = c.op("negative", vec![ang.clone()])?;
    let ang = c.op("where", vec![neg, nang, ang])?;
    // Very large kappa: a wrapped normal (NumPy's branch).
    let n = c.normal()?;
    let inv = inv_of(c, &kappa)?;
    let sd = c.op("sqrt", vec![inv])?;
    let wn = c.op2("multiply", n, sd)?;
    let huge = c.op2("greater", kappa.clone(), Value::Float(1e6))?;
    let ang = c.op("where", vec![huge, wn, ang])?;
    let res = c.op2("add", ang, mu)?;
    let wrapped = wrap(c, res)?;
    // Tiny kappa: uniform on [-pi, pi).
    let u = c.uniform()?;
    let u2 = c.op2("multiply", u, Value::Float(2.0 * PI))?;
    let flat = c.op2("subtract", u2, Value::Float(PI))?;
    let tiny = c.op2("less", kappa_in, Value::Float(1e-8))?;
    c.op("where", vec![tiny, flat, wrapped])
}

fn inv_of(c: &mut Steps<'_>, x: &Value) -> Result<Value> {
    c.op2("divide", Value::Float(1.0), x.clone())
}

/// NumPy's wrap: sign(x) * (fmod(|x| + pi, 2 pi) - pi).
fn wrap(c: &mut Steps<'_>, x: Value) -> Result<Value> {
    let neg = c.op2("less", x.clone(), Value::Float(0.0))?;
    let m = c.op("abs", vec![x])?;
    let m = c.op2("add", m, Value::Float(PI))?;
    let m = c.op2("fmod", m, Value::Float(2.0 * PI))?;
    let m = c.op2("subtract", m, Value::Float(PI))?;
    let nm = c.op("negative", vec![m.clone()])?;
    c.op("where", vec![neg, nm, m])
}

/// NumPy's `random_zipf`: X = floor(U^(-1/(a-1))) for U in (0, 1],
/// accepted when V X (T - 1) / (b - 1) <= T / b, T = (1 + 1/X)^(a-1), b = 2^(a-1).
pub(super) fn zipf(c: &mut Steps<'_>, a: Value) -> Result<Value> {
    let am1 = c.op2("subtract", a, Value::Float(1.0))?;
    let b = c.op2("power", Value::Float(2.0), am1.clone())?;
    let e = c.op2("divide", Value::Float(-1.0), am1.clone())?;
    until_accepted(c, "zipf", |c| {
        let u = c.uniform()?;
        let u = c.op2("subtract", Value::Float(1.0), u)?;
        let v = c.uniform()?;
        let x = c.op2("power", u, e.clone())?;
        let x = c.op("floor", vec![x])?;
        let in_range = c.op2("less_equal", x.clone(), Value::Float(9.2e18))?;
        let pos = c.op2("greater_equal", x.clone(), Value::Float(1.0))?;
        let valid = c.op2("logical_and", in_range, pos)?;
        let ix = c.op2("divide", Value::Float(1.0), x.clone())?;
        let t = c.op2("add", ix, Value::Float(1.0))?;
        let t = c.op2("power", t, am1.clone())?;
        let lhs = c.op2("multiply", v, x.clone())?;
        let tm1 = c.op2("subtract", t.clone(), Value::Float(1.0))?;
        let lhs = c.op2("multiply", lhs, tm1)?;
        let bm1 = c.op2("subtract", b.clone(), Value::Float(1.0))?;
        let lhs = c.op2("divide", lhs, bm1)?;
        let rhs = c.op2("divide", t, b.clone())?;
        let ok = c.op2("less_equal", lhs, rhs)?;
        let ok = c.op2("logical_and", ok, valid)?;
        let x = c.op2("minimum", x, Value::Float(9.2e18))?;
        Ok((x, ok))
    })
}

/// The hypergeometric pmf over k = lo..=hi as weights: 1 at the mode and
/// the ratio p(k+1)/p(k) = (g - k)(m - k) / ((k + 1)(b - m + k + 1)) both ways.
pub(super) fn hypergeometric_pmf(good: i64, bad: i64, m: i64) -> (i64, Vec<f64>) {
    let lo = (m - bad).max(0);
    let hi = m.min(good);
    let (g, b, mf) = (good as f64, bad as f64, m as f64);
    let mode = (((mf + 1.0) * (g + 1.0)) / (g + b + 2.0)).floor() as i64;
    let mode = mode.clamp(lo, hi);
    let n = (hi - lo + 1) as usize;
    let mut w = vec![0.0; n];
    w[(mode - lo) as usize] = 1.0;
    for k in mode..hi {
        let kf = k as f64;
        let r = (g - kf) * (mf - kf) / ((kf + 1.0) * (b - mf + kf + 1.0));
        w[(k + 1 - lo) as usize] = w[(k - lo) as usize] * r;
    }
    for k in (lo..mode).rev() {
        let kf = k as f64;
        // p(k) = p(k+1) / ratio(k).
        let r = (g - kf) * (mf - kf) / ((kf + 1.0) * (b - mf + kf + 1.0));
        w[(k - lo) as usize] = w[(k + 1 - lo) as usize] / r;
    }
    let total: f64 = w.iter().sum();
    w.iter_mut().for_each(|x| *x /= total);
    (lo, w)
}

/// `hypergeometric(ngood, nbad, nsample, size)`: numbers only; the pmf's
/// support (at most 10^7 values) drawn through `choice(p=)` on the device.
pub(super) fn hypergeometric(i: &mut Interp, mut a: Args) -> Result<Value> {
    const OP: &str = "hypergeometric";
    let span = a.span;
    let mut ints = [0i64; 3];
    for (slot, key) in ints.iter_mut().zip(["ngood", "nbad", "nsample"]) {
        let v = a.req(key)?;
        if let Value::Array(_) | Value::List(_) = v {
            return Err(value_err(
                OP,
                format!("{key} must be an int; arrays of parameters are not supported yet"),
                "call it once per parameter set".into(),
            ));
        }
        *slot = crate::ops::nparr::int(&v, OP, key)?;
    }
    let size = match crate::ops::random_draws::shape_or_size(&mut a)? {
        None | Some(Value::None) => vec![],
        Some(v) => shape_arg(&v)?,
    };
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&[
        "ngood", "nbad", "nsample", "shape", "size", "dtype", "device",
    ])?;
    let [good, bad, m] = ints;
    if good < 0 || bad < 0 || m < 0 {
        let (k, v) = [("ngood", good), ("nbad", bad), ("nsample", m)]
            .into_iter()
            .find(|(_, v)| *v < 0)
            .expect("a negative one");
        return Err(value_err(
            OP,
            format!("{k} < 0 ({v})"),
            format!("give {k} >= 0"),
        ));
    }
    if m > good.saturating_add(bad) {
        return Err(value_err(
            OP,
            format!(
                "ngood + nbad < nsample ({} < {m})",
                good.saturating_add(bad)
            ),
            "give nsample <= ngood + nbad".into(),
        ));
    }
    if m.min(good) - (m - bad).max(0) >= 10_000_000 {
        return Err(value_err(
            OP,
            "the support has more than 10^7 values".into(),
            "use smaller parameters (or a normal approximation)".into(),
        ));
    }
    let (lo, w) = hypergeometric_pmf(good, bad, m);
    let dev = dev.unwrap_or_else(|| i.default_device());
    let n = w.len();
    let p = crate::ops::nparr::host_f64(w, &[n], crate::device::Device::Cpu)?;
    let k = arr(
        i,
        span,
        "choice",
        vec![Value::Int(n as i64), shape_value(&size)],
        vec![("p", p.into()), ("device", Value::Device(dev))],
    )?;
    let k = arr(i, span, "add", vec![k.into(), Value::Int(lo)], vec![])?;
    let d = dt.unwrap_or(DType::Int64);
    Ok(Value::Array(astype(i, span, &k, d)?))
}
