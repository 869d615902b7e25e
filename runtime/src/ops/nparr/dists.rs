//! The parameterised draws of NumPy's Generator (`laplace lognormal
//! logistic gumbel geometric chisquare standard_t weibull pareto
//! rayleigh`): each parameter a number or an array (checked against its
//! rule, an array's min and max read back once), the base draw (uniform,
//! normal, exponential or gamma) made in float64 on the parameters' device,
//! NumPy's transformation applied by elementwise table ops, then the cast.

use super::draws::shape_kw;
use super::{arr, astype, data, value_err};
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::ops::creation::dtype_device;
use crate::value::Value;
use gcalc_lang::Span;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Laplace,
    Lognormal,
    Logistic,
    Gumbel,
    Geometric,
    Chisquare,
    StandardT,
    Weibull,
    Pareto,
    Rayleigh,
}

/// A parameter: a number or a float64 array.
#[derive(Clone)]
pub(super) enum P {
    Num(f64),
    Arr(Array),
}

impl P {
    fn value(&self) -> Value {
        match self {
            P::Num(v) => Value::Float(*v),
            P::Arr(a) => Value::Array(a.clone()),
        }
    }
}

/// (keyword, default) of each parameter, and the rule it must keep.
fn params(
    k: Kind,
) -> (
    &'static [(&'static str, Option<f64>)],
    fn(f64) -> bool,
    &'static str,
) {
    fn nonneg(v: f64) -> bool {
        v >= 0.0 || v.is_nan()
    }
    fn pos(v: f64) -> bool {
        v > 0.0 || v.is_nan()
    }
    fn prob(v: f64) -> bool {
        v > 0.0 && v <= 1.0
    }
    match k {
        Kind::Laplace | Kind::Logistic | Kind::Gumbel => (
            &[("loc", Some(0.0)), ("scale", Some(1.0))],
            nonneg,
            "scale >= 0",
        ),
        Kind::Lognormal => (
            &[("mean", Some(0.0)), ("sigma", Some(1.0))],
            nonneg,
            "sigma >= 0",
        ),
        Kind::Geometric => (&[("p", None)], prob, "0 < p <= 1"),
        Kind::Chisquare | Kind::StandardT => (&[("df", None)], pos, "df > 0"),
        Kind::Weibull => (&[("a", None)], nonneg, "a >= 0"),
        Kind::Pareto => (&[("a", None)], pos, "a > 0"),
        Kind::Rayleigh => (&[("scale", Some(1.0))], nonneg, "scale >= 0"),
    }
}

fn param(i: &Interp, v: Value, name: &str, what: &str, dev: &mut Option<Device>) -> Result<P> {
    match v {
        Value::Int(k) => Ok(P::Num(k as f64)),
        Value::Float(f) => Ok(P::Num(f)),
        v => {
            let a = match *dev {
                Some(d) => super::data_on(i, v, d, name, what)?,
                None => data(i, v, name, what)?,
            };
            *dev = Some(a.device());
            Ok(P::Arr(a))
        }
    }
}

