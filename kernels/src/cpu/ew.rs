//! Elementwise block loops: an operand of a block is a slice or a broadcast
//! scalar (`Src`); `map1/map2/map3` run a scalar body over a block in the
//! vector-vector, vector-scalar and scalar-vector forms, each compiled for
//! AVX-512, AVX2+FMA and baseline (picked at run time), so the op table's
//! one-line bodies become SIMD loops.

use super::simd::{Level, level};

/// One operand of a block: `len` elements in a slice, or one value broadcast.
#[derive(Clone, Copy, Debug)]
pub enum Src<'a, T> {
    V(&'a [T]),
    S(T),
}

impl<T: Copy> Src<'_, T> {
    #[inline(always)]
    pub fn at(&self, i: usize) -> T {
        match self {
            Src::V(v) => v[i],
            Src::S(s) => *s,
        }
    }
    /// Whether any element of the first `n` satisfies `f`.
    pub fn any(&self, n: usize, f: impl Fn(T) -> bool) -> bool {
        match self {
            Src::V(v) => v[..n].iter().any(|&x| f(x)),
            Src::S(s) => f(*s),
        }
    }
}

/// A domain error found by a kernel (the caller turns it into a gcalc error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernError {
    ZeroDivision,
    NegativeIntPower,
}

pub type KResult = Result<(), KernError>;

/// A kernel: inputs of the compute type `T`, output `T` (Map) or bool (Pred).
pub type MapFn<T> = fn(&[Src<'_, T>], &mut [T]) -> KResult;
pub type PredFn<T> = fn(&[Src<'_, T>], &mut [bool]) -> KResult;

#[derive(Clone, Copy)]
pub enum Kern<T: 'static> {
    Map(MapFn<T>),
    Pred(PredFn<T>),
}

#[inline(always)]
fn each1_body<T: Copy, U, F: Fn(T) -> U>(x: &[T], o: &mut [U], f: F) {
    let n = o.len();
    let x = &x[..n];
    for i in 0..n {
        o[i] = f(x[i]);
    }
}

#[inline(always)]
fn each2_body<T: Copy, U, F: Fn(T, T) -> U>(x: &[T], y: &[T], o: &mut [U], f: F) {
    let n = o.len();
    let (x, y) = (&x[..n], &y[..n]);
    for i in 0..n {
        o[i] = f(x[i], y[i]);
    }
}

#[cfg(target_arch = "x86_64")]
mod v {
    #[target_feature(
        enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt"
    )]
    pub unsafe fn each1_512<T: Copy, U, F: Fn(T) -> U>(x: &[T], o: &mut [U], f: F) {
        super::each1_body(x, o, f)
    }
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt")]
    pub unsafe fn each1_256<T: Copy, U, F: Fn(T) -> U>(x: &[T], o: &mut [U], f: F) {
        super::each1_body(x, o, f)
    }
    #[target_feature(
        enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt"
    )]
    pub unsafe fn each2_512<T: Copy, U, F: Fn(T, T) -> U>(x: &[T], y: &[T], o: &mut [U], f: F) {
        super::each2_body(x, y, o, f)
    }
    #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt")]
    pub unsafe fn each2_256<T: Copy, U, F: Fn(T, T) -> U>(x: &[T], y: &[T], o: &mut [U], f: F) {
        super::each2_body(x, y, o, f)
    }
}

/// `o[i] = f(x[i])`, compiled for the best SIMD level.
#[inline(always)]
pub fn each1<T: Copy, U, F: Fn(T) -> U>(x: &[T], o: &mut [U], f: F) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::each1_512(x, o, f) },
        Level::Avx2 => return unsafe { v::each1_256(x, o, f) },
        Level::Base => {}
    }
    each1_body(x, o, f)
}

/// `o[i] = f(x[i], y[i])`, compiled for the best SIMD level.
#[inline(always)]
pub fn each2<T: Copy, U, F: Fn(T, T) -> U>(x: &[T], y: &[T], o: &mut [U], f: F) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: `level()` checked that the CPU has these features.
        Level::Avx512 => return unsafe { v::each2_512(x, y, o, f) },
        Level::Avx2 => return unsafe { v::each2_256(x, y, o, f) },
        Level::Base => {}
    }
    each2_body(x, y, o, f)
}

