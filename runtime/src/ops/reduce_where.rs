//! NumPy's `where=` and `initial=` on the reductions (`sum(x, where=m)`,
//! `max(x, initial=0)`, `mean(x, axis=0, where=x > 0)`): composed of
//! `where`, the plain reductions and elementwise ops of the table, each call
//! going through the interpreter, so every device runs them and a gradient
//! flows through the taped pieces (the reduction itself is not recorded:
//! `autodiff::call_def_taped` lets these calls through untaped).

use super::npmath_calc::{c, shape_value};
use super::stat_args as sa;
use super::stats::{arr, call_op};
use crate::array::Array;
use crate::array::create::value_to_array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::value::Value;

/// The keywords this module answers for (`reduce::call` hands a call over
/// when one of them is given).
pub const KEYWORDS: &[&str] = &["where", "initial"];

/// Does this call give `where=` or `initial=`?
pub fn wanted(args: &Args) -> bool {
    args.kw.iter().any(|(k, _)| KEYWORDS.contains(&k.as_str()))
}

/// NumPy's reductions that take `initial=`.
fn takes_initial(op: ReduceOp) -> bool {
    matches!(
        op,
        ReduceOp::Sum
            | ReduceOp::Prod
            | ReduceOp::Max
            | ReduceOp::Min
            | ReduceOp::Nansum
            | ReduceOp::Nanmax
            | ReduceOp::Nanmin
    )
}

/// NumPy's reductions that take `where=`.
fn takes_where(op: ReduceOp) -> bool {
    !op.is_arg() && !matches!(op, ReduceOp::Ptp | ReduceOp::CountNonzero)
}

/// max/min and their NaN forms: no identity, so `where=` needs `initial=`.
fn is_extreme(op: ReduceOp) -> bool {
    matches!(
        op,
        ReduceOp::Max | ReduceOp::Min | ReduceOp::Nanmax | ReduceOp::Nanmin
    )
}

/// A call of `op` given `where=` and/or `initial=`.
pub fn call(op: ReduceOp, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = op.name();
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?.unwrap_or(Value::None);
    let keepdims = a.opt("keepdims")?.unwrap_or(Value::Bool(false));
    let ddof = if op.takes_ddof() {
        a.opt("ddof")?
    } else {
        None
    };
    let dtype = if op.takes_dtype() {
        a.kw("dtype")
    } else {
        None
    };
    let mask = a.kw("where").filter(|v| !matches!(v, Value::None));
    let initial = a.kw("initial");
    let mut accepted = vec!["axis", "keepdims"];
    if op.takes_ddof() {
        accepted.push("ddof");
    }
    if op.takes_dtype() {
        accepted.push("dtype");
    }
    a.finish_with(&accepted)?;
    if initial.is_some() && !takes_initial(op) {
        return Err(Error::type_(format!("{name}() takes no initial=")).with_op(name).with_help(
            "initial= is for sum, prod, max, min, nansum, nanmax and nanmin (NumPy's reductions with a start value)",
        ));
    }
    if mask.is_some() && !takes_where(op) {
        return Err(Error::type_(format!("{name}() takes no where="))
            .with_op(name)
            .with_help(format!(
                "select first: {name}(x[mask]) or {name}(where(mask, x, fill))"
            )));
    }
    let x = match &dtype {
        Some(Value::DType(d)) if *d != x.dtype() => x.astype(*d)?,
        _ => x,
    };
    if is_extreme(op) && mask.is_some() && initial.is_none() {
        return Err(Error::value(format!(
            "{name}() with where= needs initial=: a lane with no selected element has no {name}"
        ))
        .with_op(name)
        .with_help(format!(
            "give the value of an empty lane, e.g. {name}(x, where=m, initial={})",
            if matches!(op, ReduceOp::Max | ReduceOp::Nanmax) {
                "-inf"
            } else {
                "inf"
            }
        )));
    }
    // The start value in the elements' dtype (NumPy casts it to the result's).
    let init = match &initial {
        None | Some(Value::None) => None,
        Some(v) => Some(start_value(i, v, &x, name)?),
    };
    let mut kw: Vec<(&str, Value)> = vec![("axis", axis), ("keepdims", keepdims)];
    if let Some(d) = &dtype {
        kw.push(("dtype", d.clone()));
    }
    let xv = Value::Array(x.clone());
    let mask = match mask {
        Some(m) => {
            let m = c(i, "broadcast_to", vec![m, shape_value(x.shape())])?;
            match m.as_array().map(|a| a.dtype()) {
                Some(DType::Bool) => Some(m),
                d => {
                    return Err(Error::type_(format!(
                        "{name}(): where= must be a bool mask, got {}",
                        d.map_or("a non-array".to_string(), |d| d.to_string())
                    ))
                    .with_op(name)
                    .with_help("compare to make one: where=x > 0 (NumPy does not cast numbers to bool here)"));
                }
            }
        }
        None => None,
    };
    if let (Some(v), true) = (&init, is_extreme(op) && x.size() == 0) {
        // No element at all: every lane is the start value.
        let s = call_op(i, "sum", vec![xv], kw)?;
        return call_op(
            i,
            "full_like",
            vec![s, v.clone()],
            vec![("dtype", Value::DType(x.dtype()))],
        );
    }
    let r = match mask {
        None => call_op(i, name, vec![xv], kw)?,
        Some(m) => masked(op, i, xv, m, init.clone(), &x, ddof, kw)?,
    };
    match init {
        None => Ok(r),
        Some(v) => with_start(op, i, r, v),
    }
}

