//! The profiler's data: one record per operation, the entries (one per kernel
//! at a source site) that records add to, the aggregate sums of a table row,
//! source sites, and the name tables keyed by 64-bit structural keys.

use crate::device::Device;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Raw records kept for `profile(file=...)`; later ones are only aggregated.
pub const MAX_RECORDS: usize = 1_000_000;
const _: () = assert!(MAX_RECORDS < u32::MAX as usize);

/// What a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A builtin call (op-table entry called as a function: sum, matmul, zeros, print...).
    Op,
    /// A fused elementwise tree.
    Fused,
    /// A host/device copy.
    Transfer,
    /// A kernel compile (NVRTC) or a load from the kernel cache.
    Compile,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Op => "op",
            Class::Fused => "fused",
            Class::Transfer => "transfer",
            Class::Compile => "compile",
        }
    }
}

/// Direction of a transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

impl Direction {
    pub fn short(self) -> &'static str {
        match self {
            Direction::HostToDevice => "H2D",
            Direction::DeviceToHost => "D2H",
            Direction::DeviceToDevice => "D2D",
        }
    }
}

/// One recorded operation (40 bytes: a profiled loop writes one every few
/// hundred nanoseconds, and their memory was a third of the profiler's cost).
/// Times in nanoseconds; `start_ns` counts from the last reset. `host_ns` is
/// exclusive: time spent in nested records is not in it. Its class, op kind,
/// kernel, site and input bytes are its entry's (`State::entries`,
/// `State::bytes_moved`).
#[derive(Clone, Debug)]
pub struct Record {
    pub entry: u32,
    /// Kernel launches the record made (saturating at `u16::MAX`).
    launches: u16,
    /// Its device (`device_code`).
    device: u8,
    /// `ENDED | TIMED | HOST_TIMED`.
    flags: u8,
    pub start_ns: u64,
    pub host_ns: u64,
    /// Device (GPU) time reported at a sync point; 0 while none was reported.
    /// Measured, not scaled: only a timed record's launches have one (see `timed`).
    pub device_ns: u64,
    /// Bytes of its outputs; a copy's record: the bytes copied.
    pub bytes_out: u64,
}

// The size is the point (see above): keep it from growing unnoticed.
const _: () = assert!(std::mem::size_of::<Record>() == 40);

const ENDED: u8 = 1;
const TIMED: u8 = 2;
const HOST_TIMED: u8 = 4;

/// A device in a byte: 0 the CPU, 1 + i gpu(i) (up to gpu(254)).
fn device_code(d: Device) -> u8 {
    d.code().min(255) as u8
}

impl Record {
    /// A record begun (`ended: false`) or complete.
    pub(crate) fn new(entry: u32, device: Device, start_ns: u64, host_timed: bool) -> Record {
        Record {
            entry,
            launches: 0,
            device: device_code(device),
            flags: if host_timed { HOST_TIMED } else { 0 },
            start_ns,
            host_ns: 0,
            device_ns: 0,
            bytes_out: 0,
        }
    }
    /// Kernel launches the record made.
    pub fn launches(&self) -> u32 {
        self.launches as u32
    }
    pub(crate) fn set_launches(&mut self, n: u32) {
        self.launches = n.min(u16::MAX as u32) as u16;
    }
    pub fn device(&self) -> Device {
        Device::from_code(self.device as u32)
    }
    pub(crate) fn set_device(&mut self, d: Device) {
        self.device = device_code(d);
    }
    /// Whether it has ended (every record has once its run is over).
    pub fn ended(&self) -> bool {
        self.flags & ENDED != 0
    }
    /// Whether its launches were timed (sampling: see `sample_weight`).
    pub fn timed(&self) -> bool {
        self.flags & TIMED != 0
    }
    /// Whether `host_ns` was measured (else it is its entry's estimate:
    /// see `Agg::host_weight`).
    pub fn host_timed(&self) -> bool {
        self.flags & HOST_TIMED != 0
    }
    pub(crate) fn set_ended(&mut self) {
        self.flags |= ENDED;
    }
    pub(crate) fn set_timed(&mut self, timed: bool) {
        if timed {
            self.flags |= TIMED;
        } else {
            self.flags &= !TIMED;
        }
    }
}

/// What records add to: one op kind's kernel at one source site. The three
/// tables' rows are sums of entries (`State::kind_aggs` ...), made when a
/// report is: a record updates one row, not three.
#[derive(Clone, Debug)]
pub struct Entry {
    pub class: Class,
    pub kind: u32,
    pub kernel: u32,
    pub site: u32,
    /// Bytes of the inputs of each call (its kernel key holds their dtypes
    /// and shapes; copies and compiles: 0, their records hold the bytes).
    pub bytes_in: u64,
    pub agg: Agg,
}

/// An entry whose measured host time per call (exclusive) averages at
/// least this has every call's host time measured; cheaper entries are sampled
/// like device times (`Agg::host_weight`): two clock reads cost 50-90 ns.
pub const HOST_EXACT_NS: u64 = 2_000;

