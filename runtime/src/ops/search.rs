//! The searching half of the sorting family (entries in `sort.rs`):
//! `searchsorted`, `unique`, `nonzero argwhere flatnonzero` (and the
//! one-argument `where`), `isin`: arguments checked, dtypes promoted, empty
//! inputs answered here, the rest by `backend::sort` jobs. `unique` along an
//! axis is composed of device ops (a stable argsort per column, last column
//! first, sorts the slices; starts where a slice differs from the previous),
//! so it runs on every device like the rest.

use super::sort::{axis_arg, empty_like, flag, input, sort_along};
use crate::array::index::Index;
use crate::array::shape_ops::norm_axis;
use crate::array::{Array, Scalar};
use crate::backend;
use crate::dtype::{DType, Kind, promote_kinds};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{ReduceOp, SortJob, SortOp};
use crate::ops::fuse::{self, Operand};
use crate::value::Value;

/// How a value takes part in dtype promotion.
fn kind_of(v: &Value, a: Option<&Array>) -> Kind {
    match (v, a) {
        (Value::Int(_), _) => Kind::WeakInt,
        (Value::Float(_), _) => Kind::WeakFloat,
        (Value::Bool(_), _) => Kind::WeakBool,
        (_, Some(a)) => Kind::Strong(a.dtype()),
        _ => Kind::WeakInt,
    }
}

/// `v` as an array of `dtype` on `dev`: an array argument must already be
/// there (nothing is moved behind the user's back); numbers and lists are made there.
fn operand_on(i: &Interp, v: &Value, dtype: DType, dev: crate::Device, op: &str) -> Result<Array> {
    let a = match v {
        Value::Array(a) => {
            if a.device() != dev {
                return Err(Error::device_mismatch(op, dev, a.device()));
            }
            a.clone()
        }
        // A Python number made in the promoted dtype itself (not floatX first).
        v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_)) => backend::to_device(
            &crate::array::create::value_to_array(v, Some(dtype), i.float_x())?,
            dev,
        )?,
        v => backend::to_device(&super::creation::array_arg(i, v)?, dev)?,
    };
    if a.dtype() == dtype {
        Ok(a)
    } else {
        a.astype(dtype)
    }
}

/// Both operands in their promoted dtype (NumPy 2's rules with weak
/// scalars; `strong_numbers`: a Python number as int64/float64 beside an
/// array, as searchsorted), on the device of the first array among them.
fn promoted(
    i: &Interp,
    a: &Value,
    b: &Value,
    op: &str,
    strong_numbers: bool,
) -> Result<(Array, Array)> {
    let strong = |v: &Value| match v {
        Value::Array(x) => Ok(Some(x.clone())),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Ok(None),
        v => input(i, v.clone()).map(Some),
    };
    let (aa, bb) = (strong(a)?, strong(b)?);
    let mut kinds = [kind_of(a, aa.as_ref()), kind_of(b, bb.as_ref())];
    // NumPy's searchsorted finds the values' dtype from the Python number
    // itself (int64, float64), not as a weak scalar: 3e9 is not wrapped
    // into an int32 array's type, 2.0000001 is not rounded to float32.
    if strong_numbers && aa.is_some() {
        kinds[1] = match kinds[1] {
            Kind::WeakInt => Kind::Strong(DType::Int64),
            Kind::WeakFloat => Kind::Strong(DType::Float64),
            k => k,
        };
    }
    let fx = i.float_x();
    let dt = match promote_kinds(&kinds, fx) {
        // Two weak scalars: the array a Python number makes.
        Kind::WeakInt => DType::Int64,
        Kind::WeakBool => DType::Bool,
        k => k.dtype(fx),
    };
    let dev = aa
        .as_ref()
        .or(bb.as_ref())
        .map_or(crate::Device::Cpu, |x| x.device());
    let on = |v: &Value, x: Option<Array>| match x {
        Some(x) => operand_on(i, &Value::Array(x), dt, dev, op),
        None => operand_on(i, v, dt, dev, op),
    };
    Ok((on(a, aa)?, on(b, bb)?))
}

