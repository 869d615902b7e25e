//! NumPy's dtype introspection: `finfo iinfo` (values with attributes:
//! `finfo(float32).eps`), `result_type promote_types can_cast issubdtype
//! isdtype common_type min_scalar_type iscomplexobj isrealobj`. They read
//! dtypes only (no array data), so they serve every device alike. The
//! promotion is gcalc's own (`dtype::promote_kinds`, NEP 50 with floatX for
//! a weak float meeting ints), so `result_type` says what an op will give.

use super::creation::{dtype_arg, op};
use crate::builtins::np_types::{Abstract, abstract_of};
use crate::dtype::{DType, Kind, promote, promote_kinds};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

mod limits;

pub static OPS: &[OpDef] = &[
    op!(
        "finfo",
        "finfo(dtype)",
        "Machine limits of a float dtype (a dtype, its name, or an array or number of it; a complex dtype gives its parts'): .eps .max .min .tiny .smallest_normal .resolution (0-d arrays of the dtype), .bits .precision (ints), .dtype — NumPy's values.",
        false,
        limits::finfo
    ),
    op!(
        "iinfo",
        "iinfo(dtype)",
        "Limits of an integer dtype (int32, int64, their names, or an array or int of it): .min .max (ints), .bits, .dtype.",
        false,
        limits::iinfo
    ),
    op!(
        "result_type",
        "result_type(*arrays_and_dtypes)",
        "The dtype NumPy 2's promotion gives for these operands: arrays and dtypes count by dtype, Python numbers are weak (NEP 50: result_type(float32, 1.0) is float32); a weak float meeting ints gives floatX, as gcalc's arithmetic does.",
        false,
        result_type
    ),
    op!(
        "promote_types",
        "promote_types(type1, type2)",
        "The smallest dtype both dtypes cast to safely (promote_types(int32, float32) is float64; bool gives way to anything).",
        false,
        promote_types
    ),
    op!(
        "can_cast",
        "can_cast(from_, to, casting=\"safe\")",
        "Whether a cast from the dtype (or array) from_ to the dtype to is allowed under casting: \"no\"/\"equiv\" (same dtype), \"safe\" (no value changes: int64 -> float64 yes, int32 -> float32 no), \"same_kind\" (float64 -> float32 yes, float -> int no), \"unsafe\" (always).",
        false,
        can_cast
    ),
    op!(
        "issubdtype",
        "issubdtype(arg1, arg2)",
        "Whether arg1 is arg2 or below it in NumPy's type tree: dtypes and the abstract kinds generic number integer signedinteger unsignedinteger inexact floating complexfloating (issubdtype(x.dtype, floating)).",
        false,
        issubdtype
    ),
    op!(
        "isdtype",
        "isdtype(dtype, kind)",
        "NumPy 2's (array API) kind test: kind is a dtype, one of \"bool\" \"signed integer\" \"unsigned integer\" \"integral\" \"real floating\" \"complex floating\" \"numeric\", or a tuple of them (any matches).",
        false,
        isdtype
    ),
    op!(
        "common_type",
        "common_type(*arrays)",
        "The inexact dtype of a result over these arrays: float16/float32/float64 kept, ints give float64, complex if any is complex (with its parts' widest float). Bool arrays are an error, as NumPy's.",
        false,
        common_type
    ),
    op!(
        "min_scalar_type",
        "min_scalar_type(a)",
        "The smallest gcalc dtype holding the value a: bool for bools, int32 or int64 for ints (gcalc has no int8/uint8), float16/float32/float64 for floats by magnitude, complex64/complex128; an array of more than one element gives its dtype.",
        false,
        min_scalar_type
    ),
    op!(
        "iscomplexobj",
        "iscomplexobj(x)",
        "true if x has a complex dtype (a complex array or a Python complex), whatever its values.",
        false,
        iscomplexobj
    ),
    op!(
        "isrealobj",
        "isrealobj(x)",
        "true if x's dtype is not complex (not iscomplexobj(x)).",
        false,
        isrealobj
    ),
];

/// A dtype or an abstract kind, as `issubdtype` and `isdtype` take them.
#[derive(Clone, Copy)]
enum TypeArg {
    Concrete(DType),
    Kind(Abstract),
}

