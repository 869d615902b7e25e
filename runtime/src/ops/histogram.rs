//! `histogram bincount digitize`: argument checks, NumPy 2's edges and
//! dtypes here; the counting is `backend::histogram`'s (a kernel on the GPU,
//! chunked loops on the CPU). Where NumPy's output size or edges depend on
//! the data, one small read-back decides them (each says so in its help):
//! histogram with a bin count and no range reads x's min and max; bincount
//! reads x's min and max (its length, and the check for negatives); edges
//! given as an array are read to check that they increase.

use super::creation::op;
use super::stat_args as sa;
use crate::array::{Array, alloc};
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{BinMode, ReduceOp};
use crate::ops::reduce::reduce;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "histogram",
        "histogram(x, bins=10, range=none, weights=none, density=false)",
        "Counts of x's elements (flattened) in bins: bins an int (equal bins over range, or over x's min..max, read back from the device) or an array of increasing edges; the last bin includes its right edge. Gives (counts, edges): int64 counts, weights' dtype with weights, float64 with density=true (counts / bin width / total).",
        false,
        histogram
    ),
    op!(
        "bincount",
        "bincount(x, weights=none, minlength=0)",
        "How many times each value 0..max(x) occurs in x (1-D, non-negative ints): int64, or the sums of float64 weights. The length max(x) + 1 (at least minlength) is read back from the device.",
        false,
        bincount
    ),
    op!(
        "digitize",
        "digitize(x, bins, right=false)",
        "The index of the bin each element of x falls in, bins being 1-D monotonic edges: i with bins[i-1] <= x < bins[i] for increasing bins (bins[i-1] < x <= bins[i] when right=true); 0 below, len(bins) above. int64 of x's shape.",
        false,
        digitize
    ),
];

/// A small host float64 array on `like`'s device.
fn upload(v: Vec<f64>, like: &Array) -> Result<Array> {
    let n = v.len();
    backend::to_device(&Array::from_vec(v, vec![n]), like.device())
}

fn scalar_of(a: &Array) -> Result<f64> {
    Ok(a.to_host()?
        .to_f64_vec()?
        .first()
        .copied()
        .unwrap_or(f64::NAN))
}

/// `v` rounded to float dtype `d`.
fn round_to(v: f64, d: DType) -> f64 {
    match d {
        DType::Float32 => v as f32 as f64,
        DType::Float16 => crate::array::host::f16_of(v).to_f64(),
        _ => v,
    }
}

/// NumPy's linspace(first, last, nb + 1) computed in `d` (float32 arithmetic
/// for float32 and float16, then rounded to d).
fn linspace(first: f64, last: f64, nb: usize, d: DType) -> Vec<f64> {
    let num = nb + 1;
    let mut v: Vec<f64> = if d == DType::Float64 {
        let step = (last - first) / nb as f64;
        (0..num).map(|i| i as f64 * step + first).collect()
    } else {
        let (f, l) = (first as f32, last as f32);
        let step = (l - f) / nb as f32;
        (0..num).map(|i| (i as f32 * step + f) as f64).collect()
    };
    v[nb] = last;
    v.into_iter().map(|x| round_to(x, d)).collect()
}

