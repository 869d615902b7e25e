//! NumPy 2's random API: `default_rng` Generators (own streams, NumPy's
//! method and argument names, printing, type, help, completion), the
//! `random.` and `linalg.` namespaces, `get_state`/`set_state`, and the
//! further draws (`standard_cauchy triangular wald f noncentral_* ...`)
//! against their laws from fixed seeds (moments, KS and chi-square tests at
//! a level of 1e-4), with NumPy's argument errors.

use crate::grad_util::{run, session};
use crate::random_draws::{arr, assert_chi2, assert_ks, assert_moments, err, gamma_p, histogram};
use gcalc_runtime::{DType, Session, Value};

fn vals(s: &mut Session, expr: &str) -> Vec<f64> {
    arr(s, expr).0
}

fn text(s: &mut Session, expr: &str) -> String {
    run(s, &format!("out = {expr}")).unwrap_or_else(|e| panic!("{expr}: {e}"));
    match s.get("out") {
        Some(Value::Str(t)) => t.to_string(),
        other => panic!("{expr}: {:?}", other.map(|v| v.type_name())),
    }
}

fn truth(s: &mut Session, expr: &str) -> bool {
    run(s, &format!("out = {expr}")).unwrap_or_else(|e| panic!("{expr}: {e}"));
    match s.get("out") {
        Some(Value::Bool(b)) => b,
        Some(Value::Array(a)) => a.to_f64_vec().unwrap()[0] != 0.0,
        other => panic!("{expr}: {:?}", other.map(|v| v.type_name())),
    }
}

const N: usize = 100_000;

#[test]
fn a_generator_has_its_own_stream() {
    let (mut s, _) = session("float32");
    // default_rng(n) draws what seed(n) and the builtins draw.
    let a = vals(&mut s, "default_rng(7).random(6)");
    run(&mut s, "seed(7)").unwrap();
    assert_eq!(a, vals(&mut s, "random(6)"));
    // Drawing from a generator leaves the session's stream alone, and back.
    run(
        &mut s,
        "seed(1); x = rand(4); seed(1); g = default_rng(2); g.normal(size=10)",
    )
    .unwrap();
    run(&mut s, "y = rand(4); g.integers(5, size=3)").unwrap();
    assert!(truth(&mut s, "all(x == y)"));
    // The same seed, the same numbers; successive calls go on.
    let g1 = vals(&mut s, "default_rng(3).standard_normal(8)");
    let g2 = vals(&mut s, "default_rng(3).standard_normal(8)");
    assert_eq!(g1, g2);
    run(
        &mut s,
        "h = default_rng(3); p = h.standard_normal(8); q = h.standard_normal(8)",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "p"), g1);
    assert_ne!(vals(&mut s, "q"), g1);
    // Copies of the value share the state (a mutable object, as NumPy's).
    run(
        &mut s,
        "h2 = h; r1 = h2.random(3); h3 = default_rng(3); h3.standard_normal(16); r2 = h3.random(3)",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "r1"), vals(&mut s, "r2"));
    // No seed: fresh entropy, two generators differ.
    assert!(truth(
        &mut s,
        "any(default_rng().random(4) != default_rng().random(4))"
    ));
    // A Generator as the seed is returned as it is; lists of ints are seeds.
    run(
        &mut s,
        "h4 = default_rng(h); w1 = h4.random(2); w2 = h.random(2)",
    )
    .unwrap();
    assert_ne!(vals(&mut s, "w1"), vals(&mut s, "w2"));
    assert_eq!(
        vals(&mut s, "default_rng([1, 2]).random(3)"),
        vals(&mut s, "default_rng([1, 2]).random(3)")
    );
    assert_ne!(
        vals(&mut s, "default_rng([1, 2]).random(3)"),
        vals(&mut s, "default_rng([2, 1]).random(3)")
    );
}

