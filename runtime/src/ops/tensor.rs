//! Products over chosen axes: `tensordot`, `inner`, `kron`, `cross` (NumPy's
//! semantics and dtypes). Each is a few transposes, reshapes, one matmul or
//! elementwise products, called through the interpreter so gradients come
//! from those ops' rules.

use super::creation::op;
use super::linalg_args::{arr, same_device};
use super::linalg_calls::{Calls, leaf};
use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::index::Index;
use crate::array::layout::{broadcast_shapes, fmt_shape};
use crate::array::shape_ops::norm_axis;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "tensordot",
        "tensordot(a, b, axes=2)",
        "Sum of products over axes: axes=N pairs a's last N axes with b's first N; axes=(axes_a, axes_b) names them. The result has a's remaining axes, then b's.",
        false,
        tensordot
    ),
    op!(
        "inner",
        "inner(a, b)",
        "Inner product over the last axes: result[i..., j...] = sum(a[i..., :] * b[j..., :]); a scalar operand scales.",
        false,
        inner
    ),
    op!(
        "kron",
        "kron(a, b)",
        "The Kronecker product: blocks a[i, j] * b (any number of dims; the shorter shape gets leading 1s).",
        false,
        kron
    ),
    op!(
        "cross",
        "cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=none)",
        "The cross product of 3-vectors (2-vectors give the z component) along axisa of a and axisb of b, broadcast over the other dims; the result's vectors lie along axisc (axis= sets all three).",
        false,
        cross
    ),
];

/// One side's contracted axes: an int, or a list/tuple of ints.
fn axis_list(v: &Value, nd: usize) -> Result<Vec<usize>> {
    let one = |v: &Value| match super::stat_args::index_of(v) {
        Some(i) => norm_axis(i, nd, "tensordot"),
        None => Err(Error::type_(format!(
            "tensordot: axes must hold ints, got {}",
            v.a_type_name()
        ))
        .with_op("tensordot")),
    };
    match v.seq_items() {
        Some(t) => t.iter().map(one).collect(),
        None => Ok(vec![one(v)?]),
    }
}

fn tensordot(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    let axes = args.opt("axes")?.unwrap_or(Value::Int(2));
    args.finish_with(&["axes"])?;
    let (na, nb) = (a.ndim(), b.ndim());
    let (aa, ba) = match (&axes, super::stat_args::index_of(&axes)) {
        (_, Some(k)) => {
            if k < 0 || k as usize > na.min(nb) {
                return Err(Error::value(format!(
                    "tensordot: axes={k} but the arrays have {na} and {nb} dims"
                ))
                .with_op("tensordot")
                .with_help("axes is between 0 and the smaller number of dims"));
            }
            let k = k as usize;
            ((na - k..na).collect(), (0..k).collect())
        }
        (v @ (Value::Tuple(_) | Value::List(_)), _)
            if v.seq_items().is_some_and(|t| t.len() == 2) =>
        {
            let t = v.seq_items().unwrap_or_default();
            (axis_list(&t[0], na)?, axis_list(&t[1], nb)?)
        }
        (v, _) => {
            return Err(Error::type_(format!(
                "tensordot: axes must be an int or a pair of axis lists, got {}",
                v.a_type_name()
            ))
            .with_op("tensordot"));
        }
    };
    let mut c = Calls::new(i, span);
    Ok(tensordot_arrays(&mut c, &a, &b, &aa, &ba)?.into())
}

