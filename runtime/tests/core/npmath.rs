//! The "more NumPy math" family (`ops/npmath*.rs`) on the CPU: the NumPy
//! differential rows (`tests/numpy/src/ops_npmath.rs`), float64 references
//! for the edge cases NumPy defines (subnormals, infinities, nan, empty and
//! size-1 inputs, negative axes), and the errors (function, argument, fix).

use crate::grad_util::{run, session};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{Session, Value};

/// The family's rows against NumPy on the CPU.
#[test]
fn npmath_matches_numpy() {
    let s = Settings::from_env(0, 100);
    let rerun = "cargo test -p gcalc-runtime --test core npmath_matches_numpy -- --nocapture";
    for r in assert_fn_suite(
        "npmath_matches_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_npmath::NPMATH,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

fn sess() -> Session {
    session("float64").0
}

/// The value of `code`, printed as the REPL prints it.
fn show(s: &mut Session, code: &str) -> String {
    run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Array(a)) => format!("{:?} {:?}", a.dtype(), a.to_f64_vec().unwrap()),
        Some(Value::Bool(b)) => format!("{b}"),
        Some(Value::Int(k)) => format!("int {k}"),
        Some(Value::Float(f)) => format!("float {f:?}"),
        Some(v) => panic!("{code}: unexpected {}", v.a_type_name()),
        None => panic!("{code}: no out"),
    }
}

fn vals(s: &mut Session, code: &str) -> Vec<f64> {
    run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Array(a)) => a.to_f64_vec().unwrap(),
        _ => panic!("{code}: not an array"),
    }
}

fn near(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-12 * w.abs().max(1.0),
            "{what}: {got:?} vs {want:?}"
        );
    }
}

fn err(s: &mut Session, code: &str) -> String {
    match run(s, code) {
        Ok(()) => panic!("{code}: no error"),
        Err(e) => e,
    }
}

fn same(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let ok =
            (g.is_nan() && w.is_nan()) || (g == w && g.is_sign_negative() == w.is_sign_negative());
        assert!(ok, "{what}: element {k}: got {g:?}, want {w:?}");
    }
}

#[test]
fn comparisons_follow_numpy() {
    let mut s = sess();
    assert_eq!(
        show(
            &mut s,
            "isclose(array([1.0, inf, -inf, nan, 1e10]), array([1.0 + 1e-6, inf, inf, nan, 1.000001e10]))"
        ),
        "Bool [1.0, 1.0, 0.0, 0.0, 1.0]"
    );
    assert_eq!(
        show(
            &mut s,
            "isclose(array([nan, 1.0]), [nan, 1.5], equal_nan=true, atol=0.4)"
        ),
        "Bool [1.0, 0.0]"
    );
    // b is the reference: not symmetric.
    assert_eq!(
        show(&mut s, "isclose(1.0, 0.0, rtol=1.0, atol=0.0)"),
        "false"
    );
    assert_eq!(
        show(&mut s, "isclose(0.0, 1.0, rtol=1.0, atol=0.0)"),
        "true"
    );
    assert_eq!(
        show(&mut s, "array_equal(array([1, 2]), array([1.0, 2.0]))"),
        "true"
    );
    assert_eq!(
        show(&mut s, "array_equal(array([1, 2]), array([[1, 2]]))"),
        "false"
    );
    assert_eq!(
        show(&mut s, "array_equal(array([nan]), array([nan]))"),
        "false"
    );
    assert_eq!(
        show(
            &mut s,
            "array_equal(array([nan]), array([nan]), equal_nan=true)"
        ),
        "true"
    );
    assert_eq!(
        show(&mut s, "array_equal(zeros((0, 3)), zeros((0, 3)))"),
        "true"
    );
    assert_eq!(
        show(
            &mut s,
            "array_equiv(array([1, 2]), array([[1, 2], [1, 2]]))"
        ),
        "true"
    );
    assert_eq!(
        show(
            &mut s,
            "array_equiv(array([1, 2]), array([[1, 2], [1, 3]]))"
        ),
        "false"
    );
    assert_eq!(
        show(&mut s, "array_equiv(array([1, 2]), array([1, 2, 3]))"),
        "false"
    );
    assert_eq!(show(&mut s, "isscalar(3.5)"), "true");
    assert_eq!(show(&mut s, "isscalar(\"a\")"), "true");
    assert_eq!(show(&mut s, "isscalar(array(3.5))"), "false");
    assert_eq!(show(&mut s, "isscalar([1, 2])"), "false");
    assert_eq!(
        show(
            &mut s,
            "logical_xor(array([0, 1, 2]), array([true, true, false]))"
        ),
        "Bool [1.0, 0.0, 1.0]"
    );
}