#[test]
fn a_generator_prints_has_a_type_help_and_completion() {
    let (mut s, out) = session("float32");
    run(&mut s, "g = default_rng(0)").unwrap();
    let r = text(&mut s, "repr(g)");
    assert!(r.starts_with("Generator(Philox) at 0x"), "{r}");
    assert_eq!(text(&mut s, "type(g)"), "Generator");
    assert!(truth(&mut s, "type(g) == Generator"));
    assert!(truth(&mut s, "isinstance(g, Generator)"));
    assert!(!truth(&mut s, "isinstance(zeros(2), Generator)"));
    assert!(!truth(&mut s, "type(1) == Generator"));
    let c = s.complete("g.st", 4);
    for m in ["standard_normal", "standard_gamma", "standard_t"] {
        assert!(c.matches.iter().any(|x| x == m), "{m} in {:?}", c.matches);
    }
    let c = s.complete("g.", 2);
    let at = c
        .matches
        .iter()
        .position(|x| x == "integers")
        .expect("integers");
    assert_eq!(c.types[at], "method");
    for m in [
        "choice",
        "permuted",
        "shuffle",
        "multivariate_normal",
        "normal",
    ] {
        assert!(c.matches.iter().any(|x| x == m), "{m}");
    }
    run(&mut s, "help(g.normal)").unwrap();
    let h = out.lock().unwrap().clone();
    assert!(h.contains("normal(loc=0.0, scale=1.0, size=none"), "{h}");
    run(&mut s, "help(default_rng)").unwrap();
    let h = out.lock().unwrap().clone();
    assert!(h.contains("default_rng(seed=none)"), "{h}");
    let e = err(&mut s, "g.nromal(3)");
    assert!(e.contains("Generator has no attribute `nromal`"), "{e}");
    assert!(truth(&mut s, "type(Generator(1)) == Generator"));
    assert_eq!(
        vals(&mut s, "Generator(5).random(3)"),
        vals(&mut s, "default_rng(5).random(3)")
    );
}

