//! The fast path of one elementwise op whose operands are contiguous arrays of
//! one shape and the compute dtype, or scalars (the `r = exp(s)` statement):
//! no program, no scratch, no gathers; the kernel reads the inputs in place and
//! writes a recycled output buffer. Anything else returns `None` and takes the
//! general fused path, which gives the same results.

use super::buffers::{Compute, OutElt};
use super::{KernAny, PAR_MIN, Scalar, kern_error};
use crate::array::{Array, Element, HostData, pool};
use crate::dtype::{DType, Kind};
use crate::error::{Error, Result};
use crate::ops::OpDef;
use crate::ops::elementwise::{Rule, ew_def, result_kinds};
use crate::ops::fuse::{EwNode, Operand, held, pick_kernel};
use gcalc_kernels::cpu::ew::{Kern, Src};
use std::sync::RwLockReadGuard;

/// Run `op(args)` directly when every argument is a leaf that fits the fast path.
pub fn run(op: &'static OpDef, args: &[EwNode], float_x: DType) -> Result<Option<Operand>> {
    let Some(def) = ew_def(op) else {
        return Ok(None);
    };
    if args.len() != def.arity || args.is_empty() || args.len() > 3 {
        return Ok(None);
    }
    let mut leaves: [Option<&Operand>; 3] = [None; 3];
    let mut kinds = [Kind::WeakBool; 3];
    let mut shape: Option<&[usize]> = None;
    for (i, a) in args.iter().enumerate() {
        let EwNode::Leaf(o) = a else {
            return Ok(None);
        };
        if let Operand::Array(a) = o {
            if !a.is_contiguous() || shape.is_some_and(|s| s != a.shape()) {
                return Ok(None);
            }
            shape = Some(a.shape());
        }
        leaves[i] = Some(o);
        kinds[i] = o.kind();
    }
    let Some(shape) = shape else {
        return Ok(None);
    };
    let n: usize = shape.iter().product();
    if n >= PAR_MIN {
        return Ok(None);
    }
    let k = args.len();
    let (ckind, okind) = result_kinds(op.name, def, &kinds[..k], float_x)?;
    let Some((ctype, kern)) = pick_kernel(def, held(ckind).compute()) else {
        return Ok(None);
    };
    let otype = if kern.is_pred() { DType::Bool } else { ctype };
    if otype != held(okind) {
        return Ok(None);
    }
    let mut vias = [ctype; 3];
    for (i, l) in leaves[..k].iter().enumerate() {
        let Some(o) = l else { return Ok(None) };
        vias[i] = if def.rule == Rule::Where && i == 0 {
            DType::Bool
        } else {
            held(o.kind())
        };
        if let Operand::Array(a) = o
            && (a.dtype() != ctype || vias[i] != ctype)
        {
            return Ok(None);
        }
    }
    let mut guards: [Option<RwLockReadGuard<'_, HostData>>; 3] = [None, None, None];
    for (g, l) in guards.iter_mut().zip(&leaves[..k]) {
        if let Some(Operand::Array(a)) = l {
            *g = Some(a.host_read()?);
        }
    }
    let ops = Operands {
        leaves: &leaves[..k],
        guards: &guards,
        vias: &vias,
        n,
    };
    let host = match kern {
        KernAny::F32(f) => ops.apply::<f32>(f, op.name)?,
        KernAny::F64(f) => ops.apply::<f64>(f, op.name)?,
        KernAny::I64(f) => ops.apply::<i64>(f, op.name)?,
        KernAny::B(f) => ops.apply::<bool>(f, op.name)?,
    };
    drop(guards);
    Ok(Some(Operand::Array(Array::from_host(host, shape.to_vec()))))
}

struct Operands<'a, 'g> {
    leaves: &'a [Option<&'a Operand>],
    guards: &'a [Option<RwLockReadGuard<'g, HostData>>; 3],
    vias: &'a [DType; 3],
    n: usize,
}

impl Operands<'_, '_> {
    fn apply<T: Compute + OutElt>(&self, kern: Kern<T>, op: &str) -> Result<HostData> {
        let mut srcs = [Src::S(T::default()); 3];
        for (i, l) in self.leaves.iter().enumerate() {
            srcs[i] = match l {
                Some(Operand::Array(a)) => {
                    let g = self.guards[i]
                        .as_ref()
                        .ok_or_else(|| Error::internal("fast path: leaf not read"))?;
                    let d = T::slice(g).ok_or_else(|| Error::internal("fast path: leaf dtype"))?;
                    let off = a.offset();
                    Src::V(
                        d.get(off..off + self.n)
                            .ok_or_else(|| Error::internal("leaf view out of its buffer"))?,
                    )
                }
                Some(Operand::Int(v)) => Src::S(Scalar::I(*v).round(self.vias[i]).get::<T>()),
                Some(Operand::Float(v)) => Src::S(Scalar::F(*v).round(self.vias[i]).get::<T>()),
                Some(Operand::Bool(v)) => Src::S(Scalar::B(*v).round(self.vias[i]).get::<T>()),
                None => return Err(Error::internal("fast path: missing operand")),
            };
        }
        let srcs = &srcs[..self.leaves.len()];
        match kern {
            Kern::Map(f) => {
                let mut h = pool::out_host::<T>(self.n);
                let o = T::slice_mut(&mut h).ok_or_else(|| Error::internal("output type"))?;
                f(srcs, o).map_err(|e| kern_error(e, op))?;
                Ok(h)
            }
            Kern::Pred(f) => {
                let mut h = pool::out_host::<bool>(self.n);
                let o = bool::slice_mut(&mut h).ok_or_else(|| Error::internal("output type"))?;
                f(srcs, o).map_err(|e| kern_error(e, op))?;
                Ok(h)
            }
        }
    }
}