/// a and b contracted over a's axes `aa` paired with b's `ba`.
pub fn tensordot_arrays(
    c: &mut Calls,
    a: &Array,
    b: &Array,
    aa: &[usize],
    ba: &[usize],
) -> Result<Array> {
    same_device("tensordot", a, b)?;
    let mismatch = || {
        Error::shape(
            "tensordot",
            format!(
                "tensordot: shape mismatch for the sum: axes {aa:?} of a {} and {ba:?} of b {}",
                fmt_shape(a.shape()),
                fmt_shape(b.shape())
            ),
        )
        .with_help("the paired axes must have equal lengths")
    };
    if aa.len() != ba.len() {
        return Err(mismatch());
    }
    for (&x, &y) in aa.iter().zip(ba) {
        if a.shape()[x] != b.shape()[y] {
            return Err(mismatch());
        }
    }
    let dup = |v: &[usize]| v.iter().enumerate().any(|(k, x)| v[..k].contains(x));
    if dup(aa) || dup(ba) {
        return Err(Error::value("tensordot: repeated axis in axes").with_op("tensordot"));
    }
    let free_a: Vec<usize> = (0..a.ndim()).filter(|d| !aa.contains(d)).collect();
    let free_b: Vec<usize> = (0..b.ndim()).filter(|d| !ba.contains(d)).collect();
    let size = |x: &Array, d: &[usize]| d.iter().map(|&k| x.shape()[k]).product::<usize>();
    let (pa, s, pb) = (size(a, &free_a), size(a, aa), size(b, &free_b));
    let at = c.permute(a, &[free_a.as_slice(), aa].concat())?;
    let at = c.reshape(&at, &[pa, s])?;
    let bt = c.permute(b, &[ba, free_b.as_slice()].concat())?;
    let bt = c.reshape(&bt, &[s, pb])?;
    let r = c.matmul(&at, &bt)?;
    let mut shape: Vec<usize> = free_a.iter().map(|&k| a.shape()[k]).collect();
    shape.extend(free_b.iter().map(|&k| b.shape()[k]));
    c.reshape(&r, &shape)
}

fn inner(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    args.finish()?;
    let mut c = Calls::new(i, span);
    if a.ndim() == 0 || b.ndim() == 0 {
        same_device("inner", &a, &b)?;
        return Ok(c.tree(leaf(&a) * leaf(&b))?.into());
    }
    let (ka, kb) = (a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 1]);
    if ka != kb {
        return Err(Error::shape(
            "inner",
            format!(
                "inner: shapes {} and {} not aligned: last dims {ka} != {kb}",
                fmt_shape(a.shape()),
                fmt_shape(b.shape())
            ),
        )
        .with_help("inner sums over the last axis of both arrays"));
    }
    Ok(tensordot_arrays(&mut c, &a, &b, &[a.ndim() - 1], &[b.ndim() - 1])?.into())
}

fn kron(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    args.finish()?;
    same_device("kron", &a, &b)?;
    let nd = a.ndim().max(b.ndim());
    let pad = |x: &Array| {
        let mut s = vec![1; nd - x.ndim()];
        s.extend_from_slice(x.shape());
        s
    };
    let (sa, sb) = (pad(&a), pad(&b));
    let ia: Vec<usize> = sa.iter().flat_map(|&d| [d, 1]).collect();
    let ib: Vec<usize> = sb.iter().flat_map(|&d| [1, d]).collect();
    let mut c = Calls::new(i, span);
    let a2 = c.reshape(&a, &ia)?;
    let b2 = c.reshape(&b, &ib)?;
    let p = c.tree(leaf(&a2) * leaf(&b2))?;
    let out: Vec<usize> = sa.iter().zip(&sb).map(|(x, y)| x * y).collect();
    Ok(c.reshape(&p, &out)?.into())
}

fn axis_kw(args: &mut Args, name: &str, default: i64) -> Result<i64> {
    match args.opt(name)? {
        None => Ok(default),
        Some(v) => crate::builtins::lang::int_arg(&v, name),
    }
}

