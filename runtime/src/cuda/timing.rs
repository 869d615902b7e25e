//! What the profiler sees of a GPU: while `profile::is_on()`, a CUDA event
//! pair around each launch and copy on the device's stream, kept pending
//! until a sync point reads their elapsed times (`profile::kernel_time`);
//! copies as transfer rows, syncs with the host's wait, memory in use.
//! Events come from a small per-device pool. With profiling off each hook is
//! one thread-local check and creates nothing.

use super::driver::Gpu;
use crate::profile::{self, Direction, LaunchToken};
use cudarc::driver::{result, sys};
use std::time::{Duration, Instant};

/// Pending events past this many are harvested if done (a loop that never syncs).
const HARVEST_AT: usize = 4096;

/// A GPU's event pool and the launches whose device time is not read yet.
#[derive(Default)]
pub struct Timing {
    free: Vec<sys::CUevent>,
    /// The start event of the launch being queued (`before_launch`).
    open: Option<sys::CUevent>,
    pending: Vec<(sys::CUevent, sys::CUevent, LaunchToken)>,
}

/// A copy being timed: its start event and the host clock.
pub struct CopyMark(Option<(sys::CUevent, Instant)>);

impl Timing {
    fn event(&mut self) -> Option<sys::CUevent> {
        self.free
            .pop()
            .or_else(|| result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).ok())
    }

    /// An event recorded now on `stream` (None when CUDA refuses one).
    fn record(&mut self, stream: sys::CUstream) -> Option<sys::CUevent> {
        let e = self.event()?;
        match unsafe { result::event::record(e, stream) } {
            Ok(()) => Some(e),
            Err(_) => {
                self.free.push(e);
                None
            }
        }
    }

    /// Hand the elapsed times of the pending pairs that are done (all of them
    /// after a sync) to the profiler, and their events back to the pool.
    fn harvest(&mut self, all_done: bool) {
        let mut keep = Vec::new();
        for (s, e, tok) in std::mem::take(&mut self.pending) {
            if !all_done && unsafe { result::event::query(e) }.is_err() {
                keep.push((s, e, tok));
                continue;
            }
            if let Ok(ms) = unsafe { result::event::elapsed(s, e) } {
                profile::kernel_time(tok, Duration::from_secs_f64(ms.max(0.0) as f64 / 1e3));
            }
            self.free.extend([s, e]);
        }
        self.pending = keep;
    }
}

impl Gpu {
    fn timing(&self) -> std::sync::MutexGuard<'_, Timing> {
        self.timing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Before queuing a kernel (or memset, cuBLAS call): a start event while profiling.
    pub fn before_launch(&self) {
        if profile::is_on() {
            let mut t = self.timing();
            if let Some(e) = t.record(self.stream)
                && let Some(old) = t.open.replace(e)
            {
                t.free.push(old);
            }
        }
    }

    /// After queuing it: counted, and its end event kept pending with its op's token.
    pub(crate) fn profile_launch(&self) {
        let tok = profile::launch(self.device());
        let mut t = self.timing();
        let Some(start) = t.open.take() else { return };
        self.pend(&mut t, start, tok);
        drop(t);
        self.profile_memory();
    }

    fn pend(&self, t: &mut Timing, start: sys::CUevent, tok: Option<LaunchToken>) {
        match (tok, t.record(self.stream)) {
            (Some(tok), Some(end)) => {
                t.pending.push((start, end, tok));
                if t.pending.len() >= HARVEST_AT {
                    t.harvest(false);
                }
            }
            (_, end) => t.free.extend(std::iter::once(start).chain(end)),
        }
    }

    /// Before a copy: a start event and the host clock while profiling.
    pub fn copy_start(&self) -> CopyMark {
        if !profile::is_on() {
            return CopyMark(None);
        }
        CopyMark(
            self.timing()
                .record(self.stream)
                .map(|e| (e, Instant::now())),
        )
    }

    /// After a copy of `bytes` was queued: its transfer row (host time now,
    /// device time at the next sync).
    pub fn copy_end(&self, mark: CopyMark, dir: Direction, bytes: u64) {
        let Some((start, t0)) = mark.0 else { return };
        let tok = profile::transfer(dir, self.device(), bytes, t0.elapsed(), None);
        let mut t = self.timing();
        self.pend(&mut t, start, tok);
    }

    /// Around the stream sync: its wait, then every pending device time.
    pub(crate) fn profile_sync(&self, waited: Option<Instant>, ok: bool) {
        let Some(t0) = waited else { return };
        profile::sync(self.device(), t0.elapsed());
        let mut t = self.timing();
        if ok {
            t.harvest(true);
        } else {
            let done: Vec<_> = t.pending.drain(..).flat_map(|(s, e, _)| [s, e]).collect();
            t.free.extend(done);
        }
        drop(t);
        self.profile_memory();
    }

    /// The pool's bytes in use (the profiler keeps the peak).
    fn profile_memory(&self) {
        let mut used: u64 = 0;
        let r = unsafe {
            result::mem_pool::get_attribute(
                self.pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
                &mut used as *mut u64 as *mut _,
            )
        };
        if r.is_ok() {
            profile::memory(self.device(), used);
        }
    }
}

impl Drop for Timing {
    fn drop(&mut self) {
        let open = self.open.take();
        let pending = self.pending.drain(..).flat_map(|(s, e, _)| [s, e]);
        for e in self.free.drain(..).chain(open).chain(pending) {
            let _ = unsafe { result::event::destroy(e) };
        }
    }
}
