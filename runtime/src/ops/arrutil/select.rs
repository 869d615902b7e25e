//! NumPy's `compress extract unstack matvec vecmat block`: selections by a
//! condition (one sync to learn the output size, then `take` on the
//! array's device), the NumPy 2.1/2.2 additions unstack, matvec and vecmat
//! (through matmul), and `block` (nested lists concatenated innermost
//! along the last axis), all composed of taped table ops.

use crate::array::Array;
use crate::array::index::Index;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::op;
use crate::ops::nparr::{
    arr, data, data_on, device_of, int, norm_axis, ravel, reshape, tuple_of, value_err,
};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "compress",
        "compress(condition, a, axis=none)",
        "The slices of a along axis (of the flattened a when axis is none) where the 1-d condition is nonzero; a condition shorter than the axis counts as false beyond its end. Differentiable in a.",
        false,
        compress
    ),
    op!(
        "extract",
        "extract(condition, arr)",
        "The elements of arr (flattened) where condition (flattened) is nonzero, as a 1-d array. Differentiable in arr.",
        false,
        extract
    ),
    op!(
        "unstack",
        "unstack(x, axis=0)",
        "A tuple of the slices of x along axis (NumPy 2.1): x[0], x[1]... for axis 0. Differentiable.",
        false,
        unstack
    ),
    op!(
        "matvec",
        "matvec(x1, x2)",
        "Matrix-vector products over the last axes (NumPy 2.2): x1 (..., m, n) times x2 (..., n) gives (..., m), the batch axes broadcast. Differentiable.",
        false,
        matvec
    ),
    op!(
        "vecmat",
        "vecmat(x1, x2)",
        "Vector-matrix products over the last axes (NumPy 2.2): conj(x1) (..., n) times x2 (..., n, m) gives (..., m), the batch axes broadcast. Differentiable.",
        false,
        vecmat
    ),
    op!(
        "block",
        "block(arrays)",
        "An array assembled from nested lists of blocks: the innermost lists are joined along the last axis, the next ones along the axis before, and so on; every block is first given leading axes of size 1 up to the result's ndim (the larger of the nesting depth and the blocks' ndim). Lists only (a tuple is an error), every leaf at one depth. Differentiable.",
        false,
        block
    ),
];

/// The flat nonzero positions of a 1-d condition, on `dev`.
fn positions(i: &mut Interp, span: Span, c: &Array) -> Result<Array> {
    arr(i, span, "flatnonzero", vec![c.clone().into()], vec![])
}

fn compress(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "compress";
    let condv = a.req("condition")?;
    let xv = a.req("a")?;
    let axis = a.opt("axis")?;
    a.finish_with(&["axis"])?;
    let dev = device_of(i, &[&xv, &condv]);
    let x = data_on(i, xv, dev, name, "a")?;
    let c = data_on(i, condv, dev, name, "condition")?;
    if c.ndim() != 1 {
        return Err(value_err(
            name,
            format!("condition must be a 1-d array, got {} dims", c.ndim()),
            "give a 1-d condition, e.g. x[:, 0] > 0",
        ));
    }
    let idx = positions(i, span, &c)?;
    let (x, axis) = match axis {
        None | Some(Value::None) => (ravel(i, span, &x)?, 0i64),
        Some(v) => {
            let k = int(&v, name, "axis")?;
            norm_axis(k, x.ndim(), name)?;
            (x, k)
        }
    };
    Ok(Value::Array(arr(
        i,
        span,
        "take",
        vec![x.into(), idx.into()],
        vec![("axis", Value::Int(axis))],
    )?))
}

fn extract(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "extract";
    let condv = a.req("condition")?;
    let xv = a.req("arr")?;
    a.finish()?;
    let dev = device_of(i, &[&xv, &condv]);
    let x = data_on(i, xv, dev, name, "arr")?;
    let c = data_on(i, condv, dev, name, "condition")?;
    let idx = positions(i, span, &c)?;
    let flat = ravel(i, span, &x)?;
    Ok(Value::Array(arr(
        i,
        span,
        "take",
        vec![flat.into(), idx.into()],
        vec![],
    )?))
}

