//! NumPy's further draws, composed of the session's uniform, normal,
//! exponential, gamma and Poisson draws by elementwise table ops (so every
//! device gives the same underlying numbers; float64 math, then the cast):
//! `random_sample sample ranf` (rand with size=), `standard_cauchy
//! standard_exponential standard_gamma triangular wald f
//! noncentral_chisquare noncentral_f negative_binomial logseries
//! vonmises zipf hypergeometric multivariate_normal` (the last four in
//! `rejection.rs` and `mvn.rs`). Parameters are numbers or arrays that broadcast
//! against size; without size the draw has their broadcast shape.

use super::steps::{Steps, logseries, param, range_of, triangular_check, value_err};
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, op, shape_arg};
use crate::ops::nparr::{arr, astype, shape_value};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "random_sample",
        "random_sample(size=none, dtype=floatX, device=none)",
        "Uniform random numbers in [0, 1) (NumPy's legacy name of random); without size, one Python float.",
        false,
        |i, mut a| crate::ops::nparr::draws::unit_draw(i, &mut a, "rand")
    ),
    op!(
        "sample",
        "sample(size=none, dtype=floatX, device=none)",
        "Uniform random numbers in [0, 1) (NumPy's legacy alias of random_sample); without size, one Python float.",
        false,
        |i, mut a| crate::ops::nparr::draws::unit_draw(i, &mut a, "rand")
    ),
    op!(
        "ranf",
        "ranf(size=none, dtype=floatX, device=none)",
        "Uniform random numbers in [0, 1) (NumPy's legacy alias of random_sample); without size, one Python float.",
        false,
        |i, mut a| crate::ops::nparr::draws::unit_draw(i, &mut a, "rand")
    ),
    op!(
        "standard_cauchy",
        "standard_cauchy(size=none, dtype=floatX, device=none)",
        "Standard Cauchy (Lorentz) random numbers: the ratio of two standard normals.",
        false,
        |i, a| draw(K::Cauchy, i, a)
    ),
    op!(
        "standard_exponential",
        "standard_exponential(size=none, dtype=floatX, device=none)",
        "Exponential random numbers of mean 1 (exponential(1.0, size)).",
        false,
        |i, a| draw(K::StdExp, i, a)
    ),
    op!(
        "standard_gamma",
        "standard_gamma(shape, size=none, dtype=floatX, device=none)",
        "Gamma random numbers of shape >= 0 and scale 1 (gamma(shape, 1.0, size)).",
        false,
        |i, a| draw(K::StdGamma, i, a)
    ),
    op!(
        "triangular",
        "triangular(left, mode, right, size=none, dtype=floatX, device=none)",
        "Triangular random numbers on [left, right] with mode mode (left <= mode <= right, left < right), by inversion.",
        false,
        |i, a| draw(K::Triangular, i, a)
    ),
    op!(
        "wald",
        "wald(mean, scale, size=none, dtype=floatX, device=none)",
        "Wald (inverse Gaussian) random numbers of mean > 0 and scale > 0 (NumPy's transformation of a normal and a uniform).",
        false,
        |i, a| draw(K::Wald, i, a)
    ),
    op!(
        "f",
        "f(dfnum, dfden, size=none, dtype=floatX, device=none)",
        "F (Fisher-Snedecor) random numbers: (chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden), dfnum > 0, dfden > 0.",
        false,
        |i, a| draw(K::F, i, a)
    ),
    op!(
        "noncentral_chisquare",
        "noncentral_chisquare(df, nonc, size=none, dtype=floatX, device=none)",
        "Noncentral chi-square random numbers: df > 0 degrees of freedom, noncentrality nonc >= 0 (chisquare(df + 2 poisson(nonc / 2)), the Poisson mixture).",
        false,
        |i, a| draw(K::NcChisq, i, a)
    ),
    op!(
        "noncentral_f",
        "noncentral_f(dfnum, dfden, nonc, size=none, dtype=floatX, device=none)",
        "Noncentral F random numbers: (noncentral_chisquare(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden), dfnum > 0, dfden > 0, nonc >= 0.",
        false,
        |i, a| draw(K::NcF, i, a)
    ),
    op!(
        "negative_binomial",
        "negative_binomial(n, p, size=none, dtype=int64, device=none)",
        "Negative binomial random counts: failures before n > 0 successes of probability p in (0, 1] (poisson(gamma(n, (1 - p) / p)), NumPy's mixture).",
        false,
        |i, a| draw(K::NegBinomial, i, a)
    ),
    op!(
        "logseries",
        "logseries(p, size=none, dtype=int64, device=none)",
        "Logarithmic series random counts (>= 1) of parameter p in [0, 1) (Kemp's algorithm, as NumPy).",
        false,
        |i, a| draw(K::Logseries, i, a)
    ),
    op!(
        "vonmises",
        "vonmises(mu, kappa, size=none, dtype=floatX, device=none)",
        "von Mises random numbers in [-pi, pi) of mode mu and concentration kappa >= 0 (NumPy's Best-Fisher rejection; uniform below kappa 1e-8, a wrapped normal above 1e6).",
        false,
        |i, a| draw(K::Vonmises, i, a)
    ),
    op!(
        "zipf",
        "zipf(a, size=none, dtype=int64, device=none)",
        "Zipf random counts (>= 1) of exponent a > 1 (NumPy's rejection algorithm).",
        false,
        |i, a| draw(K::Zipf, i, a)
    ),
    op!(
        "hypergeometric",
        "hypergeometric(ngood, nbad, nsample, size=none, dtype=int64, device=none)",
        "Hypergeometric random counts: good items among nsample drawn without replacement from ngood good and nbad bad ones (ints >= 0, nsample <= ngood + nbad), by inversion of the pmf through choice(p=).",
        false,
        super::rejection::hypergeometric
    ),
    op!(
        "multivariate_normal",
        "multivariate_normal(mean, cov, size=none, check_valid=\"warn\", tol=1e-8, dtype=floatX, device=none)",
        "Normal random vectors of mean mean (1-d, k values) and covariance cov (k x k, symmetric positive semi-definite): standard normals times the square root of cov from eigh; shape size + (k,). check_valid: \"warn\" (print a warning), \"raise\" or \"ignore\" a cov that is not symmetric positive semi-definite.",
        false,
        super::mvn::multivariate_normal
    ),
];

