//! GPU benchmark, gcalc side (run by bench/gpu_bench.sh with GCALC_BENCH=1):
//! kernel times with CUDA events after warm-up (median of repeats), the
//! host-side cost of a small elementwise statement, and the kernel cache's
//! load times. Prints `GCALC <name> <microseconds>` lines for the table.

use cudarc::driver::{result, sys};
use gcalc_kernels::cuda::RedOp;
use gcalc_runtime::cuda::ew::{self, Expr};
use gcalc_runtime::cuda::{self, reduce};
use gcalc_runtime::{Array, DType, Device};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median event time of `f` (microseconds), after 5 warm-up runs.
fn time_us(g: &cuda::Gpu, reps: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..5 {
        f();
    }
    g.sync().unwrap();
    let e0 = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).unwrap();
    let e1 = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).unwrap();
    let mut v = Vec::new();
    for _ in 0..reps {
        unsafe { result::event::record(e0, g.stream) }.unwrap();
        f();
        unsafe { result::event::record(e1, g.stream) }.unwrap();
        unsafe { result::event::synchronize(e1) }.unwrap();
        v.push(unsafe { result::event::elapsed(e0, e1) }.unwrap() as f64 * 1e3);
    }
    median(v)
}

fn op(t: &'static str, args: Vec<Expr>) -> Expr {
    Expr::Op {
        template: t.into(),
        compute: DType::Float32,
        result: DType::Float32,
        args,
    }
}

fn rand_f32(n: usize, seed: u64) -> Array {
    let mut rng = gcalc_runtime::random::Rng {
        key: seed,
        counter: 0,
    };
    cuda::rng::draw(&mut rng, &[n], DType::Float32, false, -1.0, 1.0, 0).unwrap()
}

