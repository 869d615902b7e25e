//! An AVX-512 quicksort of 32-bit keys (values-only sorts of float32 and
//! int32 lanes: equal keys are identical values, so it need not be stable),
//! after x86-simd-sort (NumPy's `np.sort` on AVX-512 CPUs): in-place
//! partitions 16 keys a register, 8 registers from one end at a time (a
//! compare gives the mask of keys at or above the pivot, and each side is
//! compressed into a register and stored with a mask), and at most 256 keys
//! sorted in 16 registers by a bitonic network. Long ranges are partitioned
//! in two halves on rayon threads and their two sides sorted on rayon
//! threads. CPUs without AVX-512F, POPCNT, BMI1 and BMI2 (checked at run
//! time) and other key widths use the radix sort.

use super::keys::SortKey;
use std::mem::MaybeUninit;

/// Whether `sort_values` handles `T` on this CPU.
pub fn available<T: SortKey>() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::any::TypeId::of::<T::K>() == std::any::TypeId::of::<u32>()
            && std::mem::size_of::<T>() == 4
            && std::mem::align_of::<T>() == 4
            && cpu()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has what the quicksort's code is compiled for.
#[cfg(target_arch = "x86_64")]
fn cpu() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// From this many elements a lane's element-wise passes run in parallel chunks.
const PAR_CHUNK: usize = 1 << 16;
/// Partitions at least this long sort their two sides on rayon threads.
const PAR_SPLIT: usize = 1 << 18;
/// Ranges at least this long are partitioned in two halves on rayon threads.
const PAR_PARTITION: usize = 1 << 20;

