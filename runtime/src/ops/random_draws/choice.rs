//! `choice(a, shape=none, replace=true, p=none)`, `permutation(x)` and
//! `shuffle(x)` (NumPy Generator's, along axis 0): indices drawn on the
//! array's device (`randint`'s integers, the keyed permutation, or a cdf
//! search when `p` is given), then the rows gathered there. `p` is read on
//! the host to check it (on a GPU, one copy of n values); without
//! replacement and with `p`, the k indices are chosen on the host
//! (Efraimidis-Spirakis keys over the n candidates) and uploaded.

use super::super::creation::{dtype_device, shape_arg};
use crate::array::Array;
use crate::backend;
use crate::builtins::lang::int_arg;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

/// The population: `range(n)` (an int), or the rows of an array.
enum Pop {
    Range(u64),
    Rows(Array),
}

impl Pop {
    /// Where the result goes: the array's device (`device=` must agree), or
    /// `device=` / the session's for a range.
    fn device(&self, i: &Interp, op: &str, dev: Option<Device>) -> Result<Device> {
        match (self, dev) {
            (Pop::Rows(x), Some(d)) if d != x.device() => {
                Err(Error::device_mismatch(op, d, x.device()))
            }
            (Pop::Rows(x), _) => Ok(x.device()),
            (Pop::Range(_), d) => Ok(d.unwrap_or_else(|| i.default_device())),
        }
    }

    fn len(&self) -> u64 {
        match self {
            Pop::Range(n) => *n,
            Pop::Rows(a) => a.shape()[0] as u64,
        }
    }
}

/// `zero_d`: the kind of error a 0-d array is (NumPy's permutation raises
/// IndexError, choice ValueError).
fn population(i: &Interp, op: &str, name: &str, v: &Value, zero_d: ErrorKind) -> Result<Pop> {
    match v {
        Value::Int(_) | Value::Bool(_) => {
            let n = int_arg(v, name)?;
            u64::try_from(n).map(Pop::Range).map_err(|_| {
                Error::value(format!("{op}: {name} must be >= 0, got {n}"))
                    .with_op(op)
                    .with_help(format!("e.g. {op}(10)"))
            })
        }
        Value::Array(_) | Value::List(_) | Value::Tuple(_) => {
            let a = super::super::creation::array_arg(i, v)?;
            if a.ndim() == 0 {
                let msg = format!(
                    "{op}: {name} must be an integer or at least 1-dimensional, not a 0-d array"
                );
                return Err(Error::new(zero_d, msg)
                    .with_op(op)
                    .with_help("use a.item() for a number, or reshape(a, (1,))"));
            }
            Ok(Pop::Rows(a))
        }
        other => Err(Error::type_(format!(
            "{op}: {name} must be an int or an array, not {}",
            other.a_type_name()
        ))
        .with_op(op)),
    }
}

/// `idx` (int64 indices into the population, on `device`) as the result:
/// the indices themselves for `range(n)`, else the rows they pick; shaped
/// `shape + rows' shape`, cast to `dtype` when given.
fn pick(pop: &Pop, idx: Array, shape: &[usize], dtype: Option<DType>) -> Result<Array> {
    let (out, rest) = match pop {
        Pop::Range(_) => (idx, &[][..]),
        Pop::Rows(a) => (backend::random::take_rows(a, &idx)?, &a.shape()[1..]),
    };
    let mut full = shape.to_vec();
    full.extend_from_slice(rest);
    let out = out.view(
        full.clone(),
        crate::array::layout::contiguous_strides(&full),
        out.offset(),
    );
    match dtype {
        Some(d) if d != out.dtype() => backend::copy::cast(&out, d),
        _ => Ok(out),
    }
}

/// Probabilities `p` for `n` candidates, read on the host and checked as NumPy does.
fn probabilities(op: &str, v: &Value, i: &Interp, n: u64) -> Result<Vec<f64>> {
    let a = super::super::creation::array_arg(i, v)?;
    let bad = |m: String| {
        Error::value(format!("{op}: {m}"))
            .with_op(op)
            .with_help("p must be a 1-d array of n non-negative probabilities summing to 1")
    };
    if a.ndim() != 1 {
        return Err(bad(format!(
            "p must be 1-dimensional, got shape {}",
            crate::array::layout::fmt_shape(a.shape())
        )));
    }
    if a.size() as u64 != n {
        return Err(bad(format!(
            "a and p must have the same size ({n} and {})",
            a.size()
        )));
    }
    let p = a.to_f64_vec()?;
    if p.iter().any(|x| x.is_nan()) {
        return Err(bad("probabilities contain nan".into()));
    }
    if p.iter().any(|&x| x < 0.0) {
        return Err(bad("probabilities are not non-negative".into()));
    }
    let total: f64 = p.iter().sum();
    // NumPy's tolerance: sqrt of the float64 epsilon (float32 p: of float32's).
    let eps = if a.dtype() == DType::Float64 {
        f64::EPSILON
    } else {
        f32::EPSILON as f64
    };
    if (total - 1.0).abs() > eps.sqrt() {
        return Err(bad(format!(
            "probabilities do not sum to 1 (they sum to {total})"
        )));
    }
    Ok(p)
}

