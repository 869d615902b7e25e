//! Reduction kernels over contiguous slices: sums and products with 16
//! independent f64 accumulators (accurate, vectorisable, and with a fixed
//! order so results do not depend on threads), NaN-propagating max/min,
//! row folds that accumulate whole rows into a vector of outputs
//! (reductions over an outer axis, as NumPy's strided loops do), and
//! any/all tests that stop at the first deciding element.

use super::simd::{Level, level};

const LANES: usize = 16;
/// Accumulators of max/min: 64 f32 (four AVX-512 vectors), 64 f64 (eight).
const EXT_LANES: usize = 64;

/// Sum (`MUL` false) or product of `f(x[i])` in f64: `LANES` independent
/// accumulators, then the remainder, in an order fixed by the length.
#[inline(always)]
fn fold_body<T: Copy, F: Fn(T) -> f64, const MUL: bool>(x: &[T], f: F) -> f64 {
    let op = |a: f64, b: f64| if MUL { a * b } else { a + b };
    let id = if MUL { 1.0 } else { 0.0 };
    let mut acc = [id; LANES];
    let chunks = x.chunks_exact(LANES);
    let rem = chunks.remainder();
    for c in chunks {
        for j in 0..LANES {
            acc[j] = op(acc[j], f(c[j]));
        }
    }
    let mut s = id;
    for a in acc {
        s = op(s, a);
    }
    for &v in rem {
        s = op(s, f(v));
    }
    s
}

#[inline(always)]
fn ext_body<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
    // Four vectors' worth of independent accumulators: with one (16 lanes)
    // every compare-and-blend waited for the previous one.
    let mut acc = [init; EXT_LANES];
    let chunks = x.chunks_exact(EXT_LANES);
    let rem = chunks.remainder();
    #[allow(clippy::eq_op)]
    let pick = |a: T, v: T| {
        let better = if MAX { v > a } else { v < a };
        if better || v != v { v } else { a }
    };
    for c in chunks {
        for j in 0..EXT_LANES {
            acc[j] = pick(acc[j], c[j]);
        }
    }
    // Halves folded pairwise (vectorised; the scalar fold of 64 was most
    // of the time of short lanes).
    let mut w = EXT_LANES / 2;
    while w > 0 {
        for j in 0..w {
            acc[j] = pick(acc[j], acc[j + w]);
        }
        w /= 2;
    }
    let mut m = pick(init, acc[0]);
    for &v in rem {
        m = pick(m, v);
    }
    m
}

/// Max/min of totally ordered elements (ints): a plain fold, which LLVM
/// turns into a vector max reduction (the 16-accumulator form of
/// `ext_body` was vectorised across chunks with gathers for i64, 10x
/// slower).
#[inline(always)]
fn ord_body<T: Copy + Ord, const MAX: bool>(x: &[T], init: T) -> T {
    if MAX {
        x.iter().copied().fold(init, Ord::max)
    } else {
        x.iter().copied().fold(init, Ord::min)
    }
}

#[inline(always)]
fn rows_body<T: Copy, A: Copy, F: Fn(A, T, f64) -> A>(
    acc: &mut [A],
    aux: &[f64],
    d: &[T],
    rows: &[usize],
    vs: usize,
    f: F,
) {
    let n = acc.len();
    let aux = &aux[..n];
    if vs == 1 {
        for &r in rows {
            let row = &d[r..r + n];
            for ((a, &x), &u) in acc.iter_mut().zip(row).zip(aux) {
                *a = f(*a, x, u);
            }
        }
    } else {
        for &r in rows {
            for (j, (a, &u)) in acc.iter_mut().zip(aux).enumerate() {
                *a = f(*a, d[r + j * vs], u);
            }
        }
    }
}

/// any/all look at pieces of this many elements, branch-free inside a piece
/// (so the compares vectorise) and stop between pieces once decided.
const TEST_PIECE: usize = 1024;

#[inline(always)]
fn test_body<T: Copy + PartialEq, const ANY: bool>(x: &[T], zero: T) -> bool {
    for c in x.chunks(TEST_PIECE) {
        let hit = if ANY {
            c.iter().fold(0u8, |a, &v| a | u8::from(v != zero))
        } else {
            c.iter().fold(0u8, |a, &v| a | u8::from(v == zero))
        };
        if hit != 0 {
            return ANY;
        }
    }
    !ANY
}

/// The first index where `f` holds: pieces tested branch-free (the
/// compares vectorise), then the deciding piece searched.
#[inline(always)]
fn find_body<T: Copy, F: Fn(T) -> bool>(x: &[T], f: F) -> Option<usize> {
    // Short pieces: the deciding one is searched element by element.
    const PIECE: usize = 128;
    for (k, c) in x.chunks(PIECE).enumerate() {
        if c.iter().fold(0u8, |a, &v| a | u8::from(f(v))) != 0 {
            return c.iter().position(|&v| f(v)).map(|i| k * PIECE + i);
        }
    }
    None
}

