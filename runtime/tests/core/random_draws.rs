//! The draws of `exponential poisson binomial bernoulli gamma beta choice
//! permutation shuffle` against their laws, from fixed seeds (deterministic:
//! a test passes or fails the same way every run): moments, and a
//! Kolmogorov-Smirnov test (continuous) or a chi-square test (discrete) at a
//! level of 1e-4; parameters broadcasting against the shape, dtypes,
//! reproducibility, how far each draw advances the generator, in-place
//! shuffles of views, and the errors NumPy raises.

use crate::grad_util::{run, session};
use gcalc_runtime::backend::random as draws;
use gcalc_runtime::opid::Dist;
use gcalc_runtime::random::{Param, Rng};
use gcalc_runtime::{DType, Device, Session, Value};

fn draw(d: Dist, a: f64, b: f64, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng::default();
    rng.seed(seed);
    let x = draws::draw(
        &mut rng,
        d,
        Param::Scalar(a),
        Param::Scalar(b),
        &[n],
        DType::Float64,
        Device::Cpu,
    )
    .expect("draw");
    x.to_f64_vec().expect("read")
}

pub(crate) fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (
        m,
        x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0),
    )
}

/// The sample mean and variance within 5 standard errors of the law's.
pub(crate) fn assert_moments(what: &str, x: &[f64], mean: f64, var: f64) {
    let n = x.len() as f64;
    let (m, v) = mean_var(x);
    assert!(
        (m - mean).abs() <= 5.0 * (var / n).sqrt(),
        "{what}: mean {m}, want {mean}"
    );
    // The variance's standard error, assuming a kurtosis below 10 + 6/k.
    assert!(
        (v - var).abs() <= 5.0 * var * (12.0 / n).sqrt() + 1e-12,
        "{what}: variance {v}, want {var}"
    );
}

/// Kolmogorov-Smirnov: sup |F_n - F| below its 1e-4 critical value (about
/// 2.1 / sqrt(n)). The laws below put no mass on values rounding to one
/// float (beta(0.05, 0.1) would: about 1% of it lies within 2^-54 of 1).
pub(crate) fn assert_ks(what: &str, x: &[f64], cdf: impl Fn(f64) -> f64) {
    let mut s = x.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    let d = s
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let f = cdf(v);
            (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs())
        })
        .fold(0.0, f64::max);
    assert!(
        d * n.sqrt() < 2.1,
        "{what}: KS statistic {d} (sqrt(n) D = {})",
        d * n.sqrt()
    );
}

/// Chi-square of counts against probabilities (cells with expected counts
/// below 5 merged into their neighbour), below the 1e-4 critical value.
pub(crate) fn assert_chi2(what: &str, counts: &[f64], probs: &[f64]) {
    let n: f64 = counts.iter().sum();
    let (mut cells, mut o, mut e) = (Vec::new(), 0.0, 0.0);
    for (c, p) in counts.iter().zip(probs) {
        o += c;
        e += p * n;
        if e >= 5.0 {
            cells.push((o, e));
            (o, e) = (0.0, 0.0);
        }
    }
    if let Some(last) = cells.last_mut() {
        last.0 += o;
        last.1 += e;
    }
    let chi: f64 = cells.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    let df = cells.len() as f64 - 1.0;
    // Wilson-Hilferty: the chi-square quantile at 1 - 1e-4 (z = 3.719).
    let crit = df * (1.0 - 2.0 / (9.0 * df) + 3.719 * (2.0 / (9.0 * df)).sqrt()).powi(3);
    assert!(
        chi < crit,
        "{what}: chi-square {chi} over {df} degrees of freedom (critical {crit})"
    );
}

/// Counts of the integer values 0..len.
pub(crate) fn histogram(x: &[f64], len: usize) -> Vec<f64> {
    let mut h = vec![0.0; len];
    for &v in x {
        assert!(v >= 0.0 && v.fract() == 0.0, "not a count: {v}");
        let k = (v as usize).min(len - 1);
        h[k] += 1.0;
    }
    h
}

fn ln_gamma(x: f64) -> f64 {
    libm::lgamma(x)
}

