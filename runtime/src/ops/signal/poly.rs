//! NumPy's legacy polynomial functions (coefficients highest power first):
//! `polyval polyder polyint polyadd polysub polymul polydiv`, each written
//! as NumPy writes it, out of table ops called through the interpreter (so
//! every device, and taped under `grad`), except `polydiv`, whose loop
//! drops leading near-zero remainder terms: it runs on the host in float64
//! and sends its two results back once.

use super::super::linalg_calls::{Calls, leaf};
use super::super::nparr::{
    arr, astype, data, data_on, float, host_f64, int, shape_value, value_err,
};
use super::convolve::{Mode, conv_arrays};
use crate::array::index::Index;
use crate::array::{Array, alloc};
use crate::dtype::{DType, promote};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;
use gcalc_lang::Span;

/// Coefficients per fused Horner tree.
const HORNER_STEPS: usize = 8;

/// `np.atleast_1d(p)` of an array argument.
pub(crate) fn coeffs(
    i: &mut Interp,
    span: Span,
    v: Value,
    name: &str,
    what: &str,
) -> Result<Array> {
    let p = data(i, v, name, what)?;
    at_least_1d(i, span, p)
}

fn at_least_1d(i: &mut Interp, span: Span, p: Array) -> Result<Array> {
    if p.ndim() == 0 {
        return arr(
            i,
            span,
            "reshape",
            vec![p.into(), shape_value(&[1])],
            vec![],
        );
    }
    Ok(p)
}

fn coeffs_on(
    i: &mut Interp,
    span: Span,
    v: Value,
    like: &Array,
    name: &str,
    what: &str,
) -> Result<Array> {
    let p = data_on(i, v, like.device(), name, what)?;
    at_least_1d(i, span, p)
}

fn order(v: Option<Value>, name: &str, what: &str, see: &str) -> Result<usize> {
    let m = match v {
        None | Some(Value::None) => 1,
        Some(v) => int(&v, name, "m")?,
    };
    usize::try_from(m).map_err(|_| {
        value_err(
            name,
            format!("Order of {what} must be positive (see {see}), got m={m}"),
            "give m >= 0",
        )
    })
}

pub(crate) fn polyval(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "polyval";
    let p = data(i, a.req("p")?, name, "p")?;
    let x = data_on(i, a.req("x")?, p.device(), name, "x")?;
    a.finish()?;
    if p.ndim() == 0 {
        return Err(Error::type_(format!(
            "{name}: p must be a sequence of coefficients (highest power first), got a 0-d array"
        ))
        .with_op(name)
        .with_help("give p as a list or 1-d array, e.g. polyval([3, 0, 1], x)"));
    }
    // y = zeros_like(x); for pv in p: y = y * x + pv
    let mut y = arr(i, span, "zeros_like", vec![x.clone().into()], vec![])?;
    let n = p.shape()[0];
    let mut c = Calls::new(i, span);
    let mut k = 0;
    while k < n {
        let mut t = leaf(&y);
        for kk in k..(k + HORNER_STEPS).min(n) {
            let pv = c.index(&p, &[Index::Int(kk as i64)])?;
            t = t * leaf(&x) + leaf(&pv);
        }
        y = c.tree(t)?;
        k += HORNER_STEPS;
    }
    Ok(Value::Array(y))
}

/// arange(start, stop, -1) as int64 on `like`'s device.
fn down(i: &mut Interp, span: Span, start: i64, stop: i64, like: &Array) -> Result<Array> {
    arr(
        i,
        span,
        "arange",
        vec![Value::Int(start), Value::Int(stop), Value::Int(-1)],
        vec![("device", Value::Device(like.device()))],
    )
}

fn drop_last(i: &mut Interp, span: Span, p: &Array) -> Result<Array> {
    let n = p.shape()[0] as i64;
    Calls::new(i, span).index(
        p,
        &[Index::Slice {
            start: Some(0),
            stop: Some((n - 1).max(0)),
            step: None,
        }],
    )
}

