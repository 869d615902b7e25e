//! Reverse-mode differentiation (`grad`, `value_and_grad`). While a gradient
//! function runs, the interpreter holds a `Tape`; the few choke points where
//! arrays are made (fused elementwise trees, builtin calls, indexing) record a
//! node when an input is tracked, and tag the result with the node's id
//! (`Array::node`). Nodes hold their inputs by reference (shared buffers, no
//! copies); `backward.rs` walks them in reverse with the rules of the op table.

mod arrays;
mod backward;
pub mod builtins;
pub mod ewb;
mod pytree;
pub mod rules;
pub mod rules_assemble;
pub mod rules_fft;
pub mod rules_linalg;
pub mod rules_scan;
pub mod rules_sort;
mod rules_spectral;
pub mod rules_stats;
pub(crate) mod writes;

use crate::array::Array;
use crate::array::index::Resolved;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::fuse::{self, EwNode, Operand};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use std::sync::atomic::{AtomicU64, Ordering};

/// A non-elementwise op's gradient rule: the gradient of each input given the
/// upstream gradient `call.g`, in the order of `flat_inputs(call.pos)` (lists
/// of arrays are flattened: `concat([a, b])` gives one gradient per array);
/// `None` or a missing entry: no gradient for that input.
pub type GradFn = fn(&mut Interp, &GradCall) -> Result<Vec<Option<Value>>>;

/// What a gradient rule sees: the call's arguments as given, its output and
/// the upstream gradient (of the output's shape).
pub struct GradCall {
    /// Whether each input (as in `flat_inputs`) needs its gradient.
    pub needs: Vec<bool>,
    pub pos: Vec<Value>,
    pub kw: Vec<(String, Value)>,
    pub out: Array,
    pub g: Array,
    /// An op that returns a tuple (`qr`, `svd`, `eigh`, `slogdet`): each
    /// item's array (`None` for a non-float item) and its upstream gradient
    /// (`None` where none reached it); `out` and `g` are then the first
    /// ones present. Empty for an op that returns one array.
    pub outs: Vec<Option<Array>>,
    pub gs: Vec<Option<Array>>,
}

/// Tapes are told apart by a serial in the high half of node ids, so ids left
/// on arrays by an earlier tape are never mistaken for this one's.
static SERIAL: AtomicU64 = AtomicU64::new(0);

pub struct Tape {
    serial: u64,
    nodes: Vec<TapeNode>,
    /// Buffers written, owned and kept by nodes (see writes/).
    buffers: writes::Buffers,
}

struct TapeNode {
    kind: NodeKind,
    shape: Vec<usize>,
    dtype: crate::DType,
}

enum NodeKind {
    /// An argument being differentiated.
    Leaf,
    /// A fused elementwise tree (its leaves carry their node ids).
    Ew { tree: EwNode, out: Array },
    Op {
        /// The op (its name is the profiler's `grad of <op>`).
        op: &'static OpDef,
        rule: GradFn,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        out: Array,
        /// Node ids of `flat_inputs(pos)` (0: untracked).
        inputs: Vec<u64>,
    },
    /// An op that returned a tuple: its items are `Part` nodes, whose
    /// gradients are gathered for one call of the rule.
    Multi {
        op: &'static OpDef,
        rule: GradFn,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        outs: Vec<Option<Array>>,
        inputs: Vec<u64>,
    },
    /// Item `k` of the tuple a `Multi` node (id `multi`) returned.
    Part { multi: u64, k: usize },
    /// `base[idx]`.
    Index { base: u64, idx: Resolved },
    /// `sum(tree)` or `mean(tree)` over every element, fused (`scale`: 1 or 1/n).
    Reduce {
        tree: EwNode,
        scale: f64,
        out: Array,
    },
    /// An array read from a written buffer: `layout` of the flat node `flat`.
    View { flat: u64, layout: writes::Layout },
    /// A write into a buffer: the whole buffer, flat, after it.
    Write(Box<writes::WriteNode>),
}

impl Tape {
    pub fn new() -> Tape {
        Tape {
            serial: SERIAL.fetch_add(1, Ordering::Relaxed) + 1,
            nodes: Vec::new(),
            buffers: writes::Buffers::default(),
        }
    }

