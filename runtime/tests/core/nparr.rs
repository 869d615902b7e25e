//! NumPy 2's construction, manipulation, set and index-helper functions and
//! the further random draws (`ops/nparr/`) on the CPU: gradients against
//! central differences (the composites' gradients are their steps'), the
//! in-place writers, tuple results, the errors (function, argument, fix),
//! and the draws' sample moments against theory (NumPy's bit streams
//! differ, so values are not compared with NumPy's).

use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::{Session, Value};

fn vals(s: &mut Session, code: &str) -> Vec<f64> {
    run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Array(a)) => a.to_f64_vec().unwrap(),
        Some(Value::Float(f)) => vec![f],
        Some(Value::Int(i)) => vec![i as f64],
        _ => panic!("{code}: not an array or number"),
    }
}

/// `repr(code)` with the commas left out (gcalc writes the arrays inside a
/// tuple without them; the expectations are written NumPy's way).
fn text(s: &mut Session, code: &str) -> String {
    run(s, &format!("out = repr({code})")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Str(t)) => t.replace(',', ""),
        _ => panic!("{code}: repr gave no string"),
    }
}

macro_rules! assert_text {
    ($got:expr, $want:expr) => {
        assert_eq!($got, $want.replace(',', ""))
    };
    ($got:expr, $want:expr, $($m:tt)+) => {
        assert_eq!($got, $want.replace(',', ""), $($m)+)
    };
}

fn err(s: &mut Session, code: &str) -> String {
    match run(s, code) {
        Ok(()) => panic!("{code}: no error"),
        Err(e) => e,
    }
}

/// (body of `f(x, y)`, x's shape, y's shape, argnums).
const GRAD_CASES: &[(&str, &[usize], &[usize], &[usize])] = &[
    ("sum(sin(diagflat(x, k=1)) * 1.5)", &[2, 2], &[1], &[0]),
    ("sum(sin(vander(x, N=4)))", &[3], &[1], &[0]),
    (
        "sum(sin(vander(x, increasing=true)) * y)",
        &[3],
        &[3],
        &[0, 1],
    ),
    ("sum(sin(append(x, y)))", &[2, 3], &[4], &[0, 1]),
    ("sum(sin(append(x, x * y, axis=1)))", &[2, 3], &[3], &[0, 1]),
    (
        "sum(sin(delete(x, [0, -1], axis=1)) * 2.0)",
        &[3, 4],
        &[1],
        &[0],
    ),
    ("sum(sin(delete(x, 1)))", &[3, 4], &[1], &[0]),
    ("sum(sin(insert(x, 1, y, axis=0)))", &[3, 4], &[4], &[0, 1]),
    (
        "sum(sin(insert(x, [0, 2, 2], y, axis=1)))",
        &[3, 4],
        &[3, 1],
        &[0, 1],
    ),
    ("sum(sin(resize(x, (3, 5))))", &[2, 3], &[1], &[0]),
    (
        "sum(sin(choose(array([[0, 1, 1], [1, 0, 1]]), [x, y])))",
        &[2, 3],
        &[3],
        &[0, 1],
    ),
    (
        "sum(sin(select([x > 0.5, y < 0.0], [x * 2.0, y], default=1.0)))",
        &[2, 3],
        &[3],
        &[0, 1],
    ),
    (
        "sum(sin(piecewise(x, [x < 0.0, x >= 0.0], [fn(v) { v * v }, fn(v) { 3.0 * v }])))",
        &[2, 3],
        &[1],
        &[0],
    ),
    (
        "sum(sin(broadcast_arrays(x, y)[1] * broadcast_arrays(x, y)[0]))",
        &[2, 3],
        &[3],
        &[0, 1],
    ),
    ("sum(sin(rollaxis(x, 2) * y))", &[2, 3, 4], &[3], &[0, 1]),
    (
        "sum(sin(hsplit(x, [1])[1])) + sum(sin(vsplit(x, 2)[0]) * 2.0)",
        &[2, 3],
        &[1],
        &[0],
    ),
];

