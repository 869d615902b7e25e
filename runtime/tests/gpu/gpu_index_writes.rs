//! Writes and updates through indices on a GPU, and what issue 16 reported:
//! `op=` through index arrays and masks, 0-d index arrays, literal data in
//! `concat`, a stencil loop that makes no device-to-host copy (index arrays
//! stay on the device), index errors found by kernels reported at the next
//! sync with nothing written, `add_at` and its siblings against the CPU for
//! every dtype pair, masks of many sizes, and `grad` through every index
//! form (`core/grad_index_forms.rs`) against the CPU's.
//! Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use crate::gpu_util::have_gpu;
use crate::grad_index_forms::FORMS;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

fn session(device: &str) -> Session {
    let mut flags = Flags::default();
    flags.set("device", device).expect("device flag");
    flags.set("floatX", "float64").expect("floatX flag");
    Session::new(flags, Box::new(Captured::default()))
}

/// The shown value of `code` (an error fails the test).
fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "test.gcalc");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

/// The error `code` gives.
fn error(s: &mut Session, code: &str) -> String {
    match s.execute(code, "test.gcalc").error {
        Some(e) => e.rendered,
        None => panic!("{code}: no error"),
    }
}

/// `code`'s value as a list, computed on the CPU and on gpu(0).
fn both(code: &str) -> (String, String) {
    let mut c = session("cpu");
    let mut g = session("gpu");
    (run(&mut c, code), run(&mut g, code))
}

#[test]
fn the_issue_reproductions_run_on_the_gpu() {
    if !have_gpu() {
        return;
    }
    let mut s = session("gpu");
    let cases = [
        (
            "z = zeros(5); z[array([1, 1, 2])] += 1; z.tolist()",
            "[0.0, 1.0, 1.0, 0.0, 0.0]",
        ),
        (
            "z = ones(5); z[z > 0] *= 2; z.tolist()",
            "[2.0, 2.0, 2.0, 2.0, 2.0]",
        ),
        (
            "x = zeros((2, 3)); x[array([0, 1]), array([1, 2])] += 5; x[:, array([0, 2])] += 1; x.tolist()",
            "[[1.0, 5.0, 1.0], [1.0, 0.0, 6.0]]",
        ),
        (
            "v = array([1.0, -3.0, 2.0]); v[argmax(abs(v))].item()",
            "-3.0",
        ),
        ("v[array(2)].item()", "2.0"),
        (
            "x = arange(3.0); y = concat([[0.0], x]); (y.device, y.tolist())",
            "(gpu(0), [0.0, 0.0, 1.0, 2.0])",
        ),
        (
            "grad(fn(x) { y = zeros(4); y[1:3] = x[1:3] * 2.0; sum(y) })(arange(4.0)).tolist()",
            "[0.0, 2.0, 2.0, 0.0]",
        ),
        (
            "z = zeros(3); add_at(z, [0, 0, 2], 1.0); z.tolist()",
            "[2.0, 0.0, 1.0]",
        ),
        ("b = zeros((2, 0)); b[1].tolist()", "[]"),
        ("x = arange(6).reshape((2, 3)); x[true].shape", "(1, 2, 3)"),
        ("x = arange(3.0); e = x[0]; x[:] = 7.0; e.item()", "0.0"),
        // Item 5 and FINDINGS F1-F3, F8, F13, as in tests/golden/index_writes.gcalc.
        (
            "b = zeros((2, 0), dtype=bool); b[array([0, 1])].shape",
            "(2, 0)",
        ),
        (
            "y = zeros((5, 0)); y[4] += 1; y[1:3] *= 2; y[::-2] -= 1; y.shape",
            "(5, 0)",
        ),
        (
            "x = arange(6.0); x[array(false)] = 5.0; x.tolist()",
            "[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]",
        ),
        ("x = arange(6); x[array(true)].shape", "(1, 6)"),
        (
            "grad(fn(x) { y = x * 1.0; y[0] = 5.0; sum(y) })(arange(3.0)).tolist()",
            "[0.0, 1.0, 1.0]",
        ),
        (
            "grad(fn(x) { y = x * 1.0; y[array([0, 0])] += x[1:3]; sum(y) })(arange(3.0)).tolist()",
            "[1.0, 1.0, 2.0]",
        ),
        (
            "x = zeros(1, dtype=int64); add_at(x, zeros((2, 3), dtype=int64), array([1, 2, 3])); x.tolist()",
            "[12]",
        ),
    ];
    for (code, want) in cases {
        assert_eq!(run(&mut s, code), want, "{code}");
    }
    assert_eq!(run(&mut s, "z.device"), "gpu(0)");
}