pub fn searchsorted_call(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = args.req("a")?;
    let v = args.req("v")?;
    let side = args.opt("side")?;
    let sorter = args.opt("sorter")?;
    args.finish_with(&["side", "sorter"])?;
    let right = match side {
        None => false,
        Some(Value::Str(s)) if &*s == "left" => false,
        Some(Value::Str(s)) if &*s == "right" => true,
        Some(s) => {
            return Err(Error::value(format!(
                "side must be \"left\" or \"right\", not {}",
                match &s {
                    Value::Str(t) => format!("\"{t}\""),
                    s => s.a_type_name(),
                }
            )));
        }
    };
    let (a, v) = promoted(i, &a, &v, "searchsorted", true)?;
    if a.ndim() != 1 {
        return Err(Error::value(format!(
            "searchsorted needs a 1-d array a, got one of shape {}",
            crate::array::layout::fmt_shape(a.shape())
        ))
        .with_help("flatten it first (a.ravel()), or search each row"));
    }
    let m = a.size();
    let sorter = match sorter {
        None | Some(Value::None) => None,
        Some(s) => Some(sorter_arg(i, &s, &a)?),
    };
    if m == 0 || v.size() == 0 {
        return Ok(Value::Array(backend::create::full(
            v.shape(),
            Scalar::Int(0),
            DType::Int64,
            v.device(),
        )?));
    }
    let job = SortJob::Searchsorted {
        a: &a,
        v: &v,
        right,
        sorter: sorter.as_ref(),
    };
    let mut r = backend::sort::run(&job, a.device())?;
    Ok(Value::Array(r.remove(0)))
}

/// `sorter=`: ints, one per element of `a`, each a position in `a` (checked
/// here: on a GPU that is a reduction and one sync to read its result).
fn sorter_arg(i: &Interp, s: &Value, a: &Array) -> Result<Array> {
    let s = operand_on(
        i,
        s,
        match s {
            Value::Array(x) => x.dtype(),
            _ => DType::Int64,
        },
        a.device(),
        "searchsorted",
    )?;
    if !s.dtype().is_int() {
        return Err(Error::type_(format!(
            "sorter must hold ints, not {}",
            s.dtype()
        )));
    }
    if s.size() != a.size() || s.ndim() != 1 {
        return Err(Error::value(format!(
            "sorter must be 1-d with one position per element of a ({}), got shape {}",
            a.size(),
            crate::array::layout::fmt_shape(s.shape())
        )));
    }
    if s.size() > 0 {
        let fx = i.float_x();
        let lo = super::reduce::reduce(ReduceOp::Min, &s, None, false, fx)?.to_vec::<i64>()?[0];
        let hi = super::reduce::reduce(ReduceOp::Max, &s, None, false, fx)?.to_vec::<i64>()?[0];
        if lo < 0 || hi >= a.size() as i64 {
            return Err(Error::value(format!(
                "sorter holds position {} outside a of length {}",
                if lo < 0 { lo } else { hi },
                a.size()
            ))
            .with_help("sorter is usually argsort(a)"));
        }
    }
    let s = s.astype(DType::Int64)?;
    s.contiguous()
}

pub fn unique_call(i: &mut Interp, mut args: Args) -> Result<Value> {
    let x = input(i, args.req("x")?)?;
    let index = flag(args.opt("return_index")?, "return_index", false)?;
    let inverse = flag(args.opt("return_inverse")?, "return_inverse", false)?;
    let counts = flag(args.opt("return_counts")?, "return_counts", false)?;
    let axis = axis_arg(args.opt("axis")?, None)?;
    let equal_nan = flag(args.kw("equal_nan"), "equal_nan", true)?;
    // NumPy 2.3's sorted=: false leaves the order unspecified; sorted is one
    // such order, so both give the sorted values.
    flag(args.kw("sorted"), "sorted", true)?;
    args.finish_with(&[
        "return_index",
        "return_inverse",
        "return_counts",
        "axis",
        "equal_nan",
        "sorted",
    ])?;
    let mut parts = match axis {
        Some(ax) => unique_axis(&x, ax, index, inverse, counts)?,
        None => unique_flat(&x, index, inverse, counts, equal_nan)?,
    };
    if !(index || inverse || counts) {
        return Ok(Value::Array(parts.remove(0)));
    }
    Ok(Value::tuple(parts.into_iter().map(Value::Array).collect()))
}

