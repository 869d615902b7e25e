//! The profiler and `grad`: the backward pass's steps recorded with exact
//! counts at the statement that called the gradient function, the sites of
//! what follows a user function call, and a copy whose device time arrives at
//! a later sync point (the CUDA backend's transfers).

use gcalc_runtime::profile::{self, Direction};
use gcalc_runtime::{Device, Session};
use std::time::Duration;

use crate::profile_util::{run, session};

/// (calls, the sites' `file:line`) of op kind `kind`, from the raw records.
fn kind_sites(s: &mut Session, kind: &str) -> (u64, Vec<String>) {
    let st = s.interp().profiler.lock();
    let Some(k) = st.kinds.names.iter().position(|n| n == kind) else {
        return (0, vec![]);
    };
    let mut sites: Vec<String> = st
        .records
        .iter()
        .filter_map(|r| st.entry(r))
        .filter(|e| e.kind == k as u32)
        .map(|e| {
            let site = &st.sites.names[e.site as usize];
            format!("{}:{}", site.file, site.line)
        })
        .collect();
    sites.dedup();
    (st.kind_aggs()[k].calls, sites)
}

const GRAD: &str = "D = reshape(linspace(0, 1, 12), (4, 3))
w = ones(3)
fn cost(w) {
    sum(tanh(D @ w) * 2)
}
step = grad(cost)
for i in range(4) {
    g = step(w)
    w -= 0.1 * g
}
";

#[test]
fn the_backward_pass_is_recorded_at_the_grad_call() {
    let mut s = session(true);
    run(&mut s, GRAD, "g.gcalc");
    let at_call = vec!["g.gcalc:8".to_string()];
    for kind in [
        "grad of matmul",
        // `sum(tanh(D @ w) * 2)` is one fused reduction: its backward is the tree's.
        "grad of fused(multiply(tanh(x0), s))",
        "grad backward pass",
    ] {
        assert_eq!(kind_sites(&mut s, kind), (4, at_call.clone()), "{kind}");
    }
    // The forward pass stays at the function's own lines.
    for kind in ["matmul", "sum(fused(multiply(tanh(x0), s)))"] {
        assert_eq!(
            kind_sites(&mut s, kind),
            (4, vec!["g.gcalc:4".to_string()]),
            "{kind}"
        );
    }
    let st = s.interp().profiler.lock();
    // Exclusive times: the steps nest in the pass and each instant counts once.
    let sum: u64 = st.records.iter().map(|r| r.host_ns).sum();
    assert_eq!(Duration::from_nanos(sum), st.op_time());
    assert!(st.op_time() <= st.wall());
    assert!(st.records.iter().all(|r| r.ended()));
    let text = profile::to_text(&st);
    assert!(text.contains("grad of matmul"), "{text}");
}

#[test]
fn grad_records_nothing_while_off() {
    let mut s = session(false);
    run(&mut s, GRAD, "g.gcalc");
    let st = s.interp().profiler.lock();
    assert!(st.records.is_empty());
    assert!(st.kinds.names.is_empty());
}

#[test]
fn a_failed_grad_call_leaves_no_record_open() {
    let mut s = session(true);
    let out = s.execute(
        "fn f(x) { sum(x[array([0, 1])] * undefined_name) }\ngrad(f)(ones(3))",
        "e.gcalc",
    );
    assert!(out.error.is_some());
    run(
        &mut s,
        "x = ones(3)\nh = grad(fn(x) = sum(x[array([0, 2])]))(x)",
        "i.gcalc",
    );
    assert_eq!(
        kind_sites(&mut s, "grad of index"),
        (1, vec!["i.gcalc:2".to_string()])
    );
    let st = s.interp().profiler.lock();
    assert!(st.records.iter().all(|r| r.ended()));
}

#[test]
fn ops_after_a_call_are_sited_at_the_caller() {
    let mut s = session(true);
    // The function's statement lies past the end of the calling cell: sited
    // with the cell's text, it would name no line of it.
    let cell1 = format!("{}fn f(x) {{\n    len(x)\n}}\n", "\n".repeat(40));
    run(&mut s, &cell1, "In[1]");
    run(&mut s, "\n\nn = f(\"ab\") + len(\"abc\")\n", "In[2]");
    let st = s.interp().profiler.lock();
    let mut sites: Vec<String> = st
        .records
        .iter()
        .filter_map(|r| st.entry(r))
        .map(|e| {
            let site = &st.sites.names[e.site as usize];
            format!("{}:{} {}", site.file, site.line, site.text)
        })
        .collect();
    sites.sort();
    assert_eq!(
        sites,
        vec![
            "In[1]:42 len(x)".to_string(),
            "In[2]:3 n = f(\"ab\") + len(\"abc\")".to_string()
        ]
    );
}

#[test]
fn a_copy_takes_its_device_time_at_the_sync_point() {
    let mut s = session(true);
    let prof = s.interp().profiler.clone();
    let _g = profile::enter(&prof);
    let g = Device::Gpu(0);
    let tok = profile::transfer(
        Direction::HostToDevice,
        g,
        4096,
        Duration::from_micros(10),
        None,
    )
    .expect("a token while profiling");
    {
        let st = prof.lock();
        assert_eq!((st.counters.h2d_bytes, st.counters.h2d_ns), (4096, 10_000));
    }
    profile::kernel_time(tok, Duration::from_micros(3));
    let st = prof.lock();
    assert_eq!((st.counters.h2d_bytes, st.counters.h2d_ns), (4096, 3_000));
    let r = st.records.get(0).expect("the transfer row");
    assert_eq!(
        (st.bytes_moved(r), r.device_ns, r.host_ns),
        (4096, 3_000, 10_000)
    );
    let k = st.kinds.names.iter().position(|n| n == "transfer H2D");
    assert_eq!(k.map(|k| st.kind_aggs()[k].time_ns()), Some(3_000));
}
