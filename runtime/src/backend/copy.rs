//! Copies by device: dtype casts (`astype`) and concatenation.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::{cpu, cuda};

/// A contiguous copy of `a` converted to `dtype`, on `a`'s device.
pub fn cast(a: &Array, dtype: DType) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::copy::cast(a, dtype),
        Device::Gpu(_) => cuda::ew::copy(a, dtype),
    }
}

/// `arrays` (on one device, checked by the caller) joined along axis `ax`
/// into `shape`, converted to `dtype`.
pub fn concat(arrays: &[Array], ax: usize, shape: &[usize], dtype: DType) -> Result<Array> {
    let Some(first) = arrays.first() else {
        return Err(crate::error::Error::internal("concat of no arrays"));
    };
    match first.device() {
        Device::Cpu => cpu::copy::concat(arrays, ax, shape, dtype),
        Device::Gpu(i) => cuda::index::concat(arrays, ax, shape, dtype, i),
    }
}
