//! NumPy's second names and dtype introspection on gpu(0): the NumPy
//! differential rows (complex ones included), the FFT family's rows, and each alias (gradients
//! too) and each array-taking query through the session on the GPU against
//! the CPU on the same random data. The aliases' CUDA sources are their
//! originals' (`gpu_nvrtc` walks the whole table). Skips visibly without a GPU.

use crate::gpu_util::{assert_same, have_gpu};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{Session, Value};

#[test]
fn gpu_np_names_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(0, 100);
    let rerun = "bin/gpu gpu_np_names_matches_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_np_names_matches_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_np_names::NP_NAMES,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
    // Complex arrays live on the GPU too (cuda/complex.rs).
    for r in assert_fn_suite(
        "gpu_np_names_complex_matches_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_np_names::NP_NAMES_COMPLEX,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}

/// The FFT family's NumPy rows on gpu(0) (cuFFT).
#[test]
fn gpu_fft_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(0, 60);
    let rerun = "bin/gpu gpu_fft_matches_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_fft_matches_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_fft::FFT,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}

/// Calls over `{x}` (in (-1, 1)), `{y}` (positive), `{i}` (ints).
const EXPRS: &[&str] = &[
    "acos({x})",
    "asin({x})",
    "atan({x} * 5)",
    "atan2({x}, {y})",
    "acosh({y} + 1)",
    "asinh({x} * 3)",
    "atanh({x} * 0.9)",
    "bitwise_invert({i})",
    "bitwise_left_shift({i}, 3)",
    "bitwise_right_shift({i}, 2)",
    "true_divide({x}, {y})",
    "row_stack([{x}, {y}])",
    "{x}.astype(single)",
    "iscomplex({x})",
    "isreal({i})",
    "real_if_close({x})",
    "iscomplexobj({x})",
    "finfo({x}).eps.item() * {x}",
    "grad(fa)({x})",
    "grad(fr)({x})",
];

#[test]
fn np_names_on_the_gpu_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(
        Default::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    let setup = "seed(29)\n\
        x = uniform(-0.99, 0.99, (37, 41), dtype=float64, device=cpu())\n\
        y = uniform(0.5, 2.0, (37, 41), dtype=float64, device=cpu())\n\
        i = randint(-300, 300, (37, 41), device=cpu())\n\
        gx = x.to(gpu(0))\ngy = y.to(gpu(0))\ngi = i.to(gpu(0))\n\
        fn fa(v) { sum(acos(v) + asin(v) * atan2(v, 2.0) + atanh(v * 0.5) + asinh(v) + acosh(v + 2.0)) }\n\
        fn fr(v) { sum(sin(row_stack([v, true_divide(v, 3.0)]))) }\n";
    crate::gpu_session::ok(&mut s, setup);
    for e in EXPRS {
        let on = |pre: &str| {
            ["x", "y", "i"].iter().fold(e.to_string(), |t, v| {
                t.replace(&format!("{{{v}}}"), &format!("{pre}{v}"))
            })
        };
        crate::gpu_session::ok(&mut s, &format!("rc = {}\nrg = {}\n", on(""), on("g")));
        match (s.get("rc"), s.get("rg")) {
            (Some(Value::Array(rc)), Some(Value::Array(rg))) => assert_same(&rg, &rc, 1e-9, e),
            (Some(Value::Bool(a)), Some(Value::Bool(b))) => assert_eq!(a, b, "{e}"),
            _ => panic!("{e}: no arrays"),
        }
    }
}
