//! `for` loops whose GPU work repeats, replayed as a CUDA graph: a training
//! loop of small steps pays one graph launch per iteration instead of the
//! interpreter and a launch per op (issue 21). Semantics stay eager: a
//! loop is replayed only when re-running its body could not differ from
//! replaying what it queued.
//!
//! # How
//! 1. *Watch* (at most `WATCH` iterations, interpreted as usual): before
//!    each, the loop's state is fingerprinted (`state_words`: every variable
//!    in scope, GPU arrays by buffer address and layout, host values by
//!    identity or value, the generator, the flags); during each, anything
//!    the body does that a replay would skip is noted (`Watch`): reading
//!    the loop variable other than as `i % n` (a mini-batch index: the
//!    residues are noted, and a replayed item must give the same ones),
//!    output, writing a host array, a builtin with effects (`has_effects`:
//!    printing, files, plots, random draws, devices...), and on the GPU a sync, a host copy or a pool call
//!    (`host_events`). Once `p` (1 to `PERIOD`) clean iterations on one GPU
//!    lead back to a state seen `p` iterations earlier, the body is periodic.
//! 2. *Capture*: the next `p` iterations are interpreted with the GPU's
//!    stream recording (`cuda/graph.rs`); the graph is launched (that runs
//!    them) and kept if they were clean and led back to their start state.
//! 3. *Replay*: each further `p` iterations are one graph launch; fewer
//!    than `p` left at the end run as usual. The loop variable ends as it
//!    would have.
//!
//! While this runs, the GPU's block cache keeps every freed block (so the
//! recorded iteration allocates nothing and the graph's addresses stay
//! gcalc's). It is on by default; `set loop_graphs = false` turns it off; the profiler,
//! `launch_blocking`, autodiff recording and an enclosing watched loop turn
//! it off.

use super::{Flow, Interp, Iter};
use crate::backend::devices::{self, LoopGraph};
use crate::error::Result;
use crate::output::{DisplayData, Output, Progress};
use crate::value::Value;
use gcalc_lang::ast::{Block, Target};
use std::cell::{Cell, RefCell};

/// Iterations watched for a period before the loop runs as usual.
const WATCH: usize = 72;
/// Longest period looked for (iterations recorded in one graph): enough for
/// `j = i % 10` picking one of ten batches while buffers rotate in twos.
const PERIOD: usize = 32;
/// Captures tried before the loop runs as usual.
const ATTEMPTS: usize = 3;
/// Fewest iterations a loop must have for a graph to be worth making.
const MIN_ITERS: u64 = 8;
/// Most words a state fingerprint may take (bigger states run as usual).
const MAX_WORDS: usize = 1 << 16;

/// What the interpreter notes while a loop body is watched.
pub(crate) struct Watch {
    var: String,
    /// The first thing seen that a replay would skip.
    pub(crate) tainted: Cell<Option<&'static str>>,
    /// Set just before the loop variable is read as the left side of `%`.
    residue_read: Cell<bool>,
    /// `(n, i % n)` for each `i % n` the body computed, in order: all it
    /// saw of the loop variable `i`.
    residues: RefCell<Vec<(i64, i64)>>,
}

impl Watch {
    /// A read of variable `n` (every read passes here while watched).
    #[inline]
    pub(crate) fn read(&self, n: &str) {
        let residue = self.residue_read.replace(false);
        if n == self.var && !residue {
            self.taint("the body reads the loop variable (other than as `i % n`)");
        }
    }
    /// A write of variable `n`: the loop variable must end as the loop left it.
    #[inline]
    pub(crate) fn write(&self, n: &str) {
        if n == self.var {
            self.taint("the body assigns the loop variable");
        }
    }
    pub(crate) fn taint(&self, why: &'static str) {
        if self.tainted.get().is_none() {
            self.tainted.set(Some(why));
        }
    }
    /// Whether `e` names the loop variable (`i % n` is then watched apart).
    pub(crate) fn is_var(&self, e: &gcalc_lang::ast::Expr) -> bool {
        matches!(&e.kind, gcalc_lang::ast::ExprKind::Name(n) if *n == self.var)
    }
}

/// The loop's state at an iteration boundary, and the GPU counters then.
struct Mark {
    words: Option<Vec<u64>>,
    gpus: Vec<(u32, u64, u64)>,
    host_writes: u64,
}

