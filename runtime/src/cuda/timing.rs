//! What the profiler sees of a GPU: while `profile::is_on()`, a CUDA event
//! pair around each *sampled* launch and around every copy on the device's
//! stream, kept pending until a sync point reads their elapsed times
//! (`profile::kernel_times`); copies as transfer rows, syncs with the host's
//! wait, and the memory pool's high watermark (read at sync points, then reset).
//!
//! Sampling: a `cuEventRecord` costs about as much host time as a launch, so
//! timing every launch doubled a launch-bound loop. `profile::launch`, called
//! before the launch is queued, counts it and says whether to time it: all
//! launches of the first `SAMPLE_FIRST` calls of each profiler entry (a
//! kernel — fused expression, dtypes, shapes, device — at a source line), then
//! those of one call in `SAMPLE_EVERY`; the profiler scales each entry's measured times by its
//! launches over the launches they stand for (`profile::recorder::sample_weight`,
//! `Agg`). Copies are few and large: each keeps its pair.
//!
//! Cost per timed launch while profiling: two `cuEventRecord`s on events
//! taken from a per-device pool (created once, reused), one push onto the
//! pending list, one profiler lock; per untimed launch: the profiler lock and
//! two uncontended timing locks, no driver call. Nothing polls the pending pairs per launch: a sync
//! drains them all in one pass and hands their times to the profiler under
//! one lock; a loop that never syncs reads the finished pairs at the front of
//! the list (they finish in stream order) only when the list is full. With
//! profiling off each hook is one thread-local check and creates nothing.

use super::driver::Gpu;
use crate::profile::backend::{self as profile, Direction, LaunchToken};
use cudarc::driver::{result, sys};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Pending pairs at which the finished ones at the front are read (a loop that never syncs).
const MAX_PENDING: usize = 8192;

/// A launch's events and the op its device time belongs to.
struct Pending {
    start: sys::CUevent,
    end: sys::CUevent,
    tok: LaunchToken,
}

/// A GPU's event pool and the launches whose device time is not read yet.
#[derive(Default)]
pub struct Timing {
    free: Vec<sys::CUevent>,
    /// The start event of the timed launch being queued (`before_launch`) and its token.
    open: Option<(sys::CUevent, LaunchToken)>,
    /// In stream order: the front finishes first.
    pending: VecDeque<Pending>,
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

    /// Read the front pair's elapsed time into `out` and pool its events.
    fn read_front(&mut self, out: &mut Vec<(LaunchToken, Duration)>) {
        let Some(p) = self.pending.pop_front() else {
            return;
        };
        if let Ok(ms) = unsafe { result::event::elapsed(p.start, p.end) } {
            out.push((p.tok, Duration::from_secs_f64(ms.max(0.0) as f64 / 1e3)));
        }
        self.free.extend([p.start, p.end]);
    }

    /// After a good sync: every pending pair is done.
    fn drain_all(&mut self) -> Vec<(LaunchToken, Duration)> {
        let mut out = Vec::with_capacity(self.pending.len());
        while !self.pending.is_empty() {
            self.read_front(&mut out);
        }
        out
    }

    /// The list is full: read the finished pairs at its front; when none has
    /// finished, wait for the oldest (thousands of launches back).
    fn drain_finished(&mut self) -> Vec<(LaunchToken, Duration)> {
        let mut out = Vec::new();
        if let Some(p) = self.pending.front()
            && unsafe { result::event::query(p.end) }.is_err()
        {
            let _ = unsafe { result::event::synchronize(p.end) };
        }
        while let Some(p) = self.pending.front() {
            if unsafe { result::event::query(p.end) }.is_err() {
                break;
            }
            self.read_front(&mut out);
        }
        out
    }

    /// Forget the pending pairs (their work failed): events back to the pool.
    fn discard(&mut self) {
        for p in std::mem::take(&mut self.pending) {
            self.free.extend([p.start, p.end]);
        }
    }
}

impl Gpu {
    fn timing(&self) -> std::sync::MutexGuard<'_, Timing> {
        self.timing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Before queuing a kernel (or memset, cuBLAS call) while profiling:
    /// counted, and a start event when the profiler samples it.
    #[inline]
    pub fn before_launch(&self) {
        if profile::is_on() {
            self.record_start();
        }
    }

    #[cold]
    fn record_start(&self) {
        let tok = profile::launch(self.device()).filter(|t| t.timed());
        let mut t = self.timing();
        let old = match tok {
            Some(tok) => match t.record(self.stream) {
                Some(e) => t.open.replace((e, tok)),
                None => t.open.take(),
            },
            None => t.open.take(),
        };
        if let Some((e, _)) = old {
            t.free.push(e);
        }
    }

    /// After queuing it: a timed launch's end event, kept pending with its op's token.
    #[inline]
    pub(crate) fn profile_launch(&self) {
        if profile::is_on() {
            self.record_end();
        }
    }

    #[cold]
    fn record_end(&self) {
        let mut t = self.timing();
        let Some((start, tok)) = t.open.take() else {
            return;
        };
        self.pend(t, start, Some(tok));
    }

    /// Keep `start` and a new end event pending for `tok` (or pool them without one).
    fn pend(
        &self,
        mut t: std::sync::MutexGuard<'_, Timing>,
        start: sys::CUevent,
        tok: Option<LaunchToken>,
    ) {
        match (tok, t.record(self.stream)) {
            (Some(tok), Some(end)) => {
                t.pending.push_back(Pending { start, end, tok });
                if t.pending.len() >= MAX_PENDING {
                    let times = t.drain_finished();
                    drop(t);
                    profile::kernel_times(&times);
                    self.profile_memory();
                }
            }
            (_, end) => t.free.extend(std::iter::once(start).chain(end)),
        }
    }

    /// Before a copy: a start event and the host clock while profiling.
    pub fn copy_start(&self) -> CopyMark {
        // A copy to or from the host is work a loop's CUDA graph cannot hold.
        self.note_host_event();
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
        self.pend(self.timing(), start, tok);
    }

    /// Around the stream sync: its wait, then every pending device time.
    pub(crate) fn profile_sync(&self, waited: Option<Instant>, ok: bool) {
        let Some(t0) = waited else { return };
        profile::sync(self.device(), t0.elapsed());
        let mut t = self.timing();
        if ok {
            let times = t.drain_all();
            drop(t);
            profile::kernel_times(&times);
        } else {
            t.discard();
            drop(t);
        }
        self.profile_memory();
    }

    /// The pool's high watermark since the last read (the profiler keeps the
    /// peak), then reset: two driver calls a sync, none a launch.
    fn profile_memory(&self) {
        let mut high: u64 = 0;
        let attr = sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_HIGH;
        let r = unsafe {
            result::mem_pool::get_attribute(self.pool, attr, &mut high as *mut u64 as *mut _)
        };
        if r.is_ok() {
            profile::memory(self.device(), high);
            // Only zero is accepted: the watermark restarts from the bytes in use now.
            let mut zero: u64 = 0;
            let _ = unsafe {
                result::mem_pool::set_attribute(self.pool, attr, &mut zero as *mut u64 as *mut _)
            };
        }
    }
}

impl Drop for Timing {
    fn drop(&mut self) {
        let open = self.open.take().map(|(e, _)| e);
        let pending = self.pending.drain(..).flat_map(|p| [p.start, p.end]);
        for e in self.free.drain(..).chain(open).chain(pending) {
            let _ = unsafe { result::event::destroy(e) };
        }
    }
}
