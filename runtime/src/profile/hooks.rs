//! The interpreter's side of the profiler: the profiled paths behind the
//! one-branch hooks in `call_def` and where fused trees are evaluated, and the
//! short names of op kinds, kernels and sites (built once per distinct key).

use super::HOOKS;
use super::recorder::{Class, Site, State, mix};

/// What a new entry is made of (built only on an entry's first record).
pub(super) struct NewEntry {
    pub(super) class: Class,
    pub(super) kind_key: u64,
    pub(super) kind: String,
    pub(super) kernel: String,
}
use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::ops::OpDef;
use crate::ops::fuse::{self, EwNode, Operand};
use crate::value::Value;

impl Interp {
    /// Evaluate a fused elementwise tree, recording it when profiling.
    #[inline]
    pub(crate) fn fuse_eval(&mut self, node: EwNode) -> Result<Operand> {
        if HOOKS && self.flags.profile {
            return self.profiled_fuse(node);
        }
        fuse::eval(node, self.float_x())
    }

    #[cold]
    fn profiled_fuse(&mut self, node: EwNode) -> Result<Operand> {
        let fx = self.float_x();
        self.profiled_tree(node, None, |n| fuse::eval(n, fx))
    }

    /// `sum(tree)` / `mean(tree)` over every element (`fuse::reduce_tree`),
    /// recorded when profiling as `sum(fused(...))`.
    #[inline]
    pub(crate) fn fuse_reduce(&mut self, node: EwNode, mean: bool) -> Result<Array> {
        let fx = self.float_x();
        if HOOKS && self.flags.profile {
            let name = if mean { ReduceOp::Mean } else { ReduceOp::Sum }.name();
            let r = self.profiled_tree(node, Some(name), |n| {
                fuse::reduce_tree(n, mean, fx).map(Operand::Array)
            })?;
            return match r {
                Operand::Array(a) => Ok(a),
                _ => Err(crate::Error::internal("a fused reduction gave a scalar")),
            };
        }
        fuse::reduce_tree(node, mean, fx)
    }

    /// One record around `run(node)`: a fused tree, or a reduction `red` of one.
    #[cold]
    fn profiled_tree(
        &mut self,
        node: EwNode,
        red: Option<&'static str>,
        run: impl FnOnce(EwNode) -> Result<Operand>,
    ) -> Result<Operand> {
        let mut w = Walk::default();
        walk(&node, &mut w);
        if w.arrays == 0 {
            // Scalars only: interpreter work, no kernel.
            return run(node);
        }
        if let Some(name) = red {
            w.kind_key = mix(w.kind_key, name.as_ptr() as u64);
            w.kernel_key = mix(w.kernel_key, name.as_ptr() as u64);
        }
        let device = w.device.unwrap_or(Device::Cpu);
        let tok = {
            let mut st = self.profiler.lock();
            let entry = self.entry_id(&mut st, w.kernel_key, || {
                let (k, e) = (kind_name(&node), kernel_name(&node));
                let (kind, kernel) = match red {
                    Some(r) => (format!("{r}({k})"), format!("{r}({e}) {device}")),
                    None => (k, format!("{e} {device}")),
                };
                NewEntry {
                    class: Class::Fused,
                    kind_key: w.kind_key,
                    kind,
                    kernel,
                }
            });
            st.begin(entry, device, w.bytes)
        };
        let r = run(node);
        let out = match &r {
            Ok(Operand::Array(a)) => a.nbytes() as u64,
            _ => 0,
        };
        self.profiler.lock().end(tok, out, None);
        r
    }

