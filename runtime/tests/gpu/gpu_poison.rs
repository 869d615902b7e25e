//! A kernel that writes to an illegal address poisons the CUDA context for the
//! whole process (so its body runs in a child process of the test binary): the error is reported at
//! the end of the input that queued the work, naming its statement (at the launch
//! itself with launch_blocking), the session lists
//! the GPU variables lost, refuses further GPU work with the same clear
//! message, keeps every CPU variable, and nothing panics. Skips visibly without
//! a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Session, Value};

use crate::gpu_util::have_gpu;

/// The body runs in a child process (the context stays poisoned for the
/// process that poisons it), once queued and once with launch_blocking.
#[test]
fn illegal_address_poisons_the_gpu_and_the_session_goes_on() {
    if !have_gpu() {
        return;
    }
    for blocking in ["0", "1"] {
        let exe = std::env::current_exe().expect("the test binary's path");
        let out = std::process::Command::new(exe)
            .args([
                "--ignored",
                "--exact",
                "--nocapture",
                "gpu_poison::poison_in_this_process",
            ])
            .env("GCALC_POISON_BLOCKING", blocking)
            .output()
            .expect("run the child test process");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        println!("== poison, launch_blocking={blocking}\n{text}");
        assert!(
            out.status.success(),
            "child failed (blocking={blocking}):\n{text}"
        );
        assert!(text.contains("1 passed"), "the child ran no test:\n{text}");
    }
}

/// Poisons this process's CUDA context: run only as a child of the test above.
#[test]
#[ignore = "poisons the process's CUDA context; run by illegal_address_poisons_the_gpu_and_the_session_goes_on"]
fn poison_in_this_process() {
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
    // With launch_blocking the launch statement fails; without, the launch
    // is queued and the input fails at its end, where gcalc waits for the
    // GPU (the error names the statement that queued the work).
    let e = launched
        .error
        .expect("the launching input reports the failure");
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
