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
        "uniform(lo, hi, shape, dtype=floatX, device=none)",
        "Uniform random numbers in [lo, hi).",
        false,
        uniform_call
    ),
    op!(
        "normal",
        "normal(mu, sigma, shape, dtype=floatX, device=none)",
        "Normal random numbers with mean mu and standard deviation sigma.",
        false,
        normal_call
    ),
    op!(
        "randint",
        "randint(lo, hi, shape, dtype=int64, device=none)",
        "Random integers in [lo, hi).",
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

fn uniform_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (lo, hi) = two_floats(&mut a, "lo", "hi")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(uniform(&mut i.rng, lo, hi, &shape, dt, dev)?.into())
}

fn normal_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (mu, sigma) = two_floats(&mut a, "mu", "sigma")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(normal(&mut i.rng, mu, sigma, &shape, dt, dev)?.into())
}

fn randint_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    let lo = int_arg(&a.req("lo")?, "lo")?;
    let hi = int_arg(&a.req("hi")?, "hi")?;
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
    let n = numel(shape, dtype)?;
    backend::random::randint(rng, lo, hi, n, shape, dtype, device)
}
