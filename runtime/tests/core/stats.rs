//! The statistics family on the CPU against float64 references computed
//! here (sorting, NumPy's formulas), with the edge cases NumPy users meet:
//! even and odd lanes, ties, NaN, infinities, size 1, empty lanes, negative
//! axes, keepdims, q lists; and the errors (argument, problem, fix).

use crate::grad_util::{Rng, run, session};
use gcalc_runtime::{Array, Session, Value};

fn eval(s: &mut Session, code: &str) -> Array {
    run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Array(a)) => a,
        _ => panic!("{code}: not an array"),
    }
}

/// Binds `name` to `a` (float64, written as a literal that reads back exactly).
fn set(s: &mut Session, name: &str, a: &Array) {
    let v: Vec<String> = a
        .to_f64_vec()
        .unwrap()
        .iter()
        .map(|x| format!("{x:?}"))
        .collect();
    let shape: Vec<String> = a.shape().iter().map(|d| d.to_string()).collect();
    let code = format!(
        "{name} = array([{}], dtype=float64).reshape(({},))",
        v.join(", "),
        shape.join(", ")
    );
    run(s, &code).unwrap_or_else(|e| panic!("set {name}: {e}"));
}

fn err(s: &mut Session, code: &str) -> String {
    match run(s, code) {
        Ok(()) => panic!("{code}: no error"),
        Err(e) => e,
    }
}

fn close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= tol * w.abs().max(1.0);
        assert!(ok, "{what}: element {k}: got {g}, want {w}");
    }
}

/// NumPy's linear quantile of one lane.
fn quantile_ref(lane: &[f64], q: f64) -> f64 {
    if lane.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let mut v = lane.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let vi = (v.len() as f64 - 1.0) * q;
    let lo = vi.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    let t = vi - lo as f64;
    let d = v[hi] - v[lo];
    if t >= 0.5 {
        v[hi] - d * (1.0 - t)
    } else {
        v[lo] + d * t
    }
}

fn median_ref(lane: &[f64]) -> f64 {
    if lane.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let mut v = lane.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    (v[(n - 1) / 2] + v[n / 2]) / 2.0
}

/// Lanes of a (rows, cols) row-major matrix along `axis`.
fn lanes(v: &[f64], rows: usize, cols: usize, axis: usize) -> Vec<Vec<f64>> {
    if axis == 1 {
        v.chunks(cols).map(|c| c.to_vec()).collect()
    } else {
        (0..cols)
            .map(|c| (0..rows).map(|r| v[r * cols + c]).collect())
            .collect()
    }
}

#[test]
fn median_and_quantiles_match_the_reference() {
    let (mut s, _) = session("float64");
    let mut r = Rng(11);
    for (rows, cols) in [(1, 1), (4, 7), (6, 8), (33, 10)] {
        let x = r.array(&[rows, cols], -5.0, 5.0);
        let mut v = x.to_f64_vec().unwrap();
        // Ties.
        v[0] = v[v.len() - 1];
        set(&mut s, "x", &Array::from_vec(v.clone(), vec![rows, cols]));
        for (axis, ax_text) in [(0, "0"), (1, "-1")] {
            let ls = lanes(&v, rows, cols, axis);
            let got = eval(&mut s, &format!("median(x, axis={ax_text})"));
            let want: Vec<f64> = ls.iter().map(|l| median_ref(l)).collect();
            close(&got.to_f64_vec().unwrap(), &want, 1e-15, "median");
            for q in [0.0, 0.1, 0.25, 0.5, 0.77, 1.0] {
                let got = eval(&mut s, &format!("quantile(x, {q}, axis={ax_text})"));
                let want: Vec<f64> = ls.iter().map(|l| quantile_ref(l, q)).collect();
                close(
                    &got.to_f64_vec().unwrap(),
                    &want,
                    1e-15,
                    &format!("quantile {q}"),
                );
                let got = eval(
                    &mut s,
                    &format!("percentile(x, {}, axis={ax_text})", q * 100.0),
                );
                close(
                    &got.to_f64_vec().unwrap(),
                    &want,
                    1e-12,
                    &format!("percentile {q}"),
                );
            }
        }
        let got = eval(&mut s, "median(x)");
        close(
            &got.to_f64_vec().unwrap(),
            &[median_ref(&v)],
            1e-15,
            "median of all",
        );
    }
}