    fn push(&mut self, kind: NodeKind, out: &Array) -> u64 {
        self.push_shaped(kind, out.shape().to_vec(), out.dtype(), Some(out))
    }

    /// A node of this shape and dtype; `out`: the array it made, if any.
    fn push_shaped(
        &mut self,
        kind: NodeKind,
        shape: Vec<usize>,
        dtype: crate::DType,
        out: Option<&Array>,
    ) -> u64 {
        self.nodes.push(TapeNode { kind, shape, dtype });
        let id = (self.serial << 32) | self.nodes.len() as u64;
        self.note_node(id, self.nodes.len() - 1, out);
        id
    }

    /// A differentiated argument: `a` tagged as a new leaf.
    pub fn leaf(&mut self, a: Array) -> Array {
        let id = self.push(NodeKind::Leaf, &a);
        a.with_node(id)
    }

    /// The position of node `id` on this tape.
    fn index_of(&self, id: u64) -> Option<usize> {
        let i = (id & 0xffff_ffff) as usize;
        (id >> 32 == self.serial && i >= 1 && i <= self.nodes.len()).then(|| i - 1)
    }

    pub fn tracks(&self, a: &Array) -> bool {
        a.node() != 0 && self.index_of(a.node()).is_some()
    }

    fn tracks_value(&self, v: &Value) -> bool {
        match v {
            Value::Array(a) => self.tracks(a),
            Value::Tuple(_) | Value::List(_) => v
                .seq_items()
                .is_some_and(|t| t.iter().any(|x| self.tracks_value(x))),
            Value::Dict(d) => d.snapshot().values().any(|(_, x)| self.tracks_value(x)),
            _ => false,
        }
    }

    fn tracks_tree(&self, n: &EwNode) -> bool {
        match n {
            EwNode::Leaf(Operand::Array(a)) => self.tracks(a),
            EwNode::Leaf(_) => false,
            EwNode::Op { args, .. } => args.iter().any(|a| self.tracks_tree(a)),
        }
    }
}

impl Default for Tape {
    fn default() -> Tape {
        Tape::new()
    }
}

/// The arrays among a call's positional arguments, tuples flattened one
/// level (what a rule's result is aligned with). Recorded arguments hold no
/// lists: `frozen` made them tuples.
pub fn flat_inputs(pos: &[Value]) -> Vec<&Value> {
    let mut out = Vec::new();
    for v in pos {
        match v {
            Value::Tuple(t) => out.extend(t.iter()),
            v => out.push(v),
        }
    }
    out
}

/// An argument as the tape records it: a list becomes a tuple of its items
/// now, so that changing the list later does not change the recorded call.
fn frozen(v: &Value) -> Value {
    match v {
        Value::List(l) => Value::Tuple(l.snapshot()),
        other => other.clone(),
    }
}

/// Whether a result may carry a gradient (floats only: ints and bools are constants).
/// The error of a tracked value flowing into a complex result: the tape
/// holds real arrays only, so the gradient would be lost (never a silent 0).
fn complex_on_tape(what: &str) -> Error {
    Error::value(format!(
        "grad: {what} has no gradient for complex values yet (a differentiated input reaches it through a complex value)"
    ))
    .with_help("gradients flow through the fft family, + - * / neg conj real imag abs angle exp log sqrt square, sum, mean, indexing, reshape, transpose, concatenate and stack of complex values; compute this part outside grad or in real parts")
}

fn differentiable(a: &Array) -> bool {
    a.dtype().is_float() || a.dtype().is_complex()
}

impl Interp {
    /// Evaluate a fused elementwise tree, recording it when the tape tracks a leaf.
    pub(crate) fn eval_tree(&mut self, mut node: EwNode) -> Result<Operand> {
        self.refresh_tree(&mut node);
        if !self.tape.as_ref().is_some_and(|t| t.tracks_tree(&node)) {
            return self.fuse_eval(node);
        }
        if crate::ops::complex_ew::has_complex(&node) {
            return self.eval_complex_taped(node);
        }
        let tree = node.clone();
        match self.fuse_eval(node)? {
            Operand::Array(a) if differentiable(&a) => {
                let Some(tape) = self.tape.as_mut() else {
                    return Ok(Operand::Array(a));
                };
                let id = tape.push(
                    NodeKind::Ew {
                        tree,
                        out: a.clone(),
                    },
                    &a,
                );
                Ok(Operand::Array(a.with_node(id)))
            }
            Operand::Array(a) if a.dtype().is_complex() => {
                Err(complex_on_tape("an elementwise expression"))
            }
            o => Ok(o),
        }
    }

