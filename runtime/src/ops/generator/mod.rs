//! NumPy 2's random API as its users write it: `default_rng(seed)` gives a
//! `Generator` value with its own Philox state (the session's stream, see
//! `crate::random`, under another key and counter), whose methods are the
//! random builtins with NumPy's argument names (`methods.rs`); `random.X`
//! reads the random builtins as NumPy's `np.random` module after `from numpy
//! import random`; `get_state()`/`set_state(s)` save and restore the
//! session's stream. A method swaps the generator's state into the session
//! for the one call, so every draw runs on every device with the same bits.
//! `RandomState(seed)` (NumPy's legacy generator, in Theano-era code) is
//! the same object with the legacy names as well (`rand randn randint
//! random_sample seed`); its numbers are Philox's, not MT19937's.

mod method_table;
mod methods;
pub(crate) use methods::{numpy_normal, numpy_uniform};
pub mod more_draws;
mod mvn;
mod rejection;
mod steps;

use super::creation::op;
use super::family::{Family, family};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::random::Rng;
use crate::value::{Object, Value};
use std::sync::{Arc, Mutex};

pub static OPS: &[OpDef] = &[
    op!(
        "default_rng",
        "default_rng(seed=none)",
        "A new Generator (NumPy's np.random.default_rng) with its own Philox stream, independent of seed(): the same seed gives the same numbers on every device (default_rng(n) draws what seed(n) and the builtins would); without a seed, fresh entropy. Its methods are the random builtins with NumPy's argument names: g.random(size) g.integers(low, high, size) g.normal(loc, scale, size) g.choice(a, size, replace, p, axis)...",
        false,
        default_rng
    ),
    op!(
        "Generator",
        "Generator(seed=none)",
        "The type of default_rng()'s values, for isinstance(g, Generator) and type(g) == Generator; called, it is default_rng(seed) (NumPy's Generator(PCG64(seed)): gcalc has one bit generator, Philox).",
        false,
        generator_type
    ),
    op!(
        "RandomState",
        "RandomState(seed=none)",
        "NumPy's legacy generator (np.random.RandomState(seed)): a Generator with the legacy method names too, rs.rand(2, 3) rs.randn(n) rs.randint(low, high, size) rs.random_sample(size) rs.seed(n), as well as rs.normal rs.uniform rs.choice rs.permutation rs.shuffle and the other draws. Its numbers are gcalc's Philox stream (the same seed, the same numbers on every device), not NumPy's MT19937 sequence.",
        false,
        random_state
    ),
    op!(
        "get_state",
        "get_state()",
        "The session's random state (the generator seed() and the random builtins use) as a dict {\"bit_generator\": \"Philox\", \"state\": {\"key\": k, \"counter\": c}}; set_state(s) restores it exactly.",
        false,
        get_state
    ),
    op!(
        "set_state",
        "set_state(state)",
        "Restore the session's random state from get_state()'s dict: the draws after it repeat exactly.",
        false,
        set_state
    ),
];

/// A `Generator`: a Philox state of its own, shared by every copy of the value
/// (NumPy's generators are mutable objects).
pub struct Generator {
    state: Arc<Mutex<Rng>>,
    /// Made by `RandomState`: the legacy method names too, and its type name.
    legacy: bool,
}

impl Generator {
    fn value(rng: Rng, legacy: bool) -> Value {
        Value::Object(Arc::new(Generator {
            state: Arc::new(Mutex::new(rng)),
            legacy,
        }))
    }

    /// The methods this generator answers to: the legacy ones first.
    fn methods(&self) -> impl Iterator<Item = &'static OpDef> {
        let legacy: &'static [OpDef] = if self.legacy {
            method_table::LEGACY
        } else {
            &[]
        };
        legacy.iter().chain(method_table::METHODS.iter())
    }

    /// `f` run with this generator's state as the session's, then put back
    /// (also when `f` fails); the session's own state is untouched.
    fn with<T>(&self, i: &mut Interp, f: impl FnOnce(&mut Interp) -> Result<T>) -> Result<T> {
        let mut st = self
            .state
            .lock()
            .map_or_else(|e| e.into_inner().clone(), |g| g.clone());
        std::mem::swap(&mut i.rng, &mut st);
        let r = f(i);
        std::mem::swap(&mut i.rng, &mut st);
        match self.state.lock() {
            Ok(mut g) => *g = st,
            Err(e) => *e.into_inner() = st,
        }
        r
    }
}

