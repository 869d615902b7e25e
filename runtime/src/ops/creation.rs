//! Builtins that make arrays (`array zeros ones full empty eye identity arange
//! linspace *_like`) and read them back (`item tolist copy`), plus the argument
//! helpers (dtype, device, shape) the other array builtins share.

use crate::array::Array;
use crate::array::create::{Scalar, value_to_array};
use crate::array::index::Index;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

macro_rules! op {
    ($name:expr, $sig:expr, $doc:expr, $method:expr, $f:expr) => {
        OpDef {
            name: $name,
            sig: $sig,
            doc: $doc,
            method: $method,
            kind: OpKind::Func($f),
            grad: None,
        }
    };
    ($name:expr, $sig:expr, $doc:expr, $method:expr, $f:expr, grad: $g:expr) => {
        OpDef {
            name: $name,
            sig: $sig,
            doc: $doc,
            method: $method,
            kind: OpKind::Func($f),
            grad: Some($g),
        }
    };
}
pub(crate) use op;

pub static OPS: &[OpDef] = &[
    op!(
        "array",
        "array(values, dtype=none, device=none)",
        "An array from a number, a (nested) list or tuple, or an array (copied). Ints give int64, floats floatX, bools bool.",
        false,
        array
    ),
    op!(
        "zeros",
        "zeros(shape, dtype=floatX, device=none)",
        "An array of zeros; shape is an int or a tuple.",
        false,
        zeros
    ),
    op!(
        "ones",
        "ones(shape, dtype=floatX, device=none)",
        "An array of ones.",
        false,
        ones
    ),
    op!(
        "empty",
        "empty(shape, dtype=floatX, device=none)",
        "A new array (gcalc fills it with zeros).",
        false,
        empty
    ),
    op!(
        "full",
        "full(shape, value, dtype=none, device=none)",
        "An array filled with value (dtype from the value when not given: int64, floatX or bool).",
        false,
        full
    ),
    op!(
        "eye",
        "eye(n, m=none, k=0, dtype=floatX, device=none)",
        "An n x m array with ones on diagonal k (k > 0: above the main diagonal).",
        false,
        eye
    ),
    op!(
        "identity",
        "identity(n, dtype=floatX, device=none)",
        "The n x n identity matrix.",
        false,
        identity
    ),
    op!(
        "arange",
        "arange(stop) | arange(start, stop, step=1, dtype=none, device=none)",
        "Evenly spaced values in [start, stop): int64 for int arguments, floatX when any is a float.",
        false,
        arange
    ),
    op!(
        "linspace",
        "linspace(start, stop, num=50, endpoint=true, retstep=false, dtype=floatX, device=none)",
        "num evenly spaced values from start to stop (stop included unless endpoint=false); retstep=true gives (values, step).",
        false,
        linspace
    ),
    op!(
        "zeros_like",
        "zeros_like(x, dtype=none, device=none)",
        "Zeros with the shape, dtype and device of x.",
        false,
        zeros_like
    ),
    op!(
        "ones_like",
        "ones_like(x, dtype=none, device=none)",
        "Ones with the shape, dtype and device of x.",
        false,
        ones_like
    ),
    op!(
        "full_like",
        "full_like(x, value, dtype=none, device=none)",
        "value everywhere, with the shape, dtype and device of x.",
        false,
        full_like
    ),
    op!(
        "item",
        "x.item() | x.item(*index)",
        "The single element of a 0-d or size-1 array as a number or bool; x.item(k) the element at flat index k, x.item(i, j) the one at (i, j) (waits for the device).",
        true,
        item
    ),
    op!(
        "tolist",
        "x.tolist()",
        "The elements as nested lists of numbers (waits for the device).",
        true,
        tolist
    ),
    op!(
        "copy",
        "x.copy()",
        "A new array with the same elements, on the same device.",
        true,
        copy,
        grad: crate::autodiff::rules::copy
    ),
];

