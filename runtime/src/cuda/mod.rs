//! The CUDA backend (cudarc, loaded at run time): devices with one context and
//! one stream each, the stream-ordered pool allocator, NVRTC kernels with an
//! on-disk cubin cache, fused elementwise kernels, reductions, cuBLAS matmul,
//! Philox random numbers, custom kernels, and the poisoned-context handling.
//! Without a driver every entry point answers with a clear error.
//!
//! A backend of the dispatch layer (`backend/`): it depends on the data
//! layer only (arrays and storage, dtypes, errors, the typed fused program,
//! op identities, Philox, source positions, the profiler's `backend` API),
//! never on the interpreter, the op table or session flags (`tidy` checks it).

pub mod argreduce;
pub mod assemble;
pub mod blas;
pub mod buffer;
pub mod cache;
pub mod compile;
pub mod complex;
pub mod custom;
pub mod driver;
pub mod ew;
pub mod fft;
pub mod fuse;
pub mod gemv;
pub mod graph;
pub mod histogram;
pub mod index;
pub mod info;
pub mod nanreduce;
pub mod nccl;
pub mod peer;
pub mod reduce;
pub mod rng;
pub mod rng_draws;
pub mod scan;
pub mod select;
pub mod softmax;
pub mod solver;
pub mod sort;
pub mod stats;
pub mod timing;
pub mod warm;

pub use buffer::DeviceBuffer;
pub use driver::{Gpu, gpu, gpu_count, set_statement};

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

/// What the session tells the backend, as plain values (its `allow_gc` and
/// `launch_blocking` flags); set at the start and after each `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Freed memory goes back to the device at each sync (else it stays pooled).
    pub allow_gc: bool,
    /// Wait for every launch and check it at once (errors name their statement).
    pub launch_blocking: bool,
}

/// Apply the session's settings (`allow_gc`, `launch_blocking`).
pub fn configure(c: Config) {
    let before = driver::ALLOW_GC.swap(c.allow_gc, Ordering::Relaxed);
    driver::LAUNCH_BLOCKING.store(c.launch_blocking, Ordering::Relaxed);
    if before != c.allow_gc && driver::GPU_USED.load(Ordering::Relaxed) {
        for i in 0..gpu_count() as u32 {
            if let Some(g) = driver::gpu_if_started(i) {
                let _ = g.set_release_threshold(c.allow_gc);
            }
        }
    }
}

/// At the end of one input (a cell, a script, a REPL line): wait for every
/// started GPU that is still usable, so an error its queued work finds (an
/// index out of bounds, a failed kernel) belongs to the input that queued
/// it, never to a later one. A GPU poisoned before is skipped (its error was
/// told then; CPU work goes on). The first error is returned.
pub fn settle() -> Result<()> {
    if !driver::GPU_USED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut first = None;
    for i in 0..gpu_count() as u32 {
        if let Some(g) = driver::gpu_if_started(i)
            && !g.is_poisoned()
            && let Err(e) = g.sync()
        {
            first.get_or_insert(e);
        }
    }
    first.map_or(Ok(()), Err)
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
