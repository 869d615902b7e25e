//! A stable LSD radix sort of unsigned keys (`keys::Radix`) carrying a
//! payload (lane positions for argsort; `()` for keys alone): one pass per
//! key byte (8-bit digits, 256 buckets), skipping bytes every key shares
//! (small integers, one sign, one exponent: found from the histograms of
//! every byte, counted in one read before the first pass). Long inputs run
//! each pass on rayon: every thread counts and then scatters its own chunk
//! to offsets worked out from all the chunks' counts, so the result is the
//! sequential one. Stability is what makes argsort's ties keep their order
//! and the lane-by-lane (segment) passes work.

use super::keys::Radix;
use rayon::prelude::*;

/// Up to this many elements, a stable insertion sort (a radix pass's 256
/// buckets cost more than it saves).
pub const SMALL: usize = 48;
/// From this many elements a pass runs on every rayon thread.
const PAR: usize = 1 << 16;

/// Counts of each bucket.
type Hist = [usize; 256];

/// Sort `k` ascending, carrying `p` along; stable. `tk` and `tp` are scratch
/// of the same length. Gives `true` when the result ended in the scratch
/// (`tk`, `tp`), `false` when it is in `k`, `p`.
pub fn sort<K: Radix, P: Copy + Send + Sync>(
    k: &mut [K],
    p: &mut [P],
    tk: &mut [K],
    tp: &mut [P],
) -> bool {
    let n = k.len();
    debug_assert!(p.len() == n && tk.len() == n && tp.len() == n);
    if n <= SMALL {
        insertion(k, p);
        return false;
    }
    let chunks = if n >= PAR {
        rayon::current_num_threads().clamp(1, n / (PAR / 2))
    } else {
        1
    };
    let len = n.div_ceil(chunks);
    // Every byte's histogram per chunk, in one read.
    let first: Vec<Vec<Hist>> = if chunks > 1 {
        k.par_chunks(len).map(all_bytes::<K>).collect()
    } else {
        vec![all_bytes::<K>(k)]
    };
    let mut in_scratch = false;
    let mut counted = true;
    for byte in 0..K::BYTES {
        let mut total = [0usize; 256];
        for h in &first {
            for (t, c) in total.iter_mut().zip(h[byte].iter()) {
                *t += c;
            }
        }
        if total.contains(&n) {
            continue; // every key has this byte: nothing moves
        }
        let (sk, sp, dk, dp) = if in_scratch {
            (&*tk, &*tp, &mut *k, &mut *p)
        } else {
            (&*k, &*p, &mut *tk, &mut *tp)
        };
        // The chunks' counts of this byte: the first pass has them already.
        let hists: Vec<Hist> = if counted {
            first.iter().map(|h| h[byte]).collect()
        } else if chunks > 1 {
            sk.par_chunks(len).map(|c| one_byte(c, byte)).collect()
        } else {
            vec![one_byte(sk, byte)]
        };
        counted = false;
        // Bucket b of chunk c starts after every smaller bucket and after
        // bucket b of the earlier chunks.
        let mut offs = vec![[0usize; 256]; hists.len()];
        let mut at = 0;
        for b in 0..256 {
            for (o, h) in offs.iter_mut().zip(&hists) {
                o[b] = at;
                at += h[b];
            }
        }
        let (dkp, dpp) = (dk.as_mut_ptr() as usize, dp.as_mut_ptr() as usize);
        let scatter = |((ck, cp), mut o): ((&[K], &[P]), Hist)| {
            // SAFETY: the offsets of (chunk, bucket) pairs are disjoint ranges
            // of the destination, together exactly 0..n, and each element of
            // a chunk advances its own bucket's offset within its range.
            unsafe { scatter_chunk(ck, cp, dkp as *mut K, dpp as *mut P, &mut o, byte) }
        };
        if chunks > 1 {
            sk.par_chunks(len)
                .zip(sp.par_chunks(len))
                .zip(offs.into_par_iter())
                .for_each(scatter);
        } else {
            scatter(((sk, sp), offs[0]));
        }
        in_scratch = !in_scratch;
    }
    in_scratch
}

