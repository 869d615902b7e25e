//! Counter-based random numbers (Philox 4x32-10, Salmon et al. 2011): the same
//! sequence for the same seed on every device. The state is a key (the seed)
//! and a 64-bit block counter that every draw advances by the blocks it used.
//!
//! # The stream (the CUDA kernels must reproduce this bit for bit)
//! A draw that needs `w` 32-bit words takes word `j` (0-based) from
//! `philox4x32_10(ctr, key)[j % 4]`, where `ctr` is the 128-bit counter
//! `state.counter + j / 4` (words little-endian: `[lo32, hi32, carry, 0]`)
//! and `key = [seed lo32, seed hi32]`. The draw then advances
//! `state.counter` by `ceil(w / 4)`. Element `i` of a draw uses:
//! - `rand`/`uniform` float32: word `i`: `u = (w >> 8) * 2^-24`, in [0, 1).
//! - float16: word `i`: `u = (w >> 21) * 2^-11` (exact in float16).
//! - float64: words `2i` (low) and `2i+1` (high): `u = (((hi << 32) | lo) >> 11) * 2^-53`.
//! - `uniform(lo, hi)`: `lo + (hi - lo) * u`, computed in float64, rounded to the dtype.
//! - `randn`/`normal` (Box-Muller, computed in float64, rounded to the dtype):
//!   pair `p` = elements `2p` and `2p+1`; float16/32 take words `2p` and `2p+1`,
//!   float64 takes words `4p..4p+4` (two 53-bit values). With `a, b` the two
//!   uniforms of the pair made as above, `u1 = 1 - a` (in (0, 1]), `r = sqrt(-2 ln u1)`,
//!   element `2p = r cos(2 pi b)`, element `2p+1 = r sin(2 pi b)`; the pair
//!   count is `ceil(n / 2)`. `normal(mu, sigma)` is `mu + sigma * z`.
//!   (The GPU's `log`/`sin`/`cos` may differ from the host's by an ulp of
//!   float64, which rounding to float32 almost always hides.)
//! - `randint(lo, hi)` (int64): with `r = hi - lo` as u64, if `r <= 2^32` word `i`
//!   gives `lo + ((w * r) >> 32)`; else words `2i`, `2i+1` make `x` (as float64
//!   above, all 64 bits) and the value is `lo + ((x as u128 * r) >> 64)`
//!   (Lemire's multiply-shift, without rejection: bias below r / 2^32).
//!
//! # The distributions (`kernels/src/cpu/samplers.rs`, its CUDA twin `samplers.cuh`)
//! Every value below is computed in float64 with IEEE operations and the
//! polynomial ln/exp of `kernels/src/cpu/math.rs` (the GPU's module is
//! compiled without FMA contraction), then rounded to the dtype: the CPU and
//! the GPU give the same bits. `u53(j)` is the 53-bit uniform of words
//! `2j, 2j+1` of the draw (as float64 above).
//! - `exponential(scale)`: element `i` = `-ln(1 - u53(i)) * scale`;
//!   `bernoulli(p)`: `u53(i) < p`; `choice` with `p`: the first index whose
//!   cumulative probability (summed in float64 in order, divided by the
//!   total) exceeds `u53(i)`. Each advances the counter by `ceil(2n / 4)`.
//! - `gamma`, `beta`, `poisson`, `binomial` take as many uniforms as their
//!   rejection loops need from the element's own stream: element `i`'s
//!   uniform `j` is the pair `j % 2` of the block with the 128-bit counter
//!   `[ctr + i (64 bits), j / 2, tag]`, tag 1 (beta's second gamma: tag 2),
//!   so that no block of it is ever one of the main stream (whose last word
//!   is 0). The draw advances the counter by `n`. Samplers: gamma by
//!   Marsaglia-Tsang (normals by the polar method; shape k < 1 as
//!   Gamma(k+1) * U^(1/k)), beta as Ga / (Ga + Gb) from logs, Poisson by
//!   multiplying uniforms below 10 and by Hörmann's PTRS above (NumPy's
//!   algorithms), binomial by inversion when n min(p, 1-p) < 10 and by
//!   Hörmann's BTRS above.
//! - `permutation`, `shuffle`, `choice` without replacement (without `p`):
//!   the keyed Feistel permutation of `0..n` (`samplers::Perm`, 8 rounds,
//!   cycle walking) keyed by the block at the counter; advances it by 1.
//!   `choice` without replacement with `p`: the k smallest of
//!   `-ln(1 - u53(j)) / p[j]` over the n candidates (Efraimidis-Spirakis), in
//!   that order; advances it by `ceil(2n / 4)`.
//! - `choice` with replacement without `p`: `randint(0, n)`'s integers.

