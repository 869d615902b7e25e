//! Inputs whose adjoint trees are identical share one evaluation in the
//! backward pass (autodiff/backward.rs): `sigmoid(x + b)` gives x and b the
//! same tree; each must still get its own gradient, summed to its own shape,
//! and an input that also has other uses must not be merged.

use crate::grad_util::{run, session};

fn out(code: &str) -> String {
    let (mut s, log) = session("float64");
    run(&mut s, code).unwrap_or_else(|e| panic!("{e}"));
    log.lock().expect("log").clone()
}

#[test]
fn operands_of_an_add_get_their_own_gradients() {
    // d/dx sum(sigmoid(x + b)) = s(1 - s) per element; d/db = the sum of those.
    let o = out("x = array([0.5, -1.0, 2.0]); b = array(0.25)\n\
         fn f(x, b) { sum(sigmoid(x + b)) }\n\
         gx, gb = grad(f, (0, 1))(x, b)\n\
         s = sigmoid(x + b); want = s * (1 - s)\n\
         print(allclose(gx, want), allclose(gb, sum(want)), gx.shape, gb.shape)");
    assert_eq!(o, "true true (3,) ()\n", "{o}");
}

#[test]
fn an_input_with_other_uses_is_not_merged() {
    // x appears in x + y and again in x * 3: its gradient is s(1-s) + 3, y's is s(1-s).
    let o = out("x = array([0.5, -1.0]); y = array([1.5, 0.0])\n\
         fn f(x, y) { sum(sigmoid(x + y) + x * 3.0) }\n\
         gx, gy = grad(f, (0, 1))(x, y)\n\
         s = sigmoid(x + y); d = s * (1 - s)\n\
         print(allclose(gx, d + 3.0), allclose(gy, d))");
    assert_eq!(o, "true true\n", "{o}");
}

#[test]
fn an_argument_reached_by_several_paths_sums_them() {
    // w reaches the value through two fused trees and a matmul: its adjoint
    // trees wait and are added in one pass with the matmul's gradient;
    // b's tree needs a sum over the broadcast dim first, so it does not wait.
    let o = out("seed(4); A = randn((5, 3)); w = randn(3); b = array(0.3)\n\
         fn f(w, b) { sum(w * w) + sum(exp(w) * 0.5) + sum(tanh(A @ w + b)) }\n\
         gw, gb = grad(f, (0, 1))(w, b)\n\
         t = tanh(A @ w + b); d = 1 - t * t\n\
         want_w = 2 * w + 0.5 * exp(w) + A.T @ d\n\
         print(allclose(gw, want_w), allclose(gb, sum(d)), gw.dtype, gb.shape)");
    assert_eq!(o, "true true float64 ()\n", "{o}");
}