    /// A tree with complex values under grad: op by op, each complex op
    /// recorded with its complex gradient rule (`rules_fft`), the real
    /// parts as ordinary fused trees.
    fn eval_complex_taped(&mut self, node: EwNode) -> Result<Operand> {
        let EwNode::Op { op, args } = node else {
            return match node {
                EwNode::Leaf(o) => Ok(o),
                EwNode::Op { .. } => Err(Error::internal("unreachable tree form")),
            };
        };
        let vals = args
            .into_iter()
            .map(|a| self.eval_tree(a))
            .collect::<Result<Vec<_>>>()?;
        if !vals.iter().any(crate::ops::complex_ew::is_complex) {
            let leaves = vals.into_iter().map(EwNode::Leaf).collect();
            return self.eval_tree(EwNode::Op { op, args: leaves });
        }
        let Some(c) = crate::ops::complex_ew::cx_op(op) else {
            return Err(crate::ops::complex_ew::unsupported(op.name, &vals));
        };
        let Some(def) = crate::ops::complex::cx_def(c) else {
            return Err(complex_on_tape(op.name));
        };
        let pos = vals.into_iter().map(Operand::into_value).collect();
        let v = self.call_def_taped(
            def,
            Args::new(def.name, pos, vec![], gcalc_lang::Span::default()),
        )?;
        fuse::operand(&v)
    }

    /// `sum(tree)` / `mean(tree)` over every element of an elementwise tree
    /// (one launch on a GPU: `fuse::reduce_tree`), recorded when the tape
    /// tracks a leaf of the tree.
    pub(crate) fn reduce_tree(&mut self, mut node: EwNode, mean: bool) -> Result<Array> {
        self.refresh_tree(&mut node);
        if !self.tape.as_ref().is_some_and(|t| t.tracks_tree(&node)) {
            return self.fuse_reduce(node, mean);
        }
        if crate::ops::complex_ew::has_complex(&node) {
            // Complex values: the tree op by op, then the taped sum or mean.
            let v = self.eval_tree(node)?.into_value();
            let def = op(if mean { "mean" } else { "sum" })?;
            return match self.call_def_taped(
                def,
                Args::new(def.name, vec![v], vec![], gcalc_lang::Span::default()),
            )? {
                Value::Array(a) => Ok(a),
                other => Ok(crate::array::create::value_to_array(
                    &other,
                    None,
                    self.float_x(),
                )?),
            };
        }
        let tree = node.clone();
        let out = self.fuse_reduce(node, mean)?;
        let Some(tape) = self.tape.as_mut() else {
            return Ok(out);
        };
        if !differentiable(&out) {
            return Ok(out);
        }
        let scale = match mean {
            true => {
                let mut shape = None;
                fuse::tree_shape(&tree, &mut shape)?;
                let n: usize = shape.unwrap_or_default().iter().product();
                if n == 0 {
                    return Ok(out);
                }
                1.0 / n as f64
            }
            false => 1.0,
        };
        let kind = NodeKind::Reduce {
            tree,
            scale,
            out: out.clone(),
        };
        let id = tape.push(kind, &out);
        Ok(out.with_node(id))
    }