/// A sampled host time stands for the calls it was not measured on as at
/// most this many times its entry's mean so far, plus `STAND_IN_SLACK_NS`
/// (`Agg::add_host_sample`).
pub const STAND_IN_MAX_FACTOR: u64 = 2;
pub const STAND_IN_SLACK_NS: u64 = 500;

/// Calls of each entry whose launches are all timed.
pub const SAMPLE_FIRST: u64 = 4;
/// After those, one call in this many is timed (and stands for this many).
pub const SAMPLE_EVERY: u64 = 16;
// Weights are kept in a byte while a record is open (`recorder::Open`).
const _: () = assert!(SAMPLE_EVERY < u8::MAX as u64);

/// The weight of the launches of an entry's call number `call` (0-based,
/// counting the calls that launched): 1 for the first `SAMPLE_FIRST`, then
/// `SAMPLE_EVERY` for the last call of each block of `SAMPLE_EVERY` (it stands
/// for the block), 0 (not timed: no CUDA events) for the others.
pub fn sample_weight(call: u64) -> u64 {
    if call < SAMPLE_FIRST {
        1
    } else if (call - SAMPLE_FIRST + 1).is_multiple_of(SAMPLE_EVERY) {
        SAMPLE_EVERY
    } else {
        0
    }
}

/// Sums for one entry, or for one row of a table (the sum of its entries).
///
/// Kernel device times are sampled: only some calls' launches are timed
/// (`sample_weight`), each timed launch's time counting `w` times. The row's
/// `device_ns` is then `sampled_ns * launches / sampled_w` (a ratio estimate:
/// exact when the row's launches take equal times; launches whose time has not
/// arrived yet are estimated too) plus the exact device times of copies. A row
/// with no timed launch has no kernel device time (its host time stands).
/// Records update the raw sums; the derived `device_ns` and
/// `host_ns_with_device` are made by `refresh` when a report reads the entry.
#[derive(Clone, Debug, Default)]
pub struct Agg {
    pub calls: u64,
    pub host_ns: u64,
    /// The row's device time: exact (copies) + the scaled kernel estimate (`refresh`).
    pub device_ns: u64,
    /// Host time replaced by device time in `time_ns` (`refresh`).
    pub host_ns_with_device: u64,
    pub bytes_alloc: u64,
    pub bytes_moved: u64,
    /// Kernel launches of the row, timed or not.
    pub launches: u64,
    /// Timed launches whose device time arrived.
    pub timed_launches: u64,
    /// Calls (records) that launched a kernel: the sampling rule counts these.
    pub launch_calls: u64,
    /// Sum of weight * device time over the timed launches whose time arrived.
    pub sampled_ns: u64,
    /// Sum of their weights.
    pub sampled_w: u64,
    /// Device times measured exactly (copies: every one is timed).
    pub exact_ns: u64,
    /// Host time of the records with an exact device time.
    pub exact_host_ns: u64,
    /// Host time of the records that launched a kernel.
    pub launch_host_ns: u64,
    /// Calls begun (host-time sampling counts these; entries only).
    pub host_calls: u64,
    /// Sum of weight * measured exclusive host time over the calls measured.
    pub host_sampled_ns: u64,
    /// Sum of their weights.
    pub host_sampled_w: u64,
    /// `host_sampled_ns / host_sampled_w` (kept: no division a record).
    pub host_mean_ns: u64,
}

impl Agg {
    /// The scaled kernel estimate: measured (weighted) times scaled by the
    /// row's launches over the weight measured; None without a timed launch.
    pub fn kernel_estimate_ns(&self) -> Option<u64> {
        (self.sampled_w > 0).then(|| {
            let n = self.launches.max(self.sampled_w);
            // u64 unless it would overflow.
            match self.sampled_ns.checked_mul(n) {
                Some(x) => x / self.sampled_w,
                None => (self.sampled_ns as u128 * n as u128 / self.sampled_w as u128) as u64,
            }
        })
    }

    /// The host-time weight of this entry's next call (0: its host time
    /// is not measured but estimated, `host_mean_ns`): 1 for its first
    /// `SAMPLE_FIRST` calls and for every call of a row that averages at
    /// least `HOST_EXACT_NS`, else `sample_weight` (one call in `SAMPLE_EVERY`).
    #[inline]
    pub fn host_weight(&self) -> u64 {
        if self.host_calls < SAMPLE_FIRST || self.host_mean_ns >= HOST_EXACT_NS {
            1
        } else {
            sample_weight(self.host_calls)
        }
    }

    /// A measured exclusive host time, counting `w` times in the row's mean:
    /// once as itself, and `w - 1` times (the calls it stands for) as at most
    /// `STAND_IN_MAX_FACTOR` times the mean so far plus `STAND_IN_SLACK_NS`.
    /// A sampled call that was preempted or interrupted would otherwise stand
    /// for 15 calls with its outlier, and the estimates of the calls after
    /// it could add up to more than the wall time (seen on a loaded 2-core
    /// machine: the test of that failed).
    #[inline]
    pub fn add_host_sample(&mut self, own_ns: u64, w: u64) {
        let stand_in = if self.host_sampled_w == 0 {
            own_ns
        } else {
            own_ns.min(
                self.host_mean_ns
                    .saturating_mul(STAND_IN_MAX_FACTOR)
                    .saturating_add(STAND_IN_SLACK_NS),
            )
        };
        self.host_sampled_ns += own_ns + stand_in.saturating_mul(w.saturating_sub(1));
        self.host_sampled_w += w;
        self.host_mean_ns = self.host_sampled_ns / self.host_sampled_w;
    }

