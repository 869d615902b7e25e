//! Matrix-vector products for the shapes `gemm` handles poorly (one row or
//! one column of output): the general gemm packs and tiles for a 2-D output,
//! while a GEMV is one pass over the matrix. Two loops cover every layout
//! whose inner stride is 1: `rows_dot` (y[i] = row i . x; 8 rows per pass on
//! AVX-512, 4 or 2 on AVX2, one accumulator chain per row and register, x
//! loaded once per pass) and `rows_axpy` (y = sum_k x[k] * row k; on AVX-512
//! blocks of 8-15 registers of y held across 32 rows at a time, when the rows
//! share a skew, or when they do not and the matrix is 96 KiB to 1.5 MiB;
//! otherwise 4 rows per sweep over a slice of y in L1). On AVX-512 the
//! matrix loads of `rows_dot` and of those blocks are aligned to cache lines
//! whatever the matrix's address (rows of one skew together, or registers
//! shifted into place; edges masked; `rows_dot`'s few rows left over go
//! unaligned): at L2 speed a load split over two lines costs about as much
//! as two. Long sums go in runs (4096 terms per accumulator chain) whose
//! results are added in f64, so no float32 chain reaches the 2^24 terms at
//! which it stops growing. Both sum in an order fixed by the sizes only, the same whatever
//! the rows per pass, column blocking or alignment, so results are the same
//! run to run (and whatever range of outputs a caller splits off to a thread;
//! the AVX2 and AVX-512 paths agree too, the baseline rounds twice where they
//! fuse). The AVX levels use explicit intrinsics, the baseline plain loops,
//! picked at run time like `ew.rs`.

use super::simd::{Level, level};
use std::ops::{Add, Mul};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Float element of a GEMV (f32, f64; sealed: the SIMD kernels read the
/// slices as one of the two).
pub trait GemvFloat:
    sealed::Sealed + Copy + Default + Add<Output = Self> + Mul<Output = Self>
{
    /// `a * b + c`, fused when `FMA` (the AVX levels), else two roundings.
    fn madd<const FMA: bool>(a: Self, b: Self, c: Self) -> Self;
    fn to_f64(self) -> f64;
    /// The nearest value (f32) or the value itself (f64).
    fn from_f64(v: f64) -> Self;
    /// Whether this is f64 (else f32).
    #[doc(hidden)]
    const F64: bool;
}

impl GemvFloat for f32 {
    const F64: bool = false;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
    #[inline(always)]
    fn madd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
        if FMA { a.mul_add(b, c) } else { a * b + c }
    }
}

impl GemvFloat for f64 {
    const F64: bool = true;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_f64(v: f64) -> f64 {
        v
    }
    #[inline(always)]
    fn madd<const FMA: bool>(a: f64, b: f64, c: f64) -> f64 {
        if FMA { a.mul_add(b, c) } else { a * b + c }
    }
}

/// Accumulator lanes per row of `rows_dot` (one 512-bit register of f32, two
/// of f64); every level sums in these lanes, so AVX2 and AVX-512 agree.
const L: usize = 16;
/// Output columns per sweep of the baseline `rows_axpy` (the slice of y kept
/// in L1).
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

/// Dot products of `R` rows (at `p`, stride `ld`) with `x` into `y[..R]`
/// (baseline). Every row is summed the same way whatever `R` and level: lane
/// `l` takes the elements `j ≡ l (mod L)` of the whole chunks in order, the
/// lanes are added pairwise, then the tail elements one by one.
///
/// # Safety
/// Rows `0..R` of length `x.len()` at stride `ld` from `p` are readable, and
/// `y.len() >= R`.
#[inline(always)]
unsafe fn dot_rows<T: GemvFloat, const FMA: bool, const R: usize>(
    p: *const T,
    ld: usize,
    x: &[T],
    y: &mut [T],
) {
    let k = x.len();
    let tail = k - k % L;
    let xp = x.as_ptr();
    let mut acc = [[T::default(); L]; R];
    let mut o = 0;
    while o < tail {
        // SAFETY: o + L <= tail <= k; rows readable per the contract.
        unsafe {
            let xs = &*(xp.add(o) as *const [T; L]);
            for (r, a) in acc.iter_mut().enumerate() {
                let s = &*(p.add(r * ld + o) as *const [T; L]);
                for l in 0..L {
                    a[l] = T::madd::<FMA>(s[l], xs[l], a[l]);
                }
            }
        }
        o += L;
    }
    for (r, a) in acc.into_iter().enumerate() {
        let mut s = hsum(a);
        for j in tail..k {
            // SAFETY: j < k, rows readable per the contract.
            s = unsafe { T::madd::<FMA>(*p.add(r * ld + j), *xp.add(j), s) };
        }
        y[r] = s;
    }
}

/// Baseline `rows_dot`: 4 rows per pass, then 1.
fn rows_dot_base<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    let p = m.as_ptr();
    let n = y.len();
    let mut i = 0;
    // SAFETY (both): `rows_dot` checked `fits`; rows i.. are below y.len().
    while i + 4 <= n {
        unsafe { dot_rows::<T, false, 4>(p.add(i * ld), ld, x, &mut y[i..]) };
        i += 4;
    }
    while i < n {
        unsafe { dot_rows::<T, false, 1>(p.add(i * ld), ld, x, &mut y[i..]) };
        i += 1;
    }
}

/// `rows_axpy` (baseline, and the AVX levels when y is shorter than one
/// register): `y[j] = ((x[0] m[0][j] + 0) + x[1] m[1][j]) + ...` in row order,
/// 4 rows per sweep of a slice of y.
#[inline(always)]
fn rows_axpy_simple<T: GemvFloat, const FMA: bool>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
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

/// The AVX-512 and AVX2+FMA kernels, written once over a SIMD vector type
/// (explicit intrinsics: left to itself, LLVM vectorised the axpy blocks
/// across rows, with gathers).
#[cfg(target_arch = "x86_64")]
mod v {
    use super::{GemvFloat, L, hsum};
    use std::arch::x86_64::*;

    /// Bytes ahead of the current chunk that the unaligned `rows_dot`
    /// prefetches each row (the aligned kernels do better without).
    const DOT_AHEAD: usize = 256;
    /// Rows of `rows_axpy` per sweep of the column blocks (the sums go back to
    /// y between sweeps): few enough that the rows' streams stay few and
    /// sequential when the matrix is out of cache.
    const PANEL: usize = 32;
    /// Matrix bytes up to which `rows_axpy` shifts the loads of rows of
    /// varying skews into place (about a core's L2; beyond, the row-by-row
    /// loop streams better).
    const IN_L2: usize = 3 << 19;
    /// Matrix bytes from which it does (in L1 the split loads cost less than
    /// the shifts).
    const OUT_OF_L1: usize = 3 << 15;

