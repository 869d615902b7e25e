//! `nanmedian nanpercentile nanquantile`. Arguments, result shape and dtype
//! are `quantile::plan`'s (the same checks as median/percentile/quantile);
//! an x without NaN (one bool read back) is handed to median/percentile/
//! quantile as it is, so those results are theirs bit for bit. With NaN,
//! each lane is sorted (NaN last), its numbers counted, and the two ranks
//! NumPy's linear method needs taken with take_along_axis: out of table ops,
//! so it runs on every device and is taped under `grad`.

use super::npmath_calc::{c, shape_value};
use super::quantile::{self, Kind};
use super::stat_args as sa;
use super::stats::{arr, call_op};
use crate::array::shape_ops::norm_axis;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

fn names(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Median => ("nanmedian", "median"),
        Kind::Percentile => ("nanpercentile", "percentile"),
        Kind::Quantile => ("nanquantile", "quantile"),
    }
}

fn any_nan(i: &mut Interp, x: &Value) -> Result<bool> {
    let m = c(i, "isnan", vec![x.clone()])?;
    let any = arr(c(i, "any", vec![m])?, "any")?;
    Ok(any.to_f64_vec()?.first().is_some_and(|&v| v != 0.0))
}

pub(crate) fn nanq(i: &mut Interp, mut a: Args, kind: Kind) -> Result<Value> {
    let (name, base) = names(kind);
    let x = sa::data(i, a.req("x")?, name)?;
    let q = if kind == Kind::Median {
        None
    } else {
        Some(a.req("q")?)
    };
    let axis = a.opt("axis")?;
    let keepdims = a.opt("keepdims")?;
    let method = if kind == Kind::Median {
        None
    } else {
        a.opt("method")?
    };
    a.finish_with(if kind == Kind::Median {
        &["axis", "keepdims"]
    } else {
        &["axis", "keepdims", "method"]
    })?;
    let rename = |mut e: Error| {
        if e.op.as_deref() == Some(base) || e.op.is_none() {
            e.message = e.message.replacen(base, name, 1);
            e.op = Some(name.to_string());
        }
        e
    };
    let kd = sa::flag(keepdims.clone(), "keepdims", name, false)?;
    if x.size() == 0 {
        // NumPy: an empty x gives nanmean(x, axis, keepdims) (NaN, or an empty result).
        if let Some(q) = &q {
            quantile::q_values(kind, q).map_err(rename)?;
        }
        let kw = vec![
            ("axis", axis.unwrap_or(Value::None)),
            ("keepdims", Value::Bool(kd)),
        ];
        return call_op(i, "nanmean", vec![Value::Array(x)], kw);
    }
    let p =
        quantile::plan(kind, &x, q.as_ref(), axis.as_ref(), kd, method.as_ref()).map_err(rename)?;
    let xv = Value::Array(x.clone());
    if !x.dtype().is_float() || x.size() == 0 || !any_nan(i, &xv)? {
        let mut pos = vec![xv];
        pos.extend(q);
        let mut kw = vec![];
        for (k, v) in [("axis", axis), ("keepdims", keepdims), ("method", method)] {
            if let Some(v) = v {
                kw.push((k, v));
            }
        }
        return call_op(i, base, pos, kw).map_err(rename);
    }
    // NumPy's methods on each lane's numbers (others: an error, as with no NaN).
    let how = match &method {
        None | Some(Value::None) => "linear",
        Some(Value::Str(m)) => match &**m {
            "linear" => "linear",
            "lower" => "lower",
            "higher" => "higher",
            "nearest" => "nearest",
            "midpoint" => "midpoint",
            m => {
                return Err(Error::value(format!(
                    "{name}: method=\"{m}\" is not supported when x holds NaN"
                ))
                .with_op(name)
                .with_help("use linear, lower, higher, nearest or midpoint"));
            }
        },
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}: method must be a string, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    let (qs, scalar) = match &q {
        Some(q) => {
            let qa = quantile::q_values(kind, q).map_err(rename)?;
            (qa.vals, qa.shape.is_none())
        }
        None => (vec![0.5], true),
    };
    // The reduced axes moved last and joined into one lane.
    let nd = x.ndim();
    let mut axes: Vec<usize> = match axis {
        None | Some(Value::None) => (0..nd).collect(),
        Some(v) => match v.seq_items() {
            Some(items) => items
                .iter()
                .map(|v| norm_axis(sa::axis_int(v, name)?, nd, name))
                .collect::<Result<_>>()?,
            None => vec![norm_axis(sa::axis_int(&v, name)?, nd, name)?],
        },
    };
    axes.sort_unstable();
    axes.dedup();
    let rest: Vec<usize> = (0..nd).filter(|d| !axes.contains(d)).collect();
    let perm: Vec<usize> = rest.iter().chain(axes.iter()).copied().collect();
    let rest_shape: Vec<usize> = rest.iter().map(|&d| x.shape()[d]).collect();
    let m: usize = axes.iter().map(|&d| x.shape()[d]).product();
    let mut lane_shape = rest_shape.clone();
    lane_shape.push(m);
    let xt = c(
        i,
        "transpose",
        vec![Value::Array(x.clone()), shape_value(&perm)],
    )?;
    let lanes = c(i, "reshape", vec![xt, shape_value(&lane_shape)])?;
    let xd = x.dtype();
    let last = ("axis", Value::Int(-1));
    let s = call_op(i, "sort", vec![lanes.clone()], vec![last.clone()])?;
    let valid = c(i, "isnan", vec![lanes])?;
    let valid = c(i, "logical_not", vec![valid])?;
    let cnt = call_op(
        i,
        "sum",
        vec![valid],
        vec![last.clone(), ("keepdims", Value::Bool(true))],
    )?;
    let cntf = c(i, "astype", vec![cnt.clone(), Value::str("float64")])?;
    let nm1 = c(i, "subtract", vec![cntf, Value::Float(1.0)])?;
    let top = c(i, "maximum", vec![nm1.clone(), Value::Float(0.0)])?;
    let empty = c(i, "equal", vec![cnt.clone(), Value::Int(0)])?;
    // NumPy builds the result lane by lane with the first lane's dtype: an
    // all-NaN first lane gives x's dtype even where a list q gives float64.
    let mut out = p.out;
    if out != xd {
        let first = arr(cnt, name)?.to_f64_vec()?;
        if first.first().is_some_and(|&k| k == 0.0) {
            out = xd;
        }
    }
    let cast = |i: &mut Interp, v: Value| -> Result<Value> {
        if out == xd {
            Ok(v)
        } else {
            c(i, "astype", vec![v, Value::str(out.name())])
        }
    };
    let mut outs = Vec::with_capacity(qs.len());
    for qv in qs {
        let pos = c(i, "multiply", vec![nm1.clone(), Value::Float(qv)])?;
        let fl = c(i, "floor", vec![pos.clone()])?;
        let lo = c(i, "clip", vec![fl.clone(), Value::Float(0.0), top.clone()])?;
        let hi = if kind == Kind::Median {
            let ce = c(i, "ceil", vec![pos.clone()])?;
            c(i, "clip", vec![ce, Value::Float(0.0), top.clone()])?
        } else {
            let hi = c(i, "add", vec![lo.clone(), Value::Float(1.0)])?;
            c(i, "minimum", vec![hi, top.clone()])?
        };
        let take = |i: &mut Interp, k: Value| -> Result<Value> {
            let k = c(i, "astype", vec![k, Value::str("int64")])?;
            call_op(
                i,
                "take_along_axis",
                vec![s.clone(), k],
                vec![("axis", Value::Int(-1))],
            )
        };
        let pick = match how {
            "lower" => Some("floor"),
            "higher" => Some("ceil"),
            "nearest" => Some("round"),
            _ => None,
        };
        if let Some(f) = pick.filter(|_| kind != Kind::Median) {
            let k = c(i, f, vec![pos])?;
            let k = c(i, "clip", vec![k, Value::Float(0.0), top.clone()])?;
            let r = take(i, k)?;
            let r = c(i, "where", vec![empty.clone(), Value::Float(f64::NAN), r])?;
            outs.push(c(i, "reshape", vec![r, shape_value(&rest_shape)])?);
            continue;
        }
        let (va, vb) = (take(i, lo)?, take(i, hi)?);
        let r = if kind == Kind::Median {
            let sum = c(i, "add", vec![va, vb])?;
            let m = c(i, "divide", vec![sum, Value::Float(2.0)])?;
            cast(i, m)?
        } else {
            // NumPy's _lerp: d = b - a in x's dtype, then a + d*t, or
            // b - d*(1-t) where t >= 0.5, in the result dtype.
            let t = if how == "midpoint" {
                // 0.5 between two ranks, 0 on one.
                let on = c(i, "equal", vec![pos, fl])?;
                c(i, "where", vec![on, Value::Float(0.0), Value::Float(0.5)])?
            } else {
                c(i, "subtract", vec![pos, fl])?
            };
            let t = c(i, "astype", vec![t, Value::str(out.name())])?;
            let d = c(i, "subtract", vec![vb.clone(), va.clone()])?;
            let d = cast(i, d)?;
            let (va, vb) = (cast(i, va)?, cast(i, vb)?);
            let up = c(i, "greater_equal", vec![t.clone(), Value::Float(0.5)])?;
            let u = c(i, "subtract", vec![Value::Float(1.0), t.clone()])?;
            let du = c(i, "multiply", vec![d.clone(), u])?;
            let hi_form = c(i, "subtract", vec![vb, du])?;
            let dt = c(i, "multiply", vec![d, t])?;
            let lo_form = c(i, "add", vec![va, dt])?;
            c(i, "where", vec![up, hi_form, lo_form])?
        };
        let r = c(i, "where", vec![empty.clone(), Value::Float(f64::NAN), r])?;
        outs.push(c(i, "reshape", vec![r, shape_value(&rest_shape)])?);
    }
    let r = if scalar && outs.len() == 1 {
        outs.pop().unwrap_or(Value::None)
    } else {
        c(i, "stack", vec![Value::list(outs)])?
    };
    let r = c(i, "reshape", vec![r, shape_value(&p.out_shape)])?;
    if arr(r.clone(), name)?.dtype() != out {
        return c(i, "astype", vec![r, Value::str(out.name())]);
    }
    Ok(r)
}
