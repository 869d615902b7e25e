//! What the backends report to the profiler: the free functions the CUDA
//! backend calls (launches, device times, syncs, transfers, compiles, memory;
//! each a thread-local read that returns at once when profiling is off), and
//! the recorder's side of them: kernel launches and their sampled device
//! times, copies' exact device times, records completed elsewhere (transfers,
//! compiles) with their own site rows, the global counters and each device's
//! peak memory. The backends import this module and nothing else of the
//! profiler (`tidy` checks it).

use super::clock;
pub use super::recorder::Direction;
use super::recorder::{
    self, Agg, Class, MAX_RECORDS, NOT_STORED, Record, Site, State, Token, UNDECIDED, mix,
    sample_weight,
};
use super::{CURRENT, with_on};
use crate::device::Device;
use std::time::Duration;

/// Whether the running session is profiling (a thread-local read and an
/// atomic load: no lock).
#[inline]
pub fn is_on() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|p| p.is_on()))
}

/// Names the record a launch (or a copy) belongs to, for its device time later.
#[derive(Clone, Copy, Debug)]
pub struct LaunchToken {
    tok: recorder::Token,
    /// A copy's row: its direction and the host time its counter holds until then.
    transfer: Option<(Direction, u64)>,
    /// A launch's sampling weight (0: not timed; its time would be ignored).
    weight: u64,
}

impl LaunchToken {
    /// Whether the backend should time this launch (or copy): the others
    /// record no events, and a time given for one is ignored.
    #[inline]
    pub fn timed(&self) -> bool {
        self.weight > 0
    }
}

/// Count a kernel launch (call it before queuing the launch); the token ties
/// its device time to the op being recorded and says whether to time it
/// (`LaunchToken::timed`: sampling, see `recorder::sample_weight`).
pub fn launch(_device: Device) -> Option<LaunchToken> {
    with_on(|st| {
        st.launch().map(|(tok, weight)| LaunchToken {
            tok,
            transfer: None,
            weight,
        })
    })
    .flatten()
}

/// A launch's (or a copy's) device time (CUDA events, read at a sync point).
pub fn kernel_time(tok: LaunchToken, device_time: Duration) {
    kernel_times(&[(tok, device_time)]);
}

/// Device times of many launches (a sync point's), under one lock.
pub fn kernel_times(times: &[(LaunchToken, Duration)]) {
    if times.is_empty() {
        return;
    }
    with_on(|st| {
        for &(tok, device_time) in times {
            if tok.tok.generation != st.generation {
                continue;
            }
            if let Some((dir, host_ns)) = tok.transfer {
                // The copy's counter now holds its device time instead of its host time.
                let t = transfer_counters(&mut st.counters, dir).1;
                *t = (*t + device_time.as_nanos() as u64).saturating_sub(host_ns);
                st.add_device_time(tok.tok, device_time);
            } else {
                st.add_sampled_time(tok.tok, device_time, tok.weight);
            }
        }
    });
}

fn transfer_counters(c: &mut recorder::Counters, dir: Direction) -> (&mut u64, &mut u64) {
    match dir {
        Direction::HostToDevice => (&mut c.h2d_bytes, &mut c.h2d_ns),
        Direction::DeviceToHost => (&mut c.d2h_bytes, &mut c.d2h_ns),
        Direction::DeviceToDevice => (&mut c.d2d_bytes, &mut c.d2d_ns),
    }
}

/// A sync point and how long the host waited in it.
pub fn sync(_device: Device, host_wait: Duration) {
    with_on(|st| {
        st.counters.syncs += 1;
        st.counters.sync_ns += host_wait.as_nanos() as u64;
    });
}

