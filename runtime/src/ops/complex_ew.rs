//! Elementwise expressions with complex operands (a complex array, or a
//! Python complex such as `2j`): evaluated op by op, each op of the table
//! that has a complex form (`opid::CxOp`) through `backend::complex`; the
//! parts of a tree without complex values still run fused. NEP 50 dtypes:
//! `float32 * 1j` is complex64, `float64 + complex64` complex128.

use super::OpDef;
use super::elementwise::Rule;
use super::fuse::{EwNode, Operand};
use crate::array::{Array, Cf64, layout};
use crate::backend;
use crate::dtype::{DType, Kind, promote_kinds};
use crate::error::{Error, Result};
use crate::opid::{CxArg, CxOp, CxOut};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Whether an operand is complex (a complex array or a Python complex).
pub fn is_complex(o: &Operand) -> bool {
    match o {
        Operand::Array(a) => a.dtype().is_complex(),
        Operand::Complex(..) => true,
        _ => false,
    }
}

/// Whether any leaf of the tree is complex.
pub fn has_complex(n: &EwNode) -> bool {
    match n {
        EwNode::Leaf(o) => is_complex(o),
        EwNode::Op { args, .. } => args.iter().any(has_complex),
    }
}

/// The complex form of a table op, if it has one.
pub fn cx_op(op: &'static OpDef) -> Option<CxOp> {
    static MAP: OnceLock<HashMap<usize, CxOp>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        CxOp::ALL
            .iter()
            .filter_map(|&c| super::lookup(c.name()).map(|d| (d as *const OpDef as usize, c)))
            .chain(
                super::np_alias::ALIASES
                    .iter()
                    .filter_map(|&(alias, orig)| {
                        let c = CxOp::ALL.iter().find(|c| c.name() == orig)?;
                        super::lookup(alias).map(|d| (d as *const OpDef as usize, *c))
                    }),
            )
            .collect()
    });
    map.get(&(op as *const OpDef as usize)).copied()
}

/// Evaluate a tree that has complex leaves: children first (a child without
/// complex leaves fused as usual), then the root by its complex form.
pub fn eval(node: EwNode, float_x: DType) -> Result<Operand> {
    match node {
        EwNode::Leaf(o) => Ok(o),
        EwNode::Op { op, args } => {
            let vals = args
                .into_iter()
                .map(|a| super::fuse::eval(a, float_x))
                .collect::<Result<Vec<_>>>()?;
            if !vals.iter().any(is_complex) {
                let leaves = vals.into_iter().map(EwNode::Leaf).collect();
                return super::fuse::eval(EwNode::Op { op, args: leaves }, float_x);
            }
            let Some(c) = cx_op(op) else {
                return Err(unsupported(op.name, &vals));
            };
            apply(c, vals, float_x)
        }
    }
}

/// The error of an op without a complex form.
pub fn unsupported(name: &str, vals: &[Operand]) -> Error {
    let dt = vals
        .iter()
        .find_map(|v| match v {
            Operand::Array(a) if a.dtype().is_complex() => Some(a.dtype().name()),
            _ => None,
        })
        .unwrap_or("complex");
    // Comparisons and the ops that keep their operands' type by ordering
    // them (maximum, clip, floor, relu).
    let ordered = super::lookup(name)
        .and_then(super::elementwise::ew_def)
        .is_some_and(|d| matches!(d.rule, Rule::Cmp | Rule::Same));
    let help = if ordered {
        "complex numbers have no order here (NumPy orders them lexicographically; gcalc does not): compare abs(z) or real(z)".to_string()
    } else {
        let names: Vec<&str> = CxOp::ALL.iter().map(|c| c.name()).collect();
        format!("ops with a complex form: {}", names.join(" "))
    };
    Error::dtype(name, format!("`{name}` does not support {dt} operands")).with_help(help)
}