#[test]
fn quantile_shapes_dtypes_and_nan() {
    let (mut s, _) = session("float32");
    let a = eval(
        &mut s,
        "quantile(arange(24).reshape(2, 3, 4), [0.2, 0.8], axis=(0, 2), keepdims=true)",
    );
    assert_eq!(a.shape(), &[2, 1, 3, 1]);
    assert_eq!(a.dtype().name(), "float64");
    let m = eval(
        &mut s,
        "median(array([[1.0, 2.0], [3.0, 4.0]], dtype=float32), axis=0)",
    );
    assert_eq!(m.dtype().name(), "float32");
    close(&m.to_f64_vec().unwrap(), &[2.0, 3.0], 0.0, "median float32");
    let q = eval(&mut s, "percentile(array([1.0, 2.0], dtype=float32), [50])");
    assert_eq!(
        q.dtype().name(),
        "float64",
        "a list q gives float64 (NumPy 2)"
    );
    let m = eval(&mut s, "median(arange(5))");
    assert_eq!(m.dtype().name(), "float64");
    let l = eval(&mut s, "quantile(arange(10), 0.33, method=\"lower\")");
    assert_eq!(l.dtype().name(), "int64");
    assert_eq!(l.to_f64_vec().unwrap(), vec![2.0]);
    for (m, want) in [("higher", 3.0), ("nearest", 3.0), ("midpoint", 2.5)] {
        let v = eval(
            &mut s,
            &format!("quantile(arange(10), 0.33, method=\"{m}\")"),
        );
        assert_eq!(v.to_f64_vec().unwrap(), vec![want], "{m}");
    }
    let n = eval(
        &mut s,
        "median(array([[1.0, 0.0, 3.0], [1.0, 2.0, 3.0]]) / array([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]]), axis=1)",
    );
    let nv = n.to_f64_vec().unwrap();
    assert!(nv[0].is_nan() && nv[1] == 2.0, "{nv:?}");
    let e = eval(&mut s, "median(zeros((3, 0)), axis=1)");
    assert!(e.to_f64_vec().unwrap().iter().all(|v| v.is_nan()));
    let i = eval(
        &mut s,
        "median(array([-1.0, 1.0, 1.0]) / array([0.0, 1.0, 0.0]))",
    );
    assert_eq!(i.to_f64_vec().unwrap(), vec![1.0]);
}

#[test]
fn quantile_errors_name_the_argument_and_the_fix() {
    let (mut s, _) = session("float64");
    let e = err(&mut s, "quantile(arange(4), 1.5)");
    assert!(e.contains("quantile") && e.contains("[0, 1]"), "{e}");
    let e = err(&mut s, "percentile(arange(4), -1)");
    assert!(e.contains("[0, 100]"), "{e}");
    let e = err(&mut s, "quantile(arange(4), 0.5, method=\"best\")");
    assert!(e.contains("unknown method"), "{e}");
    let e = err(&mut s, "median(arange(4), axis=3)");
    assert!(e.contains("axis"), "{e}");
    let e = err(&mut s, "quantile(zeros((2, 0)), 0.5, axis=1)");
    assert!(e.contains("empty"), "{e}");
}

#[test]
fn average_cov_corrcoef_match_the_reference() {
    let (mut s, _) = session("float64");
    let mut r = Rng(23);
    let x = r.array(&[3, 6], -2.0, 2.0);
    let w = r.array(&[6], 0.5, 2.0);
    let (xv, wv) = (x.to_f64_vec().unwrap(), w.to_f64_vec().unwrap());
    set(&mut s, "x", &x);
    set(&mut s, "w", &w);
    let got = eval(&mut s, "average(x, axis=1, weights=w)");
    let want: Vec<f64> = xv
        .chunks(6)
        .map(|row| row.iter().zip(&wv).map(|(a, b)| a * b).sum::<f64>() / wv.iter().sum::<f64>())
        .collect();
    close(&got.to_f64_vec().unwrap(), &want, 1e-14, "average");
    let means: Vec<f64> = xv.chunks(6).map(|r| r.iter().sum::<f64>() / 6.0).collect();
    let mut c = vec![0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            c[i * 3 + j] = (0..6)
                .map(|k| (xv[i * 6 + k] - means[i]) * (xv[j * 6 + k] - means[j]))
                .sum::<f64>()
                / 5.0;
        }
    }
    close(
        &eval(&mut s, "cov(x)").to_f64_vec().unwrap(),
        &c,
        1e-13,
        "cov",
    );
    let cc: Vec<f64> = (0..9)
        .map(|k| c[k] / (c[(k / 3) * 4] * c[(k % 3) * 4]).sqrt())
        .collect();
    close(
        &eval(&mut s, "corrcoef(x)").to_f64_vec().unwrap(),
        &cc,
        1e-13,
        "corrcoef",
    );
    let one = eval(&mut s, "cov(x[0])");
    assert_eq!(one.ndim(), 0);
    close(
        &one.to_f64_vec().unwrap(),
        &[c[0]],
        1e-13,
        "cov of one variable",
    );
    let e = err(&mut s, "average(x, weights=w)");
    assert!(e.contains("axis"), "{e}");
    let e = err(&mut s, "average(x, axis=1, weights=w - w)");
    assert!(e.contains("sum to zero"), "{e}");
    let e = err(&mut s, "cov(zeros((2, 2, 2)))");
    assert!(e.contains("dimensions"), "{e}");
}

