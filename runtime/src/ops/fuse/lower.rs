//! Lowering an elementwise tree to the typed program the backends run
//! (`fused::Program`): each op's dtypes by the table's rule (NEP 50 with weak
//! scalars, float16 computed in float32 and int32 in int64, bool in int64
//! when the op has no bool loop), the dtype each operand is rounded through,
//! the CPU loop and CUDA expression for the compute dtype, and the broadcast
//! shape (a clear error naming the op and the shapes when it does not fit).

use super::{EwNode, Operand};
use crate::array::layout;
use crate::dtype::{DType, Kind};
use crate::error::{Error, Result};
use crate::fused::{Arg, KernAny, Leaf, Node, Program, Scalar, held};
use crate::ops::elementwise::{EwDef, Rule, ew_checked, result_kinds};
use std::borrow::Cow;

/// What a lowered subtree gives its parent (a leaf's shape is borrowed).
struct Typed<'a> {
    kind: Kind,
    shape: Cow<'a, [usize]>,
    arg: Arg,
}

/// An unused operand position (an op's operands sit in a `[Typed; 3]`).
impl Default for Typed<'_> {
    fn default() -> Self {
        Typed {
            kind: Kind::WeakBool,
            shape: Cow::Borrowed(&[]),
            arg: Arg::Leaf(u32::MAX),
        }
    }
}

struct Lower<'p, 'a> {
    p: &'p mut Program<'a>,
    float_x: DType,
}

/// Type the op tree `node` (not a leaf) into `p` (empty), which borrows the
/// tree's arrays.
pub(super) fn lower<'a>(node: &'a EwNode, float_x: DType, p: &mut Program<'a>) -> Result<()> {
    let mut l = Lower { p, float_x };
    let root = l.walk(node)?;
    if !matches!(root.arg, Arg::Node(_)) {
        return Err(Error::internal("lowered a leaf as a fused program"));
    }
    let p = l.p;
    if p.any_array {
        p.shape = root.shape;
    }
    p.kind = root.kind;
    p.out = held(root.kind);
    Ok(())
}

