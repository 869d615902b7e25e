//! Matrix-vector products for the shapes `gemm` handles poorly (one row or
//! one column of output): the general gemm packs and tiles for a 2-D output,
//! while a GEMV is one pass over the matrix. Two loops cover every layout
//! whose inner stride is 1: `rows_dot` (y[i] = row i . x) and `rows_axpy`
//! (y = sum_k x[k] * row k). Both take 4 matrix rows per pass, keep several
//! SIMD accumulators, and sum in an order fixed by the sizes only, so results
//! are the same run to run (and whatever range of outputs a caller splits off
//! to a thread). Compiled for AVX-512, AVX2+FMA and baseline like `ew.rs`.

use super::simd::{Level, level};
use std::ops::{Add, Mul};

/// Float element of a GEMV (f32, f64).
pub trait GemvFloat: Copy + Default + Add<Output = Self> + Mul<Output = Self> {
    /// `a * b + c`, fused when `FMA` (the AVX levels), else two roundings.
    fn madd<const FMA: bool>(a: Self, b: Self, c: Self) -> Self;
}

impl GemvFloat for f32 {
    #[inline(always)]
    fn madd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
        if FMA { a.mul_add(b, c) } else { a * b + c }
    }
}

impl GemvFloat for f64 {
    #[inline(always)]
    fn madd<const FMA: bool>(a: f64, b: f64, c: f64) -> f64 {
        if FMA { a.mul_add(b, c) } else { a * b + c }
    }
}

/// Accumulator lanes per row (one 512-bit register of f32, two of f64; with 4
/// rows in flight, 4-8 independent FMA chains).
const L: usize = 16;
/// Output columns per sweep of `rows_axpy` (the slice of y kept in L1).
const COLS: usize = 2048;

/// Pairwise sum of the lanes (a fixed order).
#[inline(always)]
fn hsum<T: GemvFloat>(a: [T; L]) -> T {
    let mut w = a;
    let mut n = L;
    while n > 1 {
        n /= 2;
        for j in 0..n {
            w[j] = w[j] + w[j + n];
        }
    }
    w[0]
}

/// Dot product of one row with `x` (used for the rows left after groups of 4).
#[inline(always)]
fn dot1<T: GemvFloat, const FMA: bool>(r: &[T], x: &[T]) -> T {
    let mut a = [T::default(); L];
    let (rc, xc) = (r.chunks_exact(L), x.chunks_exact(L));
    let (rr, xr) = (rc.remainder(), xc.remainder());
    for (r, x) in rc.zip(xc) {
        for l in 0..L {
            a[l] = T::madd::<FMA>(r[l], x[l], a[l]);
        }
    }
    let mut s = hsum(a);
    for (&r, &x) in rr.iter().zip(xr) {
        s = T::madd::<FMA>(r, x, s);
    }
    s
}

#[inline(always)]
fn rows_dot_body<T: GemvFloat, const FMA: bool>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    let k = x.len();
    let row = |i: usize| &m[i * ld..i * ld + k];
    let mut i = 0;
    for y4 in y.chunks_exact_mut(4) {
        let (r0, r1, r2, r3) = (row(i), row(i + 1), row(i + 2), row(i + 3));
        let mut acc = [[T::default(); L]; 4];
        let it = x
            .chunks_exact(L)
            .zip(r0.chunks_exact(L))
            .zip(r1.chunks_exact(L))
            .zip(r2.chunks_exact(L))
            .zip(r3.chunks_exact(L));
        for ((((xs, s0), s1), s2), s3) in it {
            for l in 0..L {
                acc[0][l] = T::madd::<FMA>(s0[l], xs[l], acc[0][l]);
                acc[1][l] = T::madd::<FMA>(s1[l], xs[l], acc[1][l]);
                acc[2][l] = T::madd::<FMA>(s2[l], xs[l], acc[2][l]);
                acc[3][l] = T::madd::<FMA>(s3[l], xs[l], acc[3][l]);
            }
        }
        let tail = k - k % L;
        for (r, (o, a)) in y4.iter_mut().zip(acc).enumerate() {
            let mut s = hsum(a);
            for (&mv, &xv) in row(i + r)[tail..].iter().zip(&x[tail..]) {
                s = T::madd::<FMA>(mv, xv, s);
            }
            *o = s;
        }
        i += 4;
    }
    let done = y.len() - y.len() % 4;
    for (r, o) in y[done..].iter_mut().enumerate() {
        *o = dot1::<T, FMA>(row(done + r), x);
    }
}

#[inline(always)]
fn rows_axpy_body<T: GemvFloat, const FMA: bool>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    let n = y.len();
    for c0 in (0..n).step_by(COLS) {
        let c1 = n.min(c0 + COLS);
        let yc = &mut y[c0..c1];
        let w = yc.len();
        yc.fill(T::default());
        let row = |k: usize| &m[k * ld + c0..k * ld + c0 + w];
        let mut k = 0;
        while k + 4 <= x.len() {
            let (x0, x1, x2, x3) = (x[k], x[k + 1], x[k + 2], x[k + 3]);
            let (r0, r1, r2, r3) = (row(k), row(k + 1), row(k + 2), row(k + 3));
            for j in 0..w {
                let s = T::madd::<FMA>(x0, r0[j], yc[j]);
                let s = T::madd::<FMA>(x1, r1[j], s);
                let s = T::madd::<FMA>(x2, r2[j], s);
                yc[j] = T::madd::<FMA>(x3, r3[j], s);
            }
            k += 4;
        }
        for (kk, &xk) in x.iter().enumerate().skip(k) {
            for (o, &v) in yc.iter_mut().zip(row(kk)) {
                *o = T::madd::<FMA>(xk, v, *o);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod v {
    use super::GemvFloat;
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn dot_512<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
        super::rows_dot_body::<T, true>(m, ld, x, y)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn dot_256<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
        super::rows_dot_body::<T, true>(m, ld, x, y)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn axpy_512<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
        super::rows_axpy_body::<T, true>(m, ld, x, y)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn axpy_256<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
        super::rows_axpy_body::<T, true>(m, ld, x, y)
    }
}

/// Whether rows `0..rows` of length `len` at stride `ld` lie inside `m`.
fn fits(m_len: usize, ld: usize, rows: usize, len: usize) -> bool {
    rows == 0
        || len == 0
        || (rows - 1)
            .checked_mul(ld)
            .and_then(|o| o.checked_add(len))
            .is_some_and(|end| end <= m_len)
}

/// `y[i] = sum_j m[i * ld + j] * x[j]` for `i < y.len()`, `j < x.len()`.
/// Panics if a row runs past `m`.
pub fn rows_dot<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    assert!(
        fits(m.len(), ld, y.len(), x.len()),
        "gemv: matrix too short"
    );
    if x.is_empty() {
        y.fill(T::default());
        return;
    }
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::dot_512(m, ld, x, y) },
        Level::Avx2 => return unsafe { v::dot_256(m, ld, x, y) },
        Level::Base => {}
    }
    rows_dot_body::<T, false>(m, ld, x, y)
}

/// `y[j] = sum_k x[k] * m[k * ld + j]` for `j < y.len()`, `k < x.len()`.
/// Panics if a row runs past `m`.
pub fn rows_axpy<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    assert!(
        fits(m.len(), ld, x.len(), y.len()),
        "gemv: matrix too short"
    );
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::axpy_512(m, ld, x, y) },
        Level::Avx2 => return unsafe { v::axpy_256(m, ld, x, y) },
        Level::Base => {}
    }
    rows_axpy_body::<T, false>(m, ld, x, y)
}
