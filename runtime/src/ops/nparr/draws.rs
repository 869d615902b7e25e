//! NumPy Generator's further draws: `random integers standard_normal
//! laplace lognormal logistic gumbel geometric chisquare standard_t weibull
//! pareto rayleigh multinomial dirichlet`, each NumPy's transformation of
//! the session's uniform, normal, exponential, gamma or binomial draws
//! (the Philox stream: the same underlying numbers on the CPU and the GPU;
//! the transformation is elementwise float64 math, so results agree to
//! rounding). Parameters are numbers or arrays broadcasting against the
//! shape; without a shape the draw has the parameters' broadcast shape (a
//! 0-d array for numbers, like `exponential`). Computed in float64, then
//! cast to dtype (floatX by default; int64 for counts).

use super::{arr, astype, data, value_err};
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, op, shape_arg};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "random",
        "random(shape=none, dtype=floatX, device=none)",
        "Uniform random numbers in [0, 1) (NumPy Generator's random; size= is accepted for shape); without a shape, one Python float.",
        false,
        random
    ),
    op!(
        "standard_normal",
        "standard_normal(shape=none, dtype=floatX, device=none)",
        "Standard normal random numbers (randn); without a shape, one Python float.",
        false,
        standard_normal
    ),
    op!(
        "integers",
        "integers(low, high=none, shape=none, dtype=int64, endpoint=false, device=none)",
        "Random integers in [low, high) ([0, low) without high; high included with endpoint=true), NumPy Generator's integers; without a shape, a 0-d array.",
        false,
        integers
    ),
    op!(
        "laplace",
        "laplace(loc=0.0, scale=1.0, shape=none, dtype=floatX, device=none)",
        "Laplace (double exponential) random numbers: mean loc, scale >= 0 (variance 2 scale^2).",
        false,
        |i, a| dist(Kind::Laplace, i, a)
    ),
    op!(
        "lognormal",
        "lognormal(mean=0.0, sigma=1.0, shape=none, dtype=floatX, device=none)",
        "exp of normal random numbers with the given mean and sigma >= 0.",
        false,
        |i, a| dist(Kind::Lognormal, i, a)
    ),
    op!(
        "logistic",
        "logistic(loc=0.0, scale=1.0, shape=none, dtype=floatX, device=none)",
        "Logistic random numbers: mean loc, scale >= 0 (variance scale^2 pi^2 / 3).",
        false,
        |i, a| dist(Kind::Logistic, i, a)
    ),
    op!(
        "gumbel",
        "gumbel(loc=0.0, scale=1.0, shape=none, dtype=floatX, device=none)",
        "Gumbel (extreme value) random numbers: mode loc, scale >= 0 (mean loc + 0.5772 scale).",
        false,
        |i, a| dist(Kind::Gumbel, i, a)
    ),
    op!(
        "geometric",
        "geometric(p, shape=none, dtype=int64, device=none)",
        "Geometric random counts: the number of trials up to the first success, each of probability p in (0, 1] (values >= 1, mean 1 / p).",
        false,
        |i, a| dist(Kind::Geometric, i, a)
    ),
    op!(
        "chisquare",
        "chisquare(df, shape=none, dtype=floatX, device=none)",
        "Chi-square random numbers with df > 0 degrees of freedom (2 * gamma(df / 2)).",
        false,
        |i, a| dist(Kind::Chisquare, i, a)
    ),
    op!(
        "standard_t",
        "standard_t(df, shape=none, dtype=floatX, device=none)",
        "Student's t random numbers with df > 0 degrees of freedom.",
        false,
        |i, a| dist(Kind::StandardT, i, a)
    ),
    op!(
        "weibull",
        "weibull(a, shape=none, dtype=floatX, device=none)",
        "Weibull random numbers of shape a >= 0 and scale 1 (exponential ** (1 / a); 0 when a is 0).",
        false,
        |i, a| dist(Kind::Weibull, i, a)
    ),
    op!(
        "pareto",
        "pareto(a, shape=none, dtype=floatX, device=none)",
        "Pareto II (Lomax) random numbers of shape a > 0, NumPy's pareto (add 1 and multiply by m for the classical Pareto of mode m).",
        false,
        |i, a| dist(Kind::Pareto, i, a)
    ),
    op!(
        "rayleigh",
        "rayleigh(scale=1.0, shape=none, dtype=floatX, device=none)",
        "Rayleigh random numbers of scale >= 0 (mean scale sqrt(pi / 2)).",
        false,
        |i, a| dist(Kind::Rayleigh, i, a)
    ),
    op!(
        "multinomial",
        "multinomial(n, pvals, shape=none, dtype=int64, device=none)",
        "Multinomial random counts: n trials (an int >= 0) among k outcomes of probabilities pvals (1-d, summing to at most 1; the last one takes the rest); shape shape + (k,). Drawn as k - 1 conditional binomials.",
        false,
        multinomial
    ),
    op!(
        "dirichlet",
        "dirichlet(alpha, shape=none, dtype=floatX, device=none)",
        "Dirichlet random vectors of concentrations alpha (1-d, each >= 0): gamma(alpha) normalised along the last axis; shape shape + (k,).",
        false,
        dirichlet
    ),
];