/// `(n, i % n)` for each `i % n` each recorded iteration took of its item `i`.
type Residues = Vec<Vec<(i64, i64)>>;

/// What one watched iteration showed: the first thing a replay would skip,
/// and the residues it took of the loop variable.
struct Seen {
    taint: Option<&'static str>,
    residues: Vec<(i64, i64)>,
}

enum Stage {
    Watch,
    /// The graph of `residues.len()` iterations.
    Replay(LoopGraph, Residues),
    Plain,
}

/// Loop iterations replayed by graph launches, in this process (tests).
static REPLAYS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many loop iterations were replayed as CUDA graphs in this process
/// (a launch of a graph of a `p`-iteration period counts `p`).
pub fn replays() -> u64 {
    REPLAYS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Why loops are or are not replayed, on stderr (`GCALC_LOOP_GRAPHS_DEBUG=1`).
fn debug(msg: impl FnOnce() -> String) {
    use std::sync::OnceLock;
    static ON: OnceLock<bool> = OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("GCALC_LOOP_GRAPHS_DEBUG").is_some_and(|v| v != "0")) {
        eprintln!("loop_graphs: {}", msg());
    }
}

impl Interp {
    /// `i % n` on the loop variable `i` of a watched loop: the one way the
    /// body may see `i`, since a replayed item with the same residues gives
    /// the same iteration (`Replay` checks each item's residues). `i % n`
    /// of anything but integers taints the iteration.
    pub(super) fn watched_residue(
        &mut self,
        lhs: &gcalc_lang::ast::Expr,
        rhs: &gcalc_lang::ast::Expr,
        span: gcalc_lang::Span,
    ) -> Result<super::eval::Node> {
        use crate::ops::fuse::{EwNode, Operand};
        if let Some(w) = &self.watch {
            w.residue_read.set(true);
        }
        let l = self.ew_node(lhs)?;
        let r = self.ew_node(rhs)?;
        let n = match (&l, &r) {
            (Ok(EwNode::Leaf(Operand::Int(_))), Ok(EwNode::Leaf(Operand::Int(n)))) => Some(*n),
            _ => None,
        };
        let node = self.binary_node(gcalc_lang::ast::BinOp::Mod, l, r, span)?;
        let v = self.node_to_value(node)?;
        if let Some(w) = &self.watch {
            match (n, &v) {
                (Some(n), &Value::Int(res)) => w.residues.borrow_mut().push((n, res)),
                _ => w.taint("the body takes `i % n` of the loop variable with a non-integer"),
            }
        }
        Ok(super::eval::leaf(v))
    }
}

impl Interp {
    /// Whether a `for` loop starting now may be made into a graph.
    pub(super) fn loop_graphs_apply(&self, items: &Iter) -> bool {
        self.flags.loop_graphs
            && self.watch.is_none()
            && self.tape.is_none()
            && !self.flags.profile
            && !self.flags.launch_blocking
            && !crate::profile::backend::is_on()
            && items.len().is_some_and(|n| n >= MIN_ITERS)
            && !devices::gpu_counters().is_empty()
    }

