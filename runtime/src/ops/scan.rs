//! Scans and differences: `cumsum cumprod cummax cummin` (each carries its
//! `ScanOp`; the computing is `backend::scan`'s) and `diff` (views and one
//! fused subtraction per order, on any device). `axis=none` flattens, as
//! NumPy's cumsum does; ints and bools sum and multiply in int64.

use super::creation::{dtype_arg, op};
use super::stat_args as sa;
use crate::array::Array;
use crate::array::index::Index;
use crate::backend;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ScanOp;
use crate::ops::fuse::{self, Operand};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        ScanOp::Cumsum.name(),
        "cumsum(x, axis=none, dtype=none)",
        "Running sum along axis (of the flattened array when axis is none). Ints and bools give int64; floats add in float64, each result rounded once.",
        true,
        |i, a| cum(ScanOp::Cumsum, i, a),
        grad: crate::autodiff::rules_scan::cumsum
    ),
    op!(
        ScanOp::Cumprod.name(),
        "cumprod(x, axis=none, dtype=none)",
        "Running product along axis (of the flattened array when axis is none). Ints and bools give int64; floats multiply in float64.",
        true,
        |i, a| cum(ScanOp::Cumprod, i, a),
        grad: crate::autodiff::rules_scan::cumprod
    ),
    op!(
        ScanOp::Cummax.name(),
        "cummax(x, axis=none)",
        "Running maximum along axis (of the flattened array when axis is none), NumPy's maximum.accumulate; a NaN stays once met. Keeps x's dtype.",
        true,
        |i, a| cum(ScanOp::Cummax, i, a),
        grad: crate::autodiff::rules_scan::cummax
    ),
    op!(
        ScanOp::Cummin.name(),
        "cummin(x, axis=none)",
        "Running minimum along axis (of the flattened array when axis is none), NumPy's minimum.accumulate; a NaN stays once met. Keeps x's dtype.",
        true,
        |i, a| cum(ScanOp::Cummin, i, a),
        grad: crate::autodiff::rules_scan::cummax
    ),
    op!(
        "diff",
        "diff(x, n=1, axis=-1, prepend=none, append=none)",
        "The n-th difference along axis: x[1:] - x[:-1], n times (bools: !=). prepend/append values (scalars or arrays) are joined to x along axis first.",
        false,
        diff,
        grad: crate::autodiff::rules_scan::diff
    ),
];

/// `x` flattened when `axis` is none (so a scan has one lane), with the axis to scan.
pub(crate) fn scan_input(x: &Array, axis: Option<usize>) -> Result<(Array, usize)> {
    match axis {
        None => Ok((x.reshape(&[-1])?, 0)),
        Some(k) => Ok((x.clone(), k)),
    }
}

fn cum(op: ScanOp, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = op.name();
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = sa::axis(a.opt("axis")?, x.ndim(), name)?;
    let takes_dtype = matches!(op, ScanOp::Cumsum | ScanOp::Cumprod);
    let dtype = match takes_dtype.then(|| a.opt("dtype")).transpose()?.flatten() {
        None | Some(Value::None) => None,
        Some(v) => Some(dtype_arg(&v).map_err(|e| e.with_op(name))?),
    };
    a.finish_with(if takes_dtype {
        &["axis", "dtype"]
    } else {
        &["axis"]
    })?;
    let (src, ax) = scan_input(&x, axis)?;
    let src = match dtype {
        Some(d) if d != src.dtype() => src.astype(d)?,
        _ => src,
    };
    let r = backend::scan::scan(op, &src, ax, false)?;
    Ok(Value::Array(match dtype {
        Some(d) if d != r.dtype() => r.astype(d)?,
        _ => r,
    }))
}

/// `a[start:stop]` along `axis` (a view).
pub(crate) fn slice_axis(a: &Array, axis: usize, start: i64, stop: Option<i64>) -> Result<Array> {
    let mut idx = vec![Index::full(); axis];
    idx.push(Index::Slice {
        start: Some(start),
        stop,
        step: None,
    });
    a.index(&idx)
}