pub(super) fn dist(k: Kind, i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = a.name;
    let (spec, rule, rule_text) = params(k);
    let mut raw = Vec::with_capacity(spec.len());
    for (key, default) in spec {
        let v = match (a.opt(key)?, default) {
            (Some(v), _) => v,
            (None, Some(d)) => Value::Float(*d),
            (None, None) => a.req(key)?,
        };
        raw.push(v);
    }
    let shape = shape_kw(&mut a)?;
    let (dt, dev_kw) = dtype_device(&mut a)?;
    let mut keys: Vec<&str> = spec.iter().map(|(k, _)| *k).collect();
    keys.extend(["shape", "size", "dtype", "device"]);
    a.finish_with(&keys)?;
    let mut dev = dev_kw;
    let mut ps = Vec::with_capacity(raw.len());
    for ((key, _), v) in spec.iter().zip(raw) {
        let p = param(i, v, name, key, &mut dev)?;
        ps.push(match p {
            P::Arr(x) => P::Arr(astype(i, span, &x, DType::Float64)?),
            p => p,
        });
    }
    let dev = dev.unwrap_or_else(|| i.default_device());
    // The checked parameter is the last one (scale, sigma, p, df, a).
    check(
        i,
        span,
        ps.last().expect("a parameter"),
        rule,
        rule_text,
        name,
    )?;
    let out = match shape {
        Some(s) => s,
        None => {
            let mut s: Vec<usize> = vec![];
            for p in &ps {
                if let P::Arr(x) = p {
                    s = crate::array::layout::broadcast_shapes(&s, x.shape(), name)?;
                }
            }
            s
        }
    };
    let d = dt.unwrap_or(if k == Kind::Geometric {
        DType::Int64
    } else {
        i.float_x()
    });
    let mut c = Ew {
        i,
        span,
        dev,
        out: out.clone(),
    };
    let r = match k {
        Kind::Laplace => {
            // NumPy: U < 0.5: loc + scale log(2U); else loc - scale log(2 - 2U).
            let u = c.uniform()?;
            let u2 = c.op2("multiply", u.clone(), Value::Float(2.0))?;
            let lo = c.op("log", vec![u2.clone()])?;
            let rest = c.op2("subtract", Value::Float(2.0), u2)?;
            let hi = c.op("log", vec![rest])?;
            let hi = c.op("negative", vec![hi])?;
            let m = c.op2("less", u, Value::Float(0.5))?;
            let z = c.op("where", vec![m, lo, hi])?;
            c.loc_scale(z, &ps[0], &ps[1])?
        }
        Kind::Lognormal => {
            let z = c.normal()?;
            let z = c.loc_scale(z, &ps[0], &ps[1])?;
            c.op("exp", vec![z])?
        }
        Kind::Logistic => {
            let u = c.uniform()?;
            let v = c.op2("subtract", Value::Float(1.0), u.clone())?;
            let q = c.op2("divide", u, v)?;
            let z = c.op("log", vec![q])?;
            c.loc_scale(z, &ps[0], &ps[1])?
        }
        Kind::Gumbel => {
            let e = c.exponential()?;
            let l = c.op("log", vec![e])?;
            let z = c.op("negative", vec![l])?;
            c.loc_scale(z, &ps[0], &ps[1])?
        }
        Kind::Geometric => {
            // ceil(E / -log1p(-p)), at least 1 (NumPy's inversion).
            let e = c.exponential()?;
            let np = c.op("negative", vec![ps[0].value()])?;
            let l = c.op("log1p", vec![np])?;
            let nl = c.op("negative", vec![l])?;
            let q = c.op2("divide", e, nl)?;
            let q = c.op("ceil", vec![q])?;
            c.op2("maximum", q, Value::Float(1.0))?
        }
        Kind::Chisquare => {
            let half = c.op2("divide", ps[0].value(), Value::Float(2.0))?;
            let g = c.gamma(half)?;
            c.op2("multiply", g, Value::Float(2.0))?
        }
        Kind::StandardT => {
            // NumPy: sqrt(df / 2) * N / sqrt(gamma(df / 2)).
            let half = c.op2("divide", ps[0].value(), Value::Float(2.0))?;
            let n = c.normal()?;
            let g = c.gamma(half.clone())?;
            let sh = c.op("sqrt", vec![half])?;
            let num = c.op2("multiply", sh, n)?;
            let sg = c.op("sqrt", vec![g])?;
            c.op2("divide", num, sg)?
        }
        Kind::Weibull => {
            let e = c.exponential()?;
            let inv = c.op2("divide", Value::Float(1.0), ps[0].value())?;
            let w = c.op2("power", e, inv)?;
            let zero = c.op2("equal", ps[0].value(), Value::Float(0.0))?;
            c.op("where", vec![zero, Value::Float(0.0), w])?
        }
        Kind::Pareto => {
            let e = c.exponential()?;
            let q = c.op2("divide", e, ps[0].value())?;
            c.op("expm1", vec![q])?
        }
        Kind::Rayleigh => {
            let e = c.exponential()?;
            let e2 = c.op2("multiply", e, Value::Float(2.0))?;
            let r = c.op("sqrt", vec![e2])?;
            c.op2("multiply", r, ps[0].value())?
        }
    };
    let r = super::as_array(r)?;
    if r.shape() != out.as_slice() {
        let r2 = arr(
            i,
            span,
            "broadcast_to",
            vec![r.clone().into(), super::shape_value(&out)],
            vec![],
        )
        .map_err(|_| {
            value_err(
                name,
                format!(
                    "parameters of shape {:?} do not broadcast to the shape {out:?}",
                    r.shape()
                ),
                "give parameters that broadcast against shape",
            )
        })?;
        return Ok(Value::Array(astype(i, span, &r2, d)?));
    }
    Ok(Value::Array(astype(i, span, &r, d)?))
}

