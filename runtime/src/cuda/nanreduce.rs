//! The NaN-skipping reductions, `ptp` and `count_nonzero` on a GPU, composed
//! of device kernels only (fused expressions and the reduction kernels): NaN
//! replaced by the reduction's identity, a count of the non-NaN elements for
//! the means and variances (float64, as the CPU), max - min for ptp. One host
//! read: nanargmax/nanargmin learn whether some lane is all NaN (NumPy raises
//! then), a sync.

use super::ew::{self, Expr};
use super::reduce::{reduce, reduce_op};
use super::stats::{DIVIDE, any_all, f64_op};
use crate::array::{Array, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::ReduceOp;
use gcalc_kernels::cuda::RedOp;

/// `{0}` with NaN replaced by `{1}`.
pub const NAN_TO: &str = "(({0} != {0}) ? {1} : {0})";
/// Whether `{0}` is not NaN (bool).
pub const NOT_NAN: &str = "({0} == {0})";
/// `(x - sum / count)^2` for non-NaN x, else 0: `{0}` x, `{1}` sum, `{2}` count.
pub const NAN_SQUARED_DEVIATION: &str =
    "(({0} == {0}) ? (({0} - {1} / {2}) * ({0} - {1} / {2})) : 0.0)";
/// `{0} / ({1} - {2})` (a variance: squares, count, ddof), NaN unless the divisor is positive.
pub const NAN_VAR: &str =
    "((({1} - {2}) > 0.0) ? {0} / ({1} - {2}) : __longlong_as_double(0x7ff8000000000000LL))";
/// The square root of `NAN_VAR`.
pub const NAN_STD: &str =
    "((({1} - {2}) > 0.0) ? sqrt({0} / ({1} - {2})) : __longlong_as_double(0x7ff8000000000000LL))";
/// `{0}` unless the count `{1}` is 0 (then NaN).
pub const NAN_IF_NONE: &str = "(({1} == 0) ? __longlong_as_double(0x7ff8000000000000LL) : {0})";
/// `{0} - {1}`.
pub const SUBTRACT: &str = "({0} - {1})";
/// `{0} == 0` (bool).
pub const IS_ZERO: &str = "({0} == 0)";

fn op(template: &'static str, compute: DType, result: DType, args: Vec<Expr>) -> Expr {
    Expr::Op {
        template: template.into(),
        compute,
        result,
        args,
    }
}

/// `x` with NaN replaced by `fill`, in x's dtype.
fn nan_to(x: &Array, fill: f64) -> Result<Array> {
    let e = f64_op(
        NAN_TO,
        vec![Expr::Array(x.clone()), Expr::Float(fill, DType::Float64)],
    );
    ew::eval(&e, x.dtype(), None, None)
}

/// `r` as `dtype` (a reduction over no axis gives its input back unconverted).
fn as_dtype(r: Array, dtype: DType) -> Result<Array> {
    if r.dtype() == dtype {
        Ok(r)
    } else {
        ew::copy(&r, dtype)
    }
}

/// How many non-NaN elements each lane of `x` over `axes` has (int64).
fn count(x: &Array, axes: &[usize], keepdims: bool) -> Result<Array> {
    let e = op(
        NOT_NAN,
        DType::Float64,
        DType::Bool,
        vec![Expr::Array(x.clone())],
    );
    let ok = ew::eval(&e, DType::Bool, None, None)?;
    as_dtype(
        reduce(&ok, RedOp::Sum, Some(axes), keepdims, DType::Int64)?,
        DType::Int64,
    )
}

/// A kept-dims result `r` without the reduced axes (it is contiguous).
fn drop_axes(r: Array, axes: &[usize], keepdims: bool) -> Array {
    if keepdims {
        return r;
    }
    let shape: Vec<usize> = (0..r.ndim())
        .filter(|d| !axes.contains(d))
        .map(|d| r.shape()[d])
        .collect();
    let strides = layout::contiguous_strides(&shape);
    let off = r.offset();
    r.view(shape, strides, off)
}

/// `op` (a NaN-skipping reduction of floats, ptp or count_nonzero) of GPU
/// array `a` over `axes` (the axes marked in `red`).
pub fn reduce_nan(
    op_: ReduceOp,
    a: &Array,
    red: &[bool],
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    let axes: Vec<usize> = (0..red.len()).filter(|&d| red[d]).collect();
    let d = a.dtype();
    let x = Expr::Array(a.clone());
    match op_ {
        ReduceOp::Nansum => {
            let r = reduce(&nan_to(a, 0.0)?, RedOp::Sum, Some(&axes), keepdims, d)?;
            as_dtype(r, d)
        }
        ReduceOp::Nanmean => {
            let s = reduce(
                &nan_to(a, 0.0)?,
                RedOp::Sum,
                Some(&axes),
                keepdims,
                DType::Float64,
            )?;
            let n = count(a, &axes, keepdims)?;
            let e = f64_op(DIVIDE, vec![Expr::Array(s), Expr::Array(n)]);
            ew::eval(&e, d, None, None)
        }
        ReduceOp::Nanvar | ReduceOp::Nanstd => {
            let s = reduce(
                &nan_to(a, 0.0)?,
                RedOp::Sum,
                Some(&axes),
                true,
                DType::Float64,
            )?;
            let s = as_dtype(s, DType::Float64)?;
            let n = count(a, &axes, true)?;
            let dev = f64_op(
                NAN_SQUARED_DEVIATION,
                vec![x, Expr::Array(s), Expr::Array(n.clone())],
            );
            let dev = ew::eval(&dev, DType::Float64, None, None)?;
            let ss = reduce(&dev, RedOp::Sum, Some(&axes), true, DType::Float64)?;
            let t = if op_ == ReduceOp::Nanstd {
                NAN_STD
            } else {
                NAN_VAR
            };
            let e = f64_op(
                t,
                vec![
                    Expr::Array(ss),
                    Expr::Array(n),
                    Expr::Float(ddof as f64, DType::Float64),
                ],
            );
            Ok(drop_axes(ew::eval(&e, d, None, None)?, &axes, keepdims))
        }
        ReduceOp::Nanmax | ReduceOp::Nanmin => {
            let (fill, rop) = if op_ == ReduceOp::Nanmax {
                (f64::NEG_INFINITY, RedOp::Max)
            } else {
                (f64::INFINITY, RedOp::Min)
            };
            let m = as_dtype(reduce(&nan_to(a, fill)?, rop, Some(&axes), keepdims, d)?, d)?;
            let n = count(a, &axes, keepdims)?;
            let e = f64_op(NAN_IF_NONE, vec![Expr::Array(m), Expr::Array(n)]);
            ew::eval(&e, d, None, None)
        }
        ReduceOp::Nanargmax | ReduceOp::Nanargmin => {
            let (fill, plain) = if op_ == ReduceOp::Nanargmax {
                (f64::NEG_INFINITY, ReduceOp::Argmax)
            } else {
                (f64::INFINITY, ReduceOp::Argmin)
            };
            let r = reduce_op(plain, &nan_to(a, fill)?, red, keepdims, 0, float_x)?;
            // NumPy raises when a lane has no number: one read to learn it.
            let n = count(a, &axes, false)?;
            let zero = ew::eval(
                &op(IS_ZERO, DType::Int64, DType::Bool, vec![Expr::Array(n)]),
                DType::Bool,
                None,
                None,
            )?;
            let all: Vec<usize> = (0..zero.ndim()).collect();
            let none = any_all(&zero, true, &all, false)?;
            if none
                .to_host()?
                .to_vec::<bool>()?
                .first()
                .copied()
                .unwrap_or(false)
            {
                return Err(Error::value("All-NaN slice encountered")
                    .with_op(op_.name())
                    .with_help("every element of a lane is NaN: there is no index to give; check with isnan(x).all(axis)"));
            }
            Ok(r)
        }
        ReduceOp::Ptp => {
            let hi = as_dtype(reduce(a, RedOp::Max, Some(&axes), keepdims, d)?, d)?;
            let lo = as_dtype(reduce(a, RedOp::Min, Some(&axes), keepdims, d)?, d)?;
            let c = d.compute();
            let e = op(SUBTRACT, c, c, vec![Expr::Array(hi), Expr::Array(lo)]);
            ew::eval(&e, d, None, None)
        }
        ReduceOp::CountNonzero => {
            let b = as_dtype(a.clone(), DType::Bool)?;
            as_dtype(
                reduce(&b, RedOp::Sum, Some(&axes), keepdims, DType::Int64)?,
                DType::Int64,
            )
        }
        ReduceOp::Sum
        | ReduceOp::Mean
        | ReduceOp::Prod
        | ReduceOp::Max
        | ReduceOp::Min
        | ReduceOp::Argmax
        | ReduceOp::Argmin
        | ReduceOp::Std
        | ReduceOp::Var
        | ReduceOp::Any
        | ReduceOp::All => Err(Error::internal(format!(
            "cuda nanreduce: {op_:?} is reduce.rs's"
        ))),
    }
}
