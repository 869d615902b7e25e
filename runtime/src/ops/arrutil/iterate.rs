//! NumPy's `ndindex` and `ndenumerate` (lists of tuples a `for` loop walks)
//! and `packbits`/`unpackbits` (bits packed eight to an element, composed
//! of comparisons, a weighted sum and floor division on the array's device).

use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::op;
use crate::ops::nparr::{
    arr, astype, data, host_i64, int, int_list, norm_axis, ravel, reshape, value_err,
};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

/// The most tuples ndindex/ndenumerate make (each is a few hundred bytes
/// of interpreter values): beyond it, loop with nested `range`s.
const MAX_TUPLES: usize = 10_000_000;

pub static OPS: &[OpDef] = &[
    op!(
        "ndindex",
        "ndindex(*shape)",
        "The index tuples of an array of `shape` in C order, for a loop: `for i, j in ndindex(2, 3):` (ndindex((2, 3)) too). A list of tuples (at most 10 million).",
        false,
        ndindex
    ),
    op!(
        "ndenumerate",
        "ndenumerate(a)",
        "(index tuple, value) pairs of a's elements in C order, for a loop: `for idx, v in ndenumerate(a):`; the values are numbers (a is read to the host once). A list of tuples (at most 10 million).",
        false,
        ndenumerate
    ),
    op!(
        "packbits",
        "packbits(a, axis=none, bitorder=\"big\")",
        "The elements of a (bool or int; nonzero is 1) packed eight to a number along axis (of the flattened a when axis is none), the axis padded with zeros to a multiple of 8; bitorder \"big\" puts the first element in the highest bit, \"little\" in the lowest. Gives int64 values 0..255 (gcalc has no uint8; see the Decision).",
        false,
        packbits
    ),
    op!(
        "unpackbits",
        "unpackbits(a, axis=none, count=none, bitorder=\"big\")",
        "The bits of int array a (values taken mod 256, one byte each) as 0/1 int64 values along axis (of the flattened a when axis is none), eight per element; count keeps the first count bits (zeros added when count is larger; a negative count drops bits from the end).",
        false,
        unpackbits
    ),
];

fn shape_args(a: &mut Args, name: &str) -> Result<Vec<usize>> {
    let rest = a.rest();
    let dims: Vec<i64> = match rest.as_slice() {
        [v @ (Value::Tuple(_) | Value::List(_))] => int_list(v, name, "shape")?,
        vs => vs
            .iter()
            .map(|v| int(v, name, "shape"))
            .collect::<Result<_>>()?,
    };
    if let Some(&k) = dims.iter().find(|&&k| k < 0) {
        return Err(value_err(
            name,
            format!("negative dimensions are not allowed ({k})"),
            "give sizes >= 0",
        ));
    }
    Ok(dims.into_iter().map(|k| k as usize).collect())
}

/// Every index tuple of `shape`, C order.
fn index_tuples(shape: &[usize], name: &str) -> Result<Vec<Vec<i64>>> {
    let n = shape
        .iter()
        .try_fold(1usize, |p, &d| p.checked_mul(d))
        .filter(|&n| n <= MAX_TUPLES)
        .ok_or_else(|| {
            value_err(
                name,
                format!("{shape:?} has more than {MAX_TUPLES} elements to list"),
                "loop with nested ranges instead: for i in range(n): for j in range(m): ...",
            )
        })?;
    let mut out = Vec::with_capacity(n);
    let mut pos = vec![0i64; shape.len()];
    for _ in 0..n {
        out.push(pos.clone());
        for k in (0..pos.len()).rev() {
            pos[k] += 1;
            if (pos[k] as usize) < shape[k] {
                break;
            }
            pos[k] = 0;
        }
    }
    Ok(out)
}

fn tuple_of_ints(v: &[i64]) -> Value {
    Value::tuple(v.iter().map(|&k| Value::Int(k)).collect())
}