#[test]
fn elementwise_values_follow_numpy() {
    let mut s = sess();
    same(
        &vals(
            &mut s,
            "fmax(array([nan, 1.0, nan, -2.0]), array([3.0, nan, nan, 5.0]))",
        ),
        &[3.0, 1.0, f64::NAN, 5.0],
        "fmax",
    );
    same(
        &vals(
            &mut s,
            "fmin(array([nan, 1.0, -2.0]), array([3.0, nan, 5.0]))",
        ),
        &[3.0, 1.0, -2.0],
        "fmin",
    );
    assert_eq!(show(&mut s, "fabs(array([-3, 2]))"), "Float64 [3.0, 2.0]");
    assert_eq!(show(&mut s, "absolute(array([-3, 2]))"), "Int64 [3.0, 2.0]");
    assert_eq!(
        show(&mut s, "fix(array([-2.5, 2.5, -0.5]))"),
        "Float64 [-2.0, 2.0, -0.0]"
    );
    assert_eq!(
        show(&mut s, "fix(array([-3, 4], dtype=int32))"),
        "Int32 [-3.0, 4.0]"
    );
    same(&vals(&mut s, "degrees(array([pi]))"), &[180.0], "degrees");
    same(
        &vals(&mut s, "radians(array([180.0]))"),
        &[std::f64::consts::PI],
        "radians",
    );
    same(
        &vals(&mut s, "sinc(array([0.0, 1.0, 0.5]))"),
        &[
            1.0,
            (std::f64::consts::PI).sin() / std::f64::consts::PI,
            2.0 / std::f64::consts::PI,
        ],
        "sinc",
    );
    assert_eq!(
        show(&mut s, "float_power(array([2, -2]), -1)"),
        "Float64 [0.5, -0.5]"
    );
    assert_eq!(
        show(&mut s, "float_power(array([2.0], dtype=float32), 2)"),
        "Float64 [4.0]"
    );
    assert_eq!(
        show(&mut s, "bitwise_not(array([0, 5]))"),
        "Int64 [-1.0, -6.0]"
    );
    assert_eq!(
        show(&mut s, "bitwise_not(array([true, false]))"),
        "Bool [0.0, 1.0]"
    );
    assert_eq!(
        show(&mut s, "bitwise_count(array([0, 7, -8, 255]))"),
        "Int64 [0.0, 3.0, 1.0, 8.0]"
    );
    assert_eq!(
        show(&mut s, "gcd(array([12, -18, 0, 7]), array([18, 12, 0, 0]))"),
        "Int64 [6.0, 6.0, 0.0, 7.0]"
    );
    assert_eq!(
        show(&mut s, "lcm(array([4, -6, 0]), array([6, 4, 3]))"),
        "Int64 [12.0, 12.0, 0.0]"
    );
    same(
        &vals(
            &mut s,
            "ldexp(array([1.0, 0.75, 1.0, 3.0]), array([3, -1073, 5000, -5000]))",
        ),
        &[8.0, f64::from_bits(2), f64::INFINITY, 0.0],
        "ldexp",
    );
    same(
        &vals(
            &mut s,
            "nextafter(array([1.0, 0.0, 1.0]), array([2.0, -1.0, 1.0]))",
        ),
        &[1.0 + f64::EPSILON, -f64::from_bits(1), 1.0],
        "nextafter",
    );
    same(
        &vals(&mut s, "amax(array([[1.0, 5.0], [3.0, 2.0]]), axis=-1)"),
        &[5.0, 3.0],
        "amax",
    );
    same(
        &vals(
            &mut s,
            "amin(array([[1.0, 5.0], [3.0, 2.0]]), axis=0, keepdims=true)",
        ),
        &[1.0, 2.0],
        "amin",
    );
}