/// The shape (shape= or size=, NumPy's name), dtype and device keywords.
fn shape_kw(a: &mut Args) -> Result<Option<Vec<usize>>> {
    match crate::ops::random_draws::shape_or_size(a)? {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(shape_arg(&v)?)),
    }
}

fn random(i: &mut Interp, mut a: Args) -> Result<Value> {
    unit_draw(i, &mut a, "rand")
}

fn standard_normal(i: &mut Interp, mut a: Args) -> Result<Value> {
    unit_draw(i, &mut a, "randn")
}

/// Whether a call of rand/randn gives no shape (NumPy: one Python float).
pub(crate) fn no_shape(a: &Args) -> bool {
    a.pos.is_empty()
        && !a
            .kw
            .iter()
            .any(|(k, _)| ["shape", "size"].contains(&k.as_str()))
}

/// rand/randn with an optional shape: none gives one Python float.
pub(crate) fn unit_draw(i: &mut Interp, a: &mut Args, base: &str) -> Result<Value> {
    let span = a.span;
    let shape = shape_kw(a)?;
    let (dt, dev) = dtype_device(a)?;
    std::mem::replace(a, Args::new(a.name, vec![], vec![], span))
        .finish_with(&["shape", "size", "dtype", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or_else(|| i.float_x());
    if !d.is_float() {
        return Err(Error::dtype(
            a.name,
            format!("{}: dtype must be a float dtype, got {}", a.name, d.name()),
        )
        .with_help("e.g. dtype=float64"));
    }
    let kw = vec![("dtype", Value::DType(d)), ("device", Value::Device(dev))];
    match shape {
        None => {
            let kw = vec![
                ("dtype", Value::DType(DType::Float64)),
                ("device", Value::Device(dev)),
            ];
            let x = arr(i, span, base, vec![super::shape_value(&[])], kw)?;
            Ok(Value::Float(x.to_vec::<f64>()?[0]))
        }
        Some(s) => super::call(i, span, base, vec![super::shape_value(&s)], kw),
    }
}

fn integers(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "integers";
    let low = super::int(&a.req("low")?, name, "low")?;
    let high = match a.opt("high")? {
        None | Some(Value::None) => None,
        Some(v) => Some(super::int(&v, name, "high")?),
    };
    let shape = shape_kw(&mut a)?;
    let (dt, dev) = dtype_device(&mut a)?;
    let endpoint = crate::ops::stat_args::flag(a.kw("endpoint"), "endpoint", name, false)?;
    a.finish_with(&["high", "shape", "size", "dtype", "endpoint", "device"])?;
    let (lo, hi) = match high {
        None => (0, low),
        Some(h) => (low, h),
    };
    let hi = if endpoint { hi.saturating_add(1) } else { hi };
    if hi <= lo {
        return Err(value_err(
            name,
            format!("low >= high ({lo} >= {hi})"),
            "give low < high (or endpoint=true for low <= high)",
        ));
    }
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or(DType::Int64);
    let s = shape.unwrap_or_default();
    super::call(
        i,
        span,
        "randint",
        vec![Value::Int(lo), Value::Int(hi), super::shape_value(&s)],
        vec![("dtype", Value::DType(d)), ("device", Value::Device(dev))],
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
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
enum P {
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

fn dist(k: Kind, i: &mut Interp, mut a: Args) -> Result<Value> {
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
fn check(
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

fn vector_arg(
    i: &mut Interp,
    v: Value,
    name: &str,
    what: &str,
    dev: Option<Device>,
) -> Result<Array> {
    let x = match dev {
        Some(d) => super::data_on(i, v, d, name, what)?,
        None => data(i, v, name, what)?,
    };
    if x.ndim() != 1 {
        return Err(value_err(
            name,
            format!("{what} must be 1-d, got shape {:?}", x.shape()),
            "give a 1-d list or array",
        ));
    }
    Ok(x)
}

fn multinomial(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "multinomial";
    let n = super::int(&a.req("n")?, name, "n")?;
    let pv = a.req("pvals")?;
    let shape = shape_kw(&mut a)?.unwrap_or_default();
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["shape", "size", "dtype", "device"])?;
    if n < 0 {
        return Err(value_err(name, format!("n < 0 ({n})"), "give n >= 0"));
    }
    let p = vector_arg(i, pv, name, "pvals", dev)?;
    let dev = dev.unwrap_or(p.device());
    let pv = p.to_vec::<f64>()?;
    let k = pv.len();
    if k == 0 {
        return Err(value_err(
            name,
            "pvals must have at least 1 dimension".into(),
            "give k >= 1 probabilities",
        ));
    }
    if pv.iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(value_err(
            name,
            "pvals < 0, pvals > 1 or pvals contains NaNs".into(),
            "give probabilities in [0, 1]",
        ));
    }
    let head: f64 = pv[..k - 1].iter().sum();
    if head > 1.0 + 1e-12 {
        return Err(value_err(
            name,
            format!("sum(pvals[:-1]) > 1.0 ({head})"),
            "give probabilities summing to 1",
        ));
    }
    let d = dt.unwrap_or(DType::Int64);
    let mut remaining = Array::full(&shape, crate::array::Scalar::Int(n), DType::Int64, dev)?;
    let mut left = 1.0f64;
    let mut cols = Vec::with_capacity(k);
    for &pj in &pv[..k - 1] {
        let q = if left > 0.0 {
            (pj / left).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let x = arr(
            i,
            span,
            "binomial",
            vec![remaining.clone().into(), Value::Float(q)],
            vec![
                ("shape", super::shape_value(&shape)),
                ("device", Value::Device(dev)),
            ],
        )?;
        remaining = arr(
            i,
            span,
            "subtract",
            vec![remaining.into(), x.clone().into()],
            vec![],
        )?;
        left -= pj;
        cols.push(Value::Array(x));
    }
    cols.push(Value::Array(remaining));
    let r = arr(
        i,
        span,
        "stack",
        vec![Value::list(cols)],
        vec![("axis", Value::Int(-1))],
    )?;
    Ok(Value::Array(astype(i, span, &r, d)?))
}

fn dirichlet(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "dirichlet";
    let av = a.req("alpha")?;
    let shape = shape_kw(&mut a)?.unwrap_or_default();
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["shape", "size", "dtype", "device"])?;
    let alpha = vector_arg(i, av, name, "alpha", dev)?;
    let dev = dev.unwrap_or(alpha.device());
    let alpha = astype(i, span, &alpha, DType::Float64)?;
    check(
        i,
        span,
        &P::Arr(alpha.clone()),
        |v| v >= 0.0 || v.is_nan(),
        "alpha >= 0",
        name,
    )?;
    let mut out = shape.clone();
    out.push(alpha.size());
    let g = arr(
        i,
        span,
        "gamma",
        vec![alpha.into(), Value::Float(1.0)],
        vec![
            ("shape", super::shape_value(&out)),
            ("dtype", Value::DType(DType::Float64)),
            ("device", Value::Device(dev)),
        ],
    )?;
    let s = arr(
        i,
        span,
        "sum",
        vec![g.clone().into()],
        vec![("axis", Value::Int(-1)), ("keepdims", Value::Bool(true))],
    )?;
    let r = arr(i, span, "divide", vec![g.into(), s.into()], vec![])?;
    let d = dt.unwrap_or_else(|| i.float_x());
    Ok(Value::Array(astype(i, span, &r, d)?))
}
