//! Shared by the profile_* and gpu_profile tests: a session with profiling on
//! or off, running code that must succeed, and an op kind's sums.

#![allow(dead_code)]

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

pub fn session(profile: bool) -> Session {
    let flags = Flags {
        profile,
        ..Flags::default()
    };
    Session::new(flags, Box::new(Captured::default()))
}

/// Run `code` as the cell `name`; an error fails the test.
pub fn run(s: &mut Session, code: &str, name: &str) {
    let out = s.execute(code, name);
    if let Some(e) = out.error {
        panic!("{code}\n{}", e.rendered);
    }
}

/// (calls, device ns) summed over the op kinds named `kind`.
pub fn kind_agg(s: &mut Session, kind: &str) -> (u64, u64) {
    let st = s.interp().profiler.lock();
    st.kinds
        .names
        .iter()
        .zip(&st.kind_aggs())
        .filter(|(n, _)| n.as_str() == kind)
        .fold((0, 0), |(c, d), (_, a)| (c + a.calls, d + a.device_ns))
}
