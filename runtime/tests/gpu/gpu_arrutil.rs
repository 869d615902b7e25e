//! NumPy's callables, in-place helpers and assembly helpers (`ops/arrutil/`)
//! on gpu(0) against the CPU: one program run in a CPU session and a GPU
//! session from the same seed (random data, never zeros), every result
//! compared (float64 to rounding) and required to be on gpu(0), in-place
//! writes seen through an alias, gradients through apply_along_axis, matvec
//! and block likewise; loadtxt with device=gpu(0). No CUDA source of its
//! own (the family is composed of device ops). Skips visibly without a GPU.

use crate::gpu_util::have_gpu;
use crate::gpu_util::session_f64 as session;
use gcalc_runtime::{Device, Value};

const PROGRAM: &str = "seed(7)
x = normal(0.0, 2.0, (4, 5), dtype=float64)
y = normal(0.0, 2.0, (5,), dtype=float64)
k = randint(0, 6, (12,))
r01 = apply_along_axis(fn(v) { sum(v * v) }, 1, x)
r02 = apply_along_axis(fn(v) { stack([v, v * 2.0]) }, 0, x)
r03 = apply_over_axes(sum, x.reshape((2, 2, 5)), [0, 2])
r04 = vectorize(fn(a, b) { a * 2.0 + b })(x, y)
r05 = fromfunction(fn(i, j) { i * 10.0 + j }, (3, 4))
r06 = x.copy(); alias6 = r06; fill_diagonal(r06, y, wrap=true)
r07 = x.copy(); alias7 = r07; putmask(r07, r07 > 0.0, y[:3])
r08 = x.copy(); copyto(r08, y, where=x < 0.0)
r09 = compress(array([true, false, true]), x, axis=1)
r10 = extract(x > 0.5, x)
r11 = unstack(x, axis=1)[3]
r12 = matvec(x, y)
r13 = vecmat(x[:, 0], x)
r14 = block([[x, x[:, :2]], [x[:1], y[:2].reshape((1, 2))]])
r15 = packbits(k > 2, bitorder=\"little\")
r16 = unpackbits(k * 40, axis=0, count=20)
fn f(a, b) { sum(sin(apply_along_axis(fn(v) { v * b }, 1, a))) + sum(matvec(a, b) ** 2) + sum(block([a, a]) * 0.5) }
g = grad(f, (0, 1))(x, y)
r17 = g[0]
r18 = g[1]
r19 = alias6
r20 = alias7";

#[test]
fn arrutil_functions_on_the_gpu_match_the_cpu() {
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
    for k in 1..=20 {
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

#[test]
fn loadtxt_lands_on_the_gpu() {
    if !have_gpu() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "1 2\n3 4\n").unwrap();
    let mut s = session("gpu");
    let code = format!(
        "a = loadtxt(\"{0}/a.txt\")\nb = genfromtxt(\"{0}/a.txt\", device=cpu())\nsavetxt(\"{0}/o.txt\", a * 2.0, fmt=\"%g\")",
        dir.path().display()
    );
    if let Some(e) = s.execute(&code, "<test>").error {
        panic!("{}", e.evalue());
    }
    let Some(Value::Array(a)) = s.get("a") else {
        panic!("a")
    };
    assert_eq!(a.device(), Device::Gpu(0));
    assert_eq!(a.to_f64_vec().unwrap(), vec![1., 2., 3., 4.]);
    let Some(Value::Array(b)) = s.get("b") else {
        panic!("b")
    };
    assert_eq!(b.device(), Device::Cpu);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("o.txt")).unwrap(),
        "2 4\n6 8\n"
    );
}
