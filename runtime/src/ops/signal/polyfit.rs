//! `polyfit(x, y, deg, rcond=none, full=false, w=none, cov=false)`: NumPy's
//! least-squares fit, composed as NumPy composes it (vander, column
//! scaling, `lstsq`, optional weights and covariance), in float64, on the
//! device of x (both devices: lstsq runs on each).

use super::super::nparr::{arr, astype, call, data, data_on, int, items, value_err};
use super::poly::opt_float;
use crate::array::Array;
use crate::dtype::{DType, promote};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;
use gcalc_lang::Span;

fn type_err(msg: &str) -> Error {
    Error::type_(format!("polyfit: {msg}"))
        .with_op("polyfit")
        .with_help("see help(polyfit)")
}

/// `x + 0.0`'s dtype: floats keep theirs, the rest become float64.
fn floated(d: DType) -> DType {
    if d.is_float() || d.is_complex() {
        d
    } else {
        DType::Float64
    }
}

enum Cov {
    No,
    Scaled,
    Unscaled,
}

fn cov_arg(v: Option<Value>) -> Result<Cov> {
    match v {
        None | Some(Value::None) | Some(Value::Bool(false)) => Ok(Cov::No),
        Some(Value::Bool(true)) => Ok(Cov::Scaled),
        Some(Value::Str(s)) if &*s == "unscaled" => Ok(Cov::Unscaled),
        Some(v) => Err(value_err(
            "polyfit",
            format!(
                "cov must be true, false or \"unscaled\", got {}",
                v.a_type_name()
            ),
            "give cov=true or cov=\"unscaled\"",
        )),
    }
}

fn a(i: &mut Interp, span: Span, name: &str, pos: Vec<Value>) -> Result<Array> {
    arr(i, span, name, pos, vec![])
}

fn col(i: &mut Interp, span: Span, v: &Array) -> Result<Array> {
    let n = v.size() as i64;
    arr(
        i,
        span,
        "reshape",
        vec![
            v.clone().into(),
            Value::tuple(vec![Value::Int(n), Value::Int(1)]),
        ],
        vec![],
    )
}

