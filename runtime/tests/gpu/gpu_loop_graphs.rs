//! `for` loops replayed as CUDA graphs (`interp/loop_graph.rs`): each program
//! runs on gpu(0) with `loop_graphs` on and off, and must give the same bits
//! both ways (the graph replays the very kernels the interpreter queued) and
//! the CPU's values; the replay counter says whether a graph was used, so
//! the loops that must not be replayed (reading the loop variable, printing,
//! random draws, host lists, downloads) are checked to run as usual.
//! Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use crate::gpu_util::have_gpu;
use gcalc_runtime::interp::loop_graph::replays;
use gcalc_runtime::output::{Captured, DisplayData, Output};
use gcalc_runtime::{Flags, Session};
use std::sync::{Arc, Mutex};

fn session(device: &str, graphs: bool) -> Session {
    let mut flags = Flags::default();
    flags.set("device", device).expect("device flag");
    flags
        .set("loop_graphs", if graphs { "true" } else { "false" })
        .expect("loop_graphs flag");
    Session::new(flags, Box::new(Captured::default()))
}

/// `code` then `show` (an expression) in a fresh session: its text, and how
/// many graph replays `code` made.
fn run(device: &str, graphs: bool, code: &str, show: &str) -> (String, u64) {
    let mut s = session(device, graphs);
    let before = replays();
    let r = s.execute(code, "loop.gcalc");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    let n = replays() - before;
    let r = s.execute(show, "show.gcalc");
    if let Some(e) = r.error {
        panic!("{show}\n{}", e.rendered);
    }
    (r.value.map(|v| v.text).unwrap_or_default(), n)
}

/// The printed values of `show` as numbers.
fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || "-+.eEnaif".contains(c)))
        .filter_map(|t| t.parse::<f64>().ok())
        .collect()
}

/// On the GPU with graphs: the same text as without, values within `tol` of
/// the CPU's; the replays made.
fn check(code: &str, show: &str, tol: f64) -> u64 {
    let (with, n) = run("gpu", true, code, show);
    let (without, m) = run("gpu", false, code, show);
    assert_eq!(m, 0, "loop_graphs = false replayed");
    assert_eq!(with, without, "{code}: graphs changed the result");
    let (cpu, _) = run("cpu", true, code, show);
    let (g, c) = (numbers(&with), numbers(&cpu));
    assert_eq!(g.len(), c.len(), "{code}: GPU {with} vs CPU {cpu}");
    assert!(!g.is_empty(), "{show} printed no numbers: {with}");
    for (a, b) in g.iter().zip(&c) {
        assert!(
            (a - b).abs() <= tol * b.abs().max(1.0),
            "{code}: GPU {a} vs CPU {b}"
        );
    }
    n
}

const LOGREG: &str = "seed(0); N = 200; feats = 50
D0 = randn((N, feats)); D1 = randint(0, 2, N).astype(floatX)
w = randn(feats) * 0.01; b = 0.0
fn cost(w, b) {
    p1 = sigmoid(D0 @ w + b)
    xent = -D1 * log(p1) - (1 - D1) * log(1 - p1)
    mean(xent) + 0.01 * sum(w ** 2)
}
step = grad(cost, (0, 1))
for i in range(203) {
    gw, gb = step(w, b)
    w -= 0.1 * gw
    b -= 0.1 * gb
}";

#[test]
fn a_training_loop_is_replayed_and_gives_the_same_bits() {
    if !have_gpu() {
        return;
    }
    let n = check(LOGREG, "(w[:8], b, i, sum(w))", 1e-4);
    assert!(
        n > 150,
        "the logistic regression loop replayed {n} iterations"
    );
}

#[test]
fn rebinding_updates_and_matrix_products_replay_with_a_period() {
    if !have_gpu() {
        return;
    }
    // `W = W - ...` rebinds (buffers rotate); an MLP step through cuBLAS;
    // 61 iterations leave a remainder for any period.
    let code = "seed(1); X = randn((64, 32)); Y = randn((64, 4))
W1 = randn((32, 16)) * 0.1; W2 = randn((16, 4)) * 0.1
fn loss(W1, W2) { mean((relu(X @ W1) @ W2 - Y) ** 2) }
step = grad(loss, (0, 1))
for k in range(61) {
    g1, g2 = step(W1, W2)
    W1 = W1 - 0.05 * g1
    W2 = W2 - 0.05 * g2
}";
    let n = check(code, "(W1[0, :6], W2[:3], k, loss(W1, W2))", 1e-4);
    assert!(n > 10, "replayed {n} iterations");
}

