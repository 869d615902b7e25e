//! NumPy's elementwise functions of issue 17 in a session: dtypes under the
//! default floatX (float32), integer forms (square, reciprocal, fmod, trunc
//! keep ints), edge values (nan, inf, -0.0, poles, out-of-domain), errors
//! (integer division by zero, bad keywords, wrong arity), `remainder` as
//! `mod`, `nan_to_num`'s keywords and gradient, and fused trees of them.

use crate::grad_util::{run, session};
use gcalc_runtime::{DType, Session, Value};

fn eval(s: &mut Session, expr: &str) -> Result<Value, String> {
    run(s, &format!("out = {expr}"))?;
    s.get("out").ok_or_else(|| "no out".into())
}

/// The values and dtype of an array expression.
fn arr(s: &mut Session, expr: &str) -> (Vec<f64>, DType) {
    match eval(s, expr) {
        Ok(Value::Array(a)) => (a.to_f64_vec().expect("read"), a.dtype()),
        other => panic!("{expr}: {:?}", other.map(|v| v.type_name())),
    }
}

fn err(s: &mut Session, expr: &str) -> String {
    match eval(s, expr) {
        Err(e) => e,
        Ok(v) => panic!("{expr} gave a {} instead of an error", v.type_name()),
    }
}

fn same(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()))
}

#[test]
fn dtypes_follow_numpy_with_floatx() {
    let (mut s, _) = session("float32");
    let i = "array([1, 2, 3])";
    for f in [
        "log10", "exp2", "cbrt", "sinh", "arctan", "erf", "rint", "deg2rad",
    ] {
        assert_eq!(
            arr(&mut s, &format!("{f}({i})")).1,
            DType::Float32,
            "{f} of int64"
        );
        assert_eq!(
            arr(&mut s, &format!("{f}(array([1.0, 2.0], dtype=float64))")).1,
            DType::Float64,
            "{f} of float64"
        );
        assert_eq!(
            arr(&mut s, &format!("{f}(array([1.0, 2.0], dtype=float16))")).1,
            DType::Float16,
            "{f} of float16"
        );
    }
    for f in ["square", "trunc"] {
        assert_eq!(
            arr(&mut s, &format!("{f}({i})")).1,
            DType::Int64,
            "{f} keeps ints"
        );
    }
    assert_eq!(arr(&mut s, "trunc(array([true, false]))").1, DType::Bool);
    assert_eq!(
        arr(&mut s, "square(array([true, false]))"),
        (vec![1.0, 0.0], DType::Int64)
    );
    assert_eq!(
        arr(&mut s, "hypot(array([3, 5]), 4)"),
        (vec![5.0, 41f64.sqrt() as f32 as f64], DType::Float32)
    );
    assert_eq!(
        arr(&mut s, "hypot(array([3.0], dtype=float64), 4.0)").1,
        DType::Float64
    );
    for f in ["isinf", "isposinf", "isneginf", "signbit"] {
        assert_eq!(arr(&mut s, &format!("{f}({i})")).1, DType::Bool, "{f}");
        assert_eq!(
            arr(&mut s, &format!("{f}(array([true]))")).1,
            DType::Bool,
            "{f}"
        );
    }
    assert_eq!(
        arr(&mut s, "signbit(array([-2, 0, 3]))").0,
        vec![1.0, 0.0, 0.0]
    );
}

#[test]
fn integer_forms_truncate_like_numpy() {
    let (mut s, _) = session("float32");
    assert_eq!(
        arr(&mut s, "reciprocal(array([2, 1, -1, -3]))").0,
        vec![0.0, 1.0, -1.0, 0.0]
    );
    assert_eq!(arr(&mut s, "reciprocal(array([4.0]))").0, vec![0.25]);
    assert_eq!(
        arr(&mut s, "fmod(array([5, -5, 5, -5]), array([3, 3, -3, -3]))").0,
        vec![2.0, -2.0, 2.0, -2.0]
    );
    assert_eq!(
        arr(
            &mut s,
            "remainder(array([5, -5, 5, -5]), array([3, 3, -3, -3]))"
        )
        .0,
        vec![2.0, 1.0, -1.0, -2.0]
    );
    assert_eq!(
        arr(&mut s, "fmod(array([5.5, -5.5]), 2.0)").0,
        vec![1.5, -1.5],
        "float fmod takes the dividend's sign"
    );
    let e = err(&mut s, "reciprocal(array([1, 0]))");
    assert!(
        e.contains("division by zero") && e.contains("reciprocal"),
        "{e}"
    );
    let e = err(&mut s, "fmod(array([1, 2]), array([1, 0]))");
    assert!(e.contains("division by zero") && e.contains("fmod"), "{e}");
    assert_eq!(
        arr(&mut s, "square(array([3037000500]))").0,
        vec![(3037000500i64.wrapping_mul(3037000500)) as f64]
    );
}

