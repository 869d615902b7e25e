//! Linear algebra on the CPU (issue 18): the NumPy-differential rows of
//! tests/numpy/src/ops_linalg.rs, the errors NumPy raises LinAlgError for
//! (each naming the function, the shapes and what went wrong), invariants of
//! the decompositions on random stacks in float32 and float64 (no NumPy
//! needed), and gradients of the composites against finite differences.

use crate::grad_util::{Rng, check, run, session};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_linalg::LINALG;
use gcalc_runtime::Value;
use gcalc_runtime::flags::DeviceFlag;

#[test]
fn linalg_matches_numpy() {
    let s = Settings::from_env(0, 60);
    let rerun = "cargo test -p gcalc-runtime --test core linalg_matches_numpy -- --nocapture";
    for r in assert_fn_suite("linalg_matches_numpy", rerun, &s, LINALG, DeviceFlag::Cpu) {
        r.assert_clean();
    }
}

/// The error of `code` (which must fail) as rendered, help included.
fn error_of(code: &str) -> String {
    let (mut s, _) = session("float64");
    match s.execute(code, "<test>").error {
        None => panic!("`{code}` should fail"),
        Some(e) => e.rendered,
    }
}

#[test]
fn linalg_errors_name_the_function_the_shapes_and_the_problem() {
    let cases: &[(&str, &[&str])] = &[
        (
            "solve(array([[1.0, 2], [2, 4]]), array([1.0, 2]))",
            &["solve", "singular matrix"],
        ),
        (
            "inv(zeros((3, 2, 2)))",
            &[
                "inv",
                "singular",
                "matrix 0 of the stack of shape (3, 2, 2)",
            ],
        ),
        (
            "cholesky(array([[1.0, 2], [2, 1]]))",
            &["cholesky", "not positive definite", "order 2"],
        ),
        (
            "cholesky(array([[1.0, 0], [nan_, 1]]))",
            &["cholesky", "NaN", "not positive definite"],
        ),
        (
            "cholesky(array([[4.0, 0], [inf_, 1]]))",
            &["cholesky", "infinity", "not positive definite"],
        ),
        (
            "cholesky(array([[1.0, 0], [0, nan_]]), upper=true)",
            &["cholesky", "NaN", "not positive definite"],
        ),
        ("inv(ones((2, 3)))", &["inv", "square", "(2, 3)"]),
        (
            "det(ones(3))",
            &["det", "1-dimensional", "at least two-dimensional"],
        ),
        (
            "solve(eye(3), ones(4))",
            &["solve", "b has 4 rows", "(3, 3)"],
        ),
        (
            "svd(array([[1.0, nan_], [0, 1]]))",
            &["svd", "NaN or infinity"],
        ),
        (
            "eigh(array([[1.0, inf_], [0, 1]]))",
            &["eigh", "NaN or infinity"],
        ),
        (
            "einsum(\"ij,jk->ik\", ones((2, 3)), ones((4, 2)))",
            &["einsum", "'j'", "operand 0", "operand 1"],
        ),
        (
            "einsum(\"ijk\", ones((2, 3)))",
            &["einsum", "operand 0", "2 dimensions", "\"ijk\""],
        ),
        (
            "einsum(\"ij->k\", ones((2, 3)))",
            &["einsum", "'k'", "never appears"],
        ),
        (
            "einsum(\"ij,jk\", ones((2, 3)))",
            &["einsum", "2 operands but 1"],
        ),
        (
            "solve(ones((2, 2)).astype(float16), ones(2))",
            &["float16", "unsupported"],
        ),
        (
            "norm(ones(3), \"fro\")",
            &["norm", "invalid norm order 'fro' for vectors"],
        ),
        (
            "qr(ones((2, 2)), mode=\"raw\")",
            &["qr", "unknown mode", "\"reduced\""],
        ),
        (
            "tensordot(ones((2, 3)), ones((2, 3)), axes=1)",
            &["tensordot", "shape mismatch", "(2, 3)"],
        ),
        (
            "lstsq(ones((3, 2)), ones(4))",
            &["lstsq", "incompatible dimensions"],
        ),
        (
            "matrix_power(ones((2, 2)), 0.5)",
            &["matrix_power", "integer"],
        ),
        ("cross(ones(4), ones(3))", &["cross", "2 or 3"]),
    ];
    for (code, words) in cases {
        let code = format!("nan_ = float(\"nan\"); inf_ = float(\"inf\"); {code}");
        let e = error_of(&code);
        for w in *words {
            assert!(e.contains(w), "`{code}`: error lacks {w:?}:\n{e}");
        }
    }
}