    /// A SIMD register of `N` lanes of `T`.
    pub trait Simd: Copy {
        type T: GemvFloat;
        const N: usize;
        unsafe fn zero() -> Self;
        unsafe fn load(p: *const Self::T) -> Self;
        unsafe fn splat(v: Self::T) -> Self;
        /// `a * b + c`, one rounding.
        unsafe fn fma(a: Self, b: Self, c: Self) -> Self;
        unsafe fn store(self, p: *mut Self::T);
    }

    macro_rules! simd {
        ($name:ident, $v:ty, $t:ty, $n:expr, $zero:ident, $load:ident, $splat:ident, $fma:ident, $store:ident) => {
            #[derive(Clone, Copy)]
            pub struct $name($v);
            // SAFETY (all): only called from functions compiled with the
            // feature (inlined); pointers valid per the callers' contracts.
            impl Simd for $name {
                type T = $t;
                const N: usize = $n;
                #[inline(always)]
                unsafe fn zero() -> Self {
                    Self(unsafe { $zero() })
                }
                #[inline(always)]
                unsafe fn load(p: *const $t) -> Self {
                    Self(unsafe { $load(p) })
                }
                #[inline(always)]
                unsafe fn splat(v: $t) -> Self {
                    Self(unsafe { $splat(v) })
                }
                #[inline(always)]
                unsafe fn fma(a: Self, b: Self, c: Self) -> Self {
                    Self(unsafe { $fma(a.0, b.0, c.0) })
                }
                #[inline(always)]
                unsafe fn store(self, p: *mut $t) {
                    unsafe { $store(p, self.0) }
                }
            }
        };
    }
    simd!(
        F32x16,
        __m512,
        f32,
        16,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_set1_ps,
        _mm512_fmadd_ps,
        _mm512_storeu_ps
    );
    simd!(
        F64x8,
        __m512d,
        f64,
        8,
        _mm512_setzero_pd,
        _mm512_loadu_pd,
        _mm512_set1_pd,
        _mm512_fmadd_pd,
        _mm512_storeu_pd
    );
    simd!(
        F32x8,
        __m256,
        f32,
        8,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_set1_ps,
        _mm256_fmadd_ps,
        _mm256_storeu_ps
    );
    simd!(
        F64x4,
        __m256d,
        f64,
        4,
        _mm256_setzero_pd,
        _mm256_loadu_pd,
        _mm256_set1_pd,
        _mm256_fmadd_pd,
        _mm256_storeu_pd
    );

    /// `R` rows of `rows_dot` (`W` registers make the `L` lanes of a row):
    /// the same sums as `super::dot_rows` with FMA.
    ///
    /// # Safety
    /// Rows `0..R` of length `k` at stride `ld` from `p` and `x[..k]` are
    /// readable, `y[..R]` writable; the CPU has `S`'s features.
    #[inline(always)]
    unsafe fn dot_rows<S: Simd, const W: usize, const R: usize>(
        p: *const S::T,
        ld: usize,
        x: *const S::T,
        k: usize,
        y: *mut S::T,
    ) {
        let tail = k - k % L;
        // SAFETY: offsets below k in rows 0..R (contract).
        unsafe {
            let mut acc = [[S::zero(); W]; R];
            let mut o = 0;
            let pfd = DOT_AHEAD / size_of::<S::T>();
            while o < tail {
                // One prefetch per row and cache line (addresses past the
                // rows are harmless: prefetches do not fault).
                for r in 0..R {
                    for w in 0..W {
                        if (w * S::N * size_of::<S::T>()) % 64 == 0 {
                            let q = p.wrapping_add(r * ld + o + w * S::N + pfd);
                            _mm_prefetch::<_MM_HINT_T0>(q as *const i8);
                        }
                    }
                }
                for w in 0..W {
                    let xv = S::load(x.add(o + w * S::N));
                    for (r, a) in acc.iter_mut().enumerate() {
                        a[w] = S::fma(S::load(p.add(r * ld + o + w * S::N)), xv, a[w]);
                    }
                }
                o += L;
            }
            for (r, a) in acc.iter().enumerate() {
                let mut lanes = [S::T::default(); L];
                for (w, v) in a.iter().enumerate() {
                    v.store(lanes.as_mut_ptr().add(w * S::N));
                }
                let mut s = hsum(lanes);
                for j in tail..k {
                    s = S::T::madd::<true>(*p.add(r * ld + j), *x.add(j), s);
                }
                *y.add(r) = s;
            }
        }
    }

    /// `rows_dot`: `R` rows per pass, then 4, then 1.
    ///
    /// # Safety
    /// `fits(m.len(), ld, y.len(), x.len())`; the CPU has `S`'s features.
    #[inline(always)]
    unsafe fn rows_dot<S: Simd, const W: usize, const R: usize>(
        m: &[S::T],
        ld: usize,
        x: &[S::T],
        y: &mut [S::T],
    ) {
        let (p, xp, k, yp, n) = (m.as_ptr(), x.as_ptr(), x.len(), y.as_mut_ptr(), y.len());
        let mut i = 0;
        // SAFETY (all three): rows i.. of a group are below n, inside `m`.
        unsafe {
            while i + R <= n {
                dot_rows::<S, W, R>(p.add(i * ld), ld, xp, k, yp.add(i));
                i += R;
            }
            if R > 4 && i + 4 <= n {
                dot_rows::<S, W, 4>(p.add(i * ld), ld, xp, k, yp.add(i));
                i += 4;
            }
            while i < n {
                dot_rows::<S, W, 1>(p.add(i * ld), ld, xp, k, yp.add(i));
                i += 1;
            }
        }
    }

