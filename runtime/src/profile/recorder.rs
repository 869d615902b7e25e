//! The recorder: begin/end of records with exclusive (measured or sampled)
//! host times, each adding to one entry (a kernel at a site) from which the
//! three tables are summed when a report is made; what the backends report
//! is in `backend.rs`. One per session, behind the run lock
//! (`lock.rs`) so that backends can reach it too.

pub use super::backend::Counters;
use super::clock::{self, Tick};
pub use super::records::*;
use crate::device::Device;
use crate::source::Source;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Slots of the entry cache (`State::entry_cache`): 2^ENTRY_CACHE_BITS.
const ENTRY_CACHE_BITS: u32 = 8;
const ENTRY_CACHE: usize = 1 << ENTRY_CACHE_BITS;

/// A record that has begun and not ended (32 bytes: one is pushed and
/// popped around every profiled call).
pub(super) struct Open {
    /// Index into `records`, or `NOT_STORED`.
    pub(super) index: u32,
    pub(super) entry: u32,
    /// The clock at its start when its host time is measured (`host_weight > 0`).
    pub(super) start: Tick,
    pub(super) child_ns: u64,
    /// Kernel launches made so far (saturating).
    pub(super) launches: u16,
    /// Its launches' sampling weight, decided at its first launch (0: not
    /// timed; `UNDECIDED` before it).
    pub(super) weight: u8,
    /// The weight its measured host time counts with (`Agg::host_weight`; 0:
    /// not measured).
    pub(super) host_weight: u8,
}

const _: () = assert!(std::mem::size_of::<Open>() == 32);

/// `Open::index` of a record beyond `MAX_RECORDS` (kept in `overflow`).
pub(super) const NOT_STORED: u32 = u32::MAX;
/// `Open::weight` before a record's first launch.
pub(super) const UNDECIDED: u8 = u8::MAX;

impl Open {
    /// Its launches' weight, once decided.
    pub(super) fn launch_weight(&self) -> Option<u64> {
        (self.weight != UNDECIDED).then_some(self.weight as u64)
    }
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
    /// What records add to (`Entry`), by the key `mix(site key, kernel key)`.
    pub entries: Vec<Entry>,
    entry_ids: Table<()>,
    /// The last entry seen in each of `ENTRY_CACHE` slots (by the key's top
    /// bits): a loop's records find their entry by one compare, not a probe
    /// of `entry_ids` (perf put that probe at ~40% of `profiled_call`'s samples).
    entry_cache: Box<[(u64, u32); ENTRY_CACHE]>,
    pub counters: Counters,
    pub(super) open: Vec<Open>,
    /// Records beyond MAX_RECORDS that are still open (by depth).
    overflow: Vec<Record>,
    /// Sources of the user functions being called, innermost last (their
    /// statements' spans point into these, not into the running cell).
    pub(crate) sources: Vec<Arc<Source>>,
}