#[test]
fn methods_take_numpys_arguments() {
    let (mut s, _) = session("float32");
    run(&mut s, "g = default_rng(12)").unwrap();
    let (x, shape, dt, _) = arr(
        &mut s,
        "g.normal(loc=5, scale=2, size=N)"
            .replace('N', &N.to_string())
            .as_str(),
    );
    assert_eq!((shape, dt), (vec![N], DType::Float32));
    assert_moments("normal(5, 2)", &x, 5.0, 4.0);
    run(&mut s, "z = g.normal()").unwrap();
    assert!(matches!(s.get("z"), Some(Value::Float(_))));
    run(&mut s, "z = g.uniform()").unwrap();
    assert!(matches!(s.get("z"), Some(Value::Float(_))));
    let (x, ..) = arr(
        &mut s,
        "g.uniform(low=2, high=3, size=(100, 10), dtype=float64)",
    );
    assert!(x.iter().all(|v| (2.0..3.0).contains(v)));
    // Array parameters broadcast.
    let (x, shape, ..) = arr(
        &mut s,
        "g.normal(loc=array([0.0, 100.0]), scale=0.5, size=(1000, 2))",
    );
    assert_eq!(shape, vec![1000, 2]);
    let col1: Vec<f64> = x.iter().skip(1).step_by(2).copied().collect();
    assert_moments("normal(100, 0.5)", &col1, 100.0, 0.25);
    let (_, shape, ..) = arr(
        &mut s,
        "g.uniform(low=zeros(3), high=array([1.0, 2.0, 3.0]))",
    );
    assert_eq!(shape, vec![3]);
    let (x, _, dt, _) = arr(&mut s, "g.integers(10, size=1000)");
    assert_eq!(dt, DType::Int64);
    assert!(x.iter().all(|v| (0.0..10.0).contains(v)));
    let (x, ..) = arr(&mut s, "g.integers(1, 3, size=1000, endpoint=True)");
    assert!(x.contains(&3.0) && x.iter().all(|v| (1.0..=3.0).contains(v)));
    let (x, ..) = arr(
        &mut s,
        &format!("g.gamma(shape=2.0, scale=3.0, size={N}, dtype=float64)"),
    );
    assert_moments("gamma(2, 3)", &x, 6.0, 18.0);
    let (x, ..) = arr(&mut s, &format!("g.exponential(2.0, {N}, dtype=float64)"));
    assert_moments("exponential(2)", &x, 2.0, 4.0);
    let (x, ..) = arr(&mut s, &format!("g.poisson(lam=3.0, size={N})"));
    assert_moments("poisson(3)", &x, 3.0, 3.0);
    // choice, along axis 1 too.
    let (x, ..) = arr(
        &mut s,
        "g.choice(10, size=10, replace=False, shuffle=False)",
    );
    let mut sorted = x.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(sorted, (0..10).map(|v| v as f64).collect::<Vec<_>>());
    run(&mut s, "m = reshape(arange(12), (3, 4))").unwrap();
    let (x, shape, ..) = arr(&mut s, "g.choice(m, 5, axis=1)");
    assert_eq!(shape, vec![3, 5]);
    for c in 0..5 {
        // Each chosen column is a column of m: rows differ by 4.
        assert_eq!(x[5 + c] - x[c], 4.0);
        assert_eq!(x[10 + c] - x[5 + c], 4.0);
    }
    let (_, shape, ..) = arr(&mut s, "g.choice(m, (2, 2), axis=1)");
    assert_eq!(shape, vec![3, 2, 2]);
    // permutation / shuffle along axis 1: the columns move together.
    let (x, shape, ..) = arr(&mut s, "g.permutation(m, axis=1)");
    assert_eq!(shape, vec![3, 4]);
    let mut first: Vec<f64> = x[..4].to_vec();
    first.sort_by(f64::total_cmp);
    assert_eq!(first, vec![0.0, 1.0, 2.0, 3.0]);
    assert!((0..4).all(|c| x[4 + c] - x[c] == 4.0));
    run(&mut s, "m2 = copy(m); r = g.shuffle(m2, axis=1)").unwrap();
    assert!(matches!(s.get("r"), Some(Value::None)));
    let x = vals(&mut s, "m2");
    assert!((0..4).all(|c| x[8 + c] - x[c] == 8.0));
    // permuted: each row on its own.
    let (x, ..) = arr(&mut s, "g.permuted(reshape(arange(400), (4, 100)), axis=1)");
    for r in 0..4 {
        let mut row: Vec<f64> = x[r * 100..(r + 1) * 100].to_vec();
        row.sort_by(f64::total_cmp);
        assert_eq!(
            row,
            (0..100).map(|v| (r * 100 + v) as f64).collect::<Vec<_>>()
        );
    }
    assert_ne!(
        x[..100],
        x[100..200].iter().map(|v| v - 100.0).collect::<Vec<_>>()[..]
    );
    let (x, shape, ..) = arr(&mut s, "g.permuted(reshape(arange(12), (3, 4)))");
    assert_eq!(shape, vec![3, 4]);
    let mut all = x.clone();
    all.sort_by(f64::total_cmp);
    assert_eq!(all, (0..12).map(|v| v as f64).collect::<Vec<_>>());
    run(
        &mut s,
        "o = zeros((2, 3)); g.permuted(reshape(arange(6.0), (2, 3)), axis=0, out=o)",
    )
    .unwrap();
    let x = vals(&mut s, "o");
    assert!((0..3).all(|c| (x[c] - x[3 + c]).abs() == 3.0));
    // Errors name the method's argument.
    let e = err(&mut s, "g.normal(0, -1, 3)");
    assert!(e.contains("sigma") || e.contains("scale"), "{e}");
    let e = err(&mut s, "g.normal(array([0.0]), array([-1.0]))");
    assert!(e.contains("scale"), "{e}");
    let e = err(&mut s, "g.integers(5, 5)");
    assert!(e.contains("low >= high"), "{e}");
    let e = err(&mut s, "g.choice(m, 2, axis=2)");
    assert!(e.contains("axis"), "{e}");
    let e = err(&mut s, "g.normal(size=3, bogus=1)");
    assert!(e.contains("bogus"), "{e}");
}