#[test]
fn edge_values_are_numpys() {
    let (mut s, _) = session("float64");
    run(&mut s, "i = float(\"inf\"); n = float(\"nan\")").unwrap();
    let inf = f64::INFINITY;
    let cases: &[(&str, &[f64])] = &[
        (
            "log10(array([0.0, -1.0, 100.0, i]))",
            &[-inf, f64::NAN, 2.0, inf],
        ),
        ("exp2(array([-i, 3.0, 2000.0]))", &[0.0, 8.0, inf]),
        ("cbrt(array([-27.0, -0.0, i]))", &[-3.0, -0.0, inf]),
        (
            "arcsin(array([2.0, 1.0, -1.0]))",
            &[
                f64::NAN,
                std::f64::consts::FRAC_PI_2,
                -std::f64::consts::FRAC_PI_2,
            ],
        ),
        ("arccosh(array([0.5, 1.0, i]))", &[f64::NAN, 0.0, inf]),
        (
            "arctanh(array([1.0, -1.0, 2.0, -0.0]))",
            &[inf, -inf, f64::NAN, -0.0],
        ),
        ("sinh(array([-i, -0.0, 800.0]))", &[-inf, -0.0, inf]),
        ("cosh(array([-i, 0.0]))", &[inf, 1.0]),
        (
            "arctan2(array([0.0, -0.0, 1.0]), array([-1.0, -1.0, 0.0]))",
            &[
                std::f64::consts::PI,
                -std::f64::consts::PI,
                std::f64::consts::FRAC_PI_2,
            ],
        ),
        ("hypot(array([i, n]), array([n, i]))", &[inf, inf]),
        (
            "logaddexp(array([-i, i, 0.0, n]), array([-i, i, 0.0, 1.0]))",
            &[-inf, inf, std::f64::consts::LN_2, f64::NAN],
        ),
        (
            "logaddexp2(array([-i, 1.0]), array([3.0, 1.0]))",
            &[3.0, 2.0],
        ),
        (
            "copysign(array([1.0, 2.0, n]), array([-0.0, 0.0, -1.0]))",
            &[-1.0, 2.0, f64::NAN],
        ),
        (
            "fmod(array([i, 1.0, -0.0]), array([2.0, 0.0, 3.0]))",
            &[f64::NAN, f64::NAN, -0.0],
        ),
        (
            "erf(array([0.0, i, -i, 0.5]))",
            &[0.0, 1.0, -1.0, 0.5204998778130465],
        ),
        (
            "erfc(array([-i, i, 10.0]))",
            &[2.0, 0.0, 2.088487583762545e-45],
        ),
        (
            "rint(array([0.5, 1.5, -2.5, -0.2]))",
            &[0.0, 2.0, -2.0, -0.0],
        ),
        ("trunc(array([-1.7, 1.7, -0.3]))", &[-1.0, 1.0, -0.0]),
        (
            "heaviside(array([-1.0, 0.0, -0.0, 3.0, n]), 0.5)",
            &[0.0, 0.5, 0.5, 1.0, f64::NAN],
        ),
        ("deg2rad(array([180.0]))", &[std::f64::consts::PI]),
        ("rad2deg(array([3.141592653589793]))", &[180.0]),
        ("isinf(array([i, -i, n, 1.0]))", &[1.0, 1.0, 0.0, 0.0]),
        ("isposinf(array([i, -i, n]))", &[1.0, 0.0, 0.0]),
        ("isneginf(array([i, -i, n]))", &[0.0, 1.0, 0.0]),
        (
            "signbit(array([-0.0, 0.0, -n, -1.0]))",
            &[1.0, 0.0, 1.0, 1.0],
        ),
    ];
    for (expr, want) in cases {
        let (got, _) = arr(&mut s, expr);
        let ok = got.iter().zip(*want).all(|(g, w)| {
            (g.is_nan() && w.is_nan())
                || (g == w && g.is_sign_negative() == w.is_sign_negative())
                || (g - w).abs() <= 1e-15 * w.abs()
        });
        assert!(
            ok && got.len() == want.len(),
            "{expr}: got {got:?}, want {want:?}"
        );
    }
    // Empty and 0-d arrays, weak scalars.
    assert_eq!(arr(&mut s, "sinh(zeros((0, 3)))").0.len(), 0);
    assert_eq!(
        arr(&mut s, "arctan2(array(1.0), array(1.0))").0,
        vec![std::f64::consts::FRAC_PI_4]
    );
    assert!(
        matches!(eval(&mut s, "log10(1000.0)"), Ok(Value::Float(f)) if (f - 3.0).abs() < 1e-15)
    );
    assert!(matches!(eval(&mut s, "isinf(i)"), Ok(Value::Bool(true))));
}

