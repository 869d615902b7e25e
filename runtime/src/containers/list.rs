//! `List`: a shared, mutable, ordered sequence of values (Python's list).

use super::lock;
use crate::nested::Items;
use crate::value::Value;
use std::sync::{Arc, Mutex};

/// The items are `Items`, so a deeply nested list drops without recursion
/// (`crate::nested`).
#[derive(Clone)]
pub struct List(Arc<Mutex<Arc<Items>>>);

impl List {
    pub fn new(items: Vec<Value>) -> List {
        List(Arc::new(Mutex::new(Arc::new(Items::from(items)))))
    }

    /// The contents now (later changes to the list do not show in it).
    pub fn snapshot(&self) -> Arc<Items> {
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
        let items: &mut Items = Arc::make_mut(&mut guard);
        f(items)
    }

    /// Replace the whole contents.
    pub fn set(&self, items: Vec<Value>) {
        *lock(&self.0) = Arc::new(Items::from(items));
    }

    /// The items, when nothing else holds this list or its contents (a list
    /// being dropped gives its items to `nested`'s work list).
    pub fn take_if_sole(self) -> Option<Items> {
        let cell = Arc::try_unwrap(self.0).ok()?;
        let items = cell.into_inner().unwrap_or_else(|p| p.into_inner());
        Arc::try_unwrap(items).ok()
    }

    /// Whether dropping this handle would free the list's items.
    pub fn is_sole(&self) -> bool {
        Arc::strong_count(&self.0) == 1 && Arc::strong_count(&lock(&self.0)) == 1
    }

    /// The same list (Python's `is`).
    pub fn ptr_eq(&self, other: &List) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// How many values hold this list (this handle included).
    pub fn holders(&self) -> usize {
        Arc::strong_count(&self.0)
    }

    /// An address naming this list while it lives (finds cycles when printing).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}