#[cfg(target_arch = "x86_64")]
mod v {
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn find_512<T: Copy, F: Fn(T) -> bool>(x: &[T], f: F) -> Option<usize> {
        super::find_body(x, f)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn find_256<T: Copy, F: Fn(T) -> bool>(x: &[T], f: F) -> Option<usize> {
        super::find_body(x, f)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn test_512<T: Copy + PartialEq, const ANY: bool>(x: &[T], zero: T) -> bool {
        super::test_body::<T, ANY>(x, zero)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn test_256<T: Copy + PartialEq, const ANY: bool>(x: &[T], zero: T) -> bool {
        super::test_body::<T, ANY>(x, zero)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn rows_512<T: Copy, A: Copy, F: Fn(A, T, f64) -> A>(
        acc: &mut [A],
        aux: &[f64],
        d: &[T],
        rows: &[usize],
        vs: usize,
        f: F,
    ) {
        super::rows_body(acc, aux, d, rows, vs, f)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn rows_256<T: Copy, A: Copy, F: Fn(A, T, f64) -> A>(
        acc: &mut [A],
        aux: &[f64],
        d: &[T],
        rows: &[usize],
        vs: usize,
        f: F,
    ) {
        super::rows_body(acc, aux, d, rows, vs, f)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn fold_512<T: Copy, F: Fn(T) -> f64, const MUL: bool>(x: &[T], f: F) -> f64 {
        super::fold_body::<T, F, MUL>(x, f)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn fold_256<T: Copy, F: Fn(T) -> f64, const MUL: bool>(x: &[T], f: F) -> f64 {
        super::fold_body::<T, F, MUL>(x, f)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn ext_512<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
        super::ext_body::<T, MAX>(x, init)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn ord_512<T: Copy + Ord, const MAX: bool>(x: &[T], init: T) -> T {
        super::ord_body::<T, MAX>(x, init)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn ord_256<T: Copy + Ord, const MAX: bool>(x: &[T], init: T) -> T {
        super::ord_body::<T, MAX>(x, init)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn ext_256<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
        super::ext_body::<T, MAX>(x, init)
    }
}

/// Sum of `f(x[i])` in f64 with 16 accumulators, in a fixed order.
#[inline(always)]
pub fn fold_sum<T: Copy, F: Fn(T) -> f64>(x: &[T], f: F) -> f64 {
    fold::<T, F, false>(x, f)
}

/// Product of `f(x[i])` in f64 with 16 accumulators, in a fixed order (one
/// chain of dependent multiplies ran at a quarter of memory speed).
#[inline(always)]
pub fn fold_prod<T: Copy, F: Fn(T) -> f64>(x: &[T], f: F) -> f64 {
    fold::<T, F, true>(x, f)
}

#[inline(always)]
fn fold<T: Copy, F: Fn(T) -> f64, const MUL: bool>(x: &[T], f: F) -> f64 {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::fold_512::<T, F, MUL>(x, f) },
        Level::Avx2 => return unsafe { v::fold_256::<T, F, MUL>(x, f) },
        Level::Base => {}
    }
    fold_body::<T, F, MUL>(x, f)
}

/// Max (`MAX = true`) or min of `init` and `x`, propagating NaN like NumPy.
#[inline(always)]
pub fn extreme<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::ext_512::<T, MAX>(x, init) },
        Level::Avx2 => return unsafe { v::ext_256::<T, MAX>(x, init) },
        Level::Base => {}
    }
    ext_body::<T, MAX>(x, init)
}

/// Max (`MAX = true`) or min of `init` and the ints `x` (any order gives
/// the same answer).
#[inline(always)]
pub fn extreme_ord<T: Copy + Ord, const MAX: bool>(x: &[T], init: T) -> T {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::ord_512::<T, MAX>(x, init) },
        Level::Avx2 => return unsafe { v::ord_256::<T, MAX>(x, init) },
        Level::Base => {}
    }
    ord_body::<T, MAX>(x, init)
}

/// The first index of `x` where `f` holds (argmax's second pass).
#[inline(always)]
pub fn find_first<T: Copy, F: Fn(T) -> bool>(x: &[T], f: F) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::find_512(x, f) },
        Level::Avx2 => return unsafe { v::find_256(x, f) },
        Level::Base => {}
    }
    find_body(x, f)
}

/// `ANY`: whether some element of `x` differs from `zero`; otherwise whether
/// none equals it (NaN counts as nonzero, -0.0 as zero, as in NumPy). Stops
/// at the first piece that decides.
#[inline(always)]
pub fn test_nonzero<T: Copy + PartialEq, const ANY: bool>(x: &[T], zero: T) -> bool {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::test_512::<T, ANY>(x, zero) },
        Level::Avx2 => return unsafe { v::test_256::<T, ANY>(x, zero) },
        Level::Base => {}
    }
    test_body::<T, ANY>(x, zero)
}

/// For each row start `r` of `rows` in order: `acc[j] = f(acc[j], d[r + j * vs],
/// aux[j])` (a column-wise fold of whole rows; `aux` holds a per-column
/// parameter such as a mean, at least `acc.len()` long).
#[inline(always)]
pub fn fold_rows<T: Copy, A: Copy, F: Fn(A, T, f64) -> A>(
    acc: &mut [A],
    aux: &[f64],
    d: &[T],
    rows: &[usize],
    vs: usize,
    f: F,
) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::rows_512(acc, aux, d, rows, vs, f) },
        Level::Avx2 => return unsafe { v::rows_256(acc, aux, d, rows, vs, f) },
        Level::Base => {}
    }
    rows_body(acc, aux, d, rows, vs, f)
}
