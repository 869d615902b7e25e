//! Element types and the promotion rules of NumPy 2 (NEP 50), with weak scalars.
//!
//! Decision (written in docs/LANGUAGE-REFERENCE.md): a weak float literal that must
//! become an array, or that meets an integer/bool array, takes the session's
//! `floatX`, as in Theano; NumPy would take float64.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    Int32,
    Int64,
    Float16,
    Float32,
    Float64,
    /// Two float32s (real, imaginary), interleaved in memory as NumPy's `<c8`.
    Complex64,
    /// Two float64s, NumPy's `<c16`.
    Complex128,
}

impl DType {
    /// The complex dtypes (not in `ALL`, the real dtypes every op walks).
    pub const COMPLEX: [DType; 2] = [DType::Complex64, DType::Complex128];

    pub const ALL: [DType; 6] = [
        DType::Bool,
        DType::Int32,
        DType::Int64,
        DType::Float16,
        DType::Float32,
        DType::Float64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float16 => "float16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
        }
    }
    pub fn from_name(s: &str) -> Option<DType> {
        DType::ALL
            .into_iter()
            .chain(DType::COMPLEX)
            .find(|d| d.name() == s)
    }
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::Bool => 1,
            DType::Int32 => 4,
            DType::Int64 => 8,
            DType::Float16 => 2,
            DType::Float32 => 4,
            DType::Float64 => 8,
            DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }
    pub fn is_complex(self) -> bool {
        matches!(self, DType::Complex64 | DType::Complex128)
    }
    /// The real dtype of a complex one's parts (`abs`, `real`, `imag`); a real
    /// dtype is its own.
    pub fn real_part(self) -> DType {
        match self {
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            d => d,
        }
    }
    /// The complex dtype whose parts are this float dtype (float16 and
    /// float32 -> complex64, float64 -> complex128); ints and bools go to
    /// complex128, as NumPy's `promote_types(int64, complex64)`.
    pub fn to_complex(self) -> DType {
        match self {
            DType::Float16 | DType::Float32 | DType::Complex64 => DType::Complex64,
            _ => DType::Complex128,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float16 | DType::Float32 | DType::Float64)
    }
    pub fn is_int(self) -> bool {
        matches!(self, DType::Int32 | DType::Int64)
    }
    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }
    /// The type a fused loop computes this dtype in: float16 is computed in float32,
    /// integers in int64 (wrapping results are cast back), bool stays bool.
    pub fn compute(self) -> DType {
        match self {
            DType::Float16 => DType::Float32,
            DType::Int32 => DType::Int64,
            d => d,
        }
    }
    /// Relative tolerance used when comparing results with a float64 reference.
    pub fn tolerance(self) -> f64 {
        match self {
            DType::Float16 => 2e-3,
            DType::Float32 | DType::Complex64 => 2e-5,
            DType::Float64 | DType::Complex128 => 1e-12,
            _ => 0.0,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What an operand contributes to promotion: an array's dtype, or a weak literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Strong(DType),
    WeakBool,
    WeakInt,
    WeakFloat,
    /// A Python complex (`2j`, `complex(1, 2)`).
    WeakComplex,
}

/// Promotion of two strong dtypes (NumPy's table for these six types).
pub fn promote(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    match (a, b) {
        (Bool, x) | (x, Bool) => x,
        // NumPy 2: complex64 with float64 or any integer -> complex128.
        (Complex64 | Complex128, x) | (x, Complex64 | Complex128) => {
            if x.is_complex() || x == Float16 || x == Float32 {
                a.max(b)
            } else {
                Complex128
            }
        }
        (Int32, Int64) | (Int64, Int32) => Int64,
        // NumPy: int32/int64 with any float -> float64.
        (Int32 | Int64, Float16 | Float32 | Float64)
        | (Float16 | Float32 | Float64, Int32 | Int64) => Float64,
        (x, y) => x.max(y),
    }
}

/// NEP 50 promotion over operand kinds; `float_x` is the dtype a weak float takes
/// when nothing strong decides it.
pub fn promote_kinds(kinds: &[Kind], float_x: DType) -> Kind {
    let mut strong: Option<DType> = None;
    let mut weak = Kind::WeakBool;
    let mut any_weak = false;
    for &k in kinds {
        match k {
            Kind::Strong(d) => strong = Some(strong.map_or(d, |s| promote(s, d))),
            w => {
                any_weak = true;
                weak = match (weak, w) {
                    (Kind::WeakComplex, _) | (_, Kind::WeakComplex) => Kind::WeakComplex,
                    (Kind::WeakFloat, _) | (_, Kind::WeakFloat) => Kind::WeakFloat,
                    (Kind::WeakInt, _) | (_, Kind::WeakInt) => Kind::WeakInt,
                    _ => Kind::WeakBool,
                }
            }
        }
    }
    match strong {
        None => weak,
        Some(d) if !any_weak => Kind::Strong(d),
        Some(d) => Kind::Strong(match weak {
            // A Python complex makes floats complex of their width, ints
            // and bools complex128 (NEP 50: `float32 * 1j` is complex64).
            Kind::WeakComplex => d.to_complex(),
            Kind::WeakFloat if !d.is_float() && !d.is_complex() => float_x,
            Kind::WeakInt if d.is_bool() => DType::Int64,
            _ => d,
        }),
    }
}

impl Kind {
    /// The dtype this kind has once materialised.
    pub fn dtype(self, float_x: DType) -> DType {
        match self {
            Kind::Strong(d) => d,
            Kind::WeakBool => DType::Bool,
            Kind::WeakInt => DType::Int64,
            Kind::WeakFloat => float_x,
            Kind::WeakComplex => DType::Complex128,
        }
    }
}
