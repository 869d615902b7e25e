//! The profiler's data: one record per operation, the aggregate row of a
//! table, source sites, and the interning tables keyed by 64-bit structural keys.

use crate::device::Device;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Raw records kept for `profile(file=...)`; later ones are only aggregated.
pub const MAX_RECORDS: usize = 1_000_000;

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

/// One recorded operation. Times in nanoseconds; `start_ns` counts from the
/// last reset. `host_ns` is exclusive: time spent in nested records is not in it.
#[derive(Clone, Debug)]
pub struct Record {
    pub class: Class,
    pub kind: u32,
    pub kernel: u32,
    pub site: u32,
    pub device: Device,
    pub start_ns: u64,
    pub host_ns: u64,
    /// Device (GPU) time reported at a sync point; 0 while none was reported.
    pub device_ns: u64,
    pub bytes_alloc: u64,
    pub bytes_moved: u64,
    pub ended: bool,
}

/// Sums for one row of a table.
#[derive(Clone, Debug, Default)]
pub struct Agg {
    pub calls: u64,
    pub host_ns: u64,
    pub device_ns: u64,
    /// Host time of the records that also have a device time (replaced by it in `time_ns`).
    pub host_ns_with_device: u64,
    pub bytes_alloc: u64,
    pub bytes_moved: u64,
}

impl Agg {
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

/// Strings interned by a 64-bit structural key, each with its aggregate row.
pub struct Table<T> {
    ids: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    pub names: Vec<T>,
    pub aggs: Vec<Agg>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            ids: HashMap::default(),
            names: Vec::new(),
            aggs: Vec::new(),
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
        self.aggs.push(Agg::default());
        self.ids.insert(key, id);
        id
    }
    pub(crate) fn agg(&mut self, id: u32) -> Option<&mut Agg> {
        self.aggs.get_mut(id as usize)
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
    pub fn push(&mut self, r: Record) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(r),
            _ => {
                let mut c = Vec::with_capacity(CHUNK);
                c.push(r);
                self.chunks.push(c);
            }
        }
        self.len += 1;
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