#[test]
fn histogram_bincount_digitize_match_the_reference() {
    let (mut s, _) = session("float64");
    let mut r = Rng(31);
    let x = r.array(&[5000], -3.0, 3.0);
    let xv = x.to_f64_vec().unwrap();
    set(&mut s, "x", &x);
    run(&mut s, "h = histogram(x, bins=7)").unwrap();
    let (lo, hi) = xv
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let mut want = [0f64; 7];
    let step = (hi - lo) / 7.0;
    for &v in &xv {
        let mut k = ((v - lo) / step) as usize;
        k = k.min(6);
        let e = |i: usize| if i == 7 { hi } else { i as f64 * step + lo };
        if v < e(k) {
            k -= 1;
        } else if k != 6 && v >= e(k + 1) {
            k += 1;
        }
        want[k] += 1.0;
    }
    close(
        &eval(&mut s, "h[0]").to_f64_vec().unwrap(),
        &want,
        0.0,
        "histogram counts",
    );
    assert_eq!(eval(&mut s, "h[0]").dtype().name(), "int64");
    let edges = eval(&mut s, "h[1]").to_f64_vec().unwrap();
    assert_eq!((edges[0], edges[7]), (lo, hi));
    let d = eval(
        &mut s,
        "histogram(x, bins=4, range=(-1, 1), density=true)[0]",
    );
    let counts: Vec<f64> = (0..4)
        .map(|k| {
            let (a, b) = (-1.0 + 0.5 * k as f64, -0.5 + 0.5 * k as f64);
            xv.iter()
                .filter(|&&v| v >= a && (v < b || (k == 3 && v <= b)))
                .count() as f64
        })
        .collect();
    let total: f64 = counts.iter().sum();
    let dens: Vec<f64> = counts.iter().map(|c| c / 0.5 / total).collect();
    close(&d.to_f64_vec().unwrap(), &dens, 1e-14, "density");
    let b = eval(&mut s, "bincount(array([0, 1, 1, 3, 1]), minlength=6)");
    assert_eq!(b.to_f64_vec().unwrap(), vec![1.0, 3.0, 0.0, 1.0, 0.0, 0.0]);
    let bw = eval(
        &mut s,
        "bincount(array([2, 0, 2]), weights=array([0.5, 1.0, 0.25]))",
    );
    assert_eq!(bw.to_f64_vec().unwrap(), vec![1.0, 0.0, 0.75]);
    assert_eq!(bincount_empty(&mut s), 0);
    let dg = eval(
        &mut s,
        "digitize(array([-1.0, 0.0, 0.5, 1.0, 2.0, 0.0]) / array([1.0, 1.0, 1.0, 1.0, 1.0, 0.0]), array([0.0, 1.0, 2.0]))",
    );
    assert_eq!(dg.to_f64_vec().unwrap(), vec![0.0, 1.0, 1.0, 2.0, 3.0, 3.0]);
    let dr = eval(
        &mut s,
        "digitize(array([0.0, 1.0, 1.5]), array([0.0, 1.0, 2.0]), right=true)",
    );
    assert_eq!(dr.to_f64_vec().unwrap(), vec![0.0, 1.0, 2.0]);
    let dd = eval(
        &mut s,
        "digitize(array([0.0, 1.0, 1.5]), array([2.0, 1.0, 0.0]))",
    );
    assert_eq!(dd.to_f64_vec().unwrap(), vec![2.0, 1.0, 1.0]);
    for (code, needle) in [
        ("histogram(x, bins=0)", "positive"),
        ("histogram(x, range=(1, 0))", "range"),
        ("histogram(x, bins=array([0.0, 2.0, 1.0]))", "monotonically"),
        (
            "histogram(array([1.0, 1.0]) / array([1.0, 0.0]))",
            "not finite",
        ),
        ("bincount(array([1, -1]))", "negative"),
        ("bincount(array([1.0]))", "int"),
        ("bincount(array([1, 2]), weights=array([1.0]))", "weights"),
        ("digitize(x, array([0.0, 2.0, 1.0]))", "monoton"),
    ] {
        let e = err(&mut s, code);
        assert!(e.contains(needle), "{code}: {e}");
    }
}

fn bincount_empty(s: &mut Session) -> usize {
    eval(s, "bincount(zeros(0, dtype=int64))").size()
}
