//! Running out of host memory is an error, never an abort: each request
//! below asks for far more than the child process may have (it limits its
//! own address space with setrlimit, so no test can take the machine down),
//! gets the host's out-of-memory error naming the size and the limit, and
//! the session goes on with every variable kept. The `host_memory` setting
//! is a budget of its own.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{ErrorKind, Flags, Session};

/// Statements that each ask for more memory than the child has.
const TOO_BIG: &[&str] = &[
    "ones((10**5, 1)) + ones((1, 10**5))",
    "outer(ones(10**5), ones(10**5))",
    "randn(10**5, 10**5)",
    "rand(10**5, 10**5)",
    "zeros((10**5, 10**5))",
    "ones((10**5, 1)) @ ones((1, 10**5))",
    "c1 = big.copy()",
    "c1 = big.astype(\"float64\")",
    "c1 = big + 1",
    "big.tolist()",
    "\"ab\" * 10**12",
    "[1] * 10**12",
    "[1, 2] * 2**62",
    "sum(broadcast_to(ones(1), (10**5, 10**5)) + 1)",
];

#[test]
fn out_of_memory_is_an_error_and_the_session_goes_on() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "memory_budget::oom_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("GCALC_TEST_CHILD", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("OOM CHILD DONE"),
        "child failed ({:?}):\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Kilobytes on the line `key` of /proc/self/status.
fn status_kb(key: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = s.lines().find(|l| l.starts_with(key)).unwrap();
    line[key.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "run as a child by out_of_memory_is_an_error_and_the_session_goes_on"]
fn oom_child() {
    if std::env::var_os("GCALC_TEST_CHILD").is_none() {
        return;
    }
    let flags = Flags {
        device: gcalc_runtime::flags::DeviceFlag::Cpu,
        ..Flags::default()
    };
    let mut s = Session::new(flags, Box::new(Captured::default()));
    // `big` (400 MB) is made before the limit: the limit leaves room for
    // the allocator's arenas and small arrays, not one more copy of it.
    let ok = |s: &mut Session, code: &str| {
        let r = s.execute(code, "In");
        assert!(r.error.is_none(), "{code}: {}", r.error.unwrap().rendered);
        r.value.map(|v| v.text).unwrap_or_default()
    };
    ok(&mut s, "keep = arange(5); big = ones(10**8)");
    let lim = status_kb("VmSize:") * 1024 + (300 << 20);
    let r = libc::rlimit {
        rlim_cur: lim,
        rlim_max: lim,
    };
    // SAFETY: setrlimit with a valid struct, on this child process only.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &r) }, 0);
    for code in TOO_BIG {
        let e = s
            .execute(code, "In")
            .error
            .unwrap_or_else(|| panic!("{code}: no error"));
        assert_eq!(
            e.errors[0].kind,
            ErrorKind::OutOfMemory,
            "{code}: {}",
            e.rendered
        );
        assert_eq!(e.ename(), "OutOfMemoryError");
        if !code.contains("2**62") {
            assert!(
                e.rendered
                    .contains("the host (cpu) is out of memory: this statement asked for")
                    && e.rendered
                        .contains("available to gcalc (the address-space limit"),
                "{code}: {}",
                e.rendered
            );
            assert!(
                e.rendered.contains("largest host variables: ")
                    && e.rendered.contains("big 381.5 MiB"),
                "{code}: {}",
                e.rendered
            );
        }
        // The session goes on: variables kept, small work still computes.
        ok(&mut s, "c1 = none; c2 = none");
        assert_eq!(
            ok(&mut s, "(keep.sum(), big[7], len(\"ab\" * 3))"),
            "(10, 1.0, 6)"
        );
    }
    // Small arrays still fit; the host_memory setting is a budget of its
    // own (`big` alone is more than 100MB), and `auto` gives the host's room back.
    assert_eq!(
        ok(&mut s, "c = ones(2 * 10**6) * 2; c[3] == 2"),
        "true <scalar bool @cpu(0)>"
    );
    ok(&mut s, "c = none; set host_memory = 100MB");
    let e = s
        .execute("c = ones(2 * 10**6) * 2", "In")
        .error
        .expect("over the budget");
    assert!(
        e.rendered.contains("(the host_memory setting)"),
        "{}",
        e.rendered
    );
    ok(&mut s, "set host_memory = auto");
    ok(&mut s, "c = ones(2 * 10**6) * 2");
    println!("OOM CHILD DONE");
}
