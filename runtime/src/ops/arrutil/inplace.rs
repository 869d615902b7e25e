//! NumPy's in-place helpers `fill_diagonal`, `putmask` and `copyto(dst,
//! src, where=)`: each writes through the language's index assignment, so
//! every name bound to the array (and every view of it) sees the change,
//! and a GPU array is written on the GPU.

use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::op;
use crate::ops::nparr::{arr, astype, call, cyclic, data_on, host_i64, ravel, reshape, value_err};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "fill_diagonal",
        "fill_diagonal(a, val, wrap=false)",
        "In place: the main diagonal of a (2-d, or n-d with equal sizes) set to val (a number or values repeated cyclically along the diagonal); wrap=true continues a tall matrix's diagonal every ncols+1 rows, as NumPy. Gives none.",
        false,
        fill_diagonal
    ),
    op!(
        "putmask",
        "putmask(a, mask, values)",
        "In place: a.flat[n] = values.flat[n % len(values)] wherever mask (a's size) is true, so values repeat cyclically by position in a; empty values change nothing. Gives none.",
        false,
        putmask
    ),
];

/// The array an in-place helper writes into.
fn target(v: Value, name: &str, what: &str) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        v => Err(Error::type_(format!(
            "{name}: `{what}` must be an array to write into, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("make it an array first: x = array(...)")),
    }
}

fn fill_diagonal(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "fill_diagonal";
    let x = target(a.req("a")?, name, "a")?;
    let val = a.req("val")?;
    let wrap = match a.opt("wrap")? {
        None => false,
        Some(v) => i.truthy(&v)?,
    };
    a.finish_with(&["wrap"])?;
    let shape = x.shape().to_vec();
    if shape.len() < 2 {
        return Err(value_err(
            name,
            "array must be at least 2-d".into(),
            "give a matrix (or an n-d array with equal sizes)",
        ));
    }
    let size = x.size();
    let (step, end) = if shape.len() == 2 {
        let step = shape[1] + 1;
        let end = if wrap {
            size
        } else {
            (shape[1] * shape[1]).min(size)
        };
        (step, end)
    } else {
        if shape.iter().any(|&d| d != shape[0]) {
            return Err(value_err(
                name,
                format!("All dimensions of input must be of equal length (shape {shape:?})"),
                "give an array whose axes all have one size",
            ));
        }
        // 1 + the sum of the C strides of all but the last axis.
        let mut step = 1;
        let mut p = 1;
        for &d in shape.iter().take(shape.len() - 1) {
            p *= d;
            step += p;
        }
        (step, size)
    };
    let flat: Vec<i64> = (0..end).step_by(step.max(1)).map(|k| k as i64).collect();
    if flat.is_empty() {
        return Ok(Value::None);
    }
    let m = flat.len();
    let ind = host_i64(flat, &[m], crate::device::Device::Cpu)?;
    call(i, span, "put", vec![x.into(), ind.into(), val], vec![])?;
    Ok(Value::None)
}

fn putmask(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "putmask";
    let x = target(a.req("a")?, name, "a")?;
    let mask = data_on(i, a.req("mask")?, x.device(), name, "mask")?;
    let valv = a.req("values")?;
    a.finish()?;
    // NumPy converts literals to a's dtype, but casts arrays only safely.
    if let Value::Array(v) = &valv
        && !cast_ok(v.dtype(), x.dtype(), "safe", true)
    {
        return Err(Error::type_(format!(
            "{name}: Cannot cast array data from dtype('{}') to dtype('{}') according to the rule 'safe'",
            v.dtype().name(),
            x.dtype().name()
        ))
        .with_op(name)
        .with_help(format!("give values as {} (values.astype(...))", x.dtype().name())));
    }
    let vals = data_on(i, valv, x.device(), name, "values")?;
    if mask.size() != x.size() {
        return Err(value_err(
            name,
            format!(
                "mask and data must be the same size (mask {:?}, a {:?})",
                mask.shape(),
                x.shape()
            ),
            "give a mask with a's shape",
        ));
    }
    // NumPy: empty values (or an empty a) change nothing.
    if x.size() == 0 || vals.size() == 0 {
        return Ok(Value::None);
    }
    let mask = astype(i, span, &mask, DType::Bool)?;
    let mask = reshape(i, span, &mask, x.shape())?;
    let flat = ravel(i, span, &vals)?;
    let cyc = cyclic(i, span, &flat, x.size())?;
    let cyc = astype(i, span, &cyc, x.dtype())?;
    let cyc = reshape(i, span, &cyc, x.shape())?;
    let merged = arr(
        i,
        span,
        "where",
        vec![mask.into(), cyc.into(), x.clone().into()],
        vec![],
    )?;
    let merged = astype(i, span, &merged, x.dtype())?;
    i.assign_index(&x, &[Index::Ellipsis], &Value::Array(merged))?;
    Ok(Value::None)
}

/// copyto's NumPy keywords (the device form has only `device`).
const NUMPY_KEYWORDS: &[&str] = &["src", "casting", "where", "dst"];

/// Whether a `copyto` call is NumPy's (an array or number as the second
/// argument, or one of its keywords) rather than `x.copyto(device)`.
pub fn numpy_form(a: &Args) -> bool {
    let kw = |k: &str| a.kw.iter().find(|(n, _)| n.as_str() == k).map(|(_, v)| v);
    let second = a.pos.get(1).or_else(|| kw(NUMPY_KEYWORDS[0]));
    !matches!(second, Some(Value::Device(_) | Value::Str(_)) | None)
        || a.kw
            .iter()
            .any(|(k, _)| NUMPY_KEYWORDS.contains(&k.as_str()))
}

/// NumPy's `copyto(dst, src, casting="same_kind", where=true)`: dst's
/// elements where `where` is true replaced by src broadcast to dst's shape.
/// Called by the `copyto` builtin when its second argument is not a device.
pub fn copyto_numpy(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "copyto";
    let dst = target(a.req("dst")?, name, "dst")?;
    let srcv = a.req("src")?;
    let casting = match a.opt("casting")? {
        None => "same_kind".to_string(),
        Some(Value::Str(s)) => s.to_string(),
        Some(v) => {
            return Err(Error::type_(format!(
                "copyto: casting must be a string, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    let wherev = a.opt("where")?;
    a.finish_with(&["casting", "where"])?;
    let d = dst.dtype();
    let src_kind = match &srcv {
        Value::Array(s) => Some(s.dtype()),
        Value::Float(_) => Some(DType::Float64),
        Value::Complex(..) => Some(DType::Complex128),
        _ => None,
    };
    if let Some(sd) = src_kind
        && !cast_ok(sd, d, &casting, matches!(srcv, Value::Array(_)))
    {
        return Err(Error::type_(format!(
            "copyto: Cannot cast array data from dtype('{}') to dtype('{}') according to the rule '{casting}'",
            sd.name(),
            d.name()
        ))
        .with_op(name)
        .with_help("cast src first (src.astype(dst.dtype)) or give casting=\"unsafe\""));
    }
    let src = data_on(i, srcv, dst.device(), name, "src")?;
    // NumPy drops src's leading size-1 dims beyond dst's ndim.
    let lead = src.ndim().saturating_sub(dst.ndim());
    let src = if lead > 0 && src.shape()[..lead].iter().all(|&d| d == 1) {
        let s = src.shape()[lead..].to_vec();
        reshape(i, span, &src, &s)?
    } else {
        src
    };
    let src = src.broadcast_to(dst.shape()).map_err(|_| {
        value_err(
            name,
            format!(
                "could not broadcast input array from shape {:?} into shape {:?}",
                src.shape(),
                dst.shape()
            ),
            "give src a shape that broadcasts to dst's",
        )
    })?;
    let src = astype(i, span, &src, d)?;
    let merged = match wherev {
        None | Some(Value::Bool(true)) => src,
        Some(Value::Bool(false)) => return Ok(Value::None),
        Some(w) => {
            let w = data_on(i, w, dst.device(), name, "where")?;
            if w.dtype() != DType::Bool {
                return Err(Error::type_(format!(
                    "copyto: where must be a bool array, got {}",
                    w.dtype().name()
                ))
                .with_op(name)
                .with_help("give a condition such as x > 0"));
            }
            let w = w.broadcast_to(dst.shape()).map_err(|_| {
                value_err(
                    name,
                    format!(
                        "where of shape {:?} does not broadcast to dst's {:?}",
                        w.shape(),
                        dst.shape()
                    ),
                    "give where a shape that broadcasts to dst's",
                )
            })?;
            let m = arr(
                i,
                span,
                "where",
                vec![w.into(), src.into(), dst.clone().into()],
                vec![],
            )?;
            astype(i, span, &m, d)?
        }
    };
    i.assign_index(&dst, &[Index::Ellipsis], &Value::Array(merged))?;
    Ok(Value::None)
}

/// NumPy's `can_cast(from, to, casting)`; a Python float/complex (not an
/// array) is judged by its kind only (NEP 50).
fn cast_ok(from: DType, to: DType, casting: &str, is_array: bool) -> bool {
    let rank = |d: DType| match d {
        DType::Bool => 0,
        DType::Int32 | DType::Int64 => 1,
        DType::Float16 | DType::Float32 | DType::Float64 => 2,
        DType::Complex64 | DType::Complex128 => 3,
    };
    match casting {
        "unsafe" => true,
        "no" | "equiv" => from == to,
        "safe" if is_array => {
            use DType::*;
            from == to
                || matches!(
                    (from, to),
                    (Bool, _)
                        | (Int32, Int64 | Float64 | Complex128)
                        | (Int64, Float64 | Complex128)
                        | (Float16, Float32 | Float64 | Complex64 | Complex128)
                        | (Float32, Float64 | Complex64 | Complex128)
                        | (Float64 | Complex64, Complex128)
                )
        }
        _ => rank(from) <= rank(to),
    }
}
