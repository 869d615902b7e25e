//! NumPy's scalar-type names as values: the second names of gcalc's dtypes
//! (`double single half int_ intp long longlong intc bool_ cdouble
//! csingle`), the abstract kinds of NumPy's type tree (`generic number
//! integer signedinteger unsignedinteger inexact floating complexfloating`,
//! for `issubdtype`), and NumPy dtypes gcalc lacks (`int8 uint16 float128`
//! ...), which are a clear error naming the nearest dtype gcalc has.

use crate::dtype::DType;
use crate::error::Error;
use crate::value::{Object, Value};
use std::sync::Arc;

/// NumPy 2's other names of gcalc's dtypes (on Linux x86-64: `long` is int64).
pub const DTYPE_NAMES: &[(&str, DType)] = &[
    ("double", DType::Float64),
    ("single", DType::Float32),
    ("half", DType::Float16),
    ("int_", DType::Int64),
    ("intp", DType::Int64),
    ("long", DType::Int64),
    ("longlong", DType::Int64),
    ("intc", DType::Int32),
    ("bool_", DType::Bool),
    ("cdouble", DType::Complex128),
    ("csingle", DType::Complex64),
];

/// NumPy dtypes gcalc does not have: (name, what it is, gcalc's nearest).
const MISSING: &[(&str, &str, DType)] = &[
    ("int8", "8-bit signed integer", DType::Int32),
    ("byte", "int8", DType::Int32),
    ("i1", "int8", DType::Int32),
    ("int16", "16-bit signed integer", DType::Int32),
    ("short", "int16", DType::Int32),
    ("i2", "int16", DType::Int32),
    ("uint8", "8-bit unsigned integer", DType::Int32),
    ("ubyte", "uint8", DType::Int32),
    ("u1", "uint8", DType::Int32),
    ("uint16", "16-bit unsigned integer", DType::Int32),
    ("ushort", "uint16", DType::Int32),
    ("u2", "uint16", DType::Int32),
    ("uint32", "32-bit unsigned integer", DType::Int64),
    ("uintc", "uint32", DType::Int64),
    ("u4", "uint32", DType::Int64),
    ("uint64", "64-bit unsigned integer", DType::Int64),
    ("uint", "uint64", DType::Int64),
    ("uintp", "uint64", DType::Int64),
    ("ulong", "uint64", DType::Int64),
    ("ulonglong", "uint64", DType::Int64),
    ("u8", "uint64", DType::Int64),
    (
        "float128",
        "80-bit extended precision float",
        DType::Float64,
    ),
    ("longdouble", "float128", DType::Float64),
    ("f16", "float128", DType::Float64),
    ("complex256", "complex of two float128", DType::Complex128),
    ("clongdouble", "complex256", DType::Complex128),
    ("c32", "complex256", DType::Complex128),
];

/// The dtype a NumPy type name stands for, if it is one of gcalc's.
pub fn dtype_named(name: &str) -> Option<DType> {
    DTYPE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| *d)
}

/// The error for a NumPy dtype gcalc lacks (`uint8`, `float128`...).
pub fn missing_dtype(name: &str) -> Option<Error> {
    let (n, what, near) = MISSING.iter().find(|(n, ..)| *n == name)?;
    let what = if what.contains(' ') {
        what.to_string()
    } else {
        format!("NumPy's {what}")
    };
    let mut e = Error::type_(format!(
        "gcalc has no dtype {n} ({what}); the nearest dtype gcalc has is {near}"
    ))
    .with_help(format!(
        "use {near} (e.g. x.astype({near})); gcalc's dtypes: bool int32 int64 float16 float32 float64 complex64 complex128"
    ));
    if near.is_int() && n.starts_with('u') {
        e = e.with_note(
            "gcalc has no unsigned integers: wrap-around modulo 2**k needs an explicit `% 2**k`",
        );
    }
    Some(e)
}

/// An abstract kind of NumPy's type tree (`np.floating`...): a value for
/// `issubdtype`, `isinstance` and `isdtype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abstract {
    Generic,
    Number,
    Integer,
    SignedInteger,
    UnsignedInteger,
    Inexact,
    Floating,
    ComplexFloating,
}

