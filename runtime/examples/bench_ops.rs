//! Times the op layer's Rust API (fused elementwise, reductions, matmul) on the
//! benchmark sizes of bench/cpu_vs_numpy.py, printing `name seconds` lines that
//! the script puts beside NumPy's times.

use gcalc_runtime::ops::fuse::{self, EwNode, Operand};
use gcalc_runtime::ops::{self, linalg, reduce};
use gcalc_runtime::{Array, DType};
use std::time::Instant;

const FX: DType = DType::Float32;

/// Best of `reps` runs of `f`, in seconds (after one warm-up).
fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn randf(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect()
}

fn main() {
    let n = 10_000_000;
    let x = Array::from_vec(randf(n, 1), vec![n]);
    let y = Array::from_vec(randf(n, 2), vec![n]);
    let op = |s| ops::lookup(s).expect("op in table");

    let t = best(10, || {
        fuse::apply("exp", vec![Operand::Array(x.clone())], FX).expect("exp");
    });
    println!("exp_10M_f32 {t:.9}");

    let t = best(10, || {
        reduce::reduce(gcalc_runtime::opid::ReduceOp::Sum, &x, None, false, FX).expect("sum");
    });
    println!("sum_10M_f32 {t:.9}");

    let m = 1024;
    let a = Array::from_vec(randf(m * m, 3), vec![m, m]);
    let b = Array::from_vec(randf(m * m, 4), vec![m, m]);
    let t = best(10, || {
        linalg::matmul(&a, &b).expect("matmul");
    });
    println!("matmul_1024_f32 {t:.9}");

    let t = best(10, || {
        let tree = EwNode::Op {
            op: op("multiply"),
            args: vec![
                EwNode::Op {
                    op: op("exp"),
                    args: vec![EwNode::Op {
                        op: op("add"),
                        args: vec![
                            EwNode::Leaf(Operand::Array(x.clone())),
                            EwNode::Leaf(Operand::Int(2)),
                        ],
                    }],
                },
                EwNode::Leaf(Operand::Array(y.clone())),
            ],
        };
        fuse::eval(tree, FX).expect("fused");
    });
    println!("fused_exp_z2_y_10M_f32 {t:.9}");

    let s = Array::from_vec(randf(1024, 5), vec![1024]);
    let iters = 200_000;
    let t = best(5, || {
        for _ in 0..iters {
            let r = fuse::apply("exp", vec![Operand::Array(s.clone())], FX).expect("exp");
            std::hint::black_box(r);
        }
    });
    println!("small_exp_1024_f32 {:.9}", t / iters as f64);
}
