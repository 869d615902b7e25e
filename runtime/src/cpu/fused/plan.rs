//! The executor's plan of a typed program (`fused::Program`): leaf views,
//! slots (a constant, a leaf read in place, a block temporary, the output)
//! and steps (load a leaf, cast a slot, run an op's loop), and kernel errors.

use crate::array::{Array, layout};
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use crate::fused::{Arg, KernAny, Leaf, Program, Scalar};
use gcalc_kernels::cpu::ew::KernError;
use smallvec::SmallVec;

/// The one element of a size-1 (or all-zero-stride) host array.
pub fn read_scalar(a: &Array) -> Result<Scalar> {
    let d = a.host_read()?;
    let off = layout::offset_of_flat(a.shape(), a.strides(), a.offset(), 0);
    Ok(match a.dtype() {
        DType::Bool => Scalar::Bool(d.get_i64(off) != 0),
        DType::Int32 | DType::Int64 => Scalar::Int(d.get_i64(off)),
        _ => Scalar::Float(d.get_f64(off)),
    })
}

/// A leaf array viewed with the output's shape (broadcast strides, merged dims).
pub struct LeafPlan<'a> {
    pub(super) array: &'a Array,
    pub(super) direct: bool,
    pub(super) shape: Vec<usize>,
    pub(super) strides: Vec<isize>,
}

impl<'a> LeafPlan<'a> {
    pub fn new(array: &'a Array) -> LeafPlan<'a> {
        LeafPlan {
            array,
            direct: false,
            shape: Vec::new(),
            strides: Vec::new(),
        }
    }
}

pub enum SlotSrc {
    /// A contiguous leaf of the compute type, read in place.
    Direct(usize),
    Const(Scalar),
    Temp,
    /// The output buffer (the root, when its type is the output dtype).
    Out,
}

pub struct Slot {
    pub ctype: DType,
    pub src: SlotSrc,
}

pub enum Step {
    Load {
        leaf: usize,
        via: Option<DType>,
        out: usize,
    },
    Cast {
        from: usize,
        via: DType,
        out: usize,
    },
    Kern {
        op: &'static str,
        kern: KernAny,
        args: [usize; 3],
        nargs: usize,
        out: usize,
    },
}

/// A program's plan: its leaf views, slots and steps in order, and the
/// slot to convert into the output at the end (None: the root writes it).
pub struct Plan<'a> {
    pub leaves: Vec<LeafPlan<'a>>,
    pub slots: Vec<Slot>,
    pub steps: Vec<Step>,
    pub store: Option<usize>,
}

struct Builder<'a> {
    leaves: Vec<LeafPlan<'a>>,
    slots: Vec<Slot>,
    steps: Vec<Step>,
    /// Each node's slot and the dtype its loop writes.
    vals: SmallVec<[(usize, DType); 8]>,
}

/// Plan `p`: each op's loop reads slots of its compute dtype; contiguous
/// leaves of that dtype are read in place, scalars (and one-element leaves)
/// are broadcast constants, other leaves are loaded block by block, and an
/// operand whose dtype differs (or is rounded through another) is cast.
pub fn plan<'a>(p: &Program<'a>) -> Result<Plan<'a>> {
    // Sized up front: one allocation per vector instead of regrowth.
    let (ops, leaves) = (p.nodes.len(), p.leaves.len());
    let mut b = Builder {
        leaves: Vec::with_capacity(leaves),
        slots: Vec::with_capacity(2 * (ops + leaves)),
        steps: Vec::with_capacity(2 * ops + leaves),
        vals: SmallVec::new(),
    };
    for k in 0..p.nodes.len() {
        let node = p.nodes[k];
        let nargs = node.nargs as usize;
        let kern = node.cpu.ok_or_else(|| {
            Error::internal(format!("{}: no CPU kernel for {}", node.op, node.ctype))
        })?;
        let ctype = node.ctype;
        let mut arg_slots = [0usize; 3];
        for (i, &a) in node.args().iter().enumerate() {
            arg_slots[i] = b.arg_slot(p, a, ctype, node.vias[i])?;
        }
        let otype = match kern.is_pred() {
            true => DType::Bool,
            false => ctype,
        };
        let out = b.temp(otype);
        b.steps.push(Step::Kern {
            op: node.op,
            kern,
            args: arg_slots,
            nargs,
            out,
        });
        b.vals.push((out, otype));
    }
    let &(rslot, otype) = b
        .vals
        .last()
        .ok_or_else(|| Error::internal("fused program without an op"))?;
    let store = if otype == p.out {
        b.slots[rslot].src = SlotSrc::Out;
        None
    } else {
        Some(rslot)
    };
    Ok(Plan {
        leaves: b.leaves,
        slots: b.slots,
        steps: b.steps,
        store,
    })
}

impl<'a> Builder<'a> {
    fn temp(&mut self, ctype: DType) -> usize {
        self.slots.push(Slot {
            ctype,
            src: SlotSrc::Temp,
        });
        self.slots.len() - 1
    }

    /// The slot holding operand `a` in `ctype`, rounded through `via` where needed.
    fn arg_slot(&mut self, p: &Program<'a>, a: Arg, ctype: DType, via: DType) -> Result<usize> {
        match a {
            Arg::Leaf(l) => {
                let l = l as usize;
                let scalar = match p.leaves[l] {
                    Leaf::Scalar(s) => Some(s),
                    // One element, or one element broadcast (all strides 0: a
                    // gradient's `g.broadcast_to(x.shape)`): a constant.
                    Leaf::Array(a)
                        if a.size() == 1
                            || (a.size() > 0 && a.strides().iter().all(|&s| s == 0)) =>
                    {
                        Some(read_scalar(a)?)
                    }
                    Leaf::Array(_) => None,
                };
                if let Some(s) = scalar {
                    self.slots.push(Slot {
                        ctype,
                        src: SlotSrc::Const(s.round(via)),
                    });
                    return Ok(self.slots.len() - 1);
                }
                let Leaf::Array(a) = p.leaves[l] else {
                    return Err(Error::internal("leaf is not an array"));
                };
                let (dtype, lp) = (a.dtype(), self.leaves.len());
                self.leaves.push(LeafPlan::new(a));
                if dtype == ctype && via == ctype {
                    self.slots.push(Slot {
                        ctype,
                        src: SlotSrc::Direct(lp),
                    });
                    return Ok(self.slots.len() - 1);
                }
                let via = if via == dtype { None } else { Some(via) };
                let out = self.temp(ctype);
                self.steps.push(Step::Load { leaf: lp, via, out });
                Ok(out)
            }
            Arg::Node(k) => {
                let (s, otype) = self.vals[k as usize];
                if otype == ctype && via == otype {
                    return Ok(s);
                }
                let out = self.temp(ctype);
                self.steps.push(Step::Cast { from: s, via, out });
                Ok(out)
            }
        }
    }
}

/// A kernel's domain error as a gcalc error naming the op.
pub fn kern_error(e: KernError, op: &str) -> Error {
    match e {
        KernError::ZeroDivision => Error::new(ErrorKind::ZeroDivision, "integer division by zero")
            .with_op(op)
            .with_help("make the divisor nonzero (e.g. where(y == 0, 1, y)), or divide floats"),
        KernError::NegativeIntPower => {
            Error::value("Integers to negative integer powers are not allowed.")
                .with_op(op)
                .with_help("use a float base: x.astype(floatX) ** n, or 1.0 / x ** -n")
        }
    }
}