#[derive(Clone, Copy, PartialEq)]
enum K {
    Cauchy,
    StdExp,
    StdGamma,
    Triangular,
    Wald,
    F,
    NcChisq,
    NcF,
    NegBinomial,
    Logseries,
    Vonmises,
    Zipf,
}

type Rule = fn(f64) -> bool;
type Spec = &'static [(&'static str, Option<(Rule, &'static str)>)];

fn pos(v: f64) -> bool {
    v > 0.0
}
fn nonneg(v: f64) -> bool {
    v >= 0.0
}
fn prob(v: f64) -> bool {
    v > 0.0 && v <= 1.0
}
fn below_one(v: f64) -> bool {
    (0.0..1.0).contains(&v)
}
fn above_one(v: f64) -> bool {
    v > 1.0
}

/// (name, rule, the rule in words) of each parameter.
fn spec(k: K) -> Spec {
    const NONE: Spec = &[];
    const STD_GAMMA: Spec = &[("shape", Some((nonneg, "shape >= 0")))];
    const TRIANGULAR: Spec = &[("left", None), ("mode", None), ("right", None)];
    const WALD: Spec = &[
        ("mean", Some((pos, "mean > 0"))),
        ("scale", Some((pos, "scale > 0"))),
    ];
    const F: Spec = &[
        ("dfnum", Some((pos, "dfnum > 0"))),
        ("dfden", Some((pos, "dfden > 0"))),
    ];
    const NC_CHISQ: Spec = &[
        ("df", Some((pos, "df > 0"))),
        ("nonc", Some((nonneg, "nonc >= 0"))),
    ];
    const NC_F: Spec = &[
        ("dfnum", Some((pos, "dfnum > 0"))),
        ("dfden", Some((pos, "dfden > 0"))),
        ("nonc", Some((nonneg, "nonc >= 0"))),
    ];
    const NEG_BINOMIAL: Spec = &[
        ("n", Some((pos, "n > 0"))),
        ("p", Some((prob, "0 < p <= 1"))),
    ];
    const LOGSERIES: Spec = &[("p", Some((below_one, "0 <= p < 1")))];
    const VONMISES: Spec = &[("mu", None), ("kappa", Some((nonneg, "kappa >= 0")))];
    const ZIPF: Spec = &[("a", Some((above_one, "a > 1")))];
    match k {
        K::Cauchy | K::StdExp => NONE,
        K::StdGamma => STD_GAMMA,
        K::Triangular => TRIANGULAR,
        K::Wald => WALD,
        K::F => F,
        K::NcChisq => NC_CHISQ,
        K::NcF => NC_F,
        K::NegBinomial => NEG_BINOMIAL,
        K::Logseries => LOGSERIES,
        K::Vonmises => VONMISES,
        K::Zipf => ZIPF,
    }
}

fn draw(k: K, i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = a.name;
    let sp = spec(k);
    let mut raw = Vec::with_capacity(sp.len());
    for (key, _) in sp {
        raw.push(a.req(key)?);
    }
    let size = match crate::ops::random_draws::shape_or_size(&mut a)? {
        None | Some(Value::None) => None,
        Some(v) => Some(shape_arg(&v)?),
    };
    let (dt, dev_kw) = dtype_device(&mut a)?;
    let mut keys: Vec<&str> = sp.iter().map(|(k, _)| *k).collect();
    keys.extend(["shape", "size", "dtype", "device"]);
    a.finish_with(&keys)?;
    let mut dev = dev_kw;
    let mut ps = Vec::with_capacity(raw.len());
    for ((key, rule), v) in sp.iter().zip(raw) {
        let p = param(i, v, name, key, &mut dev, span)?;
        if let Some((rule, text)) = rule
            && let Some((lo, hi)) = range_of(i, span, &p)?
            && let Some(bad) = [lo, hi].into_iter().find(|v| !rule(*v))
        {
            return Err(value_err(
                name,
                format!("needs {text}, got {bad}"),
                format!("give {text}"),
            ));
        }
        ps.push(p);
    }
    if k == K::Triangular {
        triangular_check(i, span, &ps)?;
    }
    let dev = dev.unwrap_or_else(|| i.default_device());
    let shape = match size {
        Some(s) => s,
        None => {
            let mut s: Vec<usize> = vec![];
            for p in &ps {
                if let Value::Array(x) = p {
                    s = crate::array::layout::broadcast_shapes(&s, x.shape(), name)?;
                }
            }
            s
        }
    };
    let counts = matches!(k, K::NegBinomial | K::Logseries | K::Zipf);
    let d = dt.unwrap_or(if counts { DType::Int64 } else { i.float_x() });
    let mut c = Steps {
        i,
        span,
        dev,
        shape: shape.clone(),
    };
    let p = |j: usize| ps[j].clone();
    let r = match k {
        K::Cauchy => {
            let a = c.normal()?;
            let b = c.normal()?;
            c.op2("divide", a, b)?
        }
        K::StdExp => c.exponential()?,
        K::StdGamma => c.gamma(p(0))?,
        K::Triangular => {
            // NumPy: U <= fc: left + sqrt(U (right - left)(mode - left)); else right - sqrt((1 - U)(right - left)(right - mode)).
            let u = c.uniform()?;
            let base = c.op2("subtract", p(2), p(0))?;
            let lb = c.op2("subtract", p(1), p(0))?;
            let rb = c.op2("subtract", p(2), p(1))?;
            let fc = c.op2("divide", lb.clone(), base.clone())?;
            let lp = c.op2("multiply", base.clone(), lb)?;
            let rp = c.op2("multiply", base, rb)?;
            let ul = c.op2("multiply", u.clone(), lp)?;
            let ul = c.op("sqrt", vec![ul])?;
            let lo = c.op2("add", p(0), ul)?;
            let v = c.op2("subtract", Value::Float(1.0), u.clone())?;
            let ur = c.op2("multiply", v, rp)?;
            let ur = c.op("sqrt", vec![ur])?;
            let hi = c.op2("subtract", p(2), ur)?;
            let m = c.op2("less_equal", u, fc)?;
            c.op("where", vec![m, lo, hi])?
        }
        K::Wald => {
            // NumPy: y = N^2; x = mean + mean^2 y / (2 scale) - mean / (2 scale) sqrt(4 mean scale y + (mean y)^2);
            // U <= mean / (mean + x): x, else mean^2 / x.
            let n = c.normal()?;
            let y = c.op2("multiply", n.clone(), n)?;
            let my = c.op2("multiply", p(0), y)?;
            let two_s = c.op2("multiply", p(1), Value::Float(2.0))?;
            let my2 = c.op2("multiply", my.clone(), my.clone())?;
            let four = c.op2("multiply", p(1), Value::Float(4.0))?;
            let t = c.op2("multiply", four, my.clone())?;
            let t = c.op2("add", t, my2)?;
            let root = c.op("sqrt", vec![t])?;
            let d1 = c.op2("divide", p(0), two_s)?;
            let inner = c.op2("subtract", my, root)?;
            let x = c.op2("multiply", d1, inner)?;
            let x = c.op2("add", p(0), x)?;
            let u = c.uniform()?;
            let mx = c.op2("add", p(0), x.clone())?;
            let q = c.op2("divide", p(0), mx)?;
            let m = c.op2("less_equal", u, q)?;
            let m2 = c.op2("multiply", p(0), p(0))?;
            let alt = c.op2("divide", m2, x.clone())?;
            c.op("where", vec![m, x, alt])?
        }
        K::F => {
            let a = c.chisq(p(0))?;
            let a = c.op2("divide", a, p(0))?;
            let b = c.chisq(p(1))?;
            let b = c.op2("divide", b, p(1))?;
            c.op2("divide", a, b)?
        }
        K::NcChisq => c.nc_chisq(p(0), p(1))?,
        K::NcF => {
            let a = c.nc_chisq(p(0), p(2))?;
            let a = c.op2("multiply", a, p(1))?;
            let b = c.chisq(p(1))?;
            let b = c.op2("multiply", b, p(0))?;
            c.op2("divide", a, b)?
        }
        K::NegBinomial => {
            // NumPy: poisson(gamma(n, (1 - p) / p)).
            let q = c.op2("subtract", Value::Float(1.0), p(1))?;
            let scale = c.op2("divide", q, p(1))?;
            let g = c.gamma(p(0))?;
            let lam = c.op2("multiply", g, scale)?;
            c.poisson(lam)?
        }
        K::Logseries => logseries(&mut c, p(0))?,
        K::Vonmises => super::rejection::vonmises(&mut c, p(0), p(1))?,
        K::Zipf => super::rejection::zipf(&mut c, p(0))?,
    };
    let r = crate::ops::nparr::as_array(r)?;
    let r = if r.shape() != shape.as_slice() {
        arr(
            c.i,
            span,
            "broadcast_to",
            vec![r.clone().into(), shape_value(&shape)],
            vec![],
        )
        .map_err(|_| {
            value_err(
                name,
                format!(
                    "parameters of shape {:?} do not broadcast to size {shape:?}",
                    r.shape()
                ),
                "give parameters that broadcast against size".into(),
            )
        })?
    } else {
        r
    };
    Ok(Value::Array(astype(c.i, span, &r, d)?))
}
