//! softmax, log_softmax and logsumexp on the CPU along one axis of a float
//! array seen as (outer, n, inner): per lane its max, the float64 sum of the
//! exponentials (vectorised exp, `kernels::cpu::softmax`), then the outputs.
//! Rows of the last axis run in parallel, rows of at most 16 elements (a
//! class axis) a block of rows at a time; one long lane is cut into chunks
//! (max, sums, outputs, each pass on rayon); a middle axis keeps `inner`
//! running maxima and sums per outer block. float16 computes in float32.

use super::pool;
use super::scan::split_axis;
use crate::array::{Array, Element, HostData, alloc};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::SoftmaxOp;
use gcalc_kernels::cpu::softmax::{
    SoftFloat, exp_sum_only, exp_sum_store, lane_max, row_maxes, scale, shift as shift_sub,
    short_rows_exp,
};
use half::f16;
use rayon::prelude::*;

/// Work (elements) per parallel task.
const TASK: usize = 1 << 15;
/// A lane longer than this (with few lanes) is cut into chunks.
const LONG: usize = 1 << 18;
/// Rows of the last axis at most this long run a block of rows at a time
/// (a class axis of 10: per-row calls cost ~150 ns a row of 10, 15x NumPy).
const SHORT: usize = 16;

/// `op` of float array `a` along `axis`: softmax/log_softmax keep the shape,
/// logsumexp drops the axis. float16 computes in float32.
pub fn softmax(op: SoftmaxOp, a: &Array, axis: usize) -> Result<Array> {
    let a = a.contiguous()?;
    let dims = split_axis(a.shape(), axis);
    let mut out_shape = a.shape().to_vec();
    if op == SoftmaxOp::Logsumexp {
        out_shape.remove(axis);
    }
    let data = a.host_read()?;
    let bad = || Error::internal("softmax: dtype mismatch");
    match a.dtype() {
        DType::Float32 => {
            let x = f32::slice(&data).ok_or_else(bad)?;
            Ok(Array::from_host(run(op, x, dims, &out_shape)?, out_shape))
        }
        DType::Float64 => {
            let x = f64::slice(&data).ok_or_else(bad)?;
            Ok(Array::from_host(run(op, x, dims, &out_shape)?, out_shape))
        }
        DType::Float16 => {
            let x = f16::slice(&data).ok_or_else(bad)?;
            let mut up = alloc::reserve::<f32>(a.shape())?;
            up.extend(x.iter().map(|v| v.to_f32()));
            let r = run(op, &up, dims, &out_shape)?;
            let r = f32::slice(&r).ok_or_else(bad)?;
            let mut down = alloc::reserve::<f16>(&out_shape)?;
            down.extend(r.iter().map(|&v| f16::from_f32(v)));
            Ok(Array::from_vec(down, out_shape))
        }
        d => Err(Error::internal(format!(
            "softmax of {d} reached the CPU loops"
        ))),
    }
}

/// The shift subtracted from a lane whose max is `m`.
fn shift_of<T: SoftFloat>(op: SoftmaxOp, m: T) -> T {
    let finite = m.to_f64().is_finite();
    if op.finite_shift() && !finite {
        T::from_f64(0.0)
    } else {
        m
    }
}

/// The larger of `a` and `v`, NaN propagating.
#[allow(clippy::eq_op)]
fn max_nan<T: SoftFloat>(a: T, v: T) -> T {
    if a != a || v <= a { a } else { v }
}