#[test]
fn rounding_to_decimals_follows_numpy() {
    let mut s = sess();
    same(
        &vals(&mut s, "around(array([1.235, -2.5, 0.125]), 2)"),
        &[1.24, -2.5, 0.12],
        "around 2",
    );
    same(
        &vals(&mut s, "round(array([1234.5, -15.0]), -1)"),
        &[1230.0, -20.0],
        "round -1",
    );
    same(
        &vals(&mut s, "round(array([2.5, 3.5]), decimals=0)"),
        &[2.0, 4.0],
        "round 0",
    );
    assert_eq!(
        show(&mut s, "around(array([1234, -1250]), -2)"),
        "Int64 [1200.0, -1200.0]"
    );
    assert_eq!(
        show(&mut s, "around(array([7, 8], dtype=int32), 3)"),
        "Int32 [7.0, 8.0]"
    );
    // NumPy's around: 2.675 * 100 rounds to 267.5 in float64, then half to
    // even; Python's round of a Python float is exact (2.675 is 2.67499...).
    assert_eq!(show(&mut s, "around(2.675, 2)"), "float 2.68");
    assert_eq!(show(&mut s, "round(2.675, 2)"), "float 2.67");
    assert_eq!(show(&mut s, "round(0.125, 2)"), "float 0.12");
    assert_eq!(show(&mut s, "round(1.5, 309)"), "float 1.5");
    assert_eq!(show(&mut s, "round(1e300, -400)"), "float 0.0");
    assert_eq!(show(&mut s, "round(-1250.0, -2)"), "float -1200.0");
    assert_eq!(show(&mut s, "round(1350, -2)"), "int 1400");
    assert_eq!(show(&mut s, "round(1250, -2)"), "int 1200");
}

#[test]
fn decompositions_follow_numpy() {
    let mut s = sess();
    run(
        &mut s,
        "x = array([-3.5, 0.0, -0.0, inf, -inf, nan, 2.0, 5e-324, 1e308, -0.75])",
    )
    .unwrap();
    let m = vals(&mut s, "frexp(x)[0]");
    let e = vals(&mut s, "frexp(x)[1]");
    let xs = [
        -3.5,
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        2.0,
        5e-324,
        1e308,
        -0.75,
    ];
    for (k, &x) in xs.iter().enumerate() {
        if !x.is_finite() || x == 0.0 {
            same(&[m[k]], &[x], "frexp special mantissa");
            assert_eq!(e[k], 0.0, "frexp special exponent");
            continue;
        }
        assert!(
            (0.5..1.0).contains(&m[k].abs()),
            "frexp({x}): mantissa {}",
            m[k]
        );
        let (h, r) = (e[k] as i32 / 2, e[k] as i32 - e[k] as i32 / 2);
        assert_eq!(m[k] * 2f64.powi(h) * 2f64.powi(r), x, "frexp({x})");
    }
    assert_eq!(show(&mut s, "frexp(x)[1].dtype == int32"), "true");
    same(
        &vals(&mut s, "modf(x)[0]"),
        &[
            -0.5,
            0.0,
            -0.0,
            0.0,
            -0.0,
            f64::NAN,
            0.0,
            5e-324,
            0.0,
            -0.75,
        ],
        "modf frac",
    );
    same(
        &vals(&mut s, "modf(x)[1]"),
        &[
            -3.0,
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            2.0,
            0.0,
            1e308,
            -0.0,
        ],
        "modf int",
    );
    same(
        &vals(&mut s, "divmod(array([7, -7]), 2)[0]"),
        &[3.0, -4.0],
        "divmod q",
    );
    same(
        &vals(&mut s, "divmod(array([7, -7]), 2)[1]"),
        &[1.0, 1.0],
        "divmod r",
    );
}

