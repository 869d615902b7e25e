//! Accuracy of the vectorisable math of kernels/src/cpu/math_ext.rs (log10,
//! exp2, sinh, cosh, arcsinh, arccosh, arctanh, logaddexp, logaddexp2)
//! against float64 std on millions of points spread over the whole range,
//! with inf, nan, overflow and denormals; and the special values NumPy gives.

use crate::ops_math::{
    assert_within_f32, assert_within_f64, points_f32, points_f64, ulp_f32, ulp_f64,
};
use gcalc_kernels::cpu::math_ext::FastMathExt;

fn ref_logaddexp(x: f64, y: f64) -> f64 {
    if x == y {
        return x + std::f64::consts::LN_2;
    }
    let m = x.max(y);
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    m + (-(x - y).abs()).exp().ln_1p()
}

fn ref_logaddexp2(x: f64, y: f64) -> f64 {
    if x == y {
        return x + 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    x.max(y) + (-(x - y).abs()).exp2().ln_1p() / std::f64::consts::LN_2
}

type Un32 = (&'static str, fn(f32) -> f32, fn(f64) -> f64, f64);
type Un64 = (&'static str, fn(f64) -> f64, fn(f64) -> f64, f64);

#[test]
fn math_ext_f32_within_a_few_ulp() {
    let fs: [Un32; 7] = [
        ("log10", |x| x.vlog10(), f64::log10, 2.0),
        ("exp2", |x| x.vexp2(), f64::exp2, 2.0),
        ("sinh", |x| x.vsinh(), f64::sinh, 3.0),
        ("cosh", |x| x.vcosh(), f64::cosh, 3.0),
        ("arcsinh", |x| x.vasinh(), libm::asinh, 3.0),
        ("arccosh", |x| x.vacosh(), libm::acosh, 3.0),
        ("arctanh", |x| x.vatanh(), libm::atanh, 3.0),
    ];
    let mut pts = points_f32();
    // Around the formulas' seams and poles.
    pts.extend((0..200_000).map(|i| 0.99 + i as f32 * 1e-7));
    pts.extend((0..200_000).map(|i| 1.0 + i as f32 * 2e-5));
    pts.extend([
        0.5, 2.0, 4096.0, 4097.0, 88.0, 88.5, 89.4, 89.5, 128.0, -149.0, -150.5,
    ]);
    assert_within_f32(&fs, &pts);
}

#[test]
fn math_ext_f64_within_a_few_ulp() {
    let fs: [Un64; 7] = [
        ("log10", |x| x.vlog10(), f64::log10, 2.0),
        ("exp2", |x| x.vexp2(), f64::exp2, 2.0),
        ("sinh", |x| x.vsinh(), f64::sinh, 3.0),
        ("cosh", |x| x.vcosh(), f64::cosh, 3.0),
        ("arcsinh", |x| x.vasinh(), libm::asinh, 3.0),
        ("arccosh", |x| x.vacosh(), libm::acosh, 3.0),
        ("arctanh", |x| x.vatanh(), libm::atanh, 3.0),
    ];
    let mut pts = points_f64();
    pts.extend((0..200_000).map(|i| 0.99 + i as f64 * 1e-7));
    pts.extend((0..200_000).map(|i| 1.0 + i as f64 * 2e-5));
    pts.extend([
        0.5,
        2.0,
        268435456.0,
        709.0,
        709.5,
        710.4,
        710.5,
        1024.0,
        -1074.0,
        -1075.5,
    ]);
    assert_within_f64(&fs, &pts);
}

/// logaddexp near a result of 0 cancels (both formulas alike), so the bound
/// is on the error relative to the larger operand's magnitude.
#[test]
fn logaddexp_within_a_few_ulp_of_the_larger_operand() {
    let p32 = points_f32();
    let p64 = points_f64();
    let (mut w32, mut w64) = (0.0f64, 0.0f64);
    for (i, &x) in p32.iter().enumerate().step_by(3) {
        let y = p32[(i * 7919 + 13) % p32.len()] * 0.25;
        for (f, r) in [
            (x.vlogaddexp(y), ref_logaddexp(x as f64, y as f64)),
            (x.vlogaddexp2(y), ref_logaddexp2(x as f64, y as f64)),
        ] {
            let scale = (x.abs().max(y.abs()) as f64).max(r.abs());
            let u = if r.is_finite() && f.is_finite() {
                (f as f64 - r).abs() / (scale * f32::EPSILON as f64).max(1e-45)
            } else {
                ulp_f32(f, r)
            };
            w32 = w32.max(u);
        }
    }
    for (i, &x) in p64.iter().enumerate().step_by(3) {
        let y = p64[(i * 7919 + 13) % p64.len()] * 0.25;
        for (f, r) in [
            (x.vlogaddexp(y), ref_logaddexp(x, y)),
            (x.vlogaddexp2(y), ref_logaddexp2(x, y)),
        ] {
            let scale = x.abs().max(y.abs()).max(r.abs());
            let u = if r.is_finite() && f.is_finite() {
                (f - r).abs() / (scale * f64::EPSILON).max(5e-324)
            } else {
                ulp_f64(f, r)
            };
            w64 = w64.max(u);
        }
    }
    println!("logaddexp/logaddexp2: worst {w32:.2} (f32), {w64:.2} (f64) eps of the operands");
    assert!(w32 <= 4.0 && w64 <= 4.0, "{w32} {w64}");
}

#[test]
fn special_values_are_numpys() {
    let inf = f64::INFINITY;
    assert_eq!(0.0f64.vlog10(), -inf);
    assert!((-1.0f64).vlog10().is_nan());
    assert_eq!(1000.0f64.vlog10(), 3.0);
    assert_eq!(10.0f32.vexp2(), 1024.0);
    assert_eq!(1024.0f64.vexp2(), inf);
    assert_eq!((-1080.0f64).vexp2(), 0.0);
    assert_eq!(1.0f64.vatanh(), inf);
    assert_eq!((-1.0f32).vatanh(), -f32::INFINITY);
    assert!(1.5f64.vatanh().is_nan());
    assert!(0.5f64.vacosh().is_nan());
    assert_eq!(1.0f64.vacosh(), 0.0);
    assert_eq!((-0.0f64).vsinh().to_bits(), (-0.0f64).to_bits());
    assert_eq!(inf.vcosh(), inf);
    assert_eq!((-inf).vsinh(), -inf);
    assert_eq!((-inf).vasinh(), -inf);
    assert_eq!(inf.vlogaddexp(inf), inf);
    assert_eq!((-inf).vlogaddexp(-inf), -inf);
    assert_eq!((-inf).vlogaddexp(2.0), 2.0);
    assert!(f64::NAN.vlogaddexp(1.0).is_nan());
    assert_eq!((-inf).vlogaddexp2(-inf), -inf);
    assert_eq!(3.0f32.vlogaddexp2(3.0), 4.0);
    for x in [f64::NAN, inf, -inf] {
        for f in [
            f64::vlog10,
            f64::vexp2,
            f64::vsinh,
            f64::vcosh,
            f64::vasinh,
            f64::vacosh,
            f64::vatanh,
        ] {
            let (g, w) = (f(x), f(x));
            assert!(g.is_nan() == w.is_nan());
        }
    }
}
