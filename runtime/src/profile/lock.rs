//! The recorder's lock: a mutex that the thread running a session holds for
//! the whole run (`profile::enter`), so that the interpreter's records and the
//! backends' reports on that thread borrow the state with plain loads and
//! stores (no atomic read-modify-write; a record took four with a mutex).
//! Another thread waits for the run to end (nothing else records meanwhile:
//! the backends report through the running thread's recorder only).

use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::Duration;

pub(super) struct RunLock<T> {
    /// The thread that holds it (`thread_id`), 0 when free. Only the owner
    /// stores its own id or 0 here, so the owner reads it back exactly.
    owner: AtomicUsize,
    /// Runs holding it on the owner thread (nested `enter`s). Owner only.
    holds: AtomicU32,
    /// Whether a `Guard` exists (owner only): one borrow at a time.
    borrowed: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: `value` is only reached through a `Guard`, which exists on the thread
// that owns the lock (acquired with Acquire, released with Release), one at a time.
unsafe impl<T: Send> Sync for RunLock<T> {}
unsafe impl<T: Send> Send for RunLock<T> {}

/// A nonzero id of the calling thread, unique among live threads (the address
/// of a thread-local).
#[inline]
fn thread_id() -> usize {
    thread_local! { static ID: u8 = const { 0 }; }
    ID.with(|x| x as *const u8 as usize)
}

impl<T> RunLock<T> {
    pub(super) fn new(value: T) -> RunLock<T> {
        RunLock {
            owner: AtomicUsize::new(0),
            holds: AtomicU32::new(0),
            borrowed: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// Make this thread the owner unless it is already (waiting for it).
    #[inline]
    fn own(&self) {
        let me = thread_id();
        if self.owner.load(Ordering::Relaxed) == me {
            return;
        }
        let mut waits = 0u32;
        while self
            .owner
            .compare_exchange_weak(0, me, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            waits += 1;
            if waits < 64 {
                std::hint::spin_loop();
            } else if waits < 128 {
                std::thread::yield_now();
            } else {
                // Another thread's run: it holds the lock until the run ends.
                std::thread::sleep(Duration::from_micros(100));
            }
        }
    }

    /// Give the lock up when neither a run nor a guard keeps it.
    #[inline]
    fn release_if_unused(&self) {
        if self.holds.load(Ordering::Relaxed) == 0 && !self.borrowed.load(Ordering::Relaxed) {
            self.owner.store(0, Ordering::Release);
        }
    }

    /// Hold the lock on this thread until the matching `unhold` (a run).
    pub(super) fn hold(&self) {
        self.own();
        let h = self.holds.load(Ordering::Relaxed);
        self.holds.store(h + 1, Ordering::Relaxed);
    }

    /// End a `hold` (on the thread that took it).
    pub(super) fn unhold(&self) {
        debug_assert_eq!(self.owner.load(Ordering::Relaxed), thread_id());
        let h = self.holds.load(Ordering::Relaxed);
        self.holds.store(h.saturating_sub(1), Ordering::Relaxed);
        self.release_if_unused();
    }

    /// Borrow the value: plain loads and stores while this thread holds the
    /// lock, else wait for it. Panics if this thread has already borrowed it
    /// (a mutex would deadlock there).
    #[inline]
    pub(super) fn lock(&self) -> Guard<'_, T> {
        self.own();
        assert!(
            !self.borrowed.load(Ordering::Relaxed),
            "the profiler's state is already borrowed on this thread"
        );
        self.borrowed.store(true, Ordering::Relaxed);
        Guard {
            lock: self,
            _not_send: PhantomData,
        }
    }
}

/// The state, borrowed (released when dropped unless a run holds the lock).
pub struct Guard<'a, T> {
    lock: &'a RunLock<T>,
    _not_send: PhantomData<*const ()>,
}

impl<T> Deref for Guard<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: this thread owns the lock and this is its only borrow.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for Guard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as for `deref`; `&mut self` keeps it unique.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for Guard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.lock.borrowed.store(false, Ordering::Relaxed);
        self.lock.release_if_unused();
    }
}

#[cfg(test)]
mod tests {
    use super::RunLock;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn another_thread_waits_for_the_run_to_end() {
        let l = Arc::new(RunLock::new(0u32));
        l.hold();
        *l.lock() += 1; // the holder borrows without waiting
        let got = Arc::new(AtomicBool::new(false));
        let t = {
            let (l, got) = (l.clone(), got.clone());
            std::thread::spawn(move || {
                *l.lock() += 10;
                got.store(true, Ordering::SeqCst);
            })
        };
        std::thread::sleep(Duration::from_millis(20));
        assert!(!got.load(Ordering::SeqCst), "taken during the run");
        *l.lock() += 1;
        l.unhold();
        t.join().unwrap();
        assert!(got.load(Ordering::SeqCst));
        assert_eq!(*l.lock(), 12);
    }

    #[test]
    #[should_panic(expected = "already borrowed")]
    fn a_second_borrow_on_one_thread_panics() {
        let l = RunLock::new(0u32);
        let _a = l.lock();
        let _b = l.lock();
    }
}
