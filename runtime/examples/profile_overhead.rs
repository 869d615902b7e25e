//! The profiler's overhead benchmark: tight loops of small ops, timed with
//! `profile` off and on in the same binary (interleaved, best of N). Built
//! once normally and once with `--features no-profile-hooks` (hooks compiled
//! out) by bench/profile_overhead.sh, which prints the ratios between them.
//!
//! Usage: profile_overhead [reps]  — prints one line per program:
//! `<name> off_s=<best seconds, profile off> on_s=<best seconds, profile on>`.
//! `PROFILE_OVERHEAD_ONLY=<name>` runs one program only;
//! `PROFILE_OVERHEAD_MODE=off` (or `on`) times that mode only (the other
//! prints 0), for counting instructions under callgrind (see the script).
//!
//! Seconds are the thread's CPU time (user + system, page faults included),
//! not wall time: on a machine shared with builds, wall times of one loop
//! moved by 2x between runs (time spent descheduled); the loops are
//! single-threaded (8-element arrays). `PROFILE_OVERHEAD_CLOCK=wall` times
//! wall-clock seconds instead.

use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};
use std::time::Instant;

/// Seconds by the chosen clock: this thread's CPU time, or wall time.
#[derive(Clone, Copy)]
enum Clock {
    ThreadCpu,
    Wall(Instant),
}

#[cfg(target_os = "linux")]
fn thread_cpu_s() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_s() -> f64 {
    unimplemented!("PROFILE_OVERHEAD_CLOCK=wall off Linux")
}

impl Clock {
    fn from_env() -> Clock {
        match std::env::var("PROFILE_OVERHEAD_CLOCK").as_deref() {
            Ok("wall") => Clock::Wall(Instant::now()),
            _ => Clock::ThreadCpu,
        }
    }
    fn now_s(self) -> f64 {
        match self {
            Clock::ThreadCpu => thread_cpu_s(),
            Clock::Wall(t0) => t0.elapsed().as_secs_f64(),
        }
    }
}

/// (name, set-up, timed loop). The loops avoid printing.
const PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "scalar_add",
        "k = 0",
        "for i in range(200000) { k = k + 1 }",
    ),
    (
        "builtin_len",
        "s = \"abc\"",
        "for i in range(200000) { n = len(s) }",
    ),
    (
        "array_create",
        "",
        "for i in range(100000) { y = zeros(8) }",
    ),
    (
        "array_arith",
        "x = zeros(8)",
        "for i in range(100000) { y = x * 2.0 + 1.0 }",
    ),
    (
        "array_sum",
        "x = zeros(8)",
        "for i in range(100000) { s = sum(x) }",
    ),
];

/// Seconds for one run of `body` in a fresh session, or the error. Never
/// inlined: the script counts instructions inside it (callgrind --toggle-collect).
#[inline(never)]
fn time_once(clock: Clock, setup: &str, body: &str, profile: bool) -> Result<f64, String> {
    // On the CPU everywhere: on a GPU host `device = auto` would put the
    // 8-element arrays on the GPU and time kernel launches instead.
    let flags = Flags {
        profile,
        device: DeviceFlag::Cpu,
        ..Flags::default()
    };
    let mut s = Session::new(flags, Box::new(Captured::default()));
    if let Some(e) = s.execute(setup, "setup").error {
        return Err(e.evalue());
    }
    let t0 = clock.now_s();
    let out = s.execute(body, "bench");
    let t = clock.now_s() - t0;
    match out.error {
        Some(e) => Err(e.evalue()),
        None => Ok(t),
    }
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7);
    let hooks = if gcalc_runtime::profile::HOOKS {
        "hooks"
    } else {
        "no-hooks"
    };
    // PROFILE_OVERHEAD_ONLY=<name>: one program only (for perf).
    let only = std::env::var("PROFILE_OVERHEAD_ONLY").ok();
    let clock = Clock::from_env();
    let mode = std::env::var("PROFILE_OVERHEAD_MODE").unwrap_or_default();
    let (run_off, run_on) = (mode != "on", mode != "off");
    let time = |setup: &str, body: &str, profile: bool, run: bool| {
        if run {
            time_once(clock, setup, body, profile)
        } else {
            Ok(0.0)
        }
    };
    for (name, setup, body) in PROGRAMS {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let (mut off, mut on) = (f64::INFINITY, f64::INFINITY);
        let mut err = None;
        for _ in 0..reps {
            match (
                time(setup, body, false, run_off),
                time(setup, body, true, run_on),
            ) {
                (Ok(a), Ok(b)) => {
                    off = off.min(a);
                    on = on.min(b);
                }
                (Err(e), _) | (_, Err(e)) => {
                    err = Some(e);
                    break;
                }
            }
        }
        match err {
            Some(e) => println!("{name} build={hooks} skipped: {e}"),
            None => println!(
                "{name} build={hooks} off_s={off:.6} on_s={on:.6} on/off={:.3}",
                on / off.max(f64::MIN_POSITIVE)
            ),
        }
    }
}
