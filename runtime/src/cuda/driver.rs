//! Devices and their one context + one stream: lazy discovery (no CUDA call
//! until a GPU is first asked for), CUDA errors turned into gcalc errors,
//! sticky errors that poison a device, the ring of statements that queued work
//! since the last good sync, and the session flags the backend obeys.

use crate::error::{Error, ErrorKind, Result};
use crate::source::Source;
use cudarc::driver::{DriverError, result, sys};
use gcalc_lang::Span;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub(crate) static ALLOW_GC: AtomicBool = AtomicBool::new(true);
pub(crate) static LAUNCH_BLOCKING: AtomicBool = AtomicBool::new(false);
/// Set once any GPU is initialised (so CPU-only sessions skip all bookkeeping).
pub(crate) static GPU_USED: AtomicBool = AtomicBool::new(false);

/// One usable GPU: its primary context, the stream all gcalc work goes to,
/// its default memory pool, and caches of loaded kernels.
pub struct Gpu {
    pub ordinal: u32,
    pub dev: sys::CUdevice,
    pub ctx: sys::CUcontext,
    pub stream: sys::CUstream,
    pub pool: sys::CUmemoryPool,
    pub cc: (i32, i32),
    pub sms: u32,
    pub name: String,
    pub total_mem: usize,
    poisoned: Mutex<Option<String>>,
    is_poisoned: AtomicBool,
    /// Statements that queued work since the last good sync (text, newest last).
    ring: Mutex<Vec<Stmt>>,
    /// Loaded functions by kernel key.
    pub(crate) functions: Mutex<HashMap<u64, super::compile::Func>>,
    pub(crate) blas: Mutex<Option<super::blas::Handle>>,
    /// Launch counter (tests and the profiler read it).
    pub launches: AtomicU64,
    /// Work that a CUDA graph cannot hold, counted: syncs, copies to or from
    /// the host, pool allocations and frees (`graph.rs` asks whether a loop
    /// body did any).
    pub host_events: AtomicU64,
    /// Whether the start-up warm-up (`warm.rs`) ran or is running.
    warmed: AtomicBool,
    /// Freed small buffers kept for reuse (see `cache.rs`).
    pub(crate) cache: super::cache::BlockCache,
    /// The profiler's CUDA events (see timing.rs).
    pub(crate) timing: Mutex<super::timing::Timing>,
    /// Index values found out of bounds by kernels (see index/fault.rs).
    pub(crate) index_fault: OnceLock<super::index::fault::Fault>,
}

// SAFETY: the raw handles are only used with the context bound by `gpu()`, and
// CUDA driver handles may be used from any thread.
unsafe impl Send for Gpu {}
unsafe impl Sync for Gpu {}

struct Registry {
    count: usize,
    gpus: Vec<OnceLock<std::result::Result<Arc<Gpu>, Error>>>,
}

fn registry() -> &'static std::result::Result<Registry, Error> {
    static R: OnceLock<std::result::Result<Registry, Error>> = OnceLock::new();
    R.get_or_init(|| {
        // SAFETY: only probes whether the shared library can be opened.
        if !unsafe { sys::is_culib_present() } {
            return Err(super::no_gpu());
        }
        result::init().map_err(|e| {
            Error::device(format!("the CUDA driver could not start: {}", err_name(e)))
                .with_help("check `nvidia-smi`; use cpu() meanwhile")
        })?;
        let count = result::device::get_count()
            .map_err(|e| Error::device(format!("CUDA could not count devices: {}", err_name(e))))?
            as usize;
        Ok(Registry {
            count,
            gpus: (0..count).map(|_| OnceLock::new()).collect(),
        })
    })
}

/// Number of usable GPUs (loads the driver on first call; cached).
pub fn gpu_count() -> usize {
    registry().as_ref().map(|r| r.count).unwrap_or(0)
}