fn start_value(i: &Interp, v: &Value, x: &Array, name: &str) -> Result<Value> {
    let a = value_to_array(v, None, i.float_x()).map_err(|e| e.with_op(name))?;
    if a.ndim() != 0 {
        return Err(Error::value(format!(
            "{name}(): initial= must be a number, got an array of shape {:?}",
            a.shape()
        ))
        .with_op(name));
    }
    let d = match x.dtype() {
        DType::Bool => DType::Int64,
        d => d,
    };
    Ok(Value::Array(crate::backend::transfer::to_device(
        &a.astype(d)?,
        x.device(),
    )?))
}

/// The reduction of the elements `m` selects.
#[allow(clippy::too_many_arguments)]
fn masked(
    op: ReduceOp,
    i: &mut Interp,
    x: Value,
    m: Value,
    init: Option<Value>,
    xa: &Array,
    ddof: Option<Value>,
    kw: Vec<(&str, Value)>,
) -> Result<Value> {
    let name = op.name();
    let floaty = |i: &Interp| match xa.dtype() {
        d if d.is_float() || d.is_complex() => d,
        _ => i.float_x(),
    };
    match op {
        ReduceOp::Sum | ReduceOp::Nansum => {
            let xs = c(i, "where", vec![m, x, Value::Int(0)])?;
            call_op(i, name, vec![xs], kw)
        }
        ReduceOp::Prod => {
            let xs = c(i, "where", vec![m, x, Value::Int(1)])?;
            call_op(i, name, vec![xs], kw)
        }
        ReduceOp::Any => {
            let xs = c(i, "where", vec![m, x, Value::Bool(false)])?;
            call_op(i, name, vec![xs], kw)
        }
        ReduceOp::All => {
            let xs = c(i, "where", vec![m, x, Value::Bool(true)])?;
            call_op(i, name, vec![xs], kw)
        }
        ReduceOp::Max | ReduceOp::Min | ReduceOp::Nanmax | ReduceOp::Nanmin => {
            let v = init.ok_or_else(|| Error::internal("masked extreme without initial"))?;
            let xs = c(i, "where", vec![m, x, v])?;
            call_op(i, name, vec![xs], kw)
        }
        ReduceOp::Nanmean | ReduceOp::Nanstd | ReduceOp::Nanvar => {
            let d = floaty(i);
            let xf = c(i, "astype", vec![x, Value::DType(d)])?;
            let xs = c(i, "where", vec![m, xf, Value::Float(f64::NAN)])?;
            let mut kw = kw;
            if let Some(dd) = ddof {
                kw.push(("ddof", dd));
            }
            call_op(i, name, vec![xs], kw)
        }
        ReduceOp::Mean | ReduceOp::Std | ReduceOp::Var => {
            let d = floaty(i);
            let xf = c(i, "astype", vec![x, Value::DType(d)])?;
            let kw_plain: Vec<(&str, Value)> =
                kw.iter().filter(|(k, _)| *k != "dtype").cloned().collect();
            let n = call_op(i, "sum", vec![m.clone()], kw_plain.clone())?;
            let n = c(i, "astype", vec![n, Value::DType(real_of(d))])?;
            let xs = c(i, "where", vec![m.clone(), xf.clone(), Value::Int(0)])?;
            if op == ReduceOp::Mean {
                let s = call_op(i, "sum", vec![xs], kw_plain.clone())?;
                let r = c(i, "divide", vec![s, n])?;
                return cast_to(i, r, &kw);
            }
            // The mean with the reduced dims kept, the deviations of the
            // selected elements, their squared magnitudes summed.
            let mut kw_kd = kw_plain.clone();
            kw_kd.retain(|(k, _)| *k != "keepdims");
            kw_kd.push(("keepdims", Value::Bool(true)));
            let nk = call_op(i, "sum", vec![m.clone()], kw_kd.clone())?;
            let nk = c(i, "astype", vec![nk, Value::DType(real_of(d))])?;
            let sk = call_op(i, "sum", vec![xs], kw_kd)?;
            let mu = c(i, "divide", vec![sk, nk])?;
            let dev = c(i, "subtract", vec![xf, mu])?;
            let dev = c(i, "where", vec![m, dev, Value::Int(0)])?;
            let sq = if d.is_complex() {
                let a = c(i, "abs", vec![dev])?;
                c(i, "square", vec![a])?
            } else {
                c(i, "multiply", vec![dev.clone(), dev])?
            };
            let ss = call_op(i, "sum", vec![sq], kw_plain)?;
            let k = super::reduce::ddof_arg(ddof, name)?;
            let dof = c(i, "subtract", vec![n, Value::Int(k)])?;
            let dof = c(i, "maximum", vec![dof, Value::Int(0)])?;
            let var = c(i, "divide", vec![ss, dof])?;
            let r = if op == ReduceOp::Std {
                c(i, "sqrt", vec![var])?
            } else {
                var
            };
            cast_to(i, r, &kw)
        }
        _ => Err(Error::internal(format!(
            "{name}: where= reached an op without it"
        ))),
    }
}