#[test]
fn calculus_follows_numpy() {
    let mut s = sess();
    // Exact for a quadratic with edge_order=2; central in the middle.
    same(
        &vals(
            &mut s,
            "gradient(array([1.0, 4.0, 9.0, 16.0]), edge_order=2)",
        ),
        &[2.0, 4.0, 6.0, 8.0],
        "gradient order 2",
    );
    same(
        &vals(&mut s, "gradient(array([1.0, 2.0, 4.0, 7.0, 11.0]))"),
        &[1.0, 1.5, 2.5, 3.5, 4.0],
        "gradient",
    );
    // Uneven coordinates: x**2 at x = 0, 1, 3 has derivative 2x, exact in the middle.
    near(
        &vals(
            &mut s,
            "gradient(array([0.0, 1.0, 9.0]), array([0.0, 1.0, 3.0]))",
        ),
        &[1.0, 2.0, 4.0],
        "gradient coords",
    );
    run(
        &mut s,
        "g = gradient(array([[1.0, 2.0, 6.0], [3.0, 5.0, 7.0]]))",
    )
    .unwrap();
    assert_eq!(show(&mut s, "len(g)"), "int 2");
    same(
        &vals(&mut s, "g[0]"),
        &[2.0, 3.0, 1.0, 2.0, 3.0, 1.0],
        "gradient axis 0",
    );
    same(
        &vals(&mut s, "g[1]"),
        &[1.0, 2.5, 4.0, 2.0, 2.0, 2.0],
        "gradient axis 1",
    );
    same(
        &vals(&mut s, "trapezoid(array([1.0, 2.0, 3.0]))"),
        &[4.0],
        "trapezoid",
    );
    same(
        &vals(
            &mut s,
            "trapezoid(array([1.0, 2.0, 3.0]), x=array([0.0, 1.0, 3.0]))",
        ),
        &[6.5],
        "trapezoid x",
    );
    same(
        &vals(
            &mut s,
            "trapezoid(array([[1.0, 2.0], [3.0, 4.0]]), dx=2.0, axis=0)",
        ),
        &[4.0, 6.0],
        "trapezoid axis",
    );
    same(
        &vals(&mut s, "trapezoid(zeros(0))"),
        &[0.0],
        "trapezoid empty",
    );
    same(
        &vals(
            &mut s,
            "ediff1d(array([1, 4, 9]), to_begin=-1, to_end=[7, 8])",
        ),
        &[-1.0, 3.0, 5.0, 7.0, 8.0],
        "ediff1d",
    );
    same(
        &vals(
            &mut s,
            "cumulative_sum(array([[1, 2], [3, 4]]), axis=-1, include_initial=true)",
        ),
        &[0.0, 1.0, 3.0, 0.0, 3.0, 7.0],
        "cumulative_sum",
    );
    same(
        &vals(
            &mut s,
            "cumulative_prod(array([2.0, 3.0]), include_initial=true)",
        ),
        &[1.0, 2.0, 6.0],
        "cumulative_prod",
    );
    same(
        &vals(&mut s, "nancumsum(array([1.0, nan, 2.0]))"),
        &[1.0, 1.0, 3.0],
        "nancumsum",
    );
    same(
        &vals(&mut s, "nancumprod(array([2.0, nan, 3.0]))"),
        &[2.0, 2.0, 6.0],
        "nancumprod",
    );
    same(
        &vals(&mut s, "nanprod(array([[2.0, nan], [nan, nan]]), axis=1)"),
        &[2.0, 1.0],
        "nanprod",
    );
    let tau = std::f64::consts::TAU;
    let u = vals(&mut s, "unwrap(array([0.0, 3.0, 6.5, 0.2, -3.0]))");
    near(&u, &[0.0, 3.0, 6.5 - tau, 0.2, -3.0 + tau], "unwrap");
    same(
        &vals(&mut s, "unwrap(array([0, 2, 5, 1]), period=4)"),
        &[0.0, 2.0, 1.0, 1.0],
        "unwrap period",
    );
    same(
        &vals(
            &mut s,
            "interp(array([-1.0, 0.0, 0.5, 1.0, 2.0, 9.0, nan]), array([0.0, 1.0, 2.0]), array([10.0, 20.0, 40.0]))",
        ),
        &[10.0, 10.0, 15.0, 20.0, 40.0, 40.0, f64::NAN],
        "interp",
    );
    same(
        &vals(
            &mut s,
            "interp(array([-1.0, 3.0]), array([0.0, 1.0]), array([1.0, 2.0]), left=-5, right=7.5)",
        ),
        &[-5.0, 7.5],
        "interp left right",
    );
    same(
        &vals(
            &mut s,
            "interp(array([-180.0, 190.0]), array([-170.0, 170.0]), array([1.0, 2.0]), period=360)",
        ),
        &[1.5, 1.0],
        "interp period",
    );
    same(
        &vals(
            &mut s,
            "interp(array([0.0, 5.0]), array([1.0]), array([3.0]))",
        ),
        &[3.0, 3.0],
        "interp one point",
    );
}

