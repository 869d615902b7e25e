//! Float `x ** c` for the constant exponents that `power_float`
//! (kernels/src/cpu/ew.rs) runs as multiplies, divisions or square roots,
//! against f64 `powf` on random and special values (zeros of both signs,
//! infinities, nan, negatives, denormal and overflowing results), in f32 and
//! f64, through the one-op fast path and through a fused tree.

use gcalc_runtime::dtype::DType;
use gcalc_runtime::ops::fuse::{self, EwNode, Operand};
use gcalc_runtime::{Array, Element};

const EXPONENTS: &[f64] = &[
    0.0, -0.0, 1.0, 2.0, 3.0, 4.0, -1.0, -2.0, 0.5, -0.5, 2.5, -3.0,
];

fn values() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        -2.5,
        1e-20,
        -1e-20,
        1e20,
        3e38,
        1e-39,
        1e-300,
        1e300,
        -1e300,
        5e-324,
    ];
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let u = (s >> 11) as f64 / (1u64 << 53) as f64;
        // Magnitudes from 1e-6 to 1e6, both signs.
        let m = 10f64.powf(u * 12.0 - 6.0);
        v.push(if s & 1 == 0 { m } else { -m });
    }
    v
}

/// Whether `got` is within `ulps` of `want` (both rounded to the dtype `T`).
fn close<T: Element>(got: f64, want: f64, ulps: f64) -> bool {
    let want = T::from_f64(want).to_f64();
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if want.is_infinite() || got.is_infinite() || want == 0.0 {
        return got == want && got.is_sign_negative() == want.is_sign_negative();
    }
    let eps = if T::DTYPE == DType::Float32 {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    };
    let tiny = if T::DTYPE == DType::Float32 {
        f32::MIN_POSITIVE as f64
    } else {
        f64::MIN_POSITIVE
    };
    (got - want).abs() <= ulps * eps * want.abs() + 2.0 * tiny
}

fn check<T: Element>(dtype: DType) {
    let xs: Vec<T> = values().into_iter().map(T::from_f64).collect();
    let n = xs.len();
    let x = Array::from_vec(xs.clone(), vec![n]);
    for &y in EXPONENTS {
        let direct = fuse::apply(
            "power",
            vec![Operand::Array(x.clone()), Operand::Float(y)],
            dtype,
        );
        // Inside a larger tree (the general fused program): (x * 1) ** y.
        let op = |name: &str| gcalc_runtime::ops::lookup(name).expect("op in the table");
        let tree = EwNode::Op {
            op: op("power"),
            args: vec![
                EwNode::Op {
                    op: op("multiply"),
                    args: vec![
                        EwNode::Leaf(Operand::Array(x.clone())),
                        EwNode::Leaf(Operand::Int(1)),
                    ],
                },
                EwNode::Leaf(Operand::Float(y)),
            ],
        };
        let fused = fuse::eval(tree, dtype);
        for r in [direct, fused] {
            let Ok(Operand::Array(a)) = r else {
                panic!("power gave no array for exponent {y}");
            };
            assert_eq!(a.dtype(), dtype);
            let got = a.to_f64_vec().expect("values");
            for (i, &g) in got.iter().enumerate() {
                let xv = xs[i].to_f64();
                let want = xv.powf(y);
                assert!(
                    close::<T>(g, want, 4.0),
                    "{dtype:?}: {xv:e} ** {y} = {g:e}, want {want:e}"
                );
            }
        }
    }
}

#[test]
fn float32_constant_exponents() {
    check::<f32>(DType::Float32);
}

#[test]
fn float64_constant_exponents() {
    check::<f64>(DType::Float64);
}

#[test]
fn array_exponents_and_int_bases() {
    // Exponents given as an array take pow per element; integer bases keep integer power.
    let x = Array::from_vec(vec![2.0f32, -3.0, 0.5, 4.0], vec![4]);
    let y = Array::from_vec(vec![2.0f32, 3.0, -1.0, 0.5], vec![4]);
    let r = fuse::apply(
        "power",
        vec![Operand::Array(x), Operand::Array(y)],
        DType::Float32,
    );
    let Ok(Operand::Array(a)) = r else {
        panic!("power of arrays")
    };
    assert_eq!(a.to_f64_vec().expect("values"), vec![4.0, -27.0, 2.0, 2.0]);
    let xi = Array::from_vec(vec![2i64, -3, 5], vec![3]);
    let r = fuse::apply(
        "power",
        vec![Operand::Array(xi), Operand::Int(3)],
        DType::Float32,
    );
    let Ok(Operand::Array(a)) = r else {
        panic!("int power")
    };
    assert_eq!(a.dtype(), DType::Int64);
    assert_eq!(a.to_vec::<i64>().expect("values"), vec![8, -27, 125]);
}