    /// Reinterprets a slice of `T` as the same slice of `U` (same type: the
    /// callers check `T::F64`).
    ///
    /// # Safety
    /// `T` and `U` are the same type.
    #[inline(always)]
    unsafe fn cast<T, U>(s: &[T]) -> &[U] {
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const U, s.len()) }
    }
    #[inline(always)]
    unsafe fn cast_mut<T, U>(s: &mut [T]) -> &mut [U] {
        unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut U, s.len()) }
    }

    macro_rules! entry {
        ($name:ident, $feat:literal, $f32:ident::<$s32:ty, $k32:literal>, $f64:ident::<$s64:ty, $k64:literal>) => {
            /// # Safety
            /// The CPU has the features; the caller checked `fits`.
            #[target_feature(enable = $feat)]
            pub unsafe fn $name<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
                // SAFETY: `T::F64` tells f64 from f32 (a sealed trait).
                unsafe {
                    if T::F64 {
                        $f64::<$s64, $k64>(cast(m), ld, cast(x), cast_mut(y))
                    } else {
                        $f32::<$s32, $k32>(cast(m), ld, cast(x), cast_mut(y))
                    }
                }
            }
        };
    }
    /// A 512-bit register with masked loads, stores and FMA (a mask bit per
    /// lane).
    pub trait Masked: Simd {
        unsafe fn load_m(p: *const Self::T, k: u32) -> Self;
        /// Lanes off in `k` keep `c`.
        unsafe fn fma_m(a: Self, b: Self, c: Self, k: u32) -> Self;
        unsafe fn store_m(self, p: *mut Self::T, k: u32);
        /// Lanes `s..s + N` of the concatenation of `a` and `b`.
        unsafe fn shift(a: Self, b: Self, s: usize) -> Self;
    }
    macro_rules! masked {
        ($name:ident, $t:ty, $mt:ty, $load:ident, $fma:ident, $store:ident, $shift:expr) => {
            // SAFETY (all): as `Simd`; masked-off lanes are not accessed.
            impl Masked for $name {
                #[inline(always)]
                unsafe fn load_m(p: *const $t, k: u32) -> Self {
                    Self(unsafe { $load(k as $mt, p) })
                }
                #[inline(always)]
                unsafe fn fma_m(a: Self, b: Self, c: Self, k: u32) -> Self {
                    Self(unsafe { $fma(a.0, b.0, c.0, k as $mt) })
                }
                #[inline(always)]
                unsafe fn store_m(self, p: *mut $t, k: u32) {
                    unsafe { $store(p, k as $mt, self.0) }
                }
                #[inline(always)]
                unsafe fn shift(a: Self, b: Self, s: usize) -> Self {
                    let f: unsafe fn(_, _, usize) -> _ = $shift;
                    Self(unsafe { f(a.0, b.0, s) })
                }
            }
        };
    }
    masked!(
        F32x16,
        f32,
        u16,
        _mm512_maskz_loadu_ps,
        _mm512_mask3_fmadd_ps,
        _mm512_mask_storeu_ps,
        |a, b, s| unsafe {
            let i = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
            _mm512_permutex2var_ps(a, _mm512_add_epi32(i, _mm512_set1_epi32(s as i32)), b)
        }
    );
    masked!(
        F64x8,
        f64,
        u8,
        _mm512_maskz_loadu_pd,
        _mm512_mask3_fmadd_pd,
        _mm512_mask_storeu_pd,
        |a, b, s| unsafe {
            let i = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
            _mm512_permutex2var_pd(a, _mm512_add_epi64(i, _mm512_set1_epi64(s as i64)), b)
        }
    );

    /// Mask of lanes `lo..hi` (clamped to `0..n`).
    #[inline(always)]
    fn lanes(lo: isize, hi: isize, n: usize) -> u32 {
        let (lo, hi) = (
            lo.clamp(0, n as isize) as u32,
            hi.clamp(0, n as isize) as u32,
        );
        if hi <= lo {
            0
        } else {
            (((1u64 << hi) - 1) & !((1u64 << lo) - 1)) as u32
        }
    }

    /// Elements by which `p` sits past a 64-byte boundary.
    #[inline(always)]
    fn skew<T>(p: *const T) -> usize {
        (p as usize % 64) / size_of::<T>()
    }

    /// Chunk `c` of `dot_rows_al` with masks (its lanes outside `0..tail`
    /// keep their sums).
    ///
    /// # Safety
    /// As `dot_rows_al`.
    #[inline(always)]
    unsafe fn dot_edge<S: Masked, const W: usize, const R: usize>(
        mut acc: [[S; W]; R],
        p: *const S::T,
        rs: usize,
        x: *const S::T,
        c: usize,
        s: usize,
        tail: usize,
    ) -> [[S; W]; R] {
        let n = S::N;
        for w in 0..W {
            let js = (c * L + w * n) as isize - s as isize;
            let km = lanes(-js, tail as isize - js, n);
            if km == 0 {
                continue;
            }
            // SAFETY: the lanes left on lie inside the rows and x (contract).
            unsafe {
                let xv = S::load_m(x.wrapping_offset(js), km);
                for (r, a) in acc.iter_mut().enumerate() {
                    let mv = S::load_m(p.wrapping_add(r * rs).wrapping_offset(js), km);
                    a[w] = S::fma_m(mv, xv, a[w], km);
                }
            }
        }
        acc
    }

    /// `R` rows of `rows_dot` (at `p + r rs`, outputs at `y + r ys`) that all
    /// sit `s` elements past a cache line: the row loads are aligned (no load
    /// splits two lines; x's loads are not, one per `R` rows) and the lanes
    /// come out rotated by `s` (each still takes its `j ≡ l (mod L)` in
    /// order), so every row's sum is that of `dot_rows`, bit for bit.
    ///
    /// # Safety
    /// As `dot_rows`, with `skew(p + r rs) == s` for every row.
    #[inline(always)]
    unsafe fn dot_rows_al<S: Masked, const W: usize, const R: usize>(
        p: *const S::T,
        rs: usize,
        x: *const S::T,
        k: usize,
        y: *mut S::T,
        ys: usize,
        s: usize,
    ) {
        let n = S::N;
        let tail = k - k % L;
        // Chunk c covers elements 16 c - s .. 16 c - s + 16; whole ones are
        // c_lo..c_hi, the edges take masks.
        let c_lo = usize::from(s > 0);
        let c_hi = (tail + s) / L;
        let c_end = (tail + s).div_ceil(L);
        // SAFETY: loads at offsets 0..tail of the rows and x (masked at the
        // edges).
        unsafe {
            let mut acc = [[S::zero(); W]; R];
            if c_lo > 0 && c_end > 0 {
                acc = dot_edge::<S, W, R>(acc, p, rs, x, 0, s, tail);
            }
            // q and xq may lie before the slices: wrapping arithmetic.
            let q = p.wrapping_sub(s);
            let xq = x.wrapping_sub(s);
            for c in c_lo..c_hi {
                let o = c * L;
                for w in 0..W {
                    let xv = S::load(xq.wrapping_add(o + w * n));
                    for (r, a) in acc.iter_mut().enumerate() {
                        a[w] = S::fma(S::load(q.wrapping_add(r * rs + o + w * n)), xv, a[w]);
                    }
                }
            }
            for c in c_hi.max(c_lo)..c_end {
                acc = dot_edge::<S, W, R>(acc, p, rs, x, c, s, tail);
            }
            // Register lane i holds the logical lanes l = (i - s) mod L: a
            // rotation, which the pairwise sum does not see (its pairs l,
            // l + 8, then l, l + 4, ... are the same under any rotation, and
            // a + b == b + a), so the lanes are summed as they lie.
            for (r, a) in acc.iter().enumerate() {
                let mut lanes = [S::T::default(); L];
                for (w, v) in a.iter().enumerate() {
                    v.store(lanes.as_mut_ptr().add(w * n));
                }
                let mut t = hsum(lanes);
                for j in tail..k {
                    t = S::T::madd::<true>(*p.add(r * rs + j), *x.add(j), t);
                }
                *y.add(r * ys) = t;
            }
        }
    }

    /// `rows_dot` with aligned row loads: 8 rows per pass of one skew (the
    /// next 8 rows when a row's bytes are a multiple of 64; else rows `P`
    /// apart, `P` the period of the skew, and the rows left from whole
    /// `8 P` blocks go the unaligned way).
    ///
    /// # Safety
    /// `fits(m.len(), ld, y.len(), x.len())`; the CPU has AVX-512F.
    #[inline(always)]
    unsafe fn rows_dot_al<S: Masked, const W: usize>(
        m: &[S::T],
        ld: usize,
        x: &[S::T],
        y: &mut [S::T],
    ) {
        let (p, xp, k, yp, rows) = (m.as_ptr(), x.as_ptr(), x.len(), y.as_mut_ptr(), y.len());
        let d = (ld * size_of::<S::T>()) % 64;
        // SAFETY: every group's rows are below `rows` (contract).
        unsafe {
            if d == 0 {
                let mut i = 0;
                while i + 8 <= rows {
                    let r = p.add(i * ld);
                    dot_rows_al::<S, W, 8>(r, ld, xp, k, yp.add(i), 1, skew(r));
                    i += 8;
                }
                if i + 4 <= rows {
                    let r = p.add(i * ld);
                    dot_rows_al::<S, W, 4>(r, ld, xp, k, yp.add(i), 1, skew(r));
                    i += 4;
                }
                while i < rows {
                    let r = p.add(i * ld);
                    dot_rows_al::<S, W, 1>(r, ld, xp, k, yp.add(i), 1, skew(r));
                    i += 1;
                }
                return;
            }
            let period = 64 / (1usize << d.trailing_zeros());
            let block = 8 * period;
            let whole = rows - rows % block;
            for i0 in (0..whole).step_by(block) {
                for q in 0..period {
                    let i = i0 + q;
                    let r = p.add(i * ld);
                    dot_rows_al::<S, W, 8>(r, period * ld, xp, k, yp.add(i), period, skew(r));
                }
            }
            rows_dot::<S, W, 8>(&m[(whole * ld).min(m.len())..], ld, x, &mut y[whole..]);
        }
    }

    /// `NV` registers of `rows_axpy`'s sums over the rows of `x` (from `q`,
    /// stride `ld`): registers at `q + c0 + v N` (`q` on a cache line, as is
    /// every row's `q + k ld`), the first and last masked by `k0` / `k1` to
    /// the columns inside y (`yq` is y's pointer moved back as `q`); each
    /// `y[j] = ((x[0] m[0][j] + 0) + x[1] m[1][j]) + ...` in row order, as the
    /// baseline. `first`: start from 0, else from y.
    ///
    /// # Safety
    /// Rows `0..x.len()` from `q` hold the columns the masks leave, below
    /// `y.len()`; the CPU has AVX-512F.
    #[inline(always)]
    unsafe fn axpy_block_al<S: Masked, const NV: usize>(
        q: *const S::T,
        ld: usize,
        x: &[S::T],
        yq: *mut S::T,
        c0: usize,
        k0: u32,
        k1: u32,
        first: bool,
    ) {
        let n = S::N;
        let last = c0 + (NV - 1) * n;
        // SAFETY: per the contract; masked-off lanes are not accessed.
        unsafe {
            let mut acc = [S::zero(); NV];
            if !first {
                acc[0] = S::load_m(yq.wrapping_add(c0), k0);
                for (v, a) in acc.iter_mut().enumerate().take(NV - 1).skip(1) {
                    *a = S::load(yq.wrapping_add(c0 + v * n));
                }
                if NV > 1 {
                    acc[NV - 1] = S::load_m(yq.wrapping_add(last), k1);
                }
            }
            let mut p = q;
            for &xk in x {
                let xv = S::splat(xk);
                acc[0] = S::fma(xv, S::load_m(p.wrapping_add(c0), k0), acc[0]);
                for (v, a) in acc.iter_mut().enumerate().take(NV - 1).skip(1) {
                    *a = S::fma(xv, S::load(p.wrapping_add(c0 + v * n)), *a);
                }
                if NV > 1 {
                    let l = S::load_m(p.wrapping_add(last), k1);
                    acc[NV - 1] = S::fma(xv, l, acc[NV - 1]);
                }
                p = p.wrapping_add(ld);
            }
            acc[0].store_m(yq.wrapping_add(c0), k0);
            for (v, a) in acc.iter().enumerate().take(NV - 1).skip(1) {
                a.store(yq.wrapping_add(c0 + v * n));
            }
            if NV > 1 {
                acc[NV - 1].store_m(yq.wrapping_add(last), k1);
            }
        }
    }

    /// `NV` registers of `rows_axpy`'s sums for the columns `0..NV N` of the
    /// rows from `p` (stride `ld`) into `y`, for rows of varying skews: each
    /// row is read in aligned registers (the first and last masked to the
    /// columns) and shifted into place, two by two.
    ///
    /// # Safety
    /// Rows `0..x.len()` from `p` hold the `NV N` columns, `y` as many; the
    /// CPU has AVX-512F.
    #[inline(always)]
    unsafe fn axpy_block_sh<S: Masked, const NV: usize>(
        p: *const S::T,
        ld: usize,
        x: &[S::T],
        y: *mut S::T,
        first: bool,
    ) {
        let n = S::N;
        // SAFETY: per the contract; the masks keep the loads in the columns.
        unsafe {
            let mut acc = [S::zero(); NV];
            if !first {
                for (v, a) in acc.iter_mut().enumerate() {
                    *a = S::load(y.add(v * n));
                }
            }
            let mut p = p;
            for &xk in x {
                let xv = S::splat(xk);
                let s = skew(p);
                let base = p.wrapping_sub(s);
                let mut prev = S::load_m(base, lanes(s as isize, n as isize, n));
                for (v, a) in acc.iter_mut().enumerate() {
                    let next = if v + 1 < NV {
                        S::load(base.wrapping_add((v + 1) * n))
                    } else {
                        S::load_m(base.wrapping_add(NV * n), lanes(0, s as isize, n))
                    };
                    *a = S::fma(xv, S::shift(prev, next, s), *a);
                    prev = next;
                }
                p = p.wrapping_add(ld);
            }
            for (v, a) in acc.iter().enumerate() {
                a.store(y.add(v * n));
            }
        }
    }

    /// `rows_axpy` for rows of varying skews: whole registers of columns in
    /// blocks of `NB` (the last up to `2 NB - 1`) over `PANEL` rows at a
    /// time with `axpy_block_sh`, the columns left (fewer than a register)
    /// row by row.
    ///
    /// # Safety
    /// `fits(m.len(), ld, x.len(), y.len())`; the CPU has AVX-512F.
    #[inline(always)]
    unsafe fn rows_axpy_sh<S: Masked, const NB: usize>(
        m: &[S::T],
        ld: usize,
        x: &[S::T],
        y: &mut [S::T],
    ) {
        let nl = S::N;
        let n = y.len();
        let whole = n - n % nl;
        let yp = y.as_mut_ptr();
        // Panels of PANEL rows (one, empty, when x is: y is still written).
        let mut k0 = 0;
        if whole > 0 {
            loop {
                let k1 = x.len().min(k0 + PANEL);
                let (p, xs) = (m.as_ptr().wrapping_add(k0 * ld), &x[k0..k1]);
                let mut c0 = 0;
                let mut left = whole / nl;
                while left > 0 {
                    let b = if left < 2 * NB { left } else { NB };
                    let (pc, yc) = (p.wrapping_add(c0), yp.wrapping_add(c0));
                    macro_rules! block {
                        ($($nv:literal)*) => {
                            match b {
                                // SAFETY: columns c0..c0 + b N <= whole <= n.
                                $($nv => unsafe { axpy_block_sh::<S, $nv>(pc, ld, xs, yc, k0 == 0) },)*
                                _ => unreachable!(),
                            }
                        };
                    }
                    block!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
                    c0 += b * nl;
                    left -= b;
                }
                if k1 == x.len() {
                    break;
                }
                k0 = k1;
            }
        }
        if whole < n {
            let mt = &m[whole.min(m.len())..];
            super::rows_axpy_simple::<S::T, true>(mt, ld, x, &mut y[whole..]);
        }
    }

    /// `rows_axpy` over column blocks of `NB` registers (the last block takes
    /// the rest, up to `2 NB - 1`), each block's sums held in registers over
    /// `PANEL` rows, with aligned loads when every row has the same skew (a
    /// row's bytes a multiple of 64, or one row): the column registers start
    /// on cache lines, the first and last masked; rows of varying skews go
    /// to `rows_axpy_sh` while in L2, else row by row over y.
    ///
    /// # Safety
    /// `fits(m.len(), ld, x.len(), y.len())`; the CPU has AVX-512F.
    #[inline(always)]
    unsafe fn rows_axpy_al<S: Masked, const NB: usize>(
        m: &[S::T],
        ld: usize,
        x: &[S::T],
        y: &mut [S::T],
    ) {
        let n = y.len();
        if !(ld * size_of::<S::T>()).is_multiple_of(64) && x.len() > 1 {
            // Rows of different skews: aligned loads shifted into place while
            // the matrix fits in L2 (there 20-27% faster than the row-by-row
            // loop, beyond it 8% slower), else row by row over y.
            let bytes = x.len() * ld * size_of::<S::T>();
            if bytes > OUT_OF_L1 && bytes <= IN_L2 {
                return unsafe { rows_axpy_sh::<S, NB>(m, ld, x, y) };
            }
            return super::rows_axpy_simple::<S::T, true>(m, ld, x, y);
        }
        if n == 0 {
            return;
        }
        let nl = S::N;
        let s = skew(m.as_ptr());
        let (q, yq) = (m.as_ptr().wrapping_sub(s), y.as_mut_ptr().wrapping_sub(s));
        // Columns of register v: v N - s .. v N - s + N.
        let mask = |c: usize| lanes(s as isize - c as isize, (n + s) as isize - c as isize, nl);
        let mut k0 = 0;
        loop {
            let k1 = x.len().min(k0 + PANEL);
            let (p, xs) = (q.wrapping_add(k0 * ld), &x[k0..k1]);
            let mut c0 = 0;
            let mut left = (n + s).div_ceil(nl);
            while left > 0 {
                let b = if left < 2 * NB { left } else { NB };
                let (m0, m1) = (mask(c0), mask(c0 + (b - 1) * nl));
                macro_rules! block {
                    ($($nv:literal)*) => {
                        match b {
                            // SAFETY: the masks keep the columns in 0..n.
                            $($nv => unsafe {
                                axpy_block_al::<S, $nv>(p, ld, xs, yq, c0, m0, m1, k0 == 0)
                            },)*
                            _ => unreachable!(),
                        }
                    };
                }
                block!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
                c0 += b * nl;
                left -= b;
            }
            if k1 == x.len() {
                break;
            }
            k0 = k1;
        }
    }

    /// `rows_dot` with `W` registers per row and 8, 4 or 2 rows per pass.
    #[inline(always)]
    unsafe fn dot8<S: Masked, const W: usize>(m: &[S::T], ld: usize, x: &[S::T], y: &mut [S::T]) {
        unsafe { rows_dot_al::<S, W>(m, ld, x, y) }
    }
    #[inline(always)]
    unsafe fn dot4<S: Simd, const W: usize>(m: &[S::T], ld: usize, x: &[S::T], y: &mut [S::T]) {
        unsafe { rows_dot::<S, W, 4>(m, ld, x, y) }
    }
    #[inline(always)]
    unsafe fn dot2<S: Simd, const W: usize>(m: &[S::T], ld: usize, x: &[S::T], y: &mut [S::T]) {
        unsafe { rows_dot::<S, W, 2>(m, ld, x, y) }
    }
    // Rows per pass of `rows_dot`: 8 rows of accumulators fill 8 zmm (f32) or
    // 16 (f64); AVX2 has 16 ymm: 4 rows of f32 (8), 2 of f64 (8).
    entry!(
        dot_512,
        "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c",
        dot8::<F32x16, 1>,
        dot8::<F64x8, 2>
    );
    entry!(dot_256, "avx2,fma,f16c", dot4::<F32x8, 2>, dot2::<F64x4, 4>);
    /// `rows_axpy` row by row over y (`super::rows_axpy_simple`, fused).
    #[inline(always)]
    unsafe fn axpy_rows<S: Simd, const NB: usize>(
        m: &[S::T],
        ld: usize,
        x: &[S::T],
        y: &mut [S::T],
    ) {
        super::rows_axpy_simple::<S::T, true>(m, ld, x, y)
    }
    // Blocks of `rows_axpy`: 8..15 zmm of sums (at least 8 independent FMA
    // chains); AVX2 goes row by row over y (blocks of ymm with split loads
    // measured up to 11% slower than that).
    entry!(
        axpy_512,
        "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c",
        rows_axpy_al::<F32x16, 8>,
        rows_axpy_al::<F64x8, 8>
    );
    entry!(
        axpy_256,
        "avx2,fma,f16c",
        axpy_rows::<F32x8, 6>,
        axpy_rows::<F64x4, 6>
    );
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

