//! softmax, log_softmax and logsumexp on a GPU (kernels in
//! `kernels/src/cuda/softmax.cu`): many lanes of the last axis take a block
//! (long lanes) or a warp (short) each, reading a lane for its max, its sum
//! of exponentials and its outputs (a block holds a lane of up to 16,384
//! elements in registers and reads it once); many lanes of a middle axis a thread
//! each. Few long lanes (logsumexp of a whole array, say) are composed of
//! the device-wide reduction kernels instead: the max, the float64 sum of
//! `exp(x - m)` (one fused launch when it covers the whole array), and one
//! elementwise pass for the outputs.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::{self, Expr, launch};
use super::reduce::reduce;
use super::stats::f64_op;
use crate::array::{Array, layout};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::SoftmaxOp;
use gcalc_kernels::cuda::RedOp;
use gcalc_kernels::cuda::softmax::{SOFTMAX_ITEMS, SOFTMAX_KERNELS, softmax_source};
use std::ffi::c_void;

/// Lanes of the last axis at least this long take a block each.
const BLOCK_MIN: usize = 1024;
/// Fewer lanes than this, each longer than `LONG`, use the reduction kernels.
const FEW: usize = 128;
const LONG: usize = 1 << 16;
/// A middle axis with at least this many lanes takes a thread per lane.
const COLS_MIN: usize = 1 << 14;

/// The max of a lane, or 0 when it is not finite (log_softmax, logsumexp).
pub const FINITE_OR_ZERO: &str = "((({0} - {0}) == 0.0) ? {0} : 0.0)";
/// `exp(x - m)`.
pub const EXP_SHIFTED: &str = "exp({0} - {1})";
/// softmax from x, m and the sum s.
pub const SOFTMAX_OUT: &str = "(exp({0} - {1}) / {2})";
/// log_softmax from x, m and s.
pub const LOG_SOFTMAX_OUT: &str = "(({0} - {1}) - log({2}))";
/// logsumexp from s and m.
pub const LOGSUMEXP_OUT: &str = "(log({0}) + {1})";

fn functions(g: &Gpu, d: DType, op: SoftmaxOp) -> Result<[compile::Func; 3]> {
    static LOADED: compile::Loaded<(DType, SoftmaxOp), 3> = compile::Loaded::new();
    LOADED.get_or_load(g, (d, op), || {
        let key = format!("softmax{d:?}{op:?}");
        compile::functions(g, &key, &SOFTMAX_KERNELS, || softmax_source(d, op.mode()))
    })
}

/// `op` of float GPU array `a` along `axis`: softmax/log_softmax keep the
/// shape, logsumexp drops the axis.
pub fn softmax(op: SoftmaxOp, a: &Array, axis: usize) -> Result<Array> {
    let g = match a.device() {
        Device::Gpu(i) => gpu(i)?,
        Device::Cpu => return Err(Error::internal("cuda softmax on a CPU array")),
    };
    let d = a.dtype();
    let shape = a.shape().to_vec();
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out_shape = shape.clone();
    if op == SoftmaxOp::Logsumexp {
        out_shape.remove(axis);
    }
    let lanes = outer * inner;
    if lanes == 0 || n == 0 {
        // No element: logsumexp of an empty lane is log(0) = -inf.
        return ew::full(&out_shape, f64::NEG_INFINITY, d, g.ordinal);
    }
    let few_long = lanes < FEW && n > LONG;
    if few_long || (inner > 1 && lanes < COLS_MIN) {
        return composed(op, a, axis, &out_shape);
    }
    let a = if a.is_contiguous() {
        a.clone()
    } else {
        ew::copy(a, d)?
    };
    let fs = functions(&g, d, op)?;
    let out_len: usize = out_shape.iter().product();
    let out = DeviceBuffer::alloc(&g, d, out_len)?;
    let mut xp = array_buffer(&a)?.ptr_at(a.offset());
    let mut op_ = out.ptr_at(0);
    let (mut o, mut nn, mut inn, mut ln) = (outer as i64, n as i64, inner as i64, lanes as i64);
    let p = |v: &mut i64| v as *mut i64 as *mut c_void;
    let mut params: Vec<*mut c_void> = vec![
        &mut xp as *mut u64 as *mut c_void,
        &mut op_ as *mut u64 as *mut c_void,
    ];
    let (f, grid_, block) = if inner > 1 {
        params.extend([p(&mut o), p(&mut nn), p(&mut inn)]);
        (fs[2], lanes.div_ceil(256), 256)
    } else if n >= BLOCK_MIN {
        params.push(p(&mut nn));
        (fs[0], lanes, block_threads(n))
    } else {
        params.extend([p(&mut ln), p(&mut nn)]);
        (fs[1], (lanes * 32).div_ceil(256), 256)
    };
    let grid_ = u32::try_from(grid_)
        .ok()
        .filter(|&b| b < i32::MAX as u32)
        .ok_or_else(|| Error::value(format!("{}: too many lanes for one launch", op.name())))?;
    launch(
        &g,
        f,
        (grid_, 1, 1),
        (block, 1, 1),
        0,
        &mut params,
        op.name(),
    )?;
    Ok(array_of(out, out_shape))
}

/// Threads of `sm_block` for lanes of `n`: enough (up to 1024) for the lane
/// to sit in registers, `SOFTMAX_ITEMS` each; 256 for longer lanes.
fn block_threads(n: usize) -> u32 {
    let t = n.div_ceil(SOFTMAX_ITEMS).next_multiple_of(32);
    if t > 1024 { 256 } else { t.max(256) as u32 }
}

/// `op` composed of the reduction kernels and elementwise passes (any axis).
fn composed(op: SoftmaxOp, a: &Array, axis: usize, out_shape: &[usize]) -> Result<Array> {
    let d = a.dtype();
    let x = || Expr::Array(a.clone());
    let m = reduce(a, RedOp::Max, Some(&[axis]), true, d)?;
    let m = if op.finite_shift() {
        ew::eval(
            &f64_op(FINITE_OR_ZERO, vec![Expr::Array(m)]),
            DType::Float64,
            None,
            None,
        )?
    } else {
        m
    };
    let e = f64_op(EXP_SHIFTED, vec![x(), Expr::Array(m.clone())]);
    let s = if a.size() == a.shape()[axis] {
        // The lane is the whole array: one fused launch, no temporary.
        let s = ew::eval_sum(&e, DType::Float64, 1.0)?;
        let ones = vec![1; a.ndim()];
        let st = layout::contiguous_strides(&ones);
        s.view(ones, st, 0)
    } else {
        let ex = ew::eval(&e, DType::Float64, None, None)?;
        reduce(&ex, RedOp::Sum, Some(&[axis]), true, DType::Float64)?
    };
    let out = match op {
        SoftmaxOp::Softmax => f64_op(SOFTMAX_OUT, vec![x(), Expr::Array(m), Expr::Array(s)]),
        SoftmaxOp::LogSoftmax => f64_op(LOG_SOFTMAX_OUT, vec![x(), Expr::Array(m), Expr::Array(s)]),
        SoftmaxOp::Logsumexp => f64_op(LOGSUMEXP_OUT, vec![Expr::Array(s), Expr::Array(m)]),
    };
    let r = ew::eval(&out, d, None, None)?;
    if op != SoftmaxOp::Logsumexp {
        return Ok(r);
    }
    let st = layout::contiguous_strides(out_shape);
    let off = r.offset();
    Ok(r.view(out_shape.to_vec(), st, off))
}
