//! The distributions' draws on the CPU (`exponential bernoulli gamma beta
//! poisson binomial`), the permutation's indices, `choice`'s cdf search and
//! rows gathered by an index array: each element is a function of its index
//! (kernels/src/cpu/samplers.rs), so blocks of elements run in parallel and
//! give the GPU's values bit for bit.

use crate::array::alloc::alloc_with;
use crate::array::layout;
use crate::array::{Array, Element};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::Dist;
use crate::random::{Param, Rng};
use gcalc_kernels::cpu::samplers::{self, Perm};
use rayon::prelude::*;

/// Elements per parallel task.
const CHUNK: usize = 1 << 14;

/// A parameter's values: one for all, or a host slice of one per element.
enum Vals<'a> {
    One(f64),
    Each(&'a [f64]),
}

impl Vals<'_> {
    #[inline]
    fn at(&self, i: usize) -> f64 {
        match self {
            Vals::One(v) => *v,
            Vals::Each(s) => s[i],
        }
    }
}

/// A fresh host array of `shape` filled in parallel with `f(i)`.
fn fill<T: Element>(shape: &[usize], f: impl Fn(usize) -> T + Sync) -> Result<Array> {
    let out = alloc_with::<T>(shape, |_| T::default())?;
    {
        let mut h = out.host_write()?;
        let o = T::slice_mut(&mut h)
            .ok_or_else(|| Error::internal("a draw's buffer has another dtype"))?;
        o.par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| {
            for (j, v) in chunk.iter_mut().enumerate() {
                *v = f(c * CHUNK + j);
            }
        });
    }
    Ok(out)
}

/// `n` (= the size of `shape`) draws of `dist` with parameters `a`, `b` as
/// `dtype`, from the session's stream (advanced by what the draw uses).
pub fn draw(
    rng: &mut Rng,
    dist: Dist,
    a: Param<'_>,
    b: Param<'_>,
    shape: &[usize],
    dtype: DType,
) -> Result<Array> {
    let n: usize = shape.iter().product();
    let (ga, gb) = (a_host(a)?, a_host(b)?);
    let va = vals(&ga, a);
    let vb = vals(&gb, b);
    let key = rng.key;
    let ctr = rng.take(dist.blocks(n as u64));
    crate::with_dtype!(dtype, T => fill::<T>(shape, |i| {
        <T as crate::array::Element>::from_f64(samplers::draw(dist, ctr, key, i as u64, va.at(i), vb.at(i)))
    }))
}

/// The host data of an array parameter (read-locked while the draw runs).
fn a_host(p: Param<'_>) -> Result<Option<std::sync::RwLockReadGuard<'_, crate::array::HostData>>> {
    match p {
        Param::Scalar(_) => Ok(None),
        Param::Array(a) => a.host_read().map(Some),
    }
}

fn vals<'a>(
    g: &'a Option<std::sync::RwLockReadGuard<'_, crate::array::HostData>>,
    p: Param<'_>,
) -> Vals<'a> {
    match (g, p) {
        (Some(h), Param::Array(a)) => match f64::slice(h) {
            Some(s) => Vals::Each(&s[a.offset()..]),
            None => Vals::One(f64::NAN),
        },
        (_, Param::Scalar(v)) => Vals::One(v),
        (None, Param::Array(_)) => Vals::One(f64::NAN),
    }
}

/// The first `k` values of the permutation of `0..n` keyed at `ctr` (int64).
pub fn perm_index(k: usize, n: u64, ctr: u64, key: u64) -> Result<Array> {
    let p = Perm::from_stream(n, ctr, key);
    fill::<i64>(&[k], |i| p.at(i as u64) as i64)
}

/// `k` indices drawn with the cumulative probabilities `cdf` (int64).
pub fn choice_cdf(k: usize, cdf: &[f64], ctr: u64, key: u64) -> Result<Array> {
    fill::<i64>(&[k], |i| {
        samplers::cdf_index(cdf, samplers::pair_uniform(ctr, key, i as u64)) as i64
    })
}

/// The rows of `x` (along axis 0) at the indices `idx` (all in range), as a
/// new contiguous array of shape `(idx.len(),) + x.shape[1:]`.
pub fn take_rows(x: &Array, idx: &[i64]) -> Result<Array> {
    let (rest, rst) = (&x.shape()[1..], &x.strides()[1..]);
    let stride0 = x.strides().first().copied().unwrap_or(0);
    let mut shape = vec![idx.len()];
    shape.extend_from_slice(rest);
    let row: usize = rest.iter().product();
    // Row 0's element offsets; row r's are these plus r * stride0.
    let first: Vec<isize> = layout::OffsetIter::new(rest, rst, x.offset())
        .map(|o| o as isize)
        .collect();
    let h = x.host_read()?;
    crate::with_dtype!(x.dtype(), T => {
        let src = T::slice(&h).ok_or_else(|| Error::internal("a host array of another dtype"))?;
        alloc_with::<T>(&shape, |i| {
            let (r, j) = (i / row.max(1), i % row.max(1));
            src[(first[j] + idx[r] as isize * stride0) as usize]
        })
    })
}

/// `k` distinct indices of `0..p.len()` drawn with probabilities `p`
/// without replacement (successive sampling): the k smallest keys
/// `-ln(1 - u53(j)) / p[j]` (Efraimidis-Spirakis), in increasing order;
/// ties, and zero probabilities (infinite keys), by index. At least k of p
/// are > 0 (checked by the caller).
pub fn weighted_sample(k: usize, p: &[f64], ctr: u64, key: u64) -> Result<Array> {
    let mut keys: Vec<(f64, usize)> = Vec::new();
    keys.try_reserve_exact(p.len()).map_err(|_| {
        Error::new(
            crate::error::ErrorKind::OutOfMemory,
            "no memory for choice's keys",
        )
    })?;
    keys.extend(p.iter().enumerate().map(|(j, &pj)| {
        let e = -gcalc_kernels::cpu::math::ln_f64(1.0 - samplers::pair_uniform(ctr, key, j as u64));
        (if pj > 0.0 { e / pj } else { f64::INFINITY }, j)
    }));
    keys.par_sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    Ok(Array::from_vec(
        keys[..k]
            .iter()
            .map(|&(_, j)| j as i64)
            .collect::<Vec<i64>>(),
        vec![k],
    ))
}