/// Elements of `x` per run of `rows_dot`: each of the `L` lanes adds 4096
/// terms in `T`, then the run's sum is added to an f64 total. In f32 a
/// chain of 2^24 or more terms stops growing (`ones(10**9) @ ones(10**9)`
/// gave 2^28 = 16 lanes of 2^24); runs keep every chain short.
const DOT_RUN: usize = L * 4096;
/// Rows of `rows_axpy` per run (each output's chain in `T`), likewise.
const AXPY_RUN: usize = 4096;
/// Multiply-adds from which a product of at most `AXPY_RUN` rows is summed
/// as two runs of (about) half the rows, so that two cores can each take
/// one half of the matrix (`axpy_run_len`).
pub const AXPY_HALVES_WORK: usize = 1 << 16;

/// Rows per run of `rows_axpy` over `k` rows into `n` outputs: `AXPY_RUN`,
/// or two runs (the first a multiple of 4 rows) for products from
/// `AXPY_HALVES_WORK` multiply-adds up to `AXPY_RUN` rows. A function of
/// the sizes only, so the result does not depend on who computes the runs.
pub fn axpy_run_len(k: usize, n: usize) -> usize {
    if (8..=AXPY_RUN).contains(&k) && k * n >= AXPY_HALVES_WORK {
        k.div_ceil(2).next_multiple_of(4)
    } else {
        AXPY_RUN
    }
}