fn unstack(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "unstack";
    let x = data(i, a.req("x")?, name, "x")?;
    let axis = match a.opt("axis")? {
        None => 0,
        Some(v) => int(&v, name, "axis")?,
    };
    a.finish_with(&["axis"])?;
    if x.ndim() == 0 {
        return Err(value_err(
            name,
            "Input array must be at least 1-d.".into(),
            "give an array with an axis to unstack",
        ));
    }
    let ax = norm_axis(axis, x.ndim(), name)?;
    let mut out = Vec::with_capacity(x.shape()[ax]);
    for k in 0..x.shape()[ax] {
        let idx: Vec<Index> = (0..x.ndim())
            .map(|d| {
                if d == ax {
                    Index::Int(k as i64)
                } else {
                    Index::full()
                }
            })
            .collect();
        out.push(i.index_array(&x, &idx)?);
    }
    Ok(tuple_of(out))
}

/// The two operands of matvec/vecmat on one device, checked against the
/// gufunc signature's core dims.
fn operands(
    i: &mut Interp,
    a: &mut Args,
    name: &str,
    sig: &str,
    need: [usize; 2],
) -> Result<(Array, Array)> {
    let x1v = a.req("x1")?;
    let x2v = a.req("x2")?;
    let dev = device_of(i, &[&x1v, &x2v]);
    let x1 = data_on(i, x1v, dev, name, "x1")?;
    let x2 = data_on(i, x2v, dev, name, "x2")?;
    for (k, (x, n)) in [(&x1, need[0]), (&x2, need[1])].into_iter().enumerate() {
        if x.ndim() < n {
            return Err(value_err(
                name,
                format!(
                    "Input operand {k} does not have enough dimensions (has {}, gufunc core with signature {sig} requires {n})",
                    x.ndim()
                ),
                if need[0] == 2 {
                    "x1 is a matrix (..., m, n), x2 a vector (..., n)"
                } else {
                    "x1 is a vector (..., n), x2 a matrix (..., n, m)"
                },
            ));
        }
    }
    Ok((x1, x2))
}

fn core_mismatch(name: &str, sig: &str, n1: usize, n2: usize) -> Error {
    value_err(
        name,
        format!(
            "Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {sig} (size {n2} is different from {n1})"
        ),
        "the contracted axis must have one size in both operands",
    )
}

fn matvec(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "matvec";
    let sig = "(m,n),(n)->(m)";
    let (x1, x2) = operands(i, &mut a, name, sig, [2, 1])?;
    a.finish()?;
    let n1 = x1.shape()[x1.ndim() - 1];
    let n2 = x2.shape()[x2.ndim() - 1];
    if n1 != n2 {
        return Err(core_mismatch(name, sig, n1, n2));
    }
    let col = arr(
        i,
        span,
        "expand_dims",
        vec![x2.into(), Value::Int(-1)],
        vec![],
    )?;
    let p = arr(i, span, "matmul", vec![x1.into(), col.into()], vec![])?;
    let r = i.index_array(&p, &[Index::Ellipsis, Index::Int(0)])?;
    Ok(Value::Array(r))
}

fn vecmat(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "vecmat";
    let sig = "(n),(n,m)->(m)";
    let (x1, x2) = operands(i, &mut a, name, sig, [1, 2])?;
    a.finish()?;
    let n1 = x1.shape()[x1.ndim() - 1];
    let n2 = x2.shape()[x2.ndim() - 2];
    if n1 != n2 {
        return Err(core_mismatch(name, sig, n1, n2));
    }
    let x1 = if x1.dtype().is_complex() {
        arr(i, span, "conj", vec![x1.into()], vec![])?
    } else {
        x1
    };
    let row = arr(
        i,
        span,
        "expand_dims",
        vec![x1.into(), Value::Int(-2)],
        vec![],
    )?;
    let p = arr(i, span, "matmul", vec![row.into(), x2.into()], vec![])?;
    let r = i.index_array(&p, &[Index::Ellipsis, Index::Int(0), Index::full()])?;
    Ok(Value::Array(r))
}

