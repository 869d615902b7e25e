//! Branch-free polynomial exp/log (and expm1, log1p, log2, tanh, sigmoid,
//! softplus built on them) for f32 and f64. `f32::exp` calls libm and never
//! vectorises; these are plain arithmetic and bit operations that LLVM turns
//! into SIMD code inside the elementwise loops. Accurate to a few ulp over the
//! whole range, including inf, nan, overflow and denormal results.

// Coefficients are Cephes' published digits, kept as printed.
#![allow(clippy::excessive_precision)]

/// The fast math functions, as methods so that one op body serves f32 and f64.
pub trait FastMath: Copy {
    fn vexp(self) -> Self;
    fn vexpm1(self) -> Self;
    fn vln(self) -> Self;
    fn vln1p(self) -> Self;
    fn vlog2(self) -> Self;
    fn vtanh(self) -> Self;
    fn vsigmoid(self) -> Self;
    fn vsoftplus(self) -> Self;
}

macro_rules! fast_math_impl {
    ($t:ty, $exp:ident, $expm1:ident, $ln:ident, $log2:ident, $one:expr, $tclamp:expr) => {
        impl FastMath for $t {
            #[inline(always)]
            fn vexp(self) -> $t {
                $exp(self)
            }
            #[inline(always)]
            fn vexpm1(self) -> $t {
                $expm1(self)
            }
            #[inline(always)]
            fn vln(self) -> $t {
                $ln(self)
            }
            #[inline(always)]
            fn vln1p(self) -> $t {
                // log1p(x) = log(u) - ((u - 1) - x) / u with u = 1 + x (Goldberg's correction).
                let u = $one + self;
                let r = $ln(u) - ((u - $one) - self) / u;
                let r = if u == $one { self } else { r };
                let r = if self == <$t>::INFINITY { self } else { r };
                if u == 0.0 { <$t>::NEG_INFINITY } else { r }
            }
            #[inline(always)]
            fn vlog2(self) -> $t {
                $log2(self)
            }
            #[inline(always)]
            fn vtanh(self) -> $t {
                let a = self.abs();
                let a = if a > $tclamp { $tclamp } else { a };
                let e = $expm1(a + a);
                (e / (e + 2.0)).copysign(self)
            }
            #[inline(always)]
            fn vsigmoid(self) -> $t {
                // exp(-|x|) never overflows: 1/(1+e) for x >= 0, e/(1+e) below.
                let e = $exp(-self.abs());
                let r = $one / ($one + e);
                if self < 0.0 { e * r } else { r }
            }
            #[inline(always)]
            fn vsoftplus(self) -> $t {
                let m = if self > 0.0 { self } else { 0.0 };
                m + (-self.abs()).vexp().vln1p()
            }
        }
    };
}

fast_math_impl!(f32, exp_f32, expm1_f32, ln_f32, log2_f32, 1.0f32, 9.0f32);
fast_math_impl!(f64, exp_f64, expm1_f64, ln_f64, log2_f64, 1.0f64, 20.0f64);

// ---------------------------------------------------------------- f32

pub(crate) const F32_MAGIC: f32 = 12582912.0; // 1.5 * 2^23: adding it rounds to an integer
const F32_LN2_HI: f32 = 0.693359375;
const F32_LN2_LO: f32 = -2.12194440e-4;

/// 2^n for n in [-252, 254] as two exactly representable factors.
#[inline(always)]
pub(crate) fn pow2_f32(n: i32) -> (f32, f32) {
    let n1 = n >> 1;
    let n2 = n.wrapping_sub(n1);
    (
        f32::from_bits((n1.wrapping_add(127) as u32) << 23),
        f32::from_bits((n2.wrapping_add(127) as u32) << 23),
    )
}

/// Range reduction x = n ln2 + r, |r| <= ln2/2; returns (n, r, expm1(r)).
#[inline(always)]
pub(crate) fn exp_core_f32(x: f32) -> (i32, f32) {
    let t = x * std::f32::consts::LOG2_E + F32_MAGIC;
    let nf = t - F32_MAGIC;
    let n = (t.to_bits() as i32).wrapping_sub(F32_MAGIC.to_bits() as i32);
    let r = x - nf * F32_LN2_HI - nf * F32_LN2_LO;
    // Cephes expf minimax polynomial: e^r - 1 = r + r^2 P(r).
    let p = 1.987_569_1e-4f32;
    let p = p * r + 1.398_199_9e-3;
    let p = p * r + 8.333_452e-3;
    let p = p * r + 4.166_579_6e-2;
    let p = p * r + 1.666_666_5e-1;
    let p = p * r + 5.000_000_1e-1;
    (n, r + r * r * p)
}