#[test]
fn random_and_linalg_namespaces_read_the_builtins() {
    let (mut s, _) = session("float32");
    run(&mut s, "seed(4)").unwrap();
    let a = vals(&mut s, "random.normal(0, 1, 5)");
    run(&mut s, "seed(4)").unwrap();
    assert_eq!(a, vals(&mut s, "normal(0, 1, 5)"));
    assert_eq!(
        vals(&mut s, "random.default_rng(3).random(4)"),
        vals(&mut s, "default_rng(3).random(4)")
    );
    run(
        &mut s,
        "random.seed(5); u = random.uniform(0, 1, 3); random.shuffle(u)",
    )
    .unwrap();
    let n = vals(&mut s, "linalg.norm(array([3.0, 4.0]))");
    assert_eq!(n, vec![5.0]);
    let f = vals(&mut s, "real(fft.fft(array([1.0, 2.0])))");
    assert_eq!(f, vec![3.0, -1.0]);
    let e = err(&mut s, "random.zeros(3)");
    assert!(e.contains("zeros"), "{e}");
}

#[test]
fn module_draws_take_numpys_signatures() {
    let (mut s, _) = session("float32");
    let shape = |s: &mut Session, e: &str| -> Vec<usize> {
        run(s, &format!("out = {e}")).unwrap_or_else(|e2| panic!("{e}: {e2}"));
        match s.get("out") {
            Some(Value::Array(a)) => a.shape().to_vec(),
            other => panic!("{e}: {:?}", other.map(|v| v.type_name())),
        }
    };
    // randint(low, high=None, size=None): [0, low) without high.
    let r = vals(&mut s, "random.randint(3, size=2000)");
    assert!(
        r.iter()
            .all(|&v| (0.0..3.0).contains(&v) && v.fract() == 0.0)
    );
    assert!((0..3).all(|k| r.contains(&(k as f64))), "every value drawn");
    let r = vals(&mut s, "randint(low=5, high=8, size=(40, 50))");
    assert!(r.iter().all(|&v| (5.0..8.0).contains(&v)));
    assert_eq!(shape(&mut s, "randint(0, 10, size=(2, 3))"), vec![2, 3]);
    assert_eq!(shape(&mut s, "randint(0, 10, (4,))"), vec![4]);
    // Without size: one Python int, as NumPy's.
    run(&mut s, "k = randint(10); j = random.randint(5, 9)").unwrap();
    assert!(matches!(s.get("k"), Some(Value::Int(v)) if (0..10).contains(&v)));
    assert!(matches!(s.get("j"), Some(Value::Int(v)) if (5..9).contains(&v)));
    // uniform/normal: NumPy's defaults, size=, keywords, array parameters.
    let u = vals(&mut s, "random.uniform(size=20000)");
    assert_moments("uniform(size=)", &u, 0.5, 1.0 / 12.0);
    let n = vals(&mut s, "normal(loc=3.0, scale=2.0, size=20000)");
    assert_moments("normal(loc=, scale=, size=)", &n, 3.0, 4.0);
    assert_eq!(shape(&mut s, "random.normal(size=(2, 5))"), vec![2, 5]);
    assert_eq!(shape(&mut s, "uniform(-1, 1, (3,))"), vec![3]);
    assert_eq!(
        vals(&mut s, "normal(array([0.0, 100.0]), 0.0)"),
        vec![0.0, 100.0]
    );
    assert_eq!(vals(&mut s, "uniform(lo=2, hi=2, shape=3)"), vec![2.0; 3]);
    assert_eq!(
        vals(&mut s, "normal(mu=1, sigma=0, shape=(2,))"),
        vec![1.0; 2]
    );
    run(&mut s, "f = uniform(); g = normal(5.0)").unwrap();
    assert!(matches!(s.get("f"), Some(Value::Float(v)) if (0.0..1.0).contains(&v)));
    assert!(matches!(s.get("g"), Some(Value::Float(_))));
    // gcalc's own form draws what NumPy's form draws from the same seed.
    run(&mut s, "seed(11)").unwrap();
    let a = vals(&mut s, "uniform(0, 1, 6)");
    run(&mut s, "seed(11)").unwrap();
    assert_eq!(a, vals(&mut s, "uniform(size=6, dtype=float32)"));
}

