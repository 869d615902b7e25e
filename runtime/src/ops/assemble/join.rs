//! Joining and cutting: `hstack vstack dstack column_stack` (each input
//! made at least n-d as NumPy does, then `concat`), `split array_split`
//! (a tuple of views) and `meshgrid` (a tuple of broadcast copies). Parts
//! of a tuple are recorded for `grad` one by one
//! (`autodiff::rules_assemble::record_part`).

use super::views::atleast;
use super::{choice_arg, data_arg, data_list, int_list, opt_int};
use crate::array::Array;
use crate::array::index::Index;
use crate::array::shape_ops::norm_axis;
use crate::autodiff::rules_assemble::{self as rules, record_part};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

/// Which of the stacking functions: how inputs are shaped, and the axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JoinKind {
    H,
    V,
    D,
    Column,
}

impl JoinKind {
    fn name(self) -> &'static str {
        match self {
            JoinKind::H => "hstack",
            JoinKind::V => "vstack",
            JoinKind::D => "dstack",
            JoinKind::Column => "column_stack",
        }
    }

    /// The joining axis, given the first prepared input's dims.
    pub(crate) fn axis(self, first_ndim: usize) -> usize {
        match self {
            JoinKind::H if first_ndim == 1 => 0,
            JoinKind::H | JoinKind::Column => 1,
            JoinKind::V => 0,
            JoinKind::D => 2,
        }
    }
}

/// An input's shape once prepared for `kind` (what `prepare` gives).
pub(crate) fn prepared_shape(kind: JoinKind, shape: &[usize]) -> Vec<usize> {
    let mut s = shape.to_vec();
    match (kind, s.len()) {
        (JoinKind::H, 0) => s = vec![1],
        (JoinKind::V, 0) | (JoinKind::Column, 0) => s = vec![1, 1],
        (JoinKind::V, 1) => s.insert(0, 1),
        (JoinKind::Column, 1) => s.push(1),
        (JoinKind::D, 0) => s = vec![1, 1, 1],
        (JoinKind::D, 1) => s = vec![1, s[0], 1],
        (JoinKind::D, 2) => s.push(1),
        _ => {}
    }
    s
}

/// The input as a view of its prepared shape.
fn prepare(kind: JoinKind, x: &Array) -> Result<Array> {
    match (kind, x.ndim()) {
        (JoinKind::H, _) => atleast(x, 1),
        (JoinKind::V, _) => atleast(x, 2),
        (JoinKind::D, _) => atleast(x, 3),
        (JoinKind::Column, 0) => atleast(x, 2),
        (JoinKind::Column, 1) => x.expand_dims(1),
        (JoinKind::Column, _) => Ok(x.clone()),
    }
}

fn stack_family(i: &mut Interp, mut a: Args, kind: JoinKind) -> Result<Value> {
    let name = kind.name();
    let arrays = data_list(i, &a.req("arrays")?, name)?;
    a.finish()?;
    if arrays.is_empty() {
        return Err(
            Error::value(format!("{name}: need at least one array to join"))
                .with_op(name)
                .with_help(format!("e.g. {name}([a, b])")),
        );
    }
    let parts = arrays
        .iter()
        .map(|x| prepare(kind, x))
        .collect::<Result<Vec<_>>>()?;
    let axis = kind.axis(parts[0].ndim());
    Array::concat(&parts, axis as i64)
        .map(Value::from)
        .map_err(|e| e.with_op(name))
}

pub(super) fn hstack(i: &mut Interp, a: Args) -> Result<Value> {
    stack_family(i, a, JoinKind::H)
}
pub(super) fn vstack(i: &mut Interp, a: Args) -> Result<Value> {
    stack_family(i, a, JoinKind::V)
}
pub(super) fn dstack(i: &mut Interp, a: Args) -> Result<Value> {
    stack_family(i, a, JoinKind::D)
}
pub(super) fn column_stack(i: &mut Interp, a: Args) -> Result<Value> {
    stack_family(i, a, JoinKind::Column)
}