fn unique_flat(
    x: &Array,
    index: bool,
    inverse: bool,
    counts: bool,
    equal_nan: bool,
) -> Result<Vec<Array>> {
    if x.size() == 0 {
        let mut out = vec![empty_like(x, &[0], x.dtype())?];
        if index {
            out.push(empty_like(x, &[0], DType::Int64)?);
        }
        if inverse {
            out.push(empty_like(x, x.shape(), DType::Int64)?);
        }
        if counts {
            out.push(empty_like(x, &[0], DType::Int64)?);
        }
        return Ok(out);
    }
    let xc = x.contiguous()?;
    let job = SortJob::Unique {
        x: &xc,
        index,
        inverse,
        counts,
        equal_nan,
    };
    backend::sort::run(&job, x.device())
}

/// An elementwise op of the table on two operands.
fn ew(op: &str, a: Operand, b: Operand) -> Result<Array> {
    match fuse::apply(op, vec![a, b], DType::Float64)? {
        Operand::Array(r) => Ok(r),
        _ => Err(Error::internal(
            "unique: a scalar where an array was expected",
        )),
    }
}

/// The int64 range 0..n on `like`'s device.
fn arange_on(n: usize, like: &Array) -> Result<Array> {
    backend::to_device(
        &Array::from_vec((0..n as i64).collect::<Vec<i64>>(), vec![n]),
        like.device(),
    )
}

/// The distinct slices of `x` along `axis`, in lexicographic order
/// (NumPy's: slices compared element by element, nans last and a nan
/// slice never equal to another), with first positions, inverse, counts.
fn unique_axis(
    x: &Array,
    axis: i64,
    index: bool,
    inverse: bool,
    counts: bool,
) -> Result<Vec<Array>> {
    let nd = x.ndim();
    let ax = norm_axis(axis, nd, "unique")?;
    let mut perm: Vec<i64> = vec![ax as i64];
    perm.extend((0..nd as i64).filter(|&d| d != ax as i64));
    let moved = x.transpose(Some(&perm))?.contiguous()?;
    let n = moved.shape()[0];
    let rest: Vec<usize> = moved.shape()[1..].to_vec();
    let m: usize = rest.iter().product();
    let rows = moved.reshape(&[n as i64, m as i64])?;
    // Row order: stable argsorts by column, the last column first.
    let mut order = arange_on(n, x)?;
    if n > 1 {
        for c in (0..m).rev() {
            let col = rows.index(&[Index::Array(order.clone()), Index::Int(c as i64)])?;
            let o = sort_along(&col, Some(0), false, false, true)?.remove(0);
            order = order.index(&[Index::Array(o)])?;
        }
    }
    let sorted = rows.index(&[Index::Array(order.clone())])?;
    // A slice starts a group when it differs from the previous one anywhere.
    let starts = if n == 0 {
        empty_like(x, &[0], DType::Int64)?
    } else {
        let head = backend::create::full(&[1], Scalar::Bool(true), DType::Bool, x.device())?;
        let flags = if n > 1 && m > 0 {
            let s = |a: Option<i64>, b: Option<i64>| {
                sorted.index(&[Index::Slice {
                    start: a,
                    stop: b,
                    step: None,
                }])
            };
            let ne = ew(
                "not_equal",
                Operand::Array(s(Some(1), None)?),
                Operand::Array(s(None, Some(-1))?),
            )?;
            let diff =
                super::reduce::reduce(ReduceOp::Any, &ne, Some(&[1]), false, DType::Float64)?;
            Array::concat(&[head, diff], 0)?
        } else if n > 1 {
            let rest =
                backend::create::full(&[n - 1], Scalar::Bool(false), DType::Bool, x.device())?;
            Array::concat(&[head, rest], 0)?
        } else {
            head
        };
        let job = SortJob::Flatnonzero { x: &flags };
        backend::sort::run(&job, x.device())?.remove(0)
    };
    let u = starts.size();
    let picked = sorted.index(&[Index::Array(starts.clone())])?;
    let mut vshape = vec![u as i64];
    vshape.extend(rest.iter().map(|&d| d as i64));
    let mut inv_perm = vec![0i64; nd];
    for (k, &p) in perm.iter().enumerate() {
        inv_perm[p as usize] = k as i64;
    }
    let values = picked.reshape(&vshape)?.transpose(Some(&inv_perm))?;
    let mut out = vec![values];
    if index {
        out.push(order.index(&[Index::Array(starts.clone())])?);
    }
    if inverse {
        let inv = if n == 0 {
            empty_like(x, &[0], DType::Int64)?
        } else {
            // The group of sorted slice i is the last start at or before i.
            let pos = arange_on(n, x)?;
            let job = SortJob::Searchsorted {
                a: &starts,
                v: &pos,
                right: true,
                sorter: None,
            };
            let g = backend::sort::run(&job, x.device())?.remove(0);
            let g = ew("subtract", Operand::Array(g), Operand::Int(1))?;
            let (g2, o2) = (g.reshape(&[1, n as i64])?, order.reshape(&[1, n as i64])?);
            let job = SortJob::ScatterLanes {
                g: &g2,
                idx: &o2,
                n,
            };
            backend::sort::run(&job, x.device())?
                .remove(0)
                .reshape(&[n as i64])?
        };
        out.push(inv);
    }
    if counts {
        let c = if u == 0 {
            empty_like(x, &[0], DType::Int64)?
        } else {
            let end = backend::create::full(&[1], Scalar::Int(n as i64), DType::Int64, x.device())?;
            let next = Array::concat(
                &[
                    starts.index(&[Index::Slice {
                        start: Some(1),
                        stop: None,
                        step: None,
                    }])?,
                    end,
                ],
                0,
            )?;
            ew("subtract", Operand::Array(next), Operand::Array(starts))?
        };
        out.push(c);
    }
    Ok(out)
}

