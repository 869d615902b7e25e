//! The Fx hash (rustc's): a fast, non-cryptographic hasher for the maps the
//! interpreter hits on every name it evaluates (variables, the op table).
//! Keys are short names from the program itself, so SipHash's resistance to
//! crafted keys buys nothing there and costs a good part of each lookup.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const K: u64 = 0x517c_c1b7_2722_0a95;

#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, mut bytes: &[u8]) {
        while let Some((w, rest)) = bytes.split_first_chunk::<8>() {
            self.add(u64::from_le_bytes(*w));
            bytes = rest;
        }
        if let Some((w, rest)) = bytes.split_first_chunk::<4>() {
            self.add(u32::from_le_bytes(*w) as u64);
            bytes = rest;
        }
        for &b in bytes {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
/// A `HashMap` with the Fx hash (make one with `FxHashMap::default()`).
pub type FxHashMap<K, V> = HashMap<K, V, FxBuildHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_hash_apart_and_maps_work() {
        let h = |s: &str| {
            let mut x = FxHasher::default();
            x.write(s.as_bytes());
            x.finish()
        };
        let names = [
            "w", "b", "gw", "gb", "D0", "D1", "p1", "xent", "sigmoid", "matmul",
        ];
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                assert_ne!(h(a), h(b), "{a} {b}");
            }
        }
        let mut m: FxHashMap<String, usize> = FxHashMap::default();
        for (i, n) in names.iter().enumerate() {
            m.insert(n.to_string(), i);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(m.get(*n), Some(&i));
        }
        assert_eq!(m.get("x"), None);
    }
}
