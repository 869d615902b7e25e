//! Values nested without bound (`x = []; for i in range(1000000) { x = [x] }`):
//! the items of tuples and lists (`Items`) and the entries of dicts are
//! dropped with a work list, not by recursion, and printing and equality
//! walk nested values with an explicit stack, so no depth of nesting
//! overflows the interpreter's stack. Lists and dicts are shared and
//! mutable, so they can hold themselves: printing shows `[...]` / `{...}`
//! where a container would repeat, and equality meets each pair of
//! containers once.

use crate::fxhash::FxHasher;
use crate::value::Value;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// The items of a tuple or list. Dropping it drops nested tuples, lists and
/// dicts held nowhere else one after another instead of inside each other.
/// A tuple may name its items (NumPy 2's result tuples: `eigh(a).eigenvalues`).
#[derive(Clone, Default)]
pub struct Items(Vec<Value>, Option<&'static [&'static str]>);

impl Items {
    /// The items as a vector (taken out; what is left drops as nothing).
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
    }

    /// Items with a name each (`names` as long as `v`).
    pub fn named(v: Vec<Value>, names: &'static [&'static str]) -> Items {
        debug_assert_eq!(v.len(), names.len());
        Items(v, Some(names))
    }

    /// The items' names, for a named tuple.
    pub fn names(&self) -> Option<&'static [&'static str]> {
        self.1.filter(|n| n.len() == self.0.len())
    }

    /// The item called `name` in a named tuple.
    pub fn by_name(&self, name: &str) -> Option<&Value> {
        let k = self.names()?.iter().position(|n| *n == name)?;
        self.0.get(k)
    }
}

impl From<Vec<Value>> for Items {
    fn from(v: Vec<Value>) -> Items {
        Items(v, None)
    }
}

impl FromIterator<Value> for Items {
    fn from_iter<I: IntoIterator<Item = Value>>(it: I) -> Items {
        Items(it.into_iter().collect(), None)
    }
}