#[test]
fn a_missing_cusolver_is_named_with_how_to_get_it() {
    // This machine has no libcusolver (CI's neither); on a GPU host the
    // library is found and this says nothing.
    if let Some(e) = gcalc_runtime::backend::decomp::gpu_library_error("svd") {
        let m = format!(
            "{} {}",
            e.full_message(),
            e.help.clone().unwrap_or_default()
        );
        assert!(
            m.contains("libcusolver") && m.contains("svd") && m.contains("LD_LIBRARY_PATH"),
            "{m}"
        );
    }
}

/// `code` run in a float64 session, then `check` (a gcalc bool expression) must hold.
fn holds(s: &mut gcalc_runtime::Session, code: &str, checks: &[&str]) {
    run(s, code).unwrap_or_else(|e| panic!("{code}: {e}"));
    for c in checks {
        run(s, &format!("ok_ = {c}")).unwrap_or_else(|e| panic!("{c}: {e}"));
        let ok = match s.get("ok_") {
            Some(Value::Bool(b)) => b,
            Some(Value::Array(a)) => a.size() == 1 && a.to_f64_vec().is_ok_and(|v| v[0] != 0.0),
            _ => false,
        };
        assert!(ok, "{code}: {c} is false");
    }
}

#[test]
fn decompositions_reconstruct_their_input_in_both_float_dtypes() {
    let (mut s, _) = session("float64");
    for dt in ["float32", "float64"] {
        let tol = if dt == "float32" { "1e-4" } else { "1e-11" };
        let close = |x: &str, y: &str| format!("allclose({x}, {y}, atol={tol}, rtol={tol})");
        let code = format!(
            "seed(3); a = (randn((4, 5, 5)) + 6 * eye(5)).astype({dt}); t = randn((2, 6, 4)).astype({dt})
             b = randn((4, 5, 2)).astype({dt}); spd = a @ a.transpose((0, 2, 1)) + eye(5)
             q, r = qr(t); u, sv, vh = svd(t, full_matrices=false); w, v = eigh(spd); l = cholesky(spd)"
        );
        holds(
            &mut s,
            &code,
            &[
                &format!("solve(a, b).dtype == {dt} and q.dtype == {dt} and sv.dtype == {dt}"),
                &close("a @ solve(a, b)", "b"),
                &close("a @ inv(a)", "eye(5)"),
                &close("q @ r", "t"),
                &close("einsum(\"bij,bj,bjk->bik\", u, sv, vh)", "t"),
                &close("v @ (w[:, :, none] * v.transpose((0, 2, 1)))", "spd"),
                &close("l @ l.transpose((0, 2, 1))", "spd"),
                &close("det(a)", "exp(slogdet(a)[1]) * slogdet(a)[0]"),
                &close("pinv(t) @ t", "eye(4)"),
            ],
        );
    }
}

#[test]
fn empty_and_one_by_one_matrices() {
    let (mut s, _) = session("float64");
    holds(
        &mut s,
        "e = zeros((0, 0)); o = array([[4.0]])",
        &[
            "inv(e).shape == (0, 0) and det(e) == 1.0 and slogdet(e)[1] == 0.0",
            "svd(zeros((0, 3)))[2].shape == (3, 3) and svd(zeros((3, 0)))[0].shape == (3, 3)",
            "eigh(e)[0].shape == (0,) and cholesky(e).shape == (0, 0) and qr(zeros((3, 0)))[0].shape == (3, 0)",
            "inv(o)[0, 0] == 0.25 and det(o) == 4.0 and cholesky(o)[0, 0] == 2.0 and svd(o)[1][0] == 4.0",
            "inv(zeros((0, 2, 2))).shape == (0, 2, 2) and det(zeros((2, 0, 0))).shape == (2,)",
        ],
    );
}

