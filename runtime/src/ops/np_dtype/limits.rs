//! `finfo` and `iinfo`: values with attributes (as `linalg` is a value with
//! attributes) holding a dtype's machine limits, NumPy's numbers exactly:
//! float attributes are 0-d arrays of the dtype (NumPy gives scalars of
//! it), counts are ints.

use super::dtype_of;
use crate::array::{Array, Scalar};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::{Object, Value};
use std::sync::Arc;

/// The limits of float16, float32 or float64.
pub struct FInfo {
    dtype: DType,
}

/// The limits of int32 or int64.
pub struct IInfo {
    dtype: DType,
}

/// A float format's shape: (bits, mantissa bits, exponent bits, decimal precision).
fn layout_of(d: DType) -> (i64, i32, i32, i64) {
    match d {
        DType::Float16 => (16, 10, 5, 3),
        DType::Float32 => (32, 23, 8, 6),
        _ => (64, 52, 11, 15),
    }
}

/// An attribute of `finfo`.
#[derive(Clone, Copy)]
enum F {
    Eps,
    Epsneg,
    Max,
    Min,
    Tiny,
    Subnormal,
    Resolution,
    Bits,
    Precision,
    Nmant,
    Nexp,
    Machep,
    Negep,
    Maxexp,
    Minexp,
}

/// The attributes by name (a table, not string matches: `min`/`max` are
/// op names too).
const FINFO_ATTRS: &[(&str, F)] = &[
    ("bits", F::Bits),
    ("eps", F::Eps),
    ("epsneg", F::Epsneg),
    ("iexp", F::Nexp),
    ("machep", F::Machep),
    ("max", F::Max),
    ("maxexp", F::Maxexp),
    ("min", F::Min),
    ("minexp", F::Minexp),
    ("negep", F::Negep),
    ("nexp", F::Nexp),
    ("nmant", F::Nmant),
    ("precision", F::Precision),
    ("resolution", F::Resolution),
    ("smallest_normal", F::Tiny),
    ("smallest_subnormal", F::Subnormal),
    ("tiny", F::Tiny),
];

/// A number of `finfo`: a float of the dtype or an int.
enum Num {
    Float(f64),
    Int(i64),
}

impl FInfo {
    /// The attribute's number (floats the dtype holds exactly, except
    /// `resolution`, rounded once to the dtype as NumPy's is).
    fn number(&self, attr: F) -> Num {
        let (bits, nmant, nexp, precision) = layout_of(self.dtype);
        let maxexp = 1i32 << (nexp - 1);
        let minexp = 2 - maxexp;
        let max = (2.0 - 2f64.powi(-nmant)) * 2f64.powi(maxexp - 1);
        match attr {
            F::Eps => Num::Float(2f64.powi(-nmant)),
            F::Epsneg => Num::Float(2f64.powi(-nmant - 1)),
            F::Max => Num::Float(max),
            F::Min => Num::Float(-max),
            F::Tiny => Num::Float(2f64.powi(minexp)),
            // In two steps: powi(-1074) overflows inside (1 / 2^1074 = 0).
            F::Subnormal => Num::Float(2f64.powi(minexp) * 2f64.powi(-nmant)),
            F::Resolution => Num::Float(10f64.powi(-(precision as i32))),
            F::Bits => Num::Int(bits),
            F::Precision => Num::Int(precision),
            F::Nmant => Num::Int(nmant as i64),
            F::Nexp => Num::Int(nexp as i64),
            F::Machep => Num::Int(-(nmant as i64)),
            F::Negep => Num::Int(-(nmant as i64) - 1),
            F::Maxexp => Num::Int(maxexp as i64),
            F::Minexp => Num::Int(minexp as i64),
        }
    }
    fn float(&self, attr: F) -> f64 {
        match self.number(attr) {
            Num::Float(x) => x,
            Num::Int(n) => n as f64,
        }
    }
}

/// A 0-d array of `d` holding `x` (rounded once to `d`).
fn scalar_of(x: f64, d: DType) -> Value {
    match Array::full(&[], Scalar::Float(x), d, Device::Cpu) {
        Ok(a) => Value::Array(a),
        Err(_) => Value::Float(x),
    }
}