#[test]
fn random_state_has_the_legacy_names_and_its_own_stream() {
    let (mut s, _) = session("float32");
    run(
        &mut s,
        "rs = RandomState(1234); a = rs.rand(2, 3); b = rs.randn(4)",
    )
    .unwrap();
    assert_eq!(arr(&mut s, "a").1, vec![2, 3]);
    assert_eq!(arr(&mut s, "b").1, vec![4]);
    let r = vals(&mut s, "rs.randint(0, 10, size=500)");
    assert!(r.iter().all(|&v| (0.0..10.0).contains(&v)));
    let u = vals(&mut s, "rs.uniform(-1, 1, 20000)");
    assert_moments("RandomState.uniform", &u, 0.0, 1.0 / 3.0);
    let n = vals(&mut s, "rs.normal(size=20000)");
    assert_moments("RandomState.normal", &n, 0.0, 1.0);
    // seed() restarts its own stream, not the session's.
    run(
        &mut s,
        "seed(3); x = rand(3); seed(3); rs.seed(7); p = rs.rand(3)",
    )
    .unwrap();
    assert!(truth(&mut s, "all(x == rand(3))"));
    run(&mut s, "rs.seed(7)").unwrap();
    assert_eq!(vals(&mut s, "p"), vals(&mut s, "rs.rand(3)"));
    // The same seed, the same numbers; a copy shares the state (NumPy's objects).
    assert_eq!(
        vals(&mut s, "RandomState(5).random_sample(4)"),
        vals(&mut s, "RandomState(5).random_sample(4)")
    );
    run(&mut s, "r2 = rs; rs.seed(1); q = rs.randn(2); rs.seed(1)").unwrap();
    assert_eq!(vals(&mut s, "q"), vals(&mut s, "r2.randn(2)"));
    // Type, isinstance, printing.
    assert!(truth(&mut s, "isinstance(rs, RandomState)"));
    assert!(truth(&mut s, "type(rs) == RandomState"));
    assert!(!truth(&mut s, "isinstance(rs, Generator)"));
    assert!(!truth(&mut s, "isinstance(default_rng(0), RandomState)"));
    assert!(text(&mut s, "repr(rs)").starts_with("RandomState(Philox)"));
    // A Generator has no legacy names.
    let e = err(&mut s, "default_rng(0).rand(3)");
    assert!(e.contains("rand"), "{e}");
}

#[test]
fn get_state_and_set_state_round_trip() {
    let (mut s, _) = session("float32");
    run(
        &mut s,
        "seed(9); rand(7); st = get_state(); a = randn(5); b = choice(100, 4)",
    )
    .unwrap();
    let (a, b) = (vals(&mut s, "a"), vals(&mut s, "b"));
    run(&mut s, "randn(50); set_state(st)").unwrap();
    assert_eq!(vals(&mut s, "randn(5)"), a);
    assert_eq!(vals(&mut s, "choice(100, 4)"), b);
    assert_eq!(text(&mut s, "st[\"bit_generator\"]"), "Philox");
    let e = err(&mut s, "set_state(1)");
    assert!(e.contains("set_state") && e.contains("dict"), "{e}");
    let e = err(
        &mut s,
        "set_state({\"bit_generator\": \"MT19937\", \"state\": {}})",
    );
    assert!(e.contains("MT19937"), "{e}");
}

fn draws(s: &mut Session, call: &str) -> Vec<f64> {
    let (x, shape, dt, _) = arr(s, call);
    assert_eq!(shape, vec![N], "{call}");
    assert!(dt == DType::Float64 || dt == DType::Int64, "{call}: {dt:?}");
    x
}