    /// A `for` loop over `items` that watches its body and replays it as a
    /// graph once it repeats (module docs). `Ok(flow)` as `plain_loop` gives.
    pub(super) fn graph_loop(
        &mut self,
        var: &Target,
        items: &mut Iter,
        body: &Block,
        iter_span: gcalc_lang::Span,
    ) -> Result<Flow> {
        let Target::Name(id) = var else {
            return self.plain_loop(var, Vec::new(), items, body, iter_span);
        };
        let holds = devices::gpu_counters()
            .iter()
            .map(|&(i, ..)| devices::hold_blocks(i))
            .collect::<Result<Vec<_>>>()?;
        let mut marks: Vec<(Mark, bool, Vec<(i64, i64)>)> = Vec::new();
        let mut stage = Stage::Watch;
        let mut last: Option<Value> = None;
        let mut attempts = 0;
        // Items taken but not run when the loop goes on as usual.
        let mut pending: Vec<Value> = Vec::new();
        loop {
            match stage {
                Stage::Plain => break,
                Stage::Watch => {
                    let Some(item) = items.next(self)? else {
                        return Ok(Flow::Normal(None));
                    };
                    self.check_interrupt().map_err(|e| e.at(iter_span))?;
                    self.assign(var, item)?;
                    let start = self.mark(&id.name);
                    let (flow, seen) = self.watched(&id.name, |s| s.exec_block(&body.stmts));
                    match flow? {
                        Flow::Break => return Ok(Flow::Normal(None)),
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    let clean = seen.taint.is_none();
                    if let Some(why) = seen.taint {
                        debug(|| format!("iteration {} not replayable: {why}", marks.len()));
                    }
                    if marks.is_empty() {
                        marks.push((start, true, Vec::new()));
                    }
                    marks.push((self.mark(&id.name), clean, seen.residues));
                    match self.find_period(&marks) {
                        Some((p, gpu)) => {
                            debug(|| {
                                format!(
                                    "period {p} on gpu({gpu}) after {} iterations",
                                    marks.len() - 1
                                )
                            });
                            attempts += 1;
                            stage = match self
                                .capture(var, items, body, iter_span, p, gpu, &mut last)?
                            {
                                Some((g, residues)) => Stage::Replay(g, residues),
                                // The buffers may settle later: watch again.
                                None if attempts < ATTEMPTS => {
                                    marks.clear();
                                    Stage::Watch
                                }
                                None => Stage::Plain,
                            };
                        }
                        None if marks.len() > WATCH => {
                            debug(|| "no period found: the loop runs as usual".into());
                            stage = Stage::Plain;
                        }
                        None => {}
                    }
                }
                Stage::Replay(ref g, ref residues) => {
                    let p = residues.len();
                    while let Some(item) = items.next(self)? {
                        pending.push(item);
                        if pending.len() < p {
                            continue;
                        }
                        if !same_residues(&pending, residues) {
                            debug(|| {
                                "an item's residues differ from the recorded ones: \
                                 the loop runs as usual"
                                    .into()
                            });
                            break;
                        }
                        if let Err(e) = self.check_interrupt() {
                            // The iterations before this one ran.
                            if let Some(v) = last.take() {
                                self.assign(var, v)?;
                            }
                            return Err(e.at(iter_span));
                        }
                        g.launch().map_err(|e| e.at(iter_span))?;
                        REPLAYS.fetch_add(p as u64, std::sync::atomic::Ordering::Relaxed);
                        last = pending.pop();
                        pending.clear();
                    }
                    if let Some(v) = last.take() {
                        self.assign(var, v)?;
                    }
                    break;
                }
            }
        }
        drop(holds);
        // Fewer than a period left, or a loop that does not repeat: as usual.
        self.plain_loop(var, pending, items, body, iter_span)
    }

    /// Interpret `p` iterations with GPU `gpu` recording, launch what they
    /// queued, and keep it as the loop's graph when they were clean and
    /// came back to their start state. `None`: the loop goes on as usual.
    #[allow(clippy::too_many_arguments)]
    fn capture(
        &mut self,
        var: &Target,
        items: &mut Iter,
        body: &Block,
        iter_span: gcalc_lang::Span,
        p: usize,
        gpu: u32,
        last: &mut Option<Value>,
    ) -> Result<Option<(LoopGraph, Residues)>> {
        if items.len().is_some_and(|n| n < 2 * p as u64) {
            return Ok(None);
        }
        let Target::Name(id) = var else {
            return Ok(None);
        };
        let start = self.mark(&id.name);
        devices::begin_capture(gpu).map_err(|e| e.at(iter_span))?;
        let mut flow = Ok(Flow::Normal(None));
        let mut taint = None;
        let mut residues: Residues = Vec::with_capacity(p);
        for _ in 0..p {
            let item = match items.next(self) {
                Ok(Some(item)) => item,
                Ok(None) => break,
                Err(e) => {
                    flow = Err(e);
                    break;
                }
            };
            *last = Some(item.clone());
            if let Err(e) = self.assign(var, item) {
                flow = Err(e);
                break;
            }
            let (f, seen) = self.watched(&id.name, |s| s.exec_block(&body.stmts));
            residues.push(seen.residues);
            taint = taint.or(seen.taint);
            match f {
                Ok(Flow::Normal(_) | Flow::Continue) => {}
                other => {
                    flow = other;
                    break;
                }
            }
        }
        let graph = devices::end_capture(gpu);
        // What was queued before an error or a `break` still runs, as it would have.
        let graph = match graph {
            Ok(g) => g,
            Err(e) => {
                debug(|| format!("the capture failed: {e}"));
                return Err(flow
                    .err()
                    .unwrap_or_else(|| devices::capture_failed(&e.message).at(iter_span)));
            }
        };
        if let Some(g) = &graph {
            g.launch().map_err(|e| e.at(iter_span))?;
        }
        match flow? {
            Flow::Break | Flow::Return(_) => {
                return Err(devices::capture_failed("it left the loop").at(iter_span));
            }
            _ => {}
        }
        let end = self.mark(&id.name);
        let why = if let Some(t) = taint {
            Some(t)
        } else if residues.len() < p {
            Some("the loop ended")
        } else if start.words.is_none() || start.words != end.words {
            Some("the state did not come back")
        } else if self.gpu_use(&start, &end) != Some(gpu) {
            Some("its GPU work changed")
        } else {
            None
        };
        match (why, graph) {
            (None, Some(g)) => {
                debug(|| {
                    format!(
                        "replaying a graph of {} operations every {p} iteration(s)",
                        g.nodes()
                    )
                });
                Ok(Some((g, residues)))
            }
            (why, _) => {
                debug(|| {
                    format!(
                        "captured iterations not replayable: {}",
                        why.unwrap_or("no GPU work")
                    )
                });
                Ok(None)
            }
        }
    }

    /// Run `f` with the body watched: what it returned, and what it showed.
    fn watched(
        &mut self,
        var: &str,
        f: impl FnOnce(&mut Self) -> Result<Flow>,
    ) -> (Result<Flow>, Seen) {
        self.watch = Some(Box::new(Watch {
            var: var.to_string(),
            tainted: Cell::new(None),
            residue_read: Cell::new(false),
            residues: RefCell::new(Vec::new()),
        }));
        let inner = std::mem::replace(&mut self.out, Box::new(crate::output::Captured::default()));
        self.out = Box::new(WatchedOutput { inner, used: false });
        let r = f(self);
        let watched =
            std::mem::replace(&mut self.out, Box::new(crate::output::Captured::default()));
        let (inner, used) = watched
            .into_watched()
            .expect("the watched output is the one put there");
        self.out = inner;
        let mut seen = Seen {
            taint: None,
            residues: Vec::new(),
        };
        if let Some(w) = self.watch.take() {
            seen.taint = w.tainted.get();
            seen.residues = w.residues.into_inner();
        }
        if used {
            seen.taint = seen.taint.or(Some("the body writes output"));
        }
        (r, seen)
    }

    fn mark(&self, var: &str) -> Mark {
        Mark {
            words: self.state_words(var),
            gpus: devices::gpu_counters(),
            host_writes: crate::backend::storage::host_writes(),
        }
    }

    /// The one GPU an iteration between `a` and `b` launched on, when it did
    /// nothing a graph cannot hold on any GPU and wrote no host array.
    fn gpu_use(&self, a: &Mark, b: &Mark) -> Option<u32> {
        if a.host_writes != b.host_writes || a.gpus.len() != b.gpus.len() {
            return None;
        }
        let mut used = None;
        for (&(i, la, ea), &(j, lb, eb)) in a.gpus.iter().zip(&b.gpus) {
            if i != j || ea != eb {
                return None;
            }
            if lb != la {
                if used.is_some() {
                    return None;
                }
                used = Some(i);
            }
        }
        used
    }

    /// A period `p` and the GPU: the last `p` iterations were clean, used one
    /// GPU, came back to the state before them, and took the same residues
    /// of the loop variable as the `p` before them (`marks[k]`: the state
    /// after iteration `k`, whether it was clean, its residues).
    fn find_period(&self, marks: &[(Mark, bool, Vec<(i64, i64)>)]) -> Option<(usize, u32)> {
        let n = marks.len() - 1;
        let now = marks[n].0.words.as_ref()?;
        'periods: for p in 1..=PERIOD.min(n) {
            let then = &marks[n - p].0;
            if then.words.as_ref() != Some(now) {
                continue;
            }
            let mut gpu = None;
            for k in n - p..n {
                let (ref after, clean, ref residues) = marks[k + 1];
                if !residues.is_empty() && (k < p || marks[k + 1 - p].2 != *residues) {
                    continue 'periods;
                }
                if !clean {
                    return None;
                }
                let g = self.gpu_use(&marks[k].0, after)?;
                if gpu.is_some_and(|x| x != g) {
                    return None;
                }
                gpu = Some(g);
            }
            return gpu.map(|g| (p, g));
        }
        None
    }

