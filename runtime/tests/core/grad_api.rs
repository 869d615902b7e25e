//! grad / value_and_grad as the language sees them: argnums, weak float
//! arguments, closures, control flow and calls inside f, augmented assignment,
//! the errors (non-scalar value, integer argument, argnums out of range),
//! and the logreg target program's accuracy.

use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::Value;

fn out(code: &str) -> String {
    let (mut s, log) = session("float64");
    run(&mut s, code).unwrap_or_else(|e| panic!("{e}"));
    log.lock().expect("log").clone()
}

fn err(code: &str) -> String {
    let (mut s, _) = session("float32");
    run(&mut s, code).expect_err("should fail")
}

#[test]
fn argnums_tuple_and_value_and_grad() {
    let o = out("fn f(x, y) { sum(x * y) + 2.0 * sum(y) }\n\
         gx, gy = grad(f, (0, 1))(array([1.0, 2.0]), array([3.0, 4.0]))\n\
         print(gx, gy)\n\
         print(grad(f, 1)(array([1.0, 2.0]), array([3.0, 4.0])))\n\
         v, g = value_and_grad(f)(array([1.0, 2.0]), array([3.0, 4.0]))\n\
         print(v, g)\n\
         v, (a, b) = value_and_grad(f, (0, 1))(array([1.0, 2.0]), array([3.0, 4.0]))\n\
         print(v, a, b)");
    assert_eq!(
        o, "[3. 4.] [3. 4.]\n[3. 4.]\n25.0 [3. 4.]\n25.0 [3. 4.] [3. 4.]\n",
        "{o}"
    );
}

#[test]
fn weak_float_argument_gives_a_0d_gradient() {
    let o = out(
        "fn f(w, b) { sum(w * b * b) }\ng = grad(f, 1)(array([1.0, 2.0]), 3.0)\nprint(g, g.shape, g.dtype)",
    );
    assert_eq!(o, "18.0 () float64\n", "{o}");
}

#[test]
fn closures_control_flow_and_calls() {
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "scale = array([1.0, -2.0, 0.5])\n\
         fn inner(z) { tanh(z) * scale }\n\
         fn f(x, y) {\n\
             acc = 0.0\n\
             for i in range(3) {\n\
                 if i % 2 == 0 { acc = acc + sum(inner(x * i + y)) } else { acc += sum(exp(x * 0.1) * y) }\n\
             }\n\
             t = x\n\
             while sum(t * t) < 100.0 { t = t * 2.0 }\n\
             h = fn(u) { u * scale }\n\
             acc + sum(h(t))\n\
         }",
    )
    .expect("define");
    let mut r = Rng(11);
    let args = vec![
        Value::Array(r.array(&[3], -1.0, 1.0)),
        Value::Array(r.array(&[3], -1.0, 1.0)),
    ];
    check(&mut s, "closures", &args, &[0, 1], 1e-6, 1e-6);
}

#[test]
fn constant_function_gives_zeros() {
    let o = out("fn f(x) { 3.0 }\nprint(grad(f)(array([1.0, 2.0])))");
    assert_eq!(o, "[0. 0.]\n", "{o}");
}

#[test]
fn non_scalar_value_is_an_error() {
    let e = err("fn f(x) { x * 2.0 }\ngrad(f)(ones((2, 3)))");
    assert!(
        e.contains("must return a scalar") && e.contains("(2, 3)"),
        "{e}"
    );
}

#[test]
fn integer_argument_is_an_error() {
    let e = err("fn f(n) { sum(n * 2.0) }\ngrad(f)(array([1, 2]))");
    assert!(
        e.contains("argument 0 (`n`)") && e.contains("an int64 array"),
        "{e}"
    );
    let e = err("fn f(n) { n * 2.0 }\ngrad(f)(3)");
    assert!(
        e.contains("argument 0 (`n`)") && e.contains("an int"),
        "{e}"
    );
}

#[test]
fn argnums_out_of_range_is_an_error() {
    let e = err("fn f(x) { sum(x) }\ngrad(f, (0, 1))(ones(3))");
    assert!(
        e.contains("argnums 1 is out of range") && e.contains("1 positional argument"),
        "{e}"
    );
}

#[test]
fn nested_grad_is_a_clear_error() {
    let e = err("fn f(x) { x * x * x }\ngrad(grad(f))(2.0)");
    assert!(e.contains("nested grad"), "{e}");
}

#[test]
fn float32_gradients_stay_float32() {
    let (mut s, log) = session("float32");
    run(
        &mut s,
        "w = randn(5)\ng = grad(fn(w) { sum(w ** 2) })(w)\nprint(g.dtype, allclose(g, 2.0 * w))",
    )
    .expect("run");
    assert_eq!(log.lock().expect("log").as_str(), "float32 true\n");
}

#[test]
fn logreg_target_program_trains() {
    // The program of examples/logreg.gcalc with fewer steps (a debug build is slow);
    // the benchmark runs all 10,000.
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/logreg.gcalc"
    ))
    .expect("examples/logreg.gcalc");
    let steps = if cfg!(debug_assertions) {
        "range(400)"
    } else {
        "range(10000)"
    };
    let src = src.replace("range(10000)", steps);
    assert!(src.contains(steps), "the example's loop changed");
    let (mut s, log) = session("float32");
    run(&mut s, &src).expect("logreg runs");
    let o = log.lock().expect("log").clone();
    let acc: f64 = o
        .trim()
        .rsplit(' ')
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no accuracy in {o:?}"));
    assert!(acc > 0.95, "training accuracy {acc}");
}

#[test]
fn writing_into_a_gradient_leaves_later_gradients_alone() {
    // The backward pass starts from a shared 0-d one; a gradient that is that
    // one (x + y) or a view of it (sum) must come back as its own array.
    let o = out("fn f(x, y) { x + y }\n\
         gx, gy = grad(f, (0, 1))(array(2.0), array(3.0))\n\
         hx, hy = grad(f, (0, 1))(array(2.0), array(3.0))\n\
         print(gx, gy, hx, hy, gx is hx, gx is gy)\n\
         fn s(v) { sum(v) }\n\
         g = grad(s)(array([1.0, 2.0, 3.0]))\n\
         g[1] = 9.0\n\
         print(g, grad(s)(array([1.0, 2.0, 3.0])), grad(s)(array(5.0)))");
    assert_eq!(
        o, "1.0 1.0 1.0 1.0 false false\n[1. 9. 1.] [1. 1. 1.] 1.0\n",
        "{o}"
    );
}
