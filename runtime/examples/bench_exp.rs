//! Quick timing of exp alone (fused path and raw kernel), for tuning the SIMD loops.

use gcalc_kernels::cpu::ew::each1;
use gcalc_kernels::cpu::math::FastMath;
use gcalc_runtime::ops::fuse::{self, Operand};
use gcalc_runtime::{Array, DType};
use std::time::Instant;

fn main() {
    let n = 1 << 20;
    let v: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.01 - 5.0).collect();
    let mut o = vec![0f32; n];
    let t = Instant::now();
    for _ in 0..20 {
        each1(&v, &mut o, |x: f32| x.vexp());
    }
    println!(
        "raw each1 vexp: {:.3} ns/elem",
        t.elapsed().as_secs_f64() / 20.0 / n as f64 * 1e9
    );
    let t = Instant::now();
    for _ in 0..20 {
        each1(&v, &mut o, |x: f32| x.exp());
    }
    println!(
        "raw each1 libm exp: {:.3} ns/elem",
        t.elapsed().as_secs_f64() / 20.0 / n as f64 * 1e9
    );
    let a = Array::from_vec(v, vec![n]);
    let t = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(
            fuse::apply("exp", vec![Operand::Array(a.clone())], DType::Float32).expect("exp"),
        );
    }
    println!(
        "fused exp: {:.3} ns/elem",
        t.elapsed().as_secs_f64() / 20.0 / n as f64 * 1e9
    );
}
