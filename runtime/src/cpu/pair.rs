//! A second core on call within a microsecond, for work too short for
//! rayon's wake-up: a helper thread that spins for a while after each job
//! before it sleeps. Made for the matrix-vector products of a training
//! step (a 400 x 784 float32 product takes about 15 us on one core of the
//! development VM; waking a sleeping rayon worker costs about as much, while
//! a spinning helper answers within a microsecond and each core then reads
//! its half of the matrix from its own L2). `join(a, b)` runs `a` here and
//! `b` on the helper; if the helper is busy, or has not started `b` by the
//! time `a` is done, `b` runs here too, so a join is never slower than
//! running both in turn by more than a few atomic operations.

use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::*};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// How long the helper keeps spinning after its last job before it sleeps:
/// longer than the gap between the products of a training step (tens of
/// microseconds), short enough that an idle session leaves the core alone.
const SPIN: Duration = Duration::from_micros(300);

const IDLE: u8 = 0;
const SETTING: u8 = 1;
const POSTED: u8 = 2;
const RUNNING: u8 = 3;
const DONE: u8 = 4;

type Job = *mut (dyn FnMut() + Send);

struct Helper {
    state: AtomicU8,
    sleeping: AtomicBool,
    panicked: AtomicBool,
    /// The posted job; written by the poster between claiming the helper
    /// (IDLE -> SETTING) and posting it, read by whoever runs it after the
    /// POSTED -> RUNNING (helper) or POSTED -> IDLE (poster) exchange.
    job: UnsafeCell<Option<Job>>,
    thread: OnceLock<Thread>,
}

// SAFETY: `job` is only touched by the one thread that holds the state's
// current step (see the field's doc); everything else is atomic.
unsafe impl Sync for Helper {}
unsafe impl Send for Helper {}

static HELPER: OnceLock<Option<&'static Helper>> = OnceLock::new();

/// The helper, started on first use; none on a machine with one core (or
/// where a thread cannot be spawned).
fn helper() -> Option<&'static Helper> {
    *HELPER.get_or_init(|| {
        if thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
            return None;
        }
        let h: &'static Helper = Box::leak(Box::new(Helper {
            state: AtomicU8::new(IDLE),
            sleeping: AtomicBool::new(false),
            panicked: AtomicBool::new(false),
            job: UnsafeCell::new(None),
            thread: OnceLock::new(),
        }));
        let spawned = thread::Builder::new()
            .name("gcalc-pair".into())
            .spawn(move || serve(h))
            .ok()?;
        let _ = h.thread.set(spawned.thread().clone());
        Some(h)
    })
}

/// The helper's loop: run what is posted; spin `SPIN` after each job, then sleep.
fn serve(h: &'static Helper) {
    loop {
        let mut until = Instant::now() + SPIN;
        loop {
            if h.state.load(Acquire) == POSTED
                && h.state
                    .compare_exchange(POSTED, RUNNING, Acquire, Relaxed)
                    .is_ok()
            {
                // SAFETY: RUNNING gives this thread the job; the poster waits
                // for DONE before the closure it points to goes away.
                if let Some(job) = unsafe { (*h.job.get()).take() } {
                    let f = unsafe { &mut *job };
                    if catch_unwind(AssertUnwindSafe(f)).is_err() {
                        h.panicked.store(true, Relaxed);
                    }
                }
                h.state.store(DONE, Release);
                until = Instant::now() + SPIN;
            }
            if Instant::now() > until {
                break;
            }
            for _ in 0..64 {
                std::hint::spin_loop();
            }
            // A thread that needs this core (a rayon worker of the next
            // parallel op) gets it: spinning only fills time nobody wants.
            thread::yield_now();
        }
        h.sleeping.store(true, SeqCst);
        if h.state.load(SeqCst) != POSTED {
            thread::park();
        }
        h.sleeping.store(false, SeqCst);
    }
}

/// Run `a` on this thread and `b` on the helper core when it is free (else
/// here, after `a`); returns when both are done. A panic in either is
/// resumed here.
pub fn join(a: impl FnOnce(), b: impl FnOnce() + Send) {
    let Some(h) = helper() else {
        a();
        return b();
    };
    if h.state
        .compare_exchange(IDLE, SETTING, Acquire, Relaxed)
        .is_err()
    {
        // Another thread's join holds the helper.
        a();
        return b();
    }
    let mut b = Some(b);
    let mut run_b = || {
        if let Some(b) = b.take() {
            b()
        }
    };
    let job: &mut (dyn FnMut() + Send) = &mut run_b;
    // SAFETY: the job's lifetime is erased for the helper, which runs it
    // only between POSTED and DONE; this function does not return (nor
    // unwind: `a` runs under catch_unwind) before the job is DONE or taken
    // back, so the closure outlives every use.
    let job: Job = unsafe { std::mem::transmute::<&mut (dyn FnMut() + Send), Job>(job) };
    unsafe { *h.job.get() = Some(job) };
    h.state.store(POSTED, SeqCst);
    if h.sleeping.load(SeqCst)
        && let Some(t) = h.thread.get()
    {
        t.unpark();
    }
    let a_result = catch_unwind(AssertUnwindSafe(a));
    if h.state
        .compare_exchange(POSTED, SETTING, Acquire, Relaxed)
        .is_ok()
    {
        // Not started: take it back and run it here.
        unsafe { *h.job.get() = None };
        h.state.store(IDLE, Release);
        run_b();
    } else {
        while h.state.load(Acquire) != DONE {
            std::hint::spin_loop();
        }
        let panicked = h.panicked.swap(false, Relaxed);
        h.state.store(IDLE, Release);
        if panicked {
            resume_unwind(Box::new("a job on the pair helper panicked"));
        }
    }
    if let Err(p) = a_result {
        resume_unwind(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn both_halves_run_every_time() {
        let mut left = vec![0u64; 1000];
        let mut right = vec![0u64; 1000];
        for round in 0..2000u64 {
            join(
                || left.iter_mut().for_each(|v| *v += round),
                || right.iter_mut().for_each(|v| *v += 2 * round),
            );
        }
        let sum: u64 = (0..2000).sum();
        assert!(left.iter().all(|&v| v == sum));
        assert!(right.iter().all(|&v| v == 2 * sum));
    }

    #[test]
    fn joins_from_many_threads_and_after_sleep() {
        let count = AtomicUsize::new(0);
        thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..500 {
                        join(
                            || {
                                count.fetch_add(1, Relaxed);
                            },
                            || {
                                count.fetch_add(1, Relaxed);
                            },
                        );
                    }
                });
            }
        });
        assert_eq!(count.load(Relaxed), 4000);
        // The helper sleeps after SPIN; a join then still completes.
        thread::sleep(SPIN * 3);
        let mut hit = false;
        join(|| {}, || hit = true);
        assert!(hit);
    }

    #[test]
    fn a_panic_in_either_half_reaches_the_caller_and_the_helper_survives() {
        let r = catch_unwind(|| join(|| {}, || panic!("in b")));
        assert!(r.is_err());
        let r = catch_unwind(|| join(|| panic!("in a"), || {}));
        assert!(r.is_err());
        let mut hit = false;
        join(|| {}, || hit = true);
        assert!(hit);
    }
}