#[test]
fn cholesky_reads_one_triangle_as_numpy() {
    // NumPy's cholesky reads the lower (upper=True: the upper) triangle only:
    // NaN or inf in the other one changes nothing.
    let (mut s, _) = session("float64");
    holds(
        &mut s,
        "a = array([[4.0, nan], [2, 5]]); b = array([[4.0, 2], [inf, 5]])",
        &[
            "all(cholesky(a) == array([[2.0, 0], [1, 2]]))",
            "all(cholesky(b, upper=true) == array([[2.0, 1], [0, 2]]))",
            "all(cholesky(stack([a, a])) == array([[2.0, 0], [1, 2]]))",
        ],
    );
}

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

#[test]
fn composites_differentiate_through_their_parts() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x51ed_2701);
    let cases: &[(&str, &[usize], &[usize])] = &[
        ("norm(x) * sum(y)", &[3, 4], &[2]),
        ("norm(x, 1, axis=0)[1] + norm(y, 3)", &[3, 4], &[2]),
        ("norm(x, \"nuc\") + norm(x, 2) * norm(y)", &[3, 4], &[2]),
        (
            "norm(x, float(\"inf\")) + norm(x, -1) + sum(y)",
            &[3, 4],
            &[2],
        ),
        ("sum(sin(einsum(\"ij,j->i\", x, y)))", &[3, 2], &[2]),
        (
            "sum(sin(einsum(\"ij,kj->ik\", x, x))) + einsum(\"ii\", x[:2, :2]) * sum(y)",
            &[3, 2],
            &[2],
        ),
        ("sum(sin(tensordot(x, y, axes=1)))", &[3, 2], &[2]),
        ("sum(sin(inner(x, y)))", &[3, 2], &[2]),
        ("sum(sin(kron(x, y)))", &[2, 2], &[2]),
        ("sum(sin(cross(x, y)))", &[2, 3], &[3]),
        ("sum(sin(matrix_power(x * 0.3, 3) @ y))", &[2, 2], &[2]),
        (
            "sum(sin(matrix_power(x + 4 * eye(2), -2) @ y))",
            &[2, 2],
            &[2],
        ),
    ];
    for (body, xs, ys) in cases {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        check(&mut s, body, &args, &[0, 1], H, TOL);
    }
}

#[test]
fn solve_broadcasts_b_like_numpy_2() {
    let (mut s, _) = session("float64");
    holds(
        &mut s,
        "seed(1); a = randn((2, 3, 3)) + 5 * eye(3); b1 = randn(3); b2 = randn((3, 4)); b3 = randn((1, 3, 2))",
        &[
            "solve(a, b1).shape == (2, 3) and solve(a, b2).shape == (2, 3, 4) and solve(a, b3).shape == (2, 3, 2)",
            "allclose(solve(a, b1)[1], solve(a[1], b1))",
            "solve(a[0], b2).shape == (3, 4)",
        ],
    );
}

