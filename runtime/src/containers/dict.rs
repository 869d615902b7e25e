//! `Dict`: a shared, mutable map from hashable values to values, in
//! insertion order (Python's dict). Keys are strings, numbers, bools, none,
//! dtypes, devices and tuples of those; equal numbers are one key (`1`,
//! `1.0` and `true` are the same key, as in Python), and the first key
//! written is the one kept and shown.

use super::lock;
use crate::error::{Error, Result};
use crate::fxhash::FxHasher;
use crate::value::Value;
use indexmap::IndexMap;
use std::hash::BuildHasherDefault;
use std::sync::{Arc, Mutex};

/// A key as it is compared and hashed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HashKey {
    None,
    /// Ints, bools and floats with an integer value.
    Int(i64),
    /// Other floats, by their bits (every nan is one key).
    Float(u64),
    Str(Arc<str>),
    Tuple(Vec<HashKey>),
    /// Dtypes, devices: by their name.
    Named(&'static str, String),
}

impl HashKey {
    /// The key of `v`, or an error saying why it cannot be one.
    pub fn of(v: &Value) -> Result<HashKey> {
        Ok(match v {
            Value::None => HashKey::None,
            Value::Bool(b) => HashKey::Int(*b as i64),
            Value::Int(i) => HashKey::Int(*i),
            Value::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 9.2e18 {
                    HashKey::Int(*f as i64)
                } else if f.is_nan() {
                    HashKey::Float(f64::NAN.to_bits())
                } else {
                    HashKey::Float(f.to_bits())
                }
            }
            Value::Str(s) => HashKey::Str(s.clone()),
            Value::Tuple(t) => HashKey::Tuple(t.iter().map(HashKey::of).collect::<Result<_>>()?),
            Value::DType(d) => HashKey::Named("dtype", d.name().to_string()),
            Value::Device(d) => HashKey::Named("device", d.to_string()),
            // A 0-d array is gcalc's NumPy scalar: hashed as its number, as
            // np.int64(3) and 3 are the same key in Python.
            Value::Array(a) if a.ndim() == 0 && !a.dtype().is_complex() => {
                let h = a.to_host()?;
                if a.dtype().is_float() {
                    HashKey::of(&Value::Float(h.to_f64_vec()?[0]))?
                } else {
                    HashKey::Int(h.to_vec::<i64>()?[0])
                }
            }
            Value::Array(_) => {
                return Err(
                    Error::type_("an array cannot be a dict key (arrays are mutable)")
                        .with_help("use a number (x.item()), a string or a tuple as the key"),
                );
            }
            other => {
                return Err(
                    Error::type_(format!("{} cannot be a dict key", other.a_type_name()))
                        .with_help("keys are strings, numbers, bools, none or tuples of them"),
                );
            }
        })
    }
}

type Map = IndexMap<HashKey, (Value, Value), BuildHasherDefault<FxHasher>>;

/// The entries: each key's value, with the key as first written. Dropping
/// them drops nested containers held nowhere else without recursion
/// (`crate::nested`).
#[derive(Clone, Default)]
pub struct Entries(Map);

impl std::ops::Deref for Entries {
    type Target = Map;
    fn deref(&self) -> &Map {
        &self.0
    }
}

impl std::ops::DerefMut for Entries {
    fn deref_mut(&mut self) -> &mut Map {
        &mut self.0
    }
}

impl Entries {
    /// Every key and value, taken out.
    fn into_values(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
            .into_values()
            .flat_map(|(k, v)| [k, v])
            .collect()
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        if !self
            .0
            .values()
            .any(|(_, v)| crate::nested::owned_container(v))
        {
            return;
        }
        let all = std::mem::take(&mut self.0)
            .into_values()
            .flat_map(|(k, v)| [k, v])
            .collect();
        crate::nested::drop_all(all);
    }
}

#[derive(Clone)]
pub struct Dict(Arc<Mutex<Arc<Entries>>>);

impl Dict {
    pub fn new() -> Dict {
        Dict(Arc::new(Mutex::new(Arc::new(Entries::default()))))
    }

    /// A dict of `pairs`, later keys replacing the values of equal earlier ones.
    pub fn from_pairs(pairs: Vec<(Value, Value)>) -> Result<Dict> {
        let mut m = Entries::default();
        for (k, v) in pairs {
            insert_entry(&mut m, k, v)?;
        }
        Ok(Dict(Arc::new(Mutex::new(Arc::new(m)))))
    }

    /// The entries now (later changes do not show in it).
    pub fn snapshot(&self) -> Arc<Entries> {
        lock(&self.0).clone()
    }

    pub fn len(&self) -> usize {
        lock(&self.0).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, key: &Value) -> Result<Option<Value>> {
        let k = HashKey::of(key)?;
        Ok(lock(&self.0).get(&k).map(|(_, v)| v.clone()))
    }

    pub fn contains(&self, key: &Value) -> Result<bool> {
        let k = HashKey::of(key)?;
        Ok(lock(&self.0).contains_key(&k))
    }

    /// Set `key` to `value` (a new key goes last; an old one keeps its place).
    pub fn insert(&self, key: Value, value: Value) -> Result<()> {
        let k = HashKey::of(&key)?;
        let mut g = lock(&self.0);
        insert_keyed(Arc::make_mut(&mut g), k, key, value);
        Ok(())
    }

    /// Remove `key`, giving its value (the others keep their order).
    pub fn remove(&self, key: &Value) -> Result<Option<Value>> {
        let k = HashKey::of(key)?;
        let mut g = lock(&self.0);
        if !g.contains_key(&k) {
            return Ok(None);
        }
        Ok(Arc::make_mut(&mut g).shift_remove(&k).map(|(_, v)| v))
    }

    pub fn clear(&self) {
        *lock(&self.0) = Arc::new(Entries::default());
    }

    /// The keys, in order.
    pub fn keys(&self) -> Vec<Value> {
        self.snapshot().values().map(|(k, _)| k.clone()).collect()
    }

    /// A new dict with the same entries.
    pub fn copy(&self) -> Dict {
        Dict(Arc::new(Mutex::new(self.snapshot())))
    }

    /// Every key and value, when nothing else holds this dict or its
    /// entries (a dict being dropped gives them to `nested`'s work list).
    pub fn take_if_sole(self) -> Option<Vec<Value>> {
        let cell = Arc::try_unwrap(self.0).ok()?;
        let entries = cell.into_inner().unwrap_or_else(|p| p.into_inner());
        Arc::try_unwrap(entries).ok().map(Entries::into_values)
    }

    /// Whether dropping this handle would free the dict's entries.
    pub fn is_sole(&self) -> bool {
        Arc::strong_count(&self.0) == 1 && Arc::strong_count(&lock(&self.0)) == 1
    }

    /// The same dict (Python's `is`).
    pub fn ptr_eq(&self, other: &Dict) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// How many values hold this dict (this handle included).
    pub fn holders(&self) -> usize {
        Arc::strong_count(&self.0)
    }

    /// An address naming this dict while it lives (finds cycles when printing).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}

impl Default for Dict {
    fn default() -> Dict {
        Dict::new()
    }
}

fn insert_entry(m: &mut Entries, key: Value, value: Value) -> Result<()> {
    let k = HashKey::of(&key)?;
    insert_keyed(m, k, key, value);
    Ok(())
}

fn insert_keyed(m: &mut Entries, k: HashKey, key: Value, value: Value) {
    match m.get_mut(&k) {
        Some(slot) => slot.1 = value,
        None => {
            m.insert(k, (key, value));
        }
    }
}
