//! The "more NumPy math" family (`ops/npmath*.rs`) on gpu(0): the NumPy
//! differential rows, and every function (gradients too) through the
//! session on the GPU against the CPU on the same random data, results
//! staying on the GPU. The elementwise entries' CUDA sources are compiled by
//! `gpu_nvrtc` (it walks the whole table). Skips visibly without a GPU.

use crate::gpu_util::{assert_same, have_gpu};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{Session, Value};

#[test]
fn gpu_npmath_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(0, 100);
    let rerun = "bin/gpu gpu_npmath_matches_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_npmath_matches_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_npmath::NPMATH,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}

/// Calls over `{x}` (float, with NaN in `{n}`), `{y}` (positive),
/// `{i}`/`{j}` (ints), `{p}` (coordinates).
const EXPRS: &[&str] = &[
    "isclose({x}, {x} * 1.000001)",
    "isclose({n}, {n}, equal_nan=true)",
    "logical_xor({x} > 0, {i})",
    "fmax({n}, {x})",
    "fmin({x}, {n})",
    "positive({i})",
    "absolute({x})",
    "fabs({i})",
    "amax({x}, axis=1)",
    "amin({x}, axis=-2, keepdims=true)",
    "around({x} * 100, -1)",
    "round({x}, 2)",
    "fix({x} * 3)",
    "degrees({x})",
    "radians({x})",
    "sinc({x})",
    "float_power({y}, {x})",
    "bitwise_not({i})",
    "bitwise_count({i})",
    "gcd({i}, {j})",
    "lcm({i}, {j})",
    "divmod({x}, {y})[0]",
    "divmod({i}, {j} + 100)[1]",
    "modf({x} * 5)[0]",
    "modf({x} * 5)[1]",
    "frexp({x} * 1e5)[0]",
    "frexp({x} * 1e-300)[1]",
    "ldexp({x}, {i})",
    "nextafter({x}, {y})",
    "trapezoid({x}, axis=0)",
    "trapezoid({x}, x={p})",
    "ediff1d({x}, to_begin=0.5)",
    "cumulative_sum({x}, axis=1, include_initial=true)",
    "cumulative_prod({y}, axis=0)",
    "nancumsum({n}, axis=1)",
    "nancumprod({n} * 0.01, axis=0)",
    "nanprod({n} * 0.1, axis=1)",
    "unwrap({x} * 4, axis=1)",
    "gradient({x}, axis=1)",
    "gradient({x}, {p}, axis=1, edge_order=2)",
    "gradient({x})[0]",
    "interp({x}, sort({p}), {p} * 2)",
    "interp({x}, {p}, {p}, period=1.5)",
    "nanmedian({n}, axis=1)",
    "nanquantile({n}, 0.3, axis=0, keepdims=true)",
    "nanpercentile({n}, [5, 50, 99], axis=1)",
    "nanmedian({x})",
    "vdot({x}, {y})",
    "vecdot({x}, {y})",
    "multi_dot([{x}, {y}.T, {x}, {p}])",
    "matrix_transpose({x})",
    "permute_dims({x})",
    "vector_norm({x}, axis=1, ord=3)",
    "matrix_norm({x}, ord=\"nuc\")",
    "grad(fq)({n})",
    "grad(fg)({x})",
    "grad(fi)({x})",
    "grad(fm)({x})",
];

#[test]
fn npmath_on_the_gpu_matches_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(
        Default::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    let setup = "seed(23)\n\
        x = normal(0.0, 1.0, (37, 41), dtype=float64, device=cpu())\n\
        y = uniform(0.5, 2.0, (37, 41), dtype=float64, device=cpu())\n\
        n = where(x > 1.0, nan, x)\n\
        i = randint(-300, 300, (37, 41), device=cpu())\n\
        j = randint(1, 60, (37, 41), device=cpu())\n\
        p = cumsum(uniform(0.1, 1.0, (41,), dtype=float64, device=cpu()))\n\
        gx = x.to(gpu(0))\ngy = y.to(gpu(0))\ngn = n.to(gpu(0))\n\
        gi = i.to(gpu(0))\ngj = j.to(gpu(0))\ngp = p.to(gpu(0))\n\
        fn fq(v) { sum(nanquantile(v, 0.4, axis=1) * 1.5) + sum(nanmedian(v, axis=0)) }\n\
        fn fg(v) { sum(sin(gradient(v, axis=0, edge_order=2))) + sum(trapezoid(v * v)) }\n\
        fn fi(v) { sum(interp(v, array([-1.0, 0.0, 2.0], device=v.device), array([3.0, 1.0, 2.0], device=v.device))) }\n\
        fn fm(v) { sum(multi_dot([v, v.T, v])) + sum(sinc(v) + fmax(v, 0.2)) + vector_norm(v) }\n";
    crate::gpu_session::ok(&mut s, setup);
    for e in EXPRS {
        let on = |pre: &str| {
            ["x", "y", "n", "i", "j", "p"]
                .iter()
                .fold(e.to_string(), |t, v| {
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