/// One complex op on evaluated operands.
pub fn apply(c: CxOp, vals: Vec<Operand>, float_x: DType) -> Result<Operand> {
    if vals.len() != c.arity() {
        return Err(Error::internal(format!(
            "{} takes {} operands",
            c.name(),
            c.arity()
        )));
    }
    // `where`'s condition takes no part in the dtype.
    let typed = if c == CxOp::Where {
        &vals[1..]
    } else {
        &vals[..]
    };
    let kinds: Vec<Kind> = typed.iter().map(Operand::kind).collect();
    let cd = match promote_kinds(&kinds, float_x) {
        Kind::Strong(d) => d,
        Kind::WeakComplex => DType::Complex128,
        other => other.dtype(float_x),
    };
    let cd = if cd.is_complex() { cd } else { cd.to_complex() };
    let out = match c.out() {
        CxOut::Complex => cd,
        CxOut::Real => cd.real_part(),
        CxOut::Bool => DType::Bool,
    };
    let mut shape: Option<Vec<usize>> = None;
    let mut args = Vec::with_capacity(vals.len());
    for v in &vals {
        args.push(match v {
            Operand::Array(a) => {
                shape = Some(match shape.take() {
                    None => a.shape().to_vec(),
                    Some(s) => layout::broadcast_shapes(&s, a.shape(), c.name())?,
                });
                CxArg::Array(a.clone())
            }
            Operand::Complex(re, im) => CxArg::Scalar(*re, *im),
            Operand::Float(f) => CxArg::Scalar(*f, 0.0),
            Operand::Int(i) => CxArg::Scalar(*i as f64, 0.0),
            Operand::Bool(b) => CxArg::Scalar(f64::from(u8::from(*b)), 0.0),
        });
    }
    let Some(shape) = shape else {
        // Python complex numbers only: a Python value.
        let v: Vec<Cf64> = args
            .iter()
            .map(|a| match a {
                CxArg::Scalar(re, im) => Cf64::new(*re, *im),
                CxArg::Array(_) => Cf64::new(0.0, 0.0),
            })
            .collect();
        let r = c.apply(&v);
        return Ok(match c.out() {
            CxOut::Complex => Operand::Complex(r.re, r.im),
            CxOut::Real => Operand::Float(r.re),
            CxOut::Bool => Operand::Bool(r.re != 0.0),
        });
    };
    let dev_check = vals.iter().filter_map(|v| match v {
        Operand::Array(a) => Some(a.device()),
        _ => None,
    });
    let mut dev = None;
    for d in dev_check {
        match dev {
            Some(e) if e != d => return Err(Error::device_mismatch(c.name(), e, d)),
            _ => dev = Some(d),
        }
    }
    Ok(Operand::Array(backend::complex::apply(
        c, &args, &shape, out,
    )?))
}

/// The (real, imaginary) parts of an operand; `None`: no imaginary part.
fn parts(o: Operand, float_x: DType) -> Result<(Operand, Option<Operand>)> {
    Ok(match o {
        Operand::Complex(re, im) => (Operand::Float(re), Some(Operand::Float(im))),
        Operand::Array(a) if a.dtype().is_complex() => (
            Operand::Array(unary(CxOp::Real, &a, float_x)?),
            Some(Operand::Array(unary(CxOp::Imag, &a, float_x)?)),
        ),
        o => (o, None),
    })
}

/// A product `f` bilinear over the reals (matmul, dot, outer) on complex
/// operands, from real products of their parts: (a + bi)(c + di) =
/// (ac - bd) + (ad + bc)i, so the real kernels (gemm) do the work.
pub fn bilinear(
    x: Operand,
    y: Operand,
    float_x: DType,
    mut f: impl FnMut(Operand, Operand) -> Result<Operand>,
) -> Result<Operand> {
    let (a, b) = parts(x, float_x)?;
    let (c, d) = parts(y, float_x)?;
    let sub = |p: Operand, q: Operand| super::fuse::apply("subtract", vec![p, q], float_x);
    let add = |p: Operand, q: Operand| super::fuse::apply("add", vec![p, q], float_x);
    let mut re = f(a.clone(), c.clone())?;
    if let (Some(b), Some(d)) = (&b, &d) {
        re = sub(re, f(b.clone(), d.clone())?)?;
    }
    let im = match (b, d) {
        (Some(b), Some(d)) => add(f(a, d)?, f(b, c)?)?,
        (Some(b), None) => f(b, c)?,
        (None, Some(d)) => f(a, d)?,
        (None, None) => return Ok(re),
    };
    let j = super::fuse::apply("multiply", vec![im, Operand::Complex(0.0, 1.0)], float_x)?;
    super::fuse::apply("add", vec![re, j], float_x)
}

/// A complex op on one array (the builtins `real imag conj angle`).
pub fn unary(c: CxOp, x: &Array, float_x: DType) -> Result<Array> {
    match apply(c, vec![Operand::Array(x.clone())], float_x)? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("a complex op on an array gave a scalar")),
    }
}
