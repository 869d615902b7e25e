//! NumPy-differential tests on the CPU (tests/numpy): the indexing
//! generator — every kind but those `gcalc_difftest::index::CI_OFF` leaves
//! off, each with its class in tests/numpy/FINDINGS.md — and the function
//! table, compared with NumPy 2 element for element and dtype for dtype;
//! and rows wrong on purpose, which the harness must catch.
//! Skips visibly without NumPy; fails instead with GCALC_REQUIRE_NUMPY=1
//! (tests/run sets it). Settings: see gcalc_difftest::suite.

use crate::numpy_side::{assert_fn_suite, assert_index_suite};
use gcalc_difftest::lit::{Data, FLOATS};
use gcalc_difftest::ops::{Arg, FUNCTIONS, FnSpec};
use gcalc_difftest::{Case, Mismatch, Settings, Tol};
use gcalc_runtime::flags::DeviceFlag;

/// Cases per seed in CI: the floor for indexing, 100 per function.
const INDEX_CASES: usize = 5000;
const FN_CASES: usize = 100;

#[test]
fn indexing_matches_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "cargo test -p gcalc-runtime --test core indexing_matches_numpy -- --nocapture";
    assert_index_suite("indexing_matches_numpy", rerun, &s, DeviceFlag::Cpu);
}

#[test]
fn functions_match_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "cargo test -p gcalc-runtime --test core functions_match_numpy -- --nocapture";
    for r in assert_fn_suite(
        "functions_match_numpy",
        rerun,
        &s,
        FUNCTIONS,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

#[test]
fn ew_functions_match_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "cargo test -p gcalc-runtime --test core ew_functions_match_numpy -- --nocapture";
    let table = gcalc_difftest::ops_ew::EW_FUNCTIONS;
    for r in assert_fn_suite(
        "ew_functions_match_numpy",
        rerun,
        &s,
        table,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

#[test]
fn random_functions_match_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun =
        "cargo test -p gcalc-runtime --test core random_functions_match_numpy -- --nocapture";
    let table = gcalc_difftest::ops_random::RANDOM_FUNCTIONS;
    for r in assert_fn_suite(
        "random_functions_match_numpy",
        rerun,
        &s,
        table,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

/// Rows that disagree with NumPy on purpose: the harness must catch each.
static WRONG: &[FnSpec] = &[
    FnSpec {
        name: "sum_vs_prod",
        gcalc: "sum({0})",
        numpy: "np.prod({0})",
        args: &[Arg::Array {
            dtypes: FLOATS,
            ndim: (1, 2),
            data: Data::Small,
        }],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "float32_vs_float64",
        gcalc: "{0}.astype(float32)",
        numpy: "{0}.astype(np.float64)",
        args: &[Arg::Array {
            dtypes: FLOATS,
            ndim: (1, 1),
            data: Data::Random,
        }],
        tol: Tol::Exact,
    },
];

#[test]
fn the_harness_catches_wrong_results() {
    let mut s = Settings::from_env(0, 20);
    s.seeds = vec![7];
    s.only = None;
    s.functions = None;
    let r = assert_fn_suite(
        "the_harness_catches_wrong_results",
        "-",
        &s,
        WRONG,
        DeviceFlag::Cpu,
    );
    let Some(r) = r.first() else { return };
    let kinds: Vec<Mismatch> = r.classes.keys().map(|(m, _)| *m).collect();
    assert!(kinds.contains(&Mismatch::Values), "{}", r.render());
    assert!(kinds.contains(&Mismatch::DType), "{}", r.render());
    // Every class comes with a minimal reproduction, no larger than the case.
    for (_, f) in r.classes.values() {
        let (m, _, _) = f.minimal.as_ref().expect("a minimal reproduction");
        assert!(m.gcalc().len() <= f.case.gcalc().len());
    }
}

/// The statistics and scans rows (issue 17's family table).
#[test]
fn stats_match_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "cargo test -p gcalc-runtime --test core stats_match_numpy -- --nocapture";
    for r in assert_fn_suite(
        "stats_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_stats::STATS,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

/// The construction, manipulation, set and index-helper rows (issue 17's
/// breadth, `ops/nparr/`).
#[test]
fn nparr_match_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "cargo test -p gcalc-runtime --test core nparr_match_numpy -- --nocapture";
    for r in assert_fn_suite(
        "nparr_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_nparr::NPARR,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

/// NumPy's callables, in-place and assembly helpers (`ops/arrutil/`).
#[test]
fn arrutil_match_numpy() {
    let s = Settings::from_env(INDEX_CASES, FN_CASES);
    let rerun = "cargo test -p gcalc-runtime --test core arrutil_match_numpy -- --nocapture";
    for r in assert_fn_suite(
        "arrutil_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_arrutil::ARRUTIL,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}
