//! NumPy Generator's draws beyond uniform and normal, on every device from
//! the session's Philox stream (the same numbers on the CPU and the GPU; see
//! `crate::random`): `exponential poisson binomial bernoulli gamma beta`
//! (`choice permutation shuffle` in `random_draws/choice.rs`). Generator's
//! positional order with the shape last; parameters may be arrays, which
//! broadcast against the shape (without a shape, the draw has their
//! broadcast shape). Argument checks with NumPy's rules; computing through
//! `backend::random`.

mod choice;

use super::creation::{array_arg, dtype_device, op, shape_arg};
use super::fuse::{self, EwNode, Operand};
use crate::array::{Array, layout};
use crate::backend;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{Dist, ReduceOp};
use crate::ops::{OpDef, OpKind};
use crate::random::Param;
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "exponential",
        "exponential(scale=1.0, shape=none, dtype=floatX, device=none)",
        "Exponential random numbers with mean scale (scale >= 0, a number or an array broadcasting against shape).",
        false,
        |i, a| dist_call(Dist::Exponential, i, a)
    ),
    op!(
        "poisson",
        "poisson(lam=1.0, shape=none, dtype=int64, device=none)",
        "Poisson random counts with mean lam (lam >= 0, a number or an array broadcasting against shape).",
        false,
        |i, a| dist_call(Dist::Poisson, i, a)
    ),
    op!(
        "binomial",
        "binomial(n, p, shape=none, dtype=int64, device=none)",
        "Binomial random counts: successes in n trials (an integer >= 0) of probability p (in [0, 1]).",
        false,
        |i, a| dist_call(Dist::Binomial, i, a)
    ),
    op!(
        "bernoulli",
        "bernoulli(p=0.5, shape=none, dtype=floatX, device=none)",
        "1 with probability p, else 0 (p in [0, 1]), as floatX like torch.bernoulli; dtype=bool gives a mask.",
        false,
        |i, a| dist_call(Dist::Bernoulli, i, a)
    ),
    op!(
        "gamma",
        "gamma(k, theta=1.0, shape=none, dtype=floatX, device=none)",
        "Gamma random numbers of shape k >= 0 and scale theta >= 0 (mean k * theta; NumPy's gamma(shape, scale, size)).",
        false,
        |i, a| dist_call(Dist::Gamma, i, a)
    ),
    op!(
        "beta",
        "beta(a, b, shape=none, dtype=floatX, device=none)",
        "Beta random numbers in [0, 1] with a > 0 and b > 0 (mean a / (a + b)).",
        false,
        |i, a| dist_call(Dist::Beta, i, a)
    ),
    op!(
        "choice",
        "choice(a, shape=none, replace=true, p=none, dtype=none, device=none)",
        "Random elements of a (an array: rows along axis 0) or of range(a) (an int): with replacement or not, uniformly or with probabilities p.",
        false,
        choice::choice
    ),
    op!(
        "permutation",
        "permutation(x, device=none)",
        "A random permutation of range(x) (an int), or a copy of the array x with its rows (axis 0) shuffled.",
        false,
        choice::permutation
    ),
    op!(
        "shuffle",
        "shuffle(x)",
        "Shuffle the rows (axis 0) of the array x in place, like NumPy (gives none).",
        false,
        choice::shuffle
    ),
];

