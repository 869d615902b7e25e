//! The views of the family: `flip fliplr flipud rot90 swapaxes moveaxis
//! diagonal atleast_1d atleast_2d atleast_3d`. Each is a new shape, strides
//! and offset over the same buffer (a flip is a negative stride), as NumPy
//! gives them; nothing is copied on any device.

use super::{axes_arg, data_arg, int_list, opt_int};
use crate::array::shape_ops::norm_axis;
use crate::array::{Array, Dims, Strides};
use crate::builtins::lang::int_arg;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

/// `x` reversed along `axes` (a view: negative strides).
pub(crate) fn flip_view(x: &Array, axes: &[usize]) -> Array {
    let mut strides = Strides::from_slice(x.strides());
    let mut off = x.offset() as isize;
    for &a in axes {
        let n = x.shape()[a];
        if n > 0 {
            off += (n as isize - 1) * strides[a];
        }
        strides[a] = -strides[a];
    }
    x.view(Dims::from_slice(x.shape()), strides, off.max(0) as usize)
}

pub(super) fn flip(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("m")?)?;
    let axes = match a.opt("axis")? {
        None | Some(Value::None) => (0..x.ndim()).collect(),
        Some(v) => axes_arg(&v, x.ndim(), "flip")?,
    };
    a.finish()?;
    Ok(flip_view(&x, &axes).into())
}

fn flip_min(i: &mut Interp, mut a: Args, min: usize, axis: usize) -> Result<Value> {
    let name = a.name;
    let x = data_arg(i, &a.req("m")?)?;
    a.finish()?;
    if x.ndim() < min {
        return Err(Error::value(format!(
            "{name}: the input must have at least {min} dimension{}, not {}",
            if min == 1 { "" } else { "s" },
            x.ndim()
        ))
        .with_op(name)
        .with_help(format!(
            "{name} flips axis {axis}; flip(m, axis=...) flips any axis"
        )));
    }
    Ok(flip_view(&x, &[axis]).into())
}

pub(super) fn fliplr(i: &mut Interp, a: Args) -> Result<Value> {
    flip_min(i, a, 2, 1)
}

pub(super) fn flipud(i: &mut Interp, a: Args) -> Result<Value> {
    flip_min(i, a, 1, 0)
}

/// The permutation that swaps `a1` and `a2` of `ndim` axes (normalized).
pub(crate) fn swap_perm(ndim: usize, a1: i64, a2: i64, op: &str) -> Result<Vec<i64>> {
    let (p, q) = (norm_axis(a1, ndim, op)?, norm_axis(a2, ndim, op)?);
    let mut perm: Vec<i64> = (0..ndim as i64).collect();
    perm.swap(p, q);
    Ok(perm)
}

pub(super) fn swapaxes(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let a1 = int_arg(&a.req("axis1")?, "axis1")?;
    let a2 = int_arg(&a.req("axis2")?, "axis2")?;
    a.finish()?;
    Ok(
        x.transpose(Some(&swap_perm(x.ndim(), a1, a2, "swapaxes")?))?
            .into(),
    )
}

/// `moveaxis`'s permutation: the axes `source` go to `destination`, the
/// others keep their order (NumPy's algorithm).
pub(crate) fn moveaxis_perm(ndim: usize, source: &Value, destination: &Value) -> Result<Vec<i64>> {
    let src = axes_arg(source, ndim, "moveaxis")?;
    let dst = axes_arg(destination, ndim, "moveaxis")?;
    if src.len() != dst.len() {
        return Err(Error::value(format!(
            "moveaxis: `source` and `destination` must have the same number of elements, not {} and {}",
            src.len(),
            dst.len()
        ))
        .with_op("moveaxis")
        .with_help("e.g. moveaxis(a, (0, 1), (-1, -2))"));
    }
    let mut order: Vec<usize> = (0..ndim).filter(|d| !src.contains(d)).collect();
    let mut pairs: Vec<(usize, usize)> = dst.into_iter().zip(src).collect();
    pairs.sort();
    for (d, s) in pairs {
        order.insert(d, s);
    }
    Ok(order.into_iter().map(|d| d as i64).collect())
}

pub(super) fn moveaxis(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let source = a.req("source")?;
    let destination = a.req("destination")?;
    a.finish()?;
    let perm = moveaxis_perm(x.ndim(), &source, &destination)?;
    Ok(x.transpose(Some(&perm))?.into())
}

/// `rot90(m, k, axes)` as NumPy builds it: flips and a transpose (a view).
pub(crate) fn rot90_view(m: &Array, k: i64, axes: &[i64]) -> Result<Array> {
    let nd = m.ndim() as i64;
    let bad = |msg: String| {
        Error::value(format!("rot90: {msg}"))
            .with_op("rot90")
            .with_help("axes are two different axes of m, e.g. axes=(0, 1)")
    };
    let [p, q] = axes else {
        return Err(bad(format!("axes must hold 2 axes, not {}", axes.len())));
    };
    if nd < 2 && (p - q).abs() == nd {
        return Err(Error::value(format!(
            "rot90: axes must be different: m is {nd}-d, and rot90 turns the plane of two axes"
        ))
        .with_op("rot90")
        .with_help("give m two dimensions (m.reshape(1, -1)), or flip(m) to reverse a 1-d array"));
    }
    if p == q || (p - q).abs() == nd {
        return Err(bad("the two axes must be different".into()));
    }
    if !(-nd..nd).contains(p) || !(-nd..nd).contains(q) {
        return Err(bad(format!(
            "axes ({p}, {q}) are out of range for an array of dimension {nd}"
        )));
    }
    let (p, q) = (p.rem_euclid(nd) as usize, q.rem_euclid(nd) as usize);
    let mut perm: Vec<i64> = (0..nd).collect();
    perm.swap(p, q);
    Ok(match k.rem_euclid(4) {
        0 => m.clone(),
        2 => flip_view(m, &[p, q]),
        1 => flip_view(m, &[q]).transpose(Some(&perm))?,
        _ => flip_view(&m.transpose(Some(&perm))?, &[q]),
    })
}