pub(crate) fn polyfit(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let name = "polyfit";
    let x = data(i, args.req("x")?, name, "x")?;
    let y = data_on(i, args.req("y")?, x.device(), name, "y")?;
    let deg = int(&args.req("deg")?, name, "deg")?;
    let rcond = opt_float(args.opt("rcond")?, name, "rcond")?;
    let full = crate::ops::stat_args::flag(args.opt("full")?, "full", name, false)?;
    let w = match args.opt("w")? {
        None | Some(Value::None) => None,
        Some(v) => Some(data_on(i, v, x.device(), name, "w")?),
    };
    let cov = cov_arg(args.opt("cov")?)?;
    args.finish_with(&["rcond", "full", "w", "cov"])?;
    if deg < 0 {
        return Err(value_err(
            name,
            format!("expected deg >= 0, got {deg}"),
            "give a degree >= 0",
        ));
    }
    if x.ndim() != 1 {
        return Err(type_err("expected 1D vector for x"));
    }
    if x.size() == 0 {
        return Err(type_err("expected non-empty vector for x"));
    }
    if y.ndim() < 1 || y.ndim() > 2 {
        return Err(type_err("expected 1D or 2D array for y"));
    }
    if x.shape()[0] != y.shape()[0] {
        return Err(type_err("expected x and y to have same length"));
    }
    if x.dtype().is_complex() || y.dtype().is_complex() {
        return Err(type_err(
            "complex data are not supported (fit the real and imaginary parts of y separately)",
        ));
    }
    let order = deg as usize + 1;
    let mut out_dt = promote(floated(x.dtype()), floated(y.dtype()));
    let rcond = rcond.unwrap_or_else(|| {
        let eps = match floated(x.dtype()) {
            DType::Float32 => f32::EPSILON as f64,
            DType::Float16 => 0.000_976_562_5,
            _ => f64::EPSILON,
        };
        x.size() as f64 * eps
    });
    let x64 = astype(i, span, &x, DType::Float64)?;
    let mut rhs = astype(i, span, &y, DType::Float64)?;
    let mut lhs = arr(
        i,
        span,
        "vander",
        vec![x64.into(), Value::Int(order as i64)],
        vec![],
    )?;
    if let Some(w) = w {
        if w.ndim() != 1 {
            return Err(type_err("expected a 1-d array for weights"));
        }
        if w.shape()[0] != y.shape()[0] {
            return Err(type_err("expected w and y to have the same length"));
        }
        out_dt = promote(out_dt, floated(w.dtype()));
        let w = astype(i, span, &w, DType::Float64)?;
        let wc = col(i, span, &w)?;
        lhs = a(i, span, "multiply", vec![lhs.into(), wc.clone().into()])?;
        let wr = if rhs.ndim() == 2 { wc } else { w };
        rhs = a(i, span, "multiply", vec![rhs.into(), wr.into()])?;
    }
    // scale = sqrt((lhs * lhs).sum(axis=0)); lhs /= scale
    let sq = a(
        i,
        span,
        "multiply",
        vec![lhs.clone().into(), lhs.clone().into()],
    )?;
    let ss = arr(
        i,
        span,
        "sum",
        vec![sq.into()],
        vec![("axis", Value::Int(0))],
    )?;
    let scale = a(i, span, "sqrt", vec![ss.into()])?;
    let lhs = a(i, span, "divide", vec![lhs.into(), scale.clone().into()])?;
    let res = call(
        i,
        span,
        "lstsq",
        vec![lhs.clone().into(), rhs.into()],
        vec![("rcond", Value::Float(rcond))],
    )?;
    let parts = items(res, name)?;
    let (c, resids, rank, s) = match &parts[..] {
        [c, r, k, s] => (c.clone(), r.clone(), k.clone(), s.clone()),
        _ => return Err(Error::internal("polyfit: lstsq gave no 4-tuple")),
    };
    let c = super::super::nparr::as_array(c)?;
    // c = (c.T / scale).T
    let sdiv = if c.ndim() == 2 {
        col(i, span, &scale)?
    } else {
        scale.clone()
    };
    let c = a(i, span, "divide", vec![c.into(), sdiv.into()])?;
    let c = astype(i, span, &c, out_dt)?;
    if full {
        return Ok(Value::tuple(vec![
            c.into(),
            resids,
            rank,
            s,
            Value::Float(rcond),
        ]));
    }
    let fac = match cov {
        Cov::No => return Ok(Value::Array(c)),
        Cov::Unscaled => Value::Float(1.0),
        Cov::Scaled => {
            if x.size() <= order {
                return Err(value_err(
                    name,
                    format!(
                        "the number of data points must exceed order to scale the covariance matrix ({} points, order {order})",
                        x.size()
                    ),
                    "give more points than deg + 1, or cov=\"unscaled\"",
                ));
            }
            let r = super::super::nparr::as_array(resids)?;
            Value::Array(a(
                i,
                span,
                "divide",
                vec![r.into(), Value::Float((x.size() - order) as f64)],
            )?)
        }
    };
    // Vbase = inv(lhs.T @ lhs) / outer(scale, scale)
    let lt = a(i, span, "transpose", vec![lhs.clone().into()])?;
    let g = a(i, span, "matmul", vec![lt.into(), lhs.into()])?;
    let vb = a(i, span, "inv", vec![g.into()])?;
    let os = a(i, span, "outer", vec![scale.clone().into(), scale.into()])?;
    let mut vb = a(i, span, "divide", vec![vb.into(), os.into()])?;
    if y.ndim() == 2 {
        vb = arr(
            i,
            span,
            "reshape",
            vec![
                vb.into(),
                Value::tuple(vec![
                    Value::Int(order as i64),
                    Value::Int(order as i64),
                    Value::Int(1),
                ]),
            ],
            vec![],
        )?;
    }
    let v = a(i, span, "multiply", vec![vb.into(), fac])?;
    Ok(Value::tuple(vec![c.into(), v.into()]))
}
