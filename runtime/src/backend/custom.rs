//! Custom CUDA kernels (`cuda_module`): a GPU-only family, so the CPU arm
//! is the error saying a GPU is needed. The module and kernel types are the
//! CUDA backend's, named here so builtins reach them through the dispatch layer.

use crate::cuda;
use crate::device::Device;
use crate::error::{Error, Result};

pub use cuda::custom::{Kernel, KernelArg, KernelSig, Module, Param};

/// Compile `src` with NVRTC and load it on `dev`.
pub fn load(src: &str, dev: Device) -> Result<Module> {
    match dev {
        Device::Cpu => Err(
            Error::device("cuda_module needs a GPU: the current device is cpu(0)")
                .with_help("pass device=gpu() or set device = gpu"),
        ),
        Device::Gpu(i) => Module::load(src, i),
    }
}

/// The device `cuda_module` compiles for when none is given: the session's
/// device, or gpu(0) when that is the CPU and a GPU exists.
pub fn default_device(current: Device) -> Device {
    match current {
        Device::Cpu if cuda::gpu_count() > 0 => Device::Gpu(0),
        d => d,
    }
}