/// Rows `lo..hi` of `rows_axpy`'s sum into `part` (one run: `part` is
/// overwritten). With `fold_parts`, lets a caller compute the runs of
/// `axpy_run_len` on several threads and get `rows_axpy`'s exact bits.
pub fn rows_axpy_part<T: GemvFloat>(
    m: &[T],
    ld: usize,
    x: &[T],
    lo: usize,
    hi: usize,
    part: &mut [T],
) {
    assert!(
        lo <= hi && hi <= x.len() && fits(m.len(), ld, x.len(), part.len()),
        "gemv: matrix too short"
    );
    axpy_run(&m[(lo * ld).min(m.len())..], ld, &x[lo..hi], part)
}

/// `y` = the sum in f64, in order, of the runs' outputs, rounded once (as
/// `rows_axpy` folds its runs).
pub fn fold_parts<T: GemvFloat>(parts: &[&[T]], y: &mut [T]) {
    for (i, o) in y.iter_mut().enumerate() {
        let mut t = 0f64;
        for p in parts {
            t += p[i].to_f64();
        }
        *o = T::from_f64(t);
    }
}

/// Sum the runs `run(lo, hi, part)` of `0..k` in steps of `step` into `y`:
/// each run's outputs in `part` (in `T`), their sum in f64 in run order
/// (fixed by the sizes), rounded once into `y`.
fn by_runs<T: GemvFloat>(
    k: usize,
    step: usize,
    y: &mut [T],
    mut run: impl FnMut(usize, usize, &mut [T]),
) {
    if k <= step || y.is_empty() {
        return run(0, k, y);
    }
    let mut total = vec![0f64; y.len()];
    let mut part = vec![T::default(); y.len()];
    for lo in (0..k).step_by(step) {
        run(lo, k.min(lo + step), &mut part);
        for (t, p) in total.iter_mut().zip(&part) {
            *t += p.to_f64();
        }
    }
    for (o, t) in y.iter_mut().zip(total) {
        *o = T::from_f64(t);
    }
}

