//! What one side computed for a case — a value (dtype, shape, every element
//! exactly) or an error (its category) — and the comparison of gcalc's with
//! NumPy's: which kind of mismatch, if any.

use std::fmt;

/// Elements, widened without loss (int32 to i64, float32/float16 to f64).
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::Bool(v) => v.len(),
            Values::Int(v) => v.len(),
            Values::Float(v) => v.len(),
        }
    }
}

/// One side's result.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Value {
        /// NumPy's dtype name (`float32`, `int64`, `bool`).
        dtype: String,
        shape: Vec<usize>,
        values: Values,
    },
    /// An error: its category (gcalc: `index`, `shape`, ... from ErrorKind;
    /// NumPy: the builtin exception class, `IndexError`), and its message.
    Error { category: String, message: String },
    /// gcalc only: an internal error or a panic (always a bug).
    Internal { message: String },
}

/// How closely floats must agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tol {
    /// Bit for bit (indexing and assignment move values, never compute them).
    Exact,
    /// Within this many units in the last place of the result's dtype
    /// (-0.0 equals 0.0); nan equals nan.
    Ulps(u32),
    /// Norm-wise: every element within this many machine epsilons (of the
    /// result's dtype) times the largest magnitude in NumPy's result (linear
    /// algebra, whose error bounds are norm-wise); nan equals nan, infinities
    /// must be equal.
    Norm(u32),
}

/// How gcalc's result differs from NumPy's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mismatch {
    /// gcalc raised an internal error or panicked.
    Internal,
    /// gcalc raised an error, NumPy gave a value.
    GcalcError,
    /// NumPy raised an error, gcalc gave a value.
    NumpyError,
    /// Both raised errors of categories that do not correspond.
    ErrorCategory,
    Shape,
    DType,
    Values,
}

impl Mismatch {
    pub fn describe(self) -> &'static str {
        match self {
            Mismatch::Internal => "gcalc internal error or panic",
            Mismatch::GcalcError => "gcalc raises an error, NumPy gives a value",
            Mismatch::NumpyError => "NumPy raises an error, gcalc gives a value",
            Mismatch::ErrorCategory => "both raise errors, of different categories",
            Mismatch::Shape => "shapes differ",
            Mismatch::DType => "dtypes differ",
            Mismatch::Values => "values differ",
        }
    }
}

/// gcalc error categories that correspond to a NumPy exception class.
/// IndexError covers gcalc's shape errors (a mask of the wrong shape, index
/// arrays that do not broadcast) and dtype/type errors (a float index).
/// A case with two defects may raise either first: ValueError (a value that
/// does not broadcast) also takes gcalc's index error (an index out of
/// bounds), TypeError (a cast) its shape error (operands that do not
/// broadcast). Everything else — syntax, name, device, internal — differs.
pub fn categories_correspond(gcalc: &str, numpy: &str) -> bool {
    let ok: &[&str] = match numpy {
        "IndexError" => &["index", "shape", "dtype", "type"],
        "ValueError" => &["shape", "value", "index"],
        "TypeError" => &["type", "dtype", "shape"],
        "OverflowError" => &["value", "dtype"],
        "ZeroDivisionError" => &["zero_division"],
        _ => &[],
    };
    ok.contains(&gcalc)
}

/// Compare gcalc's outcome with NumPy's; `None` when they agree.
pub fn compare(gcalc: &Outcome, numpy: &Outcome, tol: Tol) -> Option<Mismatch> {
    use Outcome::*;
    match (gcalc, numpy) {
        (Internal { .. }, _) => Some(Mismatch::Internal),
        (Error { .. }, Value { .. }) => Some(Mismatch::GcalcError),
        (Value { .. }, Error { .. }) => Some(Mismatch::NumpyError),
        (Error { category: g, .. }, Error { category: n, .. }) => {
            (!categories_correspond(g, n)).then_some(Mismatch::ErrorCategory)
        }
        (_, Internal { .. }) => Some(Mismatch::Internal),
        (
            Value {
                dtype: gd,
                shape: gs,
                values: gv,
            },
            Value {
                dtype: nd,
                shape: ns,
                values: nv,
            },
        ) => {
            if gs != ns {
                Some(Mismatch::Shape)
            } else if gd != nd {
                Some(Mismatch::DType)
            } else if !values_agree(gv, nv, nd, tol) {
                Some(Mismatch::Values)
            } else {
                None
            }
        }
    }
}

fn values_agree(a: &Values, b: &Values, dtype: &str, tol: Tol) -> bool {
    if let (Values::Float(a), Values::Float(b), Tol::Norm(k)) = (a, b, tol) {
        return norm_agree(a, b, dtype, k);
    }
    match (a, b) {
        (Values::Bool(a), Values::Bool(b)) => a == b,
        (Values::Int(a), Values::Int(b)) => a == b,
        (Values::Float(a), Values::Float(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(&x, &y)| floats_agree(x, y, dtype, tol))
        }
        _ => false,
    }
}