/// The outputs of `op` over `x` of shape (outer, n, inner).
fn run<T: SoftFloat + Element>(
    op: SoftmaxOp,
    x: &[T],
    (outer, n, inner): (usize, usize, usize),
    out_shape: &[usize],
) -> Result<HostData> {
    // A recycled buffer (a loop's softmax of a large array reuses the last
    // one instead of faulting in fresh pages): every branch below writes
    // every output element.
    let total: usize = out_shape.iter().product();
    let mut host = pool::out_host::<T>(total)?;
    let out = T::slice_mut(&mut host).ok_or_else(|| Error::internal("softmax: output type"))?;
    if inner > 1 {
        cols(op, x, out, (outer, n, inner));
    } else if n >= LONG && outer < 2 * rayon::current_num_threads() {
        for l in 0..outer {
            let o = if op == SoftmaxOp::Logsumexp {
                &mut out[l..l + 1]
            } else {
                &mut out[l * n..(l + 1) * n]
            };
            long_lane(op, &x[l * n..(l + 1) * n], o);
        }
    } else if (1..=SHORT).contains(&n) {
        let rows = (TASK / n).max(1);
        let per = if op == SoftmaxOp::Logsumexp { 1 } else { n };
        let block = |(t, o): (usize, &mut [T])| {
            let x = &x[t * rows * n..];
            short_rows(op, &x[..o.len() / per * n], n, o);
        };
        if total <= rows * per {
            block((0, out));
        } else {
            out.par_chunks_mut(rows * per).enumerate().for_each(block);
        }
    } else if op == SoftmaxOp::Logsumexp {
        let rows = (TASK / n.max(1)).max(1);
        out.par_chunks_mut(rows).enumerate().for_each(|(t, o)| {
            for (k, v) in o.iter_mut().enumerate() {
                let l = t * rows + k;
                *v = row(op, &x[l * n..(l + 1) * n], &mut []);
            }
        });
    } else if let Some(rows) = TASK.checked_div(n) {
        let rows = rows.max(1);
        out.par_chunks_mut(rows * n).enumerate().for_each(|(t, o)| {
            for (k, orow) in o.chunks_mut(n).enumerate() {
                let l = t * rows + k;
                row(op, &x[l * n..(l + 1) * n], orow);
            }
        });
    }
    Ok(host)
}

/// One lane `x` (outputs in `o`, or the logsumexp returned).
fn row<T: SoftFloat>(op: SoftmaxOp, x: &[T], o: &mut [T]) -> T {
    let m = shift_of(op, lane_max(x));
    match op {
        SoftmaxOp::Softmax => {
            let s = exp_sum_store(x, m, o);
            scale(o, T::from_f64(1.0 / s));
            m
        }
        SoftmaxOp::LogSoftmax => {
            let s = exp_sum_only(x, m);
            shift_sub(x, o, m, T::from_f64(s.ln()));
            m
        }
        SoftmaxOp::Logsumexp => T::from_f64(exp_sum_only(x, m).ln() + m.to_f64()),
    }
}

/// `op` over the rows of `n` elements (`n <= SHORT`) of `x`, a block at a
/// time: the same bits as `row` of each (outputs in `o`: `n` a row, or one
/// logsumexp a row).
fn short_rows<T: SoftFloat>(op: SoftmaxOp, x: &[T], n: usize, o: &mut [T]) {
    let rows = x.len() / n;
    let mut m = vec![T::NEG_INF; rows];
    row_maxes(x, n, &mut m);
    for mr in m.iter_mut() {
        *mr = shift_of(op, *mr);
    }
    let mut s = vec![0f64; rows];
    let mut scratch = Vec::new();
    let e = if op == SoftmaxOp::Logsumexp {
        scratch.resize(x.len(), T::NEG_INF);
        &mut scratch[..]
    } else {
        &mut *o
    };
    short_rows_exp(x, n, &m, e, &mut s);
    match op {
        SoftmaxOp::Softmax => {
            for (er, &sr) in o.chunks_exact_mut(n).zip(&s) {
                let k = T::from_f64(1.0 / sr);
                er.iter_mut().for_each(|v| *v = *v * k);
            }
        }
        SoftmaxOp::LogSoftmax => {
            for (((r, orow), &mr), &sr) in
                x.chunks_exact(n).zip(o.chunks_exact_mut(n)).zip(&m).zip(&s)
            {
                let ls = T::from_f64(sr.ln());
                for (ov, &v) in orow.iter_mut().zip(r) {
                    *ov = (v - mr) - ls;
                }
            }
        }
        SoftmaxOp::Logsumexp => {
            for ((ov, &mr), &sr) in o.iter_mut().zip(&m).zip(&s) {
                *ov = T::from_f64(sr.ln() + mr.to_f64());
            }
        }
    }
}