#[test]
fn a_minibatch_index_taken_as_i_mod_n_replays() {
    if !have_gpu() {
        return;
    }
    // `j = i % nb` picks the batch: the body sees `i` only through its
    // residue, so a period of `nb` iterations replays; 103 leaves a remainder.
    let code = "seed(2); B = 16; nb = 4; X = randn((B * nb, 8)); Y = randn((B * nb, 2))
W = randn((8, 2)) * 0.1
fn loss(W, x, y) { mean((x @ W - y) ** 2) }
step = grad(loss, 0)
for i in range(103) {
    j = i % nb
    x = X[j * B:(j + 1) * B]; y = Y[j * B:(j + 1) * B]
    W -= 0.1 * step(W, x, y)
}";
    let n = check(code, "(W[0], j, i, loss(W, X, Y))", 1e-4);
    assert!(n > 5, "replayed {n} iterations");
    // The residue goes into the arithmetic: a period of two.
    let n = check(
        "x = zeros(3); for i in range(60) { x += i % 2 }",
        "(x, i)",
        1e-9,
    );
    assert!(n > 10, "replayed {n} iterations");
}

#[test]
fn an_elementwise_stencil_replays() {
    if !have_gpu() {
        return;
    }
    let code = "n = 1000; seed(1); u = rand(n); src = arange(1, n - 1)
for t in range(300) { u[src] += 0.1 * (u[src - 1] - 2.0 * u[src] + u[src + 1]) }";
    let n = check(code, "(u[:5], sum(u), t)", 1e-4);
    assert!(n > 200, "replayed {n} iterations");
}

#[test]
fn loops_a_replay_would_change_run_as_usual() {
    if !have_gpu() {
        return;
    }
    let cases = [
        // reads the loop variable
        ("x = zeros(4); for i in range(40) { x = x + i }", "x"),
        // reads it only now and then (the residue of 10 never repeats
        // with the counter)
        (
            "x = zeros(4); c = 0; for i in range(40) { x += 1; if i % 10 == 0 { c = c + 1 } }",
            "(x, c)",
        ),
        // random draws advance the generator
        (
            "seed(3); x = zeros(4); for i in range(40) { x += rand(4) }",
            "x",
        ),
        // a host list grows
        (
            "l = []; x = zeros(2); for i in range(40) { x += 1; l.append(1) }",
            "(x, len(l))",
        ),
        // a host counter
        (
            "n = 0; x = zeros(2); for i in range(40) { x += 1; n += 1 }",
            "(x, n)",
        ),
        // a download decides
        (
            "x = zeros(2); for i in range(40) { x += 1; if float(x[0]) > 30 { break } }",
            "(x, i)",
        ),
        // the body assigns the loop variable
        (
            "x = zeros(2); for i in range(40) { x += 1; i = 7 }",
            "(x, i)",
        ),
        // a host array written in place
        (
            "h = zeros(3, device=cpu()); x = zeros(2); for i in range(40) { x += 1; h[0] += 1 }",
            "(x, h)",
        ),
    ];
    for (code, show) in cases {
        let n = check(code, show, 1e-9);
        assert_eq!(n, 0, "{code}: replayed {n} times");
    }
}

#[test]
fn printing_bodies_print_every_time() {
    if !have_gpu() {
        return;
    }
    struct Shared(Arc<Mutex<String>>);
    impl Output for Shared {
        fn stdout(&mut self, text: &str) {
            self.0.lock().unwrap().push_str(text);
        }
        fn stderr(&mut self, _text: &str) {}
        fn display(&mut self, _data: &DisplayData) {}
        fn input(&mut self, _prompt: &str) -> Option<String> {
            None
        }
    }
    let text = Arc::new(Mutex::new(String::new()));
    let mut s = session("gpu", true);
    s.set_output(Box::new(Shared(text.clone())));
    let r = s.execute(
        "x = zeros(2)\nfor i in range(30) { x += 1; print(\"tick\") }\nx",
        "p.gcalc",
    );
    assert!(r.error.is_none(), "{:?}", r.error.map(|e| e.rendered));
    let out = text.lock().unwrap().clone();
    assert_eq!(out.matches("tick").count(), 30, "{out}");
}

#[test]
fn a_loop_inside_a_function_and_a_break_after_replay() {
    if !have_gpu() {
        return;
    }
    let code = "fn train(w, n) { for _ in range(n) { w -= 0.5 * w } ; w }
w = train(ones(8), 50)
fn halve(x) { for j in range(100) { x *= 0.5 }; x }
v = halve(ones(3) * 1e20)";
    let n = check(code, "(w, v)", 1e-6);
    assert!(n > 0, "replayed {n} iterations");
}
