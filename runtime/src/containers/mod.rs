//! Lists and dicts: shared mutable values, as in Python. Two names bound to
//! one list see each other's `append`; `is` compares identity, `==` contents.
//!
//! Each holds its contents behind a lock as an `Arc` snapshot: a read takes a
//! snapshot (one reference count, no copy), a write changes the contents in
//! place when no snapshot is alive and copies them once otherwise, so code
//! that walks a snapshot never sees it change under it and no lock is held
//! while other code runs. A list that contains itself is printed as `[...]`
//! (as Python does); such a cycle is never freed (gcalc has no cycle collector).

pub mod array_methods;
mod dict;
mod list;
pub mod methods;
pub mod set;
pub mod str_methods;

pub use dict::{Dict, HashKey};
pub use list::List;

use std::sync::{Mutex, MutexGuard};

/// Lock `m`, going on after a panic elsewhere poisoned it (the contents are
/// a snapshot pointer, always valid).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
