//! The profiler (Theano's ProfileMode for gcalc): with `set profile = true`
//! every operation is recorded; `profile()` prints where the time went.
//!
//! # What is recorded
//! - every builtin call (`OpDef` called as a function: `sum`, `matmul`, `zeros`,
//!   `print`...), hooked in `Interp::call_def`;
//! - every fused elementwise tree that has at least one array operand, hooked
//!   where the interpreter calls `fuse::eval` (`eval_ew`, `x op= e`). Trees of
//!   scalars only (`k + 1` on ints) are interpreter work: no kernel, no record;
//! - each step of `grad`'s backward pass (`grad of matmul`, `grad of
//!   fused(...)`), nested in one `grad backward pass` record, sited at the
//!   statement that called the gradient function (`grad.rs`);
//! - what the backends report through the functions below: kernel device
//!   times, transfers, compiles, syncs, launches, memory.
//!
//! Each record has its op kind (`sum`, or `fused(exp(add(x0, s)))` for a
//! tree: arrays `x0, x1...` by position, scalars `s`), kernel (the same with
//! each leaf's dtype and shape, and the device), source site (`file:line` and
//! the statement), host time (exclusive of nested records), device time,
//! bytes allocated (outputs) and bytes moved (inputs + outputs).
//!
//! # Time accounting
//! wall = the time profiling was on since it began or was last reset;
//! time in ops = the sum of the records' exclusive host times (each instant
//! counted once); interpreter = wall - time in ops. Device times overlap the
//! host's (GPU work is asynchronous) and are reported beside it.
//!
//! # Entries
//! A record adds to one entry: its kernel (op kind, dtypes, shapes, device)
//! at its source site, found by the key `mix(site key, kernel key)` in a
//! 256-slot direct-mapped cache in front of a hash table. The three tables'
//! rows (kinds, kernels, sites) are sums of entries, made when a report is
//! (`State::kind_aggs` ...): a record updates one set of sums, and derived
//! device numbers (`Agg::refresh`) are computed then too.
//! Sampling (below) counts per entry.
//!
//! Host times of cheap entries are sampled (two clock reads, 50-90 ns
//! on the benchmark VM, would double the cost of a small builtin): every
//! call of an entry's first `SAMPLE_FIRST` and of an entry averaging at least
//! `HOST_EXACT_NS` is measured, else one in `SAMPLE_EVERY`, weighted like
//! device times (`Agg::host_weight`). The others take their entry's weighted
//! mean so far, stored in the record (`host_timed: false`), so the records
//! still sum to the time in ops. A sampled time stands for the calls it
//! was not measured on as at most twice the mean so far plus 500 ns
//! (`Agg::add_host_sample`): a preempted sample counts once, not 16 times.
//!
//! # API for the backends (the CUDA engineer)
//! The session's recorder is installed for the thread while it runs
//! (`Interp::run`), so these free functions need no interpreter; each is a
//! thread-local read and returns at once when profiling is off.
//! ```ignore
//! use gcalc_runtime::profile::{self, Direction};
//! profile::is_on() -> bool                       // skip creating CUDA events when false
//! profile::launch(device: Device) -> Option<profile::LaunchToken>
//!     // before each kernel launch: counts it; the token names the op being
//!     // recorded and says whether to time it (`tok.timed()`: sampling, below)
//! profile::kernel_time(tok: profile::LaunchToken, device_time: Duration)
//!     // at a sync point, for each timed launch: CUDA event elapsed time (added
//!     // to its op; ignored for an untimed token)
//! profile::kernel_times(&[(LaunchToken, Duration)])   // the same for many, one lock
//! profile::sync(device: Device, host_wait: Duration)   // each sync point
//! profile::transfer(dir: Direction, device: Device, bytes: u64,
//!                   host: Duration, device_time: Option<Duration>) -> Option<LaunchToken>
//!     // a copy; its own row ("transfer H2D"); host time is taken out of the enclosing op;
//!     // without device_time, kernel_time(token, ..) at the sync point gives it
//! profile::compile(what: &str, device: Device, host: Duration, cache_hit: bool)
//!     // an NVRTC compile (cache_hit = false) or a cubin loaded from the cache
//! profile::memory(device: Device, in_use_bytes: u64)   // bytes in use (or a high watermark); keeps the peak
//! ```
//! The CUDA backend calls these from `cuda/timing.rs` (CUDA event pairs around
//! each timed launch and every copy, read at `Gpu::sync`), `cuda/compile.rs`
//! (compiles and disk-cache loads) and the memory pool's high watermark at each sync.
//!
//! # Sampled kernel times
//! An event record costs the host about as much as a launch, so not every
//! launch is timed: per entry, all launches of its first `SAMPLE_FIRST`
//! (4) calls, then of the last call of each block of `SAMPLE_EVERY` (16),
//! which stands for its block (`recorder::sample_weight`; decided at a record's
//! first launch, so all launches of a call share it). Each entry sums
//! weight * time and the weights; its device time is that sum scaled by its
//! launches over the weights (`Agg::kernel_estimate_ns`): exact for equal
//! launch times, and launches not read yet are estimated too; a table row
//! adds its entries' estimates. An entry with no timed launch keeps its host
//! time. Records keep their measured (unscaled)
//! device time and say whether they were timed. Copies are always timed.
//!
//! Build with the `no-profile-hooks` feature to compile the interpreter's
//! hooks out (the overhead benchmark's baseline).

