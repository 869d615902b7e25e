//! More of NumPy's elementwise functions (issue 17/18 breadth), entries of
//! the elementwise table like `elementwise_math.rs` (fused, both backends,
//! autodiff, help and the walk test read them): `logical_xor`, the
//! NaN-ignoring `fmax fmin`, `positive fabs fix sinc`, the integer `gcd lcm
//! bitwise_count`, and `ldexp nextafter`. CUDA helpers: `kernels/src/cuda/npmath.cuh`.
//!
//! Dtypes as the table's rules: `fabs sinc ldexp nextafter` are float
//! functions (ints give floatX); `fmax fmin fix` keep the promoted dtype;
//! `gcd lcm bitwise_count` take ints and bools only (floats are NumPy's
//! TypeError), `bitwise_count` giving int64 where NumPy gives uint8.

use super::elementwise::{Domain, EwDef, EwGrad, Rule, b, ew, kern};
use super::fuse::EwNode;
use super::{OpDef, OpKind};
use crate::autodiff::ewb::{E, c, call, e, eq, gt, where_};
use gcalc_kernels::cpu::ew::{Kern, Src, map1, map2};
use std::f64::consts::PI;

/// NumPy's sinc, generic over the compute type.
trait Sinc {
    fn sinc(self) -> Self;
}
impl Sinc for f32 {
    #[inline(always)]
    fn sinc(self) -> f32 {
        if self == 0.0 {
            1.0
        } else {
            let y = std::f32::consts::PI * self;
            y.sin() / y
        }
    }
}
impl Sinc for f64 {
    #[inline(always)]
    fn sinc(self) -> f64 {
        if self == 0.0 {
            1.0
        } else {
            let y = PI * self;
            y.sin() / y
        }
    }
}

/// `x * 2**n` exactly (one rounding), n truncated toward zero as C's
/// `(int)` cast does; musl's scalbn for f64, f64 arithmetic for f32.
trait Ldexp: Sized {
    fn ldexp(self, n: Self) -> Self;
}
fn exponent(n: f64) -> i64 {
    if n.is_nan() { 0 } else { n as i64 }
}
pub(crate) fn scalbn(x: f64, n: i64) -> f64 {
    let (mut y, mut n) = (x, n.clamp(-4000, 4000));
    let p1023 = f64::from_bits(0x7fe << 52);
    let pm969 = f64::from_bits(((0x3ff - 969) as u64) << 52);
    if n > 1023 {
        y *= p1023;
        n -= 1023;
        if n > 1023 {
            y *= p1023;
            n -= 1023;
            n = n.min(1023);
        }
    } else if n < -1022 {
        // 2**-1022 * 2**53: no double rounding into the subnormals.
        y *= f64::from_bits(((0x3ff - 1022 + 53) as u64) << 52);
        n += 1022 - 53;
        if n < -1022 {
            y *= pm969;
            n += 969;
            n = n.max(-1022);
        }
    }
    y * f64::from_bits(((0x3ff + n) as u64) << 52)
}
impl Ldexp for f64 {
    #[inline(always)]
    fn ldexp(self, n: f64) -> f64 {
        scalbn(self, exponent(n))
    }
}
impl Ldexp for f32 {
    #[inline(always)]
    fn ldexp(self, n: f32) -> f32 {
        // |n| <= 400 keeps the f64 product finite and exact; one rounding to f32.
        let k = exponent(n as f64).clamp(-400, 400) as i32;
        (self as f64 * 2f64.powi(k)) as f32
    }
}

/// C's nextafter: the next representable value after x toward y.
trait NextAfter {
    fn next_after(self, y: Self) -> Self;
}
macro_rules! next_after {
    ($t:ty, $bits:ty) => {
        impl NextAfter for $t {
            #[inline(always)]
            fn next_after(self, y: $t) -> $t {
                if self.is_nan() || y.is_nan() {
                    return self + y;
                }
                if self == y {
                    return y;
                }
                if self == 0.0 {
                    let tiny = <$t>::from_bits(1);
                    return if y > 0.0 { tiny } else { -tiny };
                }
                let bits = self.to_bits();
                let up = (y > self) == (self > 0.0);
                <$t>::from_bits(if up { bits + 1 } else { bits - 1 })
            }
        }
    };
}
next_after!(f32, u32);
next_after!(f64, u64);

pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x as i64
}
pub(crate) fn lcm(a: i64, b: i64) -> i64 {
    let g = gcd(a, b);
    if g == 0 {
        return 0;
    }
    ((a.unsigned_abs() / g as u64).wrapping_mul(b.unsigned_abs())) as i64
}

fn ref_fmax(x: f64, y: f64) -> f64 {
    if x.is_nan() { y } else { x.max(y) }
}
fn ref_fmin(x: f64, y: f64) -> f64 {
    if x.is_nan() { y } else { x.min(y) }
}

/// fmax/fmin's gradient to operand `i`: all of g where x_i wins (the other
/// being nan counts as losing), half at ties, as `maximum`'s.
fn fext_grad(x: &[EwNode], g: &EwNode, i: usize, wins: fn(E, E) -> E) -> Option<EwNode> {
    let (xi, xo) = (e(&x[i]), e(&x[1 - i]));
    let other_nan = call("isnan", [xo.clone()]);
    where_(
        call("logical_or", [wins(xi.clone(), xo.clone()), other_nan]),
        e(g),
        where_(eq(xi, xo), c(0.5) * e(g), c(0.0)),
    )
    .0
}

