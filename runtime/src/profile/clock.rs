//! The records' clock: the CPU's time-stamp counter where it is invariant
//! (x86-64 Linux with `constant_tsc` and `nonstop_tsc`), read in a few
//! nanoseconds, else `Instant`. Ticks become nanoseconds by a ratio measured
//! once against `Instant` (about 2 ms, when profiling first starts).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How to read the clock, fixed on first use.
struct Calibration {
    tsc: bool,
    origin: Instant,
    ns_per_tick: f64,
}

fn calibration() -> &'static Calibration {
    static CAL: OnceLock<Calibration> = OnceLock::new();
    CAL.get_or_init(|| {
        let origin = Instant::now();
        if !tsc_usable() {
            return Calibration {
                tsc: false,
                origin,
                ns_per_tick: 1.0,
            };
        }
        let t0 = tsc();
        let i0 = Instant::now();
        while i0.elapsed() < Duration::from_millis(2) {
            std::hint::spin_loop();
        }
        let ns = i0.elapsed().as_nanos() as f64;
        let ticks = tsc().wrapping_sub(t0) as f64;
        let ok = ticks > 0.0 && ns > 0.0;
        Calibration {
            tsc: ok,
            origin,
            ns_per_tick: if ok { ns / ticks } else { 1.0 },
        }
    })
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn tsc_usable() -> bool {
    std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("flags"))
            .is_some_and(|l| l.contains(" constant_tsc") && l.contains(" nonstop_tsc"))
    })
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn tsc_usable() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn tsc() -> u64 {
    // SAFETY: RDTSC has no preconditions; it reads a counter on every x86-64 CPU.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_rdtsc()
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn tsc() -> u64 {
    0
}

/// A point in time, in clock ticks.
#[derive(Clone, Copy, Debug)]
pub struct Tick(u64);

/// Now.
#[inline]
pub fn now() -> Tick {
    let c = calibration();
    if c.tsc {
        Tick(tsc())
    } else {
        Tick(c.origin.elapsed().as_nanos() as u64)
    }
}

impl Tick {
    /// A placeholder (a start that was not read).
    pub const ZERO: Tick = Tick(0);

    /// Nanoseconds from `earlier` to `self` (0 if the clock went back).
    #[inline]
    pub fn ns_since(self, earlier: Tick) -> u64 {
        let d = self.0.saturating_sub(earlier.0);
        let c = calibration();
        if c.tsc {
            (d as f64 * c.ns_per_tick) as u64
        } else {
            d
        }
    }
}
