//! GPU behaviour seen through the Session, as users see it: contexts
//! (copyto/to/is), printing and tolist of GPU arrays, the same random numbers
//! on every device, creation, views, slice assignment, astype, concat, save,
//! devices()/mem()/sync(), launch_blocking, and custom kernels. Skips visibly
//! without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Session, Value};

use crate::gpu_util::have_gpu;

/// Run `code`; its value's text (or the rendered error).
fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "test.gcalc");
    if let Some(e) = r.error {
        return format!("ERROR {}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

pub fn ok(s: &mut Session, code: &str) -> String {
    let out = run(s, code);
    assert!(!out.starts_with("ERROR"), "{code}\n{out}");
    out
}

#[test]
fn gpu_arrays_through_the_session() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    // contexts.gcalc (MXNet's tutorial): arrays start on the CPU there.
    ok(&mut s, "set device = cpu");
    ok(&mut s, "x = array([1, 2, 3])");
    assert_eq!(ok(&mut s, "x.device"), "cpu(0)");
    ok(&mut s, "y = x.copyto(gpu()); z = x.to(gpu())");
    assert_eq!(
        ok(&mut s, "(y.to(gpu()) is y, z.copyto(gpu()) is z)"),
        "(true, false)"
    );
    assert_eq!(ok(&mut s, "y.device"), "gpu(0)");
    assert_eq!(ok(&mut s, "y.tolist()"), "[1, 2, 3]");
    // The op table on the GPU: fused elementwise, operands on two devices, reductions, matmul.
    assert_eq!(ok(&mut s, "(exp(z + 2) * y).device"), "gpu(0)");
    assert_eq!(
        ok(
            &mut s,
            "max(abs((exp(z + 2) * y).to(cpu()) - exp(x + 2) * x)).item() < 1e-3"
        ),
        "true"
    );
    let e = run(&mut s, "x + y");
    assert!(e.contains("cpu(0)") && e.contains("gpu(0)"), "{e}");
    assert_eq!(ok(&mut s, "y.sum().item()"), "6");
    assert_eq!(ok(&mut s, "y.astype(float32).mean().item()"), "2.0");
    ok(
        &mut s,
        "seed(3); A = randn((64, 32)); B = randn((32, 16)); gA = A.to(gpu()); gB = B.to(gpu())",
    );
    assert_eq!(
        ok(
            &mut s,
            "max(abs((gA @ gB).to(cpu()) - A @ B)).item() < 1e-4"
        ),
        "true"
    );
    assert_eq!(
        ok(
            &mut s,
            "max(abs(gA.sum(axis=0).to(cpu()) - A.sum(axis=0))).item() < 1e-4"
        ),
        "true"
    );
    assert_eq!(
        ok(&mut s, "gA.argmax().item() == A.argmax().item()"),
        "true"
    );
    assert_eq!(ok(&mut s, "gA.max(axis=1, keepdims=true).shape"), "(64, 1)");
    let shown = ok(&mut s, "y");
    assert!(shown.contains("1 2 3"), "{shown}");
    // The same random numbers on every device.
    assert_eq!(
        ok(
            &mut s,
            "seed(22); a = rand(1000, device=gpu()); seed(22); b = rand(1000, device=cpu()); a.tolist() == b.tolist()"
        ),
        "true"
    );
    assert_eq!(
        ok(
            &mut s,
            // Normals go through log/sin/cos, whose last bit may differ between
            // CUDA's libdevice and the host's libm: the same draws, to rounding.
            "seed(5); a = randn((3, 7), dtype=float64, device=gpu()); seed(5); b = randn((3, 7), dtype=float64); allclose(a.to(cpu()), b, rtol=1e-13, atol=1e-15)"
        ),
        "true"
    );
    // Creation, views, slice assignment, astype, concat on the GPU.
    ok(&mut s, "m = full((3, 4), 2.5, device=gpu())");
    assert_eq!(
        ok(&mut s, "m.tolist()"),
        "[[2.5, 2.5, 2.5, 2.5], [2.5, 2.5, 2.5, 2.5], [2.5, 2.5, 2.5, 2.5]]"
    );
    ok(&mut s, "v = m[1:, ::2]; m[0, :] = 7");
    assert_eq!(ok(&mut s, "v.tolist()"), "[[2.5, 2.5], [2.5, 2.5]]");
    assert_eq!(ok(&mut s, "m[0].tolist()"), "[7.0, 7.0, 7.0, 7.0]");
    assert_eq!(ok(&mut s, "m.T.astype(int32).device"), "gpu(0)");
    assert_eq!(ok(&mut s, "m.T.astype(int32)[0].tolist()"), "[7, 2, 2]");
    assert_eq!(ok(&mut s, "concat([y, z]).tolist()"), "[1, 2, 3, 1, 2, 3]");
    assert_eq!(
        ok(&mut s, "zeros(3, device=gpu()).tolist()"),
        "[0.0, 0.0, 0.0]"
    );
    assert_eq!(ok(&mut s, "y[array([2, 0])].tolist()"), "[3, 1]");
    assert_eq!(ok(&mut s, "y[1].item()"), "2");
    // devices(), mem(), sync(), launch_blocking.
    ok(&mut s, "devices(); mem(); sync(); y.sync()");
    ok(&mut s, "set launch_blocking = true");
    assert_eq!(
        ok(&mut s, "full(4, 1, device=gpu()).tolist()"),
        "[1, 1, 1, 1]"
    );
    ok(&mut s, "set launch_blocking = false");
    ok(&mut s, "set allow_gc = false");
    ok(
        &mut s,
        "big = zeros(1000000, device=gpu()); big = none; sync()",
    );
    ok(&mut s, "set allow_gc = true");
    // Out of memory: an error naming the statement, the size, the largest GPU variables; the session goes on.
    ok(&mut s, "big = zeros(1000000, device=gpu())");
    let e = run(
        &mut s,
        "huge = zeros((1000000, 1000000), dtype=float64, device=gpu())",
    );
    println!("{e}");
    assert!(
        e.contains("out of memory") && e.contains("largest GPU variables: big"),
        "{e}"
    );
    ok(&mut s, "big = none; sync()");
    // Custom kernels (PyCUDA's SourceModule).
    ok(
        &mut s,
        "mod = cuda_module(\"\"\"\nextern \"C\" __global__ void multiply_them(float *dest, float *a, float *b) {\n    const int i = threadIdx.x;\n    dest[i] = a[i] * b[i];\n}\"\"\")",
    );
    ok(
        &mut s,
        "a = randn(400, device=gpu()); b = randn(400, device=gpu()); dest = zeros(400, device=gpu())",
    );
    ok(
        &mut s,
        "mod.multiply_them(dest, a, b, block=(400, 1, 1), grid=(1, 1))",
    );
    let (d, a, b) = (s.get("dest"), s.get("a"), s.get("b"));
    let f = |v: Option<Value>| match v {
        Some(Value::Array(x)) => x.to_f64_vec().unwrap(),
        _ => panic!("not an array"),
    };
    let (d, a, b) = (f(d), f(a), f(b));
    for i in 0..400 {
        assert_eq!(d[i] as f32, (a[i] as f32) * (b[i] as f32));
    }
    let e = run(
        &mut s,
        "mod.multiply_them(dest, a, block=(400, 1, 1), grid=(1, 1))",
    );
    assert!(e.contains("takes 3 arguments"), "{e}");
    let e = run(
        &mut s,
        "cuda_module(\"\"\"\nextern \"C\" __global__ void k(float *d) {\n  d[0] = nope;\n}\"\"\")",
    );
    assert!(e.contains("nope") && e.contains("3 |"), "{e}");
    let e = run(&mut s, "gpu(10)");
    assert!(e.contains("gpu(10) does not exist"), "{e}");
    // save copies to the host by itself.
    let path = std::env::temp_dir().join(format!("gcalc-gpu-{}.npy", std::process::id()));
    ok(&mut s, &format!("save(\"{}\", y)", path.display()));
    assert_eq!(
        ok(&mut s, &format!("load(\"{}\").tolist()", path.display())),
        "[1, 2, 3]"
    );
    // load puts the array where new arrays go: the device flag, or device=.
    let p = path.display();
    assert_eq!(ok(&mut s, &format!("load(\"{p}\").device")), "cpu(0)");
    ok(&mut s, "set device = gpu");
    assert_eq!(ok(&mut s, &format!("load(\"{p}\").device")), "gpu(0)");
    assert_eq!(
        ok(&mut s, &format!("all(load(\"{p}\") == y).item()")),
        "true"
    );
    assert_eq!(
        ok(&mut s, &format!("load(\"{p}\", device=cpu()).device")),
        "cpu(0)"
    );
    ok(&mut s, "set device = cpu");
    let _ = std::fs::remove_file(path);
}

#[test]
fn fused_sums_and_means_match_the_cpu_and_differentiate() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    ok(&mut s, "set device = cpu");
    ok(
        &mut s,
        "seed(9); a = randn((300, 70)); b = randn(70); c = randn((300, 70), dtype=float64); \
         i = randint(0, 5, (300, 70)); p = rand(300) * 0.9 + 0.05; y = randint(0, 2, 300).astype(float32); \
         ga = a.to(gpu()); gb = b.to(gpu()); gc = c.to(gpu()); gi = i.to(gpu()); gp = p.to(gpu()); gy = y.to(gpu())",
    );
    // Contiguous, broadcast (strided) and transposed operands, float32,
    // float64, int (not fused: evaluated then reduced), empty.
    for (cpu, gpu) in [
        ("sum(exp(a * 0.1) * b)", "sum(exp(ga * 0.1) * gb)"),
        ("mean(a.T * 2 + 1)", "mean(ga.T * 2 + 1)"),
        ("sum(c * c)", "sum(gc * gc)"),
        (
            "mean(-y * log(p) - (1 - y) * log(1 - p))",
            "mean(-gy * log(gp) - (1 - gy) * log(1 - gp))",
        ),
        ("sum(i * 3)", "sum(gi * 3)"),
        ("mean(i + 1)", "mean(gi + 1)"),
        ("sum(a[:0] * 2)", "sum(ga[:0] * 2)"),
    ] {
        ok(&mut s, &format!("h = {cpu}; g = {gpu}"));
        assert_eq!(ok(&mut s, "g.device"), "gpu(0)", "{gpu}");
        assert_eq!(ok(&mut s, "g.dtype == h.dtype"), "true", "{gpu}");
        assert_eq!(
            ok(
                &mut s,
                "abs(g.item() - h.item()) <= 1e-5 * maximum(abs(h.item()), 1.0)"
            ),
            "true",
            "{cpu}: {} vs {}",
            ok(&mut s, "h"),
            ok(&mut s, "g")
        );
    }
    assert_eq!(ok(&mut s, "isnan(mean(ga[:0] * 2)).item()"), "true");
    // The gradient through a fused mean on the GPU equals the CPU's.
    ok(
        &mut s,
        "fn f(w) { mean(-y * log(sigmoid(a @ w)) - (1 - y) * log(1 - sigmoid(a @ w))) + sum(w ** 2) }",
    );
    ok(
        &mut s,
        "fn fg(w) { mean(-gy * log(sigmoid(ga @ w)) - (1 - gy) * log(1 - sigmoid(ga @ w))) + sum(w ** 2) }",
    );
    ok(
        &mut s,
        "w = randn(70) * 0.1; dh = grad(f)(w); dg = grad(fg)(w.to(gpu()))",
    );
    assert_eq!(ok(&mut s, "dg.device"), "gpu(0)");
    assert_eq!(
        ok(&mut s, "max(abs(dg.to(cpu()) - dh)).item() < 1e-5"),
        "true"
    );
}

/// Broadcasts where every dimension has size 1 ((1,) with a 0-d, (1, 1) with
/// (1,)) merge to no dimension at all: the strided kernel's parameter struct
/// used to be launched from an empty buffer, so the kernel read heap garbage
/// as strides (CUDA_ERROR_ILLEGAL_ADDRESS, usually a few statements later).
#[test]
fn size_one_broadcasts_in_a_loop_stay_in_bounds() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    ok(&mut s, "set floatX = float64\nset device = gpu(0)");
    let body = "for i in range(50) {\n\
        a0 = array([-0.75], dtype=float32); a1 = array(0.5, dtype=float64); r1 = (a0 + a1).tolist()\n\
        b0 = array([-45], dtype=int32); b1 = array(-3.0, dtype=float64); r2 = (b0 * b1).tolist()\n\
        c0 = array([8], dtype=int32).reshape((1, 1)); c1 = array([-32], dtype=int32); r3 = (c0 < c1).tolist()\n\
        }";
    ok(&mut s, body);
    assert_eq!(ok(&mut s, "(r1, r2, r3)"), "([-0.25], [135.0], [[false]])");
}
