//! Random draws by device: the CPU and the GPU draw the same values from the
//! session's Philox generator and advance it alike.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::opid::Dist;
use crate::random::{Param, Rng};
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

/// `n` (= the size of `shape`) draws of `dist` (parameters on `device`) as `dtype` on `device`.
pub fn draw(
    rng: &mut Rng,
    dist: Dist,
    a: Param<'_>,
    b: Param<'_>,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Array> {
    match device {
        Device::Cpu => cpu::random_draws::draw(rng, dist, a, b, shape, dtype),
        Device::Gpu(i) => cuda::rng_draws::draw(rng, dist, a, b, shape, dtype, i),
    }
}

/// The first `k` values of the permutation of `0..n` keyed by the block at
/// the generator's counter (advanced by 1), int64 on `device`.
pub fn perm_index(rng: &mut Rng, k: usize, n: u64, device: Device) -> Result<Array> {
    let key = rng.key;
    let ctr = rng.take(1);
    match device {
        Device::Cpu => cpu::random_draws::perm_index(k, n, ctr, key),
        Device::Gpu(i) => cuda::rng_draws::perm_index(k, n, ctr, key, i),
    }
}

/// `k` indices drawn with the cumulative probabilities `cdf` (float64, on
/// `device`; `host` is the same values on the host), int64 on `device`;
/// advances the generator by `ceil(2k / 4)`.
pub fn choice_cdf(
    rng: &mut Rng,
    k: usize,
    cdf: &Array,
    host: &[f64],
    device: Device,
) -> Result<Array> {
    let key = rng.key;
    let ctr = rng.take((2 * k as u64).div_ceil(4));
    match device {
        Device::Cpu => cpu::random_draws::choice_cdf(k, host, ctr, key),
        Device::Gpu(i) => cuda::rng_draws::choice_cdf(k, cdf, ctr, key, i),
    }
}

/// The rows of `x` along axis 0 at the int64 indices `idx` (on x's device, in range).
pub fn take_rows(x: &Array, idx: &Array) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::random_draws::take_rows(x, &idx.to_vec::<i64>()?),
        Device::Gpu(i) => cuda::rng_draws::take_rows(x, idx, i),
    }
}

/// `k` distinct indices of `0..p.len()` drawn with probabilities `p` (on
/// the host, where `p` was checked; int64 on the CPU), advancing the
/// generator by `ceil(2 p.len() / 4)`.
pub fn weighted_sample(rng: &mut Rng, k: usize, p: &[f64]) -> Result<Array> {
    let key = rng.key;
    let ctr = rng.take((2 * p.len() as u64).div_ceil(4));
    cpu::random_draws::weighted_sample(k, p, ctr, key)
}
