//! Least squares and what the SVD gives beyond the factors: `lstsq`
//! (NumPy's x, residuals, rank, s; SVD-based like LAPACK's gelsd), `pinv`
//! (with its own gradient rule, robust where singular values repeat) and
//! `matrix_power` (repeated squaring through the interpreter, so it is
//! differentiable through matmul and inv).

use super::creation::op;
use super::decomp::svd_arrays;
use super::fuse::{self, Operand};
use super::linalg_args::{arr, as_dtype, lapack_dtype, same_device, square};
use super::linalg_calls::{Calls, leaf};
use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::layout::fmt_shape;
use crate::autodiff::ewb::{E, c, call, where_};
use crate::builtins::lang::int_arg;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::ops::linalg::matmul;
use crate::ops::reduce::reduce;
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "lstsq",
        "lstsq(a, b, rcond=none)",
        "The least-squares solution of a @ x = b for a (m, n) and b (m,) or (m, k): (x, residuals, rank, s) as NumPy: residuals are the squared 2-norms of b - a @ x per column when rank = n < m (else empty), s a's singular values; singular values below rcond * max(s) count as zero (default rcond: eps * max(m, n); rcond <= 0 or >= 1 means eps / 2, as LAPACK's gelsd). No gradient: use pinv(a) @ b under grad.",
        false,
        lstsq
    ),
    op!(
        "pinv",
        "pinv(a, rcond=none, hermitian=false, rtol=none)",
        "The Moore-Penrose pseudo-inverse of a (..., m, n), from its SVD: singular values at or below rcond * max(s) are dropped (default 1e-15; rtol=none: max(m, n) * eps).",
        false,
        pinv,
        grad: crate::autodiff::rules_linalg::pinv
    ),
    op!(
        "matrix_power",
        "matrix_power(a, n)",
        "a (..., m, m) raised to the integer power n by repeated squaring; n = 0 gives the identity, n < 0 powers of inv(a).",
        false,
        matrix_power
    ),
];

fn ev(fx: DType, t: E) -> Result<Array> {
    let t =
        t.0.ok_or_else(|| Error::internal("linear algebra: op missing"))?;
    match fuse::eval(t, fx)? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("linear algebra: scalar result")),
    }
}

/// The last two axes swapped (a view).
fn mt(a: &Array) -> Result<Array> {
    let nd = a.ndim() as i64;
    let mut p: Vec<i64> = (0..nd).collect();
    p.swap(nd as usize - 2, nd as usize - 1);
    a.transpose(Some(&p))
}

/// `s` with a new axis: (..., k) -> (..., k, 1) (`col`) or (..., 1, k).
fn with_axis(s: &Array, col: bool) -> Result<Array> {
    let mut sh: Vec<i64> = s.shape().iter().map(|&d| d as i64).collect();
    match col {
        true => sh.push(1),
        false => sh.insert(sh.len() - 1, 1),
    }
    s.reshape(&sh)
}

/// 1/s where s > cutoff, else 0 (the pseudo-inverse's singular values).
fn inv_above(fx: DType, s: &Array, cutoff: &Array) -> Result<Array> {
    let big = call("greater", [leaf(s), leaf(cutoff)]);
    ev(fx, where_(big, c(1.0) / leaf(s), c(0.0)))
}

fn eps(dt: DType) -> f64 {
    match dt {
        DType::Float32 => f32::EPSILON as f64,
        _ => f64::EPSILON,
    }
}

fn lstsq(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    let rcond = args.opt("rcond")?.filter(|v| !matches!(v, Value::None));
    args.finish_with(&["rcond"])?;
    let fx = i.float_x();
    same_device("lstsq", &a, &b)?;
    let vector = b.ndim() == 1;
    if a.ndim() != 2 || !(b.ndim() == 1 || b.ndim() == 2) {
        return Err(Error::shape(
            "lstsq",
            format!(
                "lstsq: a must be 2-dimensional and b 1- or 2-dimensional, got shapes {} and {}",
                fmt_shape(a.shape()),
                fmt_shape(b.shape())
            ),
        )
        .with_help("for stacks of matrices use solve (square) or pinv(a) @ b"));
    }
    let (m, n) = (a.shape()[0], a.shape()[1]);
    if b.shape()[0] != m {
        return Err(Error::value(format!(
            "lstsq: incompatible dimensions: a {} has {m} rows, b {} has {}",
            fmt_shape(a.shape()),
            fmt_shape(b.shape()),
            b.shape()[0]
        ))
        .with_op("lstsq")
        .with_help("a (m, n) and b (m,) or (m, k) must have as many rows"));
    }
    let dt = lapack_dtype("lstsq", &[&a, &b], fx)?;
    let (a, b) = (as_dtype(&a, dt)?, as_dtype(&b, dt)?);
    let b2 = match vector {
        true => b.reshape(&[m as i64, 1])?,
        false => b.clone(),
    };
    let nrhs = b2.shape()[1];
    // As LAPACK's gelsd (dlalsd), which NumPy calls: rcond <= 0 or >= 1
    // means the unit roundoff (dlamch('E'), half of finfo.eps), so the
    // legacy `rcond=-1` still drops noise-level singular values.
    let rcond = match rcond {
        Some(v) => match crate::builtins::lang::float_arg(&v, "rcond")? {
            r if r <= 0.0 || r >= 1.0 => eps(dt) / 2.0,
            r => r,
        },
        None => eps(dt) * m.max(n) as f64,
    };
    let usv = svd_arrays(&a, false, true, fx)?;
    let (u, s, vh) = (&usv[0], &usv[1], &usv[2]);
    let k = m.min(n);
    // rank: singular values above rcond * max(s).
    let (x, rank) = if k == 0 {
        let x = crate::backend::create::full(
            &[n, nrhs],
            crate::array::Scalar::Float(0.0),
            dt,
            a.device(),
        )?;
        (x, 0i64)
    } else {
        let smax = reduce(ReduceOp::Max, s, None, false, fx)?;
        let cutoff = ev(fx, leaf(&smax) * c(rcond))?;
        let sinv = inv_above(fx, s, &cutoff)?;
        let big = ev(fx, call("greater", [leaf(s), leaf(&cutoff)]))?;
        let rank = reduce(ReduceOp::Sum, &big, None, false, fx)?;
        let rank = match rank.item()? {
            Value::Int(r) => r,
            _ => 0,
        };
        let utb = matmul(&mt(u)?, &b2)?;
        let scaled = ev(fx, leaf(&with_axis(&sinv, true)?) * leaf(&utb))?;
        (matmul(&mt(vh)?, &scaled)?, rank)
    };
    // Residuals: squared column norms of b - a x when the system is
    // overdetermined and of full rank, else empty (NumPy).
    let resid = if rank == n as i64 && m > n {
        let r = ev(fx, leaf(&b2) - leaf(&matmul(&a, &x)?))?;
        let sq = ev(fx, leaf(&r) * leaf(&r))?;
        reduce(ReduceOp::Sum, &sq, Some(&[0]), false, fx)?
    } else {
        crate::backend::create::full(&[0], crate::array::Scalar::Float(0.0), dt, a.device())?
    };
    let x = match vector {
        true => x.reshape(&[n as i64])?,
        false => x,
    };
    let rank = Array::scalar(rank as i32);
    Ok(Value::tuple(vec![
        x.into(),
        resid.into(),
        rank.into(),
        s.clone().into(),
    ]))
}