impl<'a> Lower<'_, 'a> {
    fn walk(&mut self, n: &'a EwNode) -> Result<Typed<'a>> {
        match n {
            EwNode::Leaf(o) => {
                let kind = o.kind();
                let (leaf, shape) = match o {
                    Operand::Array(a) => {
                        self.p.any_array = true;
                        (Leaf::Array(a), Cow::Borrowed(a.shape()))
                    }
                    Operand::Int(i) => (Leaf::Scalar(Scalar::Int(*i)), Cow::Borrowed(&[][..])),
                    Operand::Float(f) => (Leaf::Scalar(Scalar::Float(*f)), Cow::Borrowed(&[][..])),
                    Operand::Bool(b) => (Leaf::Scalar(Scalar::Bool(*b)), Cow::Borrowed(&[][..])),
                    // `complex_ew` evaluates trees with complex leaves.
                    Operand::Complex(..) => {
                        return Err(Error::internal("a complex leaf reached the fused lowering"));
                    }
                };
                self.p.leaves.push(leaf);
                Ok(Typed {
                    kind,
                    shape,
                    arg: Arg::Leaf(self.p.leaves.len() as u32 - 1),
                })
            }
            EwNode::Op { op, args } => {
                let def = ew_checked(op, args.len())?;
                if args.len() > 3 {
                    return Err(Error::internal(format!(
                        "{}: more than 3 operands",
                        op.name
                    )));
                }
                let mut kids3: [Typed<'a>; 3] = Default::default();
                let nk = args.len();
                for (k, a) in kids3.iter_mut().zip(args) {
                    *k = self.walk(a)?;
                }
                let kids = &mut kids3[..nk];
                let mut kinds = [Kind::WeakBool; 3];
                for (k, kid) in kinds.iter_mut().zip(kids.iter()) {
                    *k = kid.kind;
                }
                let (ckind, okind) = result_kinds(op.name, def, &kinds[..nk], self.float_x)?;
                let mut ctype = held(ckind).compute();
                if ctype == DType::Bool && def.bool.is_none() {
                    ctype = DType::Int64;
                }
                // NumPy 2: a Python int meets an int32 operand in int32 only
                // when it fits; arithmetic with one that does not is an
                // overflow error (never a wrapped value), a comparison is
                // made exactly in int64.
                if ctype == DType::Int32 || held(okind) == DType::Int32 {
                    for a in args {
                        // A Python int, or a scalar expression of them (`-3000000000`).
                        let weak = match a {
                            EwNode::Leaf(Operand::Int(v)) => Some(*v as f64),
                            EwNode::Op { .. } => {
                                let mut largest = 0.0;
                                super::scalar_truth(a, &mut largest)
                                    .and_then(|(v, int)| int.then_some(v))
                            }
                            EwNode::Leaf(_) => None,
                        };
                        if let Some(v) = weak
                            && !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&v)
                        {
                            if held(okind) == DType::Bool {
                                ctype = DType::Int64;
                            } else {
                                return Err(Error::new(
                                    crate::error::ErrorKind::Overflow,
                                    format!("{}: Python integer {v} out of bounds for int32", op.name),
                                )
                                .with_help("cast the array first: x.astype(int64) (NumPy 2 raises the same error)"));
                            }
                        }
                    }
                }
                let shape = out_shape(op.name, kids)?;
                let mut node = Node {
                    op: op.name,
                    args: [Arg::Leaf(u32::MAX); 3],
                    nargs: nk as u8,
                    vias: [DType::Bool; 3],
                    ctype,
                    value: held(okind),
                    cpu: cpu_kernel(def, ctype),
                    cuda: if ctype.is_float() {
                        def.cuda
                    } else {
                        def.cuda_int.unwrap_or(def.cuda)
                    },
                };
                for (i, kid) in kids.iter().enumerate() {
                    node.args[i] = kid.arg;
                    node.vias[i] = if def.rule == Rule::Where && i == 0 {
                        DType::Bool
                    } else {
                        held(kid.kind)
                    };
                }
                self.p.nodes.push(node);
                Ok(Typed {
                    kind: okind,
                    shape,
                    arg: Arg::Node(self.p.nodes.len() as u32 - 1),
                })
            }
        }
    }
}

/// The CPU loop of `def` for compute dtype `c`.
fn cpu_kernel(def: &EwDef, c: DType) -> Option<KernAny> {
    match c {
        DType::Float32 => def.f32.map(KernAny::F32),
        DType::Float64 => def.f64.map(KernAny::F64),
        DType::Int64 => def.i64.map(KernAny::I64),
        DType::Bool => def.bool.map(KernAny::B),
        _ => None,
    }
}

/// The broadcast shape of an op's operands. When every operand is a scalar
/// or of one same shape (the common case), that shape is moved out of the
/// operand (no copy); otherwise it is broadcast step by step, and an error
/// between the accumulated shape and a third operand names them all.
fn out_shape<'a>(op: &str, kids: &mut [Typed<'a>]) -> Result<Cow<'a, [usize]>> {
    let mut big: Option<usize> = None;
    let mut same = true;
    for (i, k) in kids.iter().enumerate() {
        if k.shape.is_empty() {
            continue;
        }
        match big {
            None => big = Some(i),
            Some(b) => same &= kids[b].shape == k.shape,
        }
    }
    match big {
        None => return Ok(Cow::Borrowed(&[])),
        Some(b) if same => return Ok(std::mem::replace(&mut kids[b].shape, Cow::Borrowed(&[]))),
        Some(_) => {}
    }
    let mut shape: Vec<usize> = Vec::new();
    for (i, kid) in kids.iter().enumerate() {
        shape = layout::broadcast_shapes(&shape, &kid.shape, op).map_err(|e| {
            if i == 1 || kids.len() == 1 {
                return e;
            }
            let shapes: Vec<String> = kids.iter().map(|k| layout::fmt_shape(&k.shape)).collect();
            Error::shape(
                op,
                format!(
                    "operands could not be broadcast together with shapes {}",
                    shapes.join(", ")
                ),
            )
            .with_help(e.help.unwrap_or_default())
        })?;
    }
    Ok(Cow::Owned(shape))
}
