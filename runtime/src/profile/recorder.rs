//! The recorder: begin/end of records with exclusive (measured or sampled)
//! host times and the running aggregates for the three tables; what the
//! backends report is in `backend.rs`. One per session, behind the run lock
//! (`lock.rs`) so that backends can reach it too.

pub use super::backend::Counters;
use super::clock::{self, Tick};
pub use super::records::*;
use crate::device::Device;
use crate::interp::Source;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A record that has begun and not ended.
pub(super) struct Open {
    pub(super) index: usize,
    /// The clock at its start when its host time is measured, with the
    /// weight it counts with in its row's estimate (`Agg::host_weight`).
    pub(super) start: Option<(Tick, u64)>,
    pub(super) child_ns: u64,
    /// Kernel launches made so far.
    pub(super) launches: u32,
    /// Its launches' sampling weight, decided at its first launch (0: not timed).
    pub(super) weight: Option<u64>,
}

/// Everything recorded since profiling began or was last reset.
pub struct State {
    /// Bumped by reset: tokens of an older generation are ignored.
    pub generation: u32,
    /// Records' start times count from here (set when profiling first starts).
    pub(super) origin: Option<Tick>,
    on_since: Option<Instant>,
    wall_before: Duration,
    /// The last clock reading (ns from `origin`): an unmeasured record's start.
    pub(super) last_ns: u64,
    /// Every record (stored or not) in start order; `records` holds the first MAX_RECORDS.
    pub records: Records,
    pub dropped: u64,
    pub kinds: Table<String>,
    pub kernels: Table<String>,
    pub sites: Table<Site>,
    pub counters: Counters,
    pub(super) open: Vec<Open>,
    /// Records beyond MAX_RECORDS that are still open (by depth).
    overflow: Vec<Record>,
    /// Sources of the user functions being called, innermost last (their
    /// statements' spans point into these, not into the running cell).
    pub(crate) sources: Vec<Arc<Source>>,
    /// The last site looked up (key, id): loops hit it every time.
    pub(crate) last_site: (u64, u32),
    /// Kernel key -> (kind id, kernel id): one lookup a record.
    pairs: std::collections::HashMap<u64, (u32, u32), std::hash::BuildHasherDefault<KeyHasher>>,
}

/// Names a begun record until it ends (and, for launches, until device time arrives).
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub(crate) generation: u32,
    /// Index into `records`, or `usize::MAX` when it was not stored.
    pub(crate) index: usize,
    pub(crate) kind: u32,
    pub(crate) kernel: u32,
    pub(crate) site: u32,
}

impl State {
    pub fn new(on: bool) -> State {
        let now = Instant::now();
        let origin = on.then(clock::now);
        State {
            generation: 0,
            origin,
            on_since: on.then_some(now),
            wall_before: Duration::ZERO,
            last_ns: 0,
            records: Records::default(),
            dropped: 0,
            kinds: Table::default(),
            kernels: Table::default(),
            sites: Table::default(),
            counters: Counters::default(),
            open: Vec::new(),
            overflow: Vec::new(),
            sources: Vec::new(),
            last_site: (0, 0),
            pairs: Default::default(),
        }
    }

    /// The kind and kernel ids of a kernel key; on a miss the kind's key and
    /// name and the kernel's name are made by `make`.
    #[inline]
    pub fn kind_kernel(
        &mut self,
        kernel_key: u64,
        make: impl FnOnce() -> (u64, String, String),
    ) -> (u32, u32) {
        if let Some(&p) = self.pairs.get(&kernel_key) {
            return p;
        }
        let (kind_key, kind, kernel) = make();
        let k = self.kinds.intern(kind_key, || kind);
        let kn = self.kernels.intern(kernel_key, || kernel);
        self.pairs.insert(kernel_key, (k, kn));
        (k, kn)
    }

    /// Forget open records and function sources left by a run that unwound.
    pub(crate) fn clear_open(&mut self) {
        self.open.clear();
        self.overflow.clear();
        self.sources.clear();
    }

    /// Profiling switched on or off (`set profile = ...`).
    pub fn set_on(&mut self, on: bool) {
        match (on, self.on_since) {
            (true, None) => {
                self.on_since = Some(Instant::now());
                self.origin.get_or_insert_with(clock::now);
            }
            (false, Some(t)) => {
                self.wall_before += t.elapsed();
                self.on_since = None;
            }
            _ => {}
        }
    }

    pub fn is_on(&self) -> bool {
        self.on_since.is_some()
    }

