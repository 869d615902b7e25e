//! NumPy 2's construction, manipulation, set and index-helper functions and
//! the further draws (`ops/nparr/`) on gpu(0) against the CPU: one program
//! run in a CPU session and a GPU session from the same seed (random data,
//! never zeros), every result compared (ints and moves exactly, float64
//! transformations of the draws to rounding) and required to be on gpu(0);
//! gradients through the composites likewise. No CUDA source of its own
//! (the family is composed of device ops). Skips visibly without a GPU.

use crate::gpu_util::have_gpu;
use gcalc_runtime::{Device, Flags, Session, Value};

fn session(device: &str) -> Session {
    let mut flags = Flags::default();
    flags.set("device", device).unwrap();
    flags.set("floatX", "float64").unwrap();
    Session::new(flags, Box::new(gcalc_runtime::output::Captured::default()))
}

const PROGRAM: &str = "seed(5)
x = normal(0.0, 2.0, (4, 5), dtype=float64)
y = normal(0.0, 2.0, (5,), dtype=float64)
k = randint(0, 6, (12,))
m = x > 0.5
r01 = asarray(x, dtype=float32)
r02 = logspace(0.0, 2.0, 7)
r03 = geomspace(1.0, 1000.0, 5)
r04 = tri(4, 5, k=-1)
r05 = tril_indices_from(x, k=1)[1]
r06 = triu_indices(4, 1, 5)[0]
r07 = diagflat(y, k=-2)
r08 = indices((3, 4))
r09 = x[ix_([0, 2, 3], [1, 4])]
r10 = vander(y, 4)
r11 = append(x, y)
r12 = delete(x, [0, -1], axis=1)
r13 = insert(x, [1, 4, 4], y[:4].reshape((4, 1)), axis=1)
r14 = insert(x, 2, 9.5, axis=0)
r15 = resize(y, (3, 7))
r16 = hsplit(x, [2, 3])[1]
r17 = rollaxis(x.reshape((2, 2, 5)), 2, 1)
r18 = broadcast_arrays(x, y)[1]
r19 = choose(k[:10].reshape((2, 5)) % 3, [x[:2], y, 7.0])
r20 = select([x > 1.0, x < -1.0], [x * 2.0, y], default=-3.0)
r21 = piecewise(x, [x < 0.0], [fn(v) { v * v }, fn(v) { -v }])
r22 = x.copy(); place(r22, m, y)
r23 = x.copy(); put(r23, k, y, mode=\"wrap\")
r24 = intersect1d(k, arange(3, 9))
r25 = intersect1d(k, arange(3, 9), return_indices=true)[2]
r26 = union1d(k, arange(4))
r27 = setdiff1d(k, arange(2, 4))
r28 = setxor1d(k, arange(2, 8))
r29 = unique_all(round(x))[2]
r30 = unique_counts(k)[1]
r31 = lexsort([x[0], round(x[1])])
r32 = unravel_index(k, (2, 3))[1]
r33 = ravel_multi_index((k % 4, k % 5), (4, 5))
r34 = histogram2d(x[0], x[1], bins=3)[0]
r35 = histogram2d(x.ravel(), x.ravel() * 0.5, bins=[2, 4], density=true, weights=abs(x.ravel()))[0]
r36 = random((3, 4))
r37 = standard_normal(6)
r38 = integers(-5, 5, 8, endpoint=true)
r39 = laplace(1.0, array([1.0, 2.0, 3.0]), (2, 3))
r40 = lognormal(0.5, 0.25, 9)
r41 = logistic(0.0, 2.0, 9)
r42 = gumbel(0.0, 2.0, 9)
r43 = geometric(0.3, 9)
r44 = chisquare(2.5, 9)
r45 = standard_t(4.0, 9)
r46 = weibull(1.5, 9)
r47 = pareto(3.0, 9)
r48 = rayleigh(2.0, 9)
r49 = multinomial(12, [0.1, 0.6, 0.3], 4)
r50 = dirichlet([0.5, 1.0, 2.0], 4)
fn f(a, b) { sum(sin(insert(delete(a, 1, axis=0), [0, 2], b[:2], axis=1)) * vander(b[:3], 3)[0, 0]) + sum(select([a > 0.0], [a * b], default=1.0)) + sum(resize(a, (3, 9)) ** 2) }
g = grad(f, (0, 1))(x, y)
r51 = g[0]
r52 = g[1]
r53 = intersect1d([1, 2, 3, 4], k)
r54 = choose([0, 1, 0], [y[:3], 5.0])";

#[test]
fn nparr_functions_on_the_gpu_match_the_cpu() {
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
    for k in 1..=54 {
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
                a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * a.abs().max(1.0);
            assert!(ok, "{v}[{j}]: cpu {a} gpu {b}");
        }
    }
}