/// The regularized lower incomplete gamma P(k, x) (series, or continued fraction).
pub(crate) fn gamma_p(k: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let lead = (k * x.ln() - x - ln_gamma(k)).exp();
    if x < k + 1.0 {
        let (mut sum, mut term, mut a) = (1.0 / k, 1.0 / k, k);
        for _ in 0..10_000 {
            a += 1.0;
            term *= x / a;
            sum += term;
            if term < sum * 1e-16 {
                break;
            }
        }
        return sum * lead;
    }
    // Lentz's continued fraction for Q.
    let (mut b, mut c, mut d) = (x + 1.0 - k, 1e300, 1.0 / (x + 1.0 - k));
    let mut h = d;
    for i in 1..10_000 {
        let an = -(i as f64) * (i as f64 - k);
        b += 2.0;
        d = an * d + b;
        d = if d.abs() < 1e-300 { 1e-300 } else { d };
        c = b + an / c;
        c = if c.abs() < 1e-300 { 1e-300 } else { c };
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-16 {
            break;
        }
    }
    1.0 - lead * h
}

/// The regularized incomplete beta I_x(a, b) (continued fraction).
fn beta_i(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let lead =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    let cf = |a: f64, b: f64, x: f64| {
        let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
        let (mut c, mut d) = (1.0, 1.0 - qab * x / qap);
        d = 1.0 / if d.abs() < 1e-300 { 1e-300 } else { d };
        let mut h = d;
        for m in 1..10_000 {
            let m = m as f64;
            let m2 = 2.0 * m;
            for aa in [
                m * (b - m) * x / ((qam + m2) * (a + m2)),
                -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
            ] {
                d = 1.0 + aa * d;
                d = 1.0 / if d.abs() < 1e-300 { 1e-300 } else { d };
                c = 1.0 + aa / c;
                c = if c.abs() < 1e-300 { 1e-300 } else { c };
                h *= d * c;
            }
            if (d * c - 1.0).abs() < 1e-15 {
                break;
            }
        }
        h
    };
    if x < (a + 1.0) / (a + b + 2.0) {
        lead * cf(a, b, x) / a
    } else {
        1.0 - lead * cf(b, a, 1.0 - x) / b
    }
}

const N: usize = 100_000;

#[test]
fn continuous_draws_follow_their_laws() {
    let x = draw(Dist::Exponential, 2.0, 0.0, N, 1);
    assert_moments("exponential(2)", &x, 2.0, 4.0);
    assert_ks("exponential(2)", &x, |v| 1.0 - (-v / 2.0).exp());
    for (k, theta) in [(0.3, 1.0), (1.0, 2.0), (4.5, 1.5), (250.0, 0.1)] {
        let x = draw(Dist::Gamma, k, theta, N, 2);
        let what = format!("gamma({k}, {theta})");
        assert_moments(&what, &x, k * theta, k * theta * theta);
        assert_ks(&what, &x, |v| gamma_p(k, v / theta));
    }
    for (a, b) in [(0.5, 0.5), (2.0, 5.0), (0.05, 0.5), (30.0, 3.0)] {
        let x = draw(Dist::Beta, a, b, N, 3);
        let what = format!("beta({a}, {b})");
        assert!(
            x.iter().all(|&v| (0.0..=1.0).contains(&v)),
            "{what} in [0, 1]"
        );
        let s = a + b;
        assert_moments(&what, &x, a / s, a * b / (s * s * (s + 1.0)));
        assert_ks(&what, &x, |v| beta_i(a, b, v));
    }
    // Tiny shapes: the gamma variates underflow (U^1000), their logs do not.
    let x = draw(Dist::Beta, 1e-3, 1e-3, N, 3);
    assert!(
        x.iter().all(|&v| (0.0..=1.0).contains(&v)),
        "beta(1e-3, 1e-3) in [0, 1]"
    );
    assert_moments("beta(1e-3, 1e-3)", &x, 0.5, 1e-6 / (4e-6 * 1.002));
}