/// Why no GPU is usable, when none is.
pub fn discovery_error() -> Option<Error> {
    registry().as_ref().err().cloned()
}

/// GPU `i`, initialised on first use, its context bound to this thread.
pub fn gpu(i: u32) -> Result<Arc<Gpu>> {
    let reg = registry().as_ref().map_err(Clone::clone)?;
    let slot = reg.gpus.get(i as usize).ok_or_else(|| {
        Error::device(format!(
            "gpu({i}) does not exist: this machine has {} GPU{}",
            reg.count,
            if reg.count == 1 { "" } else { "s" }
        ))
    })?;
    let g = slot
        .get_or_init(|| init(i).map(Arc::new))
        .as_ref()
        .map_err(Clone::clone)?;
    g.bind()?;
    // The first caller warms it (the warm-up's own threads, which call
    // `gpu` too, find the flag set and go on).
    if !g.warmed.swap(true, Ordering::Relaxed) {
        super::warm::on_open(g);
    }
    Ok(g.clone())
}

/// Whether GPU `i` was started and then poisoned (cheap; never starts one).
pub fn is_poisoned(i: u32) -> bool {
    gpu_if_started(i).is_some_and(|g| g.is_poisoned())
}

/// GPU `i` if it was already initialised (never starts one).
pub fn gpu_if_started(i: u32) -> Option<Arc<Gpu>> {
    let reg = registry().as_ref().ok()?;
    reg.gpus.get(i as usize)?.get()?.as_ref().ok().cloned()
}

fn init(i: u32) -> Result<Gpu> {
    let what = |e: DriverError| {
        Error::device(format!(
            "gpu({i}) could not be initialised: {}",
            err_name(e)
        ))
    };
    let dev = result::device::get(i as i32).map_err(what)?;
    // SAFETY: dev is a valid device handle from the driver.
    let ctx = unsafe { result::primary_ctx::retain(dev) }.map_err(what)?;
    unsafe { result::ctx::set_current(ctx) }.map_err(what)?;
    let stream = result::stream::create(result::stream::StreamKind::NonBlocking).map_err(what)?;
    let attr = |a| unsafe { result::device::get_attribute(dev, a) };
    use sys::CUdevice_attribute_enum as A;
    let cc = (
        attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR).map_err(what)?,
        attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR).map_err(what)?,
    );
    let sms = attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).map_err(what)? as u32;
    let pool = unsafe { result::device::get_default_mem_pool(dev) }.map_err(what)?;
    let g = Gpu {
        ordinal: i,
        dev,
        ctx,
        stream,
        pool,
        cc,
        sms,
        name: result::device::get_name(dev).unwrap_or_else(|_| "NVIDIA GPU".into()),
        total_mem: unsafe { result::device::total_mem(dev) }.unwrap_or(0),
        poisoned: Mutex::new(None),
        is_poisoned: AtomicBool::new(false),
        ring: Mutex::new(Vec::new()),
        functions: Mutex::new(HashMap::new()),
        blas: Mutex::new(None),
        launches: AtomicU64::new(0),
        host_events: AtomicU64::new(0),
        warmed: AtomicBool::new(false),
        cache: Default::default(),
        timing: Mutex::default(),
        index_fault: OnceLock::new(),
    };
    g.set_release_threshold(ALLOW_GC.load(Ordering::Relaxed))?;
    GPU_USED.store(true, Ordering::Relaxed);
    Ok(g)
}

impl Gpu {
    pub fn device(&self) -> crate::Device {
        crate::Device::Gpu(self.ordinal)
    }

    /// Make this GPU's context current on the calling thread; a poisoned GPU is an error.
    pub fn bind(&self) -> Result<()> {
        if self.is_poisoned.load(Ordering::Relaxed)
            && let Some(why) = self.poison_reason()
        {
            return Err(poisoned_error(self.ordinal, &why));
        }
        if BOUND.with(|b| b.get()) == self.ctx as usize {
            return Ok(());
        }
        let cur = result::ctx::get_current().map_err(|e| self.err(e, "binding the context"))?;
        if cur != Some(self.ctx) {
            unsafe { result::ctx::set_current(self.ctx) }
                .map_err(|e| self.err(e, "binding the context"))?;
        }
        BOUND.with(|b| b.set(self.ctx as usize));
        Ok(())
    }