/// NumPy's repr of a float: positional from 1e-4 up to 1e16, else
/// scientific with a signed two-digit exponent (`1e-06`, `3.4028235e+38`).
fn numpy_float(x: f64, d: DType) -> String {
    let m = x.abs();
    if (1e-4..1e16).contains(&m) {
        return format!("{x}");
    }
    let s = if d == DType::Float32 {
        format!("{:e}", x as f32)
    } else {
        format!("{x:e}")
    };
    match s.split_once('e') {
        Some((mant, exp)) => {
            let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |e| ("-", e));
            format!("{mant}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

impl Object for FInfo {
    fn type_name(&self) -> &'static str {
        "finfo"
    }
    fn repr(&self) -> String {
        let d = self.dtype;
        format!(
            "finfo(resolution={}, min={}, max={}, dtype={d})",
            numpy_float(self.float(F::Resolution), d),
            numpy_float(self.float(F::Min), d),
            numpy_float(self.float(F::Max), d)
        )
    }
    fn attr(&self, name: &str) -> Option<Value> {
        if name == "dtype" {
            return Some(Value::DType(self.dtype));
        }
        let (_, attr) = FINFO_ATTRS.iter().find(|(n, _)| *n == name)?;
        Some(match self.number(*attr) {
            Num::Float(x) => scalar_of(x, self.dtype),
            Num::Int(n) => Value::Int(n),
        })
    }
    fn attr_names(&self) -> Vec<String> {
        let mut v: Vec<String> = FINFO_ATTRS.iter().map(|(n, _)| n.to_string()).collect();
        v.push("dtype".into());
        v.sort();
        v
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl IInfo {
    fn bounds(&self) -> (i64, i64) {
        match self.dtype {
            DType::Int32 => (i32::MIN as i64, i32::MAX as i64),
            _ => (i64::MIN, i64::MAX),
        }
    }
}

impl Object for IInfo {
    fn type_name(&self) -> &'static str {
        "iinfo"
    }
    fn repr(&self) -> String {
        let (lo, hi) = self.bounds();
        format!("iinfo(min={lo}, max={hi}, dtype={})", self.dtype)
    }
    fn attr(&self, name: &str) -> Option<Value> {
        let (lo, hi) = self.bounds();
        // A table, not string matches: `min`/`max` are op names too.
        let attrs = [
            ("min", Value::Int(lo)),
            ("max", Value::Int(hi)),
            ("bits", Value::Int(8 * self.dtype.size() as i64)),
            ("dtype", Value::DType(self.dtype)),
            ("kind", Value::str("i")),
        ];
        attrs.into_iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
    fn attr_names(&self) -> Vec<String> {
        ["bits", "dtype", "kind", "max", "min"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

pub(super) fn finfo(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.req("dtype")?;
    a.finish()?;
    if let Value::Int(_) | Value::Bool(_) = v {
        return Err(Error::type_(format!(
            "finfo(): {} is not a float (finfo is for float dtypes)",
            v.a_type_name()
        ))
        .with_help("finfo(float64), finfo(x.dtype); for ints: iinfo(int64)"));
    }
    let d = dtype_of(&v, "finfo", "dtype")?.real_part();
    if !d.is_float() {
        return Err(
            Error::type_(format!("finfo(): data type {d} not inexact")).with_help(format!(
                "finfo is for float16 float32 float64 (and complex); for {d}: iinfo({d})"
            )),
        );
    }
    Ok(Value::Object(Arc::new(FInfo { dtype: d })))
}

pub(super) fn iinfo(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.req("dtype")?;
    a.finish()?;
    let d = dtype_of(&v, "iinfo", "dtype")?;
    if !d.is_int() {
        return Err(
            Error::type_(format!("iinfo(): invalid integer data type {d}")).with_help(format!(
                "iinfo is for int32 and int64; for floats: finfo({})",
                d.real_part()
            )),
        );
    }
    Ok(Value::Object(Arc::new(IInfo { dtype: d })))
}
