//! `List`: a shared, mutable, ordered sequence of values (Python's list).

use super::lock;
use crate::value::Value;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct List(Arc<Mutex<Arc<Vec<Value>>>>);

impl List {
    pub fn new(items: Vec<Value>) -> List {
        List(Arc::new(Mutex::new(Arc::new(items))))
    }

    /// The contents now (later changes to the list do not show in it).
    pub fn snapshot(&self) -> Arc<Vec<Value>> {
        lock(&self.0).clone()
    }

    pub fn len(&self) -> usize {
        lock(&self.0).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Item `i` (0-based, not negative), if there is one.
    pub fn get(&self, i: usize) -> Option<Value> {
        lock(&self.0).get(i).cloned()
    }

    /// Change the contents in place (copied first if a snapshot is alive).
    /// `f` must not touch this list.
    pub fn modify<R>(&self, f: impl FnOnce(&mut Vec<Value>) -> R) -> R {
        let mut guard = lock(&self.0);
        f(Arc::make_mut(&mut guard))
    }

    /// Replace the whole contents.
    pub fn set(&self, items: Vec<Value>) {
        *lock(&self.0) = Arc::new(items);
    }

    /// The same list (Python's `is`).
    pub fn ptr_eq(&self, other: &List) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// An address naming this list while it lives (finds cycles when printing).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}