pub mod backend;
mod builtin;
mod clock;
mod grad;
mod hooks;
mod lock;
pub mod recorder;
mod records;
mod report;

pub(crate) use backend::device_key;
pub use backend::{
    LaunchToken, compile, is_on, kernel_time, kernel_times, launch, memory, sync, transfer,
};
pub use builtin::OPS;
pub use grad::{GradOf, GradRecord};
pub use lock::Guard;
pub use recorder::{Class, Direction, Record, State};
pub use report::{to_html, to_json, to_text};

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// False when the interpreter's hooks are compiled out (`no-profile-hooks`).
pub const HOOKS: bool = !cfg!(feature = "no-profile-hooks");

/// A session's recorder (cheap to clone: a shared handle).
#[derive(Clone)]
pub struct Profiler(Arc<Shared>);

struct Shared {
    /// Mirrors `State::is_on`, read without the lock by the backends' hooks.
    on: AtomicBool,
    /// Held by the thread running the session (`enter`): see `lock.rs`.
    state: lock::RunLock<State>,
}

impl Profiler {
    pub fn new(on: bool) -> Profiler {
        Profiler(Arc::new(Shared {
            on: AtomicBool::new(on),
            state: lock::RunLock::new(State::new(on)),
        }))
    }
    /// The recorder's state: no atomic operation on the thread running the
    /// session, else it waits for the run to end. One borrow at a time per
    /// thread (a second panics). A panic leaves plain data: no poisoning.
    #[inline]
    pub fn lock(&self) -> Guard<'_, State> {
        self.0.state.lock()
    }
    /// Switch recording on or off (`set profile = ...`).
    pub fn set_on(&self, on: bool) {
        let mut st = self.lock();
        st.set_on(on);
        self.0.on.store(on, Ordering::Relaxed);
    }
    /// Whether it records (one atomic load, no lock).
    #[inline]
    pub fn is_on(&self) -> bool {
        self.0.on.load(Ordering::Relaxed)
    }
}

thread_local! {
    pub(super) static CURRENT: RefCell<Option<Profiler>> = const { RefCell::new(None) };
}

/// Restores the thread's previous recorder and lets go of this one's lock
/// when dropped (on the thread that entered).
pub struct Entered {
    prev: Option<Profiler>,
    entered: Profiler,
    _not_send: PhantomData<*const ()>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let prev = self.prev.take();
        CURRENT.with(|c| *c.borrow_mut() = prev);
        self.entered.0.state.unhold();
    }
}

/// Make `p` the recorder the backends report to on this thread, holding its
/// lock until the guard is dropped (records then take no atomic operation).
/// An outermost run starts with no open records (a panic may have left some).
pub fn enter(p: &Profiler) -> Entered {
    p.0.state.hold();
    let prev = CURRENT.with(|c| c.borrow_mut().replace(p.clone()));
    if prev.is_none() {
        p.lock().clear_open();
    }
    Entered {
        prev,
        entered: p.clone(),
        _not_send: PhantomData,
    }
}

/// Run `f` on the thread's recorder when profiling is on.
pub(super) fn with_on<R>(f: impl FnOnce(&mut State) -> R) -> Option<R> {
    CURRENT.with(|c| {
        let c = c.borrow();
        let p = c.as_ref().filter(|p| p.is_on())?;
        let mut st = p.lock();
        if st.is_on() { Some(f(&mut st)) } else { None }
    })
}