#[test]
fn discrete_draws_follow_their_laws() {
    for lam in [0.7, 4.0, 9.99, 10.0, 37.5, 1e4] {
        let x = draw(Dist::Poisson, lam, 0.0, N, 4);
        let what = format!("poisson({lam})");
        assert_moments(&what, &x, lam, lam);
        let len = (lam + 10.0 * lam.sqrt() + 10.0) as usize;
        let probs: Vec<f64> = (0..len)
            .map(|k| (k as f64 * lam.ln() - lam - ln_gamma(k as f64 + 1.0)).exp())
            .collect();
        assert_chi2(&what, &histogram(&x, len), &probs);
    }
    for (n, p) in [
        (7.0, 0.8),
        (20.0, 0.3),
        (1000.0, 0.05),
        (100.0, 0.9),
        (5000.0, 0.5),
        (1.0, 0.25),
    ] {
        let x = draw(Dist::Binomial, n, p, N, 5);
        let what = format!("binomial({n}, {p})");
        assert!(x.iter().all(|&v| v >= 0.0 && v <= n), "{what} in [0, n]");
        assert_moments(&what, &x, n * p, n * p * (1.0 - p));
        let lc = |k: f64| ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0);
        let probs: Vec<f64> = (0..=n as usize)
            .map(|k| (lc(k as f64) + k as f64 * p.ln() + (n - k as f64) * (1.0 - p).ln()).exp())
            .collect();
        assert_chi2(&what, &histogram(&x, n as usize + 1), &probs);
    }
    for p in [0.3, 1e-3, 0.0, 1.0] {
        let x = draw(Dist::Bernoulli, p, 0.0, N, 6);
        assert_moments(&format!("bernoulli({p})"), &x, p, p * (1.0 - p));
    }
}

pub(crate) fn arr(s: &mut Session, expr: &str) -> (Vec<f64>, Vec<usize>, DType, Device) {
    run(s, &format!("out = {expr}")).unwrap_or_else(|e| panic!("{expr}: {e}"));
    match s.get("out") {
        Some(Value::Array(a)) => (
            a.to_f64_vec().expect("read"),
            a.shape().to_vec(),
            a.dtype(),
            a.device(),
        ),
        other => panic!("{expr}: {:?}", other.map(|v| v.type_name())),
    }
}

pub(crate) fn err(s: &mut Session, code: &str) -> String {
    run(s, code)
        .err()
        .unwrap_or_else(|| panic!("{code} gave no error"))
}

#[test]
fn choice_and_permutations_follow_their_laws() {
    let (mut s, _) = session("float32");
    run(&mut s, "seed(11)").unwrap();
    let (x, shape, dt, _) = arr(&mut s, "choice(10, 100000)");
    assert_eq!((shape, dt), (vec![100_000], DType::Int64));
    assert_chi2("choice(10)", &histogram(&x, 10), &[0.1; 10]);
    let p = [0.05, 0.0, 0.25, 0.1, 0.6];
    let (x, ..) = arr(
        &mut s,
        "choice(5, 100000, p=array([0.05, 0.0, 0.25, 0.1, 0.6], dtype=float64))",
    );
    assert_eq!(
        histogram(&x, 5)[1],
        0.0,
        "a zero probability is never chosen"
    );
    assert_chi2("choice(5, p)", &histogram(&x, 5), &p);
    // Without replacement: distinct, and the first pick of each sample follows p.
    let mut first = vec![0.0; 5];
    for _ in 0..20_000 {
        let (x, ..) = arr(
            &mut s,
            "choice(5, 3, replace=false, p=array([0.05, 0.0, 0.25, 0.1, 0.6], dtype=float64))",
        );
        assert!(
            x[0] != x[1] && x[1] != x[2] && x[0] != x[2] && !x.contains(&1.0),
            "{x:?}"
        );
        first[x[0] as usize] += 1.0;
    }
    assert_chi2("choice(5, 3, replace=false, p) first picks", &first, &p);
    // Permutations: every value at every position equally often.
    let mut rng = Rng::default();
    rng.seed(12);
    let n = 8;
    let mut at = vec![0.0; n * n];
    for _ in 0..40_000 {
        let pm = draws::perm_index(&mut rng, n, n as u64, Device::Cpu)
            .unwrap()
            .to_vec::<i64>()
            .unwrap();
        let mut seen = [false; 8];
        for (pos, &v) in pm.iter().enumerate() {
            assert!(!seen[v as usize]);
            seen[v as usize] = true;
            at[pos * n + v as usize] += 1.0;
        }
    }
    for pos in 0..n {
        assert_chi2(
            &format!("permutation position {pos}"),
            &at[pos * n..(pos + 1) * n],
            &[1.0 / n as f64; 8],
        );
    }
    // Adjacent pairs in order: each of the 56 ordered pairs equally often at positions (0, 1).
    let mut pairs = vec![0.0; n * n];
    for _ in 0..56_000 {
        let pm = draws::perm_index(&mut rng, 2, n as u64, Device::Cpu)
            .unwrap()
            .to_vec::<i64>()
            .unwrap();
        pairs[pm[0] as usize * n + pm[1] as usize] += 1.0;
    }
    let (o, e): (Vec<f64>, Vec<f64>) = (0..n * n)
        .filter(|k| k / n != k % n)
        .map(|k| (pairs[k], 1.0 / 56.0))
        .unzip();
    assert_chi2("permutation pairs", &o, &e);
}