    /// The loop's state as words (module docs); `None` when too big to compare.
    fn state_words(&self, skip: &str) -> Option<Vec<u64>> {
        let mut w = Vec::with_capacity(256);
        w.extend([
            self.rng.key,
            self.rng.counter,
            self.exit_status.unwrap_or(-1) as u64,
        ]);
        w.push(hash(format!("{:?}", self.flags)));
        w.push(hash(format!("{:?}", self.print_options)));
        let scopes = std::iter::once(&self.globals).chain(self.frames.last());
        for scope in scopes {
            w.push(scope.len() as u64);
            for (k, v) in scope {
                // The loop variable changes every iteration; the body never reads it.
                if k == skip {
                    continue;
                }
                w.push(hash(k.as_str()));
                value_words(v, &mut w, 0)?;
                if w.len() > MAX_WORDS {
                    return None;
                }
            }
        }
        Some(w)
    }
}

/// Whether the items of a period give the residues the recorded iterations
/// took (`i % n` as Python's: the sign of `n`).
fn same_residues(items: &[Value], residues: &Residues) -> bool {
    items.iter().zip(residues).all(|(item, rs)| {
        rs.is_empty()
            || matches!(item, Value::Int(i) if rs.iter().all(|&(n, r)| {
                let m = i.wrapping_rem(n);
                let m = if m != 0 && (m < 0) != (n < 0) { m + n } else { m };
                m == r
            }))
    })
}

