//! The GPU arm of elementwise fusion: an `ops::fuse::EwNode` tree is typed
//! exactly as the CPU path types it (the op table's dtype rules, float16
//! computed in float32 and int32 in int64, rounded back after every op) and
//! becomes one generated kernel through `cuda::ew`.

use super::ew::{self, Expr};
use crate::array::Array;
use crate::dtype::{DType, Kind};
use crate::error::Result;
use crate::ops::elementwise::{Rule, ew_checked, result_kinds};
use crate::ops::fuse::{EwNode, Operand};

struct Typed {
    kind: Kind,
    expr: Expr,
    /// The dtype the expression's C value has.
    vtype: DType,
}

/// The dtype a value of this kind is held in (weak scalars: f64/i64/bool).
fn held(k: Kind) -> DType {
    match k {
        Kind::Strong(d) => d,
        Kind::WeakFloat => DType::Float64,
        Kind::WeakInt => DType::Int64,
        Kind::WeakBool => DType::Bool,
    }
}

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

/// `k` as an operand rounded through `via` (what the CPU's Cast step does:
/// float16 and int32 results are rounded back after every op).
fn operand(k: Typed, via: DType) -> Expr {
    let narrow = matches!(via, DType::Float16 | DType::Int32 | DType::Bool);
    if matches!(k.expr, Expr::Op { .. }) && narrow && k.vtype != via {
        cast(k.expr, via)
    } else {
        k.expr
    }
}

fn build(n: EwNode, float_x: DType) -> Result<Typed> {
    match n {
        EwNode::Leaf(o) => Ok(match o {
            Operand::Array(a) => {
                let d = a.dtype();
                Typed {
                    kind: Kind::Strong(d),
                    expr: Expr::Array(a),
                    vtype: d,
                }
            }
            Operand::Float(f) => Typed {
                kind: Kind::WeakFloat,
                expr: Expr::Float(f, DType::Float64),
                vtype: DType::Float64,
            },
            Operand::Int(i) => Typed {
                kind: Kind::WeakInt,
                expr: Expr::Int(i, DType::Int64),
                vtype: DType::Int64,
            },
            Operand::Bool(b) => Typed {
                kind: Kind::WeakBool,
                expr: Expr::Int(b as i64, DType::Bool),
                vtype: DType::Bool,
            },
        }),
        EwNode::Op { op, args } => {
            let def = ew_checked(op, args.len())?;
            let kids = args
                .into_iter()
                .map(|a| build(a, float_x))
                .collect::<Result<Vec<_>>>()?;
            let kinds: Vec<Kind> = kids.iter().map(|k| k.kind).collect();
            let (ckind, okind) = result_kinds(op.name, def, &kinds, float_x)?;
            let mut c = held(ckind).compute();
            if c == DType::Bool && def.bool.is_none() {
                c = DType::Int64;
            }
            let args: Vec<Expr> = kids
                .into_iter()
                .enumerate()
                .map(|(i, k)| {
                    let via = if def.rule == Rule::Where && i == 0 {
                        DType::Bool
                    } else {
                        held(k.kind)
                    };
                    operand(k, via)
                })
                .collect();
            let template = if c.is_float() {
                def.cuda
            } else {
                def.cuda_int.unwrap_or(def.cuda)
            };
            let result = if held(okind) == DType::Bool {
                DType::Bool
            } else {
                c
            };
            Ok(Typed {
                kind: okind,
                expr: Expr::Op {
                    template: template.into(),
                    compute: c,
                    result,
                    args,
                },
                vtype: result,
            })
        }
    }
}

/// Evaluate an elementwise tree whose arrays are on one GPU.
pub fn eval(node: EwNode, float_x: DType) -> Result<Array> {
    let root = build(node, float_x)?;
    let out = held(root.kind);
    ew::eval(&root.expr, out, None, None)
}

/// The whole-array sum (divided by `div`: a mean) of an elementwise tree of
/// float32 or float64 values on one GPU, in one launch; `None` for other
/// dtypes (the caller evaluates the tree and reduces it).
pub fn eval_sum(node: EwNode, float_x: DType, div: f64) -> Result<Option<Array>> {
    let root = build(node, float_x)?;
    let out = held(root.kind);
    if !matches!(out, DType::Float32 | DType::Float64) {
        return Ok(None);
    }
    ew::eval_sum(&root.expr, out, div).map(Some)
}