fn all_bytes<K: Radix>(k: &[K]) -> Vec<Hist> {
    let mut h = vec![[0usize; 256]; K::BYTES];
    for &x in k {
        for (b, hb) in h.iter_mut().enumerate() {
            hb[x.byte(b)] += 1;
        }
    }
    h
}

fn one_byte<K: Radix>(k: &[K], byte: usize) -> Hist {
    let mut h = [0usize; 256];
    for &x in k {
        h[x.byte(byte)] += 1;
    }
    h
}

/// # Safety
/// `o[b]` plus the number of keys of `k` in bucket `b` must stay inside `dk`
/// and `dp`'s allocations, in a range no other writer uses.
#[inline(never)]
unsafe fn scatter_chunk<K: Radix, P: Copy>(
    k: &[K],
    p: &[P],
    dk: *mut K,
    dp: *mut P,
    o: &mut Hist,
    byte: usize,
) {
    for (&x, &v) in k.iter().zip(p) {
        let b = x.byte(byte);
        let at = o[b];
        // SAFETY: the caller's contract.
        unsafe {
            *dk.add(at) = x;
            *dp.add(at) = v;
        }
        // A bucket's next cache lines, fetched ahead: with 256 buckets
        // written at once the hardware prefetchers don't follow them, and
        // every store to a new line waited for the line (2 to 3 times
        // slower on 10M keys).
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch never faults; `wrapping_add` makes no
            // claim about the address.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(dk.wrapping_add(at + 64 / size_of::<K>()) as *const i8);
                if size_of::<P>() > 0 {
                    _mm_prefetch::<_MM_HINT_T0>(
                        dp.wrapping_add(at + 64 / size_of::<P>().max(1)) as *const i8
                    );
                }
            }
        }
        o[b] = at + 1;
    }
}

/// A stable insertion sort of short `k` carrying `p`.
pub fn insertion<K: Radix, P: Copy>(k: &mut [K], p: &mut [P]) {
    for i in 1..k.len() {
        let (x, v) = (k[i], p[i]);
        let mut j = i;
        while j > 0 && k[j - 1] > x {
            k[j] = k[j - 1];
            p[j] = p[j - 1];
            j -= 1;
        }
        k[j] = x;
        p[j] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    fn check<K: Radix>(keys: Vec<K>) {
        let n = keys.len();
        let mut k = keys.clone();
        let mut p: Vec<u32> = (0..n as u32).collect();
        let (mut tk, mut tp) = (vec![K::default(); n], vec![0u32; n]);
        let scratch = sort(&mut k, &mut p, &mut tk, &mut tp);
        let (k, p) = if scratch { (tk, tp) } else { (k, p) };
        let mut want: Vec<(K, u32)> = keys.iter().copied().zip(0..n as u32).collect();
        want.sort_by_key(|&(x, _)| x); // std's sort is stable
        let got: Vec<(K, u32)> = k.into_iter().zip(p).collect();
        assert_eq!(got, want, "n = {n}");
    }

    #[test]
    fn radix_is_a_stable_sort() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for &n in &[0usize, 1, 2, 47, 48, 49, 300, 5000, 200_000] {
            check(
                (0..n)
                    .map(|_| xorshift(&mut s) as u32)
                    .collect::<Vec<u32>>(),
            );
            // Many ties and bytes every key shares.
            check((0..n).map(|_| xorshift(&mut s) % 7).collect::<Vec<u64>>());
            check(
                (0..n)
                    .map(|_| (xorshift(&mut s) >> 50) as u16)
                    .collect::<Vec<u16>>(),
            );
            check(
                (0..n)
                    .map(|_| (xorshift(&mut s) & 1) as u8)
                    .collect::<Vec<u8>>(),
            );
        }
    }
}
