//! NumPy's in-place writers `place` and `put`: the values flattened and
//! repeated cyclically on the array's device, the positions (a mask, or
//! flat indices read to the host and turned into one index array per
//! axis) written by the language's index assignment, so views write
//! through and a GPU array is written on the GPU.

use super::pick::mode_arg;
use super::{arr, astype, data_on, host_i64, int_list, ravel, reshape, value_err};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::assemble::IndexMode;
use crate::value::Value;
use gcalc_lang::Span;

/// The array argument an in-place writer writes into.
fn target(v: Value, name: &str) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        v => Err(Error::type_(format!(
            "{name}: the first argument must be an array to write into, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("make it an array first: x = array(...)")),
    }
}

/// `v` flattened and repeated cyclically to `m` elements, as x's dtype.
fn cycled(i: &mut Interp, span: Span, v: &Array, m: usize, d: DType) -> Result<Array> {
    let flat = ravel(i, span, v)?;
    let g = super::cyclic(i, span, &flat, m)?;
    astype(i, span, &g, d)
}

pub(super) fn place(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "place";
    let x = target(a.req("arr")?, name)?;
    let mask = data_on(i, a.req("mask")?, x.device(), name, "mask")?;
    let valv = a.req("vals")?;
    // NumPy converts literals to arr's dtype, but casts arrays only safely.
    if let Value::Array(v) = &valv
        && !safe_cast(v.dtype(), x.dtype())
    {
        return Err(Error::type_(format!(
            "{name}: Cannot cast array data from dtype('{}') to dtype('{}') according to the rule 'safe'",
            v.dtype().name(),
            x.dtype().name()
        ))
        .with_op(name)
        .with_help(format!("give vals as {} (vals.astype(...))", x.dtype().name())));
    }
    let vals = data_on(i, valv, x.device(), name, "vals")?;
    a.finish()?;
    if mask.size() != x.size() {
        return Err(value_err(
            name,
            format!(
                "mask and data must be the same size ({} and {})",
                mask.size(),
                x.size()
            ),
            "give a mask with arr's shape",
        ));
    }
    let mask = astype(i, span, &mask, DType::Bool)?;
    let mask = reshape(i, span, &mask, x.shape())?;
    let n = arr(i, span, "count_nonzero", vec![mask.clone().into()], vec![])?.to_vec::<i64>()?[0]
        as usize;
    if n == 0 {
        return Ok(Value::None);
    }
    if vals.size() == 0 {
        return Err(value_err(
            name,
            "Cannot insert from an empty array!".into(),
            "give at least one value",
        ));
    }
    let v = cycled(i, span, &vals, n, x.dtype())?;
    i.assign_index(&x, &[Index::Array(mask)], &Value::Array(v))?;
    Ok(Value::None)
}

pub(super) fn put(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "put";
    let x = target(a.req("a")?, name)?;
    let ind = a.req("ind")?;
    let v = data_on(i, a.req("v")?, x.device(), name, "v")?;
    let mode = mode_arg(a.opt("mode")?, name)?;
    a.finish_with(&["mode"])?;
    let ind: Vec<i64> = match &ind {
        Value::Array(ia) if ia.dtype().is_float() => {
            return Err(Error::type_(format!(
                "{name}: Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
                ia.dtype().name()
            ))
            .with_op(name));
        }
        Value::Array(ia) => ia.to_vec::<i64>()?,
        v => int_list(v, name, "ind")?,
    };
    let size = x.size() as i64;
    if !ind.is_empty() && size == 0 {
        return Err(
            Error::index(format!("{name}: cannot replace elements of an empty array"))
                .with_op(name)
                .with_help("put into an array with elements"),
        );
    }
    if ind.is_empty() || v.size() == 0 {
        return Ok(Value::None);
    }
    let flat: Vec<i64> = ind
        .iter()
        .map(|&k| match mode {
            IndexMode::Wrap => Ok(k.rem_euclid(size)),
            IndexMode::Clip => Ok(k.clamp(0, size - 1)),
            _ if k < -size || k >= size => Err(Error::index(format!(
                "{name}: index {k} is out of bounds for axis 0 with size {size}"
            ))
            .with_op(name)
            .with_help("use mode=\"wrap\" or mode=\"clip\", or fix the indices")),
            _ => Ok(if k < 0 { k + size } else { k }),
        })
        .collect::<Result<_>>()?;
    // Flat positions as one index array per axis (C order).
    let m = flat.len();
    let mut idx = Vec::with_capacity(x.ndim());
    let mut stride = 1i64;
    let mut per_axis = vec![vec![0i64; m]; x.ndim()];
    for ax in (0..x.ndim()).rev() {
        let d = x.shape()[ax] as i64;
        for (j, &p) in flat.iter().enumerate() {
            per_axis[ax][j] = (p / stride) % d;
        }
        stride *= d;
    }
    for coords in per_axis {
        idx.push(Index::Array(host_i64(coords, &[m], x.device())?));
    }
    let vals = cycled(i, span, &v, m, x.dtype())?;
    if x.ndim() == 0 {
        let last = arr(
            i,
            span,
            "take",
            vec![vals.into(), Value::Int(m as i64 - 1)],
            vec![],
        )?;
        i.assign_index(&x, &[], &Value::Array(last))?;
        return Ok(Value::None);
    }
    i.assign_index(&x, &idx, &Value::Array(vals))?;
    Ok(Value::None)
}

/// NumPy's `can_cast(from, to, "safe")`.
fn safe_cast(from: DType, to: DType) -> bool {
    use DType::*;
    match (from, to) {
        (a, b) if a == b => true,
        (Bool, _) => true,
        (Int32, Int64 | Float64) => true,
        (Int64, Float64) => true,
        (Float16, Float32 | Float64) => true,
        (Float32, Float64) => true,
        _ => false,
    }
}
