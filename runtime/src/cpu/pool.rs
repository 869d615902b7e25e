//! Recycled host buffers for kernel outputs: a statement in a loop (`r = exp(s)`)
//! frees last iteration's `r` just after making the new one, so handing that
//! buffer to the next output skips malloc/free, calloc's zero fill and, for
//! large arrays, the page faults of fresh memory. Only whole, initialised
//! buffers are kept, so a reused one is sound to overwrite. A buffer is
//! matched by its room (capacity), so one cut to a smaller output can serve
//! a larger one again.

use crate::array::{Element, HostData, Storage};
use crate::error::Result;
use std::sync::Mutex;

/// Buffers smaller than this go straight back to malloc (its own caches are fast).
const MIN_BYTES: usize = 512;
/// At most this many buffers are kept (a training step's forward pass makes
/// a few dozen outputs while the previous step's tape frees as many)...
const MAX_KEPT: usize = 32;
/// ...holding at most this many bytes in all.
const MAX_TOTAL: usize = 256 << 20;

struct Pool {
    bufs: Vec<HostData>,
    bytes: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    bufs: Vec::new(),
    bytes: 0,
});

/// The bytes a buffer holds on to (its room, not its length: a buffer cut to
/// a smaller output keeps its room and can serve a larger one again).
fn nbytes(d: &HostData) -> usize {
    d.capacity() * d.dtype().size()
}

/// A host buffer of `n` elements of `T` whose contents are arbitrary (but
/// initialised): the caller overwrites every element. A fresh one is
/// checked against the host's budget (an out-of-memory error, not an abort).
pub fn out_host<T: Element>(n: usize) -> Result<HostData> {
    if n * std::mem::size_of::<T>() >= MIN_BYTES
        && let Ok(mut p) = POOL.lock()
    {
        let hit = p.bufs.iter().rposition(|d| {
            d.dtype() == T::DTYPE && (n..=n.saturating_mul(2)).contains(&d.capacity())
        });
        if let Some(i) = hit {
            let mut d = p.bufs.swap_remove(i);
            p.bytes -= nbytes(&d);
            drop(p);
            d.fit(n);
            return Ok(d);
        }
    }
    Ok(T::wrap(crate::array::alloc::vec_with(n, |_| T::default())?))
}

/// Keep a buffer that is being freed, if it is worth keeping and there is room.
fn give(d: HostData) {
    let b = nbytes(&d);
    if !(MIN_BYTES..=MAX_TOTAL).contains(&b) {
        return;
    }
    let Ok(mut p) = POOL.lock() else { return };
    while p.bufs.len() >= MAX_KEPT || p.bytes + b > MAX_TOTAL {
        if p.bufs.is_empty() {
            return;
        }
        let old = p.bufs.remove(0);
        p.bytes -= nbytes(&old);
    }
    p.bytes += b;
    p.bufs.push(d);
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Storage::Host(l) = self
            && let Ok(d) = l.get_mut()
        {
            give(std::mem::replace(d, HostData::Bool(Vec::new())));
        }
    }
}