fn pinv(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let rcond = args.opt("rcond")?.filter(|v| !matches!(v, Value::None));
    super::linalg_args::bool_arg("pinv", "hermitian", args.opt("hermitian")?, false)?;
    let rtol = args.kw("rtol");
    args.finish_with(&["rcond", "hermitian", "rtol"])?;
    let fx = i.float_x();
    super::linalg_args::at_least_2d("pinv", &a)?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    if m * n == 0 {
        // NumPy: an empty (..., n, m) result of a's own dtype.
        let mut shape = a.shape()[..nd - 2].to_vec();
        shape.extend([n, m]);
        let z = crate::array::Scalar::Int(0);
        return Ok(crate::backend::create::full(&shape, z, a.dtype(), a.device())?.into());
    }
    let dt = lapack_dtype("pinv", &[&a], fx)?;
    let a = as_dtype(&a, dt)?;
    let rcond: Array = match (rcond, rtol) {
        (Some(_), Some(_)) => {
            return Err(Error::value("pinv: `rtol` and `rcond` can't be both set").with_op("pinv"));
        }
        (Some(v), None) | (None, Some(v)) if !matches!(v, Value::None) => arr(i, &v)?,
        (None, Some(_)) => Array::scalar(m.max(n) as f64 * eps(dt)),
        _ => Array::scalar(1e-15f64),
    };
    let rcond = crate::backend::to_device(&as_dtype(&rcond, dt)?, a.device())?;
    let usv = svd_arrays(&a, false, true, fx)?;
    let (u, s, vh) = (&usv[0], &usv[1], &usv[2]);
    let smax = reduce(ReduceOp::Max, s, Some(&[-1]), true, fx)?;
    let cutoff = ev(fx, leaf(&with_axis(&rcond, true)?) * leaf(&smax))?;
    let sinv = inv_above(fx, s, &cutoff)?;
    let scaled = ev(fx, leaf(&with_axis(&sinv, true)?) * leaf(&mt(u)?))?;
    Ok(matmul(&mt(vh)?, &scaled)?.into())
}

fn matrix_power(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let a = arr(i, &args.req("a")?)?;
    let nv = args.req("n")?;
    args.finish()?;
    let n = match nv {
        Value::Int(_) | Value::Bool(_) => int_arg(&nv, "n")?,
        Value::Array(ref x) if x.dtype().is_int() && x.size() == 1 => int_arg(&nv, "n")?,
        v => {
            return Err(Error::type_(format!(
                "matrix_power: exponent must be an integer, got {}",
                v.a_type_name()
            ))
            .with_op("matrix_power"));
        }
    };
    square("matrix_power", &a)?;
    let mut c = Calls::new(i, span);
    if n == 0 {
        let m = a.shape()[a.ndim() - 1];
        let eye = Array::eye(m, m, 0, a.dtype(), a.device())?;
        return Ok(eye.broadcast_to(a.shape())?.copy()?.into());
    }
    let (a, n) = match n < 0 {
        true => (c.arr("inv", vec![a.into()], vec![])?, n.unsigned_abs()),
        false => (a, n as u64),
    };
    // NumPy's order of products (same rounding).
    let r = match n {
        1 => c.arr("copy", vec![a.into()], vec![])?,
        2 => c.matmul(&a, &a)?,
        3 => {
            let sq = c.matmul(&a, &a)?;
            c.matmul(&sq, &a)?
        }
        _ => {
            let (mut z, mut result): (Option<Array>, Option<Array>) = (None, None);
            let mut n = n;
            while n > 0 {
                let zz = match z {
                    None => a.clone(),
                    Some(z) => c.matmul(&z, &z)?,
                };
                if n % 2 == 1 {
                    result = Some(match result {
                        None => zz.clone(),
                        Some(r) => c.matmul(&r, &zz)?,
                    });
                }
                z = Some(zz);
                n /= 2;
            }
            result.ok_or_else(|| Error::internal("matrix_power: no result"))?
        }
    };
    Ok(r.into())
}