    /// Make this GPU's context current even when this thread's note says it
    /// is (after a library such as NCCL switched devices behind gcalc's back).
    pub fn rebind(&self) {
        BOUND.with(|b| b.set(0));
        let _ = self.bind();
    }

    pub fn poison_reason(&self) -> Option<String> {
        self.poisoned.lock().map(|p| p.clone()).unwrap_or(None)
    }
    pub fn is_poisoned(&self) -> bool {
        self.is_poisoned.load(Ordering::Relaxed)
    }

    /// allow_gc=true: the pool gives memory back at each sync (threshold 0);
    /// false: freed memory stays pooled (threshold u64::MAX).
    pub fn set_release_threshold(&self, allow_gc: bool) -> Result<()> {
        let mut v: u64 = if allow_gc { 0 } else { u64::MAX };
        unsafe {
            result::mem_pool::set_attribute(
                self.pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &mut v as *mut u64 as *mut _,
            )
        }
        .map_err(|e| self.err(e, "setting the pool's release threshold"))
    }

    /// A CUDA failure as a gcalc error; sticky failures poison the device.
    pub fn err(&self, e: DriverError, what: &str) -> Error {
        let name = err_name(e);
        if is_sticky(e.0) {
            let why = format!("{name} while {what}");
            if let Ok(mut p) = self.poisoned.lock() {
                p.get_or_insert(why.clone());
            }
            self.is_poisoned.store(true, Ordering::Relaxed);
            let mut err = poisoned_error(self.ordinal, &why);
            let ring = self.take_ring();
            if !ring.is_empty() {
                err = err.with_note(format!(
                    "the failing work was queued by: {}",
                    ring.join("; ")
                ));
            }
            return err;
        }
        if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            return Error::new(
                ErrorKind::OutOfMemory,
                format!("{} is out of memory ({what})", self.device()),
            );
        }
        Error::device(format!(
            "CUDA error {name} on {} while {what}",
            self.device()
        ))
    }

    /// Count work a CUDA graph cannot hold (see `host_events`).
    #[inline]
    pub fn note_host_event(&self) {
        self.host_events.fetch_add(1, Ordering::Relaxed);
    }

    /// Record the current statement as one that queued work on this GPU.
    pub fn note_launch(&self) {
        self.launches.fetch_add(1, Ordering::Relaxed);
        self.note_launch_text();
    }

    /// Record the current statement in the ring of those that queued work.
    pub fn note_launch_text(&self) {
        let Some(text) = CURRENT.with(|c| c.borrow().clone()) else {
            return;
        };
        if let Ok(mut r) = self.ring.lock()
            && !r
                .last()
                .is_some_and(|l| Arc::ptr_eq(&l.0, &text.0) && l.1 == text.1)
        {
            if r.len() >= 8 {
                r.remove(0);
            }
            r.push(text);
        }
    }

    fn take_ring(&self) -> Vec<String> {
        self.ring
            .lock()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default()
            .iter()
            .filter_map(stmt_text)
            .collect()
    }

    /// Wait for the stream; a failure of queued work names the statements that queued it.
    pub fn sync(&self) -> Result<()> {
        self.bind()?;
        self.note_host_event();
        let t0 = crate::profile::backend::is_on().then(std::time::Instant::now);
        let r = unsafe { result::stream::synchronize(self.stream) };
        self.profile_sync(t0, r.is_ok());
        match r {
            Ok(()) => {
                // An index a kernel found out of bounds is this sync's error.
                match self.index_fault.get().and_then(|f| f.take(self)) {
                    Some(e) => {
                        let ring = self.take_ring();
                        Err(match ring.is_empty() {
                            true => e,
                            false => e.with_note(format!(
                                "the failing work was queued by: {}",
                                ring.join("; ")
                            )),
                        })
                    }
                    None => {
                        if let Ok(mut r) = self.ring.lock() {
                            r.clear();
                        }
                        Ok(())
                    }
                }
            }
            Err(e) => {
                let ring_text = self
                    .ring
                    .lock()
                    .map(|r| {
                        r.iter()
                            .filter_map(stmt_text)
                            .collect::<Vec<_>>()
                            .join("; ")
                    })
                    .unwrap_or_default();
                let mut err = self.err(e, "running queued work");
                if !ring_text.is_empty() && !err.notes.iter().any(|n| n.contains("queued by")) {
                    err = err.with_note(format!("the failing work was queued by: {ring_text}"));
                }
                Err(err)
            }
        }
    }

    /// After a launch: with launch_blocking, wait and check at once.
    pub fn after_launch(&self) -> Result<()> {
        self.note_launch();
        self.profile_launch();
        if LAUNCH_BLOCKING.load(Ordering::Relaxed) {
            self.sync()?;
        }
        Ok(())
    }
}