/// A distribution's parameters: (name, default, the check of one value
/// giving the rule it breaks).
struct Spec {
    params: [(&'static str, Option<f64>); 2],
    /// Which parameter must hold integers (binomial's n).
    integer: Option<usize>,
    check: fn(usize, f64) -> Option<&'static str>,
    default_dtype: fn(DType) -> DType,
    /// Output dtypes: floats only (a continuous distribution), or any numeric.
    floats_only: bool,
}

/// `v >= lo`, false for nan (a rule a nan breaks).
fn at_least(v: f64, lo: f64) -> bool {
    v >= lo
}

/// NumPy's non-negative scale and shape parameters: `-0.0` is refused too
/// (its sign bit is set), as Generator's check does.
fn non_negative(v: f64) -> bool {
    v >= 0.0 && v.is_sign_positive()
}

const NOT_INTEGER: &str = "must be an integer";

/// NumPy's largest Poisson mean (int64's max less ten of its square roots).
const LAM_MAX: f64 = 9.223372006484771e18;

fn spec(d: Dist) -> Spec {
    let float_x = |fx: DType| fx;
    let int64 = |_: DType| DType::Int64;
    match d {
        Dist::Exponential => Spec {
            params: [("scale", Some(1.0)), ("", None)],
            integer: None,
            check: |_, v| (!non_negative(v)).then_some("must be >= 0"),
            default_dtype: float_x,
            floats_only: true,
        },
        Dist::Poisson => Spec {
            params: [("lam", Some(1.0)), ("", None)],
            integer: None,
            check: |_, v| {
                if !at_least(v, 0.0) {
                    Some("must be >= 0")
                } else if v > LAM_MAX {
                    Some("is too large (at most about 9.2e18)")
                } else {
                    None
                }
            },
            default_dtype: int64,
            floats_only: false,
        },
        Dist::Binomial => Spec {
            params: [("n", None), ("p", None)],
            integer: Some(0),
            check: |k, v| match k {
                0 if !at_least(v, 0.0) => Some("must be >= 0"),
                0 if v.fract() != 0.0 => Some(NOT_INTEGER),
                1 if !(0.0..=1.0).contains(&v) => Some("must be in [0, 1]"),
                _ => None,
            },
            default_dtype: int64,
            floats_only: false,
        },
        Dist::Bernoulli => Spec {
            params: [("p", Some(0.5)), ("", None)],
            integer: None,
            check: |_, v| (!(0.0..=1.0).contains(&v)).then_some("must be in [0, 1]"),
            default_dtype: float_x,
            floats_only: false,
        },
        Dist::Gamma => Spec {
            params: [("k", None), ("theta", Some(1.0))],
            integer: None,
            check: |_, v| (!non_negative(v)).then_some("must be >= 0"),
            default_dtype: float_x,
            floats_only: true,
        },
        Dist::Beta => Spec {
            params: [("a", None), ("b", None)],
            integer: None,
            check: |_, v| (v <= 0.0 || v.is_nan()).then_some("must be > 0"),
            default_dtype: float_x,
            floats_only: true,
        },
    }
}

/// A parameter as given: a number, or an array (lists become arrays).
enum Given {
    Num(f64),
    Arr(Array),
}

fn given(i: &Interp, v: &Value, what: &str, op: &str) -> Result<Given> {
    match v {
        Value::Int(x) => Ok(Given::Num(*x as f64)),
        Value::Float(x) => Ok(Given::Num(*x)),
        Value::Bool(b) => Ok(Given::Num(*b as u8 as f64)),
        Value::Array(_) | Value::List(_) | Value::Tuple(_) => Ok(Given::Arr(array_arg(i, v)?)),
        other => Err(Error::type_(format!(
            "{op}: {what} must be a number or an array, not {}",
            other.a_type_name()
        ))
        .with_op(op)
        .with_help(format!("see help({op})"))),
    }
}

fn dist_call(d: Dist, i: &mut Interp, mut a: Args) -> Result<Value> {
    let op = d.name();
    let s = spec(d);
    let mut vals: Vec<Given> = Vec::new();
    for (name, default) in s.params.iter().filter(|p| !p.0.is_empty()) {
        let v = match (a.opt(name)?, default) {
            (Some(v), _) => given(i, &v, name, op)?,
            (None, Some(x)) => Given::Num(*x),
            (None, None) => {
                return Err(
                    Error::value(format!("{op}() missing required argument `{name}`"))
                        .with_op(op)
                        .with_help(format!("see help({op})")),
                );
            }
        };
        vals.push(v);
    }
    let shape = match shape_or_size(&mut a)? {
        None | Some(Value::None) => None,
        Some(v) => Some(shape_arg(&v)?),
    };
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["shape", "size", "dtype", "device"])?;
    let dtype = dt.unwrap_or((s.default_dtype)(i.float_x()));
    if s.floats_only && !dtype.is_float() {
        return Err(
            Error::dtype(op, format!("{op} makes floating-point values, not {dtype}")).with_help(
                format!("use dtype=float32 or float64, or {op}(...).astype({dtype})"),
            ),
        );
    }
    if !s.floats_only && dtype == DType::Bool && d != Dist::Bernoulli {
        return Err(
            Error::dtype(op, format!("{op} makes counts, not bool values"))
                .with_help("use dtype=int64 (the default), int32 or a float dtype"),
        );
    }
    let device = place(
        i,
        op,
        dev,
        vals.iter()
            .filter_map(|g| if let Given::Arr(x) = g { Some(x) } else { None }),
    )?;
    let names: Vec<&str> = s
        .params
        .iter()
        .map(|p| p.0)
        .filter(|n| !n.is_empty())
        .collect();
    let out_shape = out_shape(op, shape, vals.iter().zip(&names))?;
    crate::array::create::checked_numel(&out_shape, dtype)?;
    let mut prepared: Vec<Prepared> = Vec::new();
    for (k, (g, name)) in vals.iter().zip(&names).enumerate() {
        prepared.push(prepare(i, op, name, k, g, &s, &out_shape)?);
    }
    let p = |k: usize| match prepared.get(k) {
        Some(Prepared::Num(v)) => Param::Scalar(*v),
        Some(Prepared::Arr(a)) => Param::Array(a),
        None => Param::Scalar(0.0),
    };
    Ok(backend::random::draw(&mut i.rng, d, p(0), p(1), &out_shape, dtype, device)?.into())
}

/// The draw's `shape`, or `size=`, NumPy's name for it (not both).
pub(super) fn shape_or_size(a: &mut Args) -> Result<Option<Value>> {
    let size = a.kw("size");
    match (a.opt("shape")?, size) {
        (Some(_), Some(_)) => Err(Error::type_(format!(
            "{}: shape given twice (size= is NumPy's name for shape)",
            a.name
        ))
        .with_op(a.name)
        .with_help("give the shape once, positionally, as shape= or as size=")),
        (shape, size) => Ok(shape.or(size)),
    }
}

/// The draw's device: `device=`, else the arrays' (which must agree), else the session's.
fn place<'a>(
    i: &Interp,
    op: &str,
    dev: Option<Device>,
    arrays: impl Iterator<Item = &'a Array>,
) -> Result<Device> {
    let mut found = dev;
    for x in arrays {
        match found {
            Some(d) if d != x.device() => return Err(Error::device_mismatch(op, d, x.device())),
            _ => found = Some(x.device()),
        }
    }
    Ok(found.unwrap_or_else(|| i.default_device()))
}

