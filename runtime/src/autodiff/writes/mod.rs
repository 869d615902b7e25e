//! Gradients through writes into arrays (`y[idx] = v`, `y[idx] += v`,
//! `y += v` in place, `add_at`). A write changes a buffer that other arrays
//! may view, so the tape follows buffers, not names:
//! - each written buffer gets a flat node (`Write`: the whole buffer as a
//!   1-d array) made from what it held before — the buffer's earlier write,
//!   or the node whose output it is (its owner), or nothing (constants) —
//!   and the value written at the selected positions;
//! - any array viewing a written buffer, read after the write (by a fused
//!   tree, a builtin, an index, or as the function's result), is tagged with
//!   a `View` node of the latest write (`refresh`), whatever name or view
//!   reaches it;
//! - a node's saved inputs (what its backward rule reads) that a write
//!   would change are first moved to a copy of the buffer (`before_write`),
//!   so the backward pass sees the values the forward pass used.
//!
//! Backward: the overwritten positions pass no gradient to what the buffer
//! held (an `add_at` passes all of it), the written value gets the gradient
//! of the positions it landed on (for repeated positions only the element a
//! store kept; every one for `add_at`), summed back to its shape.

mod grads;
mod held;

pub use grads::recorded_by_the_write;
pub(super) use grads::{view_grad, write_grads};
use held::{held_arrays, rebase};

use super::{NodeKind, Tape};
use crate::array::index::Resolved;
use crate::array::{Array, Storage};
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::Interp;
use crate::ops::fuse::{EwNode, Operand};
use crate::value::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Where a view lies in its buffer.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: usize,
}

impl Layout {
    pub fn of(a: &Array) -> Layout {
        Layout {
            shape: a.shape().to_vec(),
            strides: a.strides().to_vec(),
            offset: a.offset(),
        }
    }
    /// The view of `flat` (a whole buffer as a 1-d array) this layout is.
    fn view(&self, flat: &Array) -> Array {
        flat.view(self.shape.clone(), self.strides.clone(), self.offset)
    }
}

/// What a buffer held before a write.
#[derive(Clone, Debug)]
pub(crate) enum Prev {
    /// Nothing tracked: constants.
    None,
    /// The buffer's earlier write (a flat node).
    Flat(u64),
    /// The node whose output the buffer is, at this layout.
    Owner(u64, Layout),
}

/// A store (`=`: the last of repeated positions wins) or an unbuffered
/// update (`add_at`: every repeat adds; `subtract_at`: subtracts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WriteKind {
    Store,
    Add,
    Subtract,
}

/// One write into a buffer of `len` elements.
pub(crate) struct WriteNode {
    prev: Prev,
    /// The written value's node (0: a constant), its shape and dtype.
    value: u64,
    value_shape: Vec<usize>,
    value_dtype: DType,
    /// The view written through, and the index into it (`None`: all of it).
    at: Layout,
    idx: Option<Resolved>,
    kind: WriteKind,
    /// For a store with repeated positions: which selected elements it kept.
    kept: Option<Array>,
}

/// The tape's record of buffers (keyed by their storage's address; the
/// tape holds every buffer it names, so no address is reused meanwhile).
#[derive(Default)]
pub(crate) struct Buffers {
    /// Written buffers: their latest flat node and length.
    written: HashMap<usize, (u64, usize)>,
    /// Buffers a node's output is: the first such node and its layout.
    owners: HashMap<usize, (u64, Layout)>,
    /// How many arrays of each buffer the nodes keep for the backward pass.
    held: HashMap<usize, usize>,
}

fn key(s: &Arc<Storage>) -> usize {
    Arc::as_ptr(s) as usize
}

impl Tape {
    /// Whether a buffer was written under this tape (reads may need `refresh`).
    pub(crate) fn has_writes(&self) -> bool {
        !self.buffers.written.is_empty()
    }

    /// Book-keeping of a new node `id` whose output is `out`.
    pub(super) fn note_node(&mut self, id: u64, kind_index: usize, out: Option<&Array>) {
        if let Some(o) = out {
            self.buffers
                .owners
                .entry(key(o.storage()))
                .or_insert_with(|| (id, Layout::of(o)));
        }
        let mut kept = Vec::new();
        held_arrays(&self.nodes[kind_index].kind, &mut kept);
        for a in kept {
            *self.buffers.held.entry(key(a.storage())).or_insert(0) += 1;
        }
    }

    /// `a` as this tape sees it now: when its buffer was written after `a`'s
    /// node was made, the same array tagged with a new view of the write.
    pub(crate) fn refresh(&mut self, a: &Array) -> Array {
        if self.buffers.written.is_empty() || !a.dtype().is_float() {
            return a.clone();
        }
        let Some(&(w, _)) = self.buffers.written.get(&key(a.storage())) else {
            return a.clone();
        };
        let fresh = match (self.index_of(a.node()), self.index_of(w)) {
            (Some(i), Some(j)) => i > j,
            _ => false,
        };
        if fresh {
            return a.clone();
        }
        let kind = NodeKind::View {
            flat: w,
            layout: Layout::of(a),
        };
        let id = self.push(kind, a);
        a.clone().with_node(id)
    }

