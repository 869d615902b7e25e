//! Typed block buffers of the fused executor: per-type scratch pools for
//! temporaries and the typed view of an output block.

use crate::array::Element;
use half::f16;

#[derive(Default)]
pub struct Scratch {
    pub(super) f32: Vec<Vec<f32>>,
    pub(super) f64: Vec<Vec<f64>>,
    pub(super) i64: Vec<Vec<i64>>,
    pub(super) b: Vec<Vec<bool>>,
}

impl Scratch {
    /// Room for `counts` temporaries of each compute type (f32, f64, i64, bool),
    /// `n` elements each. Contents are stale: every step writes before it reads.
    pub(super) fn ensure(&mut self, counts: [usize; 4], n: usize) {
        fn grow<T: Clone + Default>(p: &mut Vec<Vec<T>>, c: usize, n: usize) {
            if p.len() < c {
                p.resize_with(c, Vec::new);
            }
            for v in &mut p[..c] {
                if v.len() < n {
                    v.resize(n, T::default());
                }
            }
        }
        grow(&mut self.f32, counts[0], n);
        grow(&mut self.f64, counts[1], n);
        grow(&mut self.i64, counts[2], n);
        grow(&mut self.b, counts[3], n);
    }
}

/// The four compute types of the CPU loops.
pub(super) trait Compute: Element {
    fn pool(s: &Scratch) -> &Vec<Vec<Self>>;
    fn pool_mut(s: &mut Scratch) -> &mut Vec<Vec<Self>>;
}
macro_rules! compute {
    ($t:ty, $f:ident) => {
        impl Compute for $t {
            fn pool(s: &Scratch) -> &Vec<Vec<Self>> {
                &s.$f
            }
            fn pool_mut(s: &mut Scratch) -> &mut Vec<Vec<Self>> {
                &mut s.$f
            }
        }
    };
}
compute!(f32, f32);
compute!(f64, f64);
compute!(i64, i64);
compute!(bool, b);

macro_rules! with_compute {
    ($d:expr, $T:ident => $body:expr) => {
        match $d {
            DType::Float32 => {
                type $T = f32;
                $body
            }
            DType::Float64 => {
                type $T = f64;
                $body
            }
            DType::Int64 => {
                type $T = i64;
                $body
            }
            _ => {
                type $T = bool;
                $body
            }
        }
    };
}
pub(super) use with_compute;

/// A block of the output, typed.
pub enum OutChunk<'a> {
    B(&'a mut [bool]),
    I32(&'a mut [i32]),
    I64(&'a mut [i64]),
    F16(&'a mut [f16]),
    F32(&'a mut [f32]),
    F64(&'a mut [f64]),
}

pub(super) trait OutElt: Element {
    fn make(c: &mut [Self]) -> OutChunk<'_>;
    fn get<'b>(c: &'b mut OutChunk<'_>) -> Option<&'b mut [Self]>;
}
macro_rules! out_elt {
    ($t:ty, $v:ident) => {
        impl OutElt for $t {
            fn make(c: &mut [Self]) -> OutChunk<'_> {
                OutChunk::$v(c)
            }
            fn get<'b>(c: &'b mut OutChunk<'_>) -> Option<&'b mut [Self]> {
                match c {
                    OutChunk::$v(s) => Some(&mut **s),
                    _ => None,
                }
            }
        }
    };
}
out_elt!(bool, B);
out_elt!(i32, I32);
out_elt!(i64, I64);
out_elt!(f16, F16);
out_elt!(f32, F32);
out_elt!(f64, F64);

impl OutChunk<'_> {
    pub(super) fn sub(&mut self, r: std::ops::Range<usize>) -> OutChunk<'_> {
        match self {
            OutChunk::B(s) => OutChunk::B(&mut s[r]),
            OutChunk::I32(s) => OutChunk::I32(&mut s[r]),
            OutChunk::I64(s) => OutChunk::I64(&mut s[r]),
            OutChunk::F16(s) => OutChunk::F16(&mut s[r]),
            OutChunk::F32(s) => OutChunk::F32(&mut s[r]),
            OutChunk::F64(s) => OutChunk::F64(&mut s[r]),
        }
    }
}

impl OutChunk<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            OutChunk::B(s) => s.len(),
            OutChunk::I32(s) => s.len(),
            OutChunk::I64(s) => s.len(),
            OutChunk::F16(s) => s.len(),
            OutChunk::F32(s) => s.len(),
            OutChunk::F64(s) => s.len(),
        }
    }
}