/// `out` = the elements of `src` sorted (ascending, or descending with nans
/// last when `desc`), through their keys (`canon = false`, so each value
/// comes back exactly; every nan comes back as the one nan). Only when
/// `available::<T>()`; otherwise it panics.
pub fn sort_values<T: SortKey>(src: &[T], out: &mut [MaybeUninit<T>], desc: bool) {
    assert!(available::<T>() && src.len() == out.len());
    let n = src.len();
    // `T` is 4 bytes aligned like `u32` (checked by `available`): the keys
    // are built in `out`'s memory, sorted there and turned back in place.
    let to_keys = |s: &[T], o: &mut [MaybeUninit<T>]| {
        // SAFETY: `o` is elements of 4 bytes, aligned for `u32`; every key
        // is written before it is read.
        let k = unsafe { std::slice::from_raw_parts_mut(o.as_mut_ptr() as *mut u32, o.len()) };
        for (k, &x) in k.iter_mut().zip(s) {
            // SAFETY: `T::K` is `u32` (`available`).
            *k = unsafe { std::mem::transmute_copy::<T::K, u32>(&x.key(desc, false)) };
        }
    };
    let to_values = |o: &mut [MaybeUninit<T>]| {
        let p = o.as_mut_ptr();
        for i in 0..o.len() {
            // SAFETY: element i holds a key (a u32) and is overwritten by its value.
            unsafe {
                let k = (p.add(i) as *const u32).read();
                let k = std::mem::transmute_copy::<u32, T::K>(&k);
                (*p.add(i)).write(T::from_key(k, desc));
            }
        }
    };
    if n > 2 * PAR_CHUNK {
        use rayon::prelude::*;
        out.par_chunks_mut(PAR_CHUNK)
            .zip(src.par_chunks(PAR_CHUNK))
            .for_each(|(o, s)| to_keys(s, o));
    } else {
        to_keys(src, out);
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has the features (`available`); `out` holds `n` keys.
    unsafe {
        x86::sort(out.as_mut_ptr() as *mut u32, n)
    };
    if n > 2 * PAR_CHUNK {
        use rayon::prelude::*;
        out.par_chunks_mut(PAR_CHUNK).for_each(to_values);
    } else {
        to_values(out);
    }
}

/// Sort `k` ascending with the AVX-512 quicksort; `false` (and `k` as it
/// was) where the CPU lacks AVX-512F (or POPCNT, BMI1, BMI2).
pub fn sort_u32(k: &mut [u32]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if cpu() {
        // SAFETY: the CPU has the features; the pointer covers `k`.
        unsafe { x86::sort(k.as_mut_ptr(), k.len()) };
        return true;
    }
    let _ = k;
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{PAR_PARTITION, PAR_SPLIT};
    use std::arch::x86_64::*;

    /// Lanes with bit `j` set (they take the larger of a compare-exchange).
    const fn lanes_with(j: u32) -> u16 {
        let mut m = 0u16;
        let mut i = 0;
        while i < 16 {
            if i & j != 0 {
                m |= 1 << i;
            }
            i += 1;
        }
        m
    }

    /// Compare-exchange of every lane with lane `lane ^ x`, the larger to the
    /// lanes of `hi`.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn cx(v: __m512i, x: i32, hi: u16) -> __m512i {
        let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let p = _mm512_permutexvar_epi32(_mm512_xor_si512(lane, _mm512_set1_epi32(x)), v);
        _mm512_mask_blend_epi32(hi, _mm512_min_epu32(v, p), _mm512_max_epu32(v, p))
    }

    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn rev(v: __m512i) -> __m512i {
        let r = _mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        _mm512_permutexvar_epi32(r, v)
    }

    /// Sort one register: the bitonic network with flips (every stage ascending).
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn sort16(v: __m512i) -> __m512i {
        let v = cx(v, 1, lanes_with(1));
        let v = cx(v, 3, lanes_with(2));
        let v = cx(v, 1, lanes_with(1));
        let v = cx(v, 7, lanes_with(4));
        let v = clean(cx(v, 2, lanes_with(2)), false);
        let v = cx(v, 15, lanes_with(8));
        clean(v, true)
    }

    /// A bitonic register (after a flip) sorted: distances 8 (when `eight`), 4, 2, 1.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn clean(v: __m512i, eight: bool) -> __m512i {
        let v = if eight { cx(v, 8, lanes_with(8)) } else { v };
        let v = cx(v, 4, lanes_with(4));
        let v = cx(v, 2, lanes_with(2));
        cx(v, 1, lanes_with(1))
    }

    /// Compare-exchange of registers `i` and `i ^ x` for every `i` without
    /// bit `low`: the smaller keys to register `i`, lane by lane.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn minmax<const R: usize>(v: &mut [__m512i; R], x: usize, low: usize) {
        for i in 0..R {
            if i & low == 0 {
                let j = i ^ x;
                let (a, b) = (v[i], v[j]);
                v[i] = _mm512_min_epu32(a, b);
                v[j] = _mm512_max_epu32(a, b);
            }
        }
    }

    /// Sort `R` registers (`R` a power of two) as one sequence of `16 R` keys.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn sort_regs<const R: usize>(v: &mut [__m512i; R]) {
        if R == 16 {
            // Sort the columns (a bitonic network on whole registers: no
            // shuffles), then transpose: each register sorted, in a quarter
            // of the shuffles of sorting them one by one.
            let mut k = 2;
            while k <= 16 {
                minmax(v, k - 1, k / 2);
                let mut j = k / 4;
                while j >= 1 {
                    minmax(v, j, j);
                    j /= 2;
                }
                k *= 2;
            }
            for b in [8, 4, 2, 1] {
                for i in 0..R {
                    if i & b == 0 {
                        let j = i + b;
                        let mut lo = [0i32; 16];
                        let mut hi = [0i32; 16];
                        for (l, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                            if l & b == 0 {
                                (*x, *y) = (l as i32, (l + b) as i32);
                            } else {
                                (*x, *y) = ((16 + l - b) as i32, (16 + l) as i32);
                            }
                        }
                        // SAFETY: 16 i32 each.
                        let (lo, hi) = unsafe {
                            (
                                _mm512_loadu_si512(lo.as_ptr() as *const _),
                                _mm512_loadu_si512(hi.as_ptr() as *const _),
                            )
                        };
                        let (x, y) = (v[i], v[j]);
                        v[i] = _mm512_permutex2var_epi32(x, lo, y);
                        v[j] = _mm512_permutex2var_epi32(x, hi, y);
                    }
                }
            }
        } else {
            for x in v.iter_mut() {
                *x = sort16(*x);
            }
        }
        let mut w = 1;
        while w < R {
            let mut base = 0;
            while base < R {
                // The flip: key i of the first run against key 16w-1-i of the second.
                for j in 0..w {
                    let (a, b) = (v[base + j], rev(v[base + 2 * w - 1 - j]));
                    v[base + j] = _mm512_min_epu32(a, b);
                    v[base + 2 * w - 1 - j] = rev(_mm512_max_epu32(a, b));
                }
                // Both runs are bitonic now: clean them, registers apart first.
                let mut d = w / 2;
                while d >= 1 {
                    for i in base..base + 2 * w {
                        if (i - base) & d == 0 {
                            let (a, b) = (v[i], v[i + d]);
                            v[i] = _mm512_min_epu32(a, b);
                            v[i + d] = _mm512_max_epu32(a, b);
                        }
                    }
                    d /= 2;
                }
                for x in v[base..base + 2 * w].iter_mut() {
                    *x = clean(*x, true);
                }
                base += 2 * w;
            }
            w *= 2;
        }
    }

    /// Sort `n <= 16 R` keys at `a` in `R` registers (missing keys read as the largest).
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn small_in<const R: usize>(a: *mut u32, n: usize) {
        let max = _mm512_set1_epi32(-1);
        let mut v = [max; R];
        for (r, x) in v.iter_mut().enumerate() {
            let m = mask(n.saturating_sub(16 * r));
            // SAFETY: only the lanes of `m` (keys below n) are read.
            *x = unsafe { _mm512_mask_loadu_epi32(max, m, a.add(16 * r) as *const i32) };
        }
        sort_regs::<R>(&mut v);
        for (r, x) in v.iter().enumerate() {
            let m = mask(n.saturating_sub(16 * r));
            // SAFETY: as above.
            unsafe { _mm512_mask_storeu_epi32(a.add(16 * r) as *mut i32, m, *x) };
        }
    }

    /// The first `min(c, 16)` lanes.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn mask(c: usize) -> u16 {
        _bzhi_u32(0xffff, c.min(16) as u32) as u16
    }

    /// Sort at most 256 keys.
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn small(a: *mut u32, n: usize) {
        // SAFETY: `n` keys at `a` (the caller's contract).
        unsafe {
            match n {
                0..=16 => small_in::<1>(a, n),
                17..=32 => small_in::<2>(a, n),
                33..=64 => small_in::<4>(a, n),
                65..=128 => small_in::<8>(a, n),
                _ => small_in::<16>(a, n),
            }
        }
    }

    /// Ranges up to this long are sorted in registers (`small`).
    const SMALL: usize = 256;

    /// Sort the `n` keys at `a` ascending.
    ///
    /// # Safety
    /// AVX-512F must be present; `a` must be valid for reads and writes of
    /// `n` keys that nothing else uses meanwhile.
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    pub unsafe fn sort(a: *mut u32, n: usize) {
        let depth = 2 * (usize::BITS - n.leading_zeros()) + 8;
        // SAFETY: the caller's contract.
        unsafe { qsort(a, n, depth) }
    }

    #[derive(Clone, Copy)]
    struct Keys(*mut u32);
    // SAFETY: each thread gets its own disjoint range of keys.
    unsafe impl Send for Keys {}
    impl Keys {
        fn get(self) -> *mut u32 {
            self.0
        }
    }

    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn qsort(a: *mut u32, n: usize, depth: u32) {
        if n <= SMALL {
            // SAFETY: the caller's contract.
            return unsafe { small(a, n) };
        }
        if depth == 0 {
            // Pivots kept going bad: pattern-defeating quicksort from here.
            // SAFETY: the caller's contract.
            return unsafe { std::slice::from_raw_parts_mut(a, n) }.sort_unstable();
        }
        // SAFETY: the caller's contract.
        let p = unsafe { pivot(a, n) };
        let (mut nl, hi) = if n >= PAR_PARTITION && rayon::current_num_threads() > 1 {
            // SAFETY: the caller's contract.
            unsafe { par_partition(a, n, p) }
        } else {
            // SAFETY: the caller's contract.
            unsafe { partition::<false>(a, n, p) }
        };
        if nl == 0 {
            // The pivot is the smallest key: keys equal to it go left (and
            // are done), or they all are equal.
            if hi == p {
                return;
            }
            // SAFETY: the caller's contract.
            nl = unsafe { partition::<true>(a, n, p) }.0;
            // SAFETY: the right part, inside the caller's range.
            return unsafe { qsort(a.add(nl), n - nl, depth - 1) };
        }
        // SAFETY: the two parts are disjoint and inside the caller's range.
        let (l, r) = (Keys(a), Keys(unsafe { a.add(nl) }));
        if n >= PAR_SPLIT && rayon::current_num_threads() > 1 {
            rayon::join(
                // SAFETY: AVX-512F is present (the caller's contract), and
                // the two ranges are disjoint.
                move || unsafe { qsort(l.get(), nl, depth - 1) },
                move || unsafe { qsort(r.get(), n - nl, depth - 1) },
            );
        } else {
            // SAFETY: as above.
            unsafe {
                qsort(l.get(), nl, depth - 1);
                qsort(r.get(), n - nl, depth - 1);
            }
        }
    }

    /// `partition::<false>` of the two halves on two threads, then the right
    /// side of the first half and the left side of the second swapped
    /// (only as many keys as the shorter of the two has).
    ///
    /// # Safety
    /// As `qsort`.
    unsafe fn par_partition(a: *mut u32, n: usize, p: u32) -> (usize, u32) {
        use rayon::prelude::*;
        let h = n / 2;
        let (x, y) = (Keys(a), Keys(unsafe { a.add(h) }));
        let ((n1, h1), (n2, h2)) = rayon::join(
            // SAFETY: AVX-512F (the caller's contract); disjoint halves.
            move || unsafe { partition::<false>(x.get(), h, p) },
            move || unsafe { partition::<false>(y.get(), n - h, p) },
        );
        let m = (h - n1).min(n2);
        // SAFETY: [n1, n1 + m) and [h + n2 - m, h + n2) are disjoint (n1 +
        // m <= h) ranges of the caller's keys.
        let (r1, l2) = unsafe {
            (
                std::slice::from_raw_parts_mut(a.add(n1), m),
                std::slice::from_raw_parts_mut(a.add(h + n2 - m), m),
            )
        };
        r1.par_chunks_mut(1 << 16)
            .zip(l2.par_chunks_mut(1 << 16))
            .for_each(|(r, l)| r.swap_with_slice(l));
        (n1 + n2, h1.max(h2))
    }

    /// A pivot: the median of 16 keys spread over the range, or of 256 for
    /// long ranges (the first split decides how evenly the threads share).
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn pivot(a: *const u32, n: usize) -> u32 {
        if n >= 1 << 16 {
            let mut s = [0u32; 256];
            for (i, x) in s.iter_mut().enumerate() {
                // SAFETY: i * n / 256 + n / 512 < n.
                *x = unsafe { *a.add(i * n / 256 + n / 512) };
            }
            // SAFETY: 256 keys on the stack.
            unsafe { small(s.as_mut_ptr(), 256) };
            return s[128];
        }
        let mut s = [0u32; 16];
        for (i, x) in s.iter_mut().enumerate() {
            // SAFETY: i * n / 16 + n / 32 < n.
            *x = unsafe { *a.add(i * n / 16 + n / 32) };
        }
        // SAFETY: 16 keys on the stack.
        let v = sort16(unsafe { _mm512_loadu_si512(s.as_ptr() as *const _) });
        // SAFETY: 16 keys on the stack.
        unsafe { _mm512_storeu_si512(s.as_mut_ptr() as *mut _, v) };
        s[8]
    }

    /// Partition `n > 256` keys in place: keys below `p` (at most `p` when
    /// `LE`) first. Gives how many went first, and the largest key.
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn partition<const LE: bool>(a: *mut u32, n: usize, p: u32) -> (usize, u32) {
        // 8 registers a step from one side: the side is hard to predict, so
        // the more registers per branch the better (16 spill).
        // SAFETY: the caller's contract.
        unsafe { partition_u::<LE, 8>(a, n, p) }
    }

    /// Partition `n >= 32 U` keys in place: keys below `p` (at most `p` when
    /// `LE`) first. Gives how many went first, and the largest key.
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn partition_u<const LE: bool, const U: usize>(
        a: *mut u32,
        n: usize,
        p: u32,
    ) -> (usize, u32) {
        debug_assert!(n >= 32 * U);
        let pv = _mm512_set1_epi32(p as i32);
        // Keys [l, r) are unread; the left side is written at [0, ls), the
        // right side at [rs, n). The first and last 16 U keys are read
        // first, so 32 U places are always free: a step reads 16 U keys from
        // the side with fewer free places (which then has at least 16 U, and
        // the other side too) and writes at most 16 U to each side.
        let zero = _mm512_setzero_si512();
        let (mut first, mut last) = ([zero; U], [zero; U]);
        for i in 0..U {
            // SAFETY (every access below): inside [0, n), which the caller gives.
            unsafe {
                first[i] = _mm512_loadu_si512(a.add(16 * i) as *const _);
                last[i] = _mm512_loadu_si512(a.add(n - 16 * U + 16 * i) as *const _);
            }
        }
        let (mut l, mut r, mut ls, mut rs) = (16 * U, n - 16 * U, 0, n);
        let mut hi = zero;
        while r - l >= 16 * U {
            let at = if l - ls <= rs - r {
                l += 16 * U;
                l - 16 * U
            } else {
                r -= 16 * U;
                r
            };
            let mut v = [zero; U];
            for (i, x) in v.iter_mut().enumerate() {
                *x = unsafe { _mm512_loadu_si512(a.add(at + 16 * i) as *const _) };
            }
            for x in v {
                hi = _mm512_max_epu32(hi, x);
                unsafe { put(a, x, goes_right::<LE>(x, pv), 0xffff, &mut ls, &mut rs) };
            }
        }
        // Single registers (32 U >= 32 places free, as above).
        while r - l >= 16 {
            let v = if l - ls <= rs - r {
                l += 16;
                unsafe { _mm512_loadu_si512(a.add(l - 16) as *const _) }
            } else {
                r -= 16;
                unsafe { _mm512_loadu_si512(a.add(r) as *const _) }
            };
            hi = _mm512_max_epu32(hi, v);
            unsafe { put(a, v, goes_right::<LE>(v, pv), 0xffff, &mut ls, &mut rs) };
        }
        // The rest (under 16), then the first and last registers: everything
        // unread is in registers now, so the free places are exactly enough.
        let tail = mask(r - l);
        let v = unsafe { _mm512_maskz_loadu_epi32(tail, a.add(l) as *const i32) };
        hi = _mm512_max_epu32(hi, v);
        unsafe { put(a, v, goes_right::<LE>(v, pv) & tail, tail, &mut ls, &mut rs) };
        for x in first.into_iter().chain(last) {
            hi = _mm512_max_epu32(hi, x);
            unsafe { put(a, x, goes_right::<LE>(x, pv), 0xffff, &mut ls, &mut rs) };
        }
        debug_assert_eq!(ls, rs);
        (ls, _mm512_reduce_max_epu32(hi))
    }

    /// The lanes of `v` above the pivot (at or above it unless `LE`).
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    fn goes_right<const LE: bool>(v: __m512i, pv: __m512i) -> u16 {
        if LE {
            _mm512_cmpgt_epu32_mask(v, pv)
        } else {
            _mm512_cmpge_epu32_mask(v, pv)
        }
    }

    /// Write the lanes of `v` in `valid`: those of `right` below `rs` (and
    /// `rs` down past them), the others from `ls` on (and `ls` past them).
    #[inline]
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn put(a: *mut u32, v: __m512i, right: u16, valid: u16, ls: &mut usize, rs: &mut usize) {
        let left = !right & valid;
        let (nl, nr) = (left.count_ones() as usize, right.count_ones() as usize);
        // SAFETY: [ls, ls + nl) and [rs - nr, rs) are free places (`partition`).
        unsafe {
            _mm512_mask_storeu_epi32(
                a.add(*ls) as *mut i32,
                mask(nl),
                _mm512_maskz_compress_epi32(left, v),
            );
            _mm512_mask_storeu_epi32(
                a.add(*rs - nr) as *mut i32,
                mask(nr),
                _mm512_maskz_compress_epi32(right, v),
            );
        }
        *ls += nl;
        *rs -= nr;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::sort::keys::SortKey;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn quicksort_sorts_u32_keys() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let sizes = [
            0usize, 1, 2, 15, 16, 17, 31, 32, 33, 64, 100, 128, 129, 255, 256, 257, 300, 511, 512,
            513, 1000, 4096, 5000, 100_000, 300_000, 2_100_000,
        ];
        for &n in &sizes {
            let kinds: Vec<Vec<u32>> = vec![
                (0..n).map(|_| xorshift(&mut s) as u32).collect(),
                (0..n).map(|_| (xorshift(&mut s) % 3) as u32).collect(),
                (0..n)
                    .map(|_| {
                        if xorshift(&mut s).is_multiple_of(5) {
                            u32::MAX
                        } else {
                            xorshift(&mut s) as u32 % 1000
                        }
                    })
                    .collect(),
                vec![7; n],
                (0..n as u32).collect(),
                (0..n as u32).rev().collect(),
                (0..n)
                    .map(|i| (i % 17) as u32 * 1000 + (i as u32 & 1))
                    .collect(),
            ];
            for keys in kinds {
                let mut got = keys.clone();
                if !sort_u32(&mut got) {
                    return; // no AVX-512 here
                }
                let mut want = keys;
                want.sort_unstable();
                assert!(got == want, "n = {n}");
            }
        }
    }

    #[test]
    fn values_come_back_exactly() {
        if !available::<f32>() {
            return;
        }
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let special = [
            f32::NAN,
            -0.0,
            0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-40,
            -1e-40,
            f32::MAX,
            f32::MIN,
        ];
        for &n in &[1usize, 47, 48, 49, 1000, 200_000] {
            let xs: Vec<f32> = (0..n)
                .map(|i| {
                    let r = xorshift(&mut s);
                    if r.is_multiple_of(7) {
                        special[i % special.len()]
                    } else {
                        f32::from_bits(r as u32)
                    }
                })
                .collect();
            let ints: Vec<i32> = xs.iter().map(|x| x.to_bits() as i32).collect();
            for desc in [false, true] {
                let mut out = vec![MaybeUninit::<f32>::uninit(); n];
                sort_values(&xs, &mut out, desc);
                let got: Vec<u32> = out
                    .iter()
                    .map(|x| unsafe { x.assume_init() }.to_bits())
                    .collect();
                let mut keys: Vec<u32> = xs.iter().map(|x| x.key(desc, false)).collect();
                keys.sort_unstable();
                let want: Vec<u32> = keys
                    .iter()
                    .map(|&k| f32::from_key(k, desc).to_bits())
                    .collect();
                assert_eq!(got, want, "f32, n = {n}, desc = {desc}");

                let mut out = vec![MaybeUninit::<i32>::uninit(); n];
                sort_values(&ints, &mut out, desc);
                let got: Vec<i32> = out.iter().map(|x| unsafe { x.assume_init() }).collect();
                let mut want = ints.clone();
                want.sort_unstable();
                if desc {
                    want.reverse();
                }
                assert_eq!(got, want, "i32, n = {n}, desc = {desc}");
            }
        }
    }
}
