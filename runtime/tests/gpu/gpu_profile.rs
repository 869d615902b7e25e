//! The profiler on a GPU: kernel launches counted with CUDA event times read
//! at sync points, uploads and downloads as transfer rows with their bytes,
//! kernel compiles (or disk-cache loads), syncs and peak memory, and the
//! backward pass of `grad` recorded on the device. Skips visibly without a
//! GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::profile::{self, Class};
use gcalc_runtime::{Device, Session};

use crate::gpu_util::have_gpu;
use crate::profile_util::{kind_agg, run, session};

/// Run a statement of the test program.
fn ok(s: &mut Session, code: &str) {
    run(s, code, "prof.gcalc");
}

#[test]
fn gpu_work_is_timed_by_cuda_events() {
    if !have_gpu() {
        return;
    }
    let mut s = session(true);
    // 1000 float32 up (4000 bytes), a fused kernel no other test compiles,
    // a reduction and a matmul (cuBLAS), 1000 float32 down (4000 bytes).
    ok(&mut s, "set device = cpu");
    ok(&mut s, "x = linspace(0, 1, 1000).astype(float32)");
    ok(&mut s, "g = x.to(gpu(0))");
    ok(&mut s, "y = tanh(g) * 3.25 - cos(g) / 7.5");
    ok(&mut s, "t = sum(y)");
    ok(&mut s, "m = reshape(y, (10, 100)) @ reshape(y, (100, 10))");
    ok(&mut s, "h = y.to(cpu())");
    ok(&mut s, "sync()");
    let gpu = Device::Gpu(0);
    let st = s.interp().profiler.lock();
    let c = st.counters.clone();
    let wall = st.wall().as_nanos() as u64;
    assert!(c.launches >= 3, "launches: {c:?}");
    assert!(
        c.syncs >= 2,
        "the download and sync() are sync points: {c:?}"
    );
    assert!(
        c.compiles + c.cache_hits >= 1,
        "a compile or cache load: {c:?}"
    );
    assert!(c.compile_ns > 0, "{c:?}");
    assert_eq!(c.h2d_bytes, 4000, "{c:?}");
    assert_eq!(c.d2h_bytes, 4000, "{c:?}");
    assert!(c.h2d_ns > 0 && c.d2h_ns > 0, "{c:?}");
    assert!(
        c.peak.iter().any(|&(d, b)| d == gpu && b >= 4000),
        "peak memory: {:?}",
        c.peak
    );
    // Transfer rows with their bytes and device times.
    let transfers: Vec<_> = st
        .records
        .iter()
        .filter(|r| st.entry(r).is_some_and(|e| e.class == Class::Transfer))
        .collect();
    assert_eq!(transfers.len(), 2, "{transfers:?}");
    for r in &transfers {
        assert_eq!((st.bytes_moved(r), r.device()), (4000, gpu), "{r:?}");
        assert!(r.device_ns > 0, "a copy's event time: {r:?}");
    }
    assert!(
        st.records
            .iter()
            .any(|r| st.entry(r).is_some_and(|e| e.class == Class::Compile)),
        "a compile record"
    );
    // Device times: every GPU op has one, and they fit in the wall time.
    let device: u64 = st.kind_aggs().iter().map(|a| a.device_ns).sum();
    assert!(
        device > 0 && device <= wall,
        "device {device} ns, wall {wall} ns"
    );
    let text = profile::to_text(&st);
    println!("{text}");
    assert!(
        text.contains("transfer H2D") && text.contains("transfer D2H"),
        "{text}"
    );
    drop(st);
    for k in [
        "fused(subtract(multiply(tanh(x0), s), divide(cos(x1), s)))",
        "sum",
        "matmul",
    ] {
        let (calls, dev) = kind_agg(&mut s, k);
        assert!(calls >= 1 && dev > 0, "{k}: calls {calls}, device {dev} ns");
    }
}

#[test]
fn grad_on_the_gpu_is_recorded() {
    if !have_gpu() {
        return;
    }
    let mut s = session(true);
    ok(
        &mut s,
        "seed(0)
D0 = randn((64, 32), device=gpu(0)); D1 = randint(0, 2, 64, device=gpu(0)).astype(float32)
w = zeros(32, device=gpu(0)); b = 0.0
fn cost(w, b) {
    p1 = sigmoid(D0 @ w + b)
    mean(-D1 * log(p1) - (1 - D1) * log(1 - p1))
}
step = grad(cost, (0, 1))
for i in range(5) {
    gw, gb = step(w, b)
    w -= 0.1 * gw
}
sync()",
    );
    let (calls, dev) = kind_agg(&mut s, "grad of matmul");
    assert_eq!(calls, 5, "one matmul node a step");
    assert!(dev > 0, "the backward matmul's device time");
    let st = s.interp().profiler.lock();
    let wall = st.wall().as_nanos() as f64;
    let interp = wall - st.op_time().as_nanos() as f64;
    println!("{}", profile::to_text(&st));
    assert!(st.counters.launches > 0 && st.counters.syncs > 0);
    assert!(interp >= 0.0);
}

/// The GPU's first opening compiled the everyday kernels into the disk
/// cache (`cuda::warm`), under the very keys the backend asks for: the
/// first use of each in this process loads it, never compiles it (a key
/// that differed would show as a compile). A unary op of each kind, binary
/// ops with an array and with a weak float, float32 and float64, casts and
/// reductions.
#[test]
fn first_uses_of_warmed_kernels_load_and_never_compile() {
    if !have_gpu() || std::env::var("GCALC_NO_WARM").as_deref() == Ok("1") {
        return;
    }
    let mut s = session(true);
    ok(&mut s, "set device = gpu");
    let compiles = |s: &mut Session| s.interp().profiler.lock().counters.compiles;
    let mut during = 0;
    for dt in ["float32", "float64"] {
        // Operands (their own kernels may compile: not counted).
        ok(&mut s, &format!("a = linspace(0.1, 0.9, 999).astype({dt})"));
        ok(&mut s, "b = a * 0.5 + 0.25");
        ok(&mut s, "sync()");
        let before = compiles(&mut s);
        for code in [
            "r = exp(a)",
            "r = log1p(a)",
            "r = arctan(a)",
            "r = sqrt(a)",
            "r = a + b",
            "r = a * b",
            "r = a / b",
            "r = maximum(a, b)",
            "r = a * 2.0",
            "r = a - 3.0",
            "r = a ** 2.0",
            "r = a > b",
            "r = a.astype(float64)",
            "r = a.astype(int64)",
            "r = sum(a)",
            "r = max(a)",
            "r = argmax(a)",
        ] {
            ok(&mut s, code);
        }
        during += compiles(&mut s) - before;
    }
    let c = s.interp().profiler.lock().counters.clone();
    assert_eq!(
        during, 0,
        "every kernel of these statements was warmed at the GPU's opening: {c:?}"
    );
}
