//! One-pass argmax/argmin of contiguous float32/float64 slices in AVX2
//! registers, also on AVX-512 CPUs (a 512-bit form was written but removed
//! untested: this session's machines had no AVX-512). Each lane keeps its
//! running extreme and the index where it first appeared, so the slice is
//! read once (the portable two-pass form, `argreduce::arg_extreme`, reads
//! it twice and searches the second pass element by element: 2-3x NumPy's
//! time on rows of a few hundred elements and on 1e7 elements). NaNs are
//! only noted on the way; a slice holding one is handed to the portable
//! form, whose first NaN wins.

use super::argreduce::arg_extreme;
use super::simd::{Level, level};

/// Element types with a one-pass AVX2 argmax.
pub trait ArgExt: Copy + PartialOrd {
    /// (extreme, its first index), or `None` when the slice holds a NaN or
    /// the CPU lacks AVX2.
    fn one_pass<const MAX: bool>(x: &[Self]) -> Option<(Self, usize)>;
}

/// (argmax (`MAX`) or argmin value, its first index) of a non-empty `x`,
/// as `argreduce::arg_extreme` gives it (NumPy's: the first NaN wins, then
/// the first of equal extremes, -0.0 equal to 0.0).
pub fn arg_extreme_fast<T: ArgExt, const MAX: bool>(x: &[T]) -> (T, usize) {
    match T::one_pass::<MAX>(x) {
        Some(r) => r,
        None => arg_extreme::<T, MAX>(x),
    }
}

macro_rules! impl_arg_ext {
    ($t:ty, $f:ident, $lim:expr) => {
        impl ArgExt for $t {
            #[inline]
            fn one_pass<const MAX: bool>(x: &[$t]) -> Option<($t, usize)> {
                #[cfg(target_arch = "x86_64")]
                if !x.is_empty() && x.len() < $lim {
                    match level() {
                        // SAFETY: `level()` checked AVX2 and FMA (AVX-512
                        // CPUs have them too).
                        Level::Avx512 | Level::Avx2 => return unsafe { v256::$f::<MAX>(x) },
                        Level::Base => {}
                    }
                }
                let _ = x;
                None
            }
        }
    };
}
impl_arg_ext!(f32, arg_f32, 1usize << 31);
impl_arg_ext!(f64, arg_f64, usize::MAX);

/// The extreme among `best` (lane values, no NaN) and the least index in
/// `at` holding it, then the scalar `tail` (numbered from `start`) folded in.
#[inline(always)]
fn finish<T: Copy + PartialOrd, const MAX: bool>(
    best: &[T],
    at: impl Fn(usize) -> usize,
    tail: &[T],
    start: usize,
) -> Option<(T, usize)> {
    let better = |v: T, e: T| if MAX { v > e } else { v < e };
    let mut e = best[0];
    for &v in &best[1..] {
        if better(v, e) {
            e = v;
        }
    }
    let mut i = usize::MAX;
    for (k, &v) in best.iter().enumerate() {
        if v == e {
            i = i.min(at(k));
        }
    }
    for (k, &v) in tail.iter().enumerate() {
        #[allow(clippy::eq_op)]
        if v != v {
            return None;
        }
        if better(v, e) {
            (e, i) = (v, start + k);
        }
    }
    Some((e, i))
}

#[cfg(target_arch = "x86_64")]
mod v256 {
    use super::finish;
    use std::arch::x86_64::*;