#[test]
fn a_stencil_loop_makes_no_device_to_host_copy() {
    if !have_gpu() {
        return;
    }
    let code = "n = 1000; seed(1); u = rand(n); src = arange(1, n - 1); \
                for i in range(2000) { u[src] += 0.1 * (u[src - 1] - 2.0 * u[src] + u[src + 1]) }";
    let mut s = session("gpu");
    run(&mut s, "set profile = true");
    run(&mut s, code);
    run(&mut s, "sync()");
    {
        let st = s.interp().profiler.lock();
        let c = &st.counters;
        assert_eq!(c.d2h_bytes, 0, "no device-to-host copy: {c:?}");
        assert!(c.launches >= 2000 * 4, "{c:?}");
    }
    assert_eq!(run(&mut s, "(u.device, src.device)"), "(gpu(0), gpu(0))");
    let (cpu, gpu) = both(&format!("{code}; u.tolist()"));
    let (c, g): (Vec<f64>, Vec<f64>) = (parse(&cpu), parse(&gpu));
    assert_eq!(c.len(), 1000);
    for (a, b) in c.iter().zip(&g) {
        assert!((a - b).abs() < 1e-9, "CPU {a} vs GPU {b}");
    }
}

fn parse(list: &str) -> Vec<f64> {
    list.trim_matches(['[', ']'])
        .split(',')
        .map(|v| v.trim().parse().expect("a number"))
        .collect()
}

#[test]
fn index_errors_come_at_the_next_sync_and_write_nothing() {
    if !have_gpu() {
        return;
    }
    let mut s = session("gpu");
    run(&mut s, "x = arange(5.0); i = array([1, 7])");
    // The write is queued; the kernel finds 7 and writes nothing; the input
    // that queued it fails at its end (its GPU work is waited for), naming
    // the statement.
    let e = error(&mut s, "x[i] = 9.0");
    assert!(
        e.contains("index 7 is out of bounds for axis 0 with size 5") && e.contains("x[i] = 9.0"),
        "{e}"
    );
    assert_eq!(run(&mut s, "x.tolist()"), "[0.0, 1.0, 2.0, 3.0, 4.0]");
    let e = error(
        &mut s,
        "x[array([-1])] += 1.0; add_at(x, array([0, 9, 0]), 1.0)",
    );
    assert!(e.contains("index 9 is out of bounds"), "{e}");
    assert_eq!(run(&mut s, "x.tolist()"), "[0.0, 1.0, 2.0, 3.0, 5.0]");
    // A read whose result is not used.
    let e = error(&mut s, "y = x[array([[0, -6]])]");
    assert!(e.contains("index -6 is out of bounds"), "{e}");
    // Within one input, the next wait (here sync()) stops it there: what
    // follows does not run.
    let e = error(&mut s, "x[array([8])] = 1.0; sync(); x[0] = 7.0");
    assert!(e.contains("index 8 is out of bounds"), "{e}");
    assert_eq!(run(&mut s, "x.tolist()"), "[0.0, 1.0, 2.0, 3.0, 5.0]");
    // With launch_blocking the statement itself fails.
    run(&mut s, "set launch_blocking = true");
    let e = error(&mut s, "x[array([5])] = 1.0");
    assert!(e.contains("index 5 is out of bounds"), "{e}");
    run(&mut s, "set launch_blocking = false");
    // The session goes on; no error is left for a later input.
    assert_eq!(
        run(&mut s, "x[array([0, 4])] = 2.0; x.tolist()"),
        "[2.0, 1.0, 2.0, 3.0, 2.0]"
    );
    let mut other = session("gpu");
    let e = error(&mut other, "z = arange(3.0); z[array([3])] = 1.0; w = 1");
    assert!(e.contains("index 3 is out of bounds"), "{e}");
    assert_eq!(run(&mut s, "x[1:3].tolist()"), "[1.0, 2.0]");
}

