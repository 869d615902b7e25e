//! NumPy's index helpers: `lexsort` (stable argsorts, the last key
//! primary), `unravel_index` and `ravel_multi_index` (floor divisions,
//! moduli and products of int arrays on their device; mode "raise" reads
//! one min and one max back to check the range).

use super::{arr, astype, data, data_on, int_list, min_max, norm_axis, tuple_of, value_err};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::assemble::IndexMode;
use crate::ops::linalg_calls::Calls;
use crate::value::Value;

pub(super) fn lexsort(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "lexsort";
    let kv = a.req("keys")?;
    let axis = a.opt("axis")?;
    a.finish_with(&["axis"])?;
    let keys: Vec<Array> = match kv {
        Value::Array(k) if k.ndim() >= 1 => (0..k.shape()[0])
            .map(|j| Calls::new(i, span).index(&k, &[Index::Int(j as i64)]))
            .collect::<Result<_>>()?,
        Value::Array(k) => vec![k],
        v @ (Value::List(_) | Value::Tuple(_)) => {
            let its = v.seq_items().unwrap_or_default();
            let mut out: Vec<Array> = Vec::with_capacity(its.len());
            for it in its.iter() {
                let k = match out.first() {
                    Some(f) => data_on(i, it.clone(), f.device(), name, "keys")?,
                    None => data(i, it.clone(), name, "keys")?,
                };
                out.push(k);
            }
            out
        }
        v => {
            return Err(Error::type_(format!(
                "{name}: keys must be a list of arrays, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    if keys.is_empty() {
        return Err(Error::type_(format!(
            "{name}: need sequence of keys with len > 0 in lexsort"
        ))
        .with_op(name)
        .with_help("give at least one key"));
    }
    let shape = keys[0].shape().to_vec();
    if keys.iter().any(|k| k.shape() != shape.as_slice()) {
        return Err(value_err(
            name,
            "all keys need to be the same shape".into(),
            "give keys of one shape",
        ));
    }
    let axis = match axis {
        None => -1,
        Some(v) => super::int(&v, name, "axis")?,
    };
    if shape.is_empty() {
        return Ok(Value::Array(Array::zeros(
            &[],
            DType::Int64,
            keys[0].device(),
        )?));
    }
    let ax = Value::Int(norm_axis(axis, shape.len(), name)? as i64);
    let mut idx = arr(
        i,
        span,
        "argsort",
        vec![keys[0].clone().into()],
        vec![("axis", ax.clone())],
    )?;
    for k in &keys[1..] {
        let kp = arr(
            i,
            span,
            "take_along_axis",
            vec![k.clone().into(), idx.clone().into()],
            vec![("axis", ax.clone())],
        )?;
        let o = arr(
            i,
            span,
            "argsort",
            vec![kp.into()],
            vec![("axis", ax.clone())],
        )?;
        idx = arr(
            i,
            span,
            "take_along_axis",
            vec![idx.into(), o.into()],
            vec![("axis", ax.clone())],
        )?;
    }
    Ok(Value::Array(idx))
}

fn order_arg(v: Option<Value>, name: &str) -> Result<bool> {
    match v {
        None => Ok(false),
        Some(Value::Str(s)) if &*s == "C" => Ok(false),
        Some(Value::Str(s)) if &*s == "F" => Ok(true),
        Some(v) => Err(value_err(
            name,
            format!(
                "only 'C' or 'F' order is permitted, got {}",
                match &v {
                    Value::Str(s) => format!("\"{s}\""),
                    v => v.a_type_name().to_string(),
                }
            ),
            "order=\"C\" or order=\"F\"",
        )),
    }
}

fn int_array(i: &mut Interp, v: Value, name: &str, what: &str) -> Result<Array> {
    let x = data(i, v, name, what)?;
    if x.dtype().is_float() {
        return Err(Error::type_(format!(
            "{name}: only int indices permitted, {what} is {}",
            x.dtype().name()
        ))
        .with_op(name)
        .with_help("give int positions (x.astype(int64))"));
    }
    Ok(x)
}

fn dims_arg(v: &Value, name: &str) -> Result<Vec<i64>> {
    let d = int_list(v, name, "shape")?;
    if let Some(&bad) = d.iter().find(|&&k| k < 0) {
        return Err(value_err(
            name,
            format!("dimensions must be non-negative, got {bad}"),
            "give sizes >= 0",
        ));
    }
    Ok(d)
}

pub(super) fn unravel_index(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "unravel_index";
    let x = int_array(i, a.req("indices")?, name, "indices")?;
    let dims = dims_arg(&a.req("shape")?, name)?;
    let fortran = order_arg(a.opt("order")?, name)?;
    a.finish_with(&["order"])?;
    let size: i64 = dims.iter().product();
    let x = astype(i, span, &x, DType::Int64)?;
    if x.size() > 0 {
        let (lo, hi) = min_max(i, span, &x)?;
        if lo < 0 || hi >= size {
            let bad = if lo < 0 { lo } else { hi };
            return Err(value_err(
                name,
                format!("index {bad} is out of bounds for array with size {size}"),
                "positions go from 0 to size - 1",
            ));
        }
    }
    let nd = dims.len();
    let mut out = vec![None; nd];
    let mut r = x;
    let walk: Vec<usize> = if fortran {
        (0..nd).collect()
    } else {
        (0..nd).rev().collect()
    };
    for ax in walk {
        let d = dims[ax].max(1);
        out[ax] = Some(arr(
            i,
            span,
            "mod",
            vec![r.clone().into(), Value::Int(d)],
            vec![],
        )?);
        r = arr(
            i,
            span,
            "floor_divide",
            vec![r.into(), Value::Int(d)],
            vec![],
        )?;
    }
    Ok(tuple_of(out.into_iter().flatten().collect()))
}

pub(super) fn ravel_multi_index(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "ravel_multi_index";
    let mv = a.req("multi_index")?;
    let dims = dims_arg(&a.req("dims")?, name)?;
    let modev = a.opt("mode")?;
    let fortran = order_arg(a.opt("order")?, name)?;
    a.finish_with(&["mode", "order"])?;
    let coords: Vec<Value> = match &mv {
        Value::List(_) | Value::Tuple(_) => {
            mv.seq_items().unwrap_or_default().iter().cloned().collect()
        }
        Value::Array(x) if x.ndim() >= 1 => (0..x.shape()[0])
            .map(|j| {
                Calls::new(i, span)
                    .index(x, &[Index::Int(j as i64)])
                    .map(Value::Array)
            })
            .collect::<Result<_>>()?,
        v => {
            return Err(Error::type_(format!(
                "{name}: multi_index must be a tuple of int arrays, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    if coords.len() != dims.len() {
        return Err(value_err(
            name,
            format!(
                "parameter multi_index must be a sequence of length {}, got {}",
                dims.len(),
                coords.len()
            ),
            "give one coordinate array per dim",
        ));
    }
    let modes: Vec<IndexMode> = match modev {
        Some(v @ (Value::List(_) | Value::Tuple(_))) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|m| super::pick::mode_arg(Some(m.clone()), name))
            .collect::<Result<_>>()?,
        m => vec![super::pick::mode_arg(m, name)?; dims.len()],
    };
    if modes.len() != dims.len() {
        return Err(value_err(
            name,
            format!("{} modes for {} dims", modes.len(), dims.len()),
            "give one mode, or one per dim",
        ));
    }
    let nd = dims.len();
    let mut strides = vec![1i64; nd];
    let walk: Vec<usize> = if fortran {
        (0..nd).collect()
    } else {
        (0..nd).rev().collect()
    };
    let mut s = 1i64;
    for &ax in &walk {
        strides[ax] = s;
        s = s.saturating_mul(dims[ax]);
    }
    let mut acc: Option<Array> = None;
    let mut dev = None;
    for (ax, c) in coords.into_iter().enumerate() {
        let c = match dev {
            Some(d) => data_on(i, c, d, name, "multi_index")?,
            None => int_array(i, c, name, "multi_index")?,
        };
        if c.dtype().is_float() {
            return Err(Error::type_(format!("{name}: only int indices permitted")).with_op(name));
        }
        dev = Some(c.device());
        let c = astype(i, span, &c, DType::Int64)?;
        let d = dims[ax];
        let c = match modes[ax] {
            IndexMode::Raise => {
                if c.size() > 0 {
                    let (lo, hi) = min_max(i, span, &c)?;
                    if lo < 0 || hi >= d {
                        return Err(value_err(
                            name,
                            "invalid entry in coordinates array".into(),
                            "use mode=\"wrap\" or mode=\"clip\", or fix the coordinates",
                        ));
                    }
                }
                c
            }
            IndexMode::Wrap => arr(i, span, "mod", vec![c.into(), Value::Int(d.max(1))], vec![])?,
            IndexMode::Clip => arr(
                i,
                span,
                "clip",
                vec![c.into(), Value::Int(0), Value::Int((d - 1).max(0))],
                vec![],
            )?,
        };
        let t = arr(
            i,
            span,
            "multiply",
            vec![c.into(), Value::Int(strides[ax])],
            vec![],
        )?;
        acc = Some(match acc {
            None => t,
            Some(p) => arr(i, span, "add", vec![p.into(), t.into()], vec![])?,
        });
    }
    match acc {
        Some(x) => Ok(Value::Array(x)),
        None => Err(value_err(
            name,
            "needs at least one dim".into(),
            "give dims",
        )),
    }
}
