//! The multi-GPU builtins on a machine without a GPU (or with the arrays on
//! the CPU): collectives are clear errors naming the devices, never panics,
//! and the session goes on; scatter and gather, which are copies, work on
//! the CPU; a missing libnccl is named with how to get it.

use gcalc_runtime::Session;
use gcalc_runtime::output::Captured;

fn session() -> Session {
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    assert!(s.execute("set device = cpu", "t").error.is_none());
    s
}

fn run(s: &mut Session, code: &str) -> Result<String, String> {
    let r = s.execute(code, "test.gcalc");
    match r.error {
        Some(e) => Err(e.rendered),
        None => Ok(r.value.map(|v| v.text).unwrap_or_default()),
    }
}

fn err(s: &mut Session, code: &str) -> String {
    let e = run(s, code).expect_err(code);
    assert!(!e.contains("internal error"), "{code}: {e}");
    assert_eq!(run(s, "1 + 1").as_deref(), Ok("2"), "the session goes on");
    e
}

#[test]
fn collectives_of_cpu_arrays_are_errors() {
    let mut s = session();
    assert!(run(&mut s, "a = ones((2, 3)); b = ones(3)").is_ok());
    let e = err(&mut s, "all_reduce([a])");
    assert!(
        e.contains("all_reduce: xs[0] is on cpu(0): collectives run between GPUs"),
        "{e}"
    );
    let e = err(&mut s, "all_gather([a])");
    assert!(e.contains("xs[0] is on cpu(0)"), "{e}");
    let e = err(&mut s, "reduce_scatter([a], op=\"mean\")");
    assert!(e.contains("xs[0] is on cpu(0)"), "{e}");
    let e = err(&mut s, "broadcast(a, [cpu()])");
    assert!(e.contains("broadcast: devices[0] is on cpu(0)"), "{e}");
    // Shapes and dtypes are checked first, naming both arrays' devices.
    let e = err(&mut s, "all_reduce([a, b])");
    assert!(
        e.contains("xs[0] on cpu(0) is (2, 3) but xs[1] on cpu(0) is (3,)"),
        "{e}"
    );
    let e = err(&mut s, "all_reduce([a, a.astype(int32)])");
    assert!(e.contains("differ in dtype") && e.contains("int32"), "{e}");
    let e = err(&mut s, "all_reduce([a], op=\"median\")");
    assert!(e.contains("op=\"median\" is not a reduction"), "{e}");
    let e = err(&mut s, "all_reduce([a], op=3)");
    assert!(e.contains("op must be a string"), "{e}");
    let e = err(&mut s, "all_reduce(a)");
    assert!(e.contains("takes a list of arrays"), "{e}");
    let e = err(&mut s, "all_reduce([])");
    assert!(e.contains("the list of arrays is empty"), "{e}");
    let e = err(&mut s, "all_reduce([a, 3])");
    assert!(e.contains("xs[1] is"), "{e}");
    let e = err(&mut s, "broadcast(a, [])");
    assert!(e.contains("the list of devices is empty"), "{e}");
    let e = err(&mut s, "broadcast(a, 3)");
    assert!(e.contains("list of devices"), "{e}");
}

#[test]
fn a_gpu_that_does_not_exist_is_named() {
    let mut s = session();
    let n = gcalc_runtime::cuda::gpu_count();
    // Without a GPU the message says why none is usable; with some, which
    // ordinal does not exist.
    let want = match n {
        0 => "no usable GPU".to_string(),
        _ => format!("gpu({n}) does not exist"),
    };
    let e = err(&mut s, &format!("broadcast(ones(3), [gpu({n})])"));
    assert!(e.contains(&want), "{e}");
    let e = err(&mut s, &format!("scatter(ones(4), [cpu(), gpu({n})])"));
    assert!(e.contains(&want), "{e}");
}

#[test]
fn scatter_and_gather_on_the_cpu() {
    let mut s = session();
    assert!(run(&mut s, "x = arange(12).reshape((3, 4))").is_ok());
    assert_eq!(
        run(&mut s, "p = scatter(x, [cpu()]); (len(p), p[0].shape)").as_deref(),
        Ok("(1, (3, 4))")
    );
    // A part is a copy: writing into it leaves x alone.
    assert!(run(&mut s, "p[0][0, 0] = 100").is_ok());
    assert_eq!(run(&mut s, "x[0, 0].item()").as_deref(), Ok("0"));
    assert_eq!(
        run(&mut s, "gather([x, x], cpu(), axis=1).shape").as_deref(),
        Ok("(3, 8)")
    );
    assert_eq!(
        run(&mut s, "gather([x[:1], x[1:]], cpu()).tolist()").as_deref(),
        Ok("[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]")
    );
    let e = err(&mut s, "scatter(x, [cpu(), cpu()])");
    assert!(
        e.contains("devices[0] and devices[1] are both cpu(0)"),
        "{e}"
    );
    let e = err(&mut s, "scatter(x, [cpu()], axis=2)");
    assert!(e.contains("axis"), "{e}");
    let e = err(&mut s, "scatter(array(1.0), [cpu()])");
    assert!(e.contains("0-d"), "{e}");
    let e = err(&mut s, "gather([x, ones(5)], cpu())");
    assert!(e.contains("gather"), "{e}");
}

#[test]
fn help_pages_of_the_multi_gpu_builtins() {
    let mut s = session();
    for name in [
        "all_reduce",
        "broadcast",
        "all_gather",
        "reduce_scatter",
        "scatter",
        "gather",
    ] {
        let r = run(&mut s, &format!("help({name})"));
        assert!(r.is_ok(), "help({name}): {r:?}");
    }
}

/// With libnccl hidden, loading it fails with the library's name and how to
/// get it (in a child process: the variable is read at each call, and other
/// tests of this binary must not see it).
#[test]
fn a_missing_nccl_says_how_to_get_it() {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([
            "--ignored",
            "--exact",
            "--nocapture",
            "collective::hidden_nccl_message",
        ])
        .env("GCALC_HIDE_LIBS", "nccl")
        .output()
        .expect("run the child test process");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains("1 passed"),
        "child:\n{text}"
    );
}

#[test]
#[ignore = "run by a_missing_nccl_says_how_to_get_it with GCALC_HIDE_LIBS=nccl"]
fn hidden_nccl_message() {
    let e = gcalc_runtime::cuda::nccl::load_error().expect("NCCL is hidden");
    let text = format!("{} {}", e.message, e.help.clone().unwrap_or_default());
    for w in [
        "libnccl.so.2",
        "pip install nvidia-nccl-cu13",
        "GCALC_NCCL_LIB",
    ] {
        assert!(text.contains(w), "lacks {w}: {text}");
    }
}
