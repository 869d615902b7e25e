//! Random draws by device: the CPU and the GPU draw the same values from the
//! session's Philox generator and advance it alike.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::random::Rng;
use crate::{cpu, cuda};

/// `n` (= the size of `shape`) uniform draws in [lo, hi) of float `dtype` on `device`.
pub fn uniform(
    rng: &mut Rng,
    lo: f64,
    hi: f64,
    n: usize,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    match device {
        Device::Cpu => cpu::random::uniform(rng, lo, hi, n, shape, dtype),
        Device::Gpu(i) => cuda::rng::draw(rng, shape, dtype, false, lo, hi, i),
    }
}

/// `n` normal draws (mean `mu`, deviation `sigma`) of float `dtype` on `device`.
pub fn normal(
    rng: &mut Rng,
    mu: f64,
    sigma: f64,
    n: usize,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    match device {
        Device::Cpu => cpu::random::normal(rng, mu, sigma, n, shape, dtype),
        Device::Gpu(i) => cuda::rng::draw(rng, shape, dtype, true, mu, sigma, i),
    }
}

/// `n` integers in [lo, hi) (`lo < hi`) as `dtype` on `device`.
pub fn randint(
    rng: &mut Rng,
    lo: i64,
    hi: i64,
    n: usize,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    match device {
        Device::Cpu => cpu::random::randint(rng, lo, hi, n, shape, dtype),
        Device::Gpu(i) => cuda::rng::randint(rng, lo, hi, shape, dtype, i),
    }
}
