//! `grad` through every read and write form of indexing (`grad_index_forms`)
//! against central finite differences in float64, plus the cases where the
//! tape must follow a buffer rather than a name, and what has no gradient
//! says so.

use crate::grad_index_forms::FORMS;
use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::Value;

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

#[test]
fn every_index_form_matches_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x51f15e3d);
    for (what, body, xs, ys) in FORMS {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{what}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        check(&mut s, what, &args, &[0, 1], H, TOL);
    }
}

/// Run `code` and read the 1-d float result `name`.
fn vals(s: &mut gcalc_runtime::Session, code: &str, name: &str) -> Vec<f64> {
    run(s, code).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get(name) {
        Some(Value::Array(a)) => a.to_f64_vec().expect("read"),
        _ => panic!("{name}: not an array"),
    }
}

#[test]
fn the_issue_reproductions() {
    let (mut s, _) = session("float64");
    // Issue 16 item 2: the gradient through a slice assignment.
    let g = vals(
        &mut s,
        "g = grad(fn(x) { y = zeros(4); y[1:3] = x[1:3] * 2.0; sum(y) })(arange(4.0))",
        "g",
    );
    assert_eq!(g, [0.0, 2.0, 2.0, 0.0]);
    // FINDINGS F8: the overwritten element gets none; a repeated index adds once.
    let g = vals(
        &mut s,
        "g = grad(fn(x) { y = x * 1.0; y[0] = 5.0; sum(y) })(arange(3.0))",
        "g",
    );
    assert_eq!(g, [0.0, 1.0, 1.0]);
    let g = vals(
        &mut s,
        "g = grad(fn(x) { y = x * 1.0; y[array([0, 0])] += x[1:3]; sum(y) })(arange(3.0))",
        "g",
    );
    assert_eq!(g, [1.0, 1.0, 2.0]);
}

#[test]
fn values_under_grad_equal_values_without() {
    // value_and_grad's value is the function's value: writes under the tape
    // go where they go without it (views see them).
    let (mut s, _) = session("float64");
    for (what, body, xs, ys) in FORMS {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).expect("define");
        let mut r = Rng(99);
        let (x, y) = (r.array(xs, -2.0, 2.0), r.array(ys, -2.0, 2.0));
        s.interp().bind("xa", Value::Array(x));
        s.interp().bind("ya", Value::Array(y));
        run(
            &mut s,
            "v0 = f(xa.copy(), ya.copy()); v1, _ = value_and_grad(f, (0, 1))(xa.copy(), ya.copy())",
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        let v0 = vals(&mut s, "d = array([v0, v1])", "d");
        assert_eq!(v0[0], v0[1], "{what}");
    }
}

#[test]
fn updates_without_a_gradient_say_so() {
    let (mut s, _) = session("float64");
    for op in ["multiply_at", "maximum_at", "minimum_at"] {
        let e = run(
            &mut s,
            &format!("grad(fn(x) {{ z = x * 1.0; {op}(z, [0, 0], 2.0); sum(z) }})(arange(3.0))"),
        )
        .unwrap_err();
        assert!(e.contains(op) && e.contains("no gradient"), "{op}: {e}");
    }
    // Without grad they run; the session goes on.
    let v = vals(
        &mut s,
        "z = arange(3.0); maximum_at(z, [0, 0, 2], array([5.0, -1.0, 1.0])); w = z",
        "w",
    );
    assert_eq!(v, [5.0, 1.0, 2.0]);
}
