//! argmax/argmin on a GPU (kernels in `kernels/src/cuda/argreduce.cu`): the
//! whole array in one launch (flat index; per-block partials, the last block
//! combines them) or along one axis (a warp per output for the last axis, a
//! thread per output otherwise). Ties give the first index and the first NaN
//! wins, as on the CPU; pairs combine under a total order, so the result does
//! not depend on the grid.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use super::reduce::launch_axis;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use gcalc_kernels::cuda::argreduce_source;
use std::ffi::c_void;

const THREADS: u32 = 512;

/// The three kernels of argmax (`max`) or argmin over `d`, loaded once per device.
fn functions(g: &Gpu, max: bool, d: DType) -> Result<[compile::Func; 3]> {
    static LOADED: compile::Loaded<(bool, DType), 3> = compile::Loaded::new();
    LOADED.get_or_load(g, (max, d), || {
        let key = format!("arg{max}{d:?}");
        compile::functions(g, &key, &["arg_all", "arg_rows", "arg_cols"], || {
            argreduce_source(max, d)
        })
    })
}

/// argmax (`max`) or argmin of GPU array `x`: over `axis`, or the flat index
/// over every element when `axis` is None; int64 on `x`'s device. `keepdims`
/// keeps the reduced axes (all of them when `axis` is None) as 1. The reduced
/// length must not be 0 (the caller reports that).
pub fn argreduce(x: &Array, max: bool, axis: Option<usize>, keepdims: bool) -> Result<Array> {
    let g = match x.device() {
        Device::Gpu(i) => gpu(i)?,
        Device::Cpu => return Err(Error::internal("cuda argreduce on a CPU array")),
    };
    let x = if x.is_contiguous() {
        x.clone()
    } else {
        super::ew::copy(x, x.dtype())?
    };
    let shape = x.shape().to_vec();
    let Some(axis) = axis.filter(|_| x.ndim() > 0) else {
        let out_shape = if keepdims {
            vec![1; shape.len()]
        } else {
            vec![]
        };
        return arg_all(&g, &x, max, out_shape);
    };
    let outer: usize = shape[..axis].iter().product();
    let r = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out_shape = shape.clone();
    if keepdims {
        out_shape[axis] = 1;
    } else {
        out_shape.remove(axis);
    }
    if outer * inner == 0 || r == 0 {
        return super::ew::zeros(&out_shape, DType::Int64, g.ordinal);
    }
    let fs = functions(&g, max, x.dtype())?;
    let out = DeviceBuffer::alloc(&g, DType::Int64, outer * inner)?;
    let xp = array_buffer(&x)?.ptr_at(x.offset());
    let dims = (outer, r, inner);
    launch_axis(
        &g,
        [fs[1], fs[2]],
        xp,
        dims,
        out.ptr_at(0),
        "an argmax/argmin",
    )?;
    Ok(array_of(out, out_shape))
}

/// The flat index of the best element of contiguous `x` (not empty).
fn arg_all(g: &std::sync::Arc<Gpu>, x: &Array, max: bool, out_shape: Vec<usize>) -> Result<Array> {
    let n = x.size();
    if n == 0 {
        return Err(Error::internal(
            "argmax/argmin of an empty array reached the GPU",
        ));
    }
    let fs = functions(g, max, x.dtype())?;
    let blocks = (2 * g.sms).max(1).min(n.div_ceil(THREADS as usize) as u32);
    // Workspace: 8-byte partial values, then 8-byte partial indices, then the ticket.
    let ws = DeviceBuffer::alloc(g, DType::Float64, 2 * blocks as usize + 1)?;
    let ticket = ws.ptr_at(2 * blocks as usize);
    unsafe { cudarc::driver::result::memset_d8_async(ticket, 0, 4, g.stream) }
        .map_err(|e| g.err(e, "preparing an argmax/argmin"))?;
    let out = DeviceBuffer::alloc(g, DType::Int64, 1)?;
    let src = array_buffer(x)?;
    let mut xp = src.ptr_at(x.offset());
    let mut nn = n as i64;
    let mut pv = ws.ptr_at(0);
    let mut pi = ws.ptr_at(blocks as usize);
    let mut tk = ticket;
    let mut op_ = out.ptr_at(0);
    let mut params: Vec<*mut c_void> = vec![
        &mut xp as *mut u64 as *mut c_void,
        &mut nn as *mut i64 as *mut c_void,
        &mut pv as *mut u64 as *mut c_void,
        &mut pi as *mut u64 as *mut c_void,
        &mut tk as *mut u64 as *mut c_void,
        &mut op_ as *mut u64 as *mut c_void,
    ];
    launch(
        g,
        fs[0],
        (blocks, 1, 1),
        (THREADS, 1, 1),
        0,
        &mut params,
        "an argmax/argmin",
    )?;
    drop(ws);
    Ok(array_of(out, out_shape))
}
