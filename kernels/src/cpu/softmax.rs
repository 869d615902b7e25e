//! The inner loops of softmax, log_softmax and logsumexp over one contiguous
//! lane: the lane's max (NaN propagating), the sum of `exp(x - m)` in float64
//! with 16 accumulators (the exponentials optionally stored), a scale, and
//! `x - c`. Vectorised exp (`math::FastMath`), compiled for AVX-512 and
//! AVX2+FMA with runtime dispatch.

use super::math::FastMath;
use super::simd::{Level, level};

const LANES: usize = 16;

/// A float the loops run on (f32 or f64).
pub trait SoftFloat:
    FastMath
    + Copy
    + PartialOrd
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + Send
    + Sync
{
    const NEG_INF: Self;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
}
impl SoftFloat for f32 {
    const NEG_INF: f32 = f32::NEG_INFINITY;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
}
impl SoftFloat for f64 {
    const NEG_INF: f64 = f64::NEG_INFINITY;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_f64(v: f64) -> f64 {
        v
    }
}

#[inline(always)]
fn max_body<T: SoftFloat>(x: &[T]) -> T {
    let mut acc = [T::NEG_INF; LANES];
    let chunks = x.chunks_exact(LANES);
    let rem = chunks.remainder();
    #[allow(clippy::eq_op)]
    let pick = |a: T, v: T| if v > a || v != v { v } else { a };
    for c in chunks {
        for j in 0..LANES {
            acc[j] = pick(acc[j], c[j]);
        }
    }
    let mut m = T::NEG_INF;
    for a in acc {
        m = pick(m, a);
    }
    for &v in rem {
        m = pick(m, v);
    }
    m
}

#[inline(always)]
fn exp_sum_body<T: SoftFloat, const STORE: bool>(x: &[T], m: T, out: &mut [T]) -> f64 {
    let mut acc = [0f64; LANES];
    let full = x.len() / LANES * LANES;
    let (xs, xr) = x.split_at(full);
    if STORE {
        let (os, or) = out.split_at_mut(full);
        for (c, o) in xs.chunks_exact(LANES).zip(os.chunks_exact_mut(LANES)) {
            for j in 0..LANES {
                let e = (c[j] - m).vexp();
                o[j] = e;
                acc[j] += e.to_f64();
            }
        }
        for (&v, o) in xr.iter().zip(or.iter_mut()) {
            let e = (v - m).vexp();
            *o = e;
            acc[0] += e.to_f64();
        }
    } else {
        for c in xs.chunks_exact(LANES) {
            for j in 0..LANES {
                acc[j] += (c[j] - m).vexp().to_f64();
            }
        }
        for &v in xr {
            acc[0] += (v - m).vexp().to_f64();
        }
    }
    acc.iter().sum()
}

#[inline(always)]
fn scale_body<T: SoftFloat>(o: &mut [T], k: T) {
    for v in o.iter_mut() {
        *v = *v * k;
    }
}

#[inline(always)]
fn shift_body<T: SoftFloat>(x: &[T], o: &mut [T], a: T, b: T) {
    for (v, o) in x.iter().zip(o.iter_mut()) {
        *o = (*v - a) - b;
    }
}

macro_rules! dispatch {
    ($name:ident, $body:ident, <$($g:ident $(: $b:path)?),*>, ($($a:ident: $t:ty),*) -> $r:ty) => {
        #[inline]
        pub fn $name<$($g $(: $b)?),*>($($a: $t),*) -> $r {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
                unsafe fn v512<$($g $(: $b)?),*>($($a: $t),*) -> $r {
                    $body::<$($g),*>($($a),*)
                }
                #[target_feature(enable = "avx2,fma,f16c")]
                unsafe fn v256<$($g $(: $b)?),*>($($a: $t),*) -> $r {
                    $body::<$($g),*>($($a),*)
                }
                match level() {
                    // SAFETY: `level()` checked that the CPU has these features.
                    Level::Avx512 => return unsafe { v512::<$($g),*>($($a),*) },
                    Level::Avx2 => return unsafe { v256::<$($g),*>($($a),*) },
                    Level::Base => {}
                }
            }
            $body::<$($g),*>($($a),*)
        }
    };
}

