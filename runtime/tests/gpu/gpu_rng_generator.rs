//! NumPy 2's random API (`ops/generator/`) on gpu(0) against the CPU: one
//! program run in a CPU session and a GPU session from the same seeds,
//! Generator methods, the further draws (rejection rounds included) and
//! get_state/set_state; every result compared (counts and moves exactly,
//! float64 transformations of the draws to rounding) and required to be on
//! gpu(0). No CUDA source of its own (composed of device ops). Skips
//! visibly without a GPU.

use crate::gpu_util::have_gpu;
use gcalc_runtime::{Device, Flags, Session, Value};

fn session(device: &str) -> Session {
    let mut flags = Flags::default();
    flags.set("device", device).unwrap();
    flags.set("floatX", "float64").unwrap();
    Session::new(flags, Box::new(gcalc_runtime::output::Captured::default()))
}

const PROGRAM: &str = "g = default_rng(17)
seed(3)
m = reshape(arange(20.0), (4, 5))
r01 = g.random((3, 4))
r02 = g.integers(0, 10, 12, endpoint=true)
r03 = g.normal(1.0, 2.0, 9)
r04 = g.normal(array([0.0, 10.0, 20.0]), 0.5)
r05 = g.uniform(low=zeros(4), high=array([1.0, 2.0, 3.0, 4.0]))
r06 = g.gamma(shape=2.0, scale=0.5, size=7)
r07 = g.choice(m, 3, axis=1)
r08 = g.choice(10, 6, replace=false)
r09 = g.permutation(m, axis=1)
r10 = g.permuted(m, axis=1)
r11 = g.permuted(m)
r12 = m.copy(); g.shuffle(r12, axis=1)
r13 = standard_cauchy(9)
r14 = standard_exponential(9)
r15 = standard_gamma(0.7, 9)
r16 = triangular(-1.0, 0.0, 2.0, 9)
r17 = wald(1.5, 2.0, 9)
r18 = f(3.0, 7.0, 9)
r19 = noncentral_chisquare(2.0, 1.5, 9)
r20 = noncentral_f(3.0, 8.0, 2.0, 9)
r21 = negative_binomial(4, 0.3, 9)
r22 = logseries(0.8, 9)
r23 = multivariate_normal(array([1.0, 2.0]), array([[2.0, 0.5], [0.5, 1.0]]), 6)
r24 = vonmises(0.5, 3.0, 50)
r25 = zipf(2.0, 50)
r26 = hypergeometric(7, 9, 5, 20)
st = get_state()
r27 = randn(5)
set_state(st)
r28 = randn(5)
r29 = random_sample(size=4)";

#[test]
fn generator_draws_on_the_gpu_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut cpu = session("cpu");
    let mut gpu = session("gpu");
    for s in [&mut cpu, &mut gpu] {
        if let Some(e) = s.execute(PROGRAM, "<test>").error {
            panic!("{}", e.evalue());
        }
    }
    for k in 1..=29 {
        let v = format!("r{k:02}");
        let (Some(Value::Array(c)), Some(Value::Array(g))) = (cpu.get(&v), gpu.get(&v)) else {
            panic!("{v}: not arrays on both devices")
        };
        assert_eq!(g.device(), Device::Gpu(0), "{v} must stay on gpu(0)");
        assert_eq!(c.shape(), g.shape(), "{v}: shape");
        assert_eq!(c.dtype(), g.dtype(), "{v}: dtype");
        let (cv, gv) = (c.to_f64_vec().unwrap(), g.to_f64_vec().unwrap());
        for (j, (a, b)) in cv.iter().zip(&gv).enumerate() {
            let ok =
                a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * a.abs().max(1.0);
            assert!(ok, "{v}[{j}]: cpu {a} gpu {b}");
        }
    }
}

/// NumPy's signatures of the module draws (`uniform(size=)`, `normal(loc=,
/// scale=, size=)`, `randint(low, size=)`), `RandomState`'s legacy names,
/// and the reductions' `dtype=` and bool max/min on gpu(0): the same
/// numbers as the CPU.
const NUMPY_FORMS: &str = "seed(5)
r01 = uniform(size=1000)
r02 = normal(loc=2.0, scale=3.0, size=(10, 10))
r03 = randint(10, size=50)
r04 = normal(array([0.0, 10.0]), 0.5)
rs = RandomState(3)
r05 = rs.randn(4, 5)
r06 = rs.randint(2, 9, size=7)
r07 = rs.rand(6)
x = rand((30, 40)) * 100.0
b = x > 99.0
r08 = sum(x, axis=0, dtype=float32)
r09 = mean(x, dtype=float32)
r10 = var(x, axis=1, ddof=1, dtype=float32)
r11 = sum(x.astype(int64), axis=1, dtype=int32)
r12 = max(b, axis=0)
r13 = min(b, axis=1)
r14 = any(b)
r15 = all(b, axis=0)";

#[test]
fn numpy_forms_of_draws_and_reductions_on_the_gpu_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut cpu = session("cpu");
    let mut gpu = session("gpu");
    for s in [&mut cpu, &mut gpu] {
        if let Some(e) = s.execute(NUMPY_FORMS, "<test>").error {
            panic!("{}", e.evalue());
        }
    }
    for k in 1..=15 {
        let v = format!("r{k:02}");
        let (Some(Value::Array(c)), Some(Value::Array(g))) = (cpu.get(&v), gpu.get(&v)) else {
            panic!("{v}: not arrays on both devices")
        };
        assert_eq!(g.device(), Device::Gpu(0), "{v} must stay on gpu(0)");
        assert_eq!(c.shape(), g.shape(), "{v}: shape");
        assert_eq!(c.dtype(), g.dtype(), "{v}: dtype");
        let (cv, gv) = (c.to_f64_vec().unwrap(), g.to_f64_vec().unwrap());
        // Draws bit for bit; float32 sums within their rounding.
        let tol = if (8..=10).contains(&k) { 1e-5 } else { 1e-12 };
        for (j, (a, b)) in cv.iter().zip(&gv).enumerate() {
            let ok = a == b || (a - b).abs() <= tol * a.abs().max(1.0);
            assert!(ok, "{v}[{j}]: cpu {a} gpu {b}");
        }
    }
}
