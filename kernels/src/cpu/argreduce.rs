//! Argmax/argmin of a contiguous slice (value and first index), argmax by
//! whole rows (running extremes and their rows in vector lanes), wrapping
//! integer sums and products, and strided gathers into contiguous pieces,
//! so strided lanes reuse the contiguous kernels.

use super::reduce::{extreme, extreme_ord, find_first};
use super::simd::{Level, level};

/// Argmax (`MAX`) or argmin by whole rows: row `k` (numbered from 1) of
/// `rows` replaces column `j`'s running extreme when better, or NaN over a
/// non-NaN (the first NaN wins; ties keep the earlier row).
#[inline(always)]
fn arg_rows_body<T: Copy + PartialOrd, const MAX: bool>(
    best: &mut [T],
    idx: &mut [u32],
    d: &[T],
    rows: &[usize],
    vs: usize,
) {
    let n = best.len();
    let idx = &mut idx[..n];
    #[allow(clippy::eq_op)]
    let step = |a: T, v: T| a == a && (v != v || if MAX { v > a } else { v < a });
    for (k, &r) in rows.iter().enumerate() {
        let k = k as u32 + 1;
        if vs == 1 {
            let row = &d[r..r + n];
            for ((b, i), &v) in best.iter_mut().zip(idx.iter_mut()).zip(row) {
                let t = step(*b, v);
                *b = if t { v } else { *b };
                *i = if t { k } else { *i };
            }
        } else {
            for (j, (b, i)) in best.iter_mut().zip(idx.iter_mut()).enumerate() {
                let v = d[r + j * vs];
                let t = step(*b, v);
                *b = if t { v } else { *b };
                *i = if t { k } else { *i };
            }
        }
    }
}

#[inline(always)]
fn gather_fixed<T: Copy, const S: usize>(src: &[T], out: &mut [T]) {
    let n = out.len();
    let full = src.len() / S;
    for (o, c) in out.iter_mut().zip(src.chunks_exact(S)) {
        *o = c[0];
    }
    if n > full {
        out[n - 1] = src[(n - 1) * S];
    }
}

#[inline(always)]
fn gather_body<T: Copy>(d: &[T], base: usize, stride: isize, out: &mut [T]) {
    let n = out.len();
    if n == 0 {
        return;
    }
    if stride > 0 {
        let src = &d[base..base + (n - 1) * stride as usize + 1];
        match stride {
            1 => return out.copy_from_slice(src),
            2 => return gather_fixed::<T, 2>(src, out),
            3 => return gather_fixed::<T, 3>(src, out),
            4 => return gather_fixed::<T, 4>(src, out),
            _ => {}
        }
    }
    for (k, o) in out.iter_mut().enumerate() {
        *o = d[(base as isize + k as isize * stride) as usize];
    }
}

#[inline(always)]
fn sum_body<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
    x.iter().fold(0i64, |a, &v| a.wrapping_add(f(v)))
}

#[inline(always)]
fn prod_body<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
    // Eight products at a time (wrapping products commute: any order gives
    // the same bits); one chain waited for each multiply.
    let mut acc = [1i64; 8];
    let chunks = x.chunks_exact(8);
    let rem = chunks.remainder();
    for c in chunks {
        for j in 0..8 {
            acc[j] = acc[j].wrapping_mul(f(c[j]));
        }
    }
    let p = acc.iter().fold(1i64, |a, &v| a.wrapping_mul(v));
    rem.iter().fold(p, |a, &v| a.wrapping_mul(f(v)))
}