fn ndindex(_: &mut Interp, mut a: Args) -> Result<Value> {
    let shape = shape_args(&mut a, "ndindex")?;
    a.finish()?;
    let t = index_tuples(&shape, "ndindex")?;
    Ok(Value::list(t.iter().map(|p| tuple_of_ints(p)).collect()))
}

fn ndenumerate(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "ndenumerate";
    let x = data(i, a.req("arr")?, name, "arr")?;
    a.finish()?;
    let t = index_tuples(x.shape(), name)?;
    let host = crate::backend::to_device(&x.contiguous()?, crate::device::Device::Cpu)?;
    let flat = host.reshape(&[x.size() as i64])?;
    let mut out = Vec::with_capacity(t.len());
    for (e, p) in t.iter().enumerate() {
        let r = flat.resolve_index(&[Index::Int(e as i64)])?;
        let v = flat.index_resolved(&r)?.item()?;
        out.push(Value::tuple(vec![tuple_of_ints(p), v]));
    }
    Ok(Value::list(out))
}

/// bitorder="big" (the default) or "little".
fn big_endian(v: Option<Value>, name: &str) -> Result<bool> {
    match v {
        None => Ok(true),
        Some(Value::Str(s)) if &*s == "big" => Ok(true),
        Some(Value::Str(s)) if &*s == "little" => Ok(false),
        Some(v) => Err(value_err(
            name,
            format!(
                "bitorder must be either 'little' or 'big', got {}",
                v.a_type_name()
            ),
            "bitorder=\"big\" or bitorder=\"little\"",
        )),
    }
}

/// The weights of the eight bits of a byte, first bit first.
fn weights(big: bool, dev: crate::device::Device) -> Result<Array> {
    let w: Vec<i64> = (0..8)
        .map(|k| if big { 128 >> k } else { 1 << k })
        .collect();
    host_i64(w, &[8], dev)
}

/// `x` (flattened when axis is none) with the axis moved last: (x, axis).
fn axis_last(
    i: &mut Interp,
    span: Span,
    x: &Array,
    axis: Option<Value>,
    name: &str,
) -> Result<(Array, Option<usize>)> {
    match axis {
        None | Some(Value::None) => Ok((ravel(i, span, x)?, None)),
        Some(v) => {
            let k = norm_axis(int(&v, name, "axis")?, x.ndim(), name)?;
            let m = arr(
                i,
                span,
                "moveaxis",
                vec![x.clone().into(), Value::Int(k as i64), Value::Int(-1)],
                vec![],
            )?;
            Ok((m, Some(k)))
        }
    }
}

fn axis_back(i: &mut Interp, span: Span, x: Array, axis: Option<usize>) -> Result<Array> {
    match axis {
        None => Ok(x),
        Some(k) => arr(
            i,
            span,
            "moveaxis",
            vec![x.into(), Value::Int(-1), Value::Int(k as i64)],
            vec![],
        ),
    }
}

fn packbits(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "packbits";
    let x = data(i, a.req("a")?, name, "a")?;
    let axis = a.opt("axis")?;
    let big = big_endian(a.opt("bitorder")?, name)?;
    a.finish_with(&["axis", "bitorder"])?;
    if !(x.dtype() == DType::Bool || x.dtype().is_int()) {
        return Err(Error::type_(format!(
            "{name}: Expected an input array of integer or boolean data type, got {}",
            x.dtype().name()
        ))
        .with_op(name)
        .with_help("give bools or ints (x != 0)"));
    }
    if x.ndim() == 0 && !matches!(axis, None | Some(Value::None)) {
        return Err(value_err(
            name,
            "axis is out of bounds for a 0-d array".into(),
            "give axis=none",
        ));
    }
    let (m, ax) = axis_last(i, span, &x, axis, name)?;
    let bits = arr(i, span, "not_equal", vec![m.into(), Value::Int(0)], vec![])?;
    let bits = astype(i, span, &bits, DType::Int64)?;
    let n = bits.shape().last().copied().unwrap_or(0);
    let padded = n.div_ceil(8) * 8;
    let bits = if padded == n {
        bits
    } else {
        let mut pw: Vec<Value> = (0..bits.ndim() - 1)
            .map(|_| Value::tuple(vec![Value::Int(0), Value::Int(0)]))
            .collect();
        pw.push(Value::tuple(vec![
            Value::Int(0),
            Value::Int((padded - n) as i64),
        ]));
        arr(i, span, "pad", vec![bits.into(), Value::tuple(pw)], vec![])?
    };
    let mut s = bits.shape().to_vec();
    s.pop();
    s.push(padded / 8);
    s.push(8);
    let bits = reshape(i, span, &bits, &s)?;
    let w = weights(big, bits.device())?;
    let prod = arr(i, span, "multiply", vec![bits.into(), w.into()], vec![])?;
    let packed = arr(
        i,
        span,
        "sum",
        vec![prod.into()],
        vec![("axis", Value::Int(-1))],
    )?;
    let packed = astype(i, span, &packed, DType::Int64)?;
    Ok(Value::Array(axis_back(i, span, packed, ax)?))
}