/// The dtype a value stands for: a dtype, a dtype's name, `float`/`int`,
/// an array's dtype, a Python number's default dtype.
pub(crate) fn dtype_of(v: &Value, name: &str, arg: &str) -> Result<DType> {
    match v {
        Value::Array(a) => Ok(a.dtype()),
        Value::Bool(_) => Ok(DType::Bool),
        Value::Int(_) => Ok(DType::Int64),
        Value::Float(_) => Ok(DType::Float64),
        Value::Complex(..) => Ok(DType::Complex128),
        v => dtype_arg(v).map_err(|e| Error {
            message: format!("{name}(): {arg}: {}", e.message),
            ..e
        }),
    }
}

fn type_arg(v: &Value, name: &str, arg: &str) -> Result<TypeArg> {
    match abstract_of(v) {
        Some(k) => Ok(TypeArg::Kind(k)),
        None => dtype_of(v, name, arg).map(TypeArg::Concrete),
    }
}

/// A value's kind as a promotion operand (Python numbers are weak).
fn operand_kind(v: &Value, name: &str) -> Result<Kind> {
    Ok(match v {
        Value::Bool(_) => Kind::WeakBool,
        Value::Int(_) => Kind::WeakInt,
        Value::Float(_) => Kind::WeakFloat,
        Value::Complex(..) => Kind::WeakComplex,
        v => Kind::Strong(dtype_of(v, name, "argument")?),
    })
}

fn result_type(i: &mut Interp, mut a: Args) -> Result<Value> {
    let mut kinds = Vec::new();
    for v in a.rest() {
        kinds.push(operand_kind(&v, "result_type")?);
    }
    a.finish()?;
    if kinds.is_empty() {
        return Err(
            Error::type_("result_type() needs at least one array or dtype")
                .with_help("e.g. result_type(x, float32)"),
        );
    }
    Ok(Value::DType(
        promote_kinds(&kinds, i.float_x()).dtype(i.float_x()),
    ))
}

fn promote_types(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t1 = dtype_of(&a.req("type1")?, "promote_types", "type1")?;
    let t2 = dtype_of(&a.req("type2")?, "promote_types", "type2")?;
    a.finish()?;
    Ok(Value::DType(promote(t1, t2)))
}

/// The order of kinds for "same_kind": bool < int < float < complex.
fn kind_rank(d: DType) -> u8 {
    if d.is_bool() {
        0
    } else if d.is_int() {
        1
    } else if d.is_float() {
        2
    } else {
        3
    }
}

fn can_cast(_: &mut Interp, mut a: Args) -> Result<Value> {
    let from = a.req("from_")?;
    if matches!(from, Value::Int(_) | Value::Float(_) | Value::Complex(..)) {
        return Err(Error::type_(
            "can_cast() does not support Python ints, floats, and complex because the result used to depend on the value",
        )
        .with_help("pass a dtype or an array: can_cast(x.dtype, float32), or use result_type"));
    }
    let from = dtype_of(&from, "can_cast", "from_")?;
    let to = dtype_of(&a.req("to")?, "can_cast", "to")?;
    let casting = match a.opt("casting")? {
        None => "safe".to_string(),
        Some(Value::Str(s)) => s.to_string(),
        Some(v) => {
            return Err(Error::type_(format!(
                "can_cast(): casting must be a string, not {}",
                v.a_type_name()
            )));
        }
    };
    a.finish_with(&["casting"])?;
    Ok(Value::Bool(castable(from, to, &casting, "can_cast")?))
}

/// NumPy's casting rules: whether `from` may become `to` under `casting`
/// ("no", "equiv", "safe", "same_kind", "unsafe"); `op` names the caller in
/// the error for any other string.
pub(crate) fn castable(from: DType, to: DType, casting: &str, op: &str) -> Result<bool> {
    Ok(match casting {
        "no" | "equiv" => from == to,
        "safe" => promote(from, to) == to,
        "same_kind" => promote(from, to) == to || kind_rank(from) <= kind_rank(to),
        "unsafe" => true,
        other => {
            return Err(Error::value(format!(
                "{op}(): casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not '{other}'"
            ))
            .with_op(op));
        }
    })
}

fn issubdtype(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t1 = type_arg(&a.req("arg1")?, "issubdtype", "arg1")?;
    let t2 = type_arg(&a.req("arg2")?, "issubdtype", "arg2")?;
    a.finish()?;
    Ok(Value::Bool(match (t1, t2) {
        (TypeArg::Concrete(x), TypeArg::Concrete(y)) => x == y,
        (TypeArg::Concrete(x), TypeArg::Kind(k)) => k.contains(x),
        (TypeArg::Kind(k1), TypeArg::Kind(k2)) => k1.within(k2),
        (TypeArg::Kind(_), TypeArg::Concrete(_)) => false,
    }))
}