#[test]
fn gradients_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x9e3779b97f4a7c15);
    for (body, xs, ys, argnums) in GRAD_CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        check(&mut s, body, &args, argnums, 1e-6, 1e-6);
    }
}

#[test]
fn construction_values() {
    let (mut s, _) = session("float64");
    assert_eq!(
        vals(&mut s, "tri(3, 4, k=1)"),
        vec![1., 1., 0., 0., 1., 1., 1., 0., 1., 1., 1., 1.]
    );
    assert_text!(
        text(&mut s, "tril_indices(3)"),
        "(array([0, 1, 1, 2, 2, 2]), array([0, 0, 1, 0, 1, 2]))"
    );
    assert_eq!(
        vals(&mut s, "triu_indices(3, k=1, m=4)[1]"),
        vec![1., 2., 3., 2., 3., 3.]
    );
    assert_text!(
        text(&mut s, "diag_indices(2, ndim=3)"),
        "(array([0, 1]), array([0, 1]), array([0, 1]))"
    );
    assert_eq!(
        vals(&mut s, "indices((2, 3))"),
        vec![0., 0., 0., 1., 1., 1., 0., 1., 2., 0., 1., 2.]
    );
    assert_text!(text(&mut s, "indices((2, 3)).shape"), "(2, 2, 3)");
    assert_eq!(
        vals(&mut s, "ix_([0, 1], [true, false, true])[1]"),
        vec![0., 2.]
    );
    assert_text!(
        text(&mut s, "ix_([0, 1], [true, false, true])[1].shape"),
        "(1, 2)"
    );
    assert_eq!(
        vals(&mut s, "vander(array([1, 2, 3]))"),
        vec![1., 1., 1., 4., 2., 1., 9., 3., 1.]
    );
    assert_text!(text(&mut s, "vander(array([1, 2]), N=0).shape"), "(2, 0)");
    assert_eq!(vals(&mut s, "logspace(0, 2, 3)"), vec![1., 10., 100.]);
    assert_eq!(
        vals(&mut s, "geomspace(-1000, -1, 4)"),
        vec![-1000., -100., -10., -1.]
    );
    assert_text!(
        text(
            &mut s,
            "(ndim([[1, 2]]), shape([[1, 2]]), size(zeros((2, 3)), axis=-1), size(5))"
        ),
        "(2, (1, 2), 3, 1)"
    );
    run(&mut s, "x = zeros((2, 3)); y = asarray(x); y[0, 0] = 5.0").unwrap();
    assert_eq!(
        vals(&mut s, "x[0, 0]"),
        vec![5.0],
        "asarray of an array is the array"
    );
    assert_text!(text(&mut s, "asarray(x, dtype=int32).dtype"), "int32");
    assert_eq!(
        vals(&mut s, "empty_like(x, dtype=bool, shape=(4,))"),
        vec![0.; 4]
    );
    assert_text!(text(&mut s, "empty_like(x, dtype=bool).dtype"), "bool");
    assert!(err(&mut s, "asarray(x, dtype=int32, copy=false)").contains("copy"));
}

