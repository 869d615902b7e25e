//! One-pass argmax/argmin of contiguous float32/float64/int64 slices in
//! SIMD registers: AVX-512 (16 f32 or 8 f64/i64 lanes, compares into mask
//! registers) where the CPU has it, else AVX2 for the floats. Each lane
//! keeps its running extreme and the index where it first appeared, so the
//! slice is read once (the portable two-pass form, `argreduce::arg_extreme`,
//! reads it twice and searches the second pass element by element: 2-3x
//! NumPy's time on rows of a few hundred elements and on 1e7 elements).
//! NaNs are only noted on the way; a slice holding one is handed to the
//! portable form, whose first NaN wins.

use super::argreduce::arg_extreme;
use super::simd::{Level, level};

/// Element types with a one-pass SIMD argmax.
pub trait ArgExt: Copy + PartialOrd {
    /// (extreme, its first index), or `None` when the slice holds a NaN or
    /// the CPU lacks the instructions (AVX2 for floats, AVX-512 for int64).
    fn one_pass<const MAX: bool>(x: &[Self]) -> Option<(Self, usize)>;
    /// The portable form, for a slice the one pass declined.
    fn two_pass<const MAX: bool>(x: &[Self]) -> (Self, usize) {
        arg_extreme::<Self, MAX>(x)
    }
}

