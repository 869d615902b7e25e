//! An interrupt during one long CPU op is not lost: reductions (over a
//! broadcast view far larger than memory), elementwise programs, matmul and
//! copies look at the session's flag between chunks and stop with the
//! interrupted error within a second; the session goes on.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};
use std::time::{Duration, Instant};

fn session() -> Session {
    let flags = Flags {
        device: gcalc_runtime::flags::DeviceFlag::Cpu,
        ..Flags::default()
    };
    Session::new(flags, Box::new(Captured::default()))
}

/// Run `code` in `s`, interrupt it after `after`, and return how long it
/// took to stop after the interrupt.
fn interrupt_during(s: &mut Session, code: &str, after: Duration) -> Duration {
    let h = s.interrupt_handle();
    let (tx, rx) = std::sync::mpsc::channel();
    let t = std::thread::spawn(move || {
        std::thread::sleep(after);
        h.interrupt();
        tx.send(Instant::now()).unwrap();
    });
    let r = s.execute(code, "In");
    let ended = Instant::now();
    t.join().unwrap();
    let sent = rx.recv().unwrap();
    let e = r
        .error
        .unwrap_or_else(|| panic!("`{code}` ended before the interrupt"));
    assert_eq!(e.ename(), "KeyboardInterrupt", "{code}: {}", e.rendered);
    ended.saturating_duration_since(sent)
}

#[test]
fn an_interrupt_stops_one_long_op_within_a_second() {
    let mut s = session();
    assert!(
        s.execute("keep = 7; x = ones(3 * 10**7)", "In")
            .error
            .is_none()
    );
    for code in [
        // 5e9 elements of a broadcast view: tens of seconds uninterrupted.
        "sum(broadcast_to(ones(1), (10**5, 5 * 10**4)))",
        "var(broadcast_to(ones(1), (10**5, 5 * 10**4)))",
        "sum(broadcast_to(ones(1), (10**5, 5 * 10**4)), axis=1)",
        // 4e12 multiply-adds on stride-0 operands (no memory for the inputs).
        "broadcast_to(ones(1), (2000, 10**6)) @ broadcast_to(ones(1), (10**6, 2000))",
        // An elementwise program and a copy of 3e7 elements, repeated.
        "for i in range(1000) { y = exp(sin(x) * cos(x) + tanh(x)) }",
        "for i in range(1000) { y = x.astype(\"float64\") }",
    ] {
        let took = interrupt_during(&mut s, code, Duration::from_millis(300));
        assert!(
            took < Duration::from_secs(1),
            "{code}: stopped {took:?} after the interrupt"
        );
        // The session goes on: variables kept, the next statement runs.
        let v = s.execute("keep + x[3]", "In").value.expect("a value");
        assert!(v.text.starts_with("8.0"), "{}", v.text);
    }
}

#[test]
fn a_matmul_split_into_blocks_matches_row_column_sums() {
    // 64 x 100000 x 64 is more than one block (2^28 multiply-adds): the
    // inner dimension is split and the later blocks add to the output.
    let mut s = session();
    for (i, j) in [(0, 0), (7, 5), (63, 63), (31, 17)] {
        let r = s.execute(
            &format!(
                "a = randn(64, 100000, dtype=\"float64\"); b = randn(100000, 64, dtype=\"float64\"); \
                 abs((a @ b)[{i}, {j}] - sum(a[{i}] * b[:, {j}])) < 1e-9 * sum(abs(a[{i}] * b[:, {j}]))"
            ),
            "In",
        );
        let v = r
            .value
            .unwrap_or_else(|| panic!("{}", r.error.unwrap().rendered));
        assert!(v.text.starts_with("true"), "({i}, {j}): {}", v.text);
    }
}
