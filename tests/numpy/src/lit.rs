//! Values written as source text the same way in gcalc and in NumPy: dtypes,
//! scalars and arrays (a flat literal reshaped), and their random data. Every
//! float is printed as the shortest decimal that reads back to the same
//! float64, and float32 data are float32 values, so both sides start from
//! bit-identical inputs.

use crate::rng::Rng;
use std::fmt::Write;

/// The dtypes the generators use (the names are gcalc's and NumPy's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    Bool,
    Int32,
    Int64,
    Float32,
    Float64,
}

pub const ALL_DTYPES: &[DType] = &[
    DType::Bool,
    DType::Int32,
    DType::Int64,
    DType::Float32,
    DType::Float64,
];
pub const NUMERIC: &[DType] = &[DType::Int32, DType::Int64, DType::Float32, DType::Float64];
pub const FLOATS: &[DType] = &[DType::Float32, DType::Float64];
pub const INTS: &[DType] = &[DType::Int32, DType::Int64];

impl DType {
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64)
    }
    pub fn is_int(self) -> bool {
        matches!(self, DType::Int32 | DType::Int64)
    }
}

/// One scalar, as written in source text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn gcalc(self) -> String {
        match self {
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => float_text(f),
        }
    }
    pub fn numpy(self) -> String {
        match self {
            Scalar::Bool(true) => "True".into(),
            Scalar::Bool(false) => "False".into(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => float_text(f),
        }
    }
}

/// The shortest decimal that reads back to `f` (always with a `.` or an
/// exponent, so both languages read a float).
pub fn float_text(f: f64) -> String {
    if !f.is_finite() {
        // `float("inf")` reads back in both languages (neither has a literal).
        let t = if f.is_nan() {
            "nan"
        } else if f > 0.0 {
            "inf"
        } else {
            "-inf"
        };
        return format!("float(\"{t}\")");
    }
    let s = format!("{f:?}");
    if s.contains(['.', 'e', 'E']) || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

/// An array literal: dtype, shape and its values in C order.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayLit {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub values: Vec<Scalar>,
}

impl ArrayLit {
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// `array([..], dtype=D)`, reshaped when not 1-d; `array(v, dtype=D)` when 0-d.
    pub fn gcalc(&self) -> String {
        self.render(false)
    }

    /// `np.array([..], dtype=np.D)`, reshaped when not 1-d.
    pub fn numpy(&self) -> String {
        self.render(true)
    }

    fn render(&self, np: bool) -> String {
        let (pre, dt) = if np {
            ("np.array(", format!("np.{}", self.dtype.name()))
        } else {
            ("array(", self.dtype.name().to_string())
        };
        let item = |v: &Scalar| if np { v.numpy() } else { v.gcalc() };
        let mut s = String::from(pre);
        if self.shape.is_empty() {
            s += &item(&self.values[0]);
        } else {
            s.push('[');
            for (i, v) in self.values.iter().enumerate() {
                if i > 0 {
                    s += ", ";
                }
                s += &item(v);
            }
            s.push(']');
        }
        let _ = write!(s, ", dtype={dt})");
        if self.shape.len() > 1 {
            s += &format!(".reshape({})", shape_text(&self.shape));
        }
        s
    }
}

/// `(2, 3)`, `(4,)`, `()` — the same text in both languages.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [] => "()".into(),
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What values random data take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Data {
    /// Never zero: ints in ±1..=60, floats k/4 with k in ±1..=60 (sums of
    /// hundreds of them are exact in float32, so reductions compare exactly).
    Small,
    /// Strictly positive (for log, sqrt): ints 1..=60, floats k/4 in 1..=60.
    Positive,
    /// Floats with random mantissas in (-4, 4) (float32 values for float32):
    /// elementwise math on data that is not round.
    Random,
    /// Floats random in (-1, 1), ints in -1..=1 (arcsin, arctanh).
    Unit,
    /// Floats random in [1, 8), ints 1..=60 (arccosh).
    AboveOne,
    /// Edge cases among random floats of any magnitude (2^-20 to 2^12):
    /// one in four is inf, -inf, nan, 0.0 or -0.0. Ints as `Small`.
    Special,
}

