//! The fast path of a program of one op whose operands are contiguous arrays
//! of one shape and the compute dtype, or scalars (the `r = exp(s)`
//! statement): no plan, no scratch, no gathers; the loop reads the inputs in
//! place and writes a recycled output buffer. Anything else returns `None`
//! and takes the planned path, which gives the same results.

use super::buffers::{Compute, OutElt};
use super::{PAR_MIN, kern_error};
use crate::array::{Array, Dims, Element, HostData};
use crate::cpu::pool;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::fused::{Arg, KernAny, Leaf, Program};
use gcalc_kernels::cpu::ew::{Kern, Src};
use std::sync::RwLockReadGuard;

/// Run `p` directly when it is one op over leaves that fit the fast path.
pub fn run(p: &Program<'_>) -> Result<Option<Array>> {
    let [node] = p.nodes.as_slice() else {
        return Ok(None);
    };
    let k = node.nargs as usize;
    let mut leaves: [Option<&Leaf<'_>>; 3] = [None; 3];
    let mut shape: Option<&[usize]> = None;
    for (i, a) in node.args().iter().enumerate() {
        let Arg::Leaf(l) = *a else {
            return Ok(None);
        };
        let leaf = &p.leaves[l as usize];
        if let Leaf::Array(a) = leaf {
            if !a.is_contiguous() || shape.is_some_and(|s| s != a.shape()) {
                return Ok(None);
            }
            shape = Some(a.shape());
        }
        leaves[i] = Some(leaf);
    }
    let Some(shape) = shape else {
        return Ok(None);
    };
    let n: usize = shape.iter().product();
    if n >= PAR_MIN {
        return Ok(None);
    }
    let (ctype, Some(kern)) = (node.ctype, node.cpu) else {
        return Ok(None);
    };
    let otype = if kern.is_pred() { DType::Bool } else { ctype };
    if otype != p.out {
        return Ok(None);
    }
    for (i, l) in leaves[..k].iter().enumerate() {
        if let Some(Leaf::Array(a)) = l
            && (a.dtype() != ctype || node.vias[i] != ctype)
        {
            return Ok(None);
        }
    }
    let mut guards: [Option<RwLockReadGuard<'_, HostData>>; 3] = [None, None, None];
    for (g, l) in guards.iter_mut().zip(&leaves[..k]) {
        if let Some(Leaf::Array(a)) = l {
            *g = Some(a.host_read()?);
        }
    }
    let ops = Operands {
        leaves: &leaves[..k],
        guards: &guards,
        vias: &node.vias,
        n,
    };
    let host = match kern {
        KernAny::F32(f) => ops.apply::<f32>(f, node.op)?,
        KernAny::F64(f) => ops.apply::<f64>(f, node.op)?,
        KernAny::I64(f) => ops.apply::<i64>(f, node.op)?,
        KernAny::B(f) => ops.apply::<bool>(f, node.op)?,
    };
    drop(guards);
    Ok(Some(Array::from_host(host, Dims::from_slice(shape))))
}

struct Operands<'a, 'g> {
    leaves: &'a [Option<&'a Leaf<'a>>],
    guards: &'a [Option<RwLockReadGuard<'g, HostData>>; 3],
    vias: &'a [DType; 3],
    n: usize,
}

impl Operands<'_, '_> {
    fn apply<T: Compute + OutElt>(&self, kern: Kern<T>, op: &str) -> Result<HostData> {
        let mut srcs = [Src::S(T::default()); 3];
        for (i, l) in self.leaves.iter().enumerate() {
            srcs[i] = match l {
                Some(Leaf::Array(a)) => {
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
                Some(Leaf::Scalar(s)) => Src::S(s.round(self.vias[i]).to_elem::<T>()),
                None => return Err(Error::internal("fast path: missing operand")),
            };
        }
        let srcs = &srcs[..self.leaves.len()];
        match kern {
            Kern::Map(f) => {
                let mut h = pool::out_host::<T>(self.n)?;
                let o = T::slice_mut(&mut h).ok_or_else(|| Error::internal("output type"))?;
                f(srcs, o).map_err(|e| kern_error(e, op))?;
                Ok(h)
            }
            Kern::Pred(f) => {
                let mut h = pool::out_host::<bool>(self.n)?;
                let o = bool::slice_mut(&mut h).ok_or_else(|| Error::internal("output type"))?;
                f(srcs, o).map_err(|e| kern_error(e, op))?;
                Ok(h)
            }
        }
    }
}