// The lane's max, NaN propagating (-inf for an empty lane).
dispatch!(lane_max, max_body, <T: SoftFloat>, (x: &[T]) -> T);
// `o *= k`.
dispatch!(scale, scale_body, <T: SoftFloat>, (o: &mut [T], k: T) -> ());
// `o = (x - a) - b`, rounded after each step as NumPy's two operations.
dispatch!(shift, shift_body, <T: SoftFloat>, (x: &[T], o: &mut [T], a: T, b: T) -> ());

#[inline(always)]
fn store_body<T: SoftFloat>(x: &[T], m: T, out: &mut [T]) -> f64 {
    exp_sum_body::<T, true>(x, m, out)
}

#[inline(always)]
fn only_body<T: SoftFloat>(x: &[T], m: T) -> f64 {
    exp_sum_body::<T, false>(x, m, &mut [])
}

// The sum of `exp(x - m)` in float64, each exponential stored in `out`.
dispatch!(exp_sum_store, store_body, <T: SoftFloat>, (x: &[T], m: T, out: &mut [T]) -> f64);
// The sum of `exp(x - m)` in float64.
dispatch!(exp_sum_only, only_body, <T: SoftFloat>, (x: &[T], m: T) -> f64);

#[inline(always)]
fn row_max_body<T: SoftFloat>(x: &[T], n: usize, m: &mut [T]) {
    #[allow(clippy::eq_op)]
    let pick = |a: T, v: T| if v > a || v != v { v } else { a };
    for (r, mr) in x.chunks_exact(n).zip(m.iter_mut()) {
        *mr = r.iter().fold(T::NEG_INF, |a, &v| pick(a, v));
    }
}

#[inline(always)]
fn short_exp_body<T: SoftFloat>(x: &[T], n: usize, m: &[T], e: &mut [T], s: &mut [f64]) {
    for ((r, er), &mr) in x.chunks_exact(n).zip(e.chunks_exact_mut(n)).zip(m) {
        for (o, &v) in er.iter_mut().zip(r) {
            *o = v - mr;
        }
    }
    for v in e.iter_mut() {
        *v = v.vexp();
    }
    for (er, sr) in e.chunks_exact(n).zip(s.iter_mut()) {
        *sr = er.iter().fold(0.0, |a, &v| a + v.to_f64());
    }
}

// Short rows (a block of rows of `n` elements, one after another), where a
// per-row call would pay its overhead per handful of elements: each row's
// max into `m`, the same as `lane_max` of the row.
dispatch!(row_maxes, row_max_body, <T: SoftFloat>, (x: &[T], n: usize, m: &mut [T]) -> ());
// `e = exp(x - m[row])` over the whole block in one vectorised loop, and each
// row's float64 sum of its exponentials into `s`: for `n <= 16` the same bits
// as `exp_sum_store` per row (its 16 accumulators hold one element each).
dispatch!(short_rows_exp, short_exp_body, <T: SoftFloat>, (x: &[T], n: usize, m: &[T], e: &mut [T], s: &mut [f64]) -> ());

#[cfg(test)]
mod tests {
    use super::*;

    /// The block form gives each row's max and exponential sum with the
    /// same bits as the per-row kernels, for every row length it serves.
    #[test]
    fn short_rows_match_the_row_kernels() {
        let mut seed = 7u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 40.0
        };
        for n in 1..=16 {
            let rows = 37;
            let mut x: Vec<f32> = (0..rows * n).map(|_| rnd() as f32).collect();
            x[3 * n] = f32::NAN;
            x[5 * n] = f32::NEG_INFINITY;
            let mut m = vec![0f32; rows];
            row_maxes(&x, n, &mut m);
            let mut e = vec![0f32; rows * n];
            let mut s = vec![0f64; rows];
            short_rows_exp(&x, n, &m, &mut e, &mut s);
            for r in 0..rows {
                let row = &x[r * n..(r + 1) * n];
                let mr = lane_max(row);
                assert_eq!(mr.to_bits(), m[r].to_bits(), "max n={n} row={r}");
                let mut er = vec![0f32; n];
                let sr = exp_sum_store(row, mr, &mut er);
                assert_eq!(sr.to_bits(), s[r].to_bits(), "sum n={n} row={r}");
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&er), bits(&e[r * n..(r + 1) * n]), "exp n={n} row={r}");
            }
            assert!(
                m[3].is_nan()
                    && s.iter().filter(|v| v.is_finite() && **v >= 1.0).count() >= rows - 2
            );
        }
    }
}