    /// `profile()`'s own calls are not recorded (it reads and may clear the records).
    #[cold]
    pub(crate) fn profiled_call(&mut self, def: &'static OpDef, args: Args) -> Result<Value> {
        if std::ptr::eq(def, &super::OPS[0]) {
            return self.call_def_inner(def, args);
        }
        let mut kernel_key = mix(7, def.name.as_ptr() as u64);
        let mut bytes = 0u64;
        let mut device = None;
        let mut device_arg = None;
        for v in args.pos.iter().chain(args.kw.iter().map(|(_, v)| v)) {
            kernel_key = mix(kernel_key, value_key(v));
            match v {
                Value::Array(a) => {
                    bytes += a.nbytes() as u64;
                    device.get_or_insert(a.device());
                    kernel_key = array_key(kernel_key, a);
                }
                Value::Device(d) => {
                    device_arg.get_or_insert(*d);
                    kernel_key = mix(kernel_key, super::device_key(*d));
                }
                _ => {}
            }
        }
        let tok = {
            let mut st = self.profiler.lock();
            let dev = device.or(device_arg).unwrap_or(Device::Cpu);
            // Named by the device of its arrays or its `device=` argument;
            // with neither (`zeros(3)`: the default device) by none.
            let named = device.or(device_arg);
            let entry = self.entry_id(&mut st, kernel_key, || NewEntry {
                class: Class::Op,
                kind_key: mix(5, def.name.as_ptr() as u64),
                kind: def.name.to_string(),
                kernel: match named {
                    Some(d) => format!("{} {d}", call_name(def, &args)),
                    None => call_name(def, &args),
                },
            });
            st.begin(entry, dev, bytes)
        };
        let r = self.call_def_inner(def, args);
        let (out, out_dev) = match &r {
            Ok(v) => value_bytes(v),
            Err(_) => (0, None),
        };
        self.profiler
            .lock()
            .end(tok, out, if device.is_none() { out_dev } else { None });
        r
    }

    /// Entering a user function (while profiling): its statements are sited in its source.
    #[cold]
    pub(crate) fn profile_enter_fn(&self, src: &std::sync::Arc<crate::source::Source>) -> bool {
        self.profiler.lock().sources.push(src.clone());
        true
    }

    #[cold]
    pub(crate) fn profile_leave_fn(&self) {
        self.profiler.lock().sources.pop();
    }

    /// The entry of `kernel_key` at the current statement: one hash lookup;
    /// on its first record the site, kind and kernel are interned (`make`).
    #[inline]
    pub(super) fn entry_id(
        &self,
        st: &mut State,
        kernel_key: u64,
        make: impl FnOnce() -> NewEntry,
    ) -> u32 {
        let site_key = self.site_key(st);
        let key = mix(site_key, kernel_key);
        if let Some(e) = st.entry_of(key) {
            return e;
        }
        let site = self.site_id(st, site_key);
        let n = make();
        let kind = st.kinds.intern(n.kind_key, || n.kind);
        let kernel = st.kernels.intern(kernel_key, || n.kernel);
        st.add_entry(key, n.class, kind, kernel, site)
    }

    /// The key of the current statement's site: its source and span.
    #[inline]
    fn site_key(&self, st: &State) -> u64 {
        let span = self.current_stmt;
        let src_ptr = match st.sources.last() {
            Some(s) => std::sync::Arc::as_ptr(s),
            None => self.source() as *const _,
        };
        mix(
            mix(mix(9, src_ptr as u64), span.start as u64),
            span.end as u64,
        )
    }

    /// The id of the current statement's site (`file:line`, its text).
    #[cold]
    fn site_id(&self, st: &mut State, key: u64) -> u32 {
        let span = self.current_stmt;
        let src = st.sources.last().cloned();
        let src = src.as_deref().unwrap_or(self.source());
        st.sites.intern(key, || {
            let (line, _) = gcalc_lang::span::line_col(&src.text, span.start as usize);
            let text = gcalc_lang::span::line_text(&src.text, line).trim();
            let text = match text.char_indices().nth(60) {
                Some((i, _)) => format!("{}...", &text[..i]),
                None => text.to_string(),
            };
            Site {
                file: src.name.clone(),
                line,
                text,
            }
        })
    }
}

/// Keys and sizes gathered in one pass over a tree.
#[derive(Default)]
pub(super) struct Walk {
    pub(super) kind_key: u64,
    pub(super) kernel_key: u64,
    arrays: u32,
    bytes: u64,
    device: Option<Device>,
}

