//! Random draws on the CPU: the Philox stream of `random.rs` made into host
//! arrays (the CUDA kernels reproduce the same values bit for bit).

use crate::array::alloc::{alloc_with, host_budget};
use crate::array::{Array, Element};
use crate::dtype::DType;
use crate::error::Result;
use crate::random::Rng;

/// Bytes per element of the temporaries a draw holds at its peak (the
/// generator's words and the float64 draws, or the draws and the normals),
/// checked with the output.
const TEMP_BYTES: usize = 16;

fn from_f64s(shape: &[usize], dtype: DType, vals: &[f64]) -> Result<Array> {
    crate::with_dtype!(dtype, T => alloc_with::<T>(shape, |i| <T as crate::array::Element>::from_f64(vals.get(i).copied().unwrap_or(0.0))))
}

/// `n` uniform draws in [lo, hi) of float `dtype`, as `shape`.
pub fn uniform(
    rng: &mut Rng,
    lo: f64,
    hi: f64,
    n: usize,
    shape: &[usize],
    dtype: DType,
) -> Result<Array> {
    host_budget(n, dtype, TEMP_BYTES)?;
    let u = rng.uniforms(n, dtype);
    let v: Vec<f64> = u.into_iter().map(|u| lo + (hi - lo) * u).collect();
    from_f64s(shape, dtype, &v)
}

/// `n` normal draws (mean `mu`, deviation `sigma`) of float `dtype`, as `shape`.
pub fn normal(
    rng: &mut Rng,
    mu: f64,
    sigma: f64,
    n: usize,
    shape: &[usize],
    dtype: DType,
) -> Result<Array> {
    host_budget(n, dtype, TEMP_BYTES)?;
    let z = rng.normals(n, dtype);
    let v: Vec<f64> = z.into_iter().map(|z| mu + sigma * z).collect();
    from_f64s(shape, dtype, &v)
}

/// `n` integers in [lo, hi) (`lo < hi`) as `dtype`, as `shape`.
pub fn randint(
    rng: &mut Rng,
    lo: i64,
    hi: i64,
    n: usize,
    shape: &[usize],
    dtype: DType,
) -> Result<Array> {
    host_budget(n, dtype, TEMP_BYTES)?;
    let v = rng.randints(lo, hi, n);
    crate::with_dtype!(dtype, T => alloc_with::<T>(shape, |i| T::from_i64(v.get(i).copied().unwrap_or(0))))
}
