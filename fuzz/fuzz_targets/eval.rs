//! Fuzz target for the evaluator: any UTF-8 input runs in a Session without a
//! panic or an abort; an input that runs too long is interrupted (the interrupt
//! path is exercised too); every error renders. Internal errors (bugs) fail.
#![no_main]

use gcalc_runtime::output::Captured;
use gcalc_runtime::{ErrorKind, Flags, Session};
use libfuzzer_sys::fuzz_target;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let mut flags = Flags::default();
    flags.device = gcalc_runtime::flags::DeviceFlag::Cpu;
    let mut s = Session::new(flags, Box::new(Captured::default()));
    let handle = s.interrupt_handle();
    let done = Arc::new(AtomicBool::new(false));
    let d2 = done.clone();
    let timer = std::thread::spawn(move || {
        for _ in 0..50 {
            std::thread::sleep(Duration::from_millis(2));
            if d2.load(Ordering::Relaxed) {
                return;
            }
        }
        // Keep interrupting until the input stops.
        while !d2.load(Ordering::Relaxed) {
            handle.interrupt();
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    let out = s.execute(src, "<fuzz>");
    done.store(true, Ordering::Relaxed);
    let _ = timer.join();
    if let Some(e) = out.error {
        assert!(!e.rendered.is_empty());
        assert!(
            e.kind() != Some(ErrorKind::Internal),
            "internal error on {src:?}: {}",
            e.rendered
        );
    }
});
