//! Gradients through complex values and the FFT family, for real-valued
//! losses. A complex value's gradient is held as PyTorch holds it:
//! dL/d(re) + i dL/d(im); a real input's gradient is its real part (the
//! cast `backward` applies). Rules: the complex forms of elementwise ops
//! (recorded op by op: `Interp::eval_complex_taped`), `real imag conj
//! angle`, and the 1-d transforms, whose adjoints are the opposite
//! transforms with the dual norm, the cut or padding undone (the n-d
//! transforms are recorded as their 1-d steps).

use super::GradCall;
use super::rules::{Grads, arg, array};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::opid::{CxOp, FftKind};
use crate::ops::complex_ew;
use crate::ops::fuse::{self, Operand};
use crate::value::Value;

/// `name` over operands, evaluated (complex or real, as the operands are).
fn f(name: &str, args: Vec<Operand>, fx: DType) -> Result<Operand> {
    fuse::apply(name, args, fx)
}

fn cx(c: CxOp, x: Operand, fx: DType) -> Result<Operand> {
    if complex_ew::is_complex(&x) {
        complex_ew::apply(c, vec![x], fx)
    } else {
        match c {
            CxOp::Conj | CxOp::Real => Ok(x),
            _ => Err(Error::internal("a complex gradient helper on a real value")),
        }
    }
}

fn val(o: Operand) -> Option<Value> {
    Some(o.into_value())
}

fn operand(call: &GradCall, k: usize) -> Result<Operand> {
    let v = call
        .pos
        .get(k)
        .ok_or_else(|| Error::internal("complex gradient: missing operand"))?;
    fuse::operand(&match v {
        Value::Array(a) => Value::Array(a.clone().with_node(0)),
        v => v.clone(),
    })
}

fn g(call: &GradCall) -> Operand {
    Operand::Array(call.g.clone())
}

fn out(call: &GradCall) -> Operand {
    Operand::Array(call.out.clone().with_node(0))
}

/// |x| with 1 where it is 0 (a denominator whose numerator is then 0).
fn safe_abs(x: Operand, fx: DType) -> Result<Operand> {
    let a = cx(CxOp::Abs, x, fx)?;
    let z = f("equal", vec![a.clone(), Operand::Float(0.0)], fx)?;
    f("add", vec![a, z], fx)
}

/// The rule of complex op `c` (inputs as recorded, `g` the upstream gradient).
pub fn complex_rule(c: CxOp, i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let g = g(call);
    let x = operand(call, 0)?;
    Ok(match c {
        CxOp::Add => vec![val(g.clone()), val(g)],
        CxOp::Subtract => vec![val(g.clone()), val(f("negative", vec![g], fx)?)],
        CxOp::Multiply => {
            let y = operand(call, 1)?;
            vec![
                val(f("multiply", vec![g.clone(), cx(CxOp::Conj, y, fx)?], fx)?),
                val(f("multiply", vec![g, cx(CxOp::Conj, x, fx)?], fx)?),
            ]
        }
        CxOp::Divide => {
            let y = cx(CxOp::Conj, operand(call, 1)?, fx)?;
            let gx = f("divide", vec![g, y.clone()], fx)?;
            let gy = f(
                "negative",
                vec![f(
                    "multiply",
                    vec![gx.clone(), cx(CxOp::Conj, out(call), fx)?],
                    fx,
                )?],
                fx,
            )?;
            vec![val(gx), val(gy)]
        }
        CxOp::Negative => vec![val(f("negative", vec![g], fx)?)],
        CxOp::Conj => vec![val(cx(CxOp::Conj, g, fx)?)],
        CxOp::Real => vec![val(g)],
        CxOp::Imag => vec![val(f("multiply", vec![g, Operand::Complex(0.0, 1.0)], fx)?)],
        CxOp::Abs => {
            let d = safe_abs(x.clone(), fx)?;
            vec![val(f(
                "multiply",
                vec![g, f("divide", vec![x, d], fx)?],
                fx,
            )?)]
        }
        CxOp::Angle => {
            let d = safe_abs(x.clone(), fx)?;
            let d2 = f("multiply", vec![d.clone(), d], fx)?;
            let ix = f("multiply", vec![x, Operand::Complex(0.0, 1.0)], fx)?;
            vec![val(f(
                "multiply",
                vec![g, f("divide", vec![ix, d2], fx)?],
                fx,
            )?)]
        }
        CxOp::Exp => vec![val(f(
            "multiply",
            vec![g, cx(CxOp::Conj, out(call), fx)?],
            fx,
        )?)],
        CxOp::Square => {
            let two = f(
                "multiply",
                vec![cx(CxOp::Conj, x, fx)?, Operand::Float(2.0)],
                fx,
            )?;
            vec![val(f("multiply", vec![g, two], fx)?)]
        }
        CxOp::Sqrt => {
            let two = f(
                "multiply",
                vec![cx(CxOp::Conj, out(call), fx)?, Operand::Float(2.0)],
                fx,
            )?;
            vec![val(f("divide", vec![g, two], fx)?)]
        }
        CxOp::Log => vec![val(f("divide", vec![g, cx(CxOp::Conj, x, fx)?], fx)?)],
        other => {
            return Err(Error::value(format!(
                "grad: `{}` of complex values has no gradient yet",
                other.name()
            ))
            .with_help("gradients flow through + - * / neg conj real imag abs angle exp log sqrt square and the fft family"));
        }
    })
}