#[test]
fn nan_quantiles_skip_nan() {
    let mut s = sess();
    run(
        &mut s,
        "x = array([[1.0, nan, 3.0, 2.0], [nan, nan, nan, nan], [4.0, 1.0, 2.0, 3.0]])",
    )
    .unwrap();
    same(
        &vals(&mut s, "nanmedian(x, axis=1)"),
        &[2.0, f64::NAN, 2.5],
        "nanmedian",
    );
    same(&vals(&mut s, "nanmedian(x)"), &[2.0], "nanmedian all");
    same(
        &vals(&mut s, "nanquantile(x, 0.25, axis=-1)"),
        &[1.5, f64::NAN, 1.75],
        "nanquantile",
    );
    same(
        &vals(&mut s, "nanpercentile(x, [0, 100], axis=1)"),
        &[1.0, f64::NAN, 1.0, 3.0, f64::NAN, 4.0],
        "nanpercentile",
    );
    run(&mut s, "k = nanquantile(x, 0.5, axis=1, keepdims=true)").unwrap();
    assert_eq!(show(&mut s, "k.shape == (3, 1)"), "true");
    // No NaN: exactly quantile's.
    assert_eq!(
        show(
            &mut s,
            "array_equal(nanquantile(x[2], [0.1, 0.7]), quantile(x[2], [0.1, 0.7]))"
        ),
        "true"
    );
    assert!(
        err(&mut s, "nanquantile(x, 1.5)").contains("nanquantile"),
        "q range error names nanquantile"
    );
}

