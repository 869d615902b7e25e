//! Reductions on a GPU: the whole array in one launch (vectorised grid-stride
//! loads, warp shuffles, a shared-memory block reduce, about two blocks per
//! SM, the last block to finish combining the partials: deterministic), and
//! along one axis (a warp per output for the last axis, a thread per output
//! otherwise). Several axes reduce one after another.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::gpu;
use super::ew::launch;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use gcalc_kernels::cuda::{RedOp, reduce_acc, reduce_source};
use std::ffi::c_void;

const THREADS: u32 = 512;

fn functions(g: &super::driver::Gpu, op: RedOp, d: DType) -> Result<Vec<compile::Func>> {
    let key = format!("red{op:?}{d:?}");
    compile::functions(g, &key, &["red_all", "red_rows", "red_cols"], || {
        reduce_source(op, d)
    })
}

/// Reduce `x` over `axes` (all when None). The result has dtype `reduce_acc(op, x.dtype)`;
/// `keepdims` keeps reduced axes as 1.
pub fn reduce(x: &Array, op: RedOp, axes: Option<&[usize]>, keepdims: bool) -> Result<Array> {
    let nd = x.ndim();
    let all: Vec<usize> = (0..nd).collect();
    let mut axes: Vec<usize> = axes.map(|a| a.to_vec()).unwrap_or(all);
    axes.sort_unstable();
    axes.dedup();
    if let Some(&bad) = axes
        .iter()
        .find(|&&a| a >= nd.max(1) && !(nd == 0 && a == 0))
    {
        return Err(Error::value(format!(
            "axis {bad} is out of range for an array of {nd} dimensions"
        )));
    }
    let full = axes.len() >= nd;
    let mut r = if full {
        reduce_all(x, op)?
    } else {
        let mut cur = x.clone();
        // Reduce the highest axis first so the lower axis numbers stay valid.
        for &a in axes.iter().rev() {
            cur = reduce_axis(&cur, op, a)?;
        }
        cur
    };
    if keepdims {
        let shape: Vec<usize> = (0..nd)
            .map(|d| if axes.contains(&d) { 1 } else { x.shape()[d] })
            .collect();
        r = r.view(
            shape.clone(),
            crate::array::layout::contiguous_strides(&shape),
            r.offset(),
        );
    }
    Ok(r)
}

fn gpu_of(x: &Array) -> Result<std::sync::Arc<super::driver::Gpu>> {
    match x.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda reduce on a CPU array")),
    }
}

/// The whole array to a 0-d array.
pub fn reduce_all(x: &Array, op: RedOp) -> Result<Array> {
    let g = gpu_of(x)?;
    let x = if x.is_contiguous() {
        x.clone()
    } else {
        super::ew::copy(x, x.dtype())?
    };
    let acc = reduce_acc(op, x.dtype());
    let fs = functions(&g, op, x.dtype())?;
    let blocks = (2 * g.sms).max(1);
    // Workspace: partials, then the ticket (zeroed once; the last block resets it).
    let ws = DeviceBuffer::alloc(&g, DType::Float64, blocks as usize + 1)?;
    let ticket = ws.ptr_at(blocks as usize);
    unsafe { cudarc::driver::result::memset_d8_async(ticket, 0, 4, g.stream) }
        .map_err(|e| g.err(e, "preparing a reduction"))?;
    let out = DeviceBuffer::alloc(&g, acc, 1)?;
    let src = array_buffer(&x)?;
    let mut xp = src.ptr_at(x.offset());
    let mut n = x.size() as i64;
    let mut partial = ws.ptr_at(0);
    let mut tk = ticket;
    let mut op_ = out.ptr_at(0);
    let mut params: Vec<*mut c_void> = vec![
        &mut xp as *mut u64 as *mut c_void,
        &mut n as *mut i64 as *mut c_void,
        &mut partial as *mut u64 as *mut c_void,
        &mut tk as *mut u64 as *mut c_void,
        &mut op_ as *mut u64 as *mut c_void,
    ];
    launch(
        &g,
        fs[0],
        (blocks, 1, 1),
        (THREADS, 1, 1),
        0,
        &mut params,
        "a reduction",
    )?;
    drop(ws);
    Ok(array_of(out, vec![]))
}

/// Reduce one axis of `x`.
pub fn reduce_axis(x: &Array, op: RedOp, axis: usize) -> Result<Array> {
    let g = gpu_of(x)?;
    let x = if x.is_contiguous() {
        x.clone()
    } else {
        super::ew::copy(x, x.dtype())?
    };
    let shape = x.shape();
    let outer: usize = shape[..axis].iter().product();
    let r = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let acc = reduce_acc(op, x.dtype());
    let mut out_shape = shape.to_vec();
    out_shape.remove(axis);
    let out = DeviceBuffer::alloc(&g, acc, outer * inner)?;
    if outer * inner == 0 {
        return Ok(array_of(out, out_shape));
    }
    if r == 0 {
        let z = super::ew::full(
            &out_shape,
            if op == RedOp::Prod { 1.0 } else { 0.0 },
            acc,
            g.ordinal,
        )?;
        return Ok(z);
    }
    let fs = functions(&g, op, x.dtype())?;
    let src = array_buffer(&x)?;
    let mut xp = src.ptr_at(x.offset());
    let (mut o, mut rr, mut inn) = (outer as i64, r as i64, inner as i64);
    let mut op_ = out.ptr_at(0);
    if inner == 1 {
        let mut params: Vec<*mut c_void> = vec![
            &mut xp as *mut u64 as *mut c_void,
            &mut o as *mut i64 as *mut c_void,
            &mut rr as *mut i64 as *mut c_void,
            &mut op_ as *mut u64 as *mut c_void,
        ];
        let blocks = (outer * 32).div_ceil(256) as u32;
        launch(
            &g,
            fs[1],
            (blocks, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "a row reduction",
        )?;
    } else {
        let mut params: Vec<*mut c_void> = vec![
            &mut xp as *mut u64 as *mut c_void,
            &mut o as *mut i64 as *mut c_void,
            &mut rr as *mut i64 as *mut c_void,
            &mut inn as *mut i64 as *mut c_void,
            &mut op_ as *mut u64 as *mut c_void,
        ];
        let blocks = (outer * inner).div_ceil(256) as u32;
        launch(
            &g,
            fs[2],
            (blocks, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "a column reduction",
        )?;
    }
    Ok(array_of(out, out_shape))
}