/// Depth of the nested lists at the first leaf, checking that every leaf
/// is at that depth (NumPy's messages).
fn list_depth(v: &Value, path: &mut Vec<usize>, first: &mut Option<usize>) -> Result<()> {
    let name = "block";
    let here = || path.iter().map(|k| format!("[{k}]")).collect::<String>();
    match v {
        Value::Tuple(_) => Err(Error::type_(format!(
            "block: arrays{} is a tuple. Only lists can be used to arrange blocks, and np.block does not allow implicit conversion from tuple to ndarray.",
            here()
        ))
        .with_op(name)
        .with_help("write the blocks as lists: block([[a, b], [c, d]])")),
        Value::List(_) => {
            let items = v.seq_items().unwrap_or_default();
            if items.is_empty() {
                return Err(value_err(
                    name,
                    format!("List at arrays{} cannot be empty", here()),
                    "give every list at least one block",
                ));
            }
            for (k, it) in items.iter().enumerate() {
                path.push(k);
                list_depth(it, path, first)?;
                path.pop();
            }
            Ok(())
        }
        _ => {
            let d = path.len();
            match first {
                None => {
                    *first = Some(d);
                    Ok(())
                }
                Some(f) if *f != d => Err(value_err(
                    name,
                    format!(
                        "List depths are mismatched. First element was at depth {f}, but there is an element at depth {d} (arrays{})",
                        here()
                    ),
                    "put every block at the same nesting depth",
                )),
                _ => Ok(()),
            }
        }
    }
}

fn block(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "block";
    let v = a.req("arrays")?;
    a.finish()?;
    let mut first = None;
    list_depth(&v, &mut Vec::new(), &mut first)?;
    let depth = first.unwrap_or(0);
    let dev = device_of(i, &[&v]);
    // The leaves as arrays, to learn the result's ndim.
    fn leaves(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::List(_) => {
                for it in v.seq_items().unwrap_or_default().iter() {
                    leaves(it, out);
                }
            }
            v => out.push(v.clone()),
        }
    }
    let mut ls = Vec::new();
    leaves(&v, &mut ls);
    let mut arrays = Vec::with_capacity(ls.len());
    for l in ls {
        arrays.push(data_on(i, l, dev, name, "arrays")?);
    }
    let nd = arrays
        .iter()
        .map(|x| x.ndim())
        .max()
        .unwrap_or(0)
        .max(depth);
    let mut next = arrays.into_iter();
    let r = assemble(i, span, &v, 0, depth, nd, &mut next)?;
    Ok(Value::Array(r))
}

/// The block of list `v` at nesting level `level`.
fn assemble(
    i: &mut Interp,
    span: Span,
    v: &Value,
    level: usize,
    depth: usize,
    nd: usize,
    next: &mut std::vec::IntoIter<Array>,
) -> Result<Array> {
    match v {
        Value::List(_) => {
            let items = v.seq_items().unwrap_or_default();
            let parts = items
                .iter()
                .map(|it| assemble(i, span, it, level + 1, depth, nd, next).map(Value::Array))
                .collect::<Result<Vec<_>>>()?;
            let axis = -((depth - level) as i64);
            arr(
                i,
                span,
                "concatenate",
                vec![Value::list(parts)],
                vec![("axis", Value::Int(axis))],
            )
            .map_err(|e| {
                let mut e = e;
                e.message = format!("block: {}", e.message);
                e
            })
        }
        _ => {
            let x = next
                .next()
                .ok_or_else(|| Error::internal("block: leaf count"))?;
            if x.ndim() == nd {
                return Ok(x);
            }
            let mut s = vec![1usize; nd - x.ndim()];
            s.extend(x.shape());
            reshape(i, span, &x, &s)
        }
    }
}
