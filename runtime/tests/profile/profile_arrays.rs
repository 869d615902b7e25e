//! The profiler on array programs: fused trees named by their structure,
//! reductions and matmul as ops, bytes allocated and moved, scalar-only
//! arithmetic left to the interpreter.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

const PROG: &str = "x = zeros(1000, dtype=float32)
k = 0
for i in range(10) {
    s = sum(x)
    y = exp(x + 2.0) * x
    k = k + 1
    z = x @ x
    print(s)
}
";

/// (kind, kernel, line, calls, bytes_alloc, bytes_moved) of every row of the kernel table.
fn rows(s: &mut Session) -> Vec<(String, String, usize, u64, u64, u64)> {
    let st = s.interp().profiler.lock();
    let mut out = Vec::new();
    let aggs = st.kernel_aggs();
    for (i, name) in st.kernels.names.iter().enumerate() {
        let e = st.entries.iter().find(|e| e.kernel as usize == i).unwrap();
        let a = &aggs[i];
        out.push((
            st.kinds.names[e.kind as usize].clone(),
            name.clone(),
            st.sites.names[e.site as usize].line,
            a.calls,
            a.bytes_alloc,
            a.bytes_moved,
        ));
    }
    out
}

#[test]
fn array_ops_are_recorded_with_kinds_kernels_sites_and_bytes() {
    let flags = Flags {
        profile: true,
        ..Flags::default()
    };
    let mut s = Session::new(flags, Box::new(Captured::default()));
    let out = s.execute(PROG, "arr.gcalc");
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    let rows = rows(&mut s);
    let find = |kind: &str| {
        rows.iter()
            .find(|r| r.0 == kind)
            .unwrap_or_else(|| panic!("no {kind} in {rows:#?}"))
            .clone()
    };
    let fused = find("fused(multiply(exp(add(x0, s)), x1))");
    assert_eq!(
        fused.1,
        "multiply(exp(add(float32[1000], float)), float32[1000]) cpu(0)"
    );
    assert_eq!((fused.2, fused.3), (5, 10));
    assert_eq!(fused.4, 10 * 4000, "one float32[1000] output a call");
    assert_eq!(fused.5, 10 * 3 * 4000, "two inputs and the output a call");
    let sum = find("sum");
    assert_eq!(
        (sum.1.as_str(), sum.2, sum.3),
        ("sum(float32[1000]) cpu(0)", 4, 10)
    );
    assert_eq!(sum.4, 10 * 4);
    let mm = find("matmul");
    assert_eq!((mm.2, mm.3), (7, 10));
    let print = find("print");
    assert_eq!((print.2, print.3), (8, 10));
    let zeros = find("zeros");
    assert_eq!((zeros.2, zeros.3, zeros.4), (1, 1, 4000));
    // No array argument: the kernel names no device (the default device's
    // arrays are made), unless a `device=` argument says which.
    assert_eq!(zeros.1, "zeros(int, dtype=dtype)");
    let mut s2 = Session::new(
        Flags {
            profile: true,
            ..Flags::default()
        },
        Box::new(Captured::default()),
    );
    let out = s2.execute("a = ones(3, device=cpu())", "dev.gcalc");
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    let ones = self::rows(&mut s2)
        .into_iter()
        .find(|r| r.0 == "ones")
        .unwrap();
    assert_eq!(ones.1, "ones(int, device=cpu(0)) cpu(0)");
    // `k = k + 1` on ints is interpreter work: no record at line 6.
    assert!(rows.iter().all(|r| r.2 != 6), "{rows:#?}");
    let n: u64 = rows.iter().map(|r| r.3).sum();
    assert_eq!(n, 1 + 1 + 4 * 10);
}