impl Object for Generator {
    fn type_name(&self) -> &'static str {
        if self.legacy {
            LEGACY_TYPE_NAME
        } else {
            TYPE_NAME
        }
    }
    fn repr(&self) -> String {
        format!(
            "{}(Philox) at {:#X}",
            self.type_name(),
            Arc::as_ptr(&self.state) as usize
        )
    }
    fn attr(&self, name: &str) -> Option<Value> {
        let def = self.methods().find(|d| d.name == name)?;
        let me = Value::Object(Arc::new(Generator {
            state: self.state.clone(),
            legacy: self.legacy,
        }));
        Some(Value::Method(Box::new(me), def))
    }
    fn attr_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.methods().map(|d| d.name.to_string()).collect();
        v.sort();
        v.dedup();
        v
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The generator a method was called on (its first positional argument).
fn receiver(a: &mut Args) -> Result<Arc<Mutex<Rng>>> {
    if a.pos.is_empty() {
        return Err(Error::internal("a Generator method without its generator"));
    }
    let me = a.pos.remove(0);
    if !a.pos_spans.is_empty() {
        a.pos_spans.remove(0);
    }
    match &me {
        Value::Object(o) => match o.as_any().downcast_ref::<Generator>() {
            Some(g) => Ok(g.state.clone()),
            None => Err(not_generator(&me)),
        },
        _ => Err(not_generator(&me)),
    }
}

fn not_generator(v: &Value) -> Error {
    Error::type_(format!("expected a Generator, got {}", v.a_type_name()))
        .with_help("make one with g = default_rng(seed)")
}

