//! NumPy's index and grid builders: `tri`, `tril_indices triu_indices`
//! (+ `_from`), `diag_indices` (+ `_from`), `diagflat`, `indices`, `ix_`,
//! `vander`. Index arrays are made on the host from the sizes (they depend
//! on nothing else) and sent once; `diagflat` and `vander` are `diag` and
//! products of table ops, so their gradients are those ops'.

use super::construct::flag;
use super::{arr, astype, data, host_i64, int, ravel, reshape, shape_value, tuple_of, value_err};
use crate::array::Array;
use crate::array::alloc;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::dtype_device;
use crate::value::Value;

fn dim(v: &Value, name: &str, what: &str) -> Result<usize> {
    let n = int(v, name, what)?;
    usize::try_from(n).map_err(|_| {
        value_err(
            name,
            format!("{what} must not be negative, got {n}"),
            "give a size >= 0",
        )
    })
}

pub(super) fn tri(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "tri";
    let n = dim(&a.req("N")?, name, "N")?;
    let m = match a.opt("M")? {
        None | Some(Value::None) => n,
        Some(v) => dim(&v, name, "M")?,
    };
    let k = match a.opt("k")? {
        None => 0,
        Some(v) => int(&v, name, "k")?,
    };
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["M", "k", "dtype", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or_else(|| i.float_x());
    let x = alloc::alloc_with(&[n, m], |p| {
        let (r, c) = ((p / m.max(1)) as i64, (p % m.max(1)) as i64);
        (c <= r + k) as u8 != 0
    })?;
    let x = crate::backend::to_device(&x, dev)?;
    Ok(Value::Array(astype(i, span, &x, d)?))
}

pub(super) fn tri_indices(i: &mut Interp, mut a: Args, lower: bool, from: bool) -> Result<Value> {
    let name = a.name;
    let (n, m, dev) = if from {
        let x = data(i, a.req("arr")?, name, "arr")?;
        if x.ndim() != 2 {
            return Err(value_err(
                name,
                format!("input array must be 2-d, got shape {:?}", x.shape()),
                "give a 2-d array",
            ));
        }
        (x.shape()[0], x.shape()[1], x.device())
    } else {
        let n = dim(&a.req("n")?, name, "n")?;
        (n, n, Device::Cpu)
    };
    let k = match a.opt("k")? {
        None => 0,
        Some(v) => int(&v, name, "k")?,
    };
    let (m, dev) = if from {
        a.finish_with(&["k"])?;
        (m, dev)
    } else {
        let m = match a.opt("m")? {
            None | Some(Value::None) => n,
            Some(v) => dim(&v, name, "m")?,
        };
        let (_, dev) = dtype_device(&mut a)?;
        a.finish_with(&["k", "m", "device"])?;
        (m, dev.unwrap_or_else(|| i.default_device()))
    };
    alloc::check_budget(n.saturating_mul(m), 16, "triangle indices")?;
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    for r in 0..n as i64 {
        for c in 0..m as i64 {
            if (lower && c <= r + k) || (!lower && c >= r + k) {
                rows.push(r);
                cols.push(c);
            }
        }
    }
    let len = rows.len();
    Ok(tuple_of(vec![
        host_i64(rows, &[len], dev)?,
        host_i64(cols, &[len], dev)?,
    ]))
}

pub(super) fn diag_indices(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "diag_indices";
    let n = dim(&a.req("n")?, name, "n")?;
    let nd = match a.opt("ndim")? {
        None => 2,
        Some(v) => dim(&v, name, "ndim")?,
    };
    let (_, dev) = dtype_device(&mut a)?;
    a.finish_with(&["ndim", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let r = host_i64(alloc::vec_with(n, |k| k as i64)?, &[n], dev)?;
    Ok(tuple_of(vec![r; nd]))
}

pub(super) fn diag_indices_from(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "diag_indices_from";
    let x = data(i, a.req("arr")?, name, "arr")?;
    a.finish()?;
    if x.ndim() < 2 {
        return Err(value_err(
            name,
            "input array must be at least 2-d".into(),
            "give a 2-d (or more) array",
        ));
    }
    let n = x.shape()[0];
    if x.shape().iter().any(|&d| d != n) {
        return Err(value_err(
            name,
            format!(
                "All dimensions of input must be of equal length, got shape {:?}",
                x.shape()
            ),
            "give a square array",
        ));
    }
    let r = host_i64(alloc::vec_with(n, |k| k as i64)?, &[n], x.device())?;
    Ok(tuple_of(vec![r; x.ndim()]))
}

pub(super) fn diagflat(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let v = data(i, a.req("v")?, "diagflat", "v")?;
    let k = a.opt("k")?.unwrap_or(Value::Int(0));
    a.finish()?;
    let flat = ravel(i, span, &v)?;
    super::call(i, span, "diag", vec![flat.into(), k], vec![])
}

pub(super) fn indices(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "indices";
    let dims: Vec<usize> = super::int_list(&a.req("dimensions")?, name, "dimensions")?
        .into_iter()
        .map(|d| {
            usize::try_from(d).map_err(|_| {
                value_err(
                    name,
                    format!("negative dimensions are not allowed, got {d}"),
                    "give sizes >= 0",
                )
            })
        })
        .collect::<Result<_>>()?;
    let sparse = flag(a.opt("sparse")?, name, "sparse", false)?;
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["dtype", "sparse", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or(DType::Int64);
    let nd = dims.len();
    let mut out = Vec::with_capacity(nd);
    for (k, &n) in dims.iter().enumerate() {
        let r = host_i64(alloc::vec_with(n, |j| j as i64)?, &[n], dev)?;
        let r = astype(i, span, &r, d)?;
        let s: Vec<usize> = (0..nd).map(|j| if j == k { n } else { 1 }).collect();
        let r = reshape(i, span, &r, &s)?;
        out.push(r);
    }
    if sparse {
        return Ok(tuple_of(out));
    }
    if nd == 0 {
        return Ok(Value::Array(Array::zeros(&[0], d, dev)?));
    }
    let mut full = Vec::with_capacity(nd);
    for r in out {
        full.push(Value::Array(arr(
            i,
            span,
            "broadcast_to",
            vec![r.into(), shape_value(&dims)],
            vec![],
        )?));
    }
    super::call(
        i,
        span,
        "stack",
        vec![Value::list(full)],
        vec![("axis", Value::Int(0))],
    )
}

pub(super) fn ix(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "ix_";
    let seqs = a.rest();
    a.finish()?;
    let nd = seqs.len();
    let mut out = Vec::with_capacity(nd);
    for (k, v) in seqs.into_iter().enumerate() {
        let empty_list =
            v.seq_items().is_some_and(|s| s.is_empty()) && !matches!(v, Value::Array(_));
        let mut x = if empty_list {
            Array::zeros(&[0], DType::Int64, i.default_device())?
        } else {
            data(i, v, name, "seqs")?
        };
        if x.ndim() != 1 {
            return Err(value_err(
                name,
                format!(
                    "Cross index must be 1 dimensional, argument {k} has shape {:?}",
                    x.shape()
                ),
                "give 1-d sequences",
            ));
        }
        if x.dtype() == DType::Bool {
            x = arr(i, span, "flatnonzero", vec![x.into()], vec![])?;
        } else if x.dtype().is_float() {
            return Err(Error::index(format!(
                "{name}: arrays used as indices must be of integer (or boolean) type, argument {k} is {}",
                x.dtype().name()
            ))
            .with_op(name)
            .with_help("give ints or bools"));
        }
        let n = x.size();
        let s: Vec<usize> = (0..nd).map(|j| if j == k { n } else { 1 }).collect();
        out.push(reshape(i, span, &x, &s)?);
    }
    Ok(tuple_of(out))
}

pub(super) fn vander(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "vander";
    let x = data(i, a.req("x")?, name, "x")?;
    let n = match a.opt("N")? {
        None | Some(Value::None) => x.size(),
        Some(v) => dim(&v, name, "N")?,
    };
    let increasing = flag(a.opt("increasing")?, name, "increasing", false)?;
    a.finish_with(&["N", "increasing"])?;
    if x.ndim() != 1 {
        return Err(value_err(
            name,
            format!(
                "x must be a one-dimensional array or sequence, got shape {:?}",
                x.shape()
            ),
            "give a 1-d x",
        ));
    }
    let d = if x.dtype().is_float() {
        DType::Float64
    } else {
        DType::Int64
    };
    if n == 0 {
        return Ok(Value::Array(Array::zeros(&[x.size(), 0], d, x.device())?));
    }
    let xd = astype(i, span, &x, d)?;
    let mut cols = vec![Value::Array(arr(
        i,
        span,
        "ones_like",
        vec![xd.clone().into()],
        vec![],
    )?)];
    let mut prev = xd.clone();
    for k in 1..n {
        if k > 1 {
            prev = arr(
                i,
                span,
                "multiply",
                vec![prev.into(), xd.clone().into()],
                vec![],
            )?;
        }
        cols.push(Value::Array(prev.clone()));
    }
    if !increasing {
        cols.reverse();
    }
    super::call(
        i,
        span,
        "stack",
        vec![Value::list(cols)],
        vec![("axis", Value::Int(1))],
    )
}
