//! The complex builtins: `complex real imag conj conjugate angle`. On real
//! arrays they follow NumPy (`real(x)` is x, `imag(x)` zeros, `conj(x)` x,
//! `angle(x)` 0 or pi); on complex ones they go to `complex_ew`.

use super::complex_ew;
use super::creation::op;
use super::fuse::{self, Operand};
use super::stat_args as sa;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::opid::CxOp;
use crate::opid::SortOp;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "complex",
        "complex(real, imag=0)",
        "A complex number real + imag*1j (Python's complex); with an array argument, the complex array real + imag*1j (complex64 from float32 parts, complex128 otherwise).",
        false,
        complex
    ),
    op!(
        CxOp::Real.name(),
        "real(z)",
        "The real part of z: float32 for complex64, float64 for complex128; a real array is returned as it is (NumPy's np.real). Also the attribute z.real.",
        false,
        |i, a| part(CxOp::Real, i, a),
        grad: crate::autodiff::rules_fft::real
    ),
    op!(
        CxOp::Imag.name(),
        "imag(z)",
        "The imaginary part of z: float32 for complex64, float64 for complex128; zeros of x's dtype for a real array. Also the attribute z.imag.",
        false,
        |i, a| part(CxOp::Imag, i, a),
        grad: crate::autodiff::rules_fft::imag
    ),
    op!(
        CxOp::Conj.name(),
        "conj(z)",
        "The complex conjugate re - im*1j; a real array is returned as it is.",
        true,
        |i, a| part(CxOp::Conj, i, a),
        grad: crate::autodiff::rules_fft::conj
    ),
    op!(
        "conjugate",
        "conjugate(z)",
        "The complex conjugate (the same as conj).",
        true,
        |i, a| part(CxOp::Conj, i, a),
        grad: crate::autodiff::rules_fft::conj
    ),
    op!(
        CxOp::Angle.name(),
        "angle(z, deg=false)",
        "The argument of z, atan2(imag, real), in radians (degrees with deg=true): float32 for complex64, float64 for complex128; a real array's is 0 or pi, in floatX for ints and bools.",
        false,
        angle,
        grad: crate::autodiff::rules_fft::angle
    ),
];

/// The entry of `x.real` / `x.imag` (NumPy's array attributes).
pub fn attribute(name: &str) -> Option<&'static OpDef> {
    OPS[1..3].iter().find(|d| d.name == name)
}

/// A number or an array of the argument (Python complex numbers stay weak).
fn operand(i: &Interp, v: Value, name: &str) -> Result<Operand> {
    match v {
        Value::Complex(..) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => fuse::operand(&v),
        v => Ok(Operand::Array(sa::data(i, v, name)?)),
    }
}

fn part(c: CxOp, i: &mut Interp, mut a: Args) -> Result<Value> {
    let z = operand(i, a.req("z")?, c.name())?;
    a.finish_with(&["z"])?;
    let fx = i.float_x();
    if complex_ew::is_complex(&z) {
        return Ok(complex_ew::apply(c, vec![z], fx)?.into_value());
    }
    Ok(match (c, z) {
        (CxOp::Imag, Operand::Array(x)) => Value::Array(Array::full(
            x.shape(),
            crate::array::Scalar::Int(0),
            x.dtype(),
            x.device(),
        )?),
        (CxOp::Imag, Operand::Float(_)) => Value::Float(0.0),
        (CxOp::Imag, _) => Value::Int(0),
        (_, z) => z.into_value(),
    })
}

fn angle(i: &mut Interp, mut a: Args) -> Result<Value> {
    let z = operand(i, a.req("z")?, "angle")?;
    let deg = sa::flag(a.opt("deg")?, "deg", "angle", false)?;
    a.finish_with(&["z", "deg"])?;
    let fx = i.float_x();
    let rad = if complex_ew::is_complex(&z) {
        complex_ew::apply(CxOp::Angle, vec![z], fx)?
    } else {
        // atan2(0, x): 0 for x >= 0, pi for x < 0 (NumPy's angle of a real).
        fuse::apply("arctan2", vec![Operand::Float(0.0), z], fx)?
    };
    let out = if deg {
        fuse::apply("rad2deg", vec![rad], fx)?
    } else {
        rad
    };
    Ok(out.into_value())
}

fn complex(i: &mut Interp, mut a: Args) -> Result<Value> {
    let re = operand(i, a.req("real")?, "complex")?;
    let im = match a.opt("imag")? {
        Some(v) => operand(i, v, "complex")?,
        None => Operand::Int(0),
    };
    a.finish_with(&["real", "imag"])?;
    let fx = i.float_x();
    if let (Some(r), Some(m)) = (py_number(&re), py_number(&im)) {
        // Python's complex_new: a complex part adds its cross term, a real
        // one is taken as it is (so complex(1, -0.0) keeps the -0.0).
        let re_cx = matches!(re, Operand::Complex(..));
        let im_cx = matches!(im, Operand::Complex(..));
        let real = if im_cx { r.0 - m.1 } else { r.0 };
        let imag = if re_cx { r.1 + m.0 } else { m.0 };
        return Ok(Value::Complex(real, imag));
    }
    // re + imag * 1j, with the dtype of the parts (NEP 50: float32 parts
    // give complex64).
    let j = fuse::apply("multiply", vec![im, Operand::Complex(0.0, 1.0)], fx)?;
    let z = fuse::apply("add", vec![re, j], fx)?;
    match z {
        Operand::Array(x) if !x.dtype().is_complex() => {
            Ok(Value::Array(x.astype(DType::Complex128)?))
        }
        z => Ok(z.into_value()),
    }
}

