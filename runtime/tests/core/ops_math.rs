//! Accuracy of the fast vectorisable math (kernels/src/cpu/math.rs) against
//! std on millions of points, including inf, nan, overflow and denormals.

use gcalc_kernels::cpu::math::FastMath;

pub(crate) fn ulp_f32(got: f32, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    let w = want as f32;
    if w.is_infinite() || got.is_infinite() {
        return if got == w { 0.0 } else { f64::INFINITY };
    }
    let ulp = if w == 0.0 {
        f32::from_bits(1) as f64
    } else {
        (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64
    };
    ((got as f64 - want).abs() / ulp).max(0.0)
}

pub(crate) fn ulp_f64(got: f64, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if want.is_infinite() || got.is_infinite() {
        return if got == want { 0.0 } else { f64::INFINITY };
    }
    let ulp = if want == 0.0 {
        f64::from_bits(1)
    } else {
        f64::from_bits(want.abs().to_bits() + 1) - want.abs()
    };
    (got - want).abs() / ulp
}

/// Points spread over the whole f32 range by bit pattern, plus edges.
pub(crate) fn points_f32() -> Vec<f32> {
    let mut v: Vec<f32> = (0..4_000_000u32)
        .map(|i| f32::from_bits(i.wrapping_mul(1073)))
        .collect();
    v.extend((0..1_000_000).map(|i| (i as f32 - 500_000.0) * 2e-4));
    v.extend([
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        1e-45,
        88.72,
        88.73,
        -87.3,
        -103.9,
        -104.0,
        89.0,
    ]);
    v
}

pub(crate) fn points_f64() -> Vec<f64> {
    let mut v: Vec<f64> = (0..2_000_000u64)
        .map(|i| f64::from_bits(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
        .collect();
    v.extend((0..1_000_000).map(|i| (i as f64 - 500_000.0) * 1.5e-3));
    v.extend([
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        5e-324,
        709.78,
        709.79,
        -745.1,
        -746.0,
    ]);
    v
}

#[test]
fn fast_math_f32_within_a_few_ulp() {
    type F = (&'static str, fn(f32) -> f32, fn(f64) -> f64, f64);
    let fs: [F; 8] = [
        ("exp", |x| x.vexp(), f64::exp, 2.0),
        ("expm1", |x| x.vexpm1(), f64::exp_m1, 3.0),
        ("log", |x| x.vln(), f64::ln, 2.0),
        ("log1p", |x| x.vln1p(), f64::ln_1p, 3.0),
        ("log2", |x| x.vlog2(), f64::log2, 3.0),
        ("tanh", |x| x.vtanh(), f64::tanh, 4.0),
        (
            "sigmoid",
            |x| x.vsigmoid(),
            |x| 1.0 / (1.0 + (-x).exp()),
            4.0,
        ),
        (
            "softplus",
            |x| x.vsoftplus(),
            |x: f64| x.max(0.0) + (-x.abs()).exp().ln_1p(),
            4.0,
        ),
    ];
    assert_within_f32(&fs, &points_f32());
}

/// Each function of `fs` (name, f32 function, f64 reference, most ulps) within its bound at every point.
pub(crate) fn assert_within_f32(fs: &[(&str, fn(f32) -> f32, fn(f64) -> f64, f64)], pts: &[f32]) {
    for &(name, f, r, max) in fs {
        let mut worst = (0.0, 0.0f32);
        for &x in pts {
            let u = ulp_f32(f(x), r(x as f64));
            if u > worst.0 {
                worst = (u, x);
            }
        }
        println!("{name} f32: worst {:.2} ulp at {:e}", worst.0, worst.1);
        assert!(worst.0 <= max, "{name}: {} ulp at {:e}", worst.0, worst.1);
    }
}

#[test]
fn fast_math_f64_within_a_few_ulp() {
    type F = (&'static str, fn(f64) -> f64, fn(f64) -> f64, f64);
    let fs: [F; 6] = [
        ("exp", |x| x.vexp(), f64::exp, 2.0),
        ("expm1", |x| x.vexpm1(), f64::exp_m1, 3.0),
        ("log", |x| x.vln(), f64::ln, 2.0),
        ("log1p", |x| x.vln1p(), f64::ln_1p, 3.0),
        ("log2", |x| x.vlog2(), f64::log2, 3.0),
        ("tanh", |x| x.vtanh(), f64::tanh, 4.0),
    ];
    assert_within_f64(&fs, &points_f64());
}

/// `assert_within_f32` for f64 functions.
pub(crate) fn assert_within_f64(fs: &[(&str, fn(f64) -> f64, fn(f64) -> f64, f64)], pts: &[f64]) {
    for &(name, f, r, max) in fs {
        let mut worst = (0.0, 0.0f64);
        for &x in pts {
            let u = ulp_f64(f(x), r(x));
            if u > worst.0 {
                worst = (u, x);
            }
        }
        println!("{name} f64: worst {:.2} ulp at {:e}", worst.0, worst.1);
        assert!(worst.0 <= max, "{name}: {} ulp at {:e}", worst.0, worst.1);
    }
}