/// A dtype argument: `float32` (a dtype value) or `"float32"`.
pub fn dtype_arg(v: &Value) -> Result<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        // NumPy's `dtype=float`, `dtype=int`: Python's types are float64 and int64.
        Value::Builtin(def) if def.name == "float" => Ok(DType::Float64),
        Value::Builtin(def) if def.name == "int" => Ok(DType::Int64),
        Value::Builtin(def) if def.name == "complex" => Ok(DType::Complex128),
        Value::Str(s) => python_dtype_name(s)
            .or_else(|| DType::from_name(s))
            .or_else(|| crate::builtins::np_types::dtype_named(s))
            .ok_or_else(|| {
                if let Some(e) = crate::builtins::np_types::missing_dtype(s) {
                    return e;
                }
                Error::type_(format!("unknown dtype \"{s}\"")).with_help(
                    "dtypes: bool int32 int64 float16 float32 float64 complex64 complex128",
                )
            }),
        other => Err(Error::type_(format!(
            "dtype must be a dtype like float32, not {}",
            other.a_type_name()
        ))
        .with_help("dtypes: bool int32 int64 float16 float32 float64 complex64 complex128")),
    }
}

/// NumPy's other spellings of a dtype in a string: `"float"`, `"int"`,
/// `"double"`, `"f4"`, `"i8"`, `"?"`...
fn python_dtype_name(s: &str) -> Option<DType> {
    Some(match s {
        "float" | "double" | "f8" | "float_" => DType::Float64,
        "single" | "f4" => DType::Float32,
        "half" | "f2" => DType::Float16,
        "int" | "i8" | "long" | "int_" => DType::Int64,
        "i4" | "intc" => DType::Int32,
        "?" | "bool_" => DType::Bool,
        "complex" | "c16" | "complex_" | "cdouble" => DType::Complex128,
        "c8" | "csingle" => DType::Complex64,
        _ => return None,
    })
}

/// A device argument: `cpu()`, `gpu(0)`.
pub fn device_arg(v: &Value) -> Result<Device> {
    match v {
        Value::Device(d) => Ok(*d),
        other => Err(Error::type_(format!(
            "device must be a device like cpu() or gpu(), not {}",
            other.a_type_name()
        ))
        .with_help("e.g. device=gpu()")),
    }
}

fn size_arg(v: &Value, what: &str) -> Result<usize> {
    let i = crate::builtins::lang::int_arg(v, what)?;
    usize::try_from(i).map_err(|_| {
        Error::value(format!("{what} must not be negative, got {i}"))
            .with_help("sizes are 0 or more")
    })
}

/// A shape argument: an int or a tuple/list of ints.
pub fn shape_arg(v: &Value) -> Result<Vec<usize>> {
    match v {
        Value::Tuple(_) | Value::List(_) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|d| size_arg(d, "a dimension"))
            .collect(),
        other => Ok(vec![size_arg(other, "shape")?]),
    }
}

/// A shape given as one tuple/int or as several ints (`rand(2, 3)`).
pub fn shape_args(first: &Value, rest: Vec<Value>) -> Result<Vec<usize>> {
    let mut s = shape_arg(first)?;
    for v in rest {
        s.push(size_arg(&v, "a dimension")?);
    }
    Ok(s)
}

/// An array argument: arrays as they are, numbers and lists made into arrays.
pub fn array_arg(i: &Interp, v: &Value) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        other => value_to_array(other, None, i.float_x()),
    }
}

/// A scalar argument (a `full` value).
pub fn scalar_arg(v: &Value, what: &str) -> Result<Scalar> {
    match v {
        Value::Array(a) if a.size() == 1 => match a.item()? {
            Value::Bool(b) => Ok(Scalar::Bool(b)),
            Value::Int(i) => Ok(Scalar::Int(i)),
            Value::Float(f) => Ok(Scalar::Float(f)),
            Value::Complex(re, im) => Ok(Scalar::Complex(re, im)),
            _ => Err(Error::internal("item gave a non-scalar")),
        },
        other => Scalar::from_value(other).ok_or_else(|| {
            Error::type_(format!(
                "{what} must be a number or bool, not {}",
                other.a_type_name()
            ))
        }),
    }
}