/// A seed as NumPy takes it: none (fresh entropy), an int >= 0, or a list of
/// ints >= 0 (mixed into one key).
fn key_of(v: Option<Value>) -> Result<u64> {
    let bad = |what: String| {
        Error::value(format!(
            "default_rng: seed must be none or an int >= 0 (or a list of them), got {what}"
        ))
        .with_op("default_rng")
        .with_help("e.g. default_rng(42)")
    };
    match v {
        None | Some(Value::None) => {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            Ok(h.finish())
        }
        Some(Value::Int(n)) => u64::try_from(n).map_err(|_| bad(n.to_string())),
        Some(Value::Bool(b)) => Ok(b as u64),
        Some(ref seq @ (Value::List(_) | Value::Tuple(_))) => {
            let items = seq.seq_items().expect("a sequence");
            let mut key = 0u64;
            for x in items.iter() {
                let Value::Int(n) = x else {
                    return Err(bad(x.a_type_name().to_string()));
                };
                let n = u64::try_from(*n).map_err(|_| bad(n.to_string()))?;
                // splitmix64 of the running key and the word: distinct lists, distinct keys.
                key = splitmix(key ^ splitmix(n));
            }
            Ok(key)
        }
        Some(Value::Array(a)) if a.ndim() == 0 && a.dtype().is_int() => {
            let n = a.to_vec::<i64>()?[0];
            u64::try_from(n).map_err(|_| bad(n.to_string()))
        }
        Some(other) => Err(bad(other.a_type_name().to_string())),
    }
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn default_rng(_: &mut Interp, mut a: Args) -> Result<Value> {
    let seed = a.opt("seed")?;
    a.finish()?;
    // NumPy: a Generator passed as the seed is returned unaltered.
    if let Some(Value::Object(o)) = &seed
        && o.as_any().is::<Generator>()
    {
        return Ok(Value::Object(o.clone()));
    }
    let mut rng = Rng::default();
    rng.seed(key_of(seed)?);
    Ok(Generator::value(rng, false))
}

fn random_state(_: &mut Interp, mut a: Args) -> Result<Value> {
    let seed = a.opt("seed")?;
    a.finish()?;
    let mut rng = Rng::default();
    rng.seed(key_of(seed)?);
    Ok(Generator::value(rng, true))
}

/// `rs.seed(n)`: the generator's state restarted from `n` (none: fresh entropy).
pub(super) fn reseed(state: &Mutex<Rng>, seed: Option<Value>) -> Result<()> {
    let mut rng = Rng::default();
    rng.seed(key_of(seed)?);
    match state.lock() {
        Ok(mut g) => *g = rng,
        Err(e) => *e.into_inner() = rng,
    }
    Ok(())
}

fn generator_type(i: &mut Interp, a: Args) -> Result<Value> {
    default_rng(i, a)
}

/// The name `type(g)` gives.
pub const TYPE_NAME: &str = "Generator";
/// The name `type(RandomState(0))` gives.
pub const LEGACY_TYPE_NAME: &str = "RandomState";

/// Whether `def` is the `Generator` or `RandomState` entry (a type in
/// `isinstance(g, Generator)`, `type(g) == RandomState`).
pub fn is_generator_type(def: &OpDef) -> bool {
    std::ptr::eq(def, &OPS[1]) || std::ptr::eq(def, &OPS[2])
}

/// Whether `x` is a generator of the type `def` names (`isinstance(x,
/// Generator)`, `isinstance(x, RandomState)`).
pub fn is_generator_of(x: &Value, def: &OpDef) -> bool {
    matches!(x, Value::Object(o) if o.as_any().downcast_ref::<Generator>().is_some_and(|g| g.type_name() == def.name))
}

fn get_state(i: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let inner = crate::containers::Dict::new();
    // Bit-cast to int64 so every u64 round-trips.
    inner.insert(Value::str("key"), Value::Int(i.rng.key as i64))?;
    inner.insert(Value::str("counter"), Value::Int(i.rng.counter as i64))?;
    let d = crate::containers::Dict::new();
    d.insert(Value::str("bit_generator"), Value::str("Philox"))?;
    d.insert(Value::str("state"), Value::Dict(inner))?;
    Ok(Value::Dict(d))
}

fn set_state(i: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.req("state")?;
    a.finish()?;
    let bad = |m: &str| {
        Error::value(format!("set_state: {m}"))
            .with_op("set_state")
            .with_help("give the dict get_state() returned: {\"bit_generator\": \"Philox\", \"state\": {\"key\": k, \"counter\": c}}")
    };
    let Value::Dict(d) = &s else {
        return Err(bad(&format!(
            "state must be a dict, got {}",
            s.a_type_name()
        )));
    };
    match d.get(&Value::str("bit_generator"))? {
        Some(Value::Str(n)) if &*n == "Philox" => {}
        Some(Value::Str(n)) => {
            return Err(bad(&format!(
                "state is of the bit generator {n}; gcalc's is Philox"
            )));
        }
        _ => return Err(bad("state has no \"bit_generator\": \"Philox\" entry")),
    }
    let Some(Value::Dict(inner)) = d.get(&Value::str("state"))? else {
        return Err(bad("state has no \"state\" dict"));
    };
    let word = |k: &str| -> Result<u64> {
        match inner.get(&Value::str(k))? {
            Some(Value::Int(n)) => Ok(n as u64),
            _ => Err(bad(&format!("state[\"state\"][\"{k}\"] must be an int"))),
        }
    };
    let (key, counter) = (word("key")?, word("counter")?);
    i.rng = Rng { key, counter };
    Ok(Value::None)
}

/// `random.normal`, `random.default_rng`...: attributes of the `random`
/// builtin (NumPy's `np.random` module after `from numpy import random`):
/// the random family's builtins.
pub fn namespace_attr(recv: &OpDef, attr: &str) -> Option<Value> {
    // The `random` builtin: the first entry of the further draws' table.
    if !std::ptr::eq(recv, &crate::ops::nparr::DRAW_OPS[0]) {
        return None;
    }
    super::lookup(attr)
        .filter(|d| family(d) == Some(Family::Random))
        .map(Value::Builtin)
}

/// The names `random.` completes to.
pub fn namespace_names() -> Vec<String> {
    super::all()
        .into_iter()
        .filter(|d| family(d) == Some(Family::Random))
        .map(|d| d.name.to_string())
        .collect()
}
