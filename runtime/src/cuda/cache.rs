//! A per-device cache of freed small buffers, in front of CUDA's stream-ordered
//! pool: a loop of small statements (`r = exp(s)` on 1024 floats, a training
//! step of ~25 small ops) would otherwise pay a cuMemAllocAsync and a
//! cuMemFreeAsync per op, two driver calls beside the one launch.
//!
//! # Invariants
//! - Only blocks of at most `SMALL` bytes are cached, at most `CAP` bytes per
//!   device in all, so the cache never holds memory a user would miss; both
//!   `allow_gc` modes use it (allow_gc governs what the pool gives back to the
//!   device, which for blocks this small costs more time than it saves memory).
//! - A block is reused only by work queued later on the same stream (every
//!   gcalc launch, copy and cuBLAS call of a device goes to its one stream), so
//!   a reused block is never written while earlier queued work still reads it,
//!   the same ordering guarantee cuMemFreeAsync gives.
//! - Out of memory empties the cache before trimming the pool (`drain`).
//! - `mem()` counts cached blocks as pooled, not in use.
//! - While a loop is being made into a CUDA graph (`hold`, see `graph.rs`)
//!   every freed block is kept whatever its size, so the next iteration finds
//!   each block it needs here and calls neither cuMemAllocAsync nor
//!   cuMemFreeAsync (a graph must not allocate); `release` ends the hold and
//!   hands back what the limits above would not have kept. Under a hold a
//!   request takes the free block of lowest address, so a loop's addresses
//!   settle into a short cycle (the loop graph's period).

use cudarc::driver::sys::CUdeviceptr;
use std::collections::HashMap;
use std::sync::Mutex;

/// Largest block kept (bytes).
pub const SMALL: usize = 1 << 20;
/// Most bytes kept per device.
const CAP: usize = 64 << 20;
/// Cached sizes are multiples of this.
const GRAIN: usize = 512;

#[derive(Default)]
struct Inner {
    free: HashMap<usize, Vec<CUdeviceptr>>,
    bytes: usize,
    /// Keep every freed block (a loop graph is being made or replayed).
    hold: bool,
}

#[derive(Default)]
pub struct BlockCache(Mutex<Inner>);

/// The size a request of `bytes` is allocated with: small requests round up to
/// a multiple of `GRAIN` so nearby sizes share blocks; others to 16 bytes.
pub fn block_size(bytes: usize) -> usize {
    let b = bytes.max(16);
    if b <= SMALL {
        b.next_multiple_of(GRAIN)
    } else {
        b.next_multiple_of(16)
    }
}

impl BlockCache {
    /// A cached block of exactly `size` bytes (a `block_size`), if any.
    pub fn take(&self, size: usize) -> Option<CUdeviceptr> {
        let mut c = self.0.lock().ok()?;
        let hold = c.hold;
        let v = c.free.get_mut(&size)?;
        // Under a hold, the lowest address: which block a request gets then
        // depends only on the set of free blocks, not on the order they were
        // freed in, so a loop's buffers come back to the same addresses
        // after one or two iterations (with the newest block first, blocks
        // crossing iterations rotated through the list: a logistic
        // regression's state repeated only every 12 iterations).
        let p = if hold {
            let k = (0..v.len()).min_by_key(|&k| v[k])?;
            v.swap_remove(k)
        } else {
            v.pop()?
        };
        c.bytes -= size;
        Some(p)
    }

    /// Keep a freed block; false when it is too big or the cache is full
    /// (the caller frees it).
    pub fn put(&self, size: usize, ptr: CUdeviceptr) -> bool {
        let Ok(mut c) = self.0.lock() else {
            return false;
        };
        if !c.hold && (size > SMALL || c.bytes + size > CAP) {
            return false;
        }
        c.bytes += size;
        c.free.entry(size).or_default().push(ptr);
        true
    }

    /// Every cached block, removed from the cache (to be freed).
    pub fn drain(&self) -> Vec<CUdeviceptr> {
        let Ok(mut c) = self.0.lock() else {
            return Vec::new();
        };
        c.bytes = 0;
        c.free.drain().flat_map(|(_, v)| v).collect()
    }

    /// Keep every freed block from now on (`graph.rs`).
    pub fn hold(&self) {
        if let Ok(mut c) = self.0.lock() {
            c.hold = true;
        }
    }

    /// End a `hold`: the blocks the usual limits would not keep (big ones,
    /// then the newest beyond the cap), removed from the cache, to be freed.
    pub fn release(&self) -> Vec<CUdeviceptr> {
        let Ok(mut c) = self.0.lock() else {
            return Vec::new();
        };
        c.hold = false;
        let mut out = Vec::new();
        let big: Vec<usize> = c.free.keys().copied().filter(|&s| s > SMALL).collect();
        for s in big {
            let v = c.free.remove(&s).unwrap_or_default();
            c.bytes -= s * v.len();
            out.extend(v);
        }
        let mut sizes: Vec<usize> = c.free.keys().copied().collect();
        sizes.sort_unstable();
        for s in sizes.into_iter().rev() {
            while c.bytes > CAP {
                match c.free.get_mut(&s).and_then(Vec::pop) {
                    Some(p) => {
                        c.bytes -= s;
                        out.push(p);
                    }
                    None => break,
                }
            }
        }
        out
    }

    /// Bytes held by the cache.
    pub fn bytes(&self) -> usize {
        self.0.lock().map(|c| c.bytes).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_and_blocks_come_back_by_size() {
        assert_eq!(block_size(1), 512);
        assert_eq!(block_size(1600), 2048);
        assert_eq!(block_size(SMALL), SMALL);
        assert_eq!(block_size(SMALL + 1), SMALL + 16);
        let c = BlockCache::default();
        assert!(c.take(512).is_none());
        assert!(c.put(512, 0x1000));
        assert!(c.put(2048, 0x2000));
        assert_eq!(c.bytes(), 2560);
        assert_eq!(c.take(1024), None);
        assert_eq!(c.take(2048), Some(0x2000));
        assert_eq!(c.bytes(), 512);
        assert!(!c.put(SMALL + 16, 0x3000), "big blocks are not kept");
        let mut all = c.drain();
        all.sort();
        assert_eq!(all, vec![0x1000]);
        assert_eq!(c.bytes(), 0);
    }

    #[test]
    fn the_cache_stops_at_its_cap() {
        let c = BlockCache::default();
        let n = CAP / SMALL;
        for i in 0..n {
            assert!(c.put(SMALL, (i as u64 + 1) * 0x100000));
        }
        assert!(!c.put(SMALL, 0xdead0000));
        assert_eq!(c.bytes(), CAP);
        assert_eq!(c.drain().len(), n);
    }

    #[test]
    fn a_hold_keeps_every_block_and_its_release_gives_back_the_excess() {
        let c = BlockCache::default();
        c.hold();
        let big = SMALL + 16;
        assert!(c.put(big, 0x1000_0000), "held: big blocks are kept");
        for i in 0..=CAP / SMALL {
            assert!(
                c.put(SMALL, (i as u64 + 1) * 0x100000),
                "held: past the cap"
            );
        }
        assert_eq!(
            c.take(big),
            Some(0x1000_0000),
            "a held big block comes back"
        );
        assert!(c.put(big, 0x1000_0000));
        let mut back = c.release();
        back.sort();
        assert_eq!(back.len(), 2, "the big block and one block over the cap");
        assert!(back.contains(&0x1000_0000));
        assert_eq!(c.bytes(), CAP);
        assert!(!c.put(big, 0x2000_0000), "released: limits again");
    }
}