fn histogram(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "histogram";
    let x = sa::data(i, a.req("x")?, name)?;
    let bins = a.opt("bins")?.unwrap_or(Value::Int(10));
    let range = a.opt("range")?.unwrap_or(Value::None);
    let weights = a.opt("weights")?.unwrap_or(Value::None);
    let density = sa::flag(a.opt("density")?, "density", name, false)?;
    a.finish_with(&["bins", "range", "weights", "density"])?;
    let x = x.reshape(&[-1])?;
    let w = match weights {
        Value::None => None,
        v => {
            let w = sa::on_device_of(i, v, &x, name, "weights")?;
            if w.size() != x.size() {
                return Err(Error::value(format!(
                    "{name}: weights have {} elements, x has {}",
                    w.size(),
                    x.size()
                ))
                .with_op(name)
                .with_help("weights must have x's shape"));
            }
            Some(w.reshape(&[-1])?)
        }
    };
    let fx = i.float_x();
    let (counts_edges, edges_arr, nb, mode) = match bins {
        Value::Int(nb) => {
            if nb < 1 {
                return Err(
                    Error::value(format!("{name}: bins must be positive, got {nb}"))
                        .with_op(name)
                        .with_help("e.g. bins=10, or an array of edges"),
                );
            }
            let nb = nb as usize;
            alloc::checked_numel(&[nb + 1], DType::Float64)?;
            let given = !matches!(range, Value::None);
            let (mut first, mut last) = match &range {
                r @ (Value::Tuple(_) | Value::List(_))
                    if r.seq_items().is_some_and(|t| t.len() == 2) =>
                {
                    let t = r.seq_items().unwrap_or_default();
                    let lo = sa::float(&t[0], "range", name)?;
                    let hi = sa::float(&t[1], "range", name)?;
                    if lo > hi {
                        return Err(Error::value(format!(
                            "{name}: max must be larger than min in range, got ({lo}, {hi})"
                        ))
                        .with_op(name));
                    }
                    if !(lo.is_finite() && hi.is_finite()) {
                        return Err(Error::value(format!(
                            "{name}: supplied range of [{lo}, {hi}] is not finite"
                        ))
                        .with_op(name));
                    }
                    (lo, hi)
                }
                Value::None if x.size() == 0 => (0.0, 1.0),
                Value::None => {
                    let lo = scalar_of(&reduce(ReduceOp::Min, &x, None, false, fx)?)?;
                    let hi = scalar_of(&reduce(ReduceOp::Max, &x, None, false, fx)?)?;
                    if !(lo.is_finite() && hi.is_finite()) {
                        return Err(Error::value(format!(
                            "{name}: autodetected range of [{lo}, {hi}] is not finite"
                        ))
                        .with_op(name)
                        .with_help("remove NaN and inf first, or give range=(lo, hi)"));
                    }
                    (lo, hi)
                }
                v => {
                    return Err(Error::type_(format!(
                        "{name}: range must be a pair (lo, hi) or none, got {}",
                        v.a_type_name()
                    ))
                    .with_op(name));
                }
            };
            if first == last {
                first -= 0.5;
                last += 0.5;
            }
            let bd = if x.dtype().is_float() {
                x.dtype()
            } else {
                DType::Float64
            };
            // Edges from a given range run in float64 (Python floats), from
            // x's own min and max in x's dtype, as NumPy's linspace does.
            let e = linspace(first, last, nb, if given { DType::Float64 } else { bd });
            let e = e.into_iter().map(|v| round_to(v, bd)).collect::<Vec<f64>>();
            let dev_edges = upload(e, &x)?;
            let shown = dev_edges.astype(bd)?;
            (dev_edges, shown, nb, BinMode::Uniform)
        }
        v => {
            let e = sa::data(i, v, name)?;
            if e.ndim() != 1 || e.size() < 2 {
                return Err(Error::value(format!(
                    "{name}: bins must be an int or a 1-D array of at least 2 edges, got shape {:?}",
                    e.shape()
                ))
                .with_op(name));
            }
            let ev = e.to_host()?.to_f64_vec()?;
            if ev.windows(2).any(|p| p[0] > p[1]) {
                return Err(Error::value(format!(
                    "{name}: bins must increase monotonically, when an array"
                ))
                .with_op(name));
            }
            let nb = ev.len() - 1;
            let dev_edges = upload(ev, &x)?;
            let shown = backend::to_device(&e, x.device())?;
            (dev_edges, shown, nb, BinMode::Edges)
        }
    };
    let wf = match &w {
        Some(w) => Some(w.astype(DType::Float64)?),
        None => None,
    };
    let mut h = backend::histogram::histogram(&x, wf.as_ref(), Some(&counts_edges), nb, mode)?;
    if let Some(w) = &w {
        h = h.astype(w.dtype())?;
    }
    if density {
        use crate::autodiff::ewb::{E, c};
        let leaf = |a: &Array| {
            E(Some(crate::ops::fuse::EwNode::Leaf(
                crate::ops::fuse::Operand::Array(a.clone()),
            )))
        };
        let ev = counts_edges.to_host()?.to_f64_vec()?;
        let db: Vec<f64> = ev.windows(2).map(|p| p[1] - p[0]).collect();
        let rd = crate::dtype::promote(h.dtype(), edges_arr.dtype());
        let rd = if rd.is_float() { rd } else { DType::Float64 };
        let db = upload(db, &x)?.astype(rd)?;
        let hf = h.astype(rd)?;
        let total = reduce(ReduceOp::Sum, &hf, None, false, rd)?;
        let t = leaf(&hf) / leaf(&db) / leaf(&total) * c(1.0);
        h = match crate::ops::fuse::eval(t.0.ok_or_else(|| Error::internal("density"))?, rd)? {
            crate::ops::fuse::Operand::Array(a) => a,
            _ => return Err(Error::internal("histogram: density")),
        };
    }
    Ok(Value::tuple(vec![Value::Array(h), Value::Array(edges_arr)]))
}