/// A parameter's rule checked (an array's min and max read back once).
pub(super) fn check(
    i: &mut Interp,
    span: Span,
    p: &P,
    rule: fn(f64) -> bool,
    text: &str,
    name: &str,
) -> Result<()> {
    let bad = match p {
        P::Num(v) => (!rule(*v)).then_some(*v),
        P::Arr(x) if x.size() == 0 => None,
        P::Arr(x) => {
            let lo = arr(i, span, "min", vec![x.clone().into()], vec![])?.to_vec::<f64>()?[0];
            let hi = arr(i, span, "max", vec![x.clone().into()], vec![])?.to_vec::<f64>()?[0];
            [lo, hi].into_iter().find(|v| !rule(*v))
        }
    };
    match bad {
        Some(v) => Err(value_err(
            name,
            format!("needs {text}, got {v}"),
            &format!("give {text}"),
        )),
        None => Ok(()),
    }
}

/// Elementwise steps of a draw, in float64 on one device.
struct Ew<'a> {
    i: &'a mut Interp,
    span: Span,
    dev: Device,
    out: Vec<usize>,
}

impl Ew<'_> {
    fn op(&mut self, name: &str, pos: Vec<Value>) -> Result<Value> {
        super::call(self.i, self.span, name, pos, vec![])
    }
    fn op2(&mut self, name: &str, a: Value, b: Value) -> Result<Value> {
        self.op(name, vec![a, b])
    }
    fn kw(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("shape", super::shape_value(&self.out)),
            ("dtype", Value::DType(DType::Float64)),
            ("device", Value::Device(self.dev)),
        ]
    }
    fn uniform(&mut self) -> Result<Value> {
        let kw = self.kw();
        super::call(
            self.i,
            self.span,
            "uniform",
            vec![Value::Float(0.0), Value::Float(1.0)],
            kw,
        )
    }
    fn normal(&mut self) -> Result<Value> {
        let kw = self.kw();
        super::call(
            self.i,
            self.span,
            "normal",
            vec![Value::Float(0.0), Value::Float(1.0)],
            kw,
        )
    }
    fn exponential(&mut self) -> Result<Value> {
        let kw = self.kw();
        super::call(
            self.i,
            self.span,
            "exponential",
            vec![Value::Float(1.0)],
            kw,
        )
    }
    fn gamma(&mut self, k: Value) -> Result<Value> {
        let kw = self.kw();
        super::call(self.i, self.span, "gamma", vec![k, Value::Float(1.0)], kw)
    }
    /// loc + scale * z.
    fn loc_scale(&mut self, z: Value, loc: &P, scale: &P) -> Result<Value> {
        let s = self.op2("multiply", z, scale.value())?;
        self.op2("add", s, loc.value())
    }
}