#[rustfmt::skip]
pub static OPS: &[OpDef] = &[
    ew!("logical_xor", "logical_xor(x, y)", ["x", "y"], Logical, Any, |v| b((v[0] != 0.0) != (v[1] != 0.0));
        f: none; i: none; b: map2 |x, y| x ^ y;
        "({0} != {1})"; "Elementwise exclusive or of truth values (nonzero is true), giving bool."),
    ew!("fmax", "fmax(x, y)", ["x", "y"], Same, Any, |v| ref_fmax(v[0], v[1]);
        f: map2 |x, y| x.max(y); i: map2 |x, y| x.max(y); b: none;
        "fmax({0}, {1})", "max({0}, {1})"; "Elementwise larger value, ignoring nan (nan only where both are nan); maximum propagates nan instead.";
        grad: |x, _o, g, i| fext_grad(x, g, i, gt)),
    ew!("fmin", "fmin(x, y)", ["x", "y"], Same, Any, |v| ref_fmin(v[0], v[1]);
        f: map2 |x, y| x.min(y); i: map2 |x, y| x.min(y); b: none;
        "fmin({0}, {1})", "min({0}, {1})"; "Elementwise smaller value, ignoring nan (nan only where both are nan); minimum propagates nan instead.";
        grad: |x, _o, g, i| fext_grad(x, g, i, |a, b| call("less", [a, b]))),
    ew!("positive", "positive(x)", ["x"], Arith, Any, |v| v[0];
        f: map1 |x| x; i: map1 |x| x; b: none;
        "({0})"; "+x: a copy of x (bools give int64).";
        grad: |_x, _o, g, _i| e(g).0),
    ew!("fabs", "fabs(x)", ["x"], Float, Any, |v| v[0].abs();
        f: map1 |x| x.abs(); i: none; b: none;
        "fabs({0})"; "Absolute value as a float (ints give floatX; abs keeps ints).";
        grad: |x, _o, g, _i| (e(g) * call("sign", [e(&x[0])])).0),
    ew!("fix", "fix(x)", ["x"], Same, Any, |v| v[0].trunc();
        f: map1 |x| x.trunc(); i: map1 |x| x; b: none;
        "trunc({0})", "({0})"; "Round toward zero (NumPy's fix, the same as trunc); integers and bools are kept."),
    ew!("sinc", "sinc(x)", ["x"], Float, Any, |v| if v[0] == 0.0 { 1.0 } else { (PI * v[0]).sin() / (PI * v[0]) };
        f: map1 |x| x.sinc(); i: none; b: none;
        "gc_sinc({0})"; "The normalized sinc function sin(pi x) / (pi x), 1 at x = 0.";
        grad: |x, o, g, _i| where_(eq(e(&x[0]), c(0.0)), c(0.0),
            e(g) * (call("cos", [c(PI) * e(&x[0])]) - e(o)) / e(&x[0])).0),
    ew!("gcd", "gcd(x, y)", ["x", "y"], Shift, Any, |v| gcd(v[0] as i64, v[1] as i64) as f64;
        f: none; i: map2 |x, y| gcd(x, y); b: none;
        "gc_gcd({0}, {1})"; "Greatest common divisor of |x| and |y| (gcd(0, 0) is 0); integers only."),
    ew!("lcm", "lcm(x, y)", ["x", "y"], Shift, Any, |v| lcm(v[0] as i64, v[1] as i64) as f64;
        f: none; i: map2 |x, y| lcm(x, y); b: none;
        "gc_lcm({0}, {1})"; "Least common multiple of |x| and |y| (0 when either is 0); integers only."),
    ew!("bitwise_count", "bitwise_count(x)", ["x"], Shift, Any, |v| (v[0] as i64).unsigned_abs().count_ones() as f64;
        f: none; i: map1 |x| x.unsigned_abs().count_ones() as i64; b: none;
        "gc_bitcount({0})"; "The number of 1 bits in |x| (integers and bools; int64 where NumPy gives uint8)."),
    ew!("ldexp", "ldexp(x, n)", ["x", "n"], Float, Power, |v| scalbn(v[0], exponent(v[1]));
        f: map2 |x, n| x.ldexp(n); i: none; b: none;
        "ldexp({0}, (int){1})"; "x * 2**n, exactly (n an integer; ints give floatX). The inverse of frexp.";
        grad: |x, _o, g, i| if i == 0 { (e(g) * call("exp2", [call("trunc", [e(&x[1])])])).0 } else { None }),
    ew!("nextafter", "nextafter(x, y)", ["x", "y"], Float, Any, |v| v[0].next_after(v[1]);
        f: map2 |x, y| x.next_after(y); i: none; b: none;
        "nextafter({0}, {1})"; "The next representable float after x toward y (in x's dtype)."),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalbn_is_exact_across_the_range() {
        assert_eq!(scalbn(1.0, 3), 8.0);
        assert_eq!(scalbn(0.75, -1073), f64::from_bits(2));
        assert_eq!(scalbn(f64::MIN_POSITIVE, 1023 + 52), 2f64.powi(53));
        assert_eq!(scalbn(1.0, 5000), f64::INFINITY);
        assert_eq!(scalbn(1.0, -5000), 0.0);
        assert_eq!(1.5f32.ldexp(-3.0), 0.1875);
    }

    #[test]
    fn nextafter_and_gcd_match_c() {
        assert_eq!(1.0f64.next_after(2.0), 1.0 + f64::EPSILON);
        assert_eq!(0.0f64.next_after(-1.0), -f64::from_bits(1));
        assert_eq!((-1.0f32).next_after(0.0), -1.0 + f32::EPSILON / 2.0);
        assert_eq!(gcd(-12, 18), 6);
        assert_eq!(gcd(0, 0), 0);
        assert_eq!(lcm(-4, 6), 12);
        assert_eq!(lcm(0, 6), 0);
    }
}
