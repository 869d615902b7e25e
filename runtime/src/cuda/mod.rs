//! The CUDA backend (cudarc, loaded at run time): devices with one context and
//! one stream each, the stream-ordered pool allocator, NVRTC kernels with an
//! on-disk cubin cache, fused elementwise kernels, reductions, cuBLAS matmul,
//! Philox random numbers, custom kernels, and the poisoned-context handling.
//! Without a driver every entry point answers with a clear error.

pub mod argreduce;
pub mod blas;
pub mod buffer;
pub mod cache;
pub mod compile;
pub mod custom;
pub mod driver;
pub mod ew;
pub mod fuse;
pub mod gemv;
pub mod index;
pub mod info;
pub mod reduce;
pub mod rng;
pub mod stats;
pub mod timing;

pub use buffer::DeviceBuffer;
pub use driver::{Gpu, gpu, gpu_count, set_statement};

use crate::array::Array;
use crate::device::Device;
use crate::error::{Error, Result};
use std::sync::atomic::Ordering;

/// Why no GPU can be used on this machine.
pub fn no_gpu() -> Error {
    Error::device("no usable GPU: no CUDA driver found (libcuda.so could not be loaded)")
        .with_help("use cpu(), or run on a machine with an NVIDIA GPU and its driver; `devices()` lists what gcalc sees")
}

/// The reason `gpu_count()` is 0, for messages.
pub fn why_no_gpu() -> Error {
    driver::discovery_error().unwrap_or_else(|| {
        Error::device("no usable GPU: the CUDA driver found no devices")
            .with_help("use cpu(); `nvidia-smi` shows what the driver sees")
    })
}

/// Apply the session flags the backend obeys (allow_gc, launch_blocking).
pub fn apply_flags(f: &crate::flags::Flags) {
    let before = driver::ALLOW_GC.swap(f.allow_gc, Ordering::Relaxed);
    driver::LAUNCH_BLOCKING.store(f.launch_blocking, Ordering::Relaxed);
    if before != f.allow_gc && driver::GPU_USED.load(Ordering::Relaxed) {
        for i in 0..gpu_count() as u32 {
            if let Some(g) = driver::gpu_if_started(i) {
                let _ = g.set_release_threshold(f.allow_gc);
            }
        }
    }
}

/// Wait for every started GPU; the first queued error is returned.
pub fn sync_all() -> Result<()> {
    if !driver::GPU_USED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut first = None;
    for i in 0..gpu_count() as u32 {
        if let Some(g) = driver::gpu_if_started(i)
            && let Err(e) = g.sync()
        {
            first.get_or_insert(e);
        }
    }
    first.map_or(Ok(()), Err)
}

/// `a` on device `d`: `a` itself when it is already there, else a copy (the
/// one way arrays move between devices: `copyto`, `to`, creation with `device=`).
pub fn to_device(a: &Array, d: Device) -> Result<Array> {
    if a.device() == d {
        return Ok(a.clone());
    }
    copy_to_device(a, d)
}

/// A fresh copy of `a` on device `d`, even when it is already there.
pub fn copy_to_device(a: &Array, d: Device) -> Result<Array> {
    match (a.device(), d) {
        (_, Device::Cpu) => {
            let h = a.to_host()?;
            if !a.device().is_gpu() || h.shares_buffer(a) {
                let data = crate::with_dtype!(h.dtype(), T => <T as crate::array::Element>::wrap(h.to_vec::<T>()?));
                return Ok(Array::from_host(data, h.shape().to_vec()));
            }
            Ok(h)
        }
        (Device::Cpu, Device::Gpu(i)) => buffer::upload(a, i),
        (Device::Gpu(_), Device::Gpu(i)) => buffer::device_copy(a, i),
    }
}
