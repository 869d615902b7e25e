//! Fuzz target for indexing: the fuzzer's bytes drive the NumPy-differential
//! generator (tests/numpy, `gcalc_difftest::index`), so every input is a
//! structured case — a base array, an index of any kind, a read, write,
//! augmented write or view — and gcalc runs it in a CPU Session. The check
//! is "no panic, no internal error" (no NumPy in the loop; the differential
//! tests compare values). All kinds by default; GCALC_FUZZ_KINDS=ci leaves
//! off those CI leaves off (known findings, tests/numpy/FINDINGS.md), or a
//! list of kinds (`read,int,slice`).
//! Run: RUSTC_BOOTSTRAP=1 cargo fuzz run index -- -max_total_time=120
#![no_main]

use gcalc_difftest::Case;
use gcalc_difftest::index::{self, Features, Kinds};
use gcalc_runtime::output::Captured;
use gcalc_runtime::{ErrorKind, Flags, Session};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn kinds() -> &'static Kinds {
    static K: OnceLock<Kinds> = OnceLock::new();
    K.get_or_init(|| match std::env::var("GCALC_FUZZ_KINDS").as_deref() {
        Err(_) | Ok("all") => Kinds::all(),
        Ok("ci") => Kinds::ci(),
        Ok(list) => Kinds {
            on: Features::parse(list).expect("GCALC_FUZZ_KINDS"),
            off: vec![],
        },
    })
}

fuzz_target!(|data: &[u8]| {
    let case = index::generate(&mut gcalc_difftest::Rng::from_bytes(data), kinds());
    let src = case.gcalc();
    let mut flags = Flags::default();
    flags.device = gcalc_runtime::flags::DeviceFlag::Cpu;
    let mut s = Session::new(flags, Box::new(Captured::default()));
    let out = s.execute(&src, "<fuzz>");
    if let Some(e) = &out.error {
        assert!(
            e.kind() != Some(ErrorKind::Internal),
            "internal error on\n{src}\n{}",
            e.rendered
        );
        return;
    }
    // Reading the result is where views into wrong places show.
    if let Some(gcalc_runtime::Value::Array(a)) = s.get("out") {
        let r = s.execute("out.tolist()", "<fuzz>");
        assert!(
            r.error.as_ref().map(|e| e.kind()) != Some(Some(ErrorKind::Internal)),
            "internal error reading `out` ({:?}) of\n{src}",
            a.shape()
        );
    }
});