fn bincount(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "bincount";
    let x = sa::data(i, a.req("x")?, name)?;
    let weights = a.opt("weights")?.unwrap_or(Value::None);
    let minlength = match a.opt("minlength")? {
        None | Some(Value::None) => 0,
        Some(v) => sa::int(&v, "minlength", name)?,
    };
    a.finish_with(&["weights", "minlength"])?;
    if x.dtype().is_float() {
        return Err(Error::type_(format!(
            "{name}: x must hold non-negative ints, got {}",
            x.dtype().name()
        ))
        .with_op(name)
        .with_help("cast with x.astype(int64)"));
    }
    if x.ndim() != 1 {
        return Err(
            Error::value(format!("{name}: x must be 1-D, got shape {:?}", x.shape()))
                .with_op(name)
                .with_help("flatten it with x.ravel()"),
        );
    }
    if minlength < 0 {
        return Err(Error::value(format!(
            "{name}: minlength must not be negative, got {minlength}"
        ))
        .with_op(name));
    }
    let fx = i.float_x();
    let mut len = minlength as usize;
    if x.size() > 0 {
        let lo = scalar_of(&reduce(ReduceOp::Min, &x, None, false, fx)?)?;
        if lo < 0.0 {
            return Err(Error::value(format!(
                "{name}: x must have no negative elements, found {lo}"
            ))
            .with_op(name));
        }
        let hi = scalar_of(&reduce(ReduceOp::Max, &x, None, false, fx)?)?;
        len = len.max(hi as usize + 1);
    }
    alloc::checked_numel(&[len], DType::Int64)?;
    let w = match weights {
        Value::None => None,
        v => {
            let w = sa::on_device_of(i, v, &x, name, "weights")?;
            if w.shape() != x.shape() {
                return Err(Error::value(format!(
                    "{name}: weights of shape {:?} and x of shape {:?} differ",
                    w.shape(),
                    x.shape()
                ))
                .with_op(name)
                .with_help("one weight per element of x"));
            }
            Some(w.astype(DType::Float64)?)
        }
    };
    let h = backend::histogram::histogram(&x, w.as_ref(), None, len, BinMode::Index)?;
    Ok(Value::Array(h))
}

fn digitize(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "digitize";
    let x = sa::data(i, a.req("x")?, name)?;
    let bins = sa::data(i, a.req("bins")?, name)?;
    let right = sa::flag(a.opt("right")?, "right", name, false)?;
    a.finish_with(&["right"])?;
    if bins.ndim() != 1 {
        return Err(Error::value(format!(
            "{name}: bins must be 1-D, got shape {:?}",
            bins.shape()
        ))
        .with_op(name));
    }
    let mut e = bins.to_host()?.to_f64_vec()?;
    let inc = e.windows(2).all(|p| p[0] <= p[1]);
    let dec = e.windows(2).all(|p| p[0] >= p[1]);
    if !inc && !dec {
        return Err(Error::value(format!(
            "{name}: bins must be monotonically increasing or decreasing"
        ))
        .with_op(name));
    }
    let decreasing = !inc;
    if decreasing {
        e.reverse();
    }
    let e = upload(e, &x)?;
    Ok(Value::Array(backend::histogram::digitize(
        &x, &e, right, decreasing,
    )?))
}
