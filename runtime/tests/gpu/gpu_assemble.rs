//! The shape and assembly family (issue 17) on gpu(0): the NumPy rows of
//! `gcalc_difftest::ops_assemble` with new arrays on the GPU; every
//! function on large random arrays of each dtype against the CPU, element
//! for element (index and count arrays on the GPU too, results staying
//! there); and every gradient case of `core/grad_assemble.rs` on the GPU
//! against the CPU's (which are checked against finite differences).
//! Skips visibly without a GPU.

use crate::gpu_util::have_gpu;
use crate::grad_assemble::CASES;
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_assemble::ASSEMBLE;
use gcalc_runtime::Session;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::output::Captured;

#[test]
fn gpu_assembly_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(0, 200);
    let rerun = "bin/gpu gpu_assembly_matches_numpy --nocapture";
    let reports = assert_fn_suite(
        "gpu_assembly_matches_numpy",
        rerun,
        &s,
        ASSEMBLE,
        DeviceFlag::Gpu(0),
    );
    for r in reports {
        r.assert_clean();
    }
}

fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "test.gcalc");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

/// Calls over `X` (a 300x257 array), `V` (a vector of 1000), `I` (int64
/// indices in -257..257), `J` (indices along axis 0 of X's shape (40,
/// 257)) and `R` (repeat counts for X's rows).
const CALLS: &[&str] = &[
    "flip(X, 0)",
    "flip(X)",
    "fliplr(X)",
    "rot90(X, 3)",
    "swapaxes(X, 0, 1)",
    "moveaxis(X, 0, -1)",
    "diagonal(X, 5)",
    "atleast_3d(X)",
    "roll(X, (7, -100), axis=(0, 1))",
    "roll(X, 1000)",
    "roll(V, -333)",
    "tile(X, (2, 1, 3))",
    "tile(V, 5)",
    "repeat(X, 3, axis=1)",
    "repeat(X, R, axis=0)",
    "repeat(V, 4)",
    "pad(X, ((3, 4), (5, 6)))",
    "pad(X, ((3, 4), (5, 6)), constant_values=((1, 2), (3, 4)))",
    "pad(X, ((30, 400), (5, 600)), mode=\"edge\")",
    "pad(X, ((299, 298), (5, 256)), mode=\"reflect\")",
    "pad(X, ((300, 700), (5, 6)), mode=\"symmetric\")",
    "pad(X, ((301, 4), (1000, 6)), mode=\"wrap\")",
    "pad(V, 1234, mode=\"reflect\")",
    "triu(X, 5)",
    "tril(X, -7)",
    "triu(V)",
    "diag(X, 3)",
    "diag(V, -2)",
    "trace(X)",
    "trace(X, -4)",
    "take(X, I, axis=1)",
    "take(X, I * 3, axis=1, mode=\"wrap\")",
    "take(X, I * 3, axis=1, mode=\"clip\")",
    "take(X, I)",
    "take(V, I.reshape(2, -1))",
    "take_along_axis(X, J, axis=0)",
    "take_along_axis(X, I.reshape(300, 3), axis=1)",
    "hstack([X, X[:, :7]])",
    "vstack([X, X[:3]])",
    "dstack([X, X])",
    "column_stack([V[:300], X])",
    "concatenate([X, X], axis=-1)",
    "meshgrid(V[:100], V[:70])[0]",
    "meshgrid(V[:100], V[:70], indexing=\"ij\")[1]",
    "split(X, 3, axis=0)[2]",
    "array_split(X, 7, axis=1)[6]",
];

#[test]
fn gpu_assembly_matches_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    run(&mut s, "set device = cpu");
    run(
        &mut s,
        "seed(17); Ic = randint(-257, 257, 900); Ig = Ic.to(gpu()); \
         Jc = randint(-300, 300, (40, 257)); Jg = Jc.to(gpu()); \
         Rc = randint(0, 4, 300); Rg = Rc.to(gpu())",
    );
    for dt in ["float32", "float64", "float16", "int32", "int64", "bool"] {
        run(
            &mut s,
            &format!(
                "Xc = (randn((300, 257)) * 4.0).astype({dt}); Xg = Xc.to(gpu()); \
                 Vc = (randn(1000) * 4.0).astype({dt}); Vg = Vc.to(gpu())"
            ),
        );
        for call in CALLS {
            let on = |dev: &str| {
                call.replace('X', &format!("X{dev}"))
                    .replace('V', &format!("V{dev}"))
                    .replace('I', &format!("I{dev}"))
                    .replace('J', &format!("J{dev}"))
                    .replace('R', &format!("R{dev}"))
            };
            let what = format!("{call} ({dt})");
            run(&mut s, &format!("rc = {}; rg = {}", on("c"), on("g")));
            assert_eq!(run(&mut s, "rg.device"), "gpu(0)", "{what}");
            assert_eq!(
                run(&mut s, "(rg.dtype == rc.dtype, rg.shape == rc.shape)"),
                "(true, true)",
                "{what}"
            );
            assert_eq!(
                run(&mut s, "sum(rg.to(cpu()) != rc).item() == 0"),
                "true",
                "{what}: values differ"
            );
        }
        // put_along_axis writes on the device (a repeated target: the last
        // value in C order on both devices).
        run(
            &mut s,
            "pc = Xc.copy(); pg = Xg.copy(); \
             put_along_axis(pc, Jc, Xc[:40], axis=0); put_along_axis(pg, Jg, Xg[:40], axis=0)",
        );
        assert_eq!(
            run(&mut s, "(pg.device, sum(pg.to(cpu()) != pc).item() == 0)"),
            "(gpu(0), true)",
            "put_along_axis ({dt})"
        );
    }
}

/// `(a, b)`, `(a,)` or `()`.
fn tuple(v: &[usize]) -> String {
    match v {
        [a] => format!("({a},)"),
        _ => format!(
            "({})",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[test]
fn gpu_assembly_gradients_match_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    run(&mut s, "set device = cpu");
    run(&mut s, "set floatX = float64");
    let mut seed = 1u64;
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}"));
        seed += 1;
        let (xs, ys, nums) = (tuple(xs), tuple(ys), tuple(argnums));
        run(
            &mut s,
            &format!(
                "seed({seed}); x = randn({xs}, dtype=float64); y = randn({ys}, dtype=float64); \
                 gc = grad(f, {nums})(x, y); gg = grad(f, {nums})(x.to(gpu()), y.to(gpu()))"
            ),
        );
        for k in 0..argnums.len() {
            assert_eq!(
                run(
                    &mut s,
                    &format!(
                        "(gg[{k}].device, gg[{k}].shape == gc[{k}].shape, \
                         sum(abs(gg[{k}].to(cpu()) - gc[{k}]) > 1e-9).item() == 0)"
                    )
                ),
                "(gpu(0), true, true)",
                "{body}: gradient {k}"
            );
        }
    }
}
