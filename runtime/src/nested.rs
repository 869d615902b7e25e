//! Values nested without bound (`x = []; for i in range(1000000) { x = [x] }`):
//! the items of tuples and lists (`Items`) are dropped with a work list, not
//! by recursion, and printing and equality walk nested values with an
//! explicit stack, so no depth of nesting overflows the interpreter's stack.

use crate::value::Value;
use std::sync::Arc;

/// The items of a tuple or list. Dropping it drops nested tuples and lists
/// held nowhere else one after another instead of inside each other.
#[derive(Clone, Default)]
pub struct Items(Vec<Value>);

impl Items {
    /// The items as a vector (taken out; what is left drops as nothing).
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
    }
}

impl From<Vec<Value>> for Items {
    fn from(v: Vec<Value>) -> Items {
        Items(v)
    }
}

impl FromIterator<Value> for Items {
    fn from_iter<I: IntoIterator<Item = Value>>(it: I) -> Items {
        Items(it.into_iter().collect())
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
        if !self.0.iter().any(owned_sequence) {
            return;
        }
        let mut work = std::mem::take(&mut self.0);
        while let Some(v) = work.pop() {
            if let Value::Tuple(items) | Value::List(items) = v
                && let Ok(mut inner) = Arc::try_unwrap(items)
            {
                // Its items join the work list; `inner` drops empty.
                work.append(&mut inner.0);
            }
        }
    }
}

/// A tuple or list that dropping `v` would free.
fn owned_sequence(v: &Value) -> bool {
    matches!(v, Value::Tuple(t) | Value::List(t) if Arc::strong_count(t) == 1)
}

/// What is left to print of a tuple or list.
enum Piece<'a> {
    Value(&'a Value),
    Text(&'static str),
}

/// The text of `v` with tuples and lists walked on an explicit stack;
/// `leaf(x)` gives the text of anything else inside them.
pub fn repr_nested(v: &Value, leaf: impl Fn(&Value) -> String) -> String {
    let mut out = String::new();
    let mut stack = vec![Piece::Value(v)];
    while let Some(p) = stack.pop() {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Value(Value::List(items)) => {
                out.push('[');
                stack.push(Piece::Text("]"));
                push_items(&mut stack, items);
            }
            Piece::Value(Value::Tuple(items)) => {
                out.push('(');
                stack.push(Piece::Text(")"));
                if items.len() == 1 {
                    stack.push(Piece::Text(","));
                }
                push_items(&mut stack, items);
            }
            Piece::Value(other) => out.push_str(&leaf(other)),
        }
    }
    out
}

/// The items, last first, with ", " between them (popped in order).
fn push_items<'a>(stack: &mut Vec<Piece<'a>>, items: &'a [Value]) {
    for (i, it) in items.iter().enumerate().rev() {
        stack.push(Piece::Value(it));
        if i > 0 {
            stack.push(Piece::Text(", "));
        }
    }
}

/// Structural equality with tuples and lists walked on an explicit stack
/// (a tuple never equals a list, as in Python); `leaf(a, b)` compares the
/// rest.
pub fn equal_nested(a: &Value, b: &Value, leaf: impl Fn(&Value, &Value) -> bool) -> bool {
    let mut stack = vec![(a, b)];
    while let Some(pair) = stack.pop() {
        match pair {
            (Value::Tuple(x), Value::Tuple(y)) | (Value::List(x), Value::List(y)) => {
                if Arc::ptr_eq(x, y) {
                    continue;
                }
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y.iter()).rev());
            }
            (Value::Tuple(_) | Value::List(_), _) | (_, Value::Tuple(_) | Value::List(_)) => {
                return false;
            }
            (p, q) => {
                if !leaf(p, q) {
                    return false;
                }
            }
        }
    }
    true
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