#[test]
fn bench() {
    if std::env::var("GCALC_BENCH").as_deref() != Ok("1") {
        println!("SKIPPED: set GCALC_BENCH=1 to run the GPU benchmark");
        return;
    }
    println!();
    let t0 = std::time::Instant::now();
    let count = cuda::gpu_count();
    let t1 = std::time::Instant::now();
    let g = cuda::gpu(0).expect("GPU");
    let t2 = std::time::Instant::now();
    println!(
        "GCALC driver_init_ms {:.1} ({count} GPU)",
        (t1 - t0).as_secs_f64() * 1e3
    );
    println!(
        "GCALC context_create_ms {:.1}",
        (t2 - t1).as_secs_f64() * 1e3
    );
    // Kernel timings with freed memory kept pooled (allow_gc=false), as PyTorch's caching allocator does.
    let flags = gcalc_runtime::Flags {
        allow_gc: false,
        ..Default::default()
    };
    cuda::configure(flags.backend_config());
    let n = 10_000_000;
    let x = rand_f32(n, 1);
    let z = rand_f32(n, 2);
    let y = rand_f32(n, 3);
    let t = time_us(&g, 50, || {
        ew::eval(
            &op("exp({0})", vec![Expr::Array(x.clone())]),
            DType::Float32,
            None,
            None,
        )
        .unwrap();
    });
    println!("GCALC exp_10M_f32 {t:.2}");
    cuda::configure(gcalc_runtime::Flags::default().backend_config());
    let t = time_us(&g, 50, || {
        ew::eval(
            &op("exp({0})", vec![Expr::Array(x.clone())]),
            DType::Float32,
            None,
            None,
        )
        .unwrap();
    });
    println!("GCALC exp_10M_f32_allow_gc_true {t:.2}");
    cuda::configure(flags.backend_config());
    let t = time_us(&g, 50, || {
        let e = op(
            "{0} * {1}",
            vec![
                op(
                    "exp({0})",
                    vec![op(
                        "{0} + {1}",
                        vec![Expr::Array(z.clone()), Expr::Float(2.0, DType::Float32)],
                    )],
                ),
                Expr::Array(y.clone()),
            ],
        );
        ew::eval(&e, DType::Float32, None, None).unwrap();
    });
    println!("GCALC fused_exp_z2_y_10M_f32 {t:.2}");
    let t = time_us(&g, 50, || {
        reduce::reduce(
            &x,
            RedOp::Sum,
            None,
            false,
            reduce::default_out(RedOp::Sum, x.dtype()),
        )
        .unwrap();
    });
    println!("GCALC sum_10M_f32 {t:.2}");
    let m = 4096;
    let a = rand_f32(m * m, 4).view(vec![m, m], vec![m as isize, 1], 0);
    let b = rand_f32(m * m, 5).view(vec![m, m], vec![m as isize, 1], 0);
    let t = time_us(&g, 10, || {
        cuda::blas::matmul(&a, &b).unwrap();
    });
    println!(
        "GCALC matmul_4096_f32 {t:.2} ({:.1} TFLOP/s)",
        2.0 * (m as f64).powi(3) / (t * 1e-6) / 1e12
    );
    // Host cost of `r = exp(s)` on 1024 elements: wall time per iteration, queued back to back.
    let s = rand_f32(1024, 6);
    let mut r = None;
    for _ in 0..100 {
        r = Some(
            ew::eval(
                &op("exp({0})", vec![Expr::Array(s.clone())]),
                DType::Float32,
                None,
                None,
            )
            .unwrap(),
        );
    }
    g.sync().unwrap();
    let iters = 20_000;
    let t0 = std::time::Instant::now();
    for _ in 0..iters {
        r = Some(
            ew::eval(
                &op("exp({0})", vec![Expr::Array(s.clone())]),
                DType::Float32,
                None,
                None,
            )
            .unwrap(),
        );
    }
    g.sync().unwrap();
    println!(
        "GCALC exp_1024_loop_api {:.2}",
        t0.elapsed().as_secs_f64() * 1e6 / iters as f64
    );
    drop(r);
    // The floors under that figure, host time per call: a bare launch of a
    // one-line kernel with its parameters ready, and a stream-ordered
    // alloc + free pair straight from the driver's pool.
    let probe = "extern \"C\" __global__ void launch_probe(float* x, long long n) { if (threadIdx.x + blockIdx.x * blockDim.x < n) x[threadIdx.x] = 1.0f; }";
    let bin = cuda::compile::cubin(&g, probe, &[], "launch_probe").unwrap();
    let m = cuda::compile::load_module(&g, &bin).unwrap();
    let f = unsafe { cuda::compile::get_function(&g, m, "launch_probe") }.unwrap();
    let buf = cuda::DeviceBuffer::alloc(&g, DType::Float32, 1024).unwrap();
    let mut p = buf.ptr_at(0);
    let mut nn: i64 = 1024;
    let mut params: Vec<*mut std::ffi::c_void> = vec![
        &mut p as *mut u64 as *mut std::ffi::c_void,
        &mut nn as *mut i64 as *mut std::ffi::c_void,
    ];
    let t0 = std::time::Instant::now();
    for _ in 0..iters {
        unsafe { result::launch_kernel(f.f, (4, 1, 1), (256, 1, 1), 0, g.stream, &mut params) }
            .unwrap();
    }
    g.sync().unwrap();
    println!(
        "GCALC bare_launch_host_us {:.2}",
        t0.elapsed().as_secs_f64() * 1e6 / iters as f64
    );
    let t0 = std::time::Instant::now();
    for _ in 0..iters {
        let p = unsafe { result::malloc_async(g.stream, 4096) }.unwrap();
        unsafe { result::free_async(p, g.stream) }.unwrap();
    }
    g.sync().unwrap();
    println!(
        "GCALC alloc_free_pair_host_us {:.2}",
        t0.elapsed().as_secs_f64() * 1e6 / iters as f64
    );
    // A cached kernel not loaded yet in this process: read + checksum + module load.
    let src = format!(
        "extern \"C\" __global__ void bench_probe_{}(float* x) {{ x[0] = 2.0f; }}",
        std::process::id()
    );
    cuda::compile::cubin(&g, &src, &[], "probe").unwrap();
    let t0 = std::time::Instant::now();
    let bin = cuda::compile::cubin(&g, &src, &[], "probe").unwrap();
    cuda::compile::load_module(&g, &bin).unwrap();
    println!(
        "GCALC cached_kernel_load {:.1}",
        t0.elapsed().as_secs_f64() * 1e6
    );
    let _ = Device::Cpu;
    profile_overhead();
}