fn hash(x: impl std::hash::Hash) -> u64 {
    use std::hash::BuildHasher;
    std::hash::BuildHasherDefault::<crate::fxhash::FxHasher>::default().hash_one(x)
}

/// `v` as words: what a replay must find unchanged (module docs).
fn value_words(v: &Value, w: &mut Vec<u64>, depth: usize) -> Option<()> {
    if depth > 8 || w.len() > MAX_WORDS {
        return None;
    }
    let ptr = |p: *const u8| p as usize as u64;
    match v {
        Value::None => w.push(0),
        Value::Bool(b) => w.extend([1, *b as u64]),
        Value::Int(n) => w.extend([2, *n as u64]),
        Value::Float(f) => w.extend([3, f.to_bits()]),
        Value::Complex(a, b) => w.extend([4, a.to_bits(), b.to_bits()]),
        Value::Str(s) => w.extend([5, ptr(s.as_ptr()), s.len() as u64]),
        Value::Array(a) => {
            // GPU arrays by device address: the graph sees addresses, and
            // a new array in a reused block is one (its `Arc` is not).
            w.extend([6, a.buffer_identity(), hash(a.device())]);
            w.extend([a.dtype() as u64, a.offset() as u64, a.ndim() as u64]);
            w.extend(a.shape().iter().map(|&d| d as u64));
            w.extend(a.strides().iter().map(|&s| s as u64));
        }
        Value::Tuple(t) => {
            w.extend([7, t.len() as u64]);
            for x in t.iter() {
                value_words(x, w, depth + 1)?;
            }
        }
        Value::List(l) => {
            let items = l.snapshot();
            w.extend([8, items.len() as u64]);
            for x in items.iter() {
                value_words(x, w, depth + 1)?;
            }
        }
        Value::Dict(d) => {
            let items = d.snapshot();
            w.extend([9, items.len() as u64]);
            for (k, x) in items.values() {
                value_words(k, w, depth + 1)?;
                value_words(x, w, depth + 1)?;
            }
        }
        Value::Func(f) => w.extend([10, ptr(std::sync::Arc::as_ptr(f) as *const u8)]),
        Value::Builtin(d) => w.extend([11, ptr(*d as *const _ as *const u8)]),
        Value::Method(r, d) => {
            w.extend([12, ptr(*d as *const _ as *const u8)]);
            value_words(r, w, depth + 1)?;
        }
        Value::Device(d) => w.extend([13, hash(d)]),
        Value::DType(d) => w.extend([14, *d as u64]),
        Value::Range(a, b, s) => w.extend([15, *a as u64, *b as u64, *s as u64]),
        Value::Object(o) => w.extend([16, ptr(std::sync::Arc::as_ptr(o) as *const u8)]),
    }
    Some(())
}

