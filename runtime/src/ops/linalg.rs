//! Linear algebra: `matmul` (NumPy semantics: 1-D promotion, broadcast batch
//! dims), `dot` (NumPy dot for up to 2-D) and `outer`: their table entries and
//! checks; the products are the backends' (`cpu/linalg`, `cuda/blas.rs`).

use super::fuse::{self, Operand};
use super::{OpDef, OpKind};
use crate::array::{Array, HostData, layout};
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    OpDef {
        name: "matmul",
        sig: "matmul(x, y)",
        doc: "Matrix product as NumPy's matmul (the `@` operator): 1-D operands are promoted, leading dims broadcast.",
        method: false,
        kind: OpKind::Func(|i: &mut Interp, a: Args| binary(i, a, Which::Matmul)),
        grad: Some(crate::autodiff::rules::matmul),
    },
    OpDef {
        name: "dot",
        sig: "dot(x, y)",
        doc: "NumPy's dot for arrays of up to 2 dims: inner product of vectors, matrix product, or scaling by a scalar.",
        method: true,
        kind: OpKind::Func(|i: &mut Interp, a: Args| binary(i, a, Which::Dot)),
        grad: Some(crate::autodiff::rules::dot),
    },
    OpDef {
        name: "outer",
        sig: "outer(x, y)",
        doc: "Outer product of two arrays (both flattened): result[i, j] = x[i] * y[j].",
        method: false,
        kind: OpKind::Func(|i: &mut Interp, a: Args| binary(i, a, Which::Outer)),
        grad: Some(crate::autodiff::rules::outer),
    },
];

/// An operand of a product; a list or tuple is NumPy's array-like, made an
/// array on the other operand's device (`x @ [1, 1]`, `dot([1, 2], y)`).
fn array_like(interp: &Interp, v: Value, other: &Value) -> Result<Operand> {
    if !matches!(v, Value::List(_) | Value::Tuple(_) | Value::Range(..)) {
        return fuse::operand(&v);
    }
    let a = crate::array::create::value_to_array(&v, None, interp.float_x())?;
    let dev = match other {
        Value::Array(o) => o.device(),
        _ => interp.default_device(),
    };
    fuse::operand(&Value::Array(crate::backend::to_device(&a, dev)?))
}

#[derive(Clone, Copy)]
enum Which {
    Matmul,
    Dot,
    Outer,
}

fn binary(interp: &mut Interp, mut args: Args, which: Which) -> Result<Value> {
    let (x, y) = (args.req("x")?, args.req("y")?);
    args.finish()?;
    let x = array_like(interp, x, &y)?;
    let y = array_like(interp, y, &x.clone().into_value())?;
    let fx = interp.float_x();
    if super::complex_ew::is_complex(&x) || super::complex_ew::is_complex(&y) {
        // Four real products of the parts: (a + bi)(c + di).
        return super::complex_ew::bilinear(x, y, fx, |x, y| {
            fuse::operand(&product(which, x, y, fx)?)
        })
        .map(Operand::into_value);
    }
    product(which, x, y, fx)
}

fn product(which: Which, x: Operand, y: Operand, fx: DType) -> Result<Value> {
    match which {
        Which::Matmul => match (x, y) {
            (Operand::Array(a), Operand::Array(b)) => Ok(Value::Array(matmul(&a, &b)?)),
            _ => Err(Error::value("matmul: scalar operands are not allowed")
                .with_op("matmul")
                .with_help("use * to scale by a scalar")),
        },
        Which::Dot => dot(x, y, fx).map(Operand::into_value),
        Which::Outer => match (x, y) {
            (Operand::Array(a), Operand::Array(b)) => Ok(Value::Array(outer(&a, &b, fx)?)),
            (x, y) => {
                let f = |o: Operand| match o {
                    Operand::Array(a) => a,
                    Operand::Int(i) => Array::scalar(i),
                    Operand::Float(f) => {
                        Array::from_host(HostData::from_f64s(fx, [f].into_iter()), vec![])
                    }
                    Operand::Bool(b) => Array::scalar(b),
                    Operand::Complex(re, im) => Array::scalar(crate::array::Cf64::new(re, im)),
                };
                Ok(Value::Array(outer(&f(x), &f(y), fx)?))
            }
        },
    }
}

/// NumPy's dot for up to 2-D operands.
pub fn dot(x: Operand, y: Operand, float_x: DType) -> Result<Operand> {
    match (x, y) {
        (Operand::Array(a), Operand::Array(b)) if a.ndim() > 0 && b.ndim() > 0 => {
            if a.ndim() > 2 || b.ndim() > 2 {
                return Err(Error::shape(
                    "dot",
                    format!(
                        "dot supports arrays of up to 2 dimensions, got shapes {} and {}",
                        layout::fmt_shape(a.shape()),
                        layout::fmt_shape(b.shape())
                    ),
                )
                .with_help("use matmul (or @) for stacks of matrices"));
            }
            Ok(Operand::Array(matmul(&a, &b)?))
        }
        (x, y) => fuse::apply("multiply", vec![x, y], float_x),
    }
}

/// Outer product of the flattened operands.
pub fn outer(a: &Array, b: &Array, float_x: DType) -> Result<Array> {
    let (a, b) = (a.contiguous()?, b.contiguous()?);
    let (n, m) = (a.size(), b.size());
    let av = a.view(vec![n, 1], vec![1, 0], 0);
    let bv = b.view(vec![1, m], vec![0, 1], 0);
    match fuse::apply(
        "multiply",
        vec![Operand::Array(av), Operand::Array(bv)],
        float_x,
    )? {
        Operand::Array(r) => Ok(r),
        _ => Err(Error::internal("outer: scalar result")),
    }
}

/// NumPy matmul.
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    let sh = |a: &Array, b: &Array| {
        format!(
            "{} and {}",
            layout::fmt_shape(a.shape()),
            layout::fmt_shape(b.shape())
        )
    };
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::shape(
            "matmul",
            format!(
                "matmul needs arrays of at least 1 dimension, got shapes {}",
                sh(a, b)
            ),
        )
        .with_help("use * to multiply by a scalar"));
    }
    if a.device() != b.device() {
        return Err(Error::device_mismatch("matmul", a.device(), b.device()));
    }
    backend::linalg::matmul(a, b)
}
