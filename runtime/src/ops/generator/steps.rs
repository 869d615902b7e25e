//! The steps the further draws are made of: `Steps` (float64 elementwise
//! table ops and base draws of one shape on one device), parameters read
//! as numbers or float64 arrays and checked by their range, triangular's
//! checks and logseries' transformation (Kemp's algorithm, as NumPy).

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::ops::nparr::{arr, astype, call, data, data_on, shape_value};
use crate::value::Value;
use gcalc_lang::Span;

/// Elementwise steps of a draw, in float64 on one device, of one shape.
pub(super) struct Steps<'a> {
    pub i: &'a mut Interp,
    pub span: Span,
    pub dev: Device,
    pub shape: Vec<usize>,
}

impl Steps<'_> {
    pub fn op(&mut self, name: &str, pos: Vec<Value>) -> Result<Value> {
        call(self.i, self.span, name, pos, vec![])
    }
    pub fn op2(&mut self, name: &str, a: Value, b: Value) -> Result<Value> {
        self.op(name, vec![a, b])
    }
    pub fn base(&mut self, name: &str, pos: Vec<Value>) -> Result<Value> {
        let kw = vec![
            ("shape", shape_value(&self.shape)),
            ("dtype", Value::DType(DType::Float64)),
            ("device", Value::Device(self.dev)),
        ];
        call(self.i, self.span, name, pos, kw)
    }
    pub fn uniform(&mut self) -> Result<Value> {
        self.base("uniform", vec![Value::Float(0.0), Value::Float(1.0)])
    }
    pub fn normal(&mut self) -> Result<Value> {
        self.base("normal", vec![Value::Float(0.0), Value::Float(1.0)])
    }
    pub fn exponential(&mut self) -> Result<Value> {
        self.base("exponential", vec![Value::Float(1.0)])
    }
    pub fn gamma(&mut self, k: Value) -> Result<Value> {
        self.base("gamma", vec![k, Value::Float(1.0)])
    }
    /// chisquare(df) = 2 gamma(df / 2).
    pub fn chisq(&mut self, df: Value) -> Result<Value> {
        let half = self.op2("divide", df, Value::Float(2.0))?;
        let g = self.gamma(half)?;
        self.op2("multiply", g, Value::Float(2.0))
    }
    pub fn poisson(&mut self, lam: Value) -> Result<Value> {
        self.base("poisson", vec![lam])
    }
    /// chisquare(df + 2 poisson(nonc / 2)) (zero where both are zero).
    pub fn nc_chisq(&mut self, df: Value, nonc: Value) -> Result<Value> {
        let half = self.op2("divide", nonc, Value::Float(2.0))?;
        let n = self.poisson(half)?;
        let n2 = self.op2("multiply", n, Value::Float(2.0))?;
        let d = self.op2("add", df, n2)?;
        self.chisq(d)
    }
}

/// A parameter as a value for the steps: a number, or a float64 array on `dev`.
pub(super) fn param(
    i: &mut Interp,
    v: Value,
    name: &str,
    what: &str,
    dev: &mut Option<Device>,
    span: Span,
) -> Result<Value> {
    match v {
        Value::Int(k) => Ok(Value::Float(k as f64)),
        Value::Float(f) => Ok(Value::Float(f)),
        Value::Bool(b) => Ok(Value::Float(b as u8 as f64)),
        v => {
            let a = match *dev {
                Some(d) => data_on(i, v, d, name, what)?,
                None => data(i, v, name, what)?,
            };
            *dev = Some(a.device());
            Ok(Value::Array(astype(i, span, &a, DType::Float64)?))
        }
    }
}

/// The smallest and largest value of a parameter (a number: itself).
pub(super) fn range_of(i: &mut Interp, span: Span, v: &Value) -> Result<Option<(f64, f64)>> {
    Ok(match v {
        Value::Float(f) => Some((*f, *f)),
        Value::Array(x) if x.size() == 0 => None,
        Value::Array(x) => {
            let lo = arr(i, span, "min", vec![x.clone().into()], vec![])?.to_vec::<f64>()?[0];
            let hi = arr(i, span, "max", vec![x.clone().into()], vec![])?.to_vec::<f64>()?[0];
            Some((lo, hi))
        }
        _ => None,
    })
}

pub(super) fn value_err(name: &str, msg: String, help: String) -> Error {
    Error::value(format!("{name}: {msg}"))
        .with_op(name)
        .with_help(help)
}

/// NumPy's checks: left <= mode <= right, left < right.
pub(super) fn triangular_check(i: &mut Interp, span: Span, ps: &[Value]) -> Result<()> {
    let name = "triangular";
    let fail = |i: &mut Interp, op: &str, a: &Value, b: &Value| -> Result<bool> {
        let m = call(i, span, op, vec![a.clone(), b.clone()], vec![])?;
        let any = match m {
            Value::Array(_) => call(i, span, "any", vec![m], vec![])?,
            other => other,
        };
        Ok(match any {
            Value::Bool(b) => b,
            Value::Array(x) => x.to_vec::<f64>()?.first().is_some_and(|v| *v != 0.0),
            _ => false,
        })
    };
    if fail(i, "greater", &ps[0], &ps[1])? {
        return Err(value_err(
            name,
            "left > mode".into(),
            "give left <= mode <= right".into(),
        ));
    }
    if fail(i, "greater", &ps[1], &ps[2])? {
        return Err(value_err(
            name,
            "mode > right".into(),
            "give left <= mode <= right".into(),
        ));
    }
    if fail(i, "equal", &ps[0], &ps[2])? {
        return Err(value_err(
            name,
            "left == right".into(),
            "give left < right".into(),
        ));
    }
    Ok(())
}

/// Kemp's second accelerated generator (NumPy's `random_logseries`): V >= p
/// gives 1; else with q = -expm1(ln(1 - p) U): V <= q^2 gives floor(1 +
/// ln V / ln q) (at least 1), V >= q gives 1, else 2.
pub(super) fn logseries(c: &mut Steps<'_>, p: Value) -> Result<Value> {
    let v = c.uniform()?;
    let u = c.uniform()?;
    let np = c.op("negative", vec![p.clone()])?;
    let r = c.op("log1p", vec![np])?;
    let ru = c.op2("multiply", r, u)?;
    let e = c.op("expm1", vec![ru])?;
    let q = c.op("negative", vec![e])?;
    let lv = c.op("log", vec![v.clone()])?;
    let lq = c.op("log", vec![q.clone()])?;
    let k = c.op2("divide", lv, lq)?;
    let k = c.op2("add", k, Value::Float(1.0))?;
    let k = c.op("floor", vec![k])?;
    let k = c.op2("maximum", k, Value::Float(1.0))?;
    let q2 = c.op2("multiply", q.clone(), q.clone())?;
    let small = c.op2("less_equal", v.clone(), q2)?;
    let ge_q = c.op2("greater_equal", v.clone(), q)?;
    let mid = c.op("where", vec![ge_q, Value::Float(1.0), Value::Float(2.0)])?;
    let r = c.op("where", vec![small, k, mid])?;
    let ge_p = c.op2("greater_equal", v, p)?;
    c.op("where", vec![ge_p, Value::Float(1.0), r])
}
