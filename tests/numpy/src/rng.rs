//! The generators' source of choices: a seeded SplitMix64 stream for the
//! tests (a case is reproducible from its seed alone), or a fuzzer's bytes
//! (each choice eats bytes, so libFuzzer's mutations map to structural
//! changes of the case; zeros once the bytes run out).

/// Where the generators' choices come from.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    bytes: Option<(Vec<u8>, usize)>,
}

/// The seed of case `index` of a run seeded `seed` (so one case can be
/// regenerated without the ones before it).
pub fn case_seed(seed: u64, index: u64) -> u64 {
    let mut r = Rng::seeded(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64()
}

impl Rng {
    pub fn seeded(seed: u64) -> Rng {
        Rng {
            state: seed,
            bytes: None,
        }
    }

    /// Choices read from `data` (a fuzzer's input).
    pub fn from_bytes(data: &[u8]) -> Rng {
        Rng {
            state: 0,
            bytes: Some((data.to_vec(), 0)),
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        if let Some((data, pos)) = &mut self.bytes {
            let mut v = 0u64;
            for k in 0..4 {
                let b = data.get(*pos).copied().unwrap_or(0);
                *pos += 1;
                v |= (b as u64) << (8 * k);
            }
            return v;
        }
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        debug_assert!(lo <= hi);
        lo + (self.next_u64() % ((hi - lo) as u64 + 1)) as i64
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index into `weights` drawn proportionally to them (all zero: 0).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        if total == 0 {
            return 0;
        }
        let mut r = self.next_u64() % total;
        for (i, &w) in weights.iter().enumerate() {
            if r < w as u64 {
                return i;
            }
            r -= w as u64;
        }
        weights.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_streams_repeat_and_differ() {
        let a: Vec<u64> = (0..4).map(|_| Rng::seeded(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::seeded(7).next_u64(), Rng::seeded(8).next_u64());
        assert_ne!(case_seed(1, 0), case_seed(1, 1));
    }

    #[test]
    fn bytes_then_zeros() {
        let mut r = Rng::from_bytes(&[5, 0, 0, 0, 1]);
        assert_eq!(r.next_u64(), 5);
        assert_eq!(r.next_u64(), 1);
        assert_eq!(r.next_u64(), 0);
        assert_eq!(r.below(3), 0);
    }
}
