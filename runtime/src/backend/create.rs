//! Making arrays by device: `full` (and so zeros, ones, `*_like`). Arrays
//! made on the host first (eye, arange, linspace, lists) move with
//! `backend::to_device`.

use crate::array::{Array, Scalar};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::{cpu, cuda};

/// `shape` filled with `value` as `dtype` on `device`.
pub fn full(shape: &[usize], value: Scalar, dtype: DType, device: Device) -> Result<Array> {
    match device {
        Device::Cpu => cpu::create::full(shape, value, dtype),
        Device::Gpu(i) => cuda::ew::fill(shape, value, dtype, i),
    }
}
