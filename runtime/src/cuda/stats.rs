//! std/var and any/all on a GPU, composed of device kernels only (no host
//! copy): var is two passes as on the CPU (the float64 sum gives the mean,
//! then the float64 sum of squared deviations, divided by max(n - ddof, 0)
//! as NumPy: inf past n, nan for a zero sum); any/all are max/min over `x != 0` as bool. Every
//! piece is deterministic, so the results are too.

use super::ew::{self, Expr};
use super::reduce::reduce;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use gcalc_kernels::cuda::RedOp;

fn ordinal(a: &Array) -> Result<u32> {
    match a.device() {
        Device::Gpu(i) => Ok(i),
        Device::Cpu => Err(Error::internal("cuda stats on a CPU array")),
    }
}

/// `(x - sum / n)^2` over `{0}` x, `{1}` the sum, `{2}` n (float64).
pub const SQUARED_DEVIATION: &str = "(({0} - {1} / {2}) * ({0} - {1} / {2}))";
/// `{0} / {1}` (float64): a variance, a mean.
pub const DIVIDE: &str = "({0} / {1})";
/// `sqrt({0} / {1})` (float64): a standard deviation.
pub const SQRT_DIVIDE: &str = "sqrt({0} / {1})";

/// An expression computed and given in float64.
pub(super) fn f64_op(template: &'static str, args: Vec<Expr>) -> Expr {
    Expr::Op {
        template: template.into(),
        compute: DType::Float64,
        result: DType::Float64,
        args,
    }
}

/// Variance (`std`: its square root) of `a` over `axes`, dividing by
/// `n - ddof`; float inputs keep their dtype, others give `float_x`.
pub fn var_std(
    a: &Array,
    std: bool,
    axes: &[usize],
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    let d = a.dtype();
    let out = if d.is_float() { d } else { float_x };
    let m: usize = axes.iter().map(|&x| a.shape()[x]).product();
    // Integers and bools become float64 first, as the CPU reads them.
    let x = if d.is_float() {
        a.clone()
    } else {
        ew::copy(a, DType::Float64)?
    };
    let s = reduce(&x, RedOp::Sum, Some(axes), true, DType::Float64)?;
    let dev = ew::eval(
        &f64_op(
            SQUARED_DEVIATION,
            vec![
                Expr::Array(x),
                Expr::Array(s),
                Expr::Float(m as f64, DType::Float64),
            ],
        ),
        DType::Float64,
        None,
        None,
    )?;
    let ss = reduce(&dev, RedOp::Sum, Some(axes), keepdims, DType::Float64)?;
    let div = m as f64 - ddof as f64;
    // NumPy's max(n - ddof, 0): ss / 0 is inf, or nan for a zero ss.
    let div = div.max(0.0);
    let t = if std { SQRT_DIVIDE } else { DIVIDE };
    ew::eval(
        &f64_op(t, vec![Expr::Array(ss), Expr::Float(div, DType::Float64)]),
        out,
        None,
        None,
    )
}

/// any (`any`) or all of `a` over `axes`, as bool: an empty lane gives false
/// for any and true for all.
pub fn any_all(a: &Array, any: bool, axes: &[usize], keepdims: bool) -> Result<Array> {
    let m: usize = axes.iter().map(|&x| a.shape()[x]).product();
    if m == 0 {
        let shape: Vec<usize> = (0..a.ndim())
            .filter_map(|k| {
                if axes.contains(&k) {
                    keepdims.then_some(1)
                } else {
                    Some(a.shape()[k])
                }
            })
            .collect();
        return ew::full(&shape, (!any) as u8 as f64, DType::Bool, ordinal(a)?);
    }
    let b = if a.dtype() == DType::Bool {
        a.clone()
    } else {
        ew::copy(a, DType::Bool)?
    };
    let op = if any { RedOp::Max } else { RedOp::Min };
    let r = reduce(&b, op, Some(axes), keepdims, DType::Bool)?;
    if r.dtype() == DType::Bool {
        Ok(r)
    } else {
        // No axis reduced: `reduce` gave the input back.
        ew::copy(&r, DType::Bool)
    }
}
