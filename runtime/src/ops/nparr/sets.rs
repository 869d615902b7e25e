//! NumPy 2's set functions and index helpers gcalc lacked: `intersect1d
//! union1d setdiff1d setxor1d unique_values unique_counts unique_inverse
//! unique_all lexsort unravel_index ravel_multi_index`, written as NumPy
//! writes them (unique, a stable sort, adjacent comparisons, a mask) from
//! table ops, so they run on every device. A masked selection's size is
//! data-dependent: it reads one count back from a GPU (as indexing by a
//! mask does). The index helpers' range checks read a min and a max back.

use super::{
    arr, astype, call, data, data_on, int_list, items, norm_axis, ravel, tuple_of, value_err,
};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::assemble::IndexMode;
use crate::ops::creation::op;
use crate::ops::linalg_calls::Calls;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "intersect1d",
        "intersect1d(ar1, ar2, assume_unique=false, return_indices=false)",
        "The sorted values found in both arrays (flattened); with return_indices=true, (values, positions in ar1, positions in ar2) of their first occurrences.",
        false,
        intersect1d
    ),
    op!(
        "union1d",
        "union1d(ar1, ar2)",
        "The sorted distinct values found in either array (flattened).",
        false,
        union1d
    ),
    op!(
        "setdiff1d",
        "setdiff1d(ar1, ar2, assume_unique=false)",
        "The sorted distinct values of ar1 that are not in ar2 (ar1 as it is, flattened, with assume_unique=true).",
        false,
        setdiff1d
    ),
    op!(
        "setxor1d",
        "setxor1d(ar1, ar2, assume_unique=false)",
        "The sorted values found in exactly one of the arrays (flattened).",
        false,
        setxor1d
    ),
    op!(
        "unique_values",
        "unique_values(x)",
        "The sorted distinct elements of x (flattened); every nan counts as distinct (the array API's rule, equal_nan=false).",
        false,
        |i, a| unique_parts(i, a, &[])
    ),
    op!(
        "unique_counts",
        "unique_counts(x)",
        "A tuple (values, counts): the sorted distinct elements of x and how often each occurs (nans distinct).",
        false,
        |i, a| unique_parts(i, a, &["return_counts"])
    ),
    op!(
        "unique_inverse",
        "unique_inverse(x)",
        "A tuple (values, inverse_indices): the sorted distinct elements of x and, in x's shape, each element's position among them (nans distinct).",
        false,
        |i, a| unique_parts(i, a, &["return_inverse"])
    ),
    op!(
        "unique_all",
        "unique_all(x)",
        "A tuple (values, indices, inverse_indices, counts): the sorted distinct elements of x, the position of each one's first occurrence, each element's position among them (x's shape), each one's count (nans distinct).",
        false,
        |i, a| unique_parts(i, a, &["return_index", "return_inverse", "return_counts"])
    ),
    op!(
        "lexsort",
        "lexsort(keys, axis=-1)",
        "The int64 positions that sort by several keys (a list of arrays of one shape, or the rows of a 2-d array): the last key is the primary one; stable, nans last.",
        false,
        lexsort
    ),
    op!(
        "unravel_index",
        "unravel_index(indices, shape, order=\"C\")",
        "A tuple of int64 arrays (indices' shape): the coordinates in an array of shape of each flat position (C or F order); a position outside the array is an error.",
        false,
        unravel_index
    ),
    op!(
        "ravel_multi_index",
        "ravel_multi_index(multi_index, dims, mode=\"raise\", order=\"C\")",
        "The int64 flat positions of coordinate arrays (a tuple, one per dim, broadcast together) in an array of shape dims; mode \"raise\", \"wrap\" or \"clip\" (one, or one per dim).",
        false,
        ravel_multi_index
    ),
];

fn flag(v: Option<Value>, what: &str, name: &str) -> Result<bool> {
    crate::ops::stat_args::flag(v, what, name, false)
}

fn unique(i: &mut Interp, span: Span, x: &Array, kw: &[&str]) -> Result<Vec<Array>> {
    let kws: Vec<(&str, Value)> = kw.iter().map(|k| (*k, Value::Bool(true))).collect();
    let v = call(i, span, "unique", vec![x.clone().into()], kws)?;
    if kw.is_empty() {
        return Ok(vec![super::as_array(v)?]);
    }
    items(v, "unique")?
        .into_iter()
        .map(super::as_array)
        .collect()
}

fn unique_parts(i: &mut Interp, mut a: Args, kw: &[&str]) -> Result<Value> {
    let span = a.span;
    let x = data(i, a.req("x")?, a.name, "x")?;
    a.finish()?;
    let mut kws: Vec<(&str, Value)> = kw.iter().map(|k| (*k, Value::Bool(true))).collect();
    kws.push(("equal_nan", Value::Bool(false)));
    call(i, span, "unique", vec![x.into()], kws)
}

fn slice(
    i: &mut Interp,
    span: Span,
    x: &Array,
    start: Option<i64>,
    stop: Option<i64>,
) -> Result<Array> {
    Calls::new(i, span).index(
        x,
        &[Index::Slice {
            start,
            stop,
            step: None,
        }],
    )
}

fn masked(i: &mut Interp, span: Span, x: &Array, m: &Array) -> Result<Array> {
    Calls::new(i, span).index(x, &[Index::Array(m.clone())])
}

fn concat(i: &mut Interp, span: Span, xs: Vec<Array>) -> Result<Array> {
    arr(
        i,
        span,
        "concatenate",
        vec![Value::list(xs.into_iter().map(Value::Array).collect())],
        vec![],
    )
}

fn two(i: &mut Interp, a: &mut Args, name: &str) -> Result<(Array, Array)> {
    let (x, y) = (a.req("ar1")?, a.req("ar2")?);
    super::pair(i, x, y, name, ("ar1", "ar2"))
}