pub(super) fn rot90(i: &mut Interp, mut a: Args) -> Result<Value> {
    let m = data_arg(i, &a.req("m")?)?;
    let k = opt_int(&mut a, "k", 1)?;
    let axes = match a.opt("axes")? {
        None => vec![0, 1],
        Some(v) => int_list(&v, "an axis")?,
    };
    a.finish()?;
    Ok(rot90_view(&m, k, &axes)?.into())
}

/// The diagonal `offset` of `x` over `axis1` and `axis2` (normalized by the
/// caller, different), as the last axis of a view.
pub(crate) fn diagonal_view(x: &Array, offset: i64, a1: usize, a2: usize) -> Array {
    let (n1, n2) = (x.shape()[a1] as i64, x.shape()[a2] as i64);
    let (s1, s2) = (x.strides()[a1], x.strides()[a2]);
    let len = if offset >= 0 {
        n1.min(n2 - offset)
    } else {
        (n1 + offset).min(n2)
    }
    .max(0);
    let mut off = x.offset() as isize;
    if len > 0 {
        off += if offset >= 0 {
            offset as isize * s2
        } else {
            -offset as isize * s1
        };
    }
    let mut shape = Dims::new();
    let mut strides = Strides::new();
    for d in (0..x.ndim()).filter(|&d| d != a1 && d != a2) {
        shape.push(x.shape()[d]);
        strides.push(x.strides()[d]);
    }
    shape.push(len as usize);
    strides.push(s1 + s2);
    x.view(shape, strides, off as usize)
}

/// `offset, axis1, axis2` of `diagonal`/`trace`, checked against `x`.
pub(crate) fn diag_axes(x: &Array, a: &mut Args, op: &str) -> Result<(i64, usize, usize)> {
    let offset = opt_int(a, "offset", 0)?;
    let a1 = opt_int(a, "axis1", 0)?;
    let a2 = opt_int(a, "axis2", 1)?;
    if x.ndim() < 2 {
        return Err(Error::value(format!(
            "{op} needs an array of at least two dimensions, not {}",
            x.ndim()
        ))
        .with_op(op)
        .with_help("a 1-d array has no diagonal; diag(v) makes a matrix with v on its diagonal"));
    }
    let (p, q) = (norm_axis(a1, x.ndim(), op)?, norm_axis(a2, x.ndim(), op)?);
    if p == q {
        return Err(Error::value(format!(
            "{op}: axis1 and axis2 cannot be the same axis ({p})"
        ))
        .with_op(op)
        .with_help("e.g. axis1=0, axis2=1"));
    }
    Ok((offset, p, q))
}

pub(super) fn diagonal(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let (offset, p, q) = diag_axes(&x, &mut a, "diagonal")?;
    a.finish()?;
    Ok(diagonal_view(&x, offset, p, q).into())
}

/// `x` with unit axes added as NumPy's `atleast_{n}d` adds them (a view).
pub(crate) fn atleast(x: &Array, n: usize) -> Result<Array> {
    Ok(match (n, x.ndim()) {
        (_, d) if d >= n => x.clone(),
        (1, _) => x.expand_dims(0)?,
        (2, 0) => x.expand_dims(0)?.expand_dims(0)?,
        (2, _) => x.expand_dims(0)?,
        (_, 0) => x.expand_dims(0)?.expand_dims(0)?.expand_dims(0)?,
        (_, 1) => x.expand_dims(0)?.expand_dims(2)?,
        _ => x.expand_dims(2)?,
    })
}

fn atleast_nd(i: &mut Interp, a: Args, n: usize) -> Result<Value> {
    let name = a.name;
    if let Some((k, _)) = a.kw.first() {
        return Err(
            Error::value(format!("{name}() got an unexpected keyword argument `{k}`"))
                .with_help(format!("{name} takes arrays only, e.g. {name}(x, y)")),
        );
    }
    let xs: Vec<Value> = a.pos;
    if let [x] = xs.as_slice() {
        return Ok(atleast(&data_arg(i, x)?, n)?.into());
    }
    let mut parts = Vec::with_capacity(xs.len());
    for x in &xs {
        let v = atleast(&data_arg(i, x)?, n)?;
        let v = crate::autodiff::rules_assemble::record_part(
            i,
            name,
            crate::autodiff::rules_assemble::atleast,
            vec![x.clone()],
            vec![],
            v,
        )?;
        parts.push(Value::Array(v));
    }
    Ok(Value::tuple(parts))
}

pub(super) fn atleast_1d(i: &mut Interp, a: Args) -> Result<Value> {
    atleast_nd(i, a, 1)
}
pub(super) fn atleast_2d(i: &mut Interp, a: Args) -> Result<Value> {
    atleast_nd(i, a, 2)
}
pub(super) fn atleast_3d(i: &mut Interp, a: Args) -> Result<Value> {
    atleast_nd(i, a, 3)
}