    /// Wall time profiled since the last reset (the sum of the on intervals).
    pub fn wall(&self) -> Duration {
        self.wall_before + self.on_since.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Forget everything; keep counting from now if on.
    pub fn reset(&mut self) {
        let on = self.is_on();
        let generation = self.generation.wrapping_add(1);
        let sources = std::mem::take(&mut self.sources);
        *self = State::new(on);
        self.generation = generation;
        self.sources = sources;
    }

    /// Begin a record (ended by `end`). `bytes_in`: the inputs' bytes.
    pub fn begin(
        &mut self,
        class: Class,
        kind: u32,
        kernel: u32,
        site: u32,
        device: Device,
        bytes_in: u64,
    ) -> Token {
        // Host-time sampling (`Agg::host_weight`): the clock is read for some calls only.
        let w = match self.kernels.agg(kernel) {
            Some(a) => {
                let w = a.host_weight();
                a.host_calls += 1;
                w
            }
            None => 1,
        };
        let start = (w > 0).then(|| {
            self.counters.host_timed += 1;
            let t = clock::now();
            self.last_ns = t.ns_since(*self.origin.get_or_insert(t));
            (t, w)
        });
        let rec = Record {
            class,
            kind,
            kernel,
            site,
            device,
            start_ns: self.last_ns,
            host_ns: 0,
            device_ns: 0,
            bytes_alloc: 0,
            bytes_moved: bytes_in,
            ended: false,
            launches: 0,
            timed: false,
            host_timed: start.is_some(),
        };
        let index = if self.records.len() < MAX_RECORDS {
            self.records.push(rec);
            self.records.len() - 1
        } else {
            self.dropped += 1;
            self.overflow.push(rec);
            usize::MAX
        };
        self.open.push(Open {
            index,
            start,
            child_ns: 0,
            launches: 0,
            weight: None,
        });
        Token {
            generation: self.generation,
            index,
            kind,
            kernel,
            site,
        }
    }

    /// End the innermost record begun with `tok`: its exclusive host time, output
    /// bytes, and its device when only the output tells it (creation ops).
    pub fn end(&mut self, tok: Token, bytes_out: u64, device: Option<Device>) {
        if tok.generation != self.generation {
            return;
        }
        let Some(open) = self.open.pop() else { return };
        // Measured, or its kernel row's estimate (nested records' totals are out of both).
        let (own, total) = match open.start {
            Some((start, w)) => {
                let end = clock::now();
                let total = end.ns_since(start);
                if let Some(o) = self.origin {
                    self.last_ns = end.ns_since(o);
                }
                let own = total.saturating_sub(open.child_ns);
                if let Some(a) = self.kernels.agg(tok.kernel) {
                    a.add_host_sample(own, w);
                }
                (own, total)
            }
            None => {
                let own = self.kernels.agg(tok.kernel).map_or(0, |a| a.host_mean_ns);
                (own, own + open.child_ns)
            }
        };
        if let Some(parent) = self.open.last_mut() {
            parent.child_ns += total;
        }
        let mut overflow;
        let rec = if open.index == usize::MAX {
            overflow = self.overflow.pop();
            overflow.as_mut()
        } else {
            self.records.get_mut(open.index)
        };
        let Some(rec) = rec else { return };
        rec.host_ns = own;
        rec.bytes_alloc = bytes_out;
        rec.bytes_moved += bytes_out;
        rec.ended = true;
        rec.launches = open.launches;
        rec.timed = open.weight.is_some_and(|w| w > 0);
        if let Some(d) = device {
            rec.device = d;
        }
        let moved = rec.bytes_moved;
        self.add_to_aggs(&tok, bytes_out, moved, own, false);
        if open.launches > 0 {
            // Its launches' (estimated) device time stands for its host time.
            for a in self.aggs3(&tok) {
                a.launch_host_ns += own;
                a.refresh();
            }
        }
    }

    /// The kind, kernel and site rows of a token.
    pub(super) fn aggs3(&mut self, tok: &Token) -> impl Iterator<Item = &mut Agg> {
        [
            self.kinds.agg(tok.kind),
            self.kernels.agg(tok.kernel),
            self.sites.agg(tok.site),
        ]
        .into_iter()
        .flatten()
    }

    pub(super) fn add_to_aggs(
        &mut self,
        tok: &Token,
        alloc: u64,
        moved: u64,
        own: u64,
        has_device: bool,
    ) {
        for a in [
            self.kinds.agg(tok.kind),
            self.kernels.agg(tok.kernel),
            self.sites.agg(tok.site),
        ]
        .into_iter()
        .flatten()
        {
            a.calls += 1;
            a.host_ns += own;
            a.bytes_alloc += alloc;
            a.bytes_moved += moved;
            if has_device {
                a.exact_host_ns += own;
                // Nothing else here changes what `refresh` derives.
                a.refresh();
            }
        }
    }

    /// The innermost open record (what a launch belongs to).
    pub fn current(&self) -> Option<Token> {
        let o = self.open.last()?;
        let r = if o.index == usize::MAX {
            self.overflow.last()
        } else {
            self.records.get(o.index)
        }?;
        Some(Token {
            generation: self.generation,
            index: o.index,
            kind: r.kind,
            kernel: r.kernel,
            site: r.site,
        })
    }

    /// The site of the innermost open record, or an "(outside any op)" site.
    pub fn current_site(&mut self) -> u32 {
        match self.current() {
            Some(t) => t.site,
            None => self.sites.intern(0, || Site {
                file: "(outside any op)".into(),
                line: 0,
                text: String::new(),
            }),
        }
    }

    /// Time spent inside records (exclusive host times, every record counted once).
    pub fn op_time(&self) -> Duration {
        let ns: u64 = self.kinds.aggs.iter().map(|a| a.host_ns).sum();
        Duration::from_nanos(ns)
    }
}
