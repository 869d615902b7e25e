//! The session's interrupt flag as long CPU loops see it: the interpreter
//! installs its flag on its thread when a run starts (`install`); a loop
//! takes a `Stop` on that thread before it starts (`Stop::current`), shares
//! it with its worker threads, and looks at it between chunks, so Ctrl-C or
//! a Jupyter interrupt stops one long op (a sum over a huge broadcast view,
//! a big matmul or copy) instead of waiting for it to end.

use crate::error::{Error, Result};
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// The flag of the interpreter running on this thread.
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Make `flag` the interrupt flag of loops started on this thread.
pub fn install(flag: &Arc<AtomicBool>) {
    FLAG.with(|f| {
        let mut f = f.borrow_mut();
        if !f.as_ref().is_some_and(|cur| Arc::ptr_eq(cur, flag)) {
            *f = Some(flag.clone());
        }
    });
}

/// A loop's view of the interrupt flag (never set when no interpreter runs
/// on the thread that took it).
#[derive(Clone, Default)]
pub struct Stop(Option<Arc<AtomicBool>>);

impl Stop {
    /// The flag of the interpreter on this thread.
    pub fn current() -> Stop {
        Stop(FLAG.with(|f| f.borrow().clone()))
    }

    /// Whether an interrupt was requested (from any thread; the flag stays
    /// set, so every worker of the loop sees it and the statement ends).
    #[inline]
    pub fn requested(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The interrupted error when an interrupt was requested.
    #[inline]
    pub fn check(&self) -> Result<()> {
        if self.requested() {
            Err(Error::interrupted())
        } else {
            Ok(())
        }
    }

    /// `it`, ending early once an interrupt is requested (looked at every
    /// few thousand items): a loop over it stops soon; its caller then
    /// returns `check()`'s error instead of the partial result.
    pub fn until<I: Iterator>(&self, it: I) -> Until<I> {
        // The first item looks too: many short lanes each stop at once.
        Until {
            inner: it,
            stop: self.clone(),
            left: 0,
        }
    }
}

/// Items between two looks at the flag in `Until`.
const EVERY: u32 = 1 << 14;

/// An iterator that ends when an interrupt is requested (`Stop::until`).
#[derive(Clone)]
pub struct Until<I> {
    inner: I,
    stop: Stop,
    left: u32,
}

impl<I: Iterator> Iterator for Until<I> {
    type Item = I::Item;
    #[inline]
    fn next(&mut self) -> Option<I::Item> {
        if self.left == 0 {
            if self.stop.requested() {
                return None;
            }
            self.left = EVERY;
        }
        self.left -= 1;
        self.inner.next()
    }
}