#[test]
fn manipulation_values() {
    let (mut s, _) = session("float64");
    run(&mut s, "a = arange(6).reshape((2, 3))").unwrap();
    assert_eq!(
        vals(&mut s, "append(a, [7, 8])"),
        vec![0., 1., 2., 3., 4., 5., 7., 8.]
    );
    assert_eq!(vals(&mut s, "delete(a, 1, axis=1)"), vec![0., 2., 3., 5.]);
    assert_eq!(vals(&mut s, "delete(a, range(0, 6, 2))"), vec![1., 3., 5.]);
    assert_eq!(
        vals(&mut s, "delete(a, array([true, false]), axis=0)"),
        vec![3., 4., 5.]
    );
    assert_eq!(
        vals(&mut s, "insert(a, 1, 9, axis=1)"),
        vec![0., 9., 1., 2., 3., 9., 4., 5.]
    );
    assert_eq!(
        vals(&mut s, "insert(a, [1, 1], [7, 8])"),
        vec![0., 7., 8., 1., 2., 3., 4., 5.]
    );
    // NumPy's scalar-obj rule: [[7], [8]] becomes one block of two columns.
    assert_eq!(
        vals(&mut s, "insert(a, 3, [[7], [8]], axis=1)"),
        vec![0., 1., 2., 7., 8., 3., 4., 5., 7., 8.]
    );
    assert_eq!(
        vals(&mut s, "insert(a, [3], [[7], [8]], axis=1)"),
        vec![0., 1., 2., 7., 3., 4., 5., 8.]
    );
    assert_text!(text(&mut s, "insert(a, 0, 2.7).dtype"), "int64");
    assert_eq!(
        vals(&mut s, "resize(array([1, 2, 3]), (2, 4))"),
        vec![1., 2., 3., 1., 2., 3., 1., 2.]
    );
    assert_eq!(vals(&mut s, "resize(zeros((0,)), (2,))"), vec![0., 0.]);
    assert_text!(
        text(&mut s, "rollaxis(zeros((2, 3, 4)), 2).shape"),
        "(4, 2, 3)"
    );
    assert_text!(
        text(&mut s, "rollaxis(zeros((2, 3, 4)), 0, 3).shape"),
        "(3, 4, 2)"
    );
    assert_text!(
        text(&mut s, "broadcast_shapes((2, 1), 3, (4, 1, 1))"),
        "(4, 2, 3)"
    );
    assert_text!(text(&mut s, "len(hsplit(zeros((2, 4)), 2))"), "2");
    assert_eq!(
        vals(&mut s, "choose(array([2, 0, 1]), [10, 20, 30])"),
        vec![30., 10., 20.]
    );
    assert_eq!(
        vals(
            &mut s,
            "choose(array([3, -1]), [10, 20, 30], mode=\"wrap\")"
        ),
        vec![10., 30.]
    );
    assert_eq!(
        vals(
            &mut s,
            "choose(array([3, -1]), [10, 20, 30], mode=\"clip\")"
        ),
        vec![30., 10.]
    );
    assert_eq!(
        vals(&mut s, "select([a < 2, a > 3], [a, a * 10], 42)"),
        vec![0., 1., 42., 42., 40., 50.]
    );
    assert_eq!(
        vals(
            &mut s,
            "piecewise(array([-1.0, 0.5, 2.0]), [array([true, false, false])], [fn(v) { -v }, 7.0])"
        ),
        vec![1., 7., 7.]
    );
    run(&mut s, "b = arange(6.0); put(b, [0, -1], [9.0, 8.0]); put(b, [10], 5.0, mode=\"clip\"); put(b, [7], 4.0, mode=\"wrap\")").unwrap();
    assert_eq!(vals(&mut s, "b"), vec![9., 4., 2., 3., 4., 5.]);
    run(
        &mut s,
        "c = arange(6.0).reshape((2, 3)); place(c, c > 2.0, [10.0, 20.0])",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "c"), vec![0., 1., 2., 10., 20., 10.]);
    run(&mut s, "g = zeros((2, 3)); put(g.T, [1], 4.0)").unwrap();
    assert_eq!(
        vals(&mut s, "g"),
        vec![0., 0., 0., 4., 0., 0.],
        "put writes through a view"
    );
}

