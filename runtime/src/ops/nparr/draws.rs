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

use super::dists::{Kind, P, check, dist};
use super::{arr, astype, data, value_err};
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, op, shape_arg};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

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
pub(super) fn shape_kw(a: &mut Args) -> Result<Option<Vec<usize>>> {
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
