//! A fused elementwise computation as the backends receive it: the typed
//! program `ops::fuse` lowers an elementwise tree to (every dtype decision
//! made: the op table's rules, NEP 50 promotion, float16 computed in float32
//! and int32 in int64), which the CPU executor (`cpu::fused`) runs block by
//! block and the CUDA backend (`cuda::fuse`) turns into one generated kernel.
//! Neither backend sees the interpreter's trees or the op table.

use crate::array::Array;
pub use crate::array::Scalar;
use crate::dtype::{DType, Kind};
use gcalc_kernels::cpu::ew::Kern;
use smallvec::SmallVec;
use std::borrow::Cow;

/// A CPU kernel of one compute type (the op table's `f32 f64 i64 bool` loops).
#[derive(Clone, Copy)]
pub enum KernAny {
    F32(Kern<f32>),
    F64(Kern<f64>),
    I64(Kern<i64>),
    B(Kern<bool>),
}

impl KernAny {
    /// A predicate: its output is bool whatever the compute type.
    pub fn is_pred(&self) -> bool {
        matches!(
            self,
            KernAny::F32(Kern::Pred(_))
                | KernAny::F64(Kern::Pred(_))
                | KernAny::I64(Kern::Pred(_))
                | KernAny::B(Kern::Pred(_))
        )
    }
}

/// An operand of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `Program::leaves[i]` (each leaf is the operand of one node).
    Leaf(u32),
    /// The value of `Program::nodes[i]` (an earlier node).
    Node(u32),
}

/// A leaf: an array (all of a program's arrays are on one device; borrowed
/// from the tree the program was lowered from) or a weak scalar.
#[derive(Clone, Copy, Debug)]
pub enum Leaf<'a> {
    Array(&'a Array),
    Scalar(Scalar),
}

/// One op of the program, typed.
#[derive(Clone, Copy)]
pub struct Node {
    /// The op's name, for errors (`integer division by zero in floor_divide`).
    pub op: &'static str,
    pub args: [Arg; 3],
    pub nargs: u8,
    /// The dtype each operand is rounded through before the op (the dtype
    /// its kind is held in; bool for `where`'s condition).
    pub vias: [DType; 3],
    /// The dtype the op computes in (float32, float64, int64 or bool).
    pub ctype: DType,
    /// The dtype the op's value has by the dtype rules (bool for comparisons
    /// and predicates; the promoted dtype otherwise).
    pub value: DType,
    /// The CPU loop for `ctype` (None: the op has none for it).
    pub cpu: Option<KernAny>,
    /// The CUDA C expression for `ctype` over `{0} {1} {2}`.
    pub cuda: &'static str,
}

impl Node {
    pub fn args(&self) -> &[Arg] {
        &self.args[..self.nargs as usize]
    }
}

/// A typed elementwise program: leaves, then nodes in evaluation order
/// (operands before the nodes that use them; the last node is the root).
pub struct Program<'a> {
    pub leaves: SmallVec<[Leaf<'a>; 4]>,
    pub nodes: SmallVec<[Node; 4]>,
    /// The root's kind (strong dtype, or a weak scalar kind when no leaf is an array).
    pub kind: Kind,
    /// The result's dtype (the dtype the root's kind is held in).
    pub out: DType,
    /// The broadcast shape of the array leaves (checked while lowering).
    pub shape: Cow<'a, [usize]>,
    /// Whether any leaf is an array (else the result is a scalar).
    pub any_array: bool,
}

impl Program<'_> {
    /// An empty program (filled in place by the lowering: a program is about
    /// half a kilobyte inline, so it is built where it is used, not moved).
    #[inline]
    pub fn new() -> Self {
        Program {
            leaves: SmallVec::new(),
            nodes: SmallVec::new(),
            kind: Kind::WeakBool,
            out: DType::Bool,
            shape: Cow::Borrowed(&[]),
            any_array: false,
        }
    }

    /// The device of the program's arrays (None: scalars only). The lowering
    /// checked they are all on one device.
    pub fn device(&self) -> Option<crate::device::Device> {
        self.leaves.iter().find_map(|l| match l {
            Leaf::Array(a) => Some(a.device()),
            Leaf::Scalar(_) => None,
        })
    }
}

/// The dtype a value of this kind is held in (weak scalars: float64/int64/bool).
pub fn held(k: Kind) -> DType {
    match k {
        Kind::Strong(d) => d,
        Kind::WeakFloat => DType::Float64,
        Kind::WeakInt => DType::Int64,
        Kind::WeakBool => DType::Bool,
        Kind::WeakComplex => DType::Complex128,
    }
}