#[test]
fn sets_and_index_helpers() {
    let (mut s, _) = session("float64");
    assert_text!(
        text(
            &mut s,
            "intersect1d([1, 3, 4, 3], [3, 1, 2, 1], return_indices=true)"
        ),
        "(array([1, 3]), array([0, 1]), array([1, 0]))"
    );
    assert_eq!(
        vals(&mut s, "union1d([-1, 0, 1], [-2, 0, 2])"),
        vec![-2., -1., 0., 1., 2.]
    );
    assert_eq!(
        vals(&mut s, "setdiff1d(array([1, 2, 3, 2, 4, 1]), [3, 4, 5, 6])"),
        vec![1., 2.]
    );
    assert_eq!(
        vals(&mut s, "setxor1d(array([1, 2, 3, 2, 4]), [2, 3, 5, 7, 5])"),
        vec![1., 4., 5., 7.]
    );
    assert_eq!(
        vals(&mut s, "intersect1d(zeros((0,)), [1.0])"),
        Vec::<f64>::new()
    );
    assert_text!(
        text(&mut s, "intersect1d(zeros((0,)), [1.0]).dtype"),
        "float64"
    );
    assert_eq!(
        vals(&mut s, "unique_values(array([2.0, nan, 1.0, nan]))").len(),
        4,
        "nans are distinct"
    );
    assert_text!(
        text(&mut s, "unique_counts(array([1, 1, 2]))"),
        "(array([1, 2]), array([2, 1]))"
    );
    assert_eq!(
        vals(&mut s, "unique_inverse(array([[3, 1], [1, 3]]))[1]"),
        vec![1., 0., 0., 1.]
    );
    assert_text!(text(&mut s, "len(unique_all(array([1, 1, 2])))"), "4");
    assert_eq!(
        vals(
            &mut s,
            "lexsort([array([1, 5, 1, 4, 3, 4, 4]), array([9, 4, 0, 4, 0, 2, 1])])"
        ),
        vec![2., 4., 6., 5., 3., 1., 0.]
    );
    assert_text!(
        text(&mut s, "unravel_index([22, 41, 37], (7, 6))"),
        "(array([3, 6, 6]), array([4, 5, 1]))"
    );
    assert_text!(
        text(&mut s, "unravel_index(1621, (6, 7, 8, 9))"),
        "(3, 1, 4, 1)"
    );
    assert_text!(
        text(&mut s, "unravel_index([31, 41, 13], (7, 6), order=\"F\")"),
        "(array([3, 6, 6]), array([4, 5, 1]))"
    );
    assert_eq!(
        vals(&mut s, "ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6))"),
        vec![22., 41., 37.]
    );
    assert_eq!(
        vals(
            &mut s,
            "ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6), order=\"F\")"
        ),
        vec![31., 41., 13.]
    );
    assert_eq!(
        vals(
            &mut s,
            "ravel_multi_index(([3, 8], [9, -1]), (4, 6), mode=\"clip\")"
        ),
        vec![23., 18.]
    );
    run(
        &mut s,
        "h = histogram2d(array([0.0, 1.0, 2.0, 2.0]), array([0.0, 0.0, 1.0, 3.0]), bins=2)",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "h[0]"), vec![1., 0., 2., 1.]);
    assert_eq!(vals(&mut s, "h[1]"), vec![0., 1., 2.]);
    assert_text!(text(&mut s, "h[0].dtype"), "float64");
    let d = vals(
        &mut s,
        "histogram2d(array([0.0, 1.0, 2.0, 2.0]), array([0.0, 0.0, 1.0, 3.0]), bins=2, density=true)[0]",
    );
    let want = [0.25 / 1.5, 0.0, 0.5 / 1.5, 0.25 / 1.5];
    for (g, w) in d.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "density {d:?}");
    }
    assert_eq!(
        vals(
            &mut s,
            "histogram2d([0.5, 1.5], [0.5, 1.5], bins=[[0.0, 1.0, 2.0], [0.0, 2.0]], weights=[2.0, 3.0])[0]"
        ),
        vec![2., 3.]
    );
}