    /// Add another entry's sums (`o` refreshed): a table row is the sum of
    /// its entries' estimates, and is not refreshed itself.
    pub fn merge(&mut self, o: &Agg) {
        self.calls += o.calls;
        self.host_ns += o.host_ns;
        self.device_ns += o.device_ns;
        self.host_ns_with_device += o.host_ns_with_device;
        self.bytes_alloc += o.bytes_alloc;
        self.bytes_moved += o.bytes_moved;
        self.launches += o.launches;
        self.timed_launches += o.timed_launches;
        self.launch_calls += o.launch_calls;
        self.exact_ns += o.exact_ns;
        self.exact_host_ns += o.exact_host_ns;
        self.launch_host_ns += o.launch_host_ns;
        self.sampled_ns += o.sampled_ns;
        self.sampled_w += o.sampled_w;
        self.host_calls += o.host_calls;
        self.host_sampled_ns += o.host_sampled_ns;
        self.host_sampled_w += o.host_sampled_w;
        self.host_mean_ns = self.host_sampled_ns / self.host_sampled_w.max(1);
    }

    /// Compute `device_ns` and `host_ns_with_device` from the parts.
    pub fn refresh(&mut self) {
        let est = self.kernel_estimate_ns();
        self.device_ns = self.exact_ns + est.unwrap_or(0);
        self.host_ns_with_device = self.exact_host_ns
            + if est.is_some() {
                self.launch_host_ns
            } else {
                0
            };
    }

    /// The row's time: device time where the device reported one, host time elsewhere.
    pub fn time_ns(&self) -> u64 {
        self.host_ns.saturating_sub(self.host_ns_with_device) + self.device_ns
    }
}

/// A source site: `file:line` and the statement's text.
#[derive(Clone, Debug)]
pub struct Site {
    pub file: String,
    pub line: usize,
    pub text: String,
}

/// Names interned by a 64-bit structural key.
pub struct Table<T> {
    ids: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    pub names: Vec<T>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            ids: HashMap::default(),
            names: Vec::new(),
        }
    }
}

impl<T> Table<T> {
    /// The id of `key`, making its name with `make` the first time.
    pub fn intern(&mut self, key: u64, make: impl FnOnce() -> T) -> u32 {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(make());
        self.ids.insert(key, id);
        id
    }
    /// The id of `key`, if interned.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        self.ids.get(&key).copied()
    }
}

/// The keys are already mixed 64-bit values: hash them as they are.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0, b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// Fold `x` into the key `h` (FxHash's step).
#[inline]
pub fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// Records per chunk: growing never copies what is already stored.
const CHUNK: usize = 8192;

/// A new chunk, its pages mapped in one system call where the kernel offers
/// it (Linux 5.14+): a profiled loop of small ops writes a record every few
/// hundred nanoseconds, and a page fault every 64 records showed as about a
/// fifth of the profiler's cost (perf, on the benchmark VM).
fn new_chunk() -> Vec<Record> {
    let c = Vec::with_capacity(CHUNK);
    populate(c.as_ptr() as usize, CHUNK * std::mem::size_of::<Record>());
    c
}

#[cfg(target_os = "linux")]
fn populate(start: usize, len: usize) {
    const PAGE: usize = 4096;
    let a = start.next_multiple_of(PAGE);
    let b = (start + len) / PAGE * PAGE;
    if b > a {
        // SAFETY: [a, b) lies inside an allocation the caller owns and has not
        // written yet; MADV_POPULATE_WRITE maps its pages (zeroed, as a first
        // write would) and changes no contents; on an older kernel it fails
        // with EINVAL and nothing happens.
        unsafe {
            libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_POPULATE_WRITE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn populate(_start: usize, _len: usize) {}

/// Records in start order, stored in fixed-size chunks.
#[derive(Default)]
pub struct Records {
    chunks: Vec<Vec<Record>>,
    len: usize,
}

impl Records {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Store `r`; its index (records are at most `MAX_RECORDS`, so it fits).
    #[inline]
    pub fn push(&mut self, r: Record) -> u32 {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(r),
            _ => self.push_chunk(r),
        }
        self.len += 1;
        (self.len - 1) as u32
    }
    #[cold]
    fn push_chunk(&mut self, r: Record) {
        let mut c = new_chunk();
        c.push(r);
        self.chunks.push(c);
    }
    pub fn get(&self, i: usize) -> Option<&Record> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Record> {
        self.chunks.get_mut(i / CHUNK)?.get_mut(i % CHUNK)
    }
    pub fn iter(&self) -> impl Iterator<Item = &Record> {
        self.chunks.iter().flatten()
    }
}