use crate::dtype::DType;

/// The session's generator state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    pub key: u64,
    pub counter: u64,
}

impl Default for Rng {
    fn default() -> Rng {
        Rng {
            key: 0x5eed_6ca1c,
            counter: 0,
        }
    }
}

pub use gcalc_kernels::cpu::samplers::philox4x32_10;

/// A parameter of a draw: one value for every element, or a contiguous
/// float64 array of one value per element, on the draw's device.
#[derive(Clone, Copy, Debug)]
pub enum Param<'a> {
    Scalar(f64),
    Array(&'a crate::array::Array),
}

impl Rng {
    /// The counter a draw starts at, advancing it past the `blocks` it uses.
    pub fn take(&mut self, blocks: u64) -> u64 {
        let c = self.counter;
        self.counter = self.counter.wrapping_add(blocks);
        c
    }

    /// `seed(n)`: key = n, counter = 0.
    pub fn seed(&mut self, n: u64) {
        self.key = n;
        self.counter = 0;
    }

    /// The next `n` words of the stream (see the module docs), advancing the counter.
    pub fn words(&mut self, n: usize) -> Vec<u32> {
        let key = [self.key as u32, (self.key >> 32) as u32];
        let blocks = n.div_ceil(4);
        let mut out = Vec::with_capacity(blocks * 4);
        for b in 0..blocks as u128 {
            let c = self.counter as u128 + b;
            out.extend(philox4x32_10(
                [c as u32, (c >> 32) as u32, (c >> 64) as u32, 0],
                key,
            ));
        }
        out.truncate(n);
        self.counter = self.counter.wrapping_add(blocks as u64);
        out
    }

    /// Uniform [0, 1) values as f64 (exactly representable in `dtype`).
    pub fn uniforms(&mut self, n: usize, dtype: DType) -> Vec<f64> {
        match dtype {
            DType::Float64 => {
                let w = self.words(n.saturating_mul(2));
                w.chunks_exact(2).map(|p| u53(p[0], p[1])).collect()
            }
            DType::Float16 => self
                .words(n)
                .into_iter()
                .map(|w| (w >> 21) as f64 / 2048.0)
                .collect(),
            _ => self
                .words(n)
                .into_iter()
                .map(|w| (w >> 8) as f64 / 16_777_216.0)
                .collect(),
        }
    }

    /// Standard normal values as f64 (Box-Muller on pairs).
    pub fn normals(&mut self, n: usize, dtype: DType) -> Vec<f64> {
        let pairs = n.div_ceil(2);
        let u = self.uniforms(pairs.saturating_mul(2), dtype);
        let mut out = Vec::with_capacity(pairs * 2);
        for p in u.chunks_exact(2) {
            let r = (-2.0 * (1.0 - p[0]).ln()).sqrt();
            let t = 2.0 * std::f64::consts::PI * p[1];
            out.push(r * t.cos());
            out.push(r * t.sin());
        }
        out.truncate(n);
        out
    }
}

impl Rng {
    /// `n` integers in [lo, hi) (`lo < hi`), as the module docs define them.
    pub fn randints(&mut self, lo: i64, hi: i64, n: usize) -> Vec<i64> {
        let r = (hi as i128 - lo as i128) as u64;
        if r <= 1 << 32 {
            self.words(n)
                .into_iter()
                .map(|w| lo.wrapping_add(((w as u64 * r) >> 32) as i64))
                .collect()
        } else {
            let w = self.words(n.saturating_mul(2));
            w.chunks_exact(2)
                .map(|p| {
                    let x = ((p[1] as u64) << 32) | p[0] as u64;
                    lo.wrapping_add(((x as u128 * r as u128) >> 64) as i64)
                })
                .collect()
        }
    }
}

fn u53(lo: u32, hi: u32) -> f64 {
    ((((hi as u64) << 32) | lo as u64) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}