    /// A builtin call while a tape is active: recorded when an input is tracked
    /// and the op has a gradient rule.
    pub(crate) fn call_def_taped(&mut self, def: &'static OpDef, mut args: Args) -> Result<Value> {
        if self.tape.as_ref().is_some_and(|t| t.has_writes()) {
            args.pos = args.pos.iter().map(|v| self.refresh_value(v)).collect();
            args.kw = args
                .kw
                .iter()
                .map(|(k, v)| (k.clone(), self.refresh_value(v)))
                .collect();
        }
        let tracked = self.tape.as_ref().is_some_and(|t| {
            args.pos.iter().any(|v| t.tracks_value(v))
                || args.kw.iter().any(|(_, v)| t.tracks_value(v))
        });
        if !tracked {
            return self.call_def_raw(def, args);
        }
        let complex_in = self.tape.as_ref().is_some_and(|t| {
            args.pos
                .iter()
                .chain(args.kw.iter().map(|(_, v)| v))
                .any(|v| matches!(v, Value::Array(a) if a.dtype().is_complex() && t.tracks(a)))
        });
        if complex_in && !crate::ops::complex::complex_grad_ok(def) {
            return Err(complex_on_tape(def.name));
        }
        // A list of tracked arrays where an array is meant (`array([a, b])`,
        // `sum([l1, l2])`, `exp([a, b])`): its items stacked on the tape, as
        // JAX's `jnp.array` (else the list would be copied untracked).
        let lifts = ARRAY_CTORS.contains(&def.name)
            || matches!(def.kind, OpKind::Reduce(_) | OpKind::Elementwise(_));
        if lifts {
            for k in 0..args.pos.len() {
                let v = &args.pos[k];
                if matches!(v, Value::List(_) | Value::Tuple(_))
                    && self.tape.as_ref().is_some_and(|t| t.tracks_value(v))
                {
                    let v = v.clone();
                    args.pos[k] = self.stack_tracked(&v, args.span)?;
                }
                if ARRAY_CTORS.contains(&def.name) {
                    break;
                }
            }
            if ARRAY_CTORS.contains(&def.name) && matches!(args.pos.first(), Some(Value::Array(_)))
            {
                let x = args.pos.swap_remove(0);
                return match args.kw.iter().find(|(k, _)| k.as_str() == "dtype") {
                    Some((_, d)) => {
                        let d = d.clone();
                        let astype = op("astype")?;
                        self.call_def_taped(
                            astype,
                            Args::new(astype.name, vec![x, d], vec![], args.span),
                        )
                    }
                    None => Ok(x),
                };
            }
        }
        let rule = match (&def.kind, def.grad) {
            (OpKind::Elementwise(_), _)
                if crate::ops::elementwise::alternate(def, args.pos.len() + args.kw.len())
                    .is_some() =>
            {
                return self.call_def_raw(def, args);
            }
            (OpKind::Elementwise(_), _) => {
                let mut args = args;
                fuse::lists_to_arrays(self, &mut args)?;
                let tree = fuse::call_tree(def, args)?;
                return Ok(self.eval_tree(tree)?.into_value());
            }
            // `where=`/`initial=` are composed of taped calls (ops/reduce_where.rs).
            (OpKind::Reduce(_), Some(_)) if crate::ops::reduce_where::wanted(&args) => {
                return self.call_def_raw(def, args);
            }
            // `order="F"` is composed of taped calls (ops/shape_order.rs).
            (OpKind::Func(_), Some(_)) if crate::ops::shape_order::composed(def, &args) => {
                return self.call_def_raw(def, args);
            }
            (OpKind::Func(_) | OpKind::Reduce(_), Some(rule)) => rule,
            (OpKind::Func(_) | OpKind::Reduce(_), None) => {
                let out = self.call_def_raw(def, args)?;
                let untracked = |a: &Array| !self.tape.as_ref().is_some_and(|t| t.tracks(a));
                return match &out {
                    Value::Array(a) if a.dtype().is_complex() && untracked(a) => {
                        Err(complex_on_tape(def.name))
                    }
                    _ => Ok(out),
                };
            }
        };
        let pos: Vec<Value> = args.pos.iter().map(frozen).collect();
        let kw: Vec<(String, Value)> = args
            .kw
            .iter()
            .map(|(k, v)| (k.clone(), frozen(v)))
            .collect();
        let out = self.call_def_raw(def, args)?;
        if let Value::Tuple(_) = &out {
            return Ok(self.record_multi(def, rule, pos, kw, out));
        }
        let (Value::Array(a), Some(tape)) = (&out, self.tape.as_mut()) else {
            return Ok(out);
        };
        if !differentiable(a) {
            return Ok(out);
        }
        let inputs = flat_inputs(&pos)
            .iter()
            .map(|v| match v {
                Value::Array(x) if tape.tracks(x) => x.node(),
                _ => 0,
            })
            .collect();
        let kind = NodeKind::Op {
            op: def,
            rule,
            pos,
            kw,
            out: a.clone(),
            inputs,
        };
        let id = tape.push(kind, a);
        Ok(Value::Array(a.clone().with_node(id)))
    }

