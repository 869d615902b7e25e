//! Random builtins over the session's Philox generator: `seed rand randn
//! uniform normal randint` (see `crate::random` for the exact stream).

use super::creation::{dtype_device, op, scalar_arg, shape_args};
use crate::builtins::lang::int_arg;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::random;
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
        "Uniform random numbers in [0, 1); shape is an int or a tuple.",
        false,
        rand
    ),
    op!(
        "randn",
        "randn(shape, dtype=floatX, device=none)",
        "Standard normal random numbers.",
        false,
        randn
    ),
    op!(
        "uniform",
        "uniform(lo, hi, shape, dtype=floatX, device=none)",
        "Uniform random numbers in [lo, hi).",
        false,
        uniform
    ),
    op!(
        "normal",
        "normal(mu, sigma, shape, dtype=floatX, device=none)",
        "Normal random numbers with mean mu and standard deviation sigma.",
        false,
        normal
    ),
    op!(
        "randint",
        "randint(lo, hi, shape, dtype=int64, device=none)",
        "Random integers in [lo, hi).",
        false,
        randint
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

/// shape (one tuple/int, or several ints), then dtype=/device=.
fn shape_and_place(
    i: &Interp,
    a: &mut Args,
    default: DType,
) -> Result<(Vec<usize>, DType, crate::device::Device)> {
    let first = a.req("shape")?;
    let shape = shape_args(&first, a.rest())?;
    let (dt, dev) = dtype_device(a)?;
    Ok((
        shape,
        dt.unwrap_or(default),
        dev.unwrap_or_else(|| i.default_device()),
    ))
}

fn rand(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(random::rand(&mut i.rng, &shape, dt, dev)?.into())
}

fn randn(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(random::randn(&mut i.rng, &shape, dt, dev)?.into())
}

fn two_floats(a: &mut Args, k1: &str, k2: &str) -> Result<(f64, f64)> {
    let x = scalar_arg(&a.req(k1)?, k1)?.as_f64();
    let y = scalar_arg(&a.req(k2)?, k2)?.as_f64();
    Ok((x, y))
}

fn uniform(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (lo, hi) = two_floats(&mut a, "lo", "hi")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(random::uniform(&mut i.rng, lo, hi, &shape, dt, dev)?.into())
}

fn normal(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (mu, sigma) = two_floats(&mut a, "mu", "sigma")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, i.float_x())?;
    a.finish_with(&["dtype", "device"])?;
    Ok(random::normal(&mut i.rng, mu, sigma, &shape, dt, dev)?.into())
}

fn randint(i: &mut Interp, mut a: Args) -> Result<Value> {
    let lo = int_arg(&a.req("lo")?, "lo")?;
    let hi = int_arg(&a.req("hi")?, "hi")?;
    let (shape, dt, dev) = shape_and_place(i, &mut a, DType::Int64)?;
    a.finish_with(&["dtype", "device"])?;
    Ok(random::randint(&mut i.rng, lo, hi, &shape, dt, dev)?.into())
}