/// NumPy's diff arguments: x joined with prepend/append along the axis.
pub(crate) struct DiffArgs {
    pub joined: Array,
    pub n: usize,
    pub axis: usize,
    /// Lengths along the axis of prepend and x.
    pub pre_len: usize,
    pub x_len: usize,
}

pub(crate) fn diff_args(i: &Interp, mut a: Args) -> Result<DiffArgs> {
    let name = "diff";
    let x = sa::data(i, a.req("x")?, name)?;
    let n = match a.opt("n")? {
        None => 1,
        Some(v) => sa::int(&v, "n", name)?,
    };
    if n < 0 {
        return Err(
            Error::value(format!("diff: order must be non-negative but got {n}"))
                .with_op(name)
                .with_help("n is how many times to difference: 0, 1, 2..."),
        );
    }
    if n == 0 {
        // NumPy gives x back untouched, before any other check.
        for key in ["axis", "prepend", "append"] {
            a.opt(key)?;
        }
        a.finish_with(&["n", "axis", "prepend", "append"])?;
        let x_len = x.shape().last().copied().unwrap_or(1);
        return Ok(DiffArgs {
            joined: x,
            n: 0,
            axis: 0,
            pre_len: 0,
            x_len,
        });
    }
    if x.ndim() == 0 {
        return Err(
            Error::value("diff requires input that is at least one dimensional")
                .with_op(name)
                .with_help("make it 1-d with x.reshape(-1)"),
        );
    }
    let axis = match a.opt("axis")? {
        None | Some(Value::None) => x.ndim() - 1,
        Some(v) => crate::array::shape_ops::norm_axis(sa::axis_int(&v, name)?, x.ndim(), name)?,
    };
    let mut edge = |key: &str| -> Result<Option<Array>> {
        match a.opt(key)? {
            None | Some(Value::None) => Ok(None),
            Some(v) => {
                let e = sa::on_device_of(i, v, &x, name, key)?;
                let e = if e.ndim() == 0 {
                    e.broadcast_to(&sa::with_len(x.shape(), axis, 1))?
                } else {
                    e
                };
                Ok(Some(e))
            }
        }
    };
    let pre = edge("prepend")?;
    let app = edge("append")?;
    a.finish_with(&["n", "axis", "prepend", "append"])?;
    let pre_len = pre
        .as_ref()
        .map_or(0, |p| p.shape().get(axis).copied().unwrap_or(0));
    let x_len = x.shape()[axis];
    let parts: Vec<Array> = pre.into_iter().chain([x]).chain(app).collect();
    let joined = if parts.len() == 1 {
        parts
            .into_iter()
            .next()
            .unwrap_or_else(|| Array::scalar(0i64))
    } else {
        Array::concat(&parts, axis as i64).map_err(|e| e.with_op(name))?
    };
    Ok(DiffArgs {
        joined,
        n: n as usize,
        axis,
        pre_len,
        x_len,
    })
}

fn diff(i: &mut Interp, a: Args) -> Result<Value> {
    let d = diff_args(i, a)?;
    let mut cur = d.joined;
    let op = if cur.dtype().is_bool() {
        "not_equal"
    } else {
        "subtract"
    };
    for _ in 0..d.n {
        if cur.shape()[d.axis] == 0 {
            break;
        }
        if cur.size() == 0 {
            // No elements to subtract (and no buffer to view into).
            let shape = sa::with_len(cur.shape(), d.axis, cur.shape()[d.axis] - 1);
            cur = Array::zeros(&shape, cur.dtype(), cur.device())?;
            continue;
        }
        let hi = slice_axis(&cur, d.axis, 1, None)?;
        let lo = slice_axis(&cur, d.axis, 0, Some(-1))?;
        cur = match fuse::apply(
            op,
            vec![Operand::Array(hi), Operand::Array(lo)],
            i.float_x(),
        )? {
            Operand::Array(r) => r,
            _ => return Err(Error::internal("diff: a scalar difference")),
        };
    }
    Ok(Value::Array(cur))
}
