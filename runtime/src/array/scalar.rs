//! A scalar that has not been given a dtype yet: a literal, a `full`
//! value, a weak operand of an elementwise program, one element read back.

use super::Element;
use crate::dtype::{DType, Kind};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A Python complex (real, imaginary).
    Complex(f64, f64),
}

impl Scalar {
    /// The scalar as an element of type `T` (NumPy's casting: float->int truncates).
    #[inline]
    pub fn to_elem<T: Element>(self) -> T {
        match self {
            Scalar::Bool(b) => T::from_i64(b as i64),
            Scalar::Int(i) => T::from_i64(i),
            Scalar::Float(f) => T::from_f64(f),
            Scalar::Complex(re, im) => T::from_parts(re, im),
        }
    }
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
            Scalar::Complex(re, _) => re,
        }
    }
    /// The weak kind of the scalar, for NEP 50 promotion.
    pub fn kind(self) -> Kind {
        match self {
            Scalar::Bool(_) => Kind::WeakBool,
            Scalar::Int(_) => Kind::WeakInt,
            Scalar::Float(_) => Kind::WeakFloat,
            Scalar::Complex(..) => Kind::WeakComplex,
        }
    }
    /// The dtype a weak scalar is held in (bool, int64 or float64).
    pub fn held(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::Int64,
            Scalar::Float(_) => DType::Float64,
            Scalar::Complex(..) => DType::Complex128,
        }
    }
    /// Rounded through dtype `via` (a float16 leaf's value, where's condition as bool).
    pub fn round(self, via: DType) -> Scalar {
        fn go<V: Element>(s: Scalar) -> Scalar {
            let v: V = s.to_elem();
            match V::DTYPE {
                DType::Bool => Scalar::Bool(v.to_i64() != 0),
                DType::Int32 | DType::Int64 => Scalar::Int(v.to_i64()),
                DType::Complex64 | DType::Complex128 => {
                    let (re, im) = v.parts();
                    Scalar::Complex(re, im)
                }
                _ => Scalar::Float(v.to_f64()),
            }
        }
        crate::with_dtype!(via, V => go::<V>(self))
    }
}