/// The logreg step (bench/logreg.sh's program) on gpu(0), a loop of small
/// elementwise ops and reductions, and a matmul-only loop, each run through a
/// Session with `profile` off and on, interleaved (median of 7 rounds each;
/// single ratios moved by +-0.1 between runs with 3): microseconds per
/// iteration, the on/off ratio of the medians (goal: <= 1.20) and the
/// spread of the rounds' ratios, and the
/// profiled matmul row's host and device time per call.
fn profile_overhead() {
    use gcalc_runtime::output::Captured;
    use gcalc_runtime::{Flags, Session};
    const SETUP: &str = "N = 400; feats = 784
seed(0)
D0 = randn((N, feats), device=gpu(0)); D1 = randint(0, 2, N, device=gpu(0)).astype(float32)
D0 = D0.astype(float32)
w = (randn(feats, device=gpu(0)) * 0.01).astype(float32); b = 0.0
fn cost(w, b) {
    p1 = sigmoid(D0 @ w + b)
    xent = -D1 * log(p1) - (1 - D1) * log(1 - p1)
    mean(xent) + 0.01 * sum(w ** 2)
}
step = grad(cost, (0, 1))
x = D1 * 1.0
sync()";
    let loops: [(&str, &str, usize); 3] = [
        (
            "logreg_step",
            "for i in range(ITERS) { gw, gb = step(w, b); w -= 0.1 * gw; b -= 0.1 * gb }\nsync()",
            2000,
        ),
        (
            "small_loop",
            "for i in range(ITERS) { y = x * 2.0 + 1.0; s = sum(y); z = exp(y) - s }\nsync()",
            5000,
        ),
        (
            "matmul_loop",
            "for i in range(ITERS) { y = D0 @ w }\nsync()",
            5000,
        ),
    ];
    let session = |profile: bool| {
        let flags = Flags {
            profile,
            ..Flags::default()
        };
        let mut s = Session::new(flags, Box::new(Captured::default()));
        if let Some(e) = s.execute(SETUP, "setup").error {
            panic!("profile bench setup: {}", e.rendered);
        }
        s
    };
    let once = |profile: bool, body: &str, iters: usize| -> (f64, Session) {
        let mut s = session(profile);
        let warm = body.replace("ITERS", "20");
        assert!(s.execute(&warm, "warm").error.is_none(), "{warm}");
        s.execute("profile(reset=true)", "reset");
        let code = body.replace("ITERS", &iters.to_string());
        let t0 = std::time::Instant::now();
        let r = s.execute(&code, "bench");
        let us = t0.elapsed().as_secs_f64() * 1e6 / iters as f64;
        if let Some(e) = r.error {
            panic!("profile bench {code}: {}", e.rendered);
        }
        (us, s)
    };
    for (name, body, iters) in loops {
        let (mut off, mut on) = (Vec::new(), Vec::new());
        let mut last_on = None;
        for _ in 0..7 {
            off.push(once(false, body, iters).0);
            let (t, s) = once(true, body, iters);
            on.push(t);
            last_on = Some(s);
        }
        let ratios: Vec<f64> = on.iter().zip(&off).map(|(a, b)| a / b).collect();
        let lo = ratios.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().cloned().fold(0.0, f64::max);
        let (off, on) = (median(off), median(on));
        println!("GCALC profile_off_{name}_us {off:.2}");
        println!("GCALC profile_on_{name}_us {on:.2}");
        println!("GCALC profile_on_off_ratio_{name} {:.3}", on / off);
        println!("GCALC profile_on_off_round_min_{name} {lo:.3}");
        println!("GCALC profile_on_off_round_max_{name} {hi:.3}");
        let Some(mut s) = last_on else { continue };
        let st = s.interp().profiler.lock();
        for (n, a) in st.kinds.names.iter().zip(&st.kind_aggs()) {
            if n == "matmul" && a.calls > 0 {
                let c = a.calls as f64;
                println!(
                    "GCALC profile_{name}_matmul_host_us_per_call {:.2}",
                    a.host_ns as f64 / c / 1e3
                );
                println!(
                    "GCALC profile_{name}_matmul_device_us_per_call {:.2}",
                    a.device_ns as f64 / c / 1e3
                );
            }
        }
        // Device time per iteration close to the wall time: the loop is bound by the GPU.
        let dev: u64 = st.kind_aggs().iter().map(|a| a.device_ns).sum();
        let per = |ns: u64| ns as f64 / iters as f64 / 1e3;
        println!("GCALC profile_{name}_device_us_per_iter {:.2}", per(dev));
        println!(
            "GCALC profile_{name}_host_in_ops_us_per_iter {:.2}",
            per(st.op_time().as_nanos() as u64)
        );
        println!(
            "GCALC profile_{name}_launches_per_iter {:.1}",
            st.counters.launches as f64 / iters as f64
        );
        if name == "logreg_step" {
            println!("{}", gcalc_runtime::profile::to_text(&st));
        }
    }
}
