//! The arrays a tape's nodes keep for their backward rules, found and (when
//! their buffer is about to be written) moved to a copy of it.

use super::key;
use crate::array::Array;
use crate::autodiff::NodeKind;
use crate::ops::fuse::{EwNode, Operand};
use crate::value::Value;

/// Every array a node keeps (for its backward rule).
pub(super) fn held_arrays<'a>(kind: &'a NodeKind, out: &mut Vec<&'a Array>) {
    fn tree<'a>(n: &'a EwNode, out: &mut Vec<&'a Array>) {
        match n {
            EwNode::Leaf(Operand::Array(a)) => out.push(a),
            EwNode::Leaf(_) => {}
            EwNode::Op { args, .. } => args.iter().for_each(|a| tree(a, out)),
        }
    }
    fn value<'a>(v: &'a Value, out: &mut Vec<&'a Array>) {
        match v {
            Value::Array(a) => out.push(a),
            Value::Tuple(t) => t.iter().for_each(|v| value(v, out)),
            // A tape keeps no lists: `autodiff::frozen` made them tuples.
            _ => {}
        }
    }
    match kind {
        NodeKind::Leaf | NodeKind::View { .. } => {}
        NodeKind::Ew { tree: t, out: o }
        | NodeKind::Reduce {
            tree: t, out: o, ..
        } => {
            tree(t, out);
            out.push(o);
        }
        NodeKind::Op {
            pos, kw, out: o, ..
        } => {
            pos.iter().for_each(|v| value(v, out));
            kw.iter().for_each(|(_, v)| value(v, out));
            out.push(o);
        }
        NodeKind::Multi { pos, kw, outs, .. } => {
            pos.iter().for_each(|v| value(v, out));
            kw.iter().for_each(|(_, v)| value(v, out));
            out.extend(outs.iter().flatten());
        }
        NodeKind::Part { .. } => {}
        NodeKind::Index { idx, .. } => out.extend(idx.arrays()),
        NodeKind::Write(w) => {
            out.extend(w.idx.iter().flat_map(|r| r.arrays()));
            out.extend(w.kept.iter());
        }
    }
}

/// `kind` with each kept array of buffer `from` replaced by the same view of `to`.
pub(super) fn rebase(kind: &mut NodeKind, from: usize, to: &Array) {
    let re = |a: &Array| -> Array {
        match key(a.storage()) == from {
            true => to
                .view(a.shape().to_vec(), a.strides().to_vec(), a.offset())
                .with_node(a.node()),
            false => a.clone(),
        }
    };
    fn tree(n: &mut EwNode, re: &dyn Fn(&Array) -> Array) {
        match n {
            EwNode::Leaf(Operand::Array(a)) => *a = re(a),
            EwNode::Leaf(_) => {}
            EwNode::Op { args, .. } => args.iter_mut().for_each(|a| tree(a, re)),
        }
    }
    fn value(v: &Value, re: &dyn Fn(&Array) -> Array) -> Value {
        match v {
            Value::Array(a) => Value::Array(re(a)),
            Value::Tuple(t) => Value::tuple(t.iter().map(|v| value(v, re)).collect()),
            Value::List(l) => Value::list(l.snapshot().iter().map(|v| value(v, re)).collect()),
            v => v.clone(),
        }
    }
    match kind {
        NodeKind::Leaf | NodeKind::View { .. } => {}
        NodeKind::Ew { tree: t, out } | NodeKind::Reduce { tree: t, out, .. } => {
            tree(t, &re);
            *out = re(out);
        }
        NodeKind::Op { pos, kw, out, .. } => {
            for v in pos.iter_mut() {
                *v = value(v, &re);
            }
            for (_, v) in kw.iter_mut() {
                *v = value(v, &re);
            }
            *out = re(out);
        }
        NodeKind::Multi { pos, kw, outs, .. } => {
            for v in pos.iter_mut() {
                *v = value(v, &re);
            }
            for (_, v) in kw.iter_mut() {
                *v = value(v, &re);
            }
            for o in outs.iter_mut().flatten() {
                *o = re(o);
            }
        }
        NodeKind::Part { .. } => {}
        NodeKind::Index { idx, .. } => *idx = idx.map_arrays(re),
        NodeKind::Write(w) => {
            w.idx = w.idx.as_ref().map(|r| r.map_arrays(re));
            w.kept = w.kept.as_ref().map(re);
        }
    }
}