/// The draw's shape: `shape` (each array parameter must broadcast to it),
/// else the parameters' broadcast shape.
fn out_shape<'a>(
    op: &str,
    shape: Option<Vec<usize>>,
    params: impl Iterator<Item = (&'a Given, &'a &'a str)>,
) -> Result<Vec<usize>> {
    let mut acc: Vec<usize> = Vec::new();
    for (g, name) in params {
        let Given::Arr(x) = g else { continue };
        match &shape {
            Some(s) => {
                let b = layout::broadcast_shapes(x.shape(), s, op)
                    .ok()
                    .filter(|b| b == s);
                if b.is_none() {
                    return Err(Error::shape(
                        op,
                        format!(
                            "{name} of shape {} does not broadcast to the shape {}",
                            layout::fmt_shape(x.shape()),
                            layout::fmt_shape(s)
                        ),
                    )
                    .with_help(format!(
                        "give {name} a shape that broadcasts to {}, or leave shape out",
                        layout::fmt_shape(s)
                    )));
                }
            }
            None => acc = layout::broadcast_shapes(&acc, x.shape(), op)?,
        }
    }
    Ok(shape.unwrap_or(acc))
}

/// A checked parameter: a number, or a contiguous float64 array of the
/// output's shape on its device.
enum Prepared {
    Num(f64),
    Arr(Array),
}

fn bad_param(op: &str, name: &str, rule: &str, got: &str) -> Error {
    Error::value(format!("{op}: {name} {rule}, got {got}"))
        .with_op(op)
        .with_help(format!("see help({op})"))
}

fn prepare(
    i: &Interp,
    op: &str,
    name: &str,
    k: usize,
    g: &Given,
    s: &Spec,
    shape: &[usize],
) -> Result<Prepared> {
    match g {
        Given::Num(v) => match (s.check)(k, *v) {
            Some(rule) => Err(bad_param(op, name, rule, &format!("{v}"))),
            None => Ok(Prepared::Num(*v)),
        },
        Given::Arr(x) => {
            let st = layout::broadcast_strides(x.shape(), x.strides(), shape);
            let full =
                backend::copy::cast(&x.view(shape.to_vec(), st, x.offset()), DType::Float64)?;
            if let Some((rule, got)) = first_violation(i, &full, k, s)? {
                return Err(bad_param(op, name, rule, &got));
            }
            Ok(Prepared::Arr(full))
        }
    }
}

/// Whether some value of `x` breaks the parameter's rule, found with
/// reductions (on a GPU, a wait for each answer): the rule applied to the
/// array's extremes (nan among them), and for integer parameters a test
/// for values with a fraction.
fn first_violation(
    i: &Interp,
    x: &Array,
    k: usize,
    s: &Spec,
) -> Result<Option<(&'static str, String)>> {
    if x.size() == 0 {
        return Ok(None);
    }
    let fx = i.float_x();
    let red = |op: ReduceOp, a: &Array| -> Result<f64> {
        super::reduce::reduce(op, a, None, false, fx)?.get_f64(0)
    };
    let (lo, hi) = (red(ReduceOp::Min, x)?, red(ReduceOp::Max, x)?);
    for v in [lo, hi] {
        if let Some(r) = (s.check)(k, v) {
            return Ok(Some((r, format!("an array holding {v}"))));
        }
    }
    let leaf = || EwNode::Leaf(Operand::Array(x.clone()));
    // min and max take -0.0 for 0.0: where the rule refuses -0.0, look for it.
    if lo == 0.0
        && let Some(r) = (s.check)(k, -0.0)
    {
        let tree = EwNode::Op {
            op: lookup("signbit")?,
            args: vec![leaf()],
        };
        if let Operand::Array(m) = fuse::eval(tree, fx)?
            && red(ReduceOp::Any, &m)? != 0.0
        {
            return Ok(Some((r, "an array holding -0.0".into())));
        }
    }
    if s.integer == Some(k) {
        let tree = EwNode::Op {
            op: lookup("not_equal")?,
            args: vec![
                leaf(),
                EwNode::Op {
                    op: lookup("floor")?,
                    args: vec![leaf()],
                },
            ],
        };
        if let Operand::Array(m) = fuse::eval(tree, fx)?
            && red(ReduceOp::Any, &m)? != 0.0
        {
            return Ok(Some((NOT_INTEGER, "an array holding non-integers".into())));
        }
    }
    Ok(None)
}

fn lookup(name: &str) -> Result<&'static OpDef> {
    super::lookup(name).ok_or_else(|| Error::internal(format!("{name} missing from the op table")))
}