pub(super) fn walk(n: &EwNode, w: &mut Walk) {
    match n {
        EwNode::Leaf(Operand::Array(a)) => {
            w.arrays += 1;
            w.bytes += a.nbytes() as u64;
            w.device.get_or_insert(a.device());
            w.kind_key = mix(w.kind_key, 1);
            w.kernel_key = array_key(mix(w.kernel_key, 1), a);
        }
        EwNode::Leaf(o) => {
            let tag = match o {
                Operand::Int(_) => 2,
                Operand::Float(_) => 3,
                _ => 4,
            };
            w.kind_key = mix(w.kind_key, 2);
            w.kernel_key = mix(w.kernel_key, tag);
        }
        EwNode::Op { op, args } => {
            let id = op.name.as_ptr() as u64;
            w.kind_key = mix(mix(w.kind_key, id), args.len() as u64);
            w.kernel_key = mix(mix(w.kernel_key, id), args.len() as u64);
            for a in args {
                walk(a, w);
            }
        }
    }
}

pub(super) fn array_key(h: u64, a: &Array) -> u64 {
    let mut h = mix(mix(h, a.dtype() as u64), super::device_key(a.device()));
    h = mix(h, a.ndim() as u64);
    for &d in a.shape() {
        h = mix(h, d as u64);
    }
    h
}

fn value_key(v: &Value) -> u64 {
    match v {
        Value::Array(_) => 11,
        Value::Int(_) => 12,
        Value::Float(_) => 13,
        Value::Bool(_) => 14,
        Value::Str(_) => 15,
        _ => 16,
    }
}

/// `sum`, or `fused(exp(add(x0, s)))` for a tree of more than one op.
pub(super) fn kind_name(n: &EwNode) -> String {
    if let EwNode::Op { op, args } = n
        && args.iter().all(|a| matches!(a, EwNode::Leaf(_)))
    {
        return op.name.to_string();
    }
    let mut s = String::from("fused(");
    let mut k = 0;
    tree_text(n, &mut s, &mut k, false);
    s.push(')');
    s
}

/// `exp(add(float32[1000], int))`: the tree with each leaf's dtype and shape.
pub(super) fn kernel_name(n: &EwNode) -> String {
    let mut s = String::new();
    let mut k = 0;
    tree_text(n, &mut s, &mut k, true);
    s
}

fn tree_text(n: &EwNode, s: &mut String, k: &mut usize, typed: bool) {
    match n {
        EwNode::Leaf(Operand::Array(a)) => {
            if typed {
                s.push_str(&array_text(a));
            } else {
                s.push_str(&format!("x{k}"));
            }
            *k += 1;
        }
        EwNode::Leaf(o) => s.push_str(match (typed, o) {
            (false, _) => "s",
            (true, Operand::Int(_)) => "int",
            (true, Operand::Float(_)) => "float",
            _ => "bool",
        }),
        EwNode::Op { op, args } => {
            s.push_str(op.name);
            s.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                tree_text(a, s, k, typed);
            }
            s.push(')');
        }
    }
}

pub(super) fn array_text(a: &Array) -> String {
    let dims: Vec<String> = a.shape().iter().map(|d| d.to_string()).collect();
    format!("{}[{}]", a.dtype().name(), dims.join(","))
}

/// `sum(float32[1000], axis=int)`.
fn call_name(def: &OpDef, args: &Args) -> String {
    let one = |v: &Value| match v {
        Value::Array(a) => array_text(a),
        Value::Device(d) => d.to_string(),
        other => other.type_name().to_string(),
    };
    let mut parts: Vec<String> = args.pos.iter().map(one).collect();
    parts.extend(args.kw.iter().map(|(k, v)| format!("{k}={}", one(v))));
    format!("{}({})", def.name, parts.join(", "))
}

/// Bytes of the arrays in a result, and their device.
fn value_bytes(v: &Value) -> (u64, Option<Device>) {
    match v {
        Value::Array(a) => (a.nbytes() as u64, Some(a.device())),
        Value::Tuple(_) | Value::List(_) => {
            let t = v.seq_items().unwrap_or_default();
            let mut n = 0;
            let mut d = None;
            for x in t.iter() {
                if let Value::Array(a) = x {
                    n += a.nbytes() as u64;
                    d.get_or_insert(a.device());
                }
            }
            (n, d)
        }
        _ => (0, None),
    }
}