/// (argmax (`MAX`) or argmin value, its first index) of a non-empty `x`,
/// as `argreduce::arg_extreme` gives it (NumPy's: the first NaN wins, then
/// the first of equal extremes, -0.0 equal to 0.0).
pub fn arg_extreme_fast<T: ArgExt, const MAX: bool>(x: &[T]) -> (T, usize) {
    match T::one_pass::<MAX>(x) {
        Some(r) => r,
        None => T::two_pass::<MAX>(x),
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
                        // SAFETY: `level()` checked AVX-512 (F, VL, BW, DQ).
                        Level::Avx512 => return unsafe { v512::$f::<MAX>(x) },
                        // SAFETY: `level()` checked AVX2 and FMA.
                        Level::Avx2 => return unsafe { v256::$f::<MAX>(x) },
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

impl ArgExt for i64 {
    #[inline]
    fn one_pass<const MAX: bool>(x: &[i64]) -> Option<(i64, usize)> {
        #[cfg(target_arch = "x86_64")]
        if !x.is_empty() && matches!(level(), Level::Avx512) {
            // SAFETY: `level()` checked AVX-512.
            return unsafe { v512::arg_i64::<MAX>(x) };
        }
        let _ = x;
        None
    }
    fn two_pass<const MAX: bool>(x: &[i64]) -> (i64, usize) {
        super::argreduce::arg_extreme_ord::<i64, MAX>(x)
    }
}

/// The extreme among `best` (lane values, no NaN; of equal ones the one at
/// the least index in `at`), then the scalar `tail` (numbered from `start`)
/// folded in.
#[inline(always)]
fn finish<T: Copy + PartialOrd, const MAX: bool>(
    best: &[T],
    at: impl Fn(usize) -> usize,
    tail: &[T],
    start: usize,
) -> Option<(T, usize)> {
    let better = |v: T, e: T| if MAX { v > e } else { v < e };
    let (mut e, mut i) = (best[0], at(0));
    for (k, &v) in best.iter().enumerate().skip(1) {
        if better(v, e) || (v == e && at(k) < i) {
            (e, i) = (v, at(k));
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

/// One SIMD argmax, for one instruction set: four registers of `$w` lanes
/// of `$t` with their `$i` indices, the last elements short of a register
/// folded in one by one; `None` on a NaN. The instruction set comes in as
/// closures: `$better(v, best)` a mask of the lanes where `v` wins
/// (`$lt`/`$gt` for argmin/argmax), `$blend(m, a, b)` takes `b` where `m`,
/// `$nan(acc, v)` notes NaNs and `$any(acc)` tells whether one was seen.
#[cfg(target_arch = "x86_64")]
macro_rules! arg_simd {
    ($feat:literal, $name:ident, $t:ty, $i:ty, $w:expr, $set1:expr, $load:expr, $store:expr,
     $gt:expr, $lt:expr, $eq:expr, $blend:expr, $nan0:expr, $nan:expr, $any:expr,
     $iload:expr, $istore:expr, $iblend:expr, $iadd:expr, $iset1:expr, $ilt:expr,
     $mor:expr, $mand:expr) => {
        #[target_feature(enable = $feat)]
        pub unsafe fn $name<const MAX: bool>(x: &[$t]) -> Option<($t, usize)> {
            const W: usize = $w;
            let (n, p) = (x.len(), x.as_ptr());
            let mut best = [$set1(x[0]); 4];
            let mut at = [$iset1(0 as $i); 4];
            let mut lane = [0 as $i; W];
            for (j, l) in lane.iter_mut().enumerate() {
                *l = j as $i;
            }
            // SAFETY: `lane` holds W indices, one register.
            let base = unsafe { $iload(lane.as_ptr()) };
            let mut idx = [0, 1, 2, 3].map(|k| $iadd(base, $iset1((k * W) as $i)));
            let step_all = $iset1((4 * W) as $i);
            let mut nan = $nan0;
            let mut i = 0;
            // One register `k` at element `i` (a macro: a closure was not
            // inlined with the function's target features).
            macro_rules! step {
                ($at:expr, $k:expr) => {{
                    let k = $k;
                    // SAFETY: the callers keep `i + W <= n`.
                    let v = unsafe { $load(p.add($at)) };
                    nan = $nan(nan, v);
                    let m = if MAX {
                        $gt(v, best[k])
                    } else {
                        $lt(v, best[k])
                    };
                    best[k] = $blend(m, best[k], v);
                    at[k] = $iblend(m, at[k], idx[k]);
                    idx[k] = $iadd(idx[k], step_all);
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
            if $any(nan) {
                return None;
            }
            // The four registers into the first, lane by lane: the better
            // value, or of equal ones the lesser index.
            for k in 1..4 {
                let wins = if MAX {
                    $gt(best[k], best[0])
                } else {
                    $lt(best[k], best[0])
                };
                let tie = $mand($eq(best[k], best[0]), $ilt(at[k], at[0]));
                let m = $mor(wins, tie);
                best[0] = $blend(m, best[0], best[k]);
                at[0] = $iblend(m, at[0], at[k]);
            }
            let (mut b, mut a) = ([0 as $t; W], [0 as $i; W]);
            // SAFETY: W lanes into W-element arrays.
            unsafe {
                $store(b.as_mut_ptr(), best[0]);
                $istore(a.as_mut_ptr(), at[0]);
            }
            finish::<$t, MAX>(&b, |j| a[j] as usize, &x[i..], i)
        }
    };
}

/// AVX2: compares give all-ones lanes, blended with `blendv`.
#[cfg(target_arch = "x86_64")]
mod v256 {
    use super::finish;
    use std::arch::x86_64::*;

    arg_simd!(
        "avx2,fma",
        arg_f32,
        f32,
        i32,
        8,
        _mm256_set1_ps,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        |a, b| _mm256_cmp_ps::<_CMP_GT_OQ>(a, b),
        |a, b| _mm256_cmp_ps::<_CMP_LT_OQ>(a, b),
        |a, b| _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b),
        |m, a, b| _mm256_blendv_ps(a, b, m),
        _mm256_setzero_ps(),
        |acc, v| _mm256_or_ps(acc, _mm256_cmp_ps::<_CMP_UNORD_Q>(v, v)),
        |acc| _mm256_movemask_ps(acc) != 0,
        |p: *const i32| _mm256_loadu_si256(p as *const __m256i),
        |p: *mut i32, v| _mm256_storeu_si256(p as *mut __m256i, v),
        |m, a, b| _mm256_castps_si256(_mm256_blendv_ps(
            _mm256_castsi256_ps(a),
            _mm256_castsi256_ps(b),
            m
        )),
        _mm256_add_epi32,
        _mm256_set1_epi32,
        |a, b| _mm256_castsi256_ps(_mm256_cmpgt_epi32(b, a)),
        _mm256_or_ps,
        _mm256_and_ps
    );
    arg_simd!(
        "avx2,fma",
        arg_f64,
        f64,
        i64,
        4,
        _mm256_set1_pd,
        _mm256_loadu_pd,
        _mm256_storeu_pd,
        |a, b| _mm256_cmp_pd::<_CMP_GT_OQ>(a, b),
        |a, b| _mm256_cmp_pd::<_CMP_LT_OQ>(a, b),
        |a, b| _mm256_cmp_pd::<_CMP_EQ_OQ>(a, b),
        |m, a, b| _mm256_blendv_pd(a, b, m),
        _mm256_setzero_pd(),
        |acc, v| _mm256_or_pd(acc, _mm256_cmp_pd::<_CMP_UNORD_Q>(v, v)),
        |acc| _mm256_movemask_pd(acc) != 0,
        |p: *const i64| _mm256_loadu_si256(p as *const __m256i),
        |p: *mut i64, v| _mm256_storeu_si256(p as *mut __m256i, v),
        |m, a, b| _mm256_castpd_si256(_mm256_blendv_pd(
            _mm256_castsi256_pd(a),
            _mm256_castsi256_pd(b),
            m
        )),
        _mm256_add_epi64,
        _mm256_set1_epi64x,
        |a, b| _mm256_castsi256_pd(_mm256_cmpgt_epi64(b, a)),
        _mm256_or_pd,
        _mm256_and_pd
    );
}

/// AVX-512: compares into mask registers, blended by mask.
#[cfg(target_arch = "x86_64")]
mod v512 {
    use super::finish;
    use std::arch::x86_64::*;

    arg_simd!(
        "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma",
        arg_f32,
        f32,
        i32,
        16,
        _mm512_set1_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        |a, b| _mm512_cmp_ps_mask::<_CMP_GT_OQ>(a, b),
        |a, b| _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b),
        |a, b| _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(a, b),
        _mm512_mask_blend_ps,
        0u16,
        |acc: u16, v| acc | _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v),
        |acc: u16| acc != 0,
        _mm512_loadu_epi32,
        _mm512_storeu_epi32,
        _mm512_mask_blend_epi32,
        _mm512_add_epi32,
        _mm512_set1_epi32,
        _mm512_cmplt_epi32_mask,
        |a: u16, b: u16| a | b,
        |a: u16, b: u16| a & b
    );
    arg_simd!(
        "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma",
        arg_f64,
        f64,
        i64,
        8,
        _mm512_set1_pd,
        _mm512_loadu_pd,
        _mm512_storeu_pd,
        |a, b| _mm512_cmp_pd_mask::<_CMP_GT_OQ>(a, b),
        |a, b| _mm512_cmp_pd_mask::<_CMP_LT_OQ>(a, b),
        |a, b| _mm512_cmp_pd_mask::<_CMP_EQ_OQ>(a, b),
        _mm512_mask_blend_pd,
        0u8,
        |acc: u8, v| acc | _mm512_cmp_pd_mask::<_CMP_UNORD_Q>(v, v),
        |acc: u8| acc != 0,
        _mm512_loadu_epi64,
        _mm512_storeu_epi64,
        _mm512_mask_blend_epi64,
        _mm512_add_epi64,
        _mm512_set1_epi64,
        _mm512_cmplt_epi64_mask,
        |a: u8, b: u8| a | b,
        |a: u8, b: u8| a & b
    );
    arg_simd!(
        "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma",
        arg_i64,
        i64,
        i64,
        8,
        _mm512_set1_epi64,
        _mm512_loadu_epi64,
        _mm512_storeu_epi64,
        _mm512_cmpgt_epi64_mask,
        _mm512_cmplt_epi64_mask,
        _mm512_cmpeq_epi64_mask,
        _mm512_mask_blend_epi64,
        (),
        |_: (), _v| (),
        |_: ()| false,
        _mm512_loadu_epi64,
        _mm512_storeu_epi64,
        _mm512_mask_blend_epi64,
        _mm512_add_epi64,
        _mm512_set1_epi64,
        _mm512_cmplt_epi64_mask,
        |a: u8, b: u8| a | b,
        |a: u8, b: u8| a & b
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
                    if case != 5 {
                        let z: Vec<i64> = x.iter().map(|&v| (v * 3.0) as i64).collect();
                        let (a, b) = if max {
                            (
                                arg_extreme_fast::<i64, true>(&z),
                                arg_extreme::<i64, true>(&z),
                            )
                        } else {
                            (
                                arg_extreme_fast::<i64, false>(&z),
                                arg_extreme::<i64, false>(&z),
                            )
                        };
                        assert_eq!(a, b, "i64 n={n} case={case} max={max}");
                    }
                }
            }
        }
    }
}