fn unpackbits(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "unpackbits";
    let x = data(i, a.req("a")?, name, "a")?;
    let axis = a.opt("axis")?;
    let count = match a.opt("count")? {
        None | Some(Value::None) => None,
        Some(v) => Some(int(&v, name, "count")?),
    };
    let big = big_endian(a.opt("bitorder")?, name)?;
    a.finish_with(&["axis", "count", "bitorder"])?;
    if !x.dtype().is_int() {
        return Err(Error::type_(format!(
            "{name}: Expected an input array of unsigned byte data type, got {}",
            x.dtype().name()
        ))
        .with_op(name)
        .with_help("give ints 0..255 (packbits' result, or x.astype(int64))"));
    }
    if x.ndim() == 0 && !matches!(axis, None | Some(Value::None)) {
        return Err(value_err(
            name,
            "axis is out of bounds for a 0-d array".into(),
            "give axis=none",
        ));
    }
    let (m, ax) = axis_last(i, span, &x, axis, name)?;
    let m = astype(i, span, &m, DType::Int64)?;
    let bytes = arr(i, span, "mod", vec![m.into(), Value::Int(256)], vec![])?;
    let col = arr(
        i,
        span,
        "expand_dims",
        vec![bytes.into(), Value::Int(-1)],
        vec![],
    )?;
    let w = weights(big, col.device())?;
    let q = arr(i, span, "floor_divide", vec![col.into(), w.into()], vec![])?;
    let bits = arr(i, span, "mod", vec![q.into(), Value::Int(2)], vec![])?;
    let mut s = bits.shape().to_vec();
    s.pop();
    let n = s.pop().unwrap_or(0) * 8;
    s.push(n);
    let bits = reshape(i, span, &bits, &s)?;
    let keep = match count {
        None => n,
        Some(c) if c >= 0 => c as usize,
        Some(c) if c.unsigned_abs() as usize > n => {
            return Err(value_err(
                name,
                format!("-count larger than number of elements ({c} for {n} bits)"),
                "give a count between -(8 * len) and any positive number",
            ));
        }
        Some(c) => n - c.unsigned_abs() as usize,
    };
    let bits = if keep == n {
        bits
    } else if keep < n {
        let mut idx: Vec<Index> = (0..bits.ndim() - 1).map(|_| Index::full()).collect();
        idx.push(Index::Slice {
            start: None,
            stop: Some(keep as i64),
            step: None,
        });
        i.index_array(&bits, &idx)?
    } else {
        let mut pw: Vec<Value> = (0..bits.ndim() - 1)
            .map(|_| Value::tuple(vec![Value::Int(0), Value::Int(0)]))
            .collect();
        pw.push(Value::tuple(vec![
            Value::Int(0),
            Value::Int((keep - n) as i64),
        ]));
        arr(i, span, "pad", vec![bits.into(), Value::tuple(pw)], vec![])?
    };
    Ok(Value::Array(axis_back(i, span, bits, ax)?))
}