#[test]
fn errors_name_the_function_and_the_fix() {
    let (mut s, _) = session("float64");
    for (code, want) in [
        (
            "delete(arange(3), 5)",
            "delete: index 5 is out of bounds for axis 0 with size 3",
        ),
        (
            "insert(arange(3), 9, 1)",
            "insert: index 9 is out of bounds",
        ),
        (
            "delete(arange(3), array([true]))",
            "boolean array argument obj",
        ),
        (
            "choose(array([0, 3]), [1, 2])",
            "invalid entry in choice array",
        ),
        ("choose(array([0.5]), [1, 2])", "Cannot cast"),
        (
            "select([arange(3)], [arange(3)])",
            "invalid entry 0 in condlist",
        ),
        ("select([], [])", "empty condition list"),
        ("geomspace(0, 1)", "Geometric sequence cannot include zero"),
        ("tril_indices_from(zeros(3))", "must be 2-d"),
        ("diag_indices_from(zeros((2, 3)))", "equal length"),
        (
            "hsplit(array(1.0), 2)",
            "hsplit only works on arrays of 1 or more dimensions",
        ),
        (
            "dsplit(zeros((2, 2)), 2)",
            "dsplit only works on arrays of 3 or more dimensions",
        ),
        ("rollaxis(zeros((2, 3)), 0, 5)", "'start' arg requires"),
        ("broadcast_shapes((2,), (3,))", "shape mismatch"),
        ("resize(arange(3), (-1, 2))", "non-negative"),
        ("put(arange(3), [5], 1)", "index 5 is out of bounds"),
        ("put([1, 2], [0], 1)", "must be an array to write into"),
        (
            "unravel_index(12, (3, 4))",
            "index 12 is out of bounds for array with size 12",
        ),
        (
            "ravel_multi_index(([0, 5],), (3,))",
            "invalid entry in coordinates array",
        ),
        ("lexsort([])", "need sequence of keys"),
        ("vander(zeros((2, 2)))", "one-dimensional"),
        ("ix_(zeros((2, 2)))", "Cross index must be 1 dimensional"),
        ("histogram2d([1.0], [1.0, 2.0])", "one length"),
        ("histogram2d([1.0], [1.0], bins=0)", "must be positive"),
        (
            "histogram2d([1.0], [1.0], bins=[[2.0, 1.0], 2])",
            "monotonically increasing",
        ),
        ("laplace(0.0, -1.0, 3)", "laplace: needs scale >= 0"),
        ("geometric(1.5, 3)", "0 < p <= 1"),
        ("chisquare(array([1.0, 0.0]), 2)", "df > 0"),
        ("integers(5, 5)", "low >= high"),
        ("multinomial(10, [0.7, 0.6, 0.1])", "sum(pvals[:-1]) > 1.0"),
        ("dirichlet([1.0, -1.0])", "alpha >= 0"),
        ("random(3, dtype=int32)", "float dtype"),
        ("logspace(0, 1, num=-1)", "must be non-negative"),
    ] {
        let e = err(&mut s, code);
        assert!(e.contains(want), "{code}: {e}");
    }
    // The session goes on.
    assert_eq!(vals(&mut s, "size(arange(4))"), vec![4.0]);
}

/// Sample mean and variance.
fn moments(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    (m, v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n)
}

