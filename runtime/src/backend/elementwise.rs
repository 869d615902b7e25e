//! Elementwise work by device: a fused program (`fused::Program`) runs on
//! the CPU executor or as one generated CUDA kernel; its whole-array sum is
//! one fused launch on a GPU.

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::fused::Program;
use crate::{cpu, cuda};

/// The value of `p` as a new array on its arrays' device (the CPU when it has none).
pub fn fused(p: &mut Program<'_>) -> Result<Array> {
    match p.device() {
        None | Some(Device::Cpu) => cpu::fused::run(p),
        Some(Device::Gpu(_)) => cuda::fuse::eval(p),
    }
}

/// `sum(p) / div` as a 0-d array when the device does it in one pass
/// (a GPU, float32/float64 values); `None`: evaluate `p` and reduce it.
pub fn fused_sum(p: &Program<'_>, div: f64) -> Result<Option<Array>> {
    match p.device() {
        None | Some(Device::Cpu) => Ok(None),
        Some(Device::Gpu(_)) => cuda::fuse::eval_sum(p, div),
    }
}

/// The kernel source the CUDA backend generates for `p` over contiguous
/// arrays, for the start-up warm-up that compiles it into the cache when a
/// GPU is first opened (`cuda::warm`).
pub fn gpu_source(p: &Program<'_>) -> Option<String> {
    let e = cuda::fuse::expr(p).ok()?;
    cuda::ew::contiguous_source(&e, p.out)
}