#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    // Clamp keeps nan (comparisons with nan are false).
    let xc = if x > 89.0 { 89.0 } else { x };
    let xc = if xc < -104.0 { -104.0 } else { xc };
    let (n, p) = exp_core_f32(xc);
    let (s1, s2) = pow2_f32(n);
    (1.0 + p) * s1 * s2
}

#[inline(always)]
pub fn expm1_f32(x: f32) -> f32 {
    let xc = if x > 88.5 { 88.5 } else { x };
    let xc = if xc < -30.0 { -30.0 } else { xc };
    let (n, p) = exp_core_f32(xc);
    let (s1, s2) = pow2_f32(n);
    let s = s1 * s2;
    let r = s * p + (s - 1.0);
    let r = if n == 0 { p } else { r };
    if x > 88.72284 { f32::INFINITY } else { r }
}

/// (exponent, ln of the mantissa in [sqrt(1/2), sqrt(2))) of a positive finite x.
#[inline(always)]
pub(crate) fn ln_parts_f32(x: f32) -> (f32, f32) {
    let (e, f, y) = ln_terms_f32(x);
    (e, f + y)
}

/// `ln_parts` before its last addition: (exponent, f, y) with ln of the
/// mantissa = f + y (log10 scales the two apart, as Cephes does).
#[inline(always)]
pub(crate) fn ln_terms_f32(x: f32) -> (f32, f32, f32) {
    let den = x < f32::MIN_POSITIVE;
    let xs = if den { x * 8388608.0 } else { x };
    let bits = xs.to_bits();
    let mut e = ((bits >> 23) & 0xff) as i32 - 127 - if den { 23 } else { 0 };
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    let big = m > std::f32::consts::SQRT_2;
    let m = if big { m * 0.5 } else { m };
    e += big as i32;
    let f = m - 1.0;
    let z = f * f;
    let p = 7.037_683_6e-2f32;
    let p = p * f - 1.151_461e-1;
    let p = p * f + 1.167_699_9e-1;
    let p = p * f - 1.242_014_1e-1;
    let p = p * f + 1.424_932_3e-1;
    let p = p * f - 1.666_805_8e-1;
    let p = p * f + 2.000_071_4e-1;
    let p = p * f - 2.499_999_4e-1;
    let p = p * f + 3.333_333e-1;
    let y = f * z * p - 0.5 * z;
    (e as f32, f, y)
}

#[inline(always)]
pub(crate) fn ln_special_f32(x: f32, r: f32) -> f32 {
    let r = if x == f32::INFINITY { x } else { r };
    let r = if x == 0.0 { f32::NEG_INFINITY } else { r };
    if x < 0.0 || x.is_nan() { f32::NAN } else { r }
}

#[inline(always)]
pub fn ln_f32(x: f32) -> f32 {
    let (e, lm) = ln_parts_f32(x);
    ln_special_f32(x, lm + e * F32_LN2_LO + e * F32_LN2_HI)
}

#[inline(always)]
pub fn log2_f32(x: f32) -> f32 {
    let (e, lm) = ln_parts_f32(x);
    ln_special_f32(x, lm * std::f32::consts::LOG2_E + e)
}

// ---------------------------------------------------------------- f64

pub(crate) const F64_MAGIC: f64 = 6755399441055744.0; // 1.5 * 2^52
const F64_LN2_HI: f64 = 6.93145751953125E-1;
const F64_LN2_LO: f64 = 1.42860682030941723212E-6;

#[inline(always)]
pub(crate) fn pow2_f64(n: i64) -> (f64, f64) {
    let n1 = n >> 1;
    let n2 = n.wrapping_sub(n1);
    (
        f64::from_bits((n1.wrapping_add(1023) as u64) << 52),
        f64::from_bits((n2.wrapping_add(1023) as u64) << 52),
    )
}