#[test]
fn further_draws_follow_their_laws() {
    let (mut s, _) = session("float32");
    run(&mut s, "seed(21)").unwrap();
    let f64 = |c: &str| format!("{c}, size={N}, dtype=float64)");
    let x = draws(&mut s, &format!("standard_cauchy(size={N}, dtype=float64)"));
    assert_ks("standard_cauchy", &x, |v| {
        0.5 + v.atan() / std::f64::consts::PI
    });
    let x = draws(
        &mut s,
        &format!("standard_exponential(size={N}, dtype=float64)"),
    );
    assert_ks("standard_exponential", &x, |v| 1.0 - (-v).exp());
    let x = draws(&mut s, &f64("standard_gamma(2.5"));
    assert_ks("standard_gamma(2.5)", &x, |v| gamma_p(2.5, v));
    let x = draws(&mut s, &f64("triangular(-1.0, 0.5, 2.0"));
    assert_ks("triangular", &x, |v| {
        let (a, c, b) = (-1.0, 0.5, 2.0);
        if v <= c {
            (v - a) * (v - a) / ((b - a) * (c - a))
        } else {
            1.0 - (b - v) * (b - v) / ((b - a) * (b - c))
        }
    });
    let x = draws(&mut s, &f64("wald(2.0, 3.0"));
    assert_moments("wald(2, 3)", &x, 2.0, 8.0 / 3.0);
    assert!(x.iter().all(|v| *v > 0.0));
    let x = draws(&mut s, &f64("f(5.0, 12.0"));
    let (d1, d2) = (5.0f64, 12.0f64);
    let var = 2.0 * d2 * d2 * (d1 + d2 - 2.0) / (d1 * (d2 - 2.0).powi(2) * (d2 - 4.0));
    assert_moments("f(5, 12)", &x, d2 / (d2 - 2.0), var);
    let x = draws(&mut s, &f64("noncentral_chisquare(3.0, 2.0"));
    assert_moments("noncentral_chisquare(3, 2)", &x, 5.0, 2.0 * (3.0 + 4.0));
    let x = draws(&mut s, &f64("noncentral_chisquare(0.5, 1.5"));
    assert_moments("noncentral_chisquare(0.5, 1.5)", &x, 2.0, 2.0 * (0.5 + 3.0));
    let x = draws(&mut s, &f64("noncentral_f(4.0, 20.0, 3.0"));
    assert_moments("noncentral_f mean", &x, 20.0 * 7.0 / (4.0 * 18.0), {
        let (n, m, l) = (4.0f64, 20.0f64, 3.0f64);
        2.0 * (m / n).powi(2) * ((n + l).powi(2) + (n + 2.0 * l) * (m - 2.0))
            / ((m - 2.0).powi(2) * (m - 4.0))
    });
    let x = draws(&mut s, &format!("negative_binomial(3, 0.4, size={N})"));
    assert_moments(
        "negative_binomial(3, 0.4)",
        &x,
        3.0 * 0.6 / 0.4,
        3.0 * 0.6 / 0.16,
    );
    let (n, p) = (3.0f64, 0.4f64);
    let mut probs = Vec::new();
    let mut pk = p.powf(n);
    for k in 0..60 {
        probs.push(pk);
        pk *= (k as f64 + n) / (k as f64 + 1.0) * (1.0 - p);
    }
    assert_chi2("negative_binomial", &histogram(&x, 60), &probs);
    let x = draws(&mut s, &format!("logseries(0.7, size={N})"));
    let p = 0.7f64;
    let probs: Vec<f64> = (0..80)
        .map(|k| {
            if k == 0 {
                0.0
            } else {
                -p.powi(k) / (k as f64 * (1.0 - p).ln())
            }
        })
        .collect();
    assert!(x.iter().all(|v| *v >= 1.0));
    assert_chi2("logseries(0.7)", &histogram(&x, 80), &probs);
    // Legacy names of random: the same numbers as rand.
    run(&mut s, "seed(2)").unwrap();
    let a = vals(&mut s, "random_sample(size=5)");
    for alias in ["sample", "ranf", "rand"] {
        run(&mut s, "seed(2)").unwrap();
        assert_eq!(vals(&mut s, &format!("{alias}(5)")), a, "{alias}");
    }
    run(&mut s, "seed(2); z = ranf()").unwrap();
    assert!(matches!(s.get("z"), Some(Value::Float(_))));
}

