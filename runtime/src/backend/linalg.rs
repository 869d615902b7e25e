//! Linear algebra by device: matmul (CPU: the `gemm` crate and gcalc's GEMV
//! loops; GPU: cuBLAS and gcalc's matrix-vector kernels).

use crate::array::Array;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::{cpu, cuda};

/// NumPy's matmul of arrays of at least one dimension on one device
/// (checked by the caller); each backend checks the shapes.
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    match (a.device(), b.device()) {
        (Device::Cpu, Device::Cpu) => cpu::linalg::matmul(a, b),
        (Device::Gpu(_), Device::Gpu(_)) => cuda::blas::matmul(a, b),
        (da, db) => Err(Error::device_mismatch("matmul", da, db)),
    }
}
