//! More branch-free math built on the polynomial exp/log of `math.rs`, for
//! NumPy's elementwise functions that vectorise well: log10, exp2, the
//! hyperbolic functions and their inverses, logaddexp/logaddexp2. Each is a
//! select between plain-arithmetic formulas (no libm call per element), so
//! LLVM turns an op body into SIMD code. Accurate to a few ulp, with inf,
//! nan and overflow as NumPy gives them. erf/erfc/cbrt call libm (the `libm`
//! crate: one implementation on every platform).

// Coefficients are Cephes' published digits, kept as printed.
#![allow(clippy::excessive_precision)]

use super::math::{
    F32_MAGIC, F64_MAGIC, FastMath, exp_core_f32, exp_core_f64, ln_special_f32, ln_special_f64,
    ln_terms_f32, ln_terms_f64, pow2_f32, pow2_f64,
};

/// The functions, as methods so that one op body serves f32 and f64.
pub trait FastMathExt: Copy {
    fn vlog10(self) -> Self;
    fn vexp2(self) -> Self;
    fn vsinh(self) -> Self;
    fn vcosh(self) -> Self;
    fn vasinh(self) -> Self;
    fn vacosh(self) -> Self;
    fn vatanh(self) -> Self;
    /// log(exp(self) + exp(y)) without overflow (NumPy's npy_logaddexp).
    fn vlogaddexp(self, y: Self) -> Self;
    /// log2(2**self + 2**y) (NumPy's npy_logaddexp2).
    fn vlogaddexp2(self, y: Self) -> Self;
    fn verf(self) -> Self;
    fn verfc(self) -> Self;
}

/// The one-logarithm selection of asinh/acosh (see its impls).
trait LnSelect: Sized {
    fn ln_select(small: bool, y: Self, mid_ok: bool, mid: Self, big: Self) -> Self;
}

#[inline(always)]
fn ln_select<T: LnSelect>(small: bool, y: T, mid_ok: bool, mid: T, big: T) -> T {
    T::ln_select(small, y, mid_ok, mid, big)
}

// log10(2) and log10(e), each split so that a product with an exponent or
// with the mantissa's log loses nothing (Cephes' log10).
const L102A: f64 = 3.0078125E-1;
const L102B: f64 = 2.48745663981195213739E-4;
const L10EA: f64 = 4.3359375E-1;
const L10EB: f64 = 7.00731903251827651129E-4;