/// The (start, stop) of each part along an axis of length `len`, as Python
/// slices (`split`'s indices may be negative or past the end).
pub(crate) fn split_bounds(
    len: usize,
    ios: &Value,
    even: bool,
    op: &str,
) -> Result<Vec<(i64, i64)>> {
    let sections = match ios {
        Value::Tuple(_) | Value::List(_) => None,
        Value::Array(a) if a.ndim() > 0 => None,
        v => Some(crate::builtins::lang::int_arg(v, "indices_or_sections")?),
    };
    let Some(n) = sections else {
        let idx = int_list(ios, "an index")?;
        let mut points = vec![0i64];
        points.extend(idx);
        points.push(len as i64);
        return Ok(points.windows(2).map(|w| (w[0], w[1])).collect());
    };
    if n <= 0 {
        return Err(Error::value(format!(
            "{op}: the number of sections must be larger than 0, not {n}"
        ))
        .with_op(op)
        .with_help("give a positive number of parts, or a list of indices"));
    }
    let n = n as usize;
    if even && !len.is_multiple_of(n) {
        return Err(Error::value(format!(
            "{op}: an axis of length {len} does not split into {n} equal parts"
        ))
        .with_op(op)
        .with_help("use array_split for parts of unequal length"));
    }
    let (each, extra) = (len / n, len % n);
    let mut out = Vec::with_capacity(n);
    let mut start = 0i64;
    for k in 0..n {
        let size = (each + usize::from(k < extra)) as i64;
        out.push((start, start + size));
        start += size;
    }
    Ok(out)
}

fn split_impl(i: &mut Interp, mut a: Args, even: bool) -> Result<Value> {
    let name = a.name;
    let xv = a.req("x")?;
    let x = data_arg(i, &xv)?;
    let ios = a.req("indices_or_sections")?;
    let axis = opt_int(&mut a, "axis", 0)?;
    a.finish()?;
    let ax = norm_axis(axis, x.ndim(), name)?;
    let bounds = split_bounds(x.shape()[ax], &ios, even, name)?;
    let mut parts = Vec::with_capacity(bounds.len());
    for (start, stop) in bounds {
        let mut idx = vec![Index::full(); ax];
        idx.push(Index::Slice {
            start: Some(start),
            stop: Some(stop),
            step: None,
        });
        let part = x.index(&idx)?;
        let kw = vec![
            ("start".to_string(), Value::Int(start)),
            ("stop".to_string(), Value::Int(stop)),
            ("axis".to_string(), Value::Int(ax as i64)),
        ];
        let part = record_part(i, name, rules::split_part, vec![xv.clone()], kw, part)?;
        parts.push(Value::Array(part));
    }
    Ok(Value::tuple(parts))
}

pub(super) fn split(i: &mut Interp, a: Args) -> Result<Value> {
    split_impl(i, a, true)
}

pub(super) fn array_split(i: &mut Interp, a: Args) -> Result<Value> {
    split_impl(i, a, false)
}

/// The output axis along which input `k` of `n` varies in `meshgrid`.
pub(crate) fn meshgrid_axis(k: usize, n: usize, xy: bool) -> usize {
    match (xy && n > 1, k) {
        (true, 0) => 1,
        (true, 1) => 0,
        _ => k,
    }
}

fn bool_kw(a: &mut Args, key: &str, default: bool) -> Result<bool> {
    crate::ops::stat_args::flag_with(a.kw(key), default, |v| {
        Error::type_(format!(
            "meshgrid: {key} must be true or false, not {}",
            v.a_type_name()
        ))
    })
}

pub(super) fn meshgrid(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xy = match a.kw("indexing") {
        None => true,
        Some(v) => choice_arg(&v, "meshgrid", "indexing", &["xy", "ij"])? == "xy",
    };
    let sparse = bool_kw(&mut a, "sparse", false)?;
    let copy = bool_kw(&mut a, "copy", true)?;
    let xs: Vec<Value> = a.rest();
    a.finish_with(&["indexing", "sparse", "copy"])?;
    let arrays = xs
        .iter()
        .map(|x| data_arg(i, x))
        .collect::<Result<Vec<_>>>()?;
    let n = arrays.len();
    let mut full = vec![0usize; n];
    for (k, x) in arrays.iter().enumerate() {
        full[meshgrid_axis(k, n, xy)] = x.size();
    }
    let mut parts = Vec::with_capacity(n);
    for (k, x) in arrays.iter().enumerate() {
        let ax = meshgrid_axis(k, n, xy);
        let mut s = vec![1i64; n];
        s[ax] = -1;
        let mut v = x.reshape(&s)?;
        if !sparse {
            v = v.broadcast_to(&full)?;
        }
        if copy {
            v = v.copy()?;
        }
        let kw = vec![("axis".to_string(), Value::Int(ax as i64))];
        let v = record_part(
            i,
            "meshgrid",
            rules::meshgrid_part,
            vec![xs[k].clone()],
            kw,
            v,
        )?;
        parts.push(Value::Array(v));
    }
    Ok(Value::tuple(parts))
}