/// One long lane in chunks, each pass in parallel.
fn long_lane<T: SoftFloat>(op: SoftmaxOp, x: &[T], o: &mut [T]) {
    const C: usize = 1 << 16;
    let maxes: Vec<T> = x.par_chunks(C).map(lane_max).collect();
    let m = shift_of(op, maxes.into_iter().fold(T::NEG_INF, max_nan));
    let s: f64 = match op {
        SoftmaxOp::Softmax => x
            .par_chunks(C)
            .zip(o.par_chunks_mut(C))
            .map(|(xc, oc)| exp_sum_store(xc, m, oc))
            .collect::<Vec<f64>>()
            .iter()
            .sum(),
        _ => x
            .par_chunks(C)
            .map(|xc| exp_sum_only(xc, m))
            .collect::<Vec<f64>>()
            .iter()
            .sum(),
    };
    match op {
        SoftmaxOp::Softmax => {
            let k = T::from_f64(1.0 / s);
            o.par_chunks_mut(C).for_each(|oc| scale(oc, k));
        }
        SoftmaxOp::LogSoftmax => {
            let ls = T::from_f64(s.ln());
            x.par_chunks(C)
                .zip(o.par_chunks_mut(C))
                .for_each(|(xc, oc)| shift_sub(xc, oc, m, ls));
        }
        SoftmaxOp::Logsumexp => o[0] = T::from_f64(s.ln() + m.to_f64()),
    }
}

/// A middle axis: per outer block, `inner` running maxima and sums.
fn cols<T: SoftFloat>(
    op: SoftmaxOp,
    x: &[T],
    out: &mut [T],
    (outer, n, inner): (usize, usize, usize),
) {
    let out_block = if op == SoftmaxOp::Logsumexp {
        inner
    } else {
        n * inner
    };
    if out_block == 0 {
        return;
    }
    let block = |(b, o): (usize, &mut [T])| {
        let xb = &x[b * n * inner..(b + 1) * n * inner];
        let mut m = vec![T::NEG_INF; inner];
        for r in xb.chunks(inner) {
            for (mk, &v) in m.iter_mut().zip(r) {
                *mk = max_nan(*mk, v);
            }
        }
        for mk in m.iter_mut() {
            *mk = shift_of(op, *mk);
        }
        let mut s = vec![0f64; inner];
        for r in xb.chunks(inner) {
            for ((sk, &mk), &v) in s.iter_mut().zip(&m).zip(r) {
                *sk += (v - mk).vexp().to_f64();
            }
        }
        match op {
            SoftmaxOp::Softmax => {
                for (r, orow) in xb.chunks(inner).zip(o.chunks_mut(inner)) {
                    for k in 0..inner {
                        orow[k] = (r[k] - m[k]).vexp() * T::from_f64(1.0 / s[k]);
                    }
                }
            }
            SoftmaxOp::LogSoftmax => {
                for (r, orow) in xb.chunks(inner).zip(o.chunks_mut(inner)) {
                    for k in 0..inner {
                        orow[k] = (r[k] - m[k]) - T::from_f64(s[k].ln());
                    }
                }
            }
            SoftmaxOp::Logsumexp => {
                for k in 0..inner {
                    o[k] = T::from_f64(s[k].ln() + m[k].to_f64());
                }
            }
        }
    };
    if outer * n * inner >= TASK {
        out.par_chunks_mut(out_block).enumerate().for_each(block);
    } else {
        out.chunks_mut(out_block).enumerate().for_each(block);
    }
}