#[test]
fn size_is_numpys_name_for_shape() {
    let (mut s, _) = session("float32");
    for (by_size, by_shape) in [
        ("exponential(2.0, size=(2, 3))", "exponential(2.0, (2, 3))"),
        ("poisson(3.0, size=4)", "poisson(3.0, 4)"),
        ("binomial(10, 0.3, size=5)", "binomial(10, 0.3, 5)"),
        ("gamma(2.0, 1.5, size=3)", "gamma(2.0, 1.5, 3)"),
        ("beta(2.0, 3.0, size=3)", "beta(2.0, 3.0, 3)"),
        ("bernoulli(0.3, size=6)", "bernoulli(0.3, 6)"),
        (
            "choice(7, size=(2, 2), replace=false)",
            "choice(7, (2, 2), replace=false)",
        ),
        ("randint(0, 9, size=5)", "randint(0, 9, 5)"),
        ("normal(1.0, 2.0, size=(3, 1))", "normal(1.0, 2.0, (3, 1))"),
    ] {
        run(&mut s, "seed(21)").unwrap();
        let a = arr(&mut s, by_size);
        run(&mut s, "seed(21)").unwrap();
        let b = arr(&mut s, by_shape);
        assert_eq!(a, b, "{by_size} vs {by_shape}");
    }
    for code in [
        "exponential(1.0, 3, size=3)",
        "rand(2, size=2)",
        "choice(5, shape=2, size=2)",
    ] {
        let e = err(&mut s, code);
        assert!(e.contains("shape given twice"), "{code}: {e}");
    }
}

