//! NumPy's complex tests written out of other ops of the table (so they run
//! on every device): `iscomplex isreal` (elementwise, on the imaginary
//! part; a real array's answer is constant) and `real_if_close` (the real
//! part when every imaginary part is within `tol` machine epsilons of 0);
//! `sort_complex` (NumPy's lexicographic complex order, on the host).

use super::creation::{array_arg, op};
use super::stats::{arr, call_op};
use crate::array::{Array, Cf64};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "iscomplex",
        "iscomplex(x)",
        "Elementwise: whether the imaginary part is nonzero (bool array; all false for a real array, a bool for a number). Compare iscomplexobj, which tests the dtype.",
        false,
        iscomplex
    ),
    op!(
        "isreal",
        "isreal(x)",
        "Elementwise: whether the imaginary part is zero (bool array; all true for a real array, a bool for a number). Compare isrealobj, which tests the dtype.",
        false,
        isreal
    ),
    op!(
        "sort_complex",
        "sort_complex(a)",
        "a sorted along its last axis in NumPy's complex order (by real part, then imaginary part; nan last), as a complex array: complex64 stays, every other dtype gives complex128 (a 0-d array gives shape (1,)). On every device.",
        false,
        sort_complex
    ),
    op!(
        "real_if_close",
        "real_if_close(a, tol=100)",
        "The real part of a complex array when every imaginary part is below tol machine epsilons of its dtype (tol <= 1: an absolute tolerance); otherwise a unchanged. Real arrays are returned as they are.",
        false,
        real_if_close
    ),
];

/// `iscomplex` (`want_complex`) or `isreal`.
fn imag_test(i: &mut Interp, mut a: Args, want_complex: bool) -> Result<Value> {
    let name = a.name;
    let x = a.req("x")?;
    a.finish()?;
    match x {
        Value::Complex(_, im) => return Ok(Value::Bool((im != 0.0) == want_complex)),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => return Ok(Value::Bool(!want_complex)),
        _ => {}
    }
    let x = array_arg(i, &x).map_err(|e| Error {
        message: format!("{name}(): {}", e.message),
        ..e
    })?;
    if !x.dtype().is_complex() {
        let fill = if want_complex {
            "zeros_like"
        } else {
            "ones_like"
        };
        return call_op(
            i,
            fill,
            vec![Value::Array(x)],
            vec![("dtype", Value::DType(DType::Bool))],
        );
    }
    let im = call_op(i, "imag", vec![Value::Array(x)], vec![])?;
    let cmp = if want_complex { "not_equal" } else { "equal" };
    call_op(i, cmp, vec![im, Value::Int(0)], vec![])
}

fn iscomplex(i: &mut Interp, a: Args) -> Result<Value> {
    imag_test(i, a, true)
}

fn isreal(i: &mut Interp, a: Args) -> Result<Value> {
    imag_test(i, a, false)
}

fn real_if_close(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "real_if_close";
    let x = array_arg(i, &a.req("a")?)?;
    let tol = match a.opt("tol")? {
        None => 100.0,
        Some(Value::Int(n)) => n as f64,
        Some(Value::Float(f)) => f,
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}(): tol must be a number, not {}",
                v.a_type_name()
            )));
        }
    };
    a.finish_with(&["tol"])?;
    if !x.dtype().is_complex() {
        return Ok(Value::Array(x));
    }
    let eps = match x.dtype().real_part() {
        DType::Float32 => f32::EPSILON as f64,
        _ => f64::EPSILON,
    };
    let bound = if tol > 1.0 { tol * eps } else { tol };
    let im = call_op(i, "imag", vec![Value::Array(x.clone())], vec![])?;
    let mag = call_op(i, "abs", vec![im], vec![])?;
    let small = call_op(i, "less", vec![mag, Value::Float(bound)], vec![])?;
    let all = arr(call_op(i, "all", vec![small], vec![])?, name)?;
    if all.to_f64_vec()?.first().is_some_and(|&v| v != 0.0) {
        call_op(i, "real", vec![Value::Array(x)], vec![])
    } else {
        Ok(Value::Array(x))
    }
}

/// NumPy's order of complex numbers: by real part, then imaginary part,
/// nan after every number in each.
fn cx_order(a: &Cf64, b: &Cf64) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let part = |x: f64, y: f64| match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    };
    part(a.re, b.re).then_with(|| part(a.im, b.im))
}

fn sort_complex(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "sort_complex";
    let x = array_arg(i, &a.req("a")?)?;
    a.finish()?;
    let out_dtype = if x.dtype() == DType::Complex64 {
        DType::Complex64
    } else {
        DType::Complex128
    };
    let device = x.device();
    let mut v: Vec<Cf64> = x.to_vec::<Cf64>()?;
    let row = x.shape().last().copied().unwrap_or(1).max(1);
    for chunk in v.chunks_mut(row) {
        chunk.sort_by(cx_order);
    }
    let shape = if x.ndim() == 0 {
        vec![1]
    } else {
        x.shape().to_vec()
    };
    let mut r = Array::from_vec(v, shape);
    if out_dtype != DType::Complex128 {
        r = r.astype(out_dtype)?;
    }
    if device != Device::Cpu {
        return call_op(
            i,
            "to",
            vec![Value::Array(r), Value::Device(device)],
            vec![],
        )
        .map_err(|e| e.with_op(name));
    }
    Ok(Value::Array(r))
}