pub const ABSTRACT: &[Abstract] = &[
    Abstract::Generic,
    Abstract::Number,
    Abstract::Integer,
    Abstract::SignedInteger,
    Abstract::UnsignedInteger,
    Abstract::Inexact,
    Abstract::Floating,
    Abstract::ComplexFloating,
];

impl Abstract {
    pub fn name(self) -> &'static str {
        match self {
            Abstract::Generic => "generic",
            Abstract::Number => "number",
            Abstract::Integer => "integer",
            Abstract::SignedInteger => "signedinteger",
            Abstract::UnsignedInteger => "unsignedinteger",
            Abstract::Inexact => "inexact",
            Abstract::Floating => "floating",
            Abstract::ComplexFloating => "complexfloating",
        }
    }
    /// The kind just above this one in NumPy's tree.
    fn parent(self) -> Option<Abstract> {
        match self {
            Abstract::Generic => None,
            Abstract::Number => Some(Abstract::Generic),
            Abstract::Integer | Abstract::Inexact => Some(Abstract::Number),
            Abstract::SignedInteger | Abstract::UnsignedInteger => Some(Abstract::Integer),
            Abstract::Floating | Abstract::ComplexFloating => Some(Abstract::Inexact),
        }
    }
    /// The most specific kind a concrete dtype sits under.
    pub fn of(d: DType) -> Abstract {
        match d {
            DType::Bool => Abstract::Generic,
            DType::Int32 | DType::Int64 => Abstract::SignedInteger,
            DType::Float16 | DType::Float32 | DType::Float64 => Abstract::Floating,
            DType::Complex64 | DType::Complex128 => Abstract::ComplexFloating,
        }
    }
    /// Whether this kind is `other` or below it (`floating` is under `number`).
    pub fn within(self, other: Abstract) -> bool {
        let mut k = Some(self);
        while let Some(a) = k {
            if a == other {
                return true;
            }
            k = a.parent();
        }
        false
    }
    /// Whether the dtype `d` is of this kind (`float32` is `floating`).
    pub fn contains(self, d: DType) -> bool {
        Abstract::of(d).within(self)
    }
    fn members(self) -> Vec<&'static str> {
        DType::ALL
            .into_iter()
            .chain(DType::COMPLEX)
            .filter(|d| self.contains(*d))
            .map(DType::name)
            .collect()
    }
}

impl Object for Abstract {
    fn type_name(&self) -> &'static str {
        "abstract dtype"
    }
    fn repr(&self) -> String {
        let m = self.members();
        let m = if m.is_empty() {
            "none of gcalc's".to_string()
        } else {
            m.join(" ")
        };
        format!("<abstract dtype {} ({m})>", self.name())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The abstract kind a value is, if it is one.
pub fn abstract_of(v: &Value) -> Option<Abstract> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Abstract>().copied(),
        _ => None,
    }
}

/// The value of a NumPy type name: a dtype's second name or an abstract kind.
pub fn lookup(name: &str) -> Option<Value> {
    if let Some(d) = dtype_named(name) {
        return Some(Value::DType(d));
    }
    ABSTRACT
        .iter()
        .find(|a| a.name() == name)
        .map(|a| Value::Object(Arc::new(*a)))
}

/// Every name this module gives a value (completion, highlighting).
pub fn names() -> impl Iterator<Item = &'static str> {
    DTYPE_NAMES
        .iter()
        .map(|(n, _)| *n)
        .chain(ABSTRACT.iter().map(|a| a.name()))
}

/// `help(name)` for one of these names.
pub fn help(name: &str) -> Option<String> {
    if let Some(d) = dtype_named(name) {
        return Some(format!(
            "{name} = {d}\n\nNumPy's name for the dtype {d} (np.{name}): dtype={name}, x.astype({name}) and {name}(3) are the same as with {d}.\n"
        ));
    }
    if let Some(a) = ABSTRACT.iter().find(|a| a.name() == name) {
        return Some(format!(
            "{name}: {}\n\nAn abstract kind of NumPy's type tree (np.{name}), for issubdtype(x.dtype, {name}) and isinstance(x, {name}); not a dtype of arrays.\n",
            a.repr()
        ));
    }
    missing_dtype(name).map(|e| format!("{name}: {}\n{}\n", e.message, e.help.unwrap_or_default()))
}
