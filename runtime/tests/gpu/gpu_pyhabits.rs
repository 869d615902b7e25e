//! Python habits on a GPU: the in-place array methods (`x.sort()`,
//! `x.partition(k)`, `x.fill(v)`) write into the GPU array (views see it),
//! elementwise methods, `float32(n)` made where new arrays go, 0-d GPU
//! arrays equal to numbers inside lists, and `sum`/`max`/`min` of Python
//! numbers beside GPU arrays. Each case is checked against the CPU's answer.
//! Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use crate::gpu_util::have_gpu;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

fn session(device: &str) -> Session {
    let mut flags = Flags::default();
    flags.set("device", device).expect("device flag");
    Session::new(flags, Box::new(Captured::default()))
}

/// The shown value of `code` (an error fails the test).
fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "test.gcalc");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

#[test]
fn in_place_methods_and_scalars_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let cases = [
        "seed(3); x = randn(4, 5); v = x[1:]; v.sort(axis=1); x.tolist()",
        "seed(4); x = randn(7); x.sort(); x.tolist()",
        "x = array([5.0, 1.0, 4.0, 2.0, 3.0]); x.partition(2); x[2].item()",
        "x = arange(6).reshape(2, 3); r = x[:, 1:]; r.fill(9); x.tolist()",
        "x = zeros(3); x.fill(2.5); x.sum().item()",
        "x = array([1.26, -2.5, 3.5]); (x.clip(-1, 2).tolist(), x.round().tolist(), x.abs().tolist())",
        "y = float32(2) * ones(3); (y.tolist(), str(y.dtype))",
        "x = ones(4); s = x.sum(); ([s] == [4.0], [s].index(4.0), s == 4)",
        "x = arange(5); (sum([1.5, 2.5]), max([x.max().item(), 2]), min(range(3)), sum(range(5)))",
        "x = ones(3, dtype=int32); (float32(x).dtype == float32, bool(x.sum()), x.dtype == \"int32\")",
    ];
    for code in cases {
        let mut c = session("cpu");
        let mut g = session("gpu");
        assert_eq!(run(&mut g, code), run(&mut c, code), "{code}");
    }
}

#[test]
fn float32_of_a_number_goes_where_new_arrays_go() {
    if !have_gpu() {
        return;
    }
    let mut g = session("gpu");
    assert_eq!(run(&mut g, "str(float32(1.5).device)"), "\"gpu(0)\"");
    assert_eq!(
        run(&mut g, "x = randn(3); str((x * float32(2)).device)"),
        "\"gpu(0)\""
    );
}