/// The `dtype=` and `device=` keywords.
pub fn dtype_device(a: &mut Args) -> Result<(Option<DType>, Option<Device>)> {
    let d = a.kw("dtype").map(|v| dtype_arg(&v)).transpose()?;
    let dev = a.kw("device").map(|v| device_arg(&v)).transpose()?;
    Ok((d, dev))
}

/// `dtype` as NumPy's creation functions take it: the next positional
/// argument or the keyword (`zeros((2, 3), int32)`, `array(x, "float64")`);
/// `device` by keyword only. A number where the dtype goes is most often a
/// shape written as separate arguments (`ones(2, 3)`): the error says so.
pub fn dtype_device_positional(a: &mut Args) -> Result<(Option<DType>, Option<Device>)> {
    let d = match a.opt("dtype")? {
        None | Some(Value::None) => None,
        Some(v @ (Value::Int(_) | Value::Float(_))) => {
            return Err(Error::type_(format!(
                "{}() got {} where the dtype goes",
                a.name,
                v.a_type_name()
            ))
            .at(a.span)
            .with_help(format!(
                "a shape is one argument, a tuple: {}((2, 3)); the dtype comes after it",
                a.name
            )));
        }
        Some(v) => Some(dtype_arg(&v)?),
    };
    let dev = a.kw("device").map(|v| device_arg(&v)).transpose()?;
    Ok((d, dev))
}

fn array(i: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.req("values")?;
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["dtype", "device"])?;
    let dev = dev.unwrap_or_else(|| {
        if let Value::Array(x) = &v {
            x.device()
        } else {
            i.default_device()
        }
    });
    let arr = value_to_array(&v, dt, i.float_x())?;
    Ok(crate::backend::to_device(&arr, dev)?.into())
}

fn filled(i: &mut Interp, mut a: Args, value: Option<Scalar>) -> Result<Value> {
    let name = a.name;
    let shape = shape_arg(&a.req("shape")?)?;
    let inferred = value.is_none();
    let value = match value {
        Some(v) => v,
        None => match a.req("value")? {
            // NumPy's full(shape, [1, 2, 3]): the values broadcast to shape,
            // in their own dtype unless dtype= says otherwise.
            v @ (Value::List(_) | Value::Tuple(_) | Value::Array(_)) if !matches!(&v, Value::Array(x) if x.ndim() == 0) =>
            {
                let src = array_arg(i, &v)?;
                let (dt, dev) = dtype_device_positional(&mut a)?;
                a.finish_with(&["dtype", "device"])?;
                let dt = dt.unwrap_or(src.dtype());
                let dev = dev.unwrap_or_else(|| match &v {
                    Value::Array(x) => x.device(),
                    _ => i.default_device(),
                });
                let r = src.broadcast_to(&shape)?.astype(dt)?.contiguous()?;
                return Ok(crate::backend::to_device(&r, dev)?.into());
            }
            v => scalar_arg(&v, "value")?,
        },
    };
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["dtype", "device"])?;
    // full() takes its dtype from the value as NumPy does; zeros/ones/empty default to floatX.
    let dt = dt.unwrap_or(match value {
        Scalar::Bool(_) if inferred => DType::Bool,
        Scalar::Int(_) if inferred => DType::Int64,
        Scalar::Complex(..) if inferred => DType::Complex128,
        _ => i.float_x(),
    });
    if matches!(value, Scalar::Complex(..)) && !dt.is_complex() {
        return Err(crate::array::create::complex_into(dt, Some(name)));
    }
    if let (Scalar::Int(k), DType::Int32) = (value, dt)
        && i32::try_from(k).is_err()
    {
        return Err(crate::array::create::int32_overflow(k, Some(name)));
    }
    Ok(Array::full(&shape, value, dt, dev.unwrap_or_else(|| i.default_device()))?.into())
}

fn zeros(i: &mut Interp, a: Args) -> Result<Value> {
    filled(i, a, Some(Scalar::Float(0.0)))
}
fn ones(i: &mut Interp, a: Args) -> Result<Value> {
    filled(i, a, Some(Scalar::Float(1.0)))
}
fn empty(i: &mut Interp, a: Args) -> Result<Value> {
    filled(i, a, Some(Scalar::Float(0.0)))
}
fn full(i: &mut Interp, a: Args) -> Result<Value> {
    filled(i, a, None)
}

