//! A kernel that writes to an illegal address poisons the CUDA context for the
//! whole process (so this test is its own binary): the error is reported at
//! the next sync naming the statement that queued the work, the GPU then
//! refuses further work with the same clear message, CPU work goes on, and
//! nothing panics. Skips visibly without a GPU; fails with GCALC_REQUIRE_GPU=1.

use gcalc_runtime::cuda;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Device, Session, Value};

#[test]
fn illegal_address_poisons_the_gpu_and_the_session_goes_on() {
    if cuda::gpu_count() == 0 || cuda::gpu(0).is_err() {
        if std::env::var("GCALC_REQUIRE_GPU").as_deref() == Ok("1") {
            panic!("GCALC_REQUIRE_GPU=1 but no GPU is usable");
        }
        println!("SKIPPED: no GPU ({})", cuda::why_no_gpu().message);
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    let r = s.execute(
        "m = cuda_module(\"\"\"\nextern \"C\" __global__ void bad(float *p) { p[threadIdx.x] = 1.0f; }\n\"\"\")\ncpu_value = 42",
        "poison.gcalc",
    );
    assert!(r.error.is_none(), "{:?}", r.error.map(|e| e.rendered));
    let kernel = match s.get("m") {
        Some(Value::Object(o)) => o.attr("bad").expect("kernel"),
        _ => panic!("no module"),
    };
    // Launch with a null pointer argument built by hand: the launch itself is queued fine.
    let g = cuda::gpu(0).unwrap();
    let mut p: u64 = 16;
    let mut params = vec![&mut p as *mut u64 as *mut std::ffi::c_void];
    let f = cuda::compile::function(&g, 0x90150, "bad", || {
        "extern \"C\" __global__ void bad(float *p) { p[threadIdx.x] = 1.0f; }".to_string()
    })
    .unwrap();
    cuda::ew::launch(
        &g,
        f,
        (1, 1, 1),
        (32, 1, 1),
        0,
        &mut params,
        "the bad kernel",
    )
    .unwrap();
    let _ = kernel;
    // The next sync reports it and poisons the device.
    let e = s
        .execute("sync()", "after.gcalc")
        .error
        .expect("queued error reported at sync");
    println!("{}", e.rendered);
    assert!(e.rendered.contains("poison"), "{}", e.rendered);
    assert!(
        e.rendered.contains("CPU variables are kept"),
        "{}",
        e.rendered
    );
    assert!(g.is_poisoned());
    // Further GPU use: the same clear error, no crash.
    let e2 = cuda::gpu(0).err().expect("poisoned");
    assert!(e2.message.contains("unusable"), "{}", e2.message);
    // CPU variables are kept and CPU work goes on.
    assert!(matches!(s.get("cpu_value"), Some(Value::Int(42))));
    let r = s.execute("y = cpu_value", "cpu.gcalc");
    assert!(r.error.is_none());
    let _ = Device::Cpu;
}