#[test]
fn draws_match_their_moments() {
    let (mut s, _) = session("float64");
    run(&mut s, "seed(1234)").unwrap();
    let pi = std::f64::consts::PI;
    let euler = 0.5772156649015329;
    // (call, mean, variance); n = 200,000 draws each: the tolerance is six
    // standard errors of the mean and a relative 4% on the variance.
    let cases: &[(&str, f64, f64)] = &[
        ("random(200000)", 0.5, 1.0 / 12.0),
        ("standard_normal(200000)", 0.0, 1.0),
        ("integers(1, 7, 200000)", 3.5, 35.0 / 12.0),
        ("integers(6, shape=200000, endpoint=true)", 3.0, 4.0),
        ("laplace(1.0, 2.0, 200000)", 1.0, 8.0),
        (
            "lognormal(0.0, 0.5, 200000)",
            (0.125f64).exp(),
            ((0.25f64).exp() - 1.0) * (0.25f64).exp(),
        ),
        ("logistic(-1.0, 0.5, 200000)", -1.0, 0.25 * pi * pi / 3.0),
        (
            "gumbel(2.0, 1.5, 200000)",
            2.0 + 1.5 * euler,
            pi * pi / 6.0 * 2.25,
        ),
        ("geometric(0.25, 200000)", 4.0, 0.75 / 0.0625),
        ("geometric(0.6, 200000)", 1.0 / 0.6, 0.4 / 0.36),
        ("chisquare(3.0, 200000)", 3.0, 6.0),
        ("standard_t(10.0, 200000)", 0.0, 10.0 / 8.0),
        ("weibull(2.0, 200000)", (pi).sqrt() / 2.0, 1.0 - pi / 4.0),
        ("pareto(5.0, 200000)", 0.25, 5.0 / (16.0 * 3.0)),
        (
            "rayleigh(2.0, 200000)",
            2.0 * (pi / 2.0).sqrt(),
            (4.0 - pi) / 2.0 * 4.0,
        ),
    ];
    for (code, mean, var) in cases {
        let v = vals(&mut s, code);
        assert_eq!(v.len(), 200_000, "{code}");
        let (m, va) = moments(&v);
        let se = (var / v.len() as f64).sqrt();
        assert!((m - mean).abs() < 6.0 * se, "{code}: mean {m}, want {mean}");
        assert!(
            (va - var).abs() < 0.04 * var,
            "{code}: variance {va}, want {var}"
        );
    }
    assert_text!(text(&mut s, "geometric(0.3, 5).dtype"), "int64");
    assert!(
        vals(&mut s, "geometric(0.9, 1000)")
            .iter()
            .all(|&k| k >= 1.0)
    );
    // multinomial: counts sum to n, means n p.
    let m = vals(&mut s, "multinomial(20, [0.2, 0.3, 0.5], shape=50000)");
    assert_eq!(m.len(), 150_000);
    for (k, p) in [0.2, 0.3, 0.5].iter().enumerate() {
        let col: Vec<f64> = m.iter().skip(k).step_by(3).copied().collect();
        let (mu, var) = moments(&col);
        assert!(
            (mu - 20.0 * p).abs() < 0.05,
            "multinomial column {k}: mean {mu}"
        );
        assert!(
            (var - 20.0 * p * (1.0 - p)).abs() < 0.1 * 20.0 * p * (1.0 - p),
            "column {k}: var {var}"
        );
    }
    assert!(m.chunks(3).all(|r| r.iter().sum::<f64>() == 20.0));
    // dirichlet: rows sum to 1, means alpha / sum(alpha).
    let d = vals(&mut s, "dirichlet([1.0, 2.0, 3.0], shape=50000)");
    assert!(
        d.chunks(3)
            .all(|r| (r.iter().sum::<f64>() - 1.0).abs() < 1e-12)
    );
    for (k, w) in [1.0 / 6.0, 2.0 / 6.0, 3.0 / 6.0].iter().enumerate() {
        let col: Vec<f64> = d.iter().skip(k).step_by(3).copied().collect();
        assert!((moments(&col).0 - w).abs() < 0.005, "dirichlet column {k}");
    }
    // Array parameters broadcast; no shape gives their shape; rand() is a float.
    assert_text!(
        text(&mut s, "laplace(array([0.0, 100.0]), 1.0).shape"),
        "(2)"
    );
    assert_text!(
        text(&mut s, "gumbel(zeros((2, 1)), 1.0, shape=(2, 3)).shape"),
        "(2, 3)"
    );
    assert_text!(text(&mut s, "type(rand())"), "\"float\"");
    assert_text!(text(&mut s, "type(random())"), "\"float\"");
    assert_text!(
        text(&mut s, "random((2, 2), dtype=float32).dtype"),
        "float32"
    );
    // The same seed gives the same numbers.
    let a = vals(&mut s, "(seed(7), laplace(0.0, 1.0, 5))[1]");
    let b = vals(&mut s, "(seed(7), laplace(0.0, 1.0, 5))[1]");
    assert_eq!(a, b);
}
