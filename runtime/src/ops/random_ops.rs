//! Random builtins over the session's Philox generator: `seed rand randn
//! uniform normal randint` (see `crate::random` for the exact stream), and
//! the checked draws they make on any device.

use super::creation::{dtype_device, op, scalar_arg, shape_args};
use crate::array::Array;
use crate::backend;
use crate::builtins::lang::int_arg;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::random::Rng;
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "seed",
        "seed(n)",
        "Reset the random generator: the same seed gives the same numbers on every device.",
        false,
        seed
    ),
    op!(
        "rand",
        "rand(shape, dtype=floatX, device=none)",
        "Uniform random numbers in [0, 1); shape is an int or a tuple (or several ints); rand() gives one Python float, as NumPy's.",
        false,
        rand_call
    ),
    op!(
        "randn",
        "randn(shape, dtype=floatX, device=none)",
        "Standard normal random numbers; randn() gives one Python float, as NumPy's.",
        false,
        randn_call
    ),
    op!(
        "uniform",
        "uniform(low=0.0, high=1.0, size=none, dtype=floatX, device=none)",
        "Uniform random numbers in [low, high) (numbers or arrays that broadcast; lo/hi and shape are accepted too); without size and with numbers, one Python float, as NumPy's.",
        false,
        uniform_call
    ),
    op!(
        "normal",
        "normal(loc=0.0, scale=1.0, size=none, dtype=floatX, device=none)",
        "Normal random numbers with mean loc and standard deviation scale >= 0 (numbers or arrays that broadcast; mu/sigma and shape are accepted too); without size and with numbers, one Python float, as NumPy's.",
        false,
        normal_call
    ),
    op!(
        "randint",
        "randint(low, high=none, size=none, dtype=int64, device=none)",
        "Random integers in [low, high), or [0, low) without high (lo/hi and shape are accepted too); without size, one Python int, as NumPy's.",
        false,
        randint_call
    ),
];

fn seed(i: &mut Interp, mut a: Args) -> Result<Value> {
    let n = int_arg(&a.req("n")?, "seed")?;
    a.finish()?;
    let n = u64::try_from(n).map_err(|_| {
        Error::value(format!("seed must be non-negative, got {n}")).with_help("e.g. seed(0)")
    })?;
    i.rng.seed(n);
    Ok(Value::None)
}

/// shape (one tuple/int, or several ints; or size=, NumPy's name), then dtype=/device=.
fn shape_and_place(
    i: &Interp,
    a: &mut Args,
    default: DType,
) -> Result<(Vec<usize>, DType, crate::device::Device)> {
    let first = match super::random_draws::shape_or_size(a)? {
        Some(v) => v,
        None => a.req("shape")?,
    };
    let shape = shape_args(&first, a.rest())?;
    let (dt, dev) = dtype_device(a)?;
    Ok((
        shape,
        dt.unwrap_or(default),
        dev.unwrap_or_else(|| i.default_device()),
    ))
}

fn rand_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    if super::nparr::draws::no_shape(&a) {
        return super::nparr::draws::unit_draw(i, &mut a, "rand");
    }
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(rand(&mut i.rng, &shape, dt, dev)?.into())
}

fn randn_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    if super::nparr::draws::no_shape(&a) {
        return super::nparr::draws::unit_draw(i, &mut a, "randn");
    }
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(randn(&mut i.rng, &shape, dt, dev)?.into())
}

fn two_floats(a: &mut Args, k1: &str, k2: &str) -> Result<(f64, f64)> {
    let x = scalar_arg(&a.req(k1)?, k1)?.as_f64();
    let y = scalar_arg(&a.req(k2)?, k2)?.as_f64();
    Ok((x, y))
}

/// Whether a call is gcalc's own form `name(a, b, shape...)` with two numbers
/// and a shape by position (else NumPy's form: defaults, `size=`, keywords,
/// array parameters, no size for one Python float).
fn own_form(a: &Args) -> bool {
    let number = |v: &Value| matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_));
    a.pos.len() >= 3
        && a.pos[..2].iter().all(number)
        && a.kw.iter().all(|(k, _)| k == "dtype" || k == "device")
}

fn uniform_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    if !own_form(&a) {
        return super::generator::numpy_uniform(i, a);
    }
    let (lo, hi) = two_floats(&mut a, "lo", "hi")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(uniform(&mut i.rng, lo, hi, &shape, dt, dev)?.into())
}

fn normal_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    if !own_form(&a) {
        return super::generator::numpy_normal(i, a);
    }
    let (mu, sigma) = two_floats(&mut a, "mu", "sigma")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(normal(&mut i.rng, mu, sigma, &shape, dt, dev)?.into())
}