#[test]
fn multivariate_normal_has_its_mean_and_covariance() {
    let (mut s, _) = session("float32");
    run(
        &mut s,
        "g = default_rng(5); cov = array([[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]])",
    )
    .unwrap();
    let (x, shape, dt, _) = arr(
        &mut s,
        &format!("g.multivariate_normal(array([1.0, -2.0, 0.5]), cov, size={N}, dtype=float64)"),
    );
    assert_eq!((shape, dt), (vec![N, 3], DType::Float64));
    let mean = [1.0, -2.0, 0.5];
    let cov = [[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]];
    let n = N as f64;
    for a in 0..3 {
        let col: Vec<f64> = x.iter().skip(a).step_by(3).copied().collect();
        assert_moments(&format!("mvn column {a}"), &col, mean[a], cov[a][a]);
        for b in 0..3 {
            let c: f64 = (0..N)
                .map(|r| (x[3 * r + a] - mean[a]) * (x[3 * r + b] - mean[b]))
                .sum::<f64>()
                / n;
            let se = ((cov[a][a] * cov[b][b] + cov[a][b] * cov[a][b]) / n).sqrt();
            assert!((c - cov[a][b]).abs() < 5.0 * se, "cov[{a}][{b}] = {c}");
        }
    }
    let (_, shape, ..) = arr(&mut s, "multivariate_normal(zeros(2), eye(2))");
    assert_eq!(shape, vec![2]);
    let (_, shape, ..) = arr(&mut s, "multivariate_normal(zeros(2), eye(2), (4, 5))");
    assert_eq!(shape, vec![4, 5, 2]);
    let bad = "array([[1.0, 2.0], [2.0, 1.0]])";
    let e = err(
        &mut s,
        &format!("multivariate_normal(zeros(2), {bad}, check_valid=\"raise\")"),
    );
    assert!(e.contains("positive-semidefinite"), "{e}");
    run(
        &mut s,
        &format!("multivariate_normal(zeros(2), {bad}, check_valid=\"ignore\")"),
    )
    .unwrap();
    let e = err(&mut s, "multivariate_normal(zeros(3), eye(2))");
    assert!(e.contains("same length"), "{e}");
    let e = err(&mut s, "multivariate_normal(zeros(2), ones(2))");
    assert!(e.contains("square"), "{e}");
    let e = err(
        &mut s,
        "multivariate_normal(zeros(2), eye(2), check_valid=\"no\")",
    );
    assert!(e.contains("check_valid"), "{e}");
}

#[test]
fn further_draws_refuse_bad_arguments_as_numpy() {
    let (mut s, _) = session("float32");
    for (code, want) in [
        ("triangular(3.0, 1.0, 4.0)", "left > mode"),
        ("triangular(0.0, 5.0, 4.0)", "mode > right"),
        ("triangular(1.0, 1.0, 1.0)", "left == right"),
        ("wald(0.0, 1.0)", "mean > 0"),
        ("wald(1.0, -1.0, 3)", "scale > 0"),
        ("f(0.0, 1.0)", "dfnum > 0"),
        ("f(1.0, array([1.0, -2.0]))", "dfden > 0"),
        ("noncentral_chisquare(1.0, -0.5)", "nonc >= 0"),
        ("noncentral_f(1.0, 2.0, -1.0)", "nonc >= 0"),
        ("negative_binomial(0, 0.5)", "n > 0"),
        ("negative_binomial(2, 1.5)", "0 < p <= 1"),
        ("logseries(1.0)", "0 <= p < 1"),
        ("standard_gamma(-1.0)", "shape >= 0"),
        ("standard_cauchy(size=3, bogus=1)", "bogus"),
        ("f(1.0)", "dfden"),
    ] {
        let e = err(&mut s, code);
        assert!(e.contains(want), "{code}: {e}");
    }
    // Parameter arrays broadcast; without size the draw has their shape.
    let (_, shape, dt, _) = arr(&mut s, "wald(array([1.0, 2.0, 3.0]), 1.0)");
    assert_eq!((shape, dt), (vec![3], DType::Float32));
    let (_, shape, dt, _) = arr(
        &mut s,
        "negative_binomial(array([[1.0], [2.0]]), 0.5, size=(2, 3))",
    );
    assert_eq!((shape, dt), (vec![2, 3], DType::Int64));
}

