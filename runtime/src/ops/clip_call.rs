//! The ways NumPy and PyTorch users call `clip`: `clip(x, 0, None)`,
//! `x.clip(min=0)`, `x.clip(0)`, `clip(x, a_min=0, a_max=1)`. A missing or
//! none bound is no bound (`maximum` or `minimum` alone, so ints stay ints;
//! neither: a copy, as NumPy 2).
//! The elementwise entry's `alt` for every call that does not join a fused
//! tree; a fused `clip(x, lo, hi)` with a none bound lands here too
//! (`interp::eval::ew_call`). The result is one taped elementwise tree.

use super::elementwise::ew_checked;
use super::fuse::{EwNode, operand};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

/// A bound's names: gcalc's, NumPy's (`a_min`, NumPy 2's `min`), PyTorch's.
const LO: &[&str] = &["lo", "a_min", "min"];
const HI: &[&str] = &["hi", "a_max", "max"];

/// One bound: positional or under one of its names (two names is an error).
fn bound(a: &mut Args, names: &[&str]) -> Result<Option<Value>> {
    let mut got: Option<(Value, &str)> = a.opt(names[0])?.map(|v| (v, names[0]));
    for n in &names[1..] {
        if let Some(v) = a.kw(n) {
            if let Some((_, first)) = &got {
                return Err(Error::value(format!(
                    "clip() got the same bound twice, as `{first}` and `{n}`"
                ))
                .with_op("clip"));
            }
            got = Some((v, n));
        }
    }
    Ok(got.map(|(v, _)| v).filter(|v| !matches!(v, Value::None)))
}

/// `clip` called with keywords, none bounds, or as a method.
pub(crate) fn clip_call(i: &mut Interp, mut a: Args) -> Result<Value> {
    super::fuse::lists_to_arrays(i, &mut a)?;
    let clip = a.name;
    let x = a.req("x")?;
    let lo = bound(&mut a, LO)?;
    let hi = bound(&mut a, HI)?;
    a.finish_with(&["lo", "hi", "a_min", "a_max", "min", "max"])?;
    let (name, args) = match (lo, hi) {
        // NumPy 2: no bound at all is a copy.
        (None, None) => {
            let x = match x {
                v @ Value::Array(_) => v,
                v => super::stats::call_op(i, "asarray", vec![v], vec![])?,
            };
            return super::stats::call_op(i, "copy", vec![x], vec![]);
        }
        (Some(l), None) => ("maximum", vec![x, l]),
        (None, Some(h)) => ("minimum", vec![x, h]),
        (Some(l), Some(h)) => (clip, vec![x, l, h]),
    };
    let def = crate::ops::lookup(name)
        .ok_or_else(|| Error::internal(format!("clip: {name} missing from the table")))?;
    ew_checked(def, args.len())?;
    let leaves = args
        .iter()
        .map(|v| operand(v).map(EwNode::Leaf))
        .collect::<Result<Vec<_>>>()?;
    Ok(i.eval_tree(EwNode::Op {
        op: def,
        args: leaves,
    })?
    .into_value())
}
