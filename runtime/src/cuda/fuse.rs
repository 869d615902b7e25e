//! The GPU arm of elementwise fusion: a typed program (`fused::Program`,
//! typed by `ops::fuse` exactly as the CPU executor runs it: float16
//! computed in float32 and int32 in int64, rounded back after every op)
//! becomes one expression of `cuda::ew`, hence one generated kernel.

use super::ew::{self, Expr};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::fused::{Arg, Leaf, Program, Scalar};

fn cast(expr: Expr, to: DType) -> Expr {
    let (template, compute) = match to {
        DType::Float16 => ("__half2float(__float2half_rn({0}))", DType::Float32),
        other => ("{0}", other),
    };
    Expr::Op {
        template: template.into(),
        compute,
        result: compute,
        args: vec![expr],
    }
}

/// Operand `a` of `p` as an expression, and the dtype of its C value. An
/// op's value rounded through `via` when that is narrower (what the CPU's
/// cast step does: float16, int32 and bool results rounded back after every op).
fn build(p: &Program<'_>, a: Arg) -> Result<(Expr, DType)> {
    match a {
        Arg::Leaf(l) => Ok(match p.leaves.get(l as usize) {
            // Complex trees go op by op to `cuda::complex`, never to the
            // generated real kernels, which would read only the real parts.
            Some(Leaf::Array(a)) if a.dtype().is_complex() => {
                return Err(Error::internal(format!(
                    "a {} array in a fused GPU program",
                    a.dtype()
                )));
            }
            Some(Leaf::Array(a)) => (Expr::Array((*a).clone()), a.dtype()),
            Some(Leaf::Scalar(s)) => {
                let d = s.held();
                let e = match *s {
                    Scalar::Float(f) => Expr::Float(f, d),
                    Scalar::Int(i) => Expr::Int(i, d),
                    Scalar::Bool(b) => Expr::Int(b as i64, d),
                    Scalar::Complex(..) => {
                        return Err(Error::internal("a complex scalar in a fused GPU program"));
                    }
                };
                (e, d)
            }
            None => return Err(Error::internal("fused program: no such leaf")),
        }),
        Arg::Node(k) => {
            let node = p
                .nodes
                .get(k as usize)
                .ok_or_else(|| Error::internal("fused program: no such node"))?;
            let mut args = Vec::with_capacity(node.nargs as usize);
            for (i, &a) in node.args().iter().enumerate() {
                let (e, vtype) = build(p, a)?;
                let via = node.vias[i];
                let narrow = matches!(via, DType::Float16 | DType::Int32 | DType::Bool);
                args.push(if matches!(a, Arg::Node(_)) && narrow && vtype != via {
                    cast(e, via)
                } else {
                    e
                });
            }
            let result = if node.value == DType::Bool {
                DType::Bool
            } else {
                node.ctype
            };
            Ok((
                Expr::Op {
                    template: node.cuda.into(),
                    compute: node.ctype,
                    result,
                    args,
                },
                result,
            ))
        }
    }
}

/// The expression of a whole program (its root: the last node).
pub fn expr(p: &Program<'_>) -> Result<Expr> {
    let root = p
        .nodes
        .len()
        .checked_sub(1)
        .ok_or_else(|| Error::internal("fused program without an op"))?;
    Ok(build(p, Arg::Node(root as u32))?.0)
}

/// Evaluate a program whose arrays are on one GPU.
pub fn eval(p: &Program<'_>) -> Result<Array> {
    ew::eval(&expr(p)?, p.out, None, None)
}

/// The whole-array sum (divided by `div`: a mean) of a program of float32 or
/// float64 values on one GPU, in one launch; `None` for other dtypes (the
/// caller evaluates the program and reduces it).
pub fn eval_sum(p: &Program<'_>, div: f64) -> Result<Option<Array>> {
    if !matches!(p.out, DType::Float32 | DType::Float64) {
        return Ok(None);
    }
    ew::eval_sum(&expr(p)?, p.out, div).map(Some)
}