/// The session's output while a body is watched: passes everything on and
/// notes that something was written (a replay would not write it).
struct WatchedOutput {
    inner: Box<dyn Output>,
    used: bool,
}

impl Output for WatchedOutput {
    fn stdout(&mut self, text: &str) {
        self.used = true;
        self.inner.stdout(text)
    }
    fn stderr(&mut self, text: &str) {
        self.used = true;
        self.inner.stderr(text)
    }
    fn display(&mut self, data: &DisplayData) {
        self.used = true;
        self.inner.display(data)
    }
    fn rich(&self) -> bool {
        self.inner.rich()
    }
    fn clear_output(&mut self, wait: bool) {
        self.used = true;
        self.inner.clear_output(wait)
    }
    fn input(&mut self, prompt: &str) -> Option<String> {
        self.used = true;
        self.inner.input(prompt)
    }
    fn progress(&mut self, p: &Progress) {
        self.inner.progress(p)
    }
    fn into_watched(self: Box<Self>) -> Option<(Box<dyn Output>, bool)> {
        Some((self.inner, self.used))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{has_effects, lookup};

    #[test]
    fn builtins_with_effects_are_named() {
        for name in [
            "print", "display", "randn", "rand", "seed", "sync", "save", "plot", "input", "timeit",
        ] {
            let def = lookup(name).unwrap_or_else(|| panic!("{name} is a builtin"));
            assert!(has_effects(def), "{name} has effects");
        }
        // The list methods (`xs.append(x)`); `append(a, v)` is NumPy's, pure.
        assert!(
            crate::containers::methods::LIST_METHODS
                .iter()
                .all(has_effects),
            "list methods have effects"
        );
        assert!(!has_effects(lookup("append").expect("np.append")));
        for name in [
            "exp",
            "sum",
            "matmul",
            "sigmoid",
            "mean",
            "log_softmax",
            "zeros",
            "len",
            "grad",
            "where",
        ] {
            let def = lookup(name).unwrap_or_else(|| panic!("{name} is a builtin"));
            assert!(!has_effects(def), "{name} has no effects");
        }
    }

    #[test]
    fn residues_are_pythons() {
        let rec = |rs: &[(i64, i64)]| vec![rs.to_vec()];
        let ok = |i: i64, rs: &[(i64, i64)]| same_residues(&[Value::Int(i)], &rec(rs));
        assert!(ok(13, &[(10, 3)]) && !ok(14, &[(10, 3)]));
        // The sign of the divisor, as `-7 % 3 == 2` and `7 % -3 == -2`.
        assert!(ok(-7, &[(3, 2)]) && ok(7, &[(-3, -2)]) && ok(-6, &[(-3, 0)]));
        assert!(ok(i64::MIN, &[(-1, 0)]));
        // Every residue an iteration took; none taken: any item.
        assert!(ok(14, &[(10, 4), (4, 2)]) && !ok(14, &[(10, 4), (4, 1)]));
        assert!(same_residues(&[Value::Float(1.5)], &vec![vec![]]));
        assert!(!same_residues(&[Value::Float(1.5)], &rec(&[(2, 1)])));
    }

    #[test]
    fn state_words_tell_rebinding_from_the_same_value() {
        let a = crate::Array::from_vec(vec![1.0f32, 2.0], vec![2]);
        let words = |v: &Value| {
            let mut w = Vec::new();
            value_words(v, &mut w, 0).expect("small values have words");
            w
        };
        let x = Value::Array(a.clone());
        assert_eq!(
            words(&x),
            words(&Value::Array(a.clone())),
            "the same buffer"
        );
        let b = crate::Array::from_vec(vec![1.0f32, 2.0], vec![2]);
        assert_ne!(
            words(&x),
            words(&Value::Array(b)),
            "another buffer, same values"
        );
        assert_ne!(words(&Value::Int(1)), words(&Value::Int(2)));
        let l = crate::containers::List::new(vec![Value::Int(1)]);
        let before = words(&Value::List(l.clone()));
        l.modify(|xs| xs.push(Value::Int(2)));
        assert_ne!(before, words(&Value::List(l)), "a list that grew");
    }
}