fn eye(i: &mut Interp, mut a: Args) -> Result<Value> {
    let n = size_arg(&a.req("n")?, "n")?;
    let m = match a.opt("m")? {
        None | Some(Value::None) => n,
        Some(v) => size_arg(&v, "m")?,
    };
    let k = a
        .opt("k")?
        .map(|v| crate::builtins::lang::int_arg(&v, "k"))
        .transpose()?
        .unwrap_or(0);
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["m", "k", "dtype", "device"])?;
    Ok(Array::eye(
        n,
        m,
        k,
        dt.unwrap_or(i.float_x()),
        dev.unwrap_or_else(|| i.default_device()),
    )?
    .into())
}

fn identity(i: &mut Interp, mut a: Args) -> Result<Value> {
    let n = size_arg(&a.req("n")?, "n")?;
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["dtype", "device"])?;
    Ok(Array::eye(
        n,
        n,
        0,
        dt.unwrap_or(i.float_x()),
        dev.unwrap_or_else(|| i.default_device()),
    )?
    .into())
}

fn arange(i: &mut Interp, mut a: Args) -> Result<Value> {
    // `arange(stop=5)`, as NumPy allows: the stop alone.
    let first = match a.opt("start")? {
        Some(v) => scalar_arg(&v, "start")?,
        None => scalar_arg(&a.req("stop")?, "stop")?,
    };
    let second = a.opt("stop")?.map(|v| scalar_arg(&v, "stop")).transpose()?;
    let step = a
        .opt("step")?
        .map(|v| scalar_arg(&v, "step"))
        .transpose()?
        .unwrap_or(Scalar::Int(1));
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["stop", "step", "dtype", "device"])?;
    let (start, stop) = match second {
        Some(s) => (first, s),
        None => (Scalar::Int(0), first),
    };
    if [start, stop, step]
        .iter()
        .any(|s| matches!(s, Scalar::Complex(..)))
    {
        return Err(
            Error::type_("arange: the bounds and step must be real numbers, not complex")
                .with_help("for evenly spaced complex values use linspace(start, stop, num)"),
        );
    }
    let any_float = [start, stop, step]
        .iter()
        .any(|s| matches!(s, Scalar::Float(_)));
    let dt = dt.unwrap_or(if any_float { i.float_x() } else { DType::Int64 });
    let dev = dev.unwrap_or_else(|| i.default_device());
    Ok(Array::arange(start.as_f64(), stop.as_f64(), step.as_f64(), dt, dev)?.into())
}