/// One random scalar of dtype `d`.
pub fn scalar(rng: &mut Rng, d: DType, data: Data) -> Scalar {
    let k = match data {
        Data::Positive | Data::AboveOne => rng.range(1, 60),
        _ => {
            let k = rng.range(1, 60);
            if rng.chance(50) { -k } else { k }
        }
    };
    match d {
        DType::Bool => Scalar::Bool(rng.chance(50)),
        DType::Int32 | DType::Int64 if data == Data::Unit => Scalar::Int(rng.range(-1, 1)),
        DType::Int32 | DType::Int64 => Scalar::Int(k),
        DType::Float32 | DType::Float64 => match data {
            Data::Unit | Data::AboveOne | Data::Special => {
                let f = special_float(rng, data);
                Scalar::Float(if d == DType::Float32 {
                    f as f32 as f64
                } else {
                    f
                })
            }
            Data::Random => {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let v = (u * 8.0 - 4.0).clamp(-3.999, 3.999);
                let v = if v == 0.0 { 0.5 } else { v };
                Scalar::Float(if d == DType::Float32 {
                    v as f32 as f64
                } else {
                    v
                })
            }
            _ => Scalar::Float(k as f64 / 4.0),
        },
    }
}

/// A float of `Unit`, `AboveOne` or `Special` data.
fn special_float(rng: &mut Rng, data: Data) -> f64 {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    match data {
        Data::Unit => (u * 2.0 - 1.0).clamp(-0.999, 0.999),
        Data::AboveOne => 1.0 + u * 7.0,
        _ if rng.chance(25) => {
            [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 0.0, -0.0][rng.below(5)]
        }
        _ => {
            let m = 1.0 + u;
            let m = if rng.chance(50) { -m } else { m };
            m * 2f64.powi(rng.range(-20, 12) as i32)
        }
    }
}

/// A random array of `shape`.
pub fn array(rng: &mut Rng, d: DType, shape: &[usize], data: Data) -> ArrayLit {
    let n: usize = shape.iter().product();
    ArrayLit {
        dtype: d,
        shape: shape.to_vec(),
        values: (0..n).map(|_| scalar(rng, d, data)).collect(),
    }
}

/// A random shape of `ndim` dims of 0..=max each; size-0 and size-1 dims
/// come up often (each about one in six).
pub fn random_shape(rng: &mut Rng, ndim: usize, max: usize) -> Vec<usize> {
    (0..ndim)
        .map(|_| match rng.below(6) {
            0 => 0,
            1 => 1,
            _ => rng.range(1, max as i64) as usize,
        })
        .collect()
}

// Shrinking helpers: simpler forms of an array for minimal reproductions.

/// `1, 2, 3...` in `a`'s dtype (bools alternate), with `a`'s shape.
pub fn readable(a: &ArrayLit) -> ArrayLit {
    let values = (0..a.size())
        .map(|i| match a.dtype {
            DType::Bool => Scalar::Bool(i % 2 == 0),
            DType::Int32 | DType::Int64 => Scalar::Int(i as i64 + 1),
            DType::Float32 | DType::Float64 => Scalar::Float(i as f64 + 1.0),
        })
        .collect();
    ArrayLit {
        values,
        ..a.clone()
    }
}

/// `a` with dims `shape`, values readable.
pub fn reshaped(a: &ArrayLit, shape: Vec<usize>) -> ArrayLit {
    readable(&ArrayLit {
        dtype: a.dtype,
        values: vec![Scalar::Int(0); shape.iter().product()],
        shape,
    })
}

/// Variants of `a` with one dim smaller or gone.
pub fn smaller_arrays(a: &ArrayLit) -> Vec<ArrayLit> {
    let mut out = Vec::new();
    for k in 0..a.shape.len() {
        if a.shape[k] == 1 {
            let mut s = a.shape.clone();
            s.remove(k);
            out.push(reshaped(a, s));
        } else if a.shape[k] > 1 {
            let mut s = a.shape.clone();
            s[k] -= 1;
            out.push(reshaped(a, s));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_the_same_in_both_languages() {
        let a = ArrayLit {
            dtype: DType::Float32,
            shape: vec![2, 1],
            values: vec![Scalar::Float(1.0), Scalar::Float(-0.25)],
        };
        assert_eq!(
            a.gcalc(),
            "array([1.0, -0.25], dtype=float32).reshape((2, 1))"
        );
        assert_eq!(
            a.numpy(),
            "np.array([1.0, -0.25], dtype=np.float32).reshape((2, 1))"
        );
        let z = ArrayLit {
            dtype: DType::Bool,
            shape: vec![],
            values: vec![Scalar::Bool(true)],
        };
        assert_eq!(z.gcalc(), "array(true, dtype=bool)");
        assert_eq!(z.numpy(), "np.array(True, dtype=np.bool)");
        assert_eq!(float_text(1e-7), "1e-7");
        assert_eq!(float_text(0.1f32 as f64), "0.10000000149011612");
    }
}
