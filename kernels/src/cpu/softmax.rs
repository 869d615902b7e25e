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