impl std::ops::Deref for Items {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl std::ops::DerefMut for Items {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl Drop for Items {
    fn drop(&mut self) {
        // Fast path: nothing nested here is ours alone to drop.
        if !self.0.iter().any(owned_container) {
            return;
        }
        drop_all(std::mem::take(&mut self.0));
    }
}

/// Drop `work`, each tuple, list or dict held nowhere else giving its
/// contents to the work list instead of dropping them inside itself.
pub fn drop_all(mut work: Vec<Value>) {
    while let Some(v) = work.pop() {
        match v {
            Value::Tuple(items) => {
                if let Ok(mut inner) = Arc::try_unwrap(items) {
                    // Its items join the work list; `inner` drops empty.
                    work.append(&mut inner.0);
                }
            }
            Value::List(l) => {
                if let Some(mut inner) = l.take_if_sole() {
                    work.append(&mut inner.0);
                }
            }
            Value::Dict(d) => {
                if let Some(entries) = d.take_if_sole() {
                    work.extend(entries);
                }
            }
            _ => {}
        }
    }
}

/// A tuple, list or dict that dropping `v` would free.
pub fn owned_container(v: &Value) -> bool {
    match v {
        Value::Tuple(t) => Arc::strong_count(t) == 1,
        Value::List(l) => l.is_sole(),
        Value::Dict(d) => d.is_sole(),
        _ => false,
    }
}

/// Addresses of containers (Fx-hashed: a walk may visit millions).
type Addrs<T> = HashSet<T, BuildHasherDefault<FxHasher>>;

/// Whether a list or dict reached by a walk may be reached again: only one
/// held by more than its parent and the walk's own copy (2 holders) can be:
/// every cycle reachable from outside it has a node held from outside and
/// from inside. Walks track only those, so a million nested lists, each
/// held once, cost no hashing.
fn may_recur(holders: usize) -> bool {
    holders > 2
}

/// What is left to print of a tuple, list or dict.
enum Piece {
    Value(Value),
    Text(&'static str),
    /// The end of the list or dict at this address (it may appear again).
    Close(usize),
}

/// The text of `v` with tuples, lists and dicts walked on an explicit
/// stack; `leaf(x)` gives the text of anything else inside them.
pub fn repr_nested(v: &Value, leaf: impl Fn(&Value) -> String) -> String {
    let mut out = String::new();
    let mut open: Addrs<usize> = Addrs::default();
    let mut stack = vec![Piece::Value(v.clone())];
    while let Some(p) = stack.pop() {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Close(addr) => {
                open.remove(&addr);
            }
            Piece::Value(Value::List(l)) => {
                if may_recur(l.holders()) && !open.insert(l.addr()) {
                    out.push_str("[...]");
                    continue;
                }
                out.push('[');
                stack.push(Piece::Close(l.addr()));
                stack.push(Piece::Text("]"));
                push_items(&mut stack, &l.snapshot());
            }
            Piece::Value(Value::Dict(d)) => {
                if may_recur(d.holders()) && !open.insert(d.addr()) {
                    out.push_str("{...}");
                    continue;
                }
                out.push('{');
                stack.push(Piece::Close(d.addr()));
                stack.push(Piece::Text("}"));
                let entries = d.snapshot();
                for (i, (k, v)) in entries.values().enumerate().rev() {
                    stack.push(Piece::Value(v.clone()));
                    stack.push(Piece::Text(": "));
                    stack.push(Piece::Value(k.clone()));
                    if i > 0 {
                        stack.push(Piece::Text(", "));
                    }
                }
            }
            Piece::Value(Value::Tuple(items)) => {
                out.push('(');
                stack.push(Piece::Text(")"));
                if items.len() == 1 {
                    stack.push(Piece::Text(","));
                }
                push_items(&mut stack, &items);
            }
            Piece::Value(other) => out.push_str(&leaf(&other)),
        }
    }
    out
}

/// The items, last first, with ", " between them (popped in order).
fn push_items(stack: &mut Vec<Piece>, items: &[Value]) {
    for (i, it) in items.iter().enumerate().rev() {
        stack.push(Piece::Value(it.clone()));
        if i > 0 {
            stack.push(Piece::Text(", "));
        }
    }
}

/// Structural equality with tuples, lists and dicts walked on an explicit
/// stack (a tuple never equals a list, as in Python; dicts ignore order);
/// `leaf(a, b)` compares the rest. Each pair of lists or dicts is compared
/// once, so containers that hold themselves compare without end.
pub fn equal_nested(a: &Value, b: &Value, leaf: impl Fn(&Value, &Value) -> bool) -> bool {
    let mut stack = vec![(a.clone(), b.clone())];
    let mut seen: Addrs<(usize, usize)> = Addrs::default();
    while let Some(pair) = stack.pop() {
        match pair {
            (Value::Tuple(x), Value::Tuple(y)) => {
                if !Arc::ptr_eq(&x, &y) && !push_pairs(&mut stack, &x, &y) {
                    return false;
                }
            }
            (Value::List(x), Value::List(y)) => {
                let met = (x.addr(), x.holders(), y.addr(), y.holders());
                if x.ptr_eq(&y) || !first_meeting(&mut seen, met) {
                    continue;
                }
                if !push_pairs(&mut stack, &x.snapshot(), &y.snapshot()) {
                    return false;
                }
            }
            (Value::Dict(x), Value::Dict(y)) => {
                let met = (x.addr(), x.holders(), y.addr(), y.holders());
                if x.ptr_eq(&y) || !first_meeting(&mut seen, met) {
                    continue;
                }
                let (x, y) = (x.snapshot(), y.snapshot());
                if x.len() != y.len() {
                    return false;
                }
                for (k, (_, v)) in x.iter() {
                    match y.get(k) {
                        Some((_, w)) => stack.push((v.clone(), w.clone())),
                        None => return false,
                    }
                }
            }
            (Value::Tuple(_) | Value::List(_) | Value::Dict(_), _)
            | (_, Value::Tuple(_) | Value::List(_) | Value::Dict(_)) => {
                return false;
            }
            (p, q) => {
                if !leaf(&p, &q) {
                    return false;
                }
            }
        }
    }
    true
}

/// Pair the items of two sequences on the stack; false when their lengths differ.
fn push_pairs(stack: &mut Vec<(Value, Value)>, x: &[Value], y: &[Value]) -> bool {
    if x.len() != y.len() {
        return false;
    }
    stack.extend(x.iter().cloned().zip(y.iter().cloned()).rev());
    true
}

/// Whether two containers (address and holders of each) meet for the first
/// time in this comparison; pairs that cannot recur are not recorded.
fn first_meeting(seen: &mut Addrs<(usize, usize)>, met: (usize, usize, usize, usize)) -> bool {
    let (xa, xh, ya, yh) = met;
    !(may_recur(xh) || may_recur(yh)) || seen.insert((xa, ya))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(n: usize) -> Value {
        let mut x = Value::list(vec![]);
        for _ in 0..n {
            x = Value::list(vec![x]);
        }
        x
    }

    /// Run on a small stack, so recursion at any of these depths would overflow.
    fn on_small_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn a_million_levels_print_compare_and_drop_without_recursion() {
        on_small_stack(|| {
            let n = 1_000_000;
            let (x, y) = (deep(n), deep(n));
            let text = repr_nested(&x, |_| unreachable!());
            assert_eq!(text.len(), 2 * n + 2);
            assert!(text.starts_with("[[[") && text.ends_with("]]]"));
            assert!(equal_nested(&x, &y, |_, _| true));
            assert!(!equal_nested(&x, &deep(n - 1), |_, _| true));
            drop(x);
            drop(y);
            let t = (0..n).fold(Value::tuple(vec![]), |t, i| {
                Value::tuple(vec![Value::Int(i as i64), t])
            });
            drop(t);
        });
    }

    #[test]
    fn containers_that_hold_themselves_print_compare_and_drop() {
        on_small_stack(|| {
            let a = Value::list(vec![Value::Int(1)]);
            let Value::List(l) = &a else { unreachable!() };
            l.modify(|v| v.push(a.clone()));
            assert_eq!(repr_nested(&a, crate::display::repr), "[1, [...]]");
            let b = Value::list(vec![Value::Int(1)]);
            let Value::List(m) = &b else { unreachable!() };
            m.modify(|v| v.push(b.clone()));
            let int_eq =
                |p: &Value, q: &Value| matches!((p, q), (Value::Int(x), Value::Int(y)) if x == y);
            assert!(equal_nested(&a, &b, int_eq));
            let d = crate::containers::Dict::new();
            d.insert(Value::str("me"), Value::Dict(d.clone())).unwrap();
            assert_eq!(
                repr_nested(&Value::Dict(d), crate::display::repr),
                "{\"me\": {...}}"
            );
            // Nested dicts drop without recursion (any depth recursing would
            // overflow this 256 KiB stack).
            let mut x = Value::Dict(crate::containers::Dict::new());
            for _ in 0..200_000 {
                let d = crate::containers::Dict::new();
                d.insert(Value::Int(0), x).unwrap();
                x = Value::Dict(d);
            }
            drop(x);
        });
    }

    #[test]
    fn shared_items_are_kept_and_small_values_print_as_python() {
        let inner = Value::list(vec![Value::Int(1)]);
        let outer = Value::tuple(vec![inner.clone(), Value::tuple(vec![Value::Int(2)])]);
        let leaf = |v: &Value| match v {
            Value::Int(i) => i.to_string(),
            _ => "?".into(),
        };
        assert_eq!(repr_nested(&outer, leaf), "([1], (2,))");
        assert_eq!(repr_nested(&Value::tuple(vec![]), leaf), "()");
        drop(outer);
        assert_eq!(repr_nested(&inner, leaf), "[1]");
        let int_eq =
            |a: &Value, b: &Value| matches!((a, b), (Value::Int(x), Value::Int(y)) if x == y);
        let l = Value::list(vec![Value::Int(1)]);
        let t = Value::tuple(vec![Value::Int(1)]);
        assert!(!equal_nested(&l, &t, int_eq));
        assert!(equal_nested(&l, &inner, int_eq));
    }
}