fn cross(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    let mut axisa = axis_kw(&mut args, "axisa", -1)?;
    let mut axisb = axis_kw(&mut args, "axisb", -1)?;
    let mut axisc = axis_kw(&mut args, "axisc", -1)?;
    if let Some(v) = args.opt("axis")?.filter(|v| !matches!(v, Value::None)) {
        let ax = crate::builtins::lang::int_arg(&v, "axis")?;
        (axisa, axisb, axisc) = (ax, ax, ax);
    }
    args.finish_with(&["axisa", "axisb", "axisc", "axis"])?;
    same_device("cross", &a, &b)?;
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(
            Error::value("cross: at least one array has zero dimensions")
                .with_op("cross")
                .with_help("cross takes arrays of 2- or 3-vectors"),
        );
    }
    let (axa, axb) = (
        norm_axis(axisa, a.ndim(), "cross")?,
        norm_axis(axisb, b.ndim(), "cross")?,
    );
    let mut c = Calls::new(i, span);
    let last = |c: &mut Calls, x: &Array, ax: usize| {
        let mut p: Vec<usize> = (0..x.ndim()).filter(|&d| d != ax).collect();
        p.push(ax);
        c.permute(x, &p)
    };
    let (a, b) = (last(&mut c, &a, axa)?, last(&mut c, &b, axb)?);
    let (da, db) = (a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 1]);
    if !matches!(da, 2 | 3) || !matches!(db, 2 | 3) {
        return Err(Error::value(format!(
            "cross: incompatible dimensions for cross product: vectors of length {da} and {db} (must be 2 or 3)"
        ))
        .with_op("cross"));
    }
    let sa = &a.shape()[..a.ndim() - 1];
    let sb = &b.shape()[..b.ndim() - 1];
    broadcast_shapes(sa, sb, "cross")?;
    let comp = |c: &mut Calls, x: &Array, k: i64| c.index(x, &[Index::Ellipsis, Index::Int(k)]);
    let (a0, a1) = (comp(&mut c, &a, 0)?, comp(&mut c, &a, 1)?);
    let (b0, b1) = (comp(&mut c, &b, 0)?, comp(&mut c, &b, 1)?);
    let z = c.tree(leaf(&a0) * leaf(&b1) - leaf(&a1) * leaf(&b0))?;
    if da == 2 && db == 2 {
        return Ok(z.into());
    }
    let (x, y) = match (da, db) {
        (3, 3) => {
            let (a2, b2) = (comp(&mut c, &a, 2)?, comp(&mut c, &b, 2)?);
            (
                c.tree(leaf(&a1) * leaf(&b2) - leaf(&a2) * leaf(&b1))?,
                c.tree(leaf(&a2) * leaf(&b0) - leaf(&a0) * leaf(&b2))?,
            )
        }
        (2, _) => {
            let b2 = comp(&mut c, &b, 2)?;
            (
                c.tree(leaf(&a1) * leaf(&b2))?,
                c.tree(-(leaf(&a0) * leaf(&b2)))?,
            )
        }
        _ => {
            let a2 = comp(&mut c, &a, 2)?;
            (
                c.tree(-(leaf(&a2) * leaf(&b1)))?,
                c.tree(leaf(&a2) * leaf(&b0))?,
            )
        }
    };
    // x, y, z broadcast to one shape, stacked on the last axis, moved to axisc.
    let shape = broadcast_shapes(x.shape(), z.shape(), "cross")?;
    let shape = broadcast_shapes(&shape, y.shape(), "cross")?;
    let parts: Vec<Value> = [x, y, z]
        .into_iter()
        .map(|p| {
            c.arr(
                "broadcast_to",
                vec![p.into(), super::linalg_calls::shape_value(&shape)],
                vec![],
            )
            .map(Value::Array)
        })
        .collect::<Result<_>>()?;
    let st = c.arr("stack", vec![Value::list(parts), Value::Int(-1)], vec![])?;
    let nd = st.ndim();
    let axc = norm_axis(axisc, nd, "cross")?;
    let mut p: Vec<usize> = (0..nd - 1).collect();
    p.insert(axc, nd - 1);
    Ok(c.permute(&st, &p)?.into())
}