    /// One AVX2 argmax: four registers of `$w` lanes of `$t` (vector type
    /// `$v`, intrinsics suffix `$s`) with their `$i` indices, the last
    /// elements short of a register folded in one by one; `None` on a NaN.
    macro_rules! arg_avx2 {
        ($name:ident, $t:ty, $i:ty, $w:expr, $set1:ident, $load:ident, $cmp:ident,
         $or:ident, $blend:ident, $to:ident, $from:ident, $mask:ident, $store:ident,
         $iadd:ident, $iset1:ident) => {
            #[target_feature(enable = "avx2,fma")]
            pub unsafe fn $name<const MAX: bool>(x: &[$t]) -> Option<($t, usize)> {
                const W: usize = $w;
                let (n, p) = (x.len(), x.as_ptr());
                let mut best = [$set1(x[0]); 4];
                let mut at = [_mm256_setzero_si256(); 4];
                let mut lane = [0 as $i; W];
                for (j, l) in lane.iter_mut().enumerate() {
                    *l = j as $i;
                }
                // SAFETY: `lane` holds W indices, one register.
                let base = unsafe { _mm256_loadu_si256(lane.as_ptr() as *const __m256i) };
                let mut idx = [0, 1, 2, 3].map(|k| $iadd(base, $iset1((k * W) as $i)));
                let mut nan = $set1(0.0);
                let mut i = 0;
                // One register `k` at element `i` (a macro: a closure was
                // not inlined with the function's target features).
                macro_rules! step {
                    ($at:expr, $k:expr) => {{
                        let k = $k;
                        // SAFETY: the callers keep `i + W <= n`.
                        let v = unsafe { $load(p.add($at)) };
                        nan = $or(nan, $cmp::<_CMP_UNORD_Q>(v, v));
                        let m = if MAX {
                            $cmp::<_CMP_GT_OQ>(v, best[k])
                        } else {
                            $cmp::<_CMP_LT_OQ>(v, best[k])
                        };
                        best[k] = $blend(best[k], v, m);
                        at[k] = $from($blend($to(at[k]), $to(idx[k]), m));
                        idx[k] = $iadd(idx[k], $iset1((4 * W) as $i));
                    }};
                }
                while i + 4 * W <= n {
                    for k in 0..4 {
                        step!(i + W * k, k);
                    }
                    i += 4 * W;
                }
                let mut k = 0;
                while i + W <= n {
                    step!(i, k);
                    (i, k) = (i + W, k + 1);
                }
                if $mask(nan) != 0 {
                    return None;
                }
                let (mut b, mut a) = ([0 as $t; 4 * W], [0 as $i; 4 * W]);
                for k in 0..4 {
                    // SAFETY: W lanes into each W-element piece of the arrays.
                    unsafe {
                        $store(b.as_mut_ptr().add(W * k), best[k]);
                        _mm256_storeu_si256(a.as_mut_ptr().add(W * k) as *mut __m256i, at[k]);
                    }
                }
                finish::<$t, MAX>(&b, |j| a[j] as usize, &x[i..], i)
            }
        };
    }
    arg_avx2!(
        arg_f32,
        f32,
        i32,
        8,
        _mm256_set1_ps,
        _mm256_loadu_ps,
        _mm256_cmp_ps,
        _mm256_or_ps,
        _mm256_blendv_ps,
        _mm256_castsi256_ps,
        _mm256_castps_si256,
        _mm256_movemask_ps,
        _mm256_storeu_ps,
        _mm256_add_epi32,
        _mm256_set1_epi32
    );
    arg_avx2!(
        arg_f64,
        f64,
        i64,
        4,
        _mm256_set1_pd,
        _mm256_loadu_pd,
        _mm256_cmp_pd,
        _mm256_or_pd,
        _mm256_blendv_pd,
        _mm256_castsi256_pd,
        _mm256_castpd_si256,
        _mm256_movemask_pd,
        _mm256_storeu_pd,
        _mm256_add_epi64,
        _mm256_set1_epi64x
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to 300 and a few long ones, extremes placed at every
    /// kind of position (register, lane, tail), ties, -0.0 and NaN: the one
    /// pass agrees with the two-pass form.
    #[test]
    fn one_pass_agrees_with_two_pass() {
        let mut seed = 12345u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let lens: Vec<usize> = (1..300).chain([1000, 4099, 65537]).collect();
        for &n in &lens {
            for case in 0..6 {
                let mut x: Vec<f64> = (0..n).map(|_| (rnd() % 1000) as f64 / 7.0 - 70.0).collect();
                match case {
                    1 => x.iter_mut().for_each(|v| *v = (*v / 20.0).round()), // many ties
                    2 => x[rnd() as usize % n] = 1e9,
                    3 => x[n - 1] = -1e9,
                    4 => x
                        .iter_mut()
                        .for_each(|v| *v = if rnd() % 2 == 0 { 0.0 } else { -0.0 }),
                    5 => x[rnd() as usize % n] = f64::NAN,
                    _ => {}
                }
                let y: Vec<f32> = x.iter().map(|&v| v as f32).collect();
                // The one pass runs (is compared, not the fallback twice)
                // wherever the CPU has AVX2 or AVX-512 and no NaN is there.
                if !matches!(level(), Level::Base) {
                    assert_eq!(f64::one_pass::<true>(&x).is_some(), case != 5);
                    assert_eq!(f32::one_pass::<false>(&y).is_some(), case != 5);
                }
                for max in [true, false] {
                    let (a, b) = if max {
                        (
                            arg_extreme_fast::<f64, true>(&x),
                            arg_extreme::<f64, true>(&x),
                        )
                    } else {
                        (
                            arg_extreme_fast::<f64, false>(&x),
                            arg_extreme::<f64, false>(&x),
                        )
                    };
                    assert_eq!(a.1, b.1, "f64 n={n} case={case} max={max}");
                    let (a, b) = if max {
                        (
                            arg_extreme_fast::<f32, true>(&y),
                            arg_extreme::<f32, true>(&y),
                        )
                    } else {
                        (
                            arg_extreme_fast::<f32, false>(&y),
                            arg_extreme::<f32, false>(&y),
                        )
                    };
                    assert_eq!(a.1, b.1, "f32 n={n} case={case} max={max}");
                }
            }
        }
    }
}