fn intersect1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "intersect1d";
    let (x, y) = two(i, &mut a, name)?;
    let assume_unique = flag(a.opt("assume_unique")?, "assume_unique", name)?;
    let return_indices = flag(a.opt("return_indices")?, "return_indices", name)?;
    a.finish_with(&["assume_unique", "return_indices"])?;
    let (x, y, ind) = if assume_unique {
        (ravel(i, span, &x)?, ravel(i, span, &y)?, None)
    } else if return_indices {
        let ux = unique(i, span, &x, &["return_index"])?;
        let uy = unique(i, span, &y, &["return_index"])?;
        (
            ux[0].clone(),
            uy[0].clone(),
            Some((ux[1].clone(), uy[1].clone())),
        )
    } else {
        (
            unique(i, span, &x, &[])?.remove(0),
            unique(i, span, &y, &[])?.remove(0),
            None,
        )
    };
    let nx = x.size() as i64;
    let aux = concat(i, span, vec![x, y])?;
    let (aux, order) = if return_indices {
        let o = arr(i, span, "argsort", vec![aux.clone().into()], vec![])?;
        (
            arr(i, span, "take", vec![aux.into(), o.clone().into()], vec![])?,
            Some(o),
        )
    } else {
        (arr(i, span, "sort", vec![aux.into()], vec![])?, None)
    };
    let hi = slice(i, span, &aux, Some(1), None)?;
    let lo = slice(i, span, &aux, None, Some(-1))?;
    let mask = arr(i, span, "equal", vec![hi.into(), lo.clone().into()], vec![])?;
    let int1d = masked(i, span, &lo, &mask)?;
    let Some(o) = order else {
        return Ok(Value::Array(int1d));
    };
    let o_lo = slice(i, span, &o, None, Some(-1))?;
    let o_hi = slice(i, span, &o, Some(1), None)?;
    let mut i1 = masked(i, span, &o_lo, &mask)?;
    let i2 = masked(i, span, &o_hi, &mask)?;
    let mut i2 = arr(i, span, "subtract", vec![i2.into(), Value::Int(nx)], vec![])?;
    if let Some((ix, iy)) = ind {
        i1 = arr(i, span, "take", vec![ix.into(), i1.into()], vec![])?;
        i2 = arr(i, span, "take", vec![iy.into(), i2.into()], vec![])?;
    }
    Ok(tuple_of(vec![int1d, i1, i2]))
}

fn union1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "union1d";
    let (x, y) = two(i, &mut a, name)?;
    a.finish()?;
    let (x, y) = (ravel(i, span, &x)?, ravel(i, span, &y)?);
    let aux = concat(i, span, vec![x, y])?;
    Ok(Value::Array(unique(i, span, &aux, &[])?.remove(0)))
}

fn setdiff1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "setdiff1d";
    let (x, y) = two(i, &mut a, name)?;
    let assume_unique = flag(a.opt("assume_unique")?, "assume_unique", name)?;
    a.finish_with(&["assume_unique"])?;
    let (x, y) = if assume_unique {
        (ravel(i, span, &x)?, y)
    } else {
        (
            unique(i, span, &x, &[])?.remove(0),
            unique(i, span, &y, &[])?.remove(0),
        )
    };
    let keep = arr(
        i,
        span,
        "isin",
        vec![x.clone().into(), y.into()],
        vec![("invert", Value::Bool(true))],
    )?;
    Ok(Value::Array(masked(i, span, &x, &keep)?))
}

fn setxor1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "setxor1d";
    let (x, y) = two(i, &mut a, name)?;
    let assume_unique = flag(a.opt("assume_unique")?, "assume_unique", name)?;
    a.finish_with(&["assume_unique"])?;
    let (x, y) = if assume_unique {
        (ravel(i, span, &x)?, ravel(i, span, &y)?)
    } else {
        (
            unique(i, span, &x, &[])?.remove(0),
            unique(i, span, &y, &[])?.remove(0),
        )
    };
    let aux = concat(i, span, vec![x, y])?;
    if aux.size() == 0 {
        return Ok(Value::Array(aux));
    }
    let aux = arr(i, span, "sort", vec![aux.into()], vec![])?;
    let hi = slice(i, span, &aux, Some(1), None)?;
    let lo = slice(i, span, &aux, None, Some(-1))?;
    let ne = arr(i, span, "not_equal", vec![hi.into(), lo.into()], vec![])?;
    let t = Array::full(
        &[1],
        crate::array::Scalar::Bool(true),
        DType::Bool,
        aux.device(),
    )?;
    let fl = concat(i, span, vec![t.clone(), ne, t])?;
    let f_hi = slice(i, span, &fl, Some(1), None)?;
    let f_lo = slice(i, span, &fl, None, Some(-1))?;
    let keep = arr(
        i,
        span,
        "logical_and",
        vec![f_hi.into(), f_lo.into()],
        vec![],
    )?;
    Ok(Value::Array(masked(i, span, &aux, &keep)?))
}

fn lexsort(i: &mut Interp, mut a: Args) -> Result<Value> {
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

fn min_max(i: &mut Interp, span: Span, x: &Array) -> Result<(i64, i64)> {
    let lo = arr(i, span, "min", vec![x.clone().into()], vec![])?.to_vec::<i64>()?[0];
    let hi = arr(i, span, "max", vec![x.clone().into()], vec![])?.to_vec::<i64>()?[0];
    Ok((lo, hi))
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

fn unravel_index(i: &mut Interp, mut a: Args) -> Result<Value> {
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

fn ravel_multi_index(i: &mut Interp, mut a: Args) -> Result<Value> {
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