#[test]
fn parameters_broadcast_and_dtypes_follow_the_rules() {
    let (mut s, _) = session("float32");
    run(&mut s, "seed(3)").unwrap();
    let (x, shape, dt, dev) = arr(&mut s, "exponential(array([1.0, 100.0]), (50000, 2))");
    assert_eq!(
        (shape, dt, dev),
        (vec![50_000, 2], DType::Float32, Device::Cpu)
    );
    let col = |c: usize| x.iter().skip(c).step_by(2).copied().collect::<Vec<f64>>();
    assert_moments("scale 1 column", &col(0), 1.0, 1.0);
    assert_moments("scale 100 column", &col(1), 100.0, 10_000.0);
    assert_eq!(
        arr(&mut s, "poisson(array([[1.0], [2.0]]))").1,
        vec![2, 1],
        "no shape: the parameters' shape"
    );
    assert_eq!(
        arr(&mut s, "binomial(array([1, 2, 3]), array([[0.5], [0.2]]))").1,
        vec![2, 3]
    );
    // Number parameters and no size: one Python number, as NumPy's (a
    // float draw in float64); a size of none is no size.
    run(
        &mut s,
        "g0 = gamma(2.0); p0 = poisson(2.0, size=none); c0 = choice(5); e0 = exponential(dtype=float32)",
    )
    .unwrap();
    assert!(
        matches!(s.get("g0"), Some(Value::Float(v)) if v > 0.0),
        "gamma(2.0)"
    );
    assert!(
        matches!(s.get("p0"), Some(Value::Int(v)) if v >= 0),
        "poisson(2.0)"
    );
    assert!(
        matches!(s.get("c0"), Some(Value::Int(v)) if (0..5).contains(&v)),
        "choice(5)"
    );
    assert!(
        matches!(s.get("e0"), Some(Value::Float(v)) if v == f64::from(v as f32)),
        "dtype=float32 draws a float32 value"
    );
    // An array parameter keeps its array (NumPy: an array of its shape).
    assert_eq!(arr(&mut s, "gamma(array(2.0))").1, Vec::<usize>::new());
    assert_eq!(arr(&mut s, "poisson(2.0, 4)").2, DType::Int64);
    assert_eq!(
        arr(&mut s, "binomial(4, 0.5, 4, dtype=int32)").2,
        DType::Int32
    );
    assert_eq!(arr(&mut s, "bernoulli(0.5, 4)").2, DType::Float32);
    let (b, _, dt, _) = arr(&mut s, "bernoulli(0.5, 1000, dtype=bool)");
    assert_eq!(dt, DType::Bool);
    assert!(b.contains(&1.0) && b.contains(&0.0));
    assert_eq!(
        arr(&mut s, "gamma(2.0, 3.0, (2, 2), dtype=float64)").2,
        DType::Float64
    );
    assert_eq!(
        arr(&mut s, "beta(2.0, 3.0, 3, dtype=float16)").2,
        DType::Float16
    );
    assert_eq!(arr(&mut s, "exponential(shape=3, device=cpu())").1, vec![3]);
    let (c, shape, dt, _) = arr(&mut s, "choice(array([[1, 2], [3, 4], [5, 6]]), (4, 5))");
    assert_eq!((shape, dt), (vec![4, 5, 2], DType::Int64));
    assert!(
        c.chunks(2).all(|r| r[1] == r[0] + 1.0),
        "whole rows are chosen"
    );
    assert_eq!(
        arr(&mut s, "choice(array([1, 2, 3]))").1,
        Vec::<usize>::new()
    );
    assert_eq!(arr(&mut s, "choice(5, 3, dtype=int32)").2, DType::Int32);
    assert_eq!(arr(&mut s, "choice(array([1.5, 2.5]), 0)").1, vec![0]);
    assert_eq!(
        arr(
            &mut s,
            "permutation(array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))"
        )
        .1,
        vec![3, 2]
    );
    assert_eq!(arr(&mut s, "exponential(1.0, 0)").0.len(), 0);
}

#[test]
fn the_same_seed_gives_the_same_numbers_and_draws_advance_the_stream() {
    let (mut s, _) = session("float64");
    let code = "seed(5); a = gamma(0.5, 2.0, 7); b = poisson(3.0, 5); c = choice(9, 4, replace=false); d = exponential(1.0, 3)";
    let mut seen = Vec::new();
    for _ in 0..2 {
        run(&mut s, code).unwrap();
        let vals: Vec<Vec<f64>> = ["a", "b", "c", "d"]
            .iter()
            .map(|v| match s.get(v) {
                Some(Value::Array(x)) => x.to_f64_vec().unwrap(),
                _ => panic!("{v}"),
            })
            .collect();
        seen.push(vals);
    }
    assert_eq!(seen[0], seen[1]);
    assert_ne!(seen[0][0][0], seen[0][0][1]);
    // The counter advances by what each draw is documented to use.
    let cases: [(Dist, usize, u64); 4] = [
        (Dist::Exponential, 5, 3),
        (Dist::Bernoulli, 8, 4),
        (Dist::Gamma, 7, 7),
        (Dist::Binomial, 3, 3),
    ];
    for (d, n, blocks) in cases {
        let mut rng = Rng::default();
        draws::draw(
            &mut rng,
            d,
            Param::Scalar(0.5),
            Param::Scalar(2.0),
            &[n],
            DType::Float64,
            Device::Cpu,
        )
        .unwrap();
        assert_eq!(rng.counter, blocks, "{d:?} of {n}");
    }
    let mut rng = Rng::default();
    draws::perm_index(&mut rng, 5, 10, Device::Cpu).unwrap();
    assert_eq!(rng.counter, 1);
}