macro_rules! ext_impl {
    ($t:ty, $ln_terms:ident, $ln_special:ident, $exp_core:ident, $pow2:ident, $magic:expr,
     $exp2_lo:expr, $exp2_hi:expr, $ibits:ty, $big_exp:expr, $asinh_big:expr,
     $erf:path, $erfc:path, $sinh_small:ident) => {
        impl LnSelect for $t {
            /// ln1p(y) where `small`, else ln(mid) where `mid_ok`, else ln(big) + ln 2:
            /// one logarithm of the selected argument (Goldberg's correction for ln1p).
            #[inline(always)]
            fn ln_select(small: bool, y: $t, mid_ok: bool, mid: $t, big: $t) -> $t {
                let u1 = 1.0 + y;
                let c1 = -(((u1 - 1.0) - y) / u1);
                let u = if small {
                    u1
                } else if mid_ok {
                    mid
                } else {
                    big
                };
                let c = if small {
                    c1
                } else if mid_ok {
                    0.0
                } else {
                    std::f64::consts::LN_2 as $t
                };
                let r = u.vln() + c;
                if small && u1 == 1.0 { y } else { r }
            }
        }

        impl FastMathExt for $t {
            #[inline(always)]
            fn vlog10(self) -> $t {
                let (e, f, y) = $ln_terms(self);
                let r = y * (L10EB as $t)
                    + f * (L10EB as $t)
                    + e * (L102B as $t)
                    + y * (L10EA as $t)
                    + f * (L10EA as $t)
                    + e * (L102A as $t);
                $ln_special(self, r)
            }
            #[inline(always)]
            fn vexp2(self) -> $t {
                // x = n + f with |f| <= 1/2; 2^f = exp(f ln 2), whose
                // argument is small, so its rounding costs a fraction of an ulp.
                let xc = if self > $exp2_hi { $exp2_hi } else { self };
                let xc = if xc < $exp2_lo { $exp2_lo } else { xc };
                let t = xc + $magic;
                let nf = t - $magic;
                let n = (t.to_bits() as $ibits).wrapping_sub(($magic as $t).to_bits() as $ibits);
                let (n2, p) = $exp_core((xc - nf) * std::f64::consts::LN_2 as $t);
                let (s1, s2) = $pow2(n.wrapping_add(n2 as _) as _);
                (1.0 + p) * s1 * s2
            }
            #[inline(always)]
            fn vsinh(self) -> $t {
                let a = self.abs();
                let e = a.vexp();
                let mid = 0.5 * e - 0.5 / e;
                let small = $sinh_small(a);
                // exp(a) overflows before sinh does: exp(a/2)^2 / 2.
                let h = (0.5 * a).vexp();
                let big = (0.5 * h) * h;
                let r = if a > $big_exp { big } else { mid };
                let r = if a < 1.0 { small } else { r };
                r.copysign(self)
            }
            #[inline(always)]
            fn vcosh(self) -> $t {
                let a = self.abs();
                let e = a.vexp();
                let mid = 0.5 * e + 0.5 / e;
                let h = (0.5 * a).vexp();
                let big = (0.5 * h) * h;
                if a > $big_exp { big } else { mid }
            }
            #[inline(always)]
            fn vasinh(self) -> $t {
                // One logarithm: ln1p(a + a^2 / (1 + sqrt(1 + a^2))) up to 2,
                // ln(2a + 1 / (sqrt(a^2 + 1) + a)) up to `big`, ln(a) + ln 2 above.
                let a = self.abs();
                let a2 = a * a;
                let y = a + a2 / (1.0 + (1.0 + a2).sqrt());
                let mid = 2.0 * a + 1.0 / ((a2 + 1.0).sqrt() + a);
                let r = ln_select(a <= 2.0, y, a <= $asinh_big, mid, a);
                r.copysign(self)
            }
            #[inline(always)]
            fn vacosh(self) -> $t {
                let x = self;
                let t = x - 1.0;
                let y = t + (2.0 * t + t * t).sqrt();
                let mid = 2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt());
                let r = ln_select(x <= 2.0, y, x <= $asinh_big, mid, x);
                // Below 1 (and nan): nan.
                if x >= 1.0 { r } else { <$t>::NAN }
            }
            #[inline(always)]
            fn vatanh(self) -> $t {
                let a = self.abs();
                let arg = if a < 0.5 {
                    2.0 * a + 2.0 * a * a / (1.0 - a)
                } else {
                    2.0 * a / (1.0 - a)
                };
                (0.5 * arg.vln1p()).copysign(self)
            }
            #[inline(always)]
            fn vlogaddexp(self, y: $t) -> $t {
                let d = self - y;
                let m = if d > 0.0 { self } else { y };
                let r = m + (-d.abs()).vexp().vln1p();
                // Equal operands (infinities of one sign too): x + ln 2; nan: nan.
                let r = if d.is_nan() { d } else { r };
                if self == y {
                    self + std::f64::consts::LN_2 as $t
                } else {
                    r
                }
            }
            #[inline(always)]
            fn vlogaddexp2(self, y: $t) -> $t {
                let d = self - y;
                let m = if d > 0.0 { self } else { y };
                let r = m + (-d.abs()).vexp2().vln1p() * std::f64::consts::LOG2_E as $t;
                let r = if d.is_nan() { d } else { r };
                if self == y { self + 1.0 } else { r }
            }
            #[inline(always)]
            fn verf(self) -> $t {
                $erf(self)
            }
            #[inline(always)]
            fn verfc(self) -> $t {
                $erfc(self)
            }
        }
    };
}

ext_impl!(
    f32,
    ln_terms_f32,
    ln_special_f32,
    exp_core_f32,
    pow2_f32,
    F32_MAGIC,
    -151.0f32,
    129.0f32,
    i32,
    88.0f32,
    4096.0f32,
    libm::erff,
    libm::erfcf,
    sinh_small_f32
);
ext_impl!(
    f64,
    ln_terms_f64,
    ln_special_f64,
    exp_core_f64,
    pow2_f64,
    F64_MAGIC,
    -1076.0f64,
    1025.0f64,
    i64,
    709.0f64,
    268435456.0f64,
    libm::erf,
    libm::erfc,
    sinh_small_f64
);

/// sinh(a) for 0 <= a < 1 (Cephes sinhf's polynomial: no cancellation near 0).
#[inline(always)]
fn sinh_small_f32(a: f32) -> f32 {
    let z = a * a;
    ((2.03721912945E-4 * z + 8.33028376239E-3) * z + 1.66667160211E-1) * z * a + a
}

/// sinh(a) for 0 <= a < 1: its Taylor series through a^19 (every term
/// positive, so the sum loses nothing to cancellation near 0).
#[inline(always)]
fn sinh_small_f64(a: f64) -> f64 {
    let z = a * a;
    let p = 8.22063524662433e-18;
    let p = p * z + 2.8114572543455206e-15;
    let p = p * z + 7.647163731819816e-13;
    let p = p * z + 1.6059043836821613e-10;
    let p = p * z + 2.505210838544172e-08;
    let p = p * z + 2.7557319223985893e-06;
    let p = p * z + 0.0001984126984126984;
    let p = p * z + 0.008333333333333333;
    let p = p * z + 0.16666666666666666;
    a + a * z * p
}
