//! Devices as the session sees them: how many GPUs and why none, what
//! `devices()` and `mem()` print, the device `device=auto` resolves to,
//! syncs, the statement queued work is attributed to, and the settings the
//! backends obey.

use crate::cuda;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::source::Source;
use gcalc_lang::Span;
use std::sync::Arc;

/// The session's settings the backends obey (plain values of its flags).
pub use cuda::Config;

/// Apply the session's settings (at its start and after each `set`).
pub fn configure(c: Config) {
    cuda::configure(c)
}

/// The function giving the elementwise kernel sources compiled into the
/// cache when a GPU is first opened (the session registers the op table's).
pub fn set_warm_sources(f: fn() -> Vec<String>) {
    cuda::warm::register(f)
}

/// Number of usable GPUs (loads the driver on first call; cached).
pub fn gpu_count() -> usize {
    cuda::gpu_count()
}

/// Why no GPU is usable (for `gpu()` and `devices()` when `gpu_count()` is 0).
pub fn why_no_gpu() -> Error {
    cuda::why_no_gpu()
}

/// One line per GPU for `devices()`, then the driver's versions.
pub fn gpus_text() -> String {
    cuda::info::devices_text()
}

/// `mem()`'s text for every GPU.
pub fn mem_text() -> Result<String> {
    cuda::info::mem_text()
}

/// The device `device=auto` means: the first GPU when one is usable and
/// not poisoned (a poisoned gpu(0) sends new arrays back to the CPU, so a
/// session goes on), else the CPU.
pub fn auto() -> Device {
    if cuda::gpu_count() > 0 && !cuda::driver::is_poisoned(0) {
        Device::Gpu(0)
    } else {
        Device::Cpu
    }
}

/// Wait for `d`'s queued work (nothing to wait for on the CPU).
pub fn sync(d: Device) -> Result<()> {
    match d {
        Device::Cpu => Ok(()),
        Device::Gpu(i) => cuda::gpu(i)?.sync(),
    }
}

/// Wait for the usable devices' queued work at the end of one input; the
/// first queued error is returned (see `cuda::settle`).
pub fn settle() -> Result<()> {
    cuda::settle()
}

/// Wait for every device's queued work; the first queued error is returned.
pub fn sync_all() -> Result<()> {
    cuda::sync_all()
}

/// The statement running now (its source and span): errors of work it
/// queues on a GPU name it. Cheap; skipped until a GPU is used.
pub fn set_statement(src: &Arc<Source>, span: Span) {
    cuda::set_statement(src, span)
}

/// A loop body's recorded GPU work (`interp/loop_graph.rs`): the cache hold,
/// the capture, the replayable graph.
pub use cuda::graph::{Hold, LoopGraph, capture_failed};

/// Per started GPU: (ordinal, launches, host events) so far (see
/// `cuda::Gpu::host_events`); empty until a GPU is used.
pub fn gpu_counters() -> Vec<(u32, u64, u64)> {
    use std::sync::atomic::Ordering::Relaxed;
    if !cuda::driver::GPU_USED.load(Relaxed) {
        return Vec::new();
    }
    (0..cuda::gpu_count() as u32)
        .filter_map(|i| {
            let g = cuda::driver::gpu_if_started(i)?;
            Some((i, g.launches.load(Relaxed), g.host_events.load(Relaxed)))
        })
        .collect()
}

/// Keep every block freed on GPU `i` until the `Hold` drops.
pub fn hold_blocks(i: u32) -> Result<Hold> {
    Ok(Hold::new(&cuda::gpu(i)?))
}

/// Record GPU `i`'s queued work instead of running it.
pub fn begin_capture(i: u32) -> Result<()> {
    cuda::graph::begin_capture(&*cuda::gpu(i)?)
}

/// Stop recording GPU `i`: the work recorded since `begin_capture`.
pub fn end_capture(i: u32) -> Result<Option<LoopGraph>> {
    let g = cuda::driver::gpu_if_started(i)
        .ok_or_else(|| Error::internal("a capture ended on a GPU never started"))?;
    if !cuda::graph::is_capturing(&g) {
        return Err(Error::internal("a capture ended that was not recording"));
    }
    cuda::graph::end_capture(&g)
}