/// A Python number as (real, imaginary).
fn py_number(o: &Operand) -> Option<(f64, f64)> {
    match o {
        Operand::Int(i) => Some((*i as f64, 0.0)),
        Operand::Float(f) => Some((*f, 0.0)),
        Operand::Bool(b) => Some((f64::from(u8::from(*b)), 0.0)),
        Operand::Complex(re, im) => Some((*re, *im)),
        Operand::Array(_) => None,
    }
}

/// The error of a builtin that has no complex form, called on a complex array.
pub fn unsupported(name: &str, dtype: DType) -> crate::error::Error {
    crate::error::Error::dtype(name, format!("`{name}` does not support {dtype} arrays"))
        .with_help("complex arrays take arithmetic, == and !=, sum mean prod any all, matmul dot outer, real imag conj abs angle exp log sqrt, sort argsort, the fft family, shape changes and indexing; otherwise work on real(z) and imag(z), or abs(z)")
}

/// Whether builtin `def` handles complex arrays (elsewhere the real loops
/// would read only their real parts, so it is refused: `check_call`).
fn accepts_complex(def: &'static OpDef) -> bool {
    use super::family::{Family, family};
    static PRODUCTS: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    let products = PRODUCTS.get_or_init(|| {
        ["matmul", "dot", "outer"]
            .iter()
            .filter_map(|n| super::lookup(n).map(|d| d as *const OpDef as usize))
            .collect()
    });
    let in_table = |t: &'static [OpDef]| t.iter().any(|d| std::ptr::eq(d, def));
    match &def.kind {
        OpKind::Elementwise(_) => true,
        OpKind::Reduce(r) => matches!(
            r,
            crate::opid::ReduceOp::Sum
                | crate::opid::ReduceOp::Mean
                | crate::opid::ReduceOp::Prod
                | crate::opid::ReduceOp::Any
                | crate::opid::ReduceOp::All
        ),
        OpKind::Func(_) => {
            in_table(OPS)
                || in_table(super::fft::OPS)
                || in_table(super::np_complex::OPS)
                || in_table(super::signal::CONV_OPS)
                || in_table(super::eig::OPS)
                || CX_DEFS.iter().any(|(_, d)| std::ptr::eq(d, def))
                || products.contains(&(def as *const OpDef as usize))
                || [SortOp::Sort.name(), SortOp::Argsort.name()].contains(&def.name)
                || matches!(
                    family(def),
                    Some(
                        Family::Shape
                            | Family::Creation
                            | Family::Files
                            | Family::Language
                            | Family::Help
                            | Family::Devices
                            | Family::Profiling
                    )
                )
        }
    }
}

/// Refuse a call of a builtin without a complex form on a complex array,
/// naming the builtin and the dtype.
pub fn check_call(def: &'static OpDef, args: &Args) -> Result<()> {
    let complex = args
        .pos
        .iter()
        .chain(args.kw.iter().map(|(_, v)| v))
        .find_map(|v| match v {
            Value::Array(a) if a.dtype().is_complex() => Some(a.dtype()),
            _ => None,
        });
    match complex {
        Some(d) if !accepts_complex(def) => Err(unsupported(def.name, d)),
        _ => Ok(()),
    }
}

macro_rules! cx_defs {
    ($($v:ident $rule:ident,)*) => {
        /// The complex forms of elementwise ops as table-like entries (not
        /// in the table): under grad, a tree with complex values is recorded
        /// op by op through these, each with its complex gradient rule.
        pub static CX_DEFS: &[(CxOp, OpDef)] = &[$(
            (CxOp::$v, OpDef {
                name: CxOp::$v.name(),
                sig: "",
                doc: "",
                method: false,
                kind: OpKind::Func(|i, a| cx_call(CxOp::$v, i, a)),
                grad: Some(crate::autodiff::rules_fft::$rule),
            }),
        )*];
    };
}
cx_defs! {
    Add add, Subtract subtract, Multiply multiply, Divide divide, Negative negative,
    Abs abs, Exp exp, Square square, Sqrt sqrt, Log log,
}

fn cx_call(c: CxOp, i: &mut Interp, a: Args) -> Result<Value> {
    let vals = a
        .pos
        .iter()
        .map(super::fuse::operand)
        .collect::<Result<Vec<_>>>()?;
    Ok(complex_ew::apply(c, vals, i.float_x())?.into_value())
}

/// The entry a complex op is recorded under (with its gradient rule).
pub fn cx_def(c: CxOp) -> Option<&'static OpDef> {
    CX_DEFS
        .iter()
        .find(|(k, _)| *k == c)
        .map(|(_, d)| d)
        .or_else(|| OPS.iter().find(|d| d.name == c.name() && d.grad.is_some()))
}

/// Whether a tracked complex array may flow into `def` under grad (its
/// rule knows complex values: the complex entries, sum and mean, and the
/// shape ops whose rules only move the gradient; others, whose adjoints
/// add in float64, would drop its imaginary part).
pub fn complex_grad_ok(def: &'static OpDef) -> bool {
    static MOVES: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    let moves = MOVES.get_or_init(|| {
        [
            "reshape",
            "transpose",
            "ravel",
            "flatten",
            "squeeze",
            "expand_dims",
            "concatenate",
            "stack",
            "copy",
        ]
        .iter()
        .filter_map(|n| super::lookup(n).map(|d| d as *const OpDef as usize))
        .collect()
    });
    let in_table = |t: &'static [OpDef]| t.iter().any(|d| std::ptr::eq(d, def));
    in_table(OPS)
        || in_table(super::fft::OPS)
        || CX_DEFS.iter().any(|(_, d)| std::ptr::eq(d, def))
        || matches!(
            &def.kind,
            OpKind::Reduce(crate::opid::ReduceOp::Sum | crate::opid::ReduceOp::Mean)
        )
        || moves.contains(&(def as *const OpDef as usize))
}