/// Errors that leave the context unusable for the rest of the process.
fn is_sticky(r: sys::CUresult) -> bool {
    use sys::CUresult as R;
    matches!(
        r,
        R::CUDA_ERROR_ILLEGAL_ADDRESS
            | R::CUDA_ERROR_MISALIGNED_ADDRESS
            | R::CUDA_ERROR_ILLEGAL_INSTRUCTION
            | R::CUDA_ERROR_HARDWARE_STACK_ERROR
            | R::CUDA_ERROR_INVALID_ADDRESS_SPACE
            | R::CUDA_ERROR_INVALID_PC
            | R::CUDA_ERROR_LAUNCH_FAILED
            | R::CUDA_ERROR_ASSERT
            | R::CUDA_ERROR_LAUNCH_TIMEOUT
            | R::CUDA_ERROR_ECC_UNCORRECTABLE
    )
}

pub fn poisoned_error(i: u32, why: &str) -> Error {
    Error::device(format!(
        "gpu({i}) is unusable for the rest of this process: a kernel failed ({why}), which poisons the CUDA context"
    ))
    .with_help(
        "your CPU variables are kept; GPU arrays are lost. Go on with cpu(), or save what you need and restart gcalc to use the GPU again",
    )
}

pub fn err_name(e: DriverError) -> String {
    match e.error_name() {
        Ok(n) => n.to_string_lossy().into_owned(),
        Err(_) => format!("{:?}", e.0),
    }
}

/// A statement: its source and span (turned into text only for messages).
type Stmt = (Arc<Source>, Span);

thread_local! {
    /// The context this thread last bound (only gcalc binds contexts here).
    static BOUND: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static CURRENT: RefCell<Option<Stmt>> = const { RefCell::new(None) };
}

/// The interpreter says which statement runs now (cheap; skipped until a GPU is used).
pub fn set_statement(src: &Arc<Source>, span: Span) {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        match &mut *c {
            Some((s, sp)) if Arc::ptr_eq(s, src) => *sp = span,
            other => *other = Some((src.clone(), span)),
        }
    });
}

/// `name:line: text` of the statement running now.
pub fn current_statement() -> Option<String> {
    CURRENT.with(|c| c.borrow().as_ref().and_then(stmt_text))
}

fn stmt_text(s: &Stmt) -> Option<String> {
    let (src, span) = s;
    let (a, b) = (span.start as usize, span.end as usize);
    let text = src.text.get(a..b)?;
    let line = src.text.get(..a)?.matches('\n').count() + 1;
    let first = text.lines().next().unwrap_or("").trim();
    Some(format!("{}:{line}: `{first}`", src.name))
}