fn linspace(i: &mut Interp, mut a: Args) -> Result<Value> {
    let start = scalar_arg(&a.req("start")?, "start")?;
    let stop = scalar_arg(&a.req("stop")?, "stop")?;
    let num = a
        .opt("num")?
        .map(|v| size_arg(&v, "num"))
        .transpose()?
        .unwrap_or(50);
    let endpoint = true_or_false(a.opt("endpoint")?, "endpoint", true)?;
    let retstep = true_or_false(a.opt("retstep")?, "retstep", false)?;
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["num", "endpoint", "retstep", "dtype", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    if let (Scalar::Complex(..), _) | (_, Scalar::Complex(..)) = (start, stop) {
        if retstep {
            return Err(Error::value(
                "linspace: retstep=true is not supported between complex ends",
            )
            .with_help("the step is (stop - start) / (num - 1)"));
        }
        return complex_linspace(i, start, stop, num, endpoint, dt, dev);
    }
    let (start, stop) = (start.as_f64(), stop.as_f64());
    let v: Value =
        Array::linspace(start, stop, num, endpoint, dt.unwrap_or(i.float_x()), dev)?.into();
    if !retstep {
        return Ok(v);
    }
    // NumPy's step: over num - 1 gaps (num with endpoint=false); nan when there are none.
    let gaps = if endpoint { num.saturating_sub(1) } else { num };
    let step = if gaps == 0 {
        f64::NAN
    } else {
        (stop - start) / gaps as f64
    };
    Ok(Value::tuple(vec![v, Value::Float(step)]))
}

/// `linspace` between complex ends, as NumPy: the real and imaginary parts
/// spaced apart (in the complex dtype's float), joined into a complex array.
fn complex_linspace(
    i: &mut Interp,
    start: Scalar,
    stop: Scalar,
    num: usize,
    endpoint: bool,
    dt: Option<DType>,
    dev: Device,
) -> Result<Value> {
    let parts = |s: Scalar| match s {
        Scalar::Complex(re, im) => (re, im),
        s => (s.as_f64(), 0.0),
    };
    let ((r0, i0), (r1, i1)) = (parts(start), parts(stop));
    let dt = dt.unwrap_or(DType::Complex128);
    if !dt.is_complex() {
        return Err(crate::array::create::complex_into(dt, Some("linspace")));
    }
    let real = if dt == DType::Complex64 {
        DType::Float32
    } else {
        DType::Float64
    };
    let re = Array::linspace(r0, r1, num, endpoint, real, dev)?;
    let im = Array::linspace(i0, i1, num, endpoint, real, dev)?;
    let im = super::stats::call_op(
        i,
        "multiply",
        vec![im.into(), Value::Complex(0.0, 1.0)],
        vec![],
    )?;
    super::stats::call_op(i, "add", vec![re.into(), im], vec![])
}

/// A flag argument: `default` when absent, an error when not a bool.
fn true_or_false(v: Option<Value>, name: &str, default: bool) -> Result<bool> {
    crate::ops::stat_args::flag_with(v, default, |other| {
        Error::type_(format!(
            "{name} must be true or false, not {}",
            other.a_type_name()
        ))
    })
}

fn like(i: &mut Interp, mut a: Args, value: Option<Scalar>) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let value = match value {
        Some(v) => v,
        None => scalar_arg(&a.req("value")?, "value")?,
    };
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["dtype", "device"])?;
    Ok(Array::full(
        x.shape(),
        value,
        dt.unwrap_or(x.dtype()),
        dev.unwrap_or(x.device()),
    )?
    .into())
}

fn zeros_like(i: &mut Interp, a: Args) -> Result<Value> {
    like(i, a, Some(Scalar::Int(0)))
}
fn ones_like(i: &mut Interp, a: Args) -> Result<Value> {
    like(i, a, Some(Scalar::Int(1)))
}
fn full_like(i: &mut Interp, a: Args) -> Result<Value> {
    like(i, a, None)
}

/// NumPy's `x.item()`, `x.item(k)` (flat index k, negative from the end)
/// and `x.item(i, j)` / `x.item((i, j))` (one index per dimension).
fn item(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    let mut rest = a.rest();
    a.finish()?;
    if let [t @ Value::Tuple(_)] = rest.as_slice() {
        rest = t.seq_items().map(|t| t.to_vec()).unwrap_or_default();
    }
    let ints = rest
        .iter()
        .map(|v| match v {
            Value::Int(k) => Ok(*k),
            v => Err(
                Error::type_(format!("item() takes int indices, got {}", v.a_type_name()))
                    .with_op("item"),
            ),
        })
        .collect::<Result<Vec<i64>>>()?;
    let idx: Vec<Index> = ints.iter().map(|&k| Index::Int(k)).collect();
    match ints.len() {
        0 => x.item(),
        1 => x
            .ravel()?
            .index(&idx)
            .map_err(|e| e.with_op("item"))?
            .item(),
        n if n == x.ndim() => x.index(&idx).map_err(|e| e.with_op("item"))?.item(),
        n => Err(Error::value(format!(
            "item() got {n} indices for an array of {} dimensions",
            x.ndim()
        ))
        .with_op("item")
        .with_help("give one flat index, or one index per dimension")),
    }
}

fn tolist(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    a.finish()?;
    x.tolist()
}

fn copy(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(i, &a.req("x")?)?;
    a.finish()?;
    Ok(x.copy()?.into())
}