#[test]
fn at_updates_match_the_cpu_for_every_dtype_pair() {
    if !have_gpu() {
        return;
    }
    let dtypes = ["bool", "int32", "int64", "float16", "float32", "float64"];
    for op in [
        "add_at",
        "subtract_at",
        "multiply_at",
        "maximum_at",
        "minimum_at",
    ] {
        for xd in dtypes {
            for vd in dtypes {
                // Repeated positions; values whose sums are exact in every dtype.
                let code = format!(
                    "x = array([[1, 0, 3], [2, -2, 1]], dtype={xd}); \
                     v = array([2, 1, 0, 1, 2, 1], dtype={vd}); \
                     {op}(x, (array([0, 1, 0, 0, 1, 0]), array([2, 1, 2, 0, 1, 2])), v); x.tolist()"
                );
                if op == "subtract_at" && xd == "bool" && vd == "bool" {
                    // NumPy and PyTorch refuse bool - bool: so does each device.
                    for d in ["cpu", "gpu"] {
                        let e = error(&mut session(d), &code);
                        assert!(e.contains("not defined on bool arrays"), "{d}: {e}");
                    }
                    continue;
                }
                let (c, g) = both(&code);
                assert_eq!(c, g, "{code}");
            }
        }
    }
    // Scalars and broadcast values, a strided target, masks, 0-d booleans.
    for code in [
        "x = arange(12.0).reshape((3, 4)); add_at(x.T, [1, 1, 3], array([1.0, 2.0, 3.0])); x.tolist()",
        "x = arange(12).reshape((3, 4)); add_at(x, (x > 5), 10); x.tolist()",
        "x = arange(4.0); maximum_at(x, [0, 0], array([0.0, 9.0]) / array([0.0, 1.0])); isnan(x).tolist()",
        "x = arange(4); minimum_at(x, (true, [3, 3]), array([-5, -7])); x.tolist()",
    ] {
        let (c, g) = both(code);
        assert_eq!(c, g, "{code}");
    }
}

#[test]
fn masks_of_every_size_select_as_on_the_cpu() {
    if !have_gpu() {
        return;
    }
    for n in [0usize, 1, 31, 4095, 4096, 4097, 300_001, 5_000_000] {
        let code = format!(
            "seed(7); x = rand({n}); m = x > 0.3; y = x[m]; \
             (len(y), y[:5].tolist(), y[-5:].tolist())"
        );
        let (c, g) = both(&code);
        assert_eq!(c, g, "{code}");
        // The sums agree to rounding (the devices add in different orders).
        let code = format!("seed(7); x = rand({n}); sum(x[x > 0.3]).item()");
        let (c, g) = both(&code);
        let (c, g): (f64, f64) = (c.parse().unwrap(), g.parse().unwrap());
        assert!(
            (c - g).abs() <= 1e-12 * c.abs().max(1.0),
            "{code}: {c} vs {g}"
        );
    }
    // A strided mask, a mask over some axes, a mask and an index array.
    let code = "seed(3); x = rand((40, 50)); m = (x > 0.5).T; \
                (x.T[m].tolist() == x.T.copy()[m.copy()].tolist(), x[:, x[0] > 0.5].shape, \
                 x[x[:, 0] > 0.2, 3:7].tolist(), x[x[:, 1] > 0.9, array([1])].tolist())";
    let (c, g) = both(code);
    assert_eq!(c, g, "{code}");
}

#[test]
fn gradients_through_every_index_form_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut c = session("cpu");
    let mut g = session("gpu");
    for (what, body, xs, ys) in FORMS {
        let code = format!(
            "fn f(x, y) {{ {body} }}; seed(11); x = randn({}); y = randn({}); \
             gx, gy = grad(f, (0, 1))(x, y); (gx.device, gy.device)",
            shape(xs),
            shape(ys)
        );
        let dc = run(&mut c, &code);
        let dg = run(&mut g, &code);
        assert_eq!(
            (dc.as_str(), dg.as_str()),
            ("(cpu(0), cpu(0))", "(gpu(0), gpu(0))"),
            "{what}"
        );
        run(&mut g, "hx = gx.to(cpu()); hy = gy.to(cpu())");
        copy_vars(&mut g, &mut c, &["hx", "hy"]);
        let close = run(
            &mut c,
            "max(abs(hx - gx)).item() < 1e-9 and max(abs(hy - gy)).item() < 1e-9",
        );
        assert_eq!(close, "true", "{what}");
    }
}

/// `(3, 4)`.
fn shape(s: &[usize]) -> String {
    let d: Vec<String> = s.iter().map(|d| d.to_string()).collect();
    format!("({},)", d.join(", "))
}

/// Variables `names` of session `from` bound in session `to`.
fn copy_vars(from: &mut Session, to: &mut Session, names: &[&str]) {
    for name in names {
        let v = from.get(name).expect("set");
        to.interp().bind(name, v);
    }
}
