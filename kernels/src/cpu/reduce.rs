//! Reduction kernels over contiguous slices: sums with 16 independent f64
//! accumulators (accurate, vectorisable, and with a fixed order so results do
//! not depend on threads), NaN-propagating max/min, and row folds that
//! accumulate whole rows into a vector of outputs (reductions over an outer
//! axis, as NumPy's strided loops do).

use super::simd::{Level, level};

const LANES: usize = 16;

#[inline(always)]
fn fold_body<T: Copy, F: Fn(T) -> f64>(x: &[T], f: F) -> f64 {
    let mut acc = [0f64; LANES];
    let chunks = x.chunks_exact(LANES);
    let rem = chunks.remainder();
    for c in chunks {
        for j in 0..LANES {
            acc[j] += f(c[j]);
        }
    }
    let mut s = 0.0;
    for a in acc {
        s += a;
    }
    for &v in rem {
        s += f(v);
    }
    s
}

#[inline(always)]
fn ext_body<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
    let mut acc = [init; LANES];
    let chunks = x.chunks_exact(LANES);
    let rem = chunks.remainder();
    #[allow(clippy::eq_op)]
    let pick = |a: T, v: T| {
        let better = if MAX { v > a } else { v < a };
        if better || v != v { v } else { a }
    };
    for c in chunks {
        for j in 0..LANES {
            acc[j] = pick(acc[j], c[j]);
        }
    }
    let mut m = init;
    for a in acc {
        m = pick(m, a);
    }
    for &v in rem {
        m = pick(m, v);
    }
    m
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

#[cfg(target_arch = "x86_64")]
mod v {
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
    pub unsafe fn fold_512<T: Copy, F: Fn(T) -> f64>(x: &[T], f: F) -> f64 {
        super::fold_body(x, f)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn fold_256<T: Copy, F: Fn(T) -> f64>(x: &[T], f: F) -> f64 {
        super::fold_body(x, f)
    }
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")]
    pub unsafe fn ext_512<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
        super::ext_body::<T, MAX>(x, init)
    }
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn ext_256<T: Copy + PartialOrd, const MAX: bool>(x: &[T], init: T) -> T {
        super::ext_body::<T, MAX>(x, init)
    }
}

/// Sum of `f(x[i])` in f64 with 16 accumulators, in a fixed order.
#[inline(always)]
pub fn fold_sum<T: Copy, F: Fn(T) -> f64>(x: &[T], f: F) -> f64 {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::fold_512(x, f) },
        Level::Avx2 => return unsafe { v::fold_256(x, f) },
        Level::Base => {}
    }
    fold_body(x, f)
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