pub(crate) fn polyder(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "polyder";
    let mut p = coeffs(i, span, a.req("p")?, name, "p")?;
    let m = order(a.opt("m")?, name, "derivative", "polyint")?;
    a.finish_with(&["m"])?;
    // Once p is empty it stays so (its dtype set by the first step).
    for _ in 0..m.min(p.shape()[0] + 1) {
        // p[:-1] * arange(n, 0, -1)
        let n = p.shape()[0] as i64 - 1;
        let head = drop_last(i, span, &p)?;
        let k = down(i, span, n, 0, &p)?;
        p = arr(i, span, "multiply", vec![head.into(), k.into()], vec![])?;
    }
    Ok(Value::Array(p))
}

pub(crate) fn polyint(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "polyint";
    let mut p = coeffs(i, span, a.req("p")?, name, "p")?;
    let m = order(a.opt("m")?, name, "integral", "polyder")?;
    let k = a.opt("k")?;
    a.finish_with(&["m", "k"])?;
    // k: none -> zeros(m); a scalar or one value -> that value m times.
    let ks: Array = match k {
        None | Some(Value::None) => host_f64(alloc::vec_with(m, |_| 0.0)?, &[m], p.device())?,
        Some(v) => {
            let k = coeffs_on(i, span, v, &p, name, "k")?;
            if k.ndim() != 1 {
                return Err(value_err(
                    name,
                    format!(
                        "k must be a scalar or a rank-1 array, got shape {:?}",
                        k.shape()
                    ),
                    "give k as a number or a list of m constants",
                ));
            }
            if k.size() == 1 && m > 1 {
                let one = host_f64(alloc::vec_with(m, |_| 1.0)?, &[m], p.device())?;
                arr(i, span, "multiply", vec![k.into(), one.into()], vec![])?
            } else if k.size() < m {
                return Err(value_err(
                    name,
                    format!(
                        "k must be a scalar or a rank-1 array of length 1 or >m (m={m}, len(k)={})",
                        k.size()
                    ),
                    "give one constant per integration",
                ));
            } else {
                k
            }
        }
    };
    if m == 0 {
        return Ok(Value::Array(p));
    }
    for step in 0..m {
        // concatenate((p / arange(len(p), 0, -1), [k[step]]))
        let n = p.shape()[0] as i64;
        let d = down(i, span, n, 0, &p)?;
        let d = astype(i, span, &d, DType::Float64)?;
        let q = arr(i, span, "divide", vec![p.into(), d.into()], vec![])?;
        let kk = Calls::new(i, span).index(
            &ks,
            &[Index::Slice {
                start: Some(step as i64),
                stop: Some(step as i64 + 1),
                step: None,
            }],
        )?;
        let dt = promote(q.dtype(), promote(kk.dtype(), DType::Float64));
        let q = astype(i, span, &q, dt)?;
        let kk = astype(i, span, &kk, dt)?;
        p = arr(
            i,
            span,
            "concatenate",
            vec![Value::list(vec![q.into(), kk.into()])],
            vec![],
        )?;
    }
    Ok(Value::Array(p))
}

/// polyadd (`sub` false) or polysub: the shorter padded with leading zeros.
pub(crate) fn polyaddsub(i: &mut Interp, mut a: Args, sub: bool) -> Result<Value> {
    let span = a.span;
    let name = if sub { "polysub" } else { "polyadd" };
    let a1 = coeffs(i, span, a.req("a1")?, name, "a1")?;
    let a2 = coeffs_on(i, span, a.req("a2")?, &a1, name, "a2")?;
    a.finish()?;
    for (x, w) in [(&a1, "a1"), (&a2, "a2")] {
        if x.ndim() != 1 {
            return Err(value_err(
                name,
                format!("{w} must be 1-d coefficients, got shape {:?}", x.shape()),
                "give 1-d coefficient sequences (highest power first)",
            ));
        }
    }
    let (n1, n2) = (a1.size(), a2.size());
    let pad = |i: &mut Interp, x: Array, by: usize| -> Result<Array> {
        if by == 0 {
            return Ok(x);
        }
        arr(
            i,
            span,
            "pad",
            vec![
                x.into(),
                Value::tuple(vec![Value::Int(by as i64), Value::Int(0)]),
            ],
            vec![],
        )
    };
    let a1 = pad(i, a1, n2.saturating_sub(n1))?;
    let a2 = pad(i, a2, n1.saturating_sub(n2))?;
    let op = if sub { "subtract" } else { "add" };
    Ok(Value::Array(arr(
        i,
        span,
        op,
        vec![a1.into(), a2.into()],
        vec![],
    )?))
}