/// Complex data's magnitudes are real: the count's dtype.
fn real_of(d: DType) -> DType {
    match d {
        DType::Complex64 => DType::Float32,
        DType::Complex128 => DType::Float64,
        d => d,
    }
}

/// The caller's `dtype=`, when given, is the result's.
fn cast_to(i: &mut Interp, r: Value, kw: &[(&str, Value)]) -> Result<Value> {
    match kw.iter().find(|(k, _)| *k == "dtype") {
        Some((_, d @ Value::DType(_))) => c(i, "astype", vec![r, d.clone()]),
        _ => Ok(r),
    }
}

/// Fold the start value `v` into the reduction `r` (an empty input gives
/// `v` in the result's shape).
fn with_start(op: ReduceOp, i: &mut Interp, r: Value, v: Value) -> Result<Value> {
    let rd = arr(r.clone(), op.name())?.dtype();
    let joined = match op {
        ReduceOp::Sum | ReduceOp::Nansum => c(i, "add", vec![r, v])?,
        ReduceOp::Prod => c(i, "multiply", vec![r, v])?,
        ReduceOp::Max => c(i, "maximum", vec![r, v])?,
        ReduceOp::Min => c(i, "minimum", vec![r, v])?,
        ReduceOp::Nanmax => c(i, "fmax", vec![r, v])?,
        _ => c(i, "fmin", vec![r, v])?,
    };
    c(i, "astype", vec![joined, Value::DType(rd)])
}
