//! The values the prompt showed, kept as IPython keeps them: `_` is the last,
//! `__` and `___` the two before, `_3` the value of input 3. They are not
//! variables: a variable of the same name (`for _ in ...`) hides them, and
//! they never show in `:vars`. At most `KEEP` numbered values are kept (the
//! oldest fifth is dropped past that, like IPython's cache of 1000): a kept
//! value keeps its memory, on a GPU too.

use crate::value::Value;
use std::collections::{BTreeMap, VecDeque};

const KEEP: usize = 1000;

#[derive(Default)]
pub struct Results {
    /// The last three values, newest first.
    recent: VecDeque<Value>,
    numbered: BTreeMap<u64, Value>,
}

impl Results {
    /// The value shown for input `n`.
    pub fn record(&mut self, n: u64, v: Value) {
        self.recent.push_front(v.clone());
        self.recent.truncate(3);
        self.numbered.insert(n, v);
        if self.numbered.len() > KEEP {
            let drop: Vec<u64> = self.numbered.keys().take(KEEP / 5).copied().collect();
            for k in drop {
                self.numbered.remove(&k);
            }
        }
    }

    /// `_`, `__`, `___` or `_N`.
    pub fn get(&self, name: &str) -> Option<Value> {
        let rest = name.strip_prefix('_')?;
        if rest.is_empty() || rest.bytes().all(|b| b == b'_') {
            return self.recent.get(rest.len()).cloned();
        }
        if !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.numbered.get(&rest.parse().ok()?).cloned()
    }

    /// Whether `name` is one of these names (`_`, `__`, `___`, `_N`), kept or not.
    pub fn is_result_name(name: &str) -> bool {
        name.strip_prefix('_').is_some_and(|r| {
            (r.len() <= 2 && r.bytes().all(|b| b == b'_'))
                || (!r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// The numbered values, for messages about memory.
    pub fn numbered(&self) -> impl Iterator<Item = (u64, &Value)> {
        self.numbered.iter().map(|(k, v)| (*k, v))
    }

    pub fn clear(&mut self) {
        self.recent.clear();
        self.numbered.clear();
    }
}