/// `choice(a, shape=none, replace=true, p=none, dtype=none, device=none)`.
pub fn choice(i: &mut Interp, mut a: Args) -> Result<Value> {
    const OP: &str = "choice";
    let pop = population(i, OP, "a", &a.req("a")?, ErrorKind::Value)?;
    let shape = match super::shape_or_size(&mut a)? {
        None | Some(Value::None) => vec![],
        Some(v) => shape_arg(&v)?,
    };
    let replace = match a.opt("replace")? {
        None => true,
        Some(Value::Bool(b)) => b,
        Some(v) => {
            return Err(Error::type_(format!(
                "choice: replace must be true or false, not {}",
                v.a_type_name()
            ))
            .with_op(OP));
        }
    };
    let p = match a.opt("p")? {
        None | Some(Value::None) => None,
        Some(v) => Some(v),
    };
    let (dtype, dev) = dtype_device(&mut a)?;
    a.finish_with(&["shape", "size", "replace", "p", "dtype", "device"])?;
    let device = pop.device(i, OP, dev)?;
    let n = pop.len();
    let k = crate::array::create::checked_numel(&shape, DType::Int64)?;
    if n == 0 && k > 0 {
        return Err(
            Error::value("choice: a cannot be empty unless no samples are taken")
                .with_op(OP)
                .with_help("choose from a non-empty population, or take shape=0"),
        );
    }
    if !replace && k as u64 > n {
        return Err(Error::value(format!("choice: cannot take a larger sample ({k}) than the population ({n}) without replacement"))
            .with_op(OP)
            .with_help("use replace=true, or a smaller shape"));
    }
    let p = p.map(|v| probabilities(OP, &v, i, n)).transpose()?;
    let idx = match (replace, p) {
        (true, None) if n == 0 => Array::from_vec(Vec::<i64>::new(), vec![0]),
        (true, None) => {
            let hi = i64::try_from(n).map_err(|_| Error::value("choice: population too large"))?;
            backend::random::randint(&mut i.rng, 0, hi, k, &[k], DType::Int64, device)?
        }
        (false, None) => backend::random::perm_index(&mut i.rng, k, n, device)?,
        (true, Some(p)) => {
            let cdf = cumulative(&p);
            let on_dev =
                backend::to_device(&Array::from_vec(cdf.clone(), vec![cdf.len()]), device)?;
            backend::random::choice_cdf(&mut i.rng, k, &on_dev, &cdf, device)?
        }
        (false, Some(p)) => {
            if (p.iter().filter(|&&x| x > 0.0).count() as u64) < k as u64 {
                return Err(Error::value(format!(
                    "choice: fewer non-zero entries in p than the {k} to take without replacement"
                ))
                .with_op(OP)
                .with_help("use replace=true, or give more candidates a non-zero probability"));
            }
            let chosen = backend::random::weighted_sample(&mut i.rng, k, &p)?;
            backend::to_device(&chosen, device)?
        }
    };
    Ok(pick(&pop, idx, &shape, dtype)?.into())
}

/// Cumulative probabilities (summed in float64 in order), divided by their total.
fn cumulative(p: &[f64]) -> Vec<f64> {
    let mut acc = 0.0;
    let mut c: Vec<f64> = p
        .iter()
        .map(|x| {
            acc += x;
            acc
        })
        .collect();
    if let Some(&t) = c.last()
        && t > 0.0
    {
        c.iter_mut().for_each(|x| *x /= t);
    }
    c
}

/// `permutation(x, device=none)`: a shuffled `arange(x)` (an int) or a copy
/// of the array x with its rows shuffled.
pub fn permutation(i: &mut Interp, mut a: Args) -> Result<Value> {
    const OP: &str = "permutation";
    let pop = population(i, OP, "x", &a.req("x")?, ErrorKind::Index)?;
    let dev = a
        .kw("device")
        .map(|v| super::super::creation::device_arg(&v))
        .transpose()?;
    a.finish_with(&["device"])?;
    let device = pop.device(i, OP, dev)?;
    let n = pop.len();
    let k = usize::try_from(n).map_err(|_| Error::value("permutation: too many elements"))?;
    crate::array::create::checked_numel(&[k], DType::Int64)?;
    let idx = backend::random::perm_index(&mut i.rng, k, n, device)?;
    Ok(pick(&pop, idx, &[k], None)?.into())
}

/// `shuffle(x)`: x's rows shuffled in place (views write through to their base).
pub fn shuffle(i: &mut Interp, mut a: Args) -> Result<Value> {
    const OP: &str = "shuffle";
    let v = a.req("x")?;
    a.finish()?;
    let Value::Array(x) = v else {
        return Err(Error::type_(format!(
            "shuffle: x must be an array, not {}",
            v.a_type_name()
        ))
        .with_op(OP)
        .with_help("shuffle works in place on an array; permutation(n) gives a shuffled range"));
    };
    if x.ndim() == 0 {
        return Err(
            Error::value("shuffle: x must have at least one dimension, not a 0-d array")
                .with_op(OP),
        );
    }
    let n = x.shape()[0];
    let idx = backend::random::perm_index(&mut i.rng, n, n as u64, x.device())?;
    let rows = backend::random::take_rows(&x, &idx)?;
    backend::index::store_view(&x, &rows)?;
    Ok(Value::None)
}