#[test]
fn linear_algebra_names_follow_numpy() {
    let mut s = sess();
    same(
        &vals(&mut s, "vdot(array([[1, 2], [3, 4]]), array([1, 0, 2, 1]))"),
        &[11.0],
        "vdot",
    );
    same(
        &vals(
            &mut s,
            "vecdot(array([[1.0, 2.0], [3.0, 4.0]]), array([1.0, 1.0]))",
        ),
        &[3.0, 7.0],
        "vecdot",
    );
    same(
        &vals(
            &mut s,
            "vecdot(array([[1.0, 2.0], [3.0, 4.0]]), array([[1.0], [2.0]]), axis=0)",
        ),
        &[7.0, 10.0],
        "vecdot axis 0",
    );
    run(&mut s, "a = reshape(arange(6.0), (2, 3)); b = reshape(arange(12.0), (3, 4)); c = reshape(arange(8.0), (4, 2))").unwrap();
    assert_eq!(
        show(&mut s, "array_equal(multi_dot([a, b, c]), a @ b @ c)"),
        "true"
    );
    assert_eq!(
        show(
            &mut s,
            "multi_dot([arange(2.0), a, b, arange(4.0)]).shape == ()"
        ),
        "true"
    );
    assert_eq!(
        show(&mut s, "linalg.multi_dot([a, b]).shape == (2, 4)"),
        "true"
    );
    assert_eq!(
        show(
            &mut s,
            "matrix_transpose(zeros((2, 3, 4))).shape == (2, 4, 3)"
        ),
        "true"
    );
    assert_eq!(
        show(
            &mut s,
            "permute_dims(zeros((2, 3, 4)), (2, 0, 1)).shape == (4, 2, 3)"
        ),
        "true"
    );
    same(
        &vals(&mut s, "vector_norm(array([[3.0, 4.0], [0.0, 0.0]]))"),
        &[5.0],
        "vector_norm",
    );
    same(
        &vals(
            &mut s,
            "vector_norm(array([[3.0, 4.0], [6.0, 8.0]]), axis=1, ord=1)",
        ),
        &[7.0, 14.0],
        "vector_norm axis",
    );
    assert_eq!(
        show(
            &mut s,
            "vector_norm(ones((2, 3)), keepdims=true).shape == (1, 1)"
        ),
        "true"
    );
    same(
        &vals(&mut s, "matrix_norm(array([[3.0, 0.0], [0.0, 4.0]]))"),
        &[5.0],
        "matrix_norm",
    );
    same(
        &vals(
            &mut s,
            "matrix_norm(array([[3.0, 0.0], [0.0, 4.0]]), ord=1)",
        ),
        &[4.0],
        "matrix_norm 1",
    );
}

#[test]
fn bad_input_names_the_function_and_the_fix() {
    let mut s = sess();
    let cases = [
        ("gcd(array([1.5]), 2)", "gcd"),
        ("cumulative_sum(ones((2, 2)))", "axis must be given"),
        ("gradient(array([1.0]))", "at least edge_order + 1"),
        (
            "gradient(ones(4), edge_order=3)",
            "edge_order must be 1 or 2",
        ),
        (
            "interp(1.0, array([1.0, 2.0]), array([1.0]))",
            "not of the same length",
        ),
        ("interp(1.0, zeros(0), zeros(0))", "empty"),
        (
            "interp(1.0, array([1.0, 2.0]), array([1.0, 2.0]), period=0)",
            "period",
        ),
        ("multi_dot([ones((2, 3))])", "at least two"),
        ("multi_dot([ones((2, 3)), ones((2, 3))])", "columns"),
        (
            "multi_dot([ones((2, 3)), ones((3, 3, 1)), ones(3)])",
            "must be 2-d",
        ),
        ("vdot(ones(3), ones(4))", "must match"),
        ("vecdot(ones((2, 3)), ones(2))", "must match"),
        ("matrix_transpose(ones(3))", "at least 2"),
        ("matrix_norm(ones(3))", "at least 2"),
        ("trapezoid(ones(3), x=ones(4))", "x has 4 points"),
        ("around(ones(3), 1.5)", "decimals"),
        ("isclose(ones(2), ones(3))", "shape"),
        (
            "nanquantile(array([nan, 1.0]), 0.5, method=\"weibull\")",
            "weibull",
        ),
    ];
    for (code, needle) in cases {
        let e = err(&mut s, code);
        assert!(e.contains(needle), "{code}: {e}");
    }
    // The session goes on.
    assert_eq!(show(&mut s, "gcd(4, 6)"), "int 2");
}