/// `y[i] = sum_j m[i * ld + j] * x[j]` for `i < y.len()`, `j < x.len()`:
/// in runs of `DOT_RUN` elements of each row, summed in f64.
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
    // Each run's rows start `lo` into the rows and stay inside `m` (`fits`).
    by_runs(x.len(), DOT_RUN, y, |lo, hi, part| {
        dot_run(&m[lo..], ld, &x[lo..hi], part)
    });
}

/// One run of `rows_dot` (the caller checked `fits`).
fn dot_run<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::dot_512(m, ld, x, y) },
        Level::Avx2 => return unsafe { v::dot_256(m, ld, x, y) },
        Level::Base => {}
    }
    rows_dot_base(m, ld, x, y)
}

/// `y[j] = sum_k x[k] * m[k * ld + j]` for `j < y.len()`, `k < x.len()`:
/// in runs of `axpy_run_len` rows, summed in f64.
/// Panics if a row runs past `m`.
pub fn rows_axpy<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    assert!(
        fits(m.len(), ld, x.len(), y.len()),
        "gemv: matrix too short"
    );
    // A run of rows lo..hi starts at row lo, inside `m` (`fits`).
    by_runs(
        x.len(),
        axpy_run_len(x.len(), y.len()),
        y,
        |lo, hi, part| axpy_run(&m[(lo * ld).min(m.len())..], ld, &x[lo..hi], part),
    );
}

