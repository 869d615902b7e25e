//! A kernel that writes to an illegal address poisons the CUDA context for the
//! whole process (so this test is its own binary): the error is reported at
//! the next sync naming the statement that queued the work (at the launch
//! itself with GCALC_POISON_BLOCKING=1, i.e. launch_blocking), the session lists
//! the GPU variables lost, refuses further GPU work with the same clear
//! message, keeps every CPU variable, and nothing panics. Skips visibly without
//! a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Session, Value};

mod gpu_util;
use gpu_util::have_gpu;

#[test]
fn illegal_address_poisons_the_gpu_and_the_session_goes_on() {
    if !have_gpu() {
        return;
    }
    let blocking = std::env::var("GCALC_POISON_BLOCKING").as_deref() == Ok("1");
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    let setup = format!(
        "set launch_blocking = {blocking}\nm = cuda_module(\"\"\"\nextern \"C\" __global__ void bad(float *p) {{ p[threadIdx.x + 0x100000000000ULL] = 1.0f; }}\n\"\"\")\na = zeros(4, device=gpu())\ncpu_value = 42"
    );
    let r = s.execute(&setup, "poison.gcalc");
    assert!(r.error.is_none(), "{:?}", r.error.map(|e| e.rendered));
    let launched = s.execute("m.bad(a, block=(32, 1, 1), grid=(1, 1))", "launch.gcalc");
    let e = if blocking {
        launched.error.expect("error at the launch")
    } else {
        assert!(launched.error.is_none(), "the launch is only queued");
        s.execute("sync()", "after.gcalc")
            .error
            .expect("queued error reported at sync")
    };
    println!("{}", e.rendered);
    assert!(e.rendered.contains("poison"), "{}", e.rendered);
    assert!(
        e.rendered.contains("launch.gcalc:1: `m.bad(a"),
        "{}",
        e.rendered
    );
    assert!(
        e.rendered.contains("GPU variables lost: a (gpu(0))"),
        "{}",
        e.rendered
    );
    assert!(
        e.rendered.contains("CPU variables are kept"),
        "{}",
        e.rendered
    );
    // Further GPU use: the same clear error, no crash.
    let e2 = s
        .execute("b = zeros(3, device=gpu())", "again.gcalc")
        .error
        .expect("poisoned");
    println!("{}", e2.rendered);
    assert!(e2.rendered.contains("unusable"), "{}", e2.rendered);
    // CPU variables are kept and CPU work goes on.
    assert!(matches!(s.get("cpu_value"), Some(Value::Int(42))));
    let r = s.execute("y = cpu_value + 1; z = exp(array([0.0]))", "cpu.gcalc");
    assert!(r.error.is_none(), "{:?}", r.error.map(|e| e.rendered));
}