pub(crate) fn polymul(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "polymul";
    let a1 = coeffs(i, span, a.req("a1")?, name, "a1")?;
    let a2 = coeffs_on(i, span, a.req("a2")?, &a1, name, "a2")?;
    a.finish()?;
    let a1 = poly1d(i, span, a1, name)?;
    let a2 = poly1d(i, span, a2, name)?;
    Ok(Value::Array(conv_arrays(
        i,
        span,
        a1,
        a2,
        Mode::Full,
        false,
    )?))
}

pub(crate) fn polydiv(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "polydiv";
    let u = coeffs(i, span, a.req("u")?, name, "u")?;
    let v = coeffs_on(i, span, a.req("v")?, &u, name, "v")?;
    a.finish()?;
    for (x, w) in [(&u, "u"), (&v, "v")] {
        if x.ndim() != 1 || x.size() == 0 {
            return Err(Error::index(format!(
                "{name}: {w} must be non-empty 1-d coefficients (NumPy reads {w}[0]), got shape {:?}",
                x.shape()
            ))
            .with_op(name)
            .with_help("give 1-d coefficient sequences (highest power first)"));
        }
        if x.dtype().is_complex() {
            return Err(Error::type_(format!(
                "{name}: complex coefficients are not supported (`{w}` is {})",
                x.dtype().name()
            ))
            .with_op(name)
            .with_help(
                "divide the real and imaginary parts separately, or use real coefficients",
            ));
        }
    }
    // u + 0.0, v + 0.0: ints become float64, floats keep their dtype.
    let fl = |d: DType| if d.is_float() { d } else { DType::Float64 };
    let dt = promote(fl(u.dtype()), fl(v.dtype()));
    let (q, r) = divide(&u.to_vec::<f64>()?, &v.to_vec::<f64>()?);
    let dev = u.device();
    let (nq, nr) = (q.len(), r.len());
    let q = host_f64(q, &[nq], dev)?;
    let r = host_f64(r, &[nr], dev)?;
    let q = astype(i, span, &q, dt)?;
    let r = astype(i, span, &r, dt)?;
    Ok(Value::tuple(vec![q.into(), r.into()]))
}

/// NumPy's polydiv loop in float64: the quotient and the remainder with its
/// leading terms of magnitude <= 1e-8 dropped (allclose(r[0], 0)).
fn divide(u: &[f64], v: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (m, n) = (u.len() - 1, v.len() - 1);
    let scale = 1.0 / v[0];
    let steps = (m + 1).saturating_sub(n);
    let mut q = vec![0.0; steps.max(1)];
    let mut r = u.to_vec();
    for k in 0..steps {
        let d = scale * r[k];
        q[k] = d;
        for (j, vj) in v.iter().enumerate() {
            r[k + j] -= d * vj;
        }
    }
    let mut start = 0;
    while r.len() - start > 1 && r[start].abs() <= 1e-8 {
        start += 1;
    }
    (q, r[start..].to_vec())
}

/// A float argument read as NumPy reads an rcond.
pub(crate) fn opt_float(v: Option<Value>, name: &str, what: &str) -> Result<Option<f64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(float(&v, name, what)?)),
    }
}

/// NumPy's `poly1d(c).coeffs`: 1-d, leading zeros dropped (a view), [0]
/// when nothing is left (reads the coefficients once).
fn poly1d(i: &mut Interp, span: Span, c: Array, name: &str) -> Result<Array> {
    if c.ndim() != 1 {
        return Err(value_err(
            name,
            format!("Polynomial must be 1d only, got shape {:?}", c.shape()),
            "give 1-d coefficient sequences (highest power first)",
        ));
    }
    let first = if c.dtype().is_complex() {
        let v = c.to_vec::<crate::array::Cf64>()?;
        v.iter().position(|z| z.re != 0.0 || z.im != 0.0)
    } else {
        c.to_vec::<f64>()?.iter().position(|&x| x != 0.0)
    };
    match first {
        Some(0) => Ok(c),
        Some(k) => Calls::new(i, span).index(
            &c,
            &[Index::Slice {
                start: Some(k as i64),
                stop: None,
                step: None,
            }],
        ),
        None => {
            let z = host_f64(vec![0.0], &[1], c.device())?;
            astype(i, span, &z, c.dtype())
        }
    }
}
