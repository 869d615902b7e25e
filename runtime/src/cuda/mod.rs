//! The CUDA backend seam: device buffers, and (with the GPU issue) streams,
//! NVRTC kernels, the pool allocator and cuBLAS through cudarc.
//!
//! Until the backend is built, no `DeviceBuffer` can exist: `gpu()` reports that
//! no usable GPU was found, so every method here is unreachable in practice and
//! answers with an error rather than a panic.

use crate::array::Array;
use crate::device::Device;
use crate::error::{Error, Result};

/// A buffer in GPU memory.
pub struct DeviceBuffer {
    device: Device,
    len: usize,
}

impl DeviceBuffer {
    pub fn device(&self) -> Device {
        self.device
    }
    pub fn len(&self) -> usize {
        self.len
    }
    /// Copy a view of this buffer to a contiguous host array (a sync point).
    pub fn download_view(&self, _view: &Array) -> Result<Array> {
        Err(no_gpu())
    }
    /// A contiguous copy of a view, on the same device.
    pub fn contiguous_copy(&self, _view: &Array) -> Result<Array> {
        Err(no_gpu())
    }
}

/// Why no GPU can be used on this machine.
pub fn no_gpu() -> Error {
    Error::device("no usable GPU: no CUDA driver found (libcuda.so could not be loaded)")
        .with_help("use cpu(), or run on a machine with an NVIDIA GPU and its driver; `devices()` lists what gcalc sees")
}

/// The GPUs gcalc can use (none until the CUDA backend lands).
pub fn gpu_count() -> usize {
    0
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
    match d {
        Device::Cpu => {
            let h = a.to_host()?;
            let data = crate::with_dtype!(h.dtype(), T => <T as crate::array::Element>::wrap(h.to_vec::<T>()?));
            Ok(Array::from_host(data, h.shape().to_vec()))
        }
        Device::Gpu(_) => Err(no_gpu()),
    }
}