pub fn nonzero_call(op: SortOp, i: &mut Interp, mut args: Args) -> Result<Value> {
    let x = input(i, args.req("x")?)?;
    args.finish()?;
    let nd = x.ndim();
    match op {
        SortOp::Flatnonzero => {
            let flat = x.reshape(&[-1])?.contiguous()?;
            let r = if flat.size() == 0 {
                empty_like(&flat, &[0], DType::Int64)?
            } else {
                backend::sort::run(&SortJob::Flatnonzero { x: &flat }, x.device())?.remove(0)
            };
            Ok(Value::Array(r))
        }
        _ if nd == 0 && op == SortOp::Nonzero => Err(Error::value(
            "nonzero of a 0-d array is not allowed (NumPy 2 refuses it too)",
        )
        .with_help("make it 1-d first: nonzero(x.reshape(1)), or flatnonzero(x)")),
        _ if nd == 0 => {
            // argwhere of a 0-d array: one row of no coordinates when nonzero.
            let nz = x.to_vec::<f64>()?[0] != 0.0;
            Ok(Value::Array(empty_like(
                &x,
                &[nz as usize, 0],
                DType::Int64,
            )?))
        }
        _ => {
            let xc = x.contiguous()?;
            let coords = if xc.size() == 0 {
                empty_like(&xc, &[nd, 0], DType::Int64)?
            } else {
                backend::sort::run(&SortJob::Nonzero { x: &xc }, x.device())?.remove(0)
            };
            if op == SortOp::Argwhere {
                return Ok(Value::Array(coords.transpose(None)?));
            }
            // Each dimension's row of the (ndim, count) coordinates (a view;
            // fresh empty arrays when there are none: a view of an empty
            // buffer past its start is not one).
            let rows = (0..nd as i64)
                .map(|d| match coords.shape()[1] {
                    0 => empty_like(&coords, &[0], DType::Int64),
                    _ => coords.index(&[Index::Int(d)]),
                })
                .map(|r| r.map(Value::Array))
                .collect::<Result<Vec<_>>>()?;
            Ok(Value::tuple(rows))
        }
    }
}

pub fn isin_call(i: &mut Interp, mut args: Args) -> Result<Value> {
    let element = args.req("element")?;
    let test = args.req("test_elements")?;
    let invert = flag(args.opt("invert")?, "invert", false)?;
    let _assume_unique = flag(args.kw("assume_unique"), "assume_unique", false)?;
    args.finish_with(&["invert", "assume_unique"])?;
    let (x, t) = promoted(i, &element, &test, "isin", false)?;
    if x.size() == 0 || t.size() == 0 {
        return Ok(Value::Array(backend::create::full(
            x.shape(),
            Scalar::Bool(invert),
            DType::Bool,
            x.device(),
        )?));
    }
    let job = SortJob::Isin {
        x: &x,
        test: &t,
        invert,
    };
    Ok(Value::Array(
        backend::sort::run(&job, x.device())?.remove(0),
    ))
}