fn choose(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |acc, j| acc * (n - j) as f64 / (j + 1) as f64)
}

#[test]
fn rejection_draws_follow_their_laws() {
    let (mut s, _) = session("float32");
    run(&mut s, "g = default_rng(31)").unwrap();
    // von Mises: E cos(x - mu) = I1(kappa) / I0(kappa), values in [-pi, pi).
    let bessel = |nu: i32, x: f64| -> f64 {
        (0..40)
            .map(|m| {
                let f = |k: i32| (1..=k).fold(1.0, |a, j| a * j as f64);
                (x / 2.0).powi(2 * m + nu) / (f(m) * f(m + nu))
            })
            .sum()
    };
    for (mu, kappa) in [(0.5f64, 2.0f64), (-3.0, 0.3), (3.0, 50.0)] {
        let x = draws(
            &mut s,
            &format!("g.vonmises({mu}, {kappa}, size={N}, dtype=float64)"),
        );
        let pi = std::f64::consts::PI;
        assert!(x.iter().all(|v| (-pi..=pi).contains(v)), "vonmises range");
        let c: Vec<f64> = x.iter().map(|v| (v - mu).cos()).collect();
        let want = bessel(1, kappa) / bessel(0, kappa);
        let (m, _) = crate::random_draws::mean_var(&c);
        assert!(
            (m - want).abs() < 5.0 / (N as f64).sqrt(),
            "vonmises({mu}, {kappa}): {m} vs {want}"
        );
        let sn: f64 = x.iter().map(|v| (v - mu).sin()).sum::<f64>() / N as f64;
        assert!(sn.abs() < 5.0 / (N as f64).sqrt(), "vonmises sin mean {sn}");
    }
    let x = draws(
        &mut s,
        &format!("g.vonmises(1.0, 0.0, size={N}, dtype=float64)"),
    );
    assert_ks("vonmises(kappa=0)", &x, |v| {
        (v + std::f64::consts::PI) / (2.0 * std::f64::consts::PI)
    });
    // Zipf(2.5): p(k) = k^-2.5 / zeta(2.5).
    let x = draws(&mut s, &format!("g.zipf(2.5, size={N})"));
    let zeta = 1.341_487_257_250_917;
    let mut probs: Vec<f64> = (0..200)
        .map(|k| {
            if k == 0 {
                0.0
            } else {
                (k as f64).powf(-2.5) / zeta
            }
        })
        .collect();
    // The last cell counts every value >= 199: its probability is the tail's.
    probs[199] = 1.0 - probs[..199].iter().sum::<f64>();
    assert!(x.iter().all(|v| *v >= 1.0));
    assert_chi2("zipf(2.5)", &histogram(&x, 200), &probs);
    // Hypergeometric(10, 15, 8).
    let x = draws(&mut s, &format!("g.hypergeometric(10, 15, 8, size={N})"));
    let probs: Vec<f64> = (0..9)
        .map(|k| choose(10, k) * choose(15, 8 - k) / choose(25, 8))
        .collect();
    assert_chi2("hypergeometric(10, 15, 8)", &histogram(&x, 9), &probs);
    let (x, ..) = arr(&mut s, "hypergeometric(5, 0, 3, size=10)");
    assert!(x.iter().all(|v| *v == 3.0));
    for (code, want) in [
        ("zipf(1.0)", "a > 1"),
        ("vonmises(0.0, -1.0)", "kappa >= 0"),
        ("hypergeometric(-1, 2, 1)", "ngood < 0"),
        ("hypergeometric(2, 2, 5)", "ngood + nbad < nsample"),
    ] {
        let e = err(&mut s, code);
        assert!(e.contains(want), "{code}: {e}");
    }
}