    /// A call that returned a tuple of arrays: one `Multi` node for the call
    /// and a `Part` node tagging each float item.
    fn record_multi(
        &mut self,
        def: &'static OpDef,
        rule: GradFn,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        out: Value,
    ) -> Value {
        let Value::Tuple(items) = &out else {
            return out;
        };
        let outs: Vec<Option<Array>> = items
            .iter()
            .map(|v| match v {
                Value::Array(a) if differentiable(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        let (Some(first), Some(tape)) = (outs.iter().flatten().next().cloned(), self.tape.as_mut())
        else {
            return out;
        };
        // Items the op recorded itself, one node each (`split`, `meshgrid`:
        // `rules_assemble::record_part`), stay as they are.
        if outs.iter().flatten().any(|a| tape.tracks(a)) {
            return out;
        }
        let inputs = flat_inputs(&pos)
            .iter()
            .map(|v| match v {
                Value::Array(x) if tape.tracks(x) => x.node(),
                _ => 0,
            })
            .collect();
        let kind = NodeKind::Multi {
            op: def,
            rule,
            pos,
            kw,
            outs: outs.clone(),
            inputs,
        };
        let multi = tape.push(kind, &first);
        let tagged: Vec<Value> = items
            .iter()
            .zip(&outs)
            .enumerate()
            .map(|(k, (v, o))| match o {
                Some(a) => {
                    let id = tape.push(NodeKind::Part { multi, k }, a);
                    Value::Array(a.clone().with_node(id))
                }
                None => v.clone(),
            })
            .collect();
        match items.names() {
            Some(names) => Value::named_tuple(tagged, names),
            None => Value::tuple(tagged),
        }
    }

    /// `base[idx]` gave `out`: recorded when `base` is tracked.
    pub(crate) fn record_index(&mut self, base: &Array, idx: &Resolved, out: Array) -> Array {
        match self.tape.as_mut() {
            Some(t) if t.tracks(base) && differentiable(&out) => {
                let kind = NodeKind::Index {
                    base: base.node(),
                    idx: idx.clone(),
                };
                let id = t.push(kind, &out);
                out.with_node(id)
            }
            _ => out,
        }
    }
}

/// The constructors whose list argument is stacked on the tape.
const ARRAY_CTORS: &[&str] = &["array", "asarray"];

impl Interp {
    /// A list, tuple or range operand of an elementwise op as an array:
    /// stacked on the tape when it holds tracked arrays, else made where new
    /// arrays go (`fuse::list_operand`). None for other values.
    pub(crate) fn lift_list(&mut self, v: &Value, span: gcalc_lang::Span) -> Result<Option<Value>> {
        if matches!(v, Value::List(_) | Value::Tuple(_))
            && self.tape.as_ref().is_some_and(|t| t.tracks_value(v))
        {
            return self.stack_tracked(v, span).map(Some);
        }
        fuse::list_operand(self, v)
    }

    /// The nested list or tuple `v` (holding tracked arrays) as one array,
    /// made by taped `stack` calls; numbers become 0-d arrays.
    fn stack_tracked(&mut self, v: &Value, span: gcalc_lang::Span) -> Result<Value> {
        let items = v.seq_items().unwrap_or_default();
        let mut parts = Vec::with_capacity(items.len());
        for it in items.iter() {
            parts.push(match it {
                Value::List(_) | Value::Tuple(_) => self.stack_tracked(it, span)?,
                Value::Array(_) => it.clone(),
                other => Value::Array(crate::array::create::value_to_array(
                    other,
                    None,
                    self.float_x(),
                )?),
            });
        }
        let stack = op("stack")?;
        self.call_def_taped(
            stack,
            Args::new(stack.name, vec![Value::list(parts)], vec![], span),
        )
    }
}

/// An op of the table, by name (an internal error if it is missing).
pub(crate) fn op(name: &str) -> Result<&'static OpDef> {
    crate::ops::lookup(name)
        .ok_or_else(|| crate::Error::internal(format!("op `{name}` missing from the op table")))
}