#[cfg(target_arch = "x86_64")]
mod v {
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn arg_rows_512<T: Copy + PartialOrd, const MAX: bool>(
        best: &mut [T],
        idx: &mut [u32],
        d: &[T],
        rows: &[usize],
        vs: usize,
    ) {
        super::arg_rows_body::<T, MAX>(best, idx, d, rows, vs)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn arg_rows_256<T: Copy + PartialOrd, const MAX: bool>(
        best: &mut [T],
        idx: &mut [u32],
        d: &[T],
        rows: &[usize],
        vs: usize,
    ) {
        super::arg_rows_body::<T, MAX>(best, idx, d, rows, vs)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn gather_512<T: Copy>(d: &[T], base: usize, stride: isize, out: &mut [T]) {
        super::gather_body(d, base, stride, out)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn gather_256<T: Copy>(d: &[T], base: usize, stride: isize, out: &mut [T]) {
        super::gather_body(d, base, stride, out)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn sum_512<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
        super::sum_body(x, f)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn sum_256<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
        super::sum_body(x, f)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn prod_512<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
        super::prod_body(x, f)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn prod_256<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
        super::prod_body(x, f)
    }
}

/// `$f512`, `$f256` or `$base`, the best this CPU runs.
macro_rules! best {
    ($f512:expr, $f256:expr, $base:expr) => {{
        #[cfg(target_arch = "x86_64")]
        let r = match level() {
            // SAFETY: `level()` checked that the CPU has these features.
            Level::Avx512 => unsafe { $f512 },
            // SAFETY: as above.
            Level::Avx2 => unsafe { $f256 },
            Level::Base => $base,
        };
        #[cfg(not(target_arch = "x86_64"))]
        let r = $base;
        r
    }};
}

/// (argmax (`MAX`) or argmin value, its first index) of a non-empty `x`
/// in two vectorised passes (the extreme, then its first position), as
/// NumPy: the first NaN wins, else the first of equal extremes (-0.0
/// equals 0.0). A one-pass fold carrying indices in the vector lanes was
/// slower here (32-lane u32 indices beside f32/i64 values vectorised badly).
pub fn arg_extreme<T: Copy + PartialOrd, const MAX: bool>(x: &[T]) -> (T, usize) {
    arg_of(x, extreme::<T, MAX>(x, x[0]))
}

/// `arg_extreme` of totally ordered elements (ints: `extreme_ord`'s fold).
pub fn arg_extreme_ord<T: Copy + Ord, const MAX: bool>(x: &[T]) -> (T, usize) {
    arg_of(x, extreme_ord::<T, MAX>(x, x[0]))
}

/// (`e`, the first index of `e` in `x`, or of a NaN when `e` is NaN).
fn arg_of<T: Copy + PartialEq>(x: &[T], e: T) -> (T, usize) {
    #[allow(clippy::eq_op)]
    let i = if e != e {
        find_first(x, |v| v != v)
    } else {
        find_first(x, |v| v == e)
    };
    (e, i.unwrap_or(0))
}

/// Argmax (`MAX`) or argmin by whole rows, folded into `best` (the first
/// row's elements, `idx` 0): for row `k` of `rows` (numbered from 1, at
/// most `u32::MAX` rows), column `j` is `d[rows[k - 1] + j * vs]`; a
/// column takes it, and `k` into `idx[j]`, when it is better than its
/// running extreme or NaN over a non-NaN (NumPy's first NaN, then first
/// extreme).
pub fn arg_rows<T: Copy + PartialOrd, const MAX: bool>(
    best: &mut [T],
    idx: &mut [u32],
    d: &[T],
    rows: &[usize],
    vs: usize,
) {
    best!(
        v::arg_rows_512::<T, MAX>(best, idx, d, rows, vs),
        v::arg_rows_256::<T, MAX>(best, idx, d, rows, vs),
        arg_rows_body::<T, MAX>(best, idx, d, rows, vs)
    )
}

/// `out[k] = d[base + k * stride]` (small positive strides vectorised).
pub fn gather<T: Copy>(d: &[T], base: usize, stride: isize, out: &mut [T]) {
    best!(
        v::gather_512(d, base, stride, out),
        v::gather_256(d, base, stride, out),
        gather_body(d, base, stride, out)
    )
}

/// Wrapping sum of `f(x[i])` (exact in any order).
pub fn sum_wrapping<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
    best!(v::sum_512(x, &f), v::sum_256(x, &f), sum_body(x, f))
}

/// Wrapping product of `f(x[i])` (exact in any order).
pub fn prod_wrapping<T: Copy, F: Fn(T) -> i64>(x: &[T], f: F) -> i64 {
    best!(v::prod_512(x, &f), v::prod_256(x, &f), prod_body(x, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_first_extreme_and_nan() {
        let mut x: Vec<f32> = (0..1000).map(|i| ((i * 37) % 101) as f32).collect();
        let (v, i) = arg_extreme::<f32, true>(&x);
        assert_eq!((v, i), (100.0, x.iter().position(|&v| v == 100.0).unwrap()));
        let (v, i) = arg_extreme::<f32, false>(&x);
        assert_eq!((v, i), (0.0, 0));
        x[700] = f32::NAN;
        x[900] = f32::NAN;
        assert_eq!(arg_extreme::<f32, true>(&x).1, 700);
        assert_eq!(arg_extreme::<f32, false>(&x).1, 700);
        let y: Vec<i64> = (0..77).map(|i| (i % 5) as i64).collect();
        assert_eq!(arg_extreme_ord::<i64, true>(&y), (4, 4));
        assert_eq!(arg_extreme_ord::<i64, false>(&y), (0, 0));
    }

    #[test]
    fn gather_strides() {
        let d: Vec<i32> = (0..100).collect();
        for stride in [1isize, 2, 3, 4, 7] {
            let n = (99 / stride as usize) + 1;
            let mut out = vec![0; n];
            gather(&d, 0, stride, &mut out);
            assert!(
                out.iter()
                    .enumerate()
                    .all(|(k, &v)| v == k as i32 * stride as i32)
            );
        }
        let mut out = vec![0; 5];
        gather(&d, 99, -3, &mut out);
        assert_eq!(out, [99, 96, 93, 90, 87]);
    }
}
