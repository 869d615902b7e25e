//! NumPy's scalar draws: a random builtin (or Generator method) called with
//! number parameters and no size gives one Python number, as NumPy's do —
//! `binomial(10, 0.5)` an int, `exponential()` a float drawn in float64 —
//! where the draw itself would give a 0-d array. Read from the random
//! family's signatures (parameters, then `shape=`/`size=`, then `dtype=`),
//! so a draw added to the family is covered without a list here.

use super::family::{Family, family};
use super::{OpDef, OpKind};
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::Args;
use crate::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A draw's signature: how many parameters come before its size, and
/// whether its default dtype is floatX (then a scalar draw is float64).
#[derive(Clone, Copy)]
struct Spec {
    params: usize,
    float_default: bool,
}

/// The random family's draws that take a size, by table entry.
fn specs() -> &'static HashMap<usize, Spec> {
    static SPECS: OnceLock<HashMap<usize, Spec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        let mut m = HashMap::new();
        for def in super::all() {
            if !matches!(def.kind, OpKind::Func(_)) || family(def) != Some(Family::Random) {
                continue;
            }
            let form = def.sig.split(" | ").next().unwrap_or(def.sig);
            let inner = form
                .split_once('(')
                .map_or("", |(_, r)| r.strip_suffix(')').unwrap_or(r));
            let names: Vec<&str> = inner
                .split(',')
                .map(|p| p.trim().split('=').next().unwrap_or("").trim())
                .collect();
            if let Some(k) = names.iter().position(|n| ["shape", "size"].contains(n)) {
                m.insert(
                    def as *const OpDef as usize,
                    Spec {
                        params: k,
                        float_default: inner.contains("dtype=floatX"),
                    },
                );
            }
        }
        m
    })
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_))
}

/// Whether the call `def(args)` is NumPy's scalar form (number parameters,
/// no size); if so, a float draw is asked for in float64 (NumPy's Python
/// float) unless a dtype is given. The result then goes through `to_number`.
pub fn scalar_form(def: &'static OpDef, args: &mut Args) -> bool {
    let Some(sp) = specs().get(&(def as *const OpDef as usize)).copied() else {
        return false;
    };
    if args.pos.len() > sp.params || !args.pos.iter().all(is_number) {
        return false;
    }
    let mut dtype_given = false;
    for (k, v) in &args.kw {
        if ["shape", "size"].contains(&k.as_str()) {
            if !matches!(v, Value::None) {
                return false;
            }
        } else if k == "dtype" {
            dtype_given = true;
        } else if k != "device" && !is_number(v) && !matches!(v, Value::None) {
            return false;
        }
    }
    if sp.float_default && !dtype_given {
        args.kw
            .push(("dtype".to_string(), Value::DType(DType::Float64)));
    }
    true
}

/// A scalar-form draw's 0-d array as a Python number (other results as they are).
pub fn to_number(v: Value) -> Result<Value> {
    match v {
        Value::Array(a) if a.ndim() == 0 => a.item(),
        v => Ok(v),
    }
}