/// A copy between host and device (or between devices): its own row. Without
/// `device_time`, the token takes it later (`kernel_time` at a sync point).
pub fn transfer(
    dir: Direction,
    device: Device,
    bytes: u64,
    host: Duration,
    device_time: Option<Duration>,
) -> Option<LaunchToken> {
    with_on(|st| {
        let ns = device_time.unwrap_or(host).as_nanos() as u64;
        let (b, t) = transfer_counters(&mut st.counters, dir);
        *b += bytes;
        *t += ns;
        let name = format!("transfer {}", dir.short());
        let kind = st
            .kinds
            .intern(recorder::mix(1, dir as u64), || name.clone());
        let kernel = st.kernels.intern(
            recorder::mix(recorder::mix(2, dir as u64), device_key(device)),
            || format!("{name} {device}"),
        );
        let tok = st.complete(
            Class::Transfer,
            kind,
            kernel,
            device,
            host,
            device_time,
            bytes,
        );
        LaunchToken {
            tok,
            transfer: device_time.is_none().then_some((dir, ns)),
            weight: 1,
        }
    })
}

/// A kernel compile (NVRTC) or, with `cache_hit`, a kernel loaded from the disk cache.
pub fn compile(what: &str, device: Device, host: Duration, cache_hit: bool) {
    with_on(|st| {
        if cache_hit {
            st.counters.cache_hits += 1;
        } else {
            st.counters.compiles += 1;
        }
        st.counters.compile_ns += host.as_nanos() as u64;
        let label = if cache_hit {
            "kernel cache load"
        } else {
            "kernel compile"
        };
        let kind = st
            .kinds
            .intern(recorder::mix(3, cache_hit as u64), || label.to_string());
        let mut key = recorder::mix(4, device_key(device));
        for b in what.bytes() {
            key = recorder::mix(key, b as u64);
        }
        let kernel = st
            .kernels
            .intern(key, || format!("{label}: {what} {device}"));
        st.complete(Class::Compile, kind, kernel, device, host, None, 0);
    });
}

/// A device's bytes in use (the peak is reported).
pub fn memory(device: Device, in_use_bytes: u64) {
    with_on(|st| st.memory(device, in_use_bytes));
}

pub(crate) fn device_key(d: Device) -> u64 {
    d.code() as u64
}

/// Global counters reported by the backends.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    pub launches: u64,
    /// Launches timed with CUDA events (the others are sampled out).
    pub timed_launches: u64,
    pub syncs: u64,
    pub sync_ns: u64,
    pub h2d_bytes: u64,
    pub h2d_ns: u64,
    pub d2h_bytes: u64,
    pub d2h_ns: u64,
    pub d2d_bytes: u64,
    pub d2d_ns: u64,
    pub compiles: u64,
    pub compile_ns: u64,
    pub cache_hits: u64,
    /// Records whose host time was measured (the others' are estimated).
    pub host_timed: u64,
    /// Peak bytes in use per device, as reported.
    pub peak: Vec<(Device, u64)>,
}

impl State {
    /// A kernel launch: counted, on the innermost open record's entry, with the
    /// weight its device time will count with (0: don't time it). A record's
    /// launches share the weight decided at its first, by the number of earlier
    /// calls of its entry that launched (`sample_weight`).
    pub fn launch(&mut self) -> Option<(Token, u64)> {
        self.counters.launches += 1;
        let tok = self.current()?;
        let open = self.open.last_mut()?;
        let a = &mut self.entries.get_mut(tok.entry as usize)?.agg;
        open.launches = open.launches.saturating_add(1);
        let first = open.weight == UNDECIDED;
        if first {
            open.weight = sample_weight(a.launch_calls) as u8;
        }
        let w = open.weight as u64;
        if w > 0 {
            self.counters.timed_launches += 1;
        }
        a.launches += 1;
        a.launch_calls += first as u64;
        Some((tok, w))
    }

    fn agg_of(&mut self, tok: &Token) -> Option<&mut Agg> {
        Some(&mut self.entries.get_mut(tok.entry as usize)?.agg)
    }

