//! The sorting family against NumPy 2 (tests/numpy/src/ops_sort.rs): every
//! row with random shapes, dtypes and axes, nans, signed zeros and ties, on
//! the CPU. Skips visibly without NumPy; fails with GCALC_REQUIRE_NUMPY=1.

use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_sort::SORTING;
use gcalc_runtime::flags::DeviceFlag;

#[test]
fn sorting_matches_numpy() {
    let s = Settings::from_env(0, 100);
    let rerun = "cargo test -p gcalc-runtime --test core sorting_matches_numpy -- --nocapture";
    for r in assert_fn_suite("sorting_matches_numpy", rerun, &s, SORTING, DeviceFlag::Cpu) {
        r.assert_clean();
    }
}