#[test]
fn nan_to_num_replaces_like_numpy() {
    let (mut s, _) = session("float32");
    run(
        &mut s,
        "i = float(\"inf\"); n = float(\"nan\"); x = array([n, i, -i, 1.5])",
    )
    .unwrap();
    let (v, d) = arr(&mut s, "nan_to_num(x)");
    assert_eq!(d, DType::Float32);
    assert_eq!(v, vec![0.0, f32::MAX as f64, -(f32::MAX as f64), 1.5]);
    let (v, _) = arr(&mut s, "nan_to_num(x.astype(float16))");
    assert_eq!(v, vec![0.0, 65504.0, -65504.0, 1.5]);
    let (v, _) = arr(&mut s, "nan_to_num(x.astype(float64), nan=-1, posinf=2.5)");
    assert_eq!(v, vec![-1.0, 2.5, -f64::MAX, 1.5]);
    let (v, _) = arr(&mut s, "nan_to_num(x, 7.0, none, 3.0)");
    assert_eq!(v, vec![7.0, f32::MAX as f64, 3.0, 1.5]);
    assert_eq!(
        arr(&mut s, "nan_to_num(array([1, 2]))"),
        (vec![1.0, 2.0], DType::Int64)
    );
    assert_eq!(arr(&mut s, "nan_to_num(array([true]))").1, DType::Bool);
    assert!(matches!(eval(&mut s, "nan_to_num(n)"), Ok(Value::Float(f)) if f == 0.0));
    let e = err(&mut s, "nan_to_num(x, nan=array([1.0]))");
    assert!(e.contains("nan must be a number"), "{e}");
    let e = err(&mut s, "nan_to_num(x, nans=1.0)");
    assert!(e.contains("unexpected keyword argument `nans`"), "{e}");
    // The gradient flows where x is finite.
    run(
        &mut s,
        "fn f(x) = sum(nan_to_num(x * 2.0))\ng = grad(f)(array([1.0, 2.0, 3.0]))",
    )
    .unwrap();
    let Some(Value::Array(g)) = s.get("g") else {
        panic!("no g")
    };
    assert_eq!(g.to_f64_vec().unwrap(), vec![2.0, 2.0, 2.0]);
}

#[test]
fn arity_and_operand_errors_name_the_function() {
    let (mut s, _) = session("float32");
    let e = err(&mut s, "hypot(array([1.0]))");
    assert!(e.contains("hypot() takes 2 arguments"), "{e}");
    let e = err(&mut s, "heaviside(array([1.0]), \"a\")");
    assert!(e.contains("expected an array or a number"), "{e}");
    let e = err(&mut s, "arctan2(zeros(3), zeros(4))");
    assert!(e.contains("arctan2") && e.contains("broadcast"), "{e}");
}

#[test]
fn fused_trees_of_the_new_functions_agree_with_steps() {
    let (mut s, _) = session("float64");
    run(&mut s, "seed(3); x = uniform(-0.9, 0.9, (4, 5), dtype=float64); y = uniform(0.5, 2.0, 5, dtype=float64)").unwrap();
    let (fused, _) = arr(
        &mut s,
        "arctanh(x) * cosh(y) + logaddexp(x, y) - arctan2(x, y) + square(erf(x))",
    );
    run(
        &mut s,
        "a = arctanh(x); b = cosh(y); c = logaddexp(x, y); d = arctan2(x, y); e2 = erf(x)",
    )
    .unwrap();
    let (steps, _) = arr(&mut s, "a * b + c - d + e2 * e2");
    assert!(same(&fused, &steps), "{fused:?} vs {steps:?}");
    // remainder is mod under another name.
    let (r, _) = arr(&mut s, "remainder(x * 7.0, y)");
    let (m, _) = arr(&mut s, "(x * 7.0) % y");
    assert!(same(&r, &m));
}