/// One run of `rows_axpy` (the caller checked `fits`).
fn axpy_run<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::axpy_512(m, ld, x, y) },
        Level::Avx2 => return unsafe { v::axpy_256(m, ld, x, y) },
        Level::Base => {}
    }
    rows_axpy_simple::<T, false>(m, ld, x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64* values in [-1, 1), never 0.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let r = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
            let v = (r >> 11) as f64 / (1u64 << 52) as f64 - 1.0;
            if v == 0.0 { 0.5 } else { v }
        }
    }

    trait F: GemvFloat + std::fmt::Debug + PartialEq {
        fn of(v: f64) -> Self;
        fn f(self) -> f64;
        fn bits(self) -> u64;
        const EPS: f64;
    }
    impl F for f32 {
        fn of(v: f64) -> f32 {
            v as f32
        }
        fn f(self) -> f64 {
            self as f64
        }
        fn bits(self) -> u64 {
            self.to_bits() as u64
        }
        const EPS: f64 = f32::EPSILON as f64;
    }
    impl F for f64 {
        fn of(v: f64) -> f64 {
            v
        }
        fn f(self) -> f64 {
            self
        }
        fn bits(self) -> u64 {
            self.to_bits()
        }
        const EPS: f64 = f64::EPSILON;
    }

    /// `rows_dot` in the documented order, one element at a time.
    fn ref_dot<T: F, const FMA: bool>(m: &[T], ld: usize, x: &[T], n: usize) -> Vec<T> {
        let k = x.len();
        let tail = k - k % L;
        (0..n)
            .map(|i| {
                let mut a = [T::default(); L];
                for j in 0..tail {
                    a[j % L] = T::madd::<FMA>(m[i * ld + j], x[j], a[j % L]);
                }
                let mut s = hsum(a);
                for j in tail..k {
                    s = T::madd::<FMA>(m[i * ld + j], x[j], s);
                }
                s
            })
            .collect()
    }

    /// `rows_axpy` in the documented order (row by row).
    fn ref_axpy<T: F, const FMA: bool>(m: &[T], ld: usize, x: &[T], n: usize) -> Vec<T> {
        (0..n)
            .map(|j| {
                let mut s = T::default();
                for (k, &xk) in x.iter().enumerate() {
                    s = T::madd::<FMA>(xk, m[k * ld + j], s);
                }
                s
            })
            .collect()
    }

    type Kern<T> = (&'static str, bool, fn(&[T], usize, &[T], &mut [T]));

    /// Every level this CPU runs: (name, fused, dot, axpy).
    fn levels<T: F>() -> Vec<(Kern<T>, Kern<T>)> {
        let mut v: Vec<(Kern<T>, Kern<T>)> = vec![(
            ("base", false, rows_dot_base::<T>),
            ("base", false, rows_axpy_simple::<T, false>),
        )];
        #[cfg(target_arch = "x86_64")]
        {
            let avx2 = is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("fma")
                && is_x86_feature_detected!("f16c");
            let avx512 = avx2
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq");
            // SAFETY: features checked; the wrappers are only called with
            // sizes that `fits`.
            fn d256<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
                unsafe { v::dot_256(m, ld, x, y) }
            }
            fn a256<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
                unsafe { v::axpy_256(m, ld, x, y) }
            }
            fn d512<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
                unsafe { v::dot_512(m, ld, x, y) }
            }
            fn a512<T: GemvFloat>(m: &[T], ld: usize, x: &[T], y: &mut [T]) {
                unsafe { v::axpy_512(m, ld, x, y) }
            }
            if avx2 {
                v.push((("avx2", true, d256::<T>), ("avx2", true, a256::<T>)));
            }
            if avx512 {
                v.push((("avx512", true, d512::<T>), ("avx512", true, a512::<T>)));
            }
        }
        v
    }

    /// (rows, cols, extra ld): odd sizes; row bytes a multiple of 64 (every
    /// row with the same skew: aligned kernels) or not (rows a period apart
    /// share a skew: 300x31, 133x40+2; 200x137, 150x130+1 and 401x783 are
    /// big enough for the shifted loads of `rows_axpy`).
    const SIZES: &[(usize, usize, usize)] = &[
        (1, 1, 0),
        (1, 17, 0),
        (3, 5, 0),
        (5, 3, 0),
        (7, 15, 0),
        (8, 16, 0),
        (9, 17, 0),
        (12, 40, 0),
        (13, 31, 0),
        (16, 8, 0),
        (33, 47, 0),
        (31, 130, 0),
        (64, 64, 0),
        (70, 257, 0),
        (300, 31, 0),
        (401, 783, 0),
        (1, 17, 3),
        (7, 15, 3),
        (9, 17, 3),
        (13, 31, 3),
        (33, 47, 3),
        (401, 783, 3),
        (20, 48, 16),
        (37, 24, 8),
        (133, 40, 2),
        (133, 48, 0),
        (45, 100, 28),
        (200, 137, 0),
        (150, 130, 1),
    ];

    fn check<T: F>() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for &(rows, cols, pad) in SIZES {
            // Matrix starts 0..15 elements past a cache line (the skews of
            // the aligned kernels); the last row without its padding: the
            // kernels must not read past it.
            for off in [0, 1, 3, 7, 12] {
                let ld = cols + pad;
                let buf: Vec<T> = (0..16 + (rows - 1) * ld + cols)
                    .map(|_| T::of(rng.next()))
                    .collect();
                let skew = (buf.as_ptr() as usize % 64) / size_of::<T>();
                let start = (64 / size_of::<T>() - skew + off) % (64 / size_of::<T>());
                let m = &buf[start..start + (rows - 1) * ld + cols];
                let xd: Vec<T> = (0..cols).map(|_| T::of(rng.next())).collect();
                let xa: Vec<T> = (0..rows).map(|_| T::of(rng.next())).collect();
                for ((name, fma, dot), (_, _, axpy)) in levels::<T>() {
                    let what = format!("{name} {rows}x{cols} ld {ld} skew {off}");
                    // rows_dot: bits as documented, close to f64, split ranges.
                    let mut y = vec![T::of(7.0); rows];
                    dot(m, ld, &xd, &mut y);
                    let want = if fma {
                        ref_dot::<T, true>(m, ld, &xd, rows)
                    } else {
                        ref_dot::<T, false>(m, ld, &xd, rows)
                    };
                    assert_eq!(y, want, "dot order {what}");
                    for (i, &yi) in y.iter().enumerate() {
                        let (mut s, mut a) = (0.0, 0.0);
                        for j in 0..cols {
                            s += m[i * ld + j].f() * xd[j].f();
                            a += (m[i * ld + j].f() * xd[j].f()).abs();
                        }
                        let tol = 2.0 * cols as f64 * T::EPS * a;
                        assert!((yi.f() - s).abs() <= tol, "dot {what} row {i}");
                    }
                    for (a, b) in [(0, rows / 2), (rows / 3, rows), (1.min(rows), rows)] {
                        let mut part = vec![T::default(); b - a];
                        dot(&m[(a * ld).min(m.len())..], ld, &xd, &mut part);
                        let same = part.iter().zip(&y[a..b]).all(|(p, q)| p.bits() == q.bits());
                        assert!(same, "dot split {a}..{b} {what}");
                    }
                    // rows_axpy: y = m[:rows, :cols]^T xa.
                    let mut g = vec![T::of(7.0); cols];
                    axpy(m, ld, &xa, &mut g);
                    let want = if fma {
                        ref_axpy::<T, true>(m, ld, &xa, cols)
                    } else {
                        ref_axpy::<T, false>(m, ld, &xa, cols)
                    };
                    assert_eq!(g, want, "axpy order {what}");
                    for (j, &gj) in g.iter().enumerate() {
                        let (mut s, mut a) = (0.0, 0.0);
                        for k in 0..rows {
                            s += m[k * ld + j].f() * xa[k].f();
                            a += (m[k * ld + j].f() * xa[k].f()).abs();
                        }
                        let tol = 2.0 * rows as f64 * T::EPS * a;
                        assert!((gj.f() - s).abs() <= tol, "axpy {what} col {j}");
                    }
                    for (a, b) in [(0, cols / 2), (cols / 3, cols), (1.min(cols), cols)] {
                        let mut part = vec![T::default(); b - a];
                        axpy(&m[a..], ld, &xa, &mut part);
                        let same = part.iter().zip(&g[a..b]).all(|(p, q)| p.bits() == q.bits());
                        assert!(same, "axpy split {a}..{b} {what}");
                    }
                }
            }
        }
    }

    /// `rows_axpy` of a product big enough for two runs equals its runs
    /// computed apart (`rows_axpy_part`) and folded (`fold_parts`), bit for
    /// bit, and both are close to the f64 sum.
    fn halves<T: F>() {
        let mut rng = Rng(0x0BAD_CAFE_F00D_1234);
        for (rows, cols) in [(400, 784), (9, 8000), (1000, 66), (4096, 17)] {
            let run = axpy_run_len(rows, cols);
            assert!(
                run < rows && run.is_multiple_of(4),
                "{rows}x{cols}: two runs"
            );
            let m: Vec<T> = (0..rows * cols).map(|_| T::of(rng.next())).collect();
            let x: Vec<T> = (0..rows).map(|_| T::of(rng.next())).collect();
            let mut whole = vec![T::default(); cols];
            rows_axpy(&m, cols, &x, &mut whole);
            let (mut p0, mut p1) = (vec![T::of(3.0); cols], vec![T::of(5.0); cols]);
            rows_axpy_part(&m, cols, &x, 0, run, &mut p0);
            rows_axpy_part(&m, cols, &x, run, rows, &mut p1);
            let mut folded = vec![T::default(); cols];
            fold_parts(&[&p0, &p1], &mut folded);
            assert!(whole.iter().zip(&folded).all(|(a, b)| a.bits() == b.bits()));
            for (j, &g) in whole.iter().enumerate() {
                let (mut s, mut a) = (0.0, 0.0);
                for k in 0..rows {
                    s += m[k * cols + j].f() * x[k].f();
                    a += (m[k * cols + j].f() * x[k].f()).abs();
                }
                assert!((g.f() - s).abs() <= 2.0 * rows as f64 * T::EPS * a);
            }
        }
        assert_eq!(axpy_run_len(100, 100), AXPY_RUN, "small: one run");
        assert_eq!(axpy_run_len(5000, 100), AXPY_RUN, "long: runs of AXPY_RUN");
    }

    #[test]
    fn axpy_halves_fold_to_the_same_bits() {
        halves::<f32>();
        halves::<f64>();
    }

    #[test]
    fn gemv_f32() {
        check::<f32>();
    }

    #[test]
    fn gemv_f64() {
        check::<f64>();
    }

    #[test]
    fn gemv_dispatch_and_empty() {
        let m: Vec<f32> = (0..40).map(|i| i as f32 * 0.25 - 3.0).collect();
        let x = [1.5f32, -2.0, 0.5, 3.0];
        let mut y = [0.0f32; 10];
        rows_dot(&m, 4, &x, &mut y);
        let fma = level() != Level::Base;
        let want = if fma {
            ref_dot::<f32, true>(&m, 4, &x, 10)
        } else {
            ref_dot::<f32, false>(&m, 4, &x, 10)
        };
        assert_eq!(y.to_vec(), want);
        let mut g = [9.0f32; 4];
        rows_axpy(&m, 4, &[], &mut g);
        assert_eq!(g, [0.0; 4]);
        let mut g = [9.0f32; 20];
        rows_axpy(&m, 20, &[], &mut g);
        assert_eq!(g, [0.0; 20]);
        let mut y = [9.0f64; 3];
        rows_dot(&[0.0f64; 0], 0, &[], &mut y);
        assert_eq!(y, [0.0; 3]);
        rows_axpy(&m, 4, &x, &mut []);
        rows_dot(&m, 4, &x, &mut []);
    }

    /// Long sums go in runs, each in the kernels' order, added in f64: the
    /// same bits as that, whatever level and split.
    #[test]
    fn long_sums_add_runs_in_f64() {
        let mut rng = Rng(0xC0FF_EE00_1234_5678);
        let k = 3 * DOT_RUN + 21;
        let (rows, ld) = (3, k + 5);
        let m: Vec<f32> = (0..(rows - 1) * ld + k)
            .map(|_| rng.next() as f32)
            .collect();
        let x: Vec<f32> = (0..k).map(|_| rng.next() as f32).collect();
        let mut y = [0f32; 3];
        rows_dot(&m, ld, &x, &mut y);
        let fma = level() != Level::Base;
        for (i, &yi) in y.iter().enumerate() {
            let mut want = 0f64;
            for lo in (0..k).step_by(DOT_RUN) {
                let hi = k.min(lo + DOT_RUN);
                let r = &m[i * ld + lo..i * ld + hi];
                let run = if fma {
                    ref_dot::<f32, true>(r, 0, &x[lo..hi], 1)
                } else {
                    ref_dot::<f32, false>(r, 0, &x[lo..hi], 1)
                };
                want += run[0] as f64;
            }
            assert_eq!(yi, want as f32, "row {i}");
        }
        let mut y1 = [0f32; 2];
        rows_dot(&m[ld..], ld, &x, &mut y1);
        assert_eq!(y1, y[1..]);
    }

    /// A float32 chain stops growing at 2^24 terms of 1: `rows_axpy` over
    /// 2^25 rows (one row repeated, `ld` 0) must still count them all; so
    /// must `rows_dot` over 2^25 elements.
    #[test]
    fn float32_sums_do_not_stop_at_2_pow_24() {
        let n = 1usize << 25;
        let ones = vec![1f32; n];
        let mut y = [0f32; 3];
        rows_axpy(&[1f32; 3], 0, &ones, &mut y);
        assert_eq!(y, [n as f32; 3]);
        let mut d = [0f32; 1];
        rows_dot(&ones, 0, &ones, &mut d);
        assert_eq!(d, [n as f32]);
        // The old order (one chain per output) loses every 1 past 2^24.
        assert_eq!(
            ref_axpy::<f32, false>(&[1f32], 0, &ones, 1),
            [(1u32 << 24) as f32]
        );
    }

    #[test]
    #[should_panic(expected = "gemv: matrix too short")]
    fn gemv_short_matrix_panics() {
        let m = [1.0f32; 30];
        let mut y = [0.0f32; 8];
        rows_dot(&m, 4, &[1.0; 4], &mut y);
    }
}