/// Names a begun record until it ends (and, for launches, until device time arrives).
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub(crate) generation: u32,
    /// Index into `records`, or `NOT_STORED` (12 bytes: returned in registers).
    pub(crate) index: u32,
    pub(crate) entry: u32,
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
            entries: Vec::new(),
            entry_ids: Table::default(),
            entry_cache: Box::new([(0, u32::MAX); ENTRY_CACHE]),
            counters: Counters::default(),
            open: Vec::new(),
            overflow: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// The entry of `key` (`mix(site key, kernel key)`), if it has one.
    #[inline]
    pub fn entry_of(&mut self, key: u64) -> Option<u32> {
        let slot = &mut self.entry_cache[(key >> (64 - ENTRY_CACHE_BITS)) as usize];
        if slot.0 == key && slot.1 != u32::MAX {
            return Some(slot.1);
        }
        let id = self.entry_ids.get(key)?;
        *slot = (key, id);
        Some(id)
    }

    /// A new entry for `key` (its kind, kernel and site interned by the caller).
    pub fn add_entry(&mut self, key: u64, class: Class, kind: u32, kernel: u32, site: u32) -> u32 {
        let id = self.entry_ids.intern(key, || ());
        if id as usize == self.entries.len() {
            self.entries.push(Entry {
                class,
                kind,
                kernel,
                site,
                bytes_in: 0,
                agg: Agg::default(),
            });
        }
        id
    }

    /// The entry of a record.
    pub fn entry(&self, r: &Record) -> Option<&Entry> {
        self.entries.get(r.entry as usize)
    }

    /// Bytes a record allocated (its outputs; none for a copy or compile).
    pub fn bytes_alloc(&self, r: &Record) -> u64 {
        match self.entry(r).map(|e| e.class) {
            Some(Class::Transfer | Class::Compile) => 0,
            _ => r.bytes_out,
        }
    }

    /// Bytes a record moved: its inputs and outputs (a copy: the bytes copied).
    pub fn bytes_moved(&self, r: &Record) -> u64 {
        match self.entry(r) {
            Some(e) if matches!(e.class, Class::Transfer | Class::Compile) => r.bytes_out,
            Some(e) => e.bytes_in + r.bytes_out,
            None => r.bytes_out,
        }
    }

    /// Rows of a table: the refreshed sums of the entries with each id that
    /// `id` gives, indexed by it (`n` ids).
    fn table_aggs(&self, n: usize, id: impl Fn(&Entry) -> u32) -> Vec<Agg> {
        let mut v = vec![Agg::default(); n];
        for e in &self.entries {
            let mut a = e.agg.clone();
            a.refresh();
            if let Some(row) = v.get_mut(id(e) as usize) {
                row.merge(&a);
            }
        }
        v
    }
    /// The op-kind table's rows, indexed like `kinds.names`.
    pub fn kind_aggs(&self) -> Vec<Agg> {
        self.table_aggs(self.kinds.names.len(), |e| e.kind)
    }
    /// The kernel table's rows, indexed like `kernels.names`.
    pub fn kernel_aggs(&self) -> Vec<Agg> {
        self.table_aggs(self.kernels.names.len(), |e| e.kernel)
    }
    /// The site table's rows, indexed like `sites.names`.
    pub fn site_aggs(&self) -> Vec<Agg> {
        self.table_aggs(self.sites.names.len(), |e| e.site)
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

    /// Begin a record of `entry` (ended by `end`). `bytes_in`: the inputs' bytes.
    #[inline(always)]
    pub fn begin(&mut self, entry: u32, device: Device, bytes_in: u64) -> Token {
        // Host-time sampling (`Agg::host_weight`): the clock is read for some calls only.
        let w = match self.entries.get_mut(entry as usize) {
            Some(e) => {
                let w = e.agg.host_weight();
                e.agg.host_calls += 1;
                e.bytes_in = bytes_in;
                w
            }
            None => 1,
        };
        let rec = Record::new(entry, device, self.last_ns, w > 0);
        // Stored before the clock is read: a new chunk's pages (`Records::push`)
        // are the profiler's cost, not the op's.
        let index = if self.records.len() < MAX_RECORDS {
            self.records.push(rec)
        } else {
            self.overflow_push(rec)
        };
        let start = if w > 0 {
            self.start_clock(index)
        } else {
            Tick::ZERO
        };
        self.open.push(Open {
            index,
            entry,
            start,
            child_ns: 0,
            launches: 0,
            weight: UNDECIDED,
            host_weight: w as u8,
        });
        Token {
            generation: self.generation,
            index,
            entry,
        }
    }

    /// A record beyond `MAX_RECORDS`: kept while open, then only aggregated.
    #[cold]
    fn overflow_push(&mut self, rec: Record) -> u32 {
        self.dropped += 1;
        self.overflow.push(rec);
        NOT_STORED
    }

    /// Read the clock for a measured record's start (stored at `index`).
    fn start_clock(&mut self, index: u32) -> Tick {
        self.counters.host_timed += 1;
        let t = clock::now();
        self.last_ns = t.ns_since(*self.origin.get_or_insert(t));
        let rec = match index {
            NOT_STORED => self.overflow.last_mut(),
            i => self.records.get_mut(i as usize),
        };
        if let Some(r) = rec {
            r.start_ns = self.last_ns;
        }
        t
    }

    /// End the innermost record begun with `tok`: its exclusive host time, output
    /// bytes, and its device when only the output tells it (creation ops).
    #[inline(always)]
    pub fn end(&mut self, tok: Token, bytes_out: u64, device: Option<Device>) {
        if tok.generation != self.generation {
            return;
        }
        let Some(open) = self.open.pop() else { return };
        let Some(e) = self.entries.get_mut(open.entry as usize) else {
            return;
        };
        let a = &mut e.agg;
        // Measured, or its entry's estimate (nested records' totals are out of both).
        let (own, total) = if open.host_weight > 0 {
            let end = clock::now();
            let total = end.ns_since(open.start);
            if let Some(o) = self.origin {
                self.last_ns = end.ns_since(o);
            }
            let own = total.saturating_sub(open.child_ns);
            a.add_host_sample(own, open.host_weight as u64);
            (own, total)
        } else {
            (a.host_mean_ns, a.host_mean_ns + open.child_ns)
        };
        a.calls += 1;
        a.host_ns += own;
        a.bytes_alloc += bytes_out;
        a.bytes_moved += e.bytes_in + bytes_out;
        if open.launches > 0 {
            // Its launches' (estimated) device time stands for its host time.
            a.launch_host_ns += own;
        }
        if let Some(parent) = self.open.last_mut() {
            parent.child_ns += total;
        }
        let mut overflow;
        let rec = if open.index == NOT_STORED {
            overflow = self.overflow.pop();
            overflow.as_mut()
        } else {
            self.records.get_mut(open.index as usize)
        };
        let Some(rec) = rec else { return };
        rec.host_ns = own;
        rec.bytes_out = bytes_out;
        rec.set_ended();
        rec.set_launches(open.launches as u32);
        rec.set_timed(open.launch_weight().is_some_and(|w| w > 0));
        if let Some(d) = device {
            rec.set_device(d);
        }
    }

    /// The innermost open record (what a launch belongs to).
    pub fn current(&self) -> Option<Token> {
        let o = self.open.last()?;
        Some(Token {
            generation: self.generation,
            index: o.index,
            entry: o.entry,
        })
    }

    /// The site of the innermost open record, or an "(outside any op)" site.
    pub fn current_site(&mut self) -> u32 {
        match self
            .current()
            .and_then(|t| self.entries.get(t.entry as usize))
        {
            Some(e) => e.site,
            None => self.sites.intern(0, || Site {
                file: "(outside any op)".into(),
                line: 0,
                text: String::new(),
            }),
        }
    }

    /// Time spent inside records (exclusive host times, every record counted once).
    pub fn op_time(&self) -> Duration {
        let ns: u64 = self.entries.iter().map(|e| e.agg.host_ns).sum();
        Duration::from_nanos(ns)
    }
}
