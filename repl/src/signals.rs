//! Ending on a signal: SIGTERM and SIGHUP (and SIGINT where nothing else
//! handles it: scripts) remove the temporary files of saves in progress
//! (`gcalc_runtime::safe_write::end_writes`), then end the process as the
//! signal would have (the parent sees "killed by SIGTERM"). The handler runs
//! on a thread of its own (signal-hook's self-pipe), not in signal context.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Which signals end the process after the cleanup.
pub enum Ending {
    /// SIGTERM and SIGHUP; SIGINT is the front-end's (REPL, Jupyter kernel).
    TermAndHup,
    /// SIGINT too (scripts, `-e`, standard input).
    AlsoInterrupt,
}

/// Start the thread that waits for the ending signals.
pub fn install(which: Ending) {
    let mut sigs = vec![SIGTERM, SIGHUP];
    if matches!(which, Ending::AlsoInterrupt) {
        sigs.push(SIGINT);
    }
    let mut signals = match Signals::new(&sigs) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gcalc: warning: cannot handle termination signals ({e})");
            return;
        }
    };
    let spawned = std::thread::Builder::new()
        .name("gcalc-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                end_by(sig);
            }
        });
    if let Err(e) = spawned {
        eprintln!("gcalc: warning: cannot handle termination signals ({e})");
    }
}

/// Remove the temporary files of saves in progress, then end the process by
/// `sig` (its default action), or with 128 + sig if that returns.
pub fn end_by(sig: i32) -> ! {
    gcalc_runtime::safe_write::end_writes();
    let _ = signal_hook::low_level::emulate_default_handler(sig);
    std::process::exit(128 + sig)
}