    /// Before `x`'s buffer is written: the nodes' kept arrays of that buffer
    /// move to a copy of it (they must keep the values they were given).
    pub(crate) fn before_write(&mut self, x: &Array) -> Result<()> {
        let k = key(x.storage());
        let n = self.buffers.held.get(&k).copied().unwrap_or(0);
        if n == 0 {
            return Ok(());
        }
        let len = x.buffer_len();
        let flat = Array::from_storage(x.storage().clone(), x.dtype(), vec![len]);
        let copy = flat.copy()?;
        for node in self.nodes.iter_mut() {
            rebase(&mut node.kind, k, &copy);
        }
        self.buffers.held.remove(&k);
        *self.buffers.held.entry(key(copy.storage())).or_insert(0) += n;
        Ok(())
    }

    /// After `x[idx] = value` (or an `add_at`): `x`'s buffer now comes from
    /// a write node. `kept`: for a store with repeated positions, which
    /// selected elements it kept. Nothing is recorded for a constant written
    /// into a buffer no node gave.
    pub(crate) fn record_write(
        &mut self,
        x: &Array,
        idx: Option<&Resolved>,
        value: &Array,
        kind: WriteKind,
        kept: Option<Array>,
    ) {
        if !x.dtype().is_float() {
            return;
        }
        let k = key(x.storage());
        let prev = match (self.buffers.written.get(&k), self.buffers.owners.get(&k)) {
            (Some(&(w, _)), _) => Prev::Flat(w),
            (None, Some((o, l))) => Prev::Owner(*o, l.clone()),
            (None, None) => Prev::None,
        };
        let v = match self.tracks(value) && value.dtype().is_float() {
            true => value.node(),
            false => 0,
        };
        if v == 0 && matches!(prev, Prev::None) {
            return;
        }
        let len = x.buffer_len();
        let w = WriteNode {
            prev,
            value: v,
            value_shape: value.shape().to_vec(),
            value_dtype: value.dtype(),
            at: Layout::of(x),
            idx: idx.cloned(),
            kind,
            kept,
        };
        let id = self.push_shaped(NodeKind::Write(Box::new(w)), vec![len], x.dtype(), None);
        self.buffers.written.insert(k, (id, len));
    }

    /// Whether a store into `x` needs `kept` for its gradient: a tracked
    /// value written through an index that may repeat a position.
    pub(crate) fn needs_kept(&self, value: &Array, repeats: bool) -> bool {
        repeats && self.tracks(value) && value.dtype().is_float()
    }

    /// Whether `x`'s buffer was written under this tape.
    pub(crate) fn written(&self, x: &Array) -> bool {
        self.buffers.written.contains_key(&key(x.storage()))
    }

    /// How many arrays of `x`'s buffer the nodes keep.
    pub(crate) fn holds(&self, x: &Array) -> usize {
        self.buffers
            .held
            .get(&key(x.storage()))
            .copied()
            .unwrap_or(0)
    }
}

impl Interp {
    /// `a` as the tape sees it (see `Tape::refresh`); `a` itself without a tape.
    pub(crate) fn refresh(&mut self, a: &Array) -> Result<Array> {
        Ok(match self.tape.as_mut() {
            Some(t) => t.refresh(a),
            None => a.clone(),
        })
    }

    /// Every array leaf of a fused tree refreshed.
    pub(crate) fn refresh_tree(&mut self, n: &mut EwNode) {
        let Some(t) = self.tape.as_mut().filter(|t| t.has_writes()) else {
            return;
        };
        fn walk(t: &mut Tape, n: &mut EwNode) {
            match n {
                EwNode::Leaf(Operand::Array(a)) => *a = t.refresh(a),
                EwNode::Leaf(_) => {}
                EwNode::Op { args, .. } => args.iter_mut().for_each(|a| walk(t, a)),
            }
        }
        walk(t, n);
    }

    /// Every array in a value (tuples and lists one level) refreshed.
    pub(crate) fn refresh_value(&mut self, v: &Value) -> Value {
        let Some(t) = self.tape.as_mut() else {
            return v.clone();
        };
        let mut one = |x: &Value| match x {
            Value::Array(a) => Value::Array(t.refresh(a)),
            x => x.clone(),
        };
        match v {
            Value::Tuple(items) => Value::tuple(items.iter().map(&mut one).collect()),
            Value::List(l) => Value::list(l.snapshot().iter().map(&mut one).collect()),
            v => one(v),
        }
    }
}