macro_rules! cx_rules {
    ($($f:ident $v:ident,)*) => {$(
        pub fn $f(i: &mut Interp, call: &GradCall) -> Grads {
            complex_rule(CxOp::$v, i, call)
        }
    )*};
}
cx_rules! {
    add Add, subtract Subtract, multiply Multiply, divide Divide, negative Negative,
    conj Conj, real Real, imag Imag, abs Abs, angle Angle, exp Exp, square Square,
    sqrt Sqrt, log Log,
}

/// The rule of a complex op, for the op-by-op recording of a tree.
pub fn rule_of(c: CxOp) -> Option<super::GradFn> {
    Some(match c {
        CxOp::Add => add,
        CxOp::Subtract => subtract,
        CxOp::Multiply => multiply,
        CxOp::Divide => divide,
        CxOp::Negative => negative,
        CxOp::Conj => conj,
        CxOp::Real => real,
        CxOp::Imag => imag,
        CxOp::Abs => abs,
        CxOp::Angle => angle,
        CxOp::Exp => exp,
        CxOp::Square => square,
        CxOp::Sqrt => sqrt,
        CxOp::Log => log,
        _ => return None,
    })
}

/// `a` cut or zero-padded to `len` along `axis`.
fn fit_axis(a: &Array, axis: usize, len: usize) -> Result<Array> {
    let have = a.shape()[axis];
    if have == len {
        return Ok(a.clone());
    }
    if have > len {
        let mut shape = a.shape().to_vec();
        shape[axis] = len;
        return a.view(shape, a.strides().to_vec(), a.offset()).copy();
    }
    let mut zshape = a.shape().to_vec();
    zshape[axis] = len - have;
    let z = Array::full(&zshape, crate::array::Scalar::Int(0), a.dtype(), a.device())?;
    Array::concat(&[a.clone(), z], axis as i64)
}

/// The adjoint of a 1-d transform: `kind` with `n`, `axis`, `norm` applied
/// to an input whose length along the axis was `len`.
pub fn fft_rule(kind: FftKind, i: &mut Interp, call: &GradCall) -> Grads {
    let x = array(arg(call, 0, "a"))?;
    let (axis, n, norm) = crate::ops::fft::job_of(kind, &x, call, i.float_x())?;
    let len = x.shape()[axis];
    let fx = i.float_x();
    let g = call.g.clone();
    let dual = norm.dual();
    let adj = match kind {
        FftKind::C2c { inverse } => {
            let k = FftKind::C2c { inverse: !inverse };
            crate::ops::fft::transform1(&g, k, axis, Some(n), dual, fx)?
        }
        FftKind::R2c => {
            let full = fit_axis(&g, axis, n)?;
            crate::ops::fft::transform1(
                &full,
                FftKind::C2c { inverse: true },
                axis,
                Some(n),
                dual,
                fx,
            )?
        }
        FftKind::C2r => {
            let r = crate::ops::fft::transform1(&g, FftKind::R2c, axis, Some(n), dual, fx)?;
            let m = n / 2 + 1;
            let mut w: Vec<f64> = vec![2.0; m];
            w[0] = 1.0;
            if n % 2 == 0 {
                w[m - 1] = 1.0;
            }
            let mut wshape = vec![1usize; r.ndim()];
            wshape[axis] = m;
            let w = crate::backend::transfer::to_device(&Array::from_vec(w, wshape), r.device())?;
            match f("multiply", vec![Operand::Array(r), Operand::Array(w)], fx)? {
                Operand::Array(a) => a,
                _ => return Err(Error::internal("irfft gradient: a scalar")),
            }
        }
    };
    let adj = fit_axis(&adj, axis, len)?;
    let mut grads = vec![Some(Value::Array(adj))];
    grads.resize(call.pos.len().max(1), None);
    Ok(grads)
}

pub fn fft(i: &mut Interp, call: &GradCall) -> Grads {
    fft_rule(FftKind::C2c { inverse: false }, i, call)
}
pub fn ifft(i: &mut Interp, call: &GradCall) -> Grads {
    fft_rule(FftKind::C2c { inverse: true }, i, call)
}
pub fn rfft(i: &mut Interp, call: &GradCall) -> Grads {
    fft_rule(FftKind::R2c, i, call)
}
pub fn irfft(i: &mut Interp, call: &GradCall) -> Grads {
    fft_rule(FftKind::C2r, i, call)
}
