//! The profiler's overhead benchmark: tight loops of small ops, timed with
//! `profile` off and on in the same binary (interleaved, best of N). Built
//! once normally and once with `--features no-profile-hooks` (hooks compiled
//! out) by bench/profile_overhead.sh, which prints the ratios between them.
//!
//! Usage: profile_overhead [reps]  — prints one line per program:
//! `<name> off_s=<best seconds, profile off> on_s=<best seconds, profile on>`.
//! `PROFILE_OVERHEAD_ONLY=<name>` runs one program only.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};
use std::time::Instant;

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

/// Seconds for one run of `body` in a fresh session, or the error.
fn time_once(setup: &str, body: &str, profile: bool) -> Result<f64, String> {
    let flags = Flags {
        profile,
        ..Flags::default()
    };
    let mut s = Session::new(flags, Box::new(Captured::default()));
    if let Some(e) = s.execute(setup, "setup").error {
        return Err(e.evalue());
    }
    let t0 = Instant::now();
    let out = s.execute(body, "bench");
    let t = t0.elapsed().as_secs_f64();
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
    for (name, setup, body) in PROGRAMS {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let (mut off, mut on) = (f64::INFINITY, f64::INFINITY);
        let mut err = None;
        for _ in 0..reps {
            match (time_once(setup, body, false), time_once(setup, body, true)) {
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
                on / off
            ),
        }
    }
}