#[test]
fn textbook_singular_matrices_are_singular_as_in_numpy() {
    // NumPy (LAPACK getrf: the Schur update's product rounded before the
    // subtraction) finds an exact zero pivot in these; a fused multiply-add
    // leaves a tiny one (det -9.5e-16, inv ~1e16). Small matrices take a
    // scalar getf2 loop so that gcalc agrees.
    let mats = [
        "arange(1.0, 10).reshape(3, 3)",
        "arange(16.0).reshape(4, 4)",
        "array([[0.1, 0.2], [0.3, 0.6]])",
    ];
    for m in mats {
        let e = error_of(&format!("inv({m})"));
        assert!(e.contains("singular"), "inv({m}): {e}");
        let e = error_of(&format!("solve({m}, ones({m}.shape[0]))"));
        assert!(e.contains("singular"), "solve({m}): {e}");
    }
    let (mut s, _) = session("float64");
    holds(
        &mut s,
        "a = arange(1.0, 10).reshape(3, 3); b = arange(16.0).reshape(4, 4); c = array([[0.1, 0.2], [0.3, 0.6]])",
        &[
            "det(a) == 0.0 and det(b) == 0.0 and det(c) == 0.0",
            "slogdet(a)[0] == 0.0 and slogdet(a)[1] == -inf",
            "det(a.astype(float32)) == 0.0 and det(b.astype(float32)) == 0.0",
            "det(a.astype(float32)).dtype == float32",
            // NumPy's sgetrf finds c nonsingular in float32 (det 8.3e-18: its
            // float32 kernels round differently); so does gcalc (-4.5e-9).
            "det(c.astype(float32)) != 0.0",
            "cond(a, 1) == inf",
            // A stack mixes the two outcomes per matrix.
            "all(det(stack([a, eye(3)])) == array([0.0, 1.0]))",
        ],
    );
}

#[test]
fn small_lu_matches_faer_and_large_matrices_still_factor() {
    // Matrices at or below the scalar-LU bound and above it (faer's path)
    // give the same answers to rounding.
    let (mut s, _) = session("float64");
    for n in [2, 5, 16, 17, 40, 130] {
        holds(
            &mut s,
            &format!(
                "seed({n}); a = randn((3, {n}, {n})) + {n} * eye({n}); b = randn((3, {n}, 2))"
            ),
            &[
                "allclose(a @ solve(a, b), b, rtol=1e-10, atol=1e-10)",
                "allclose(a @ inv(a), eye(a.shape[1]), rtol=1e-10, atol=1e-10)",
                "allclose(det(a), slogdet(a)[0] * exp(slogdet(a)[1]))",
                "allclose(slogdet(a.astype(float32))[1], slogdet(a)[1], rtol=1e-5)",
            ],
        );
    }
}

#[test]
fn det_and_slogdet_of_nanand_infas_numpy() {
    let (mut s, _) = session("float64");
    holds(
        &mut s,
        "sn = slogdet(array([[1.0, nan], [0, 1]])); si = slogdet(array([[-inf, 1.0], [1, 2]]))",
        &[
            // NumPy: the sign of a NaN pivot is left alone, its log is NaN.
            "sn[0] == 1.0 and isnan(sn[1])",
            "det(array([[inf, 1.0], [1, 2]])) == inf",
            "si[0] == -1.0 and si[1] == inf",
        ],
    );
}

#[test]
fn lstsq_rcond_outside_0_1_means_machine_eps_as_gelsd() {
    // LAPACK's gelsd (NumPy): rcond <= 0 or >= 1 is replaced by eps, so the
    // legacy rcond=-1 still drops a noise-level singular value.
    let (mut s, _) = session("float64");
    holds(
        &mut s,
        "a2 = array([[1.0, 2], [2, 4], [3, 6]]); b = array([1.0, 2, 3])
         a = array([[1.0, 2], [3, 4], [5, 7], [1, 0]]); bb = array([1.0, 2, 3, 4])
         r1 = lstsq(a2, b, rcond=-1); r0 = lstsq(a2, b, rcond=0); r9 = lstsq(a, bb, rcond=1.0)
         r3 = lstsq(a2.astype(float32), b.astype(float32), rcond=-1)",
        &[
            "r1[2] == 1 and allclose(r1[0], array([0.2, 0.4]))",
            "r0[2] == 1 and allclose(r0[0], array([0.2, 0.4]))",
            "r3[2] == 1 and allclose(r3[0], array([0.2, 0.4]), rtol=1e-5)",
            "r9[2] == 2 and allclose(r9[0], lstsq(a, bb)[0]) and r9[1].shape == (1,)",
        ],
    );
}
