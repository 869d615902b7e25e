//! The program a fused elementwise tree compiles to: constants, leaf views,
//! slots and steps (built by `fuse.rs`, run by `Exec`), and kernel errors.

use crate::array::{Array, Element, layout};
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use gcalc_kernels::cpu::ew::{Kern, KernError};

#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    B(bool),
    I(i64),
    F(f64),
}

impl Scalar {
    /// The one element of a size-1 array.
    pub fn read(a: &Array) -> Result<Scalar> {
        // A host array is read in place (no view clone); a device one is copied.
        let copy;
        let h = match a.device() {
            crate::Device::Cpu => a,
            _ => {
                copy = a.to_host()?;
                &copy
            }
        };
        let d = h.host_read()?;
        let off = layout::offset_of_flat(h.shape(), h.strides(), h.offset(), 0);
        Ok(match h.dtype() {
            DType::Bool => Scalar::B(d.get_i64(off) != 0),
            DType::Int32 | DType::Int64 => Scalar::I(d.get_i64(off)),
            _ => Scalar::F(d.get_f64(off)),
        })
    }
    /// Rounded through dtype `via` (a float16 leaf's value, where's condition as bool).
    pub fn round(self, via: DType) -> Scalar {
        fn go<V: Element>(s: Scalar) -> Scalar {
            let v: V = match s {
                Scalar::B(b) => V::from_i64(b as i64),
                Scalar::I(i) => V::from_i64(i),
                Scalar::F(f) => V::from_f64(f),
            };
            match V::DTYPE {
                DType::Bool => Scalar::B(v.to_i64() != 0),
                DType::Int32 | DType::Int64 => Scalar::I(v.to_i64()),
                _ => Scalar::F(v.to_f64()),
            }
        }
        crate::with_dtype!(via, V => go::<V>(self))
    }
    #[inline]
    pub(super) fn get<T: Element>(self) -> T {
        match self {
            Scalar::B(b) => T::from_i64(b as i64),
            Scalar::I(i) => T::from_i64(i),
            Scalar::F(f) => T::from_f64(f),
        }
    }
}

/// A leaf array viewed with the output's shape (broadcast strides, merged dims).
pub struct LeafPlan {
    pub(super) array: Array,
    pub(super) direct: bool,
    pub(super) shape: Vec<usize>,
    pub(super) strides: Vec<isize>,
}

impl LeafPlan {
    pub fn new(array: Array) -> LeafPlan {
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

#[derive(Clone, Copy)]
pub enum KernAny {
    F32(Kern<f32>),
    F64(Kern<f64>),
    I64(Kern<i64>),
    B(Kern<bool>),
}

impl KernAny {
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
