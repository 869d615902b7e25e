//! Signals and polynomials (`ops/signal/`) on gpu(0): the NumPy
//! differential rows, and every function (gradients too) through the
//! session on the GPU against the CPU on the same random data, results
//! staying on the GPU (`.device` checked). The functions are compositions
//! of table ops, whose CUDA sources `gpu_nvrtc` compiles. Skips visibly
//! without a GPU.

use crate::gpu_util::{assert_same, have_gpu};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{Session, Value};

#[test]
fn gpu_signal_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(0, 100);
    let rerun = "bin/gpu gpu_signal_matches_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_signal_matches_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_signal::SIGNAL,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}

/// Calls over `{a}` (a long signal), `{v}` (a 100-tap kernel), `{p}`
/// (coefficients), `{x}` (points), `{y}` (values at x), `{t}` (6x2x3),
/// `{q}` (2x3x6) and `{b}` (2x3) for the tensor solvers.
const EXPRS: &[&str] = &[
    "convolve({a}, {v})",
    "convolve({v}, {a}, mode=\"same\")",
    "convolve({a}, {v}, \"valid\")",
    "correlate({a}, {v})",
    "correlate({v}, {a}, mode=\"full\")",
    "polyval({p}, {x})",
    "polyder({p}, 2)",
    "polyint({p}, 2, k=[1.0, 2.0])",
    "polyadd({p}, {v})",
    "polysub({v}, {p})",
    "polymul({p}, {v})",
    "polydiv({v}, {p})[0]",
    "polydiv({v}, {p})[1]",
    "polyfit({x}, {y}, 3)",
    "polyfit({x}, {y}, 2, w={x} * {x} + 1, cov=true)[1]",
    "grad(fc)({a})",
    "grad(fc)({v})",
    "grad(fp)({p})",
    "tensorinv({t}, ind=1)",
    "tensorsolve({q}, {b})",
    "trim_zeros(where(abs({a}) < 2.5, 0.0, {a}))",
    "poly({p})",
];

#[test]
fn signal_on_the_gpu_matches_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(
        Default::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    let setup = "seed(29)\n\
        a = normal(0.0, 1.0, (20000,), dtype=float64, device=cpu())\n\
        v = uniform(-1.0, 1.0, (100,), dtype=float64, device=cpu())\n\
        p = normal(0.0, 1.0, (6,), dtype=float64, device=cpu())\n\
        x = uniform(-2.0, 2.0, (50,), dtype=float64, device=cpu())\n\
        y = sin(x) + x * 0.3\n\
        t = normal(0.0, 1.0, (6, 2, 3), dtype=float64, device=cpu())\n\
        q = normal(0.0, 1.0, (2, 3, 6), dtype=float64, device=cpu())\n\
        b = normal(0.0, 1.0, (2, 3), dtype=float64, device=cpu())\n\
        gt = t.to(gpu(0))\ngq = q.to(gpu(0))\ngb = b.to(gpu(0))\n\
        ga = a.to(gpu(0))\ngv = v.to(gpu(0))\ngp = p.to(gpu(0))\n\
        gx = x.to(gpu(0))\ngy = y.to(gpu(0))\n\
        fn fc(t) { sum(sin(convolve(t, t[:50] * 0.5, mode=\"same\"))) }\n\
        fn fp(t) { sum(sin(polyval(t, t * 0.1 + 0.3))) + sum(polymul(t, t)) }\n";
    crate::gpu_session::ok(&mut s, setup);
    for e in EXPRS {
        let on = |pre: &str| {
            ["a", "v", "p", "x", "y", "t", "q", "b"]
                .iter()
                .fold(e.to_string(), |t, v| {
                    t.replace(&format!("{{{v}}}"), &format!("{pre}{v}"))
                })
        };
        crate::gpu_session::ok(&mut s, &format!("rc = {}\nrg = {}\n", on(""), on("g")));
        match (s.get("rc"), s.get("rg")) {
            (Some(Value::Array(rc)), Some(Value::Array(rg))) => assert_same(&rg, &rc, 1e-9, e),
            _ => panic!("{e}: no arrays"),
        }
    }
    for w in [
        "hanning(51",
        "hamming(8",
        "blackman(12",
        "bartlett(7",
        "kaiser(9, 14.0",
    ] {
        let code = format!("rc = {w})\nrg = {w}, device=gpu(0))\n");
        crate::gpu_session::ok(&mut s, &code);
        match (s.get("rc"), s.get("rg")) {
            (Some(Value::Array(rc)), Some(Value::Array(rg))) => assert_same(&rg, &rc, 0.0, w),
            _ => panic!("{w}: no arrays"),
        }
    }
}

/// eig, eigvals and roots of a GPU array: a clear error naming the fix.
#[test]
fn gpu_eig_says_move_to_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(
        Default::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    for code in [
        "eig(ones((3, 3), device=gpu(0)))",
        "eigvals(ones((3, 3), device=gpu(0)))",
        "roots(array([1.0, 2.0, 3.0], device=gpu(0)))",
    ] {
        let out = s.execute(code, "<test>");
        let text = format!("{out:?}");
        assert!(text.contains(".to(cpu)"), "{code}: {text}");
    }
}
