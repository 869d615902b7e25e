//! The shape and assembly family (issue 17) on the CPU: every function
//! against NumPy through the differential rows of
//! `gcalc_difftest::ops_assemble` (100 cases a row), and what the rows
//! cannot say: views share the buffer, `put_along_axis` writes through,
//! errors name the function and the fix and the session goes on, literals
//! go to the default device, large arrays take the parallel paths.

use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_assemble::ASSEMBLE;
use gcalc_runtime::flags::DeviceFlag;

#[test]
fn assembly_matches_numpy() {
    let s = Settings::from_env(0, 100);
    let rerun = "cargo test -p gcalc-runtime --test core assembly_matches_numpy -- --nocapture";
    for r in assert_fn_suite(
        "assembly_matches_numpy",
        rerun,
        &s,
        ASSEMBLE,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}