/// (n, expm1(r)) with x = n ln2 + r (Cephes exp's rational approximation).
#[inline(always)]
pub(crate) fn exp_core_f64(x: f64) -> (i64, f64) {
    let t = x * std::f64::consts::LOG2_E + F64_MAGIC;
    let nf = t - F64_MAGIC;
    let n = (t.to_bits() as i64).wrapping_sub(F64_MAGIC.to_bits() as i64);
    let r = x - nf * F64_LN2_HI - nf * F64_LN2_LO;
    let xx = r * r;
    let p = 1.26177193074810590878E-4;
    let p = p * xx + 3.02994407707441961300E-2;
    let p = p * xx + 9.99999999999999999910E-1;
    let px = r * p;
    let q = 3.00198505138664455042E-6;
    let q = q * xx + 2.52448340349684104739E-3;
    let q = q * xx + 2.27265548208155028766E-1;
    let q = q * xx + 2.00000000000000000009E0;
    (n, 2.0 * px / (q - px))
}

#[inline(always)]
pub fn exp_f64(x: f64) -> f64 {
    let xc = if x > 710.0 { 710.0 } else { x };
    let xc = if xc < -746.0 { -746.0 } else { xc };
    let (n, p) = exp_core_f64(xc);
    let (s1, s2) = pow2_f64(n);
    (1.0 + p) * s1 * s2
}

#[inline(always)]
pub fn expm1_f64(x: f64) -> f64 {
    let xc = if x > 709.5 { 709.5 } else { x };
    let xc = if xc < -60.0 { -60.0 } else { xc };
    let (n, p) = exp_core_f64(xc);
    let (s1, s2) = pow2_f64(n);
    let s = s1 * s2;
    let r = s * p + (s - 1.0);
    let r = if n == 0 { p } else { r };
    if x > 709.782712893384 {
        f64::INFINITY
    } else {
        r
    }
}

#[inline(always)]
pub(crate) fn ln_parts_f64(x: f64) -> (f64, f64) {
    let (e, f, y) = ln_terms_f64(x);
    (e, f + y)
}

/// `ln_parts` before its last addition: (exponent, f, y) with ln of the
/// mantissa = f + y (log10 scales the two apart, as Cephes does).
#[inline(always)]
pub(crate) fn ln_terms_f64(x: f64) -> (f64, f64, f64) {
    let den = x < f64::MIN_POSITIVE;
    let xs = if den { x * 4503599627370496.0 } else { x };
    let bits = xs.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023 - if den { 52 } else { 0 };
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let big = m > std::f64::consts::SQRT_2;
    let m = if big { m * 0.5 } else { m };
    e += big as i64;
    let f = m - 1.0;
    let z = f * f;
    // Cephes log: log(1+f) = f - f^2/2 + f^3 P(f)/Q(f).
    let p = 1.01875663804580931796E-4;
    let p = p * f + 4.97494994976747001425E-1;
    let p = p * f + 4.70579119878881725854E0;
    let p = p * f + 1.44989225341610930846E1;
    let p = p * f + 1.79368678507819816313E1;
    let p = p * f + 7.70838733755885391666E0;
    let q = f + 1.12873587189167450590E1;
    let q = q * f + 4.52279145837532221105E1;
    let q = q * f + 8.29875266912776603211E1;
    let q = q * f + 7.11544750618563894466E1;
    let q = q * f + 2.31251620126765340583E1;
    let y = f * (z * p / q) - 0.5 * z;
    (e as f64, f, y)
}

#[inline(always)]
pub(crate) fn ln_special_f64(x: f64, r: f64) -> f64 {
    let r = if x == f64::INFINITY { x } else { r };
    let r = if x == 0.0 { f64::NEG_INFINITY } else { r };
    if x < 0.0 || x.is_nan() { f64::NAN } else { r }
}

#[inline(always)]
pub fn ln_f64(x: f64) -> f64 {
    let (e, lm) = ln_parts_f64(x);
    ln_special_f64(x, lm - e * 2.121944400546905827679e-4 + e * 0.693359375)
}

#[inline(always)]
pub fn log2_f64(x: f64) -> f64 {
    let (e, lm) = ln_parts_f64(x);
    ln_special_f64(x, lm * std::f64::consts::LOG2_E + e)
}
