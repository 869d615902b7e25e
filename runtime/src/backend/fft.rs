//! The FFT family by device: one 1-d transform along an axis (`opid::FftJob`).

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::opid::FftJob;
use crate::{cpu, cuda};

/// `job` over `x` (already of the compute dtype's kind), giving dtype `out`.
pub fn run(x: &Array, job: FftJob, out: DType) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::fft::run(x, job, out),
        Device::Gpu(i) => cuda::fft::run(i, x, job, out),
    }
}