/// `Tol::Norm(k)`: |x - y| <= k * eps * max|y| for every element (non-finite ones equal).
fn norm_agree(a: &[f64], b: &[f64], dtype: &str, k: u32) -> bool {
    let eps = match dtype {
        "float32" => f32::EPSILON as f64,
        "float16" => 0.000977,
        _ => f64::EPSILON,
    };
    let scale = b
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let bound = k as f64 * eps * scale;
    a.len() == b.len()
        && a.iter().zip(b).all(|(&x, &y)| {
            if !x.is_finite() || !y.is_finite() {
                return (x.is_nan() && y.is_nan()) || x == y;
            }
            (x - y).abs() <= bound
        })
}

fn floats_agree(x: f64, y: f64, dtype: &str, tol: Tol) -> bool {
    match tol {
        Tol::Norm(k) => norm_agree(&[x], &[y], dtype, k),
        Tol::Exact => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        Tol::Ulps(n) => {
            if x.is_nan() || y.is_nan() {
                return x.is_nan() && y.is_nan();
            }
            if x.is_infinite() || y.is_infinite() {
                return x == y;
            }
            ulps_between(x, y, dtype) <= n as u64
        }
    }
}

/// Units in the last place between two finite values of `dtype` (float32
/// values are compared as float32, the rest as float64).
fn ulps_between(x: f64, y: f64, dtype: &str) -> u64 {
    fn ord64(v: f64) -> i128 {
        let b = v.to_bits() as i64;
        if b < 0 {
            -((b & i64::MAX) as i128)
        } else {
            b as i128
        }
    }
    fn ord32(v: f32) -> i128 {
        let b = v.to_bits() as i32;
        if b < 0 {
            -((b & i32::MAX) as i128)
        } else {
            b as i128
        }
    }
    let d = match dtype {
        "float32" | "float16" => ord32(x as f32) - ord32(y as f32),
        _ => ord64(x) - ord64(y),
    };
    d.unsigned_abs().min(u64::MAX as u128) as u64
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Value {
                dtype,
                shape,
                values,
            } => {
                write!(f, "{dtype} {} ", crate::lit::shape_text(shape))?;
                let n = values.len();
                let shown = n.min(24);
                let items: Vec<String> = match values {
                    Values::Bool(v) => v[..shown].iter().map(|b| b.to_string()).collect(),
                    Values::Int(v) => v[..shown].iter().map(|i| i.to_string()).collect(),
                    Values::Float(v) => v[..shown]
                        .iter()
                        .map(|x| crate::lit::float_text(*x))
                        .collect(),
                };
                write!(f, "[{}", items.join(" "))?;
                if n > shown {
                    write!(f, " ... ({n} elements)")?;
                }
                write!(f, "]")
            }
            Outcome::Error { category, message } => write!(f, "error {category}: {message}"),
            Outcome::Internal { message } => write!(f, "INTERNAL: {message}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(dtype: &str, v: Vec<f64>) -> Outcome {
        Outcome::Value {
            dtype: dtype.into(),
            shape: vec![v.len()],
            values: Values::Float(v),
        }
    }

    #[test]
    fn exact_and_ulps() {
        let a = val("float32", vec![1.0, f64::NAN, 0.0]);
        let b = val("float32", vec![1.0, f64::NAN, -0.0]);
        assert_eq!(compare(&a, &b, Tol::Exact), Some(Mismatch::Values));
        assert_eq!(compare(&a, &b, Tol::Ulps(0)), None);
        let c = val("float32", vec![1.0 + f32::EPSILON as f64, f64::NAN, 0.0]);
        assert_eq!(compare(&c, &a, Tol::Ulps(0)), Some(Mismatch::Values));
        assert_eq!(compare(&c, &a, Tol::Ulps(1)), None);
        assert_eq!(
            compare(&a, &val("float64", vec![1.0, f64::NAN, 0.0]), Tol::Exact),
            Some(Mismatch::DType)
        );
    }

    #[test]
    fn errors_compare_by_category() {
        let e = |c: &str| Outcome::Error {
            category: c.into(),
            message: String::new(),
        };
        assert_eq!(compare(&e("index"), &e("IndexError"), Tol::Exact), None);
        assert_eq!(
            compare(&e("name"), &e("IndexError"), Tol::Exact),
            Some(Mismatch::ErrorCategory)
        );
        assert_eq!(
            compare(&e("index"), &val("float64", vec![]), Tol::Exact),
            Some(Mismatch::GcalcError)
        );
        let i = Outcome::Internal {
            message: "x".into(),
        };
        assert_eq!(
            compare(&i, &e("IndexError"), Tol::Exact),
            Some(Mismatch::Internal)
        );
    }
}
