//! The NumPy-differential suites (tests/numpy) with new arrays on gpu(0):
//! the same seeded indexing cases and function table as the CPU tests, so
//! GPU results are compared with NumPy element for element and dtype for
//! dtype. 20,000 indexing cases by default (issue 16's floor for the GPU
//! host). Skips visibly without a GPU or without NumPy; fails instead with
//! GCALC_REQUIRE_GPU=1 / GCALC_REQUIRE_NUMPY=1 (the GPU host's runner sets
//! both; its Python is `GCALC_TEST_PYTHON`, else `python3`).

use crate::gpu_util::have_gpu;
use crate::numpy_side::{assert_fn_suite, assert_index_suite};
use gcalc_difftest::Settings;
use gcalc_difftest::Tol;
use gcalc_difftest::index::Feature;
use gcalc_difftest::ops::{FUNCTIONS, FnSpec};
use gcalc_runtime::flags::DeviceFlag;

const INDEX_CASES: usize = 20_000;
const FN_CASES: usize = 200;

/// Kinds the GPU leaves off beyond the CPU's `CI_OFF`, with why (none
/// today: F9's 0-d index arrays run on the device now).
const GPU_OFF: &[(&[Feature], &str)] = &[];

#[test]
fn gpu_indexing_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env_off(INDEX_CASES, FN_CASES, GPU_OFF);
    let rerun = "bin/gpu gpu_indexing_matches_numpy --nocapture";
    assert_index_suite("gpu_indexing_matches_numpy", rerun, &s, DeviceFlag::Gpu(0));
}

#[test]
fn gpu_functions_match_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "bin/gpu gpu_functions_match_numpy --nocapture";
    let reports = assert_fn_suite(
        "gpu_functions_match_numpy",
        rerun,
        &s,
        FUNCTIONS,
        DeviceFlag::Gpu(0),
    );
    for r in reports {
        r.assert_clean();
    }
}

#[test]
fn gpu_ew_functions_match_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "bin/gpu gpu_ew_functions_match_numpy --nocapture";
    // CUDA's float math is documented to within 1-4 ulp (cbrtf 1, sinhf 3,
    // acoshf 4, erfcf 4...), NumPy's to 1-2: rows not exact get 4 ulps more.
    let table: &'static [FnSpec] = Box::leak(
        gcalc_difftest::ops_ew::EW_FUNCTIONS
            .iter()
            .map(|s| FnSpec {
                tol: match s.tol {
                    Tol::Ulps(n) => Tol::Ulps(n + 4),
                    t => t,
                },
                ..*s
            })
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    for r in assert_fn_suite(rerun, rerun, &s, table, DeviceFlag::Gpu(0)) {
        r.assert_clean();
    }
}

#[test]
fn gpu_random_functions_match_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "bin/gpu gpu_random_functions_match_numpy --nocapture";
    let table = gcalc_difftest::ops_random::RANDOM_FUNCTIONS;
    for r in assert_fn_suite(rerun, rerun, &s, table, DeviceFlag::Gpu(0)) {
        r.assert_clean();
    }
}

/// The statistics and scans rows (issue 17's family table) on gpu(0).
#[test]
fn gpu_stats_match_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "bin/gpu gpu_stats_match_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_stats_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_stats::STATS,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}

/// The construction, manipulation, set and index-helper rows (issue 17's
/// breadth, `ops/nparr/`) on gpu(0).
#[test]
fn gpu_nparr_match_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "bin/gpu gpu_nparr_match_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_nparr_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_nparr::NPARR,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}

/// NumPy's callables, in-place and assembly helpers (`ops/arrutil/`) on gpu(0).
#[test]
fn gpu_arrutil_match_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "bin/gpu gpu_arrutil_match_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_arrutil_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_arrutil::ARRUTIL,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}
