//! Times the two GEMV loops of `gcalc_kernels::cpu::gemv` at a few sizes
//! (best of several reps; ns per call and GB/s of matrix read) and, when
//! `python3` with NumPy is at hand, NumPy's `A @ w` and `A.T @ d` at the same
//! sizes for comparison.
//!
//! `cargo run --release -p gcalc-kernels --example gemv_bench [-- f32|f64|nonumpy|MxK ...]`

use gcalc_kernels::cpu::gemv::{GemvFloat, rows_axpy, rows_dot};
use std::hint::black_box;
use std::time::Instant;

const SIZES: &[(usize, usize)] = &[(400, 784), (64, 64), (401, 783), (1000, 1000), (4096, 4096)];

/// Whether the large matrices started off a cache line (as large `Vec`s do,
/// the callers' arrays included).
static SKEWED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// xorshift64* in [-1, 1) (never all zeros).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (r >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

trait Elem: GemvFloat {
    fn of(v: f64) -> Self;
}
impl Elem for f32 {
    fn of(v: f64) -> f32 {
        v as f32
    }
}
impl Elem for f64 {
    fn of(v: f64) -> f64 {
        v
    }
}

/// Best ns per call of `f` over 200 reps of enough calls for ~0.25 ms each
/// (short reps, so that some run whole between other processes' time slices).
fn best_ns(mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    let mut calls = 0u64;
    while t.elapsed().as_secs_f64() < 0.01 {
        f();
        calls += 1;
    }
    let per_rep = (calls / 40).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..200 {
        let t = Instant::now();
        for _ in 0..per_rep {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / per_rep as f64);
    }
    best
}

fn bench<T: Elem>(m: usize, k: usize) -> (f64, f64) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (m * 31 + k) as u64);
    let a: Vec<T> = (0..m * k).map(|_| T::of(rng.next())).collect();
    let w: Vec<T> = (0..k).map(|_| T::of(rng.next())).collect();
    let d: Vec<T> = (0..m).map(|_| T::of(rng.next())).collect();
    let mut y = vec![T::default(); m];
    let mut g = vec![T::default(); k];
    if m * k >= 4096 && !(a.as_ptr() as usize).is_multiple_of(64) {
        SKEWED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let dot = best_ns(|| rows_dot(black_box(&a), k, black_box(&w), black_box(&mut y)));
    let axpy = best_ns(|| rows_axpy(black_box(&a), k, black_box(&d), black_box(&mut g)));
    (dot, axpy)
}

/// NumPy's best ns per call of `A @ w` and `A.T @ d` (None without python3/numpy),
/// on one thread like ours.
fn numpy(m: usize, k: usize, dtype: &str) -> Option<(f64, f64)> {
    let script = format!(
        "import numpy as np, timeit\n\
         r = np.random.default_rng(0)\n\
         A = r.standard_normal(({m}, {k})).astype(np.{dtype})\n\
         w = r.standard_normal({k}).astype(np.{dtype})\n\
         d = r.standard_normal({m}).astype(np.{dtype})\n\
         def best(f):\n\
         \x20   n = max(1, int(0.00025 / max(timeit.timeit(f, number=1), 1e-9)))\n\
         \x20   return min(timeit.repeat(f, number=n, repeat=200)) / n * 1e9\n\
         print(best(lambda: A @ w), best(lambda: A.T @ d))\n"
    );
    let out = std::process::Command::new("python3")
        .env("OPENBLAS_NUM_THREADS", "1")
        .args(["-c", &script])
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    let mut it = s.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some((it.next()??, it.next()??))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let want_np = !args.iter().any(|a| a == "nonumpy");
    let types: Vec<&str> = match args.iter().find(|a| *a == "f32" || *a == "f64") {
        Some(t) => vec![t.as_str()],
        None => vec!["f32", "f64"],
    };
    let mut sizes: Vec<(usize, usize)> = args
        .iter()
        .filter_map(|a| {
            let (m, k) = a.split_once('x')?;
            Some((m.parse().ok()?, k.parse().ok()?))
        })
        .collect();
    if sizes.is_empty() {
        sizes = SIZES.to_vec();
    }
    println!(
        "{:<4} {:>11} | {:>10} {:>7} | {:>10} {:>7} | {:>10} {:>10}",
        "type", "m x k", "dot ns", "GB/s", "axpy ns", "GB/s", "np A@w", "np A.T@d"
    );
    for t in &types {
        for &(m, k) in &sizes {
            let (dot, axpy, esz) = if *t == "f32" {
                let (d, a) = bench::<f32>(m, k);
                (d, a, 4)
            } else {
                let (d, a) = bench::<f64>(m, k);
                (d, a, 8)
            };
            let bytes = (m * k * esz) as f64;
            let np = if want_np {
                numpy(m, k, if *t == "f32" { "float32" } else { "float64" })
            } else {
                None
            };
            let (npd, npa) = match np {
                Some((d, a)) => (format!("{d:.0}"), format!("{a:.0}")),
                None => ("-".into(), "-".into()),
            };
            println!(
                "{:<4} {:>11} | {:>10.0} {:>7.1} | {:>10.0} {:>7.1} | {:>10} {:>10}",
                t,
                format!("{m}x{k}"),
                dot,
                bytes / dot,
                axpy,
                bytes / axpy,
                npd,
                npa
            );
        }
    }
    if SKEWED.load(std::sync::atomic::Ordering::Relaxed) {
        println!("(matrices of 4096+ elements started off a 64-byte cache line, as large Vecs do)");
    }
}