/// NumPy's `randint(low, high=None, size=None)` (gcalc's `lo`/`hi`/`shape`
/// too): without high, [0, low); without size, one Python int.
fn randint_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    let sized = a.pos.len() > 2
        || a.kw
            .iter()
            .any(|(k, _)| ["shape", "size"].contains(&k.as_str()));
    let low = match a.opt("lo")? {
        Some(v) => v,
        None => a.req("low")?,
    };
    let high = match a.opt("hi")? {
        Some(v) => Some(v),
        None => a.opt("high")?,
    };
    let (lo, hi) = match high {
        Some(h) if !matches!(h, Value::None) => (int_arg(&low, "low")?, int_arg(&h, "high")?),
        _ => (0, int_arg(&low, "low")?),
    };
    if !sized {
        let (dt, dev) = dtype_device(&mut a)?;
        a.finish_with(&["dtype", "device"])?;
        let dev = dev.unwrap_or_else(|| i.default_device());
        let x = randint(&mut i.rng, lo, hi, &[], dt.unwrap_or(DType::Int64), dev)?;
        return Ok(Value::Int(x.to_vec::<i64>()?[0]));
    }
    let (shape, dt, dev) = shape_and_place(i, &mut a, DType::Int64)?;
    a.finish_with(&["dtype", "device"])?;
    Ok(randint(&mut i.rng, lo, hi, &shape, dt, dev)?.into())
}

fn float_dtype(dtype: DType, op: &str) -> Result<()> {
    if !dtype.is_float() {
        return Err(
            Error::dtype(op, format!("{op} makes floating-point values, not {dtype}")).with_help(
                format!("use dtype=float32 or float64, or {op}(...).astype({dtype})"),
            ),
        );
    }
    Ok(())
}

fn numel(shape: &[usize], dtype: DType) -> Result<usize> {
    crate::array::create::checked_numel(shape, dtype)
}

/// `rand(shape)`: uniform in [0, 1).
pub fn rand(rng: &mut Rng, shape: &[usize], dtype: DType, device: Device) -> Result<Array> {
    uniform(rng, 0.0, 1.0, shape, dtype, device)
}

/// `uniform(lo, hi, shape)`: uniform in [lo, hi).
pub fn uniform(
    rng: &mut Rng,
    lo: f64,
    hi: f64,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    float_dtype(dtype, "uniform")?;
    let n = numel(shape, dtype)?;
    backend::random::uniform(rng, lo, hi, n, shape, dtype, device)
}

/// `randn(shape)`: standard normal.
pub fn randn(rng: &mut Rng, shape: &[usize], dtype: DType, device: Device) -> Result<Array> {
    normal(rng, 0.0, 1.0, shape, dtype, device)
}

/// `normal(mu, sigma, shape)`.
pub fn normal(
    rng: &mut Rng,
    mu: f64,
    sigma: f64,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    float_dtype(dtype, "normal")?;
    if sigma < 0.0 || sigma.is_nan() {
        return Err(
            Error::value(format!("normal: sigma must be non-negative, got {sigma}"))
                .with_help("e.g. normal(0, 1, 10)"),
        );
    }
    let n = numel(shape, dtype)?;
    backend::random::normal(rng, mu, sigma, n, shape, dtype, device)
}

/// `randint(lo, hi, shape)`: integers in [lo, hi), int64 unless `dtype` says otherwise.
pub fn randint(
    rng: &mut Rng,
    lo: i64,
    hi: i64,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    if hi <= lo {
        return Err(Error::value(format!("randint: low >= high ({lo} >= {hi})"))
            .with_help("e.g. randint(0, 10, 5) gives 0..9"));
    }
    // NumPy's bounds check: every value of [lo, hi) must fit the dtype.
    let fits = match dtype {
        DType::Bool => Some((0, 1)),
        DType::Int32 => Some((i32::MIN as i64, i32::MAX as i64)),
        _ => None,
    };
    if let Some((min, max)) = fits {
        let bad = if lo < min {
            Some(("low", lo))
        } else if hi - 1 > max {
            Some(("high", hi))
        } else {
            None
        };
        if let Some((which, v)) = bad {
            return Err(Error::value(format!(
                "randint: {which} = {v} is out of bounds for {dtype} (values must lie in {min}..={max})"
            ))
            .with_help("use a wider dtype (dtype=int64) or bounds the dtype holds"));
        }
    }
    let n = numel(shape, dtype)?;
    backend::random::randint(rng, lo, hi, n, shape, dtype, device)
}