#[test]
fn shuffle_works_in_place_on_rows_and_views() {
    let (mut s, _) = session("float32");
    run(&mut s, "seed(9); x = arange(20); shuffle(x); m = arange(12).reshape((4, 3)); shuffle(m); y = arange(10); v = y[2:8]; shuffle(v)").unwrap();
    let get = |s: &Session, n: &str| match s.get(n) {
        Some(Value::Array(a)) => a.to_f64_vec().unwrap(),
        _ => panic!("{n}"),
    };
    let mut x = get(&s, "x");
    assert_ne!(x, (0..20).map(f64::from).collect::<Vec<_>>(), "shuffled");
    x.sort_by(f64::total_cmp);
    assert_eq!(x, (0..20).map(f64::from).collect::<Vec<_>>());
    let m = get(&s, "m");
    assert!(
        m.chunks(3)
            .all(|r| r[0] % 3.0 == 0.0 && r[1] == r[0] + 1.0 && r[2] == r[0] + 2.0),
        "rows move whole: {m:?}"
    );
    let y = get(&s, "y");
    assert_eq!(&y[..2], &[0.0, 1.0]);
    assert_eq!(&y[8..], &[8.0, 9.0]);
    let mut mid = y[2..8].to_vec();
    mid.sort_by(f64::total_cmp);
    assert_eq!(
        mid,
        vec![2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
        "the view's base holds the shuffle"
    );
    assert!(matches!(s.get("x"), Some(Value::Array(_))));
    run(&mut s, "r = shuffle(arange(3))").unwrap();
    assert!(
        matches!(s.get("r"), Some(Value::None)),
        "shuffle gives none, as NumPy's"
    );
}

#[test]
fn bad_arguments_are_clear_errors() {
    let (mut s, _) = session("float32");
    let cases: [(&str, &str); 18] = [
        ("exponential(-1.0, 3)", "scale must be >= 0, got -1"),
        // NumPy refuses -0.0 (its sign bit) for scales and shapes.
        ("exponential(-0.0, 3)", "scale must be >= 0, got -0"),
        (
            "gamma(array([1.0, -0.0, 0.0]))",
            "k must be >= 0, got an array holding -0",
        ),
        (
            "poisson(array([1.0, -2.0]), 2)",
            "lam must be >= 0, got an array holding -2",
        ),
        ("poisson(1e19)", "lam is too large"),
        ("binomial(-1, 0.5)", "n must be >= 0"),
        (
            "binomial(array([2.5, 3.0]), 0.5)",
            "n must be an integer, got an array holding 2.5",
        ),
        ("binomial(3, 1.5)", "p must be in [0, 1], got 1.5"),
        ("bernoulli(float(\"nan\"))", "p must be in [0, 1], got NaN"),
        ("gamma(2.0, -1.0)", "theta must be >= 0"),
        ("beta(0.0, 1.0)", "a must be > 0"),
        (
            "choice(3, 5, replace=false)",
            "cannot take a larger sample (5) than the population (3)",
        ),
        (
            "choice(3, 2, p=array([0.5, 0.6, 0.1]))",
            "probabilities do not sum to 1",
        ),
        (
            "choice(3, 2, p=array([0.5, -0.1, 0.6]))",
            "probabilities are not non-negative",
        ),
        (
            "choice(3, 2, p=array([0.5, 0.5]))",
            "a and p must have the same size (3 and 2)",
        ),
        (
            "choice(0, 2)",
            "a cannot be empty unless no samples are taken",
        ),
        (
            "exponential(array([1.0, 2.0]), (3,))",
            "scale of shape (2,) does not broadcast to the shape (3,)",
        ),
        (
            "exponential(1.0, 3, dtype=int64)",
            "exponential makes floating-point values, not int64",
        ),
    ];
    for (code, want) in cases {
        let e = err(&mut s, code);
        assert!(e.contains(want), "{code}: {e}");
    }
    for (code, want) in [
        (
            "choice(4, 3, replace=false, p=array([0.5, 0.5, 0.0, 0.0]))",
            "fewer non-zero entries in p",
        ),
        ("shuffle(3)", "shuffle: x must be an array"),
        (
            "permutation(array(3))",
            "x must be an integer or at least 1-dimensional",
        ),
        ("gamma()", "missing required argument `k`"),
        ("choice(3, 2, replace=1)", "replace must be true or false"),
        ("poisson(1.0, 3, dtype=bool)", "poisson makes counts"),
    ] {
        let e = err(&mut s, code);
        assert!(e.contains(want), "{code}: {e}");
    }
    // The session goes on.
    assert_eq!(arr(&mut s, "poisson(1.0, 2)").1, vec![2]);
}
