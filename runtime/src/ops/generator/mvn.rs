//! `multivariate_normal(mean, cov, size, check_valid, tol)`: standard
//! normals (the session's stream) times a square root of cov from `eigh`
//! (A = Q sqrt(max(w, 0)), so A A^T = cov for a positive semi-definite cov),
//! plus mean; on cov's device. cov is checked as NumPy does: A A^T must
//! equal cov within tol (asymmetric or indefinite covs fail).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, shape_arg};
use crate::ops::nparr::{arr, astype, data, data_on, items, shape_value};
use crate::value::Value;

const OP: &str = "multivariate_normal";

fn bad(msg: &str, help: &str) -> Error {
    Error::value(format!("{OP}: {msg}"))
        .with_op(OP)
        .with_help(help.to_string())
}

pub fn multivariate_normal(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let mean = a.req("mean")?;
    let cov = a.req("cov")?;
    let size = match crate::ops::random_draws::shape_or_size(&mut a)? {
        None | Some(Value::None) => vec![],
        Some(v) => shape_arg(&v)?,
    };
    let check = match a.opt("check_valid")? {
        None => "warn".to_string(),
        Some(Value::Str(s)) if ["warn", "raise", "ignore"].contains(&&*s) => s.to_string(),
        Some(v) => {
            return Err(bad(
                &format!(
                    "check_valid must be \"warn\", \"raise\" or \"ignore\", got {}",
                    crate::display::repr(&v)
                ),
                "e.g. check_valid=\"raise\"",
            ));
        }
    };
    let tol = match a.opt("tol")? {
        None => 1e-8,
        Some(v) => crate::ops::nparr::float(&v, OP, "tol")?,
    };
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["size", "shape", "check_valid", "tol", "dtype", "device"])?;
    let cov = match dev {
        Some(d) => data_on(i, cov, d, OP, "cov")?,
        None => data(i, cov, OP, "cov")?,
    };
    let dev = cov.device();
    let mean = data_on(i, mean, dev, OP, "mean")?;
    if mean.ndim() != 1 {
        return Err(bad(
            "mean must be 1 dimensional",
            "give a 1-d mean of k values",
        ));
    }
    let k = mean.size();
    if cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1] {
        return Err(bad(
            "cov must be 2 dimensional and square",
            "give a k x k covariance",
        ));
    }
    if cov.shape()[0] != k {
        return Err(bad(
            "mean and cov must have same length",
            "give mean of k values and cov of k x k",
        ));
    }
    let cov = astype(i, span, &cov, DType::Float64)?;
    let mean = astype(i, span, &mean, DType::Float64)?;
    let wq = items(
        crate::ops::nparr::call(i, span, "eigh", vec![cov.clone().into()], vec![])?,
        OP,
    )?;
    let w = arr(
        i,
        span,
        "maximum",
        vec![wq[0].clone(), Value::Float(0.0)],
        vec![],
    )?;
    let s = arr(i, span, "sqrt", vec![w.into()], vec![])?;
    let root = arr(i, span, "multiply", vec![wq[1].clone(), s.into()], vec![])?;
    let rt = arr(i, span, "transpose", vec![root.clone().into()], vec![])?;
    if check != "ignore" {
        let back = arr(
            i,
            span,
            "matmul",
            vec![root.into(), rt.clone().into()],
            vec![],
        )?;
        let (b, c) = (back.to_vec::<f64>()?, cov.to_vec::<f64>()?);
        let psd = b
            .iter()
            .zip(&c)
            .all(|(x, y)| (x - y).abs() <= tol + tol * y.abs());
        if !psd {
            let msg = "covariance is not symmetric positive-semidefinite.";
            if check == "raise" {
                return Err(bad(
                    msg,
                    "give a symmetric positive semi-definite cov, or check_valid=\"ignore\"",
                ));
            }
            i.out.stderr(&format!("RuntimeWarning: {OP}: {msg}\n"));
        }
    }
    let mut shape = size;
    shape.push(k);
    let z = arr(
        i,
        span,
        "normal",
        vec![Value::Float(0.0), Value::Float(1.0), shape_value(&shape)],
        vec![
            ("dtype", Value::DType(DType::Float64)),
            ("device", Value::Device(dev)),
        ],
    )?;
    let x = arr(i, span, "matmul", vec![z.into(), rt.into()], vec![])?;
    let x = arr(i, span, "add", vec![x.into(), mean.into()], vec![])?;
    let d = dt.unwrap_or_else(|| i.float_x());
    Ok(Value::Array(astype(i, span, &x, d)?))
}