    /// A timed launch's device time, counting `weight` times in its entry's
    /// estimate (the record keeps the time measured).
    pub fn add_sampled_time(&mut self, tok: Token, d: Duration, weight: u64) {
        if tok.generation != self.generation || weight == 0 {
            return;
        }
        let ns = d.as_nanos() as u64;
        if let Some(r) = self.records.get_mut(tok.index as usize) {
            r.device_ns += ns;
        }
        if let Some(a) = self.agg_of(&tok) {
            a.sampled_ns += ns * weight;
            a.sampled_w += weight;
            a.timed_launches += 1;
        }
    }

    /// A finished record whose host time was measured elsewhere (transfers,
    /// compiles); the token takes a device time that arrives later.
    pub fn complete(
        &mut self,
        class: Class,
        kind: u32,
        kernel: u32,
        device: Device,
        host: Duration,
        device_time: Option<Duration>,
        bytes: u64,
    ) -> Token {
        let site = self.own_site(kind);
        let key = mix(mix(11, site as u64), kernel as u64);
        let entry = match self.entry_of(key) {
            Some(e) => e,
            None => self.add_entry(key, class, kind, kernel, site),
        };
        self.counters.host_timed += 1;
        let host_ns = host.as_nanos() as u64;
        let device_ns = device_time.map_or(0, |d| d.as_nanos() as u64);
        let now = clock::now();
        self.last_ns = now.ns_since(*self.origin.get_or_insert(now));
        let start_ns = self.last_ns.saturating_sub(host_ns);
        let mut rec = Record::new(entry, device, start_ns, true);
        rec.host_ns = host_ns;
        rec.device_ns = device_ns;
        rec.bytes_out = bytes;
        rec.set_ended();
        rec.set_timed(device_ns > 0);
        if let Some(parent) = self.open.last_mut() {
            parent.child_ns += host_ns;
        }
        let stored = self.records.len() < MAX_RECORDS;
        let tok = Token {
            generation: self.generation,
            index: if stored {
                self.records.len() as u32
            } else {
                NOT_STORED
            },
            entry,
        };
        if let Some(a) = self.agg_of(&tok) {
            a.calls += 1;
            a.host_ns += host_ns;
            a.bytes_moved += bytes;
            a.exact_ns += device_ns;
            if device_ns > 0 {
                a.exact_host_ns += host_ns;
            }
        }
        if stored {
            self.records.push(rec);
        } else {
            self.dropped += 1;
        }
        tok
    }
    /// An exact device time for a record (a copy's, read at a sync point):
    /// not sampled, not scaled.
    pub fn add_device_time(&mut self, tok: Token, d: Duration) {
        if tok.generation != self.generation {
            return;
        }
        let ns = d.as_nanos() as u64;
        // The first device time of an ended record replaces its host time in the tables.
        let mut replaced_host = 0;
        if let Some(r) = self.records.get_mut(tok.index as usize) {
            if r.ended() && r.device_ns == 0 {
                replaced_host = r.host_ns;
            }
            r.device_ns += ns;
            r.set_timed(true);
        }
        if let Some(a) = self.agg_of(&tok) {
            a.exact_ns += ns;
            a.exact_host_ns += replaced_host;
        }
    }
    /// The current site as its own row for a transfer or compile: `file:line [transfer H2D] text`.
    fn own_site(&mut self, kind: u32) -> u32 {
        let site = self.current_site();
        let label = self
            .kinds
            .names
            .get(kind as usize)
            .cloned()
            .unwrap_or_default();
        let base = self.sites.names.get(site as usize).cloned();
        self.sites
            .intern(mix(mix(10, site as u64), kind as u64), || {
                let base = base.unwrap_or(Site {
                    file: String::new(),
                    line: 0,
                    text: String::new(),
                });
                Site {
                    file: base.file,
                    line: base.line,
                    text: format!("[{label}] {}", base.text),
                }
            })
    }
    /// Note a device's bytes in use; keeps the peak.
    pub fn memory(&mut self, device: Device, in_use: u64) {
        match self.counters.peak.iter_mut().find(|(d, _)| *d == device) {
            Some((_, p)) => *p = (*p).max(in_use),
            None => self.counters.peak.push((device, in_use)),
        }
    }
}