/// Whether `d` is of the `isdtype` kind `kind` (a dtype, a kind name, a tuple).
fn is_of_kind(d: DType, kind: &Value) -> Result<bool> {
    Ok(match kind {
        Value::Tuple(ks) => {
            let mut any = false;
            for k in ks.iter() {
                any |= is_of_kind(d, k)?;
            }
            any
        }
        Value::Str(s) => match s.as_ref() {
            "bool" => d.is_bool(),
            "signed integer" | "integral" => d.is_int(),
            "unsigned integer" => false,
            "real floating" => d.is_float(),
            "complex floating" => d.is_complex(),
            "numeric" => !d.is_bool(),
            other => {
                return Err(Error::value(format!(
                    "isdtype(): kind argument is a string, but '{other}' is not a known kind name"
                ))
                .with_help("kinds: \"bool\" \"signed integer\" \"unsigned integer\" \"integral\" \"real floating\" \"complex floating\" \"numeric\""));
            }
        },
        Value::DType(k) => d == *k,
        other => {
            return Err(Error::type_(format!(
                "isdtype(): kind must be a dtype, a kind name or a tuple of them, not {}",
                other.a_type_name()
            ))
            .with_help(
                "e.g. isdtype(x.dtype, \"real floating\") or isdtype(x.dtype, (int32, int64))",
            ));
        }
    })
}

fn isdtype(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = match a.req("dtype")? {
        Value::DType(d) => d,
        other => {
            return Err(Error::type_(format!(
                "isdtype(): dtype argument must be a dtype, not {}",
                other.a_type_name()
            ))
            .with_help("pass x.dtype, not x: isdtype(x.dtype, \"numeric\")"));
        }
    };
    let kind = a.req("kind")?;
    a.finish()?;
    Ok(Value::Bool(is_of_kind(d, &kind)?))
}

fn common_type(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mut float = DType::Float16;
    let mut complex = false;
    let mut any = false;
    for v in a.rest() {
        let d = match &v {
            Value::Array(x) => x.dtype(),
            other => {
                return Err(Error::type_(format!(
                    "common_type(): arguments must be arrays, not {}",
                    other.a_type_name()
                )));
            }
        };
        if d.is_bool() {
            return Err(Error::type_(
                "common_type(): can't get common type for non-numeric array (bool)",
            )
            .with_help("cast first: x.astype(float64)"));
        }
        any = true;
        complex |= d.is_complex();
        let f = if d.is_int() {
            DType::Float64
        } else {
            d.real_part()
        };
        float = float.max(f);
    }
    a.finish()?;
    if !any {
        return Ok(Value::DType(DType::Float16));
    }
    Ok(Value::DType(if complex {
        float.to_complex()
    } else {
        float
    }))
}

/// The smallest float dtype that holds `x` without overflow (NumPy's rule:
/// by magnitude only, precision may be lost).
fn min_float(x: f64) -> DType {
    let m = x.abs();
    if !m.is_finite() || m <= 65504.0 {
        DType::Float16
    } else if m <= f32::MAX as f64 {
        DType::Float32
    } else {
        DType::Float64
    }
}

fn min_scalar_type(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.req("a")?;
    a.finish()?;
    Ok(Value::DType(match v {
        Value::Bool(_) => DType::Bool,
        Value::Int(n) if i32::try_from(n).is_ok() => DType::Int32,
        Value::Int(_) => DType::Int64,
        Value::Float(x) => min_float(x),
        Value::Complex(re, im) => {
            if min_float(re).max(min_float(im)) == DType::Float64 {
                DType::Complex128
            } else {
                DType::Complex64
            }
        }
        Value::Array(x) => x.dtype(),
        other => dtype_of(&other, "min_scalar_type", "a")?,
    }))
}

fn is_complex_obj(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.dtype().is_complex(),
        Value::Complex(..) => true,
        Value::DType(_) => false,
        Value::List(_) | Value::Tuple(_) => {
            crate::array::create::value_to_array(v, None, DType::Float64)
                .is_ok_and(|a| a.dtype().is_complex())
        }
        _ => false,
    }
}

fn iscomplexobj(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::Bool(is_complex_obj(&x)))
}

fn isrealobj(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::Bool(!is_complex_obj(&x)))
}
