//! Pytrees (JAX's word for nested containers of arrays): `grad(f)(params)`
//! with `params` a dict, list or tuple of arrays (nested any way)
//! differentiates with respect to every leaf and gives the gradients in the
//! same structure: `{"w": dw, "b": db}` for `{"w": w, "b": b}`. The function
//! receives fresh containers holding the tracked leaves, so the caller's
//! dict is never changed; `none` leaves stay `none`, as in JAX.

use crate::array::Array;
use crate::containers::Dict;
use crate::display::repr;
use crate::error::{Error, Result};
use crate::value::Value;

/// Deepest nesting of containers walked in one argument.
const MAX_DEPTH: usize = 64;

/// The shape of an argument: where each leaf sits.
pub(super) enum Tree {
    /// The leaf at this position among all the leaves.
    Leaf(usize),
    None,
    Dict(Vec<(Value, Tree)>),
    List(Vec<Tree>),
    Tuple(Vec<Tree>),
}

/// Makes a tracked array of a leaf; `path` names it in errors (`["w"][0]`).
pub(super) type MakeLeaf<'a> = dyn FnMut(&str, &Value) -> Result<Array> + 'a;

/// `v` with each leaf replaced by `make(path, leaf)`, the leaves appended to
/// `leaves`, and the structure to put gradients back in.
pub(super) fn track(
    v: &Value,
    make: &mut MakeLeaf,
    leaves: &mut Vec<Array>,
) -> Result<(Value, Tree)> {
    walk(v, String::new(), 0, make, leaves)
}

fn walk(
    v: &Value,
    path: String,
    depth: usize,
    make: &mut MakeLeaf,
    leaves: &mut Vec<Array>,
) -> Result<(Value, Tree)> {
    if depth > MAX_DEPTH {
        return Err(Error::value(format!(
            "the argument nests containers more than {MAX_DEPTH} deep{}",
            if path.is_empty() {
                String::new()
            } else {
                format!(" (at {path})")
            }
        )));
    }
    match v {
        Value::Dict(d) => {
            let out = Dict::new();
            let mut shape = Vec::new();
            for (k, x) in d.snapshot().values() {
                let (nv, t) = walk(x, format!("{path}[{}]", repr(k)), depth + 1, make, leaves)?;
                out.insert(k.clone(), nv)?;
                shape.push((k.clone(), t));
            }
            Ok((Value::Dict(out), Tree::Dict(shape)))
        }
        Value::List(_) | Value::Tuple(_) => {
            let items = v.seq_items().unwrap_or_default();
            let mut vals = Vec::with_capacity(items.len());
            let mut shape = Vec::with_capacity(items.len());
            for (i, x) in items.iter().enumerate() {
                let (nv, t) = walk(x, format!("{path}[{i}]"), depth + 1, make, leaves)?;
                vals.push(nv);
                shape.push(t);
            }
            Ok(match v {
                Value::List(_) => (Value::list(vals), Tree::List(shape)),
                _ => (Value::tuple(vals), Tree::Tuple(shape)),
            })
        }
        Value::None if depth > 0 => Ok((Value::None, Tree::None)),
        leaf => {
            let a = make(&path, leaf)?;
            leaves.push(a.clone());
            Ok((Value::Array(a), Tree::Leaf(leaves.len() - 1)))
        }
    }
}

/// The gradients `grads` (one per leaf, in order) in the structure `t`.
pub(super) fn rebuild(t: &Tree, grads: &[Value]) -> Result<Value> {
    Ok(match t {
        Tree::Leaf(k) => grads
            .get(*k)
            .cloned()
            .ok_or_else(|| Error::internal("grad: a leaf has no gradient"))?,
        Tree::None => Value::None,
        Tree::Dict(entries) => {
            let d = Dict::new();
            for (k, sub) in entries {
                d.insert(k.clone(), rebuild(sub, grads)?)?;
            }
            Value::Dict(d)
        }
        Tree::List(items) => Value::list(
            items
                .iter()
                .map(|s| rebuild(s, grads))
                .collect::<Result<_>>()?,
        ),
        Tree::Tuple(items) => Value::tuple(
            items
                .iter()
                .map(|s| rebuild(s, grads))
                .collect::<Result<_>>()?,
        ),
    })
}