/// A unary body over a block.
#[inline(always)]
pub fn map1<T: Copy, U: Copy>(a: &[Src<'_, T>], o: &mut [U], f: impl Fn(T) -> U) {
    match a[0] {
        Src::V(x) => each1(x, o, f),
        Src::S(x) => o.fill(f(x)),
    }
}

/// A binary body over a block, in the VV, VS, SV and SS forms.
#[inline(always)]
pub fn map2<T: Copy, U: Copy>(a: &[Src<'_, T>], o: &mut [U], f: impl Fn(T, T) -> U) {
    match (a[0], a[1]) {
        (Src::V(x), Src::V(y)) => each2(x, y, o, f),
        (Src::V(x), Src::S(y)) => each1(x, o, |p| f(p, y)),
        (Src::S(x), Src::V(y)) => each1(y, o, |q| f(x, q)),
        (Src::S(x), Src::S(y)) => o.fill(f(x, y)),
    }
}

/// A ternary body over a block (clip, where): the common forms are specialised.
#[inline(always)]
pub fn map3<T: Copy, U: Copy>(a: &[Src<'_, T>], o: &mut [U], f: impl Fn(T, T, T) -> U) {
    match (a[0], a[1], a[2]) {
        (Src::V(x), Src::S(y), Src::S(z)) => each1(x, o, |p| f(p, y, z)),
        (Src::V(x), Src::V(y), Src::S(z)) => each2(x, y, o, |p, q| f(p, q, z)),
        (Src::V(x), Src::S(y), Src::V(z)) => each2(x, z, o, |p, r| f(p, y, r)),
        (x, y, z) => {
            for (i, o) in o.iter_mut().enumerate() {
                *o = f(x.at(i), y.at(i), z.at(i));
            }
        }
    }
}

// ------------------------------------------------------- integer helpers

/// Python/NumPy floor division (rounds toward -inf); the divisor is nonzero.
#[inline(always)]
pub fn floor_div_i64(x: i64, y: i64) -> i64 {
    let q = x.wrapping_div(y);
    if x.wrapping_rem(y) != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// Python/NumPy modulo (the sign of the divisor); the divisor is nonzero.
#[inline(always)]
pub fn mod_i64(x: i64, y: i64) -> i64 {
    let r = x.wrapping_rem(y);
    if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    }
}

/// Integer power by squaring, wrapping on overflow; `y >= 0`.
#[inline(always)]
pub fn pow_i64(mut x: i64, mut y: i64) -> i64 {
    let mut r: i64 = 1;
    while y > 0 {
        if y & 1 == 1 {
            r = r.wrapping_mul(x);
        }
        x = x.wrapping_mul(x);
        y >>= 1;
    }
    r
}

pub fn floor_divide_i64(a: &[Src<'_, i64>], o: &mut [i64]) -> KResult {
    if a[1].any(o.len(), |y| y == 0) {
        return Err(KernError::ZeroDivision);
    }
    map2(a, o, floor_div_i64);
    Ok(())
}

pub fn mod_i64_kern(a: &[Src<'_, i64>], o: &mut [i64]) -> KResult {
    if a[1].any(o.len(), |y| y == 0) {
        return Err(KernError::ZeroDivision);
    }
    map2(a, o, mod_i64);
    Ok(())
}

pub fn power_i64(a: &[Src<'_, i64>], o: &mut [i64]) -> KResult {
    if a[1].any(o.len(), |y| y < 0) {
        return Err(KernError::NegativeIntPower);
    }
    for (i, o) in o.iter_mut().enumerate() {
        *o = pow_i64(a[0].at(i), a[1].at(i));
    }
    Ok(())
}

/// Python/NumPy float modulo: the result has the sign of the divisor.
#[inline(always)]
pub fn mod_f64(x: f64, y: f64) -> f64 {
    let r = x % y;
    if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
        r + y
    } else if r == 0.0 {
        0.0f64.copysign(y)
    } else {
        r
    }
}

/// NumPy's float floor division (`npy_floor_divide`): through the remainder
/// (fmod), so `1.0 // 0.1` is 9 and `-3 // inf` is -1 as NumPy and Python
/// give, where `floor(x / y)` gives 10 and -0; `inf // 2` is NaN.
macro_rules! floordiv_float {
    ($name:ident, $t:ty) => {
        #[inline(always)]
        pub fn $name(a: $t, b: $t) -> $t {
            if b == 0.0 {
                return a / b;
            }
            let m = a % b;
            let mut d = (a - m) / b;
            if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                d -= 1.0;
            }
            if d == 0.0 {
                return (0.0 as $t).copysign(a / b);
            }
            let mut f = d.floor();
            if d - f > 0.5 {
                f += 1.0;
            }
            f
        }
    };
}
floordiv_float!(floordiv_f64, f64);
floordiv_float!(floordiv_f32, f32);

#[inline(always)]
pub fn mod_f32(x: f32, y: f32) -> f32 {
    let r = x % y;
    if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
        r + y
    } else if r == 0.0 {
        0.0f32.copysign(y)
    } else {
        r
    }
}

/// The float operations of `power_float`, as methods so one body serves f32 and f64.
pub trait PowFloat: Copy + std::ops::Mul<Output = Self> + std::ops::Div<Output = Self> {
    const ONE: Self;
    fn pow(self, y: Self) -> Self;
    /// `pow(self, 0.5)`: sqrt, except pow(-0, 0.5) = +0 and pow(-inf, 0.5) = +inf.
    fn pow_half(self) -> Self;
    fn to_f64(self) -> f64;
}

macro_rules! pow_float_impl {
    ($t:ty) => {
        impl PowFloat for $t {
            const ONE: $t = 1.0;
            #[inline(always)]
            fn pow(self, y: $t) -> $t {
                self.powf(y)
            }
            #[inline(always)]
            fn pow_half(self) -> $t {
                if self == <$t>::NEG_INFINITY {
                    <$t>::INFINITY
                } else {
                    self.sqrt() + 0.0
                }
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}
pow_float_impl!(f32);
pow_float_impl!(f64);

/// Float `x ** y`. A constant exponent among 0, +-0.5, +-1, +-2, 3, 4 runs as
/// multiplies, a division or a square root (vectorised, and within an ulp or
/// two of pow; no libm call per element); anything else calls pow.
pub fn power_float<T: PowFloat>(a: &[Src<'_, T>], o: &mut [T]) -> KResult {
    let (Src::V(x), Src::S(y)) = (a[0], a[1]) else {
        map2(a, o, T::pow);
        return Ok(());
    };
    let one = T::ONE;
    match y.to_f64() {
        0.0 => o.fill(one),
        1.0 => o.copy_from_slice(&x[..o.len()]),
        2.0 => each1(x, o, |v| v * v),
        3.0 => each1(x, o, |v| v * v * v),
        4.0 => each1(x, o, |v| {
            let s = v * v;
            s * s
        }),
        -1.0 => each1(x, o, |v| one / v),
        -2.0 => each1(x, o, |v| {
            let r = one / v;
            r * r
        }),
        0.5 => each1(x, o, T::pow_half),
        -0.5 => each1(x, o, |v| one / v.pow_half()),
        _ => each1(x, o, |v| v.pow(y)),
    }
    Ok(())
}
