//! NumPy's further elementwise functions, entries of the elementwise op table
//! like those of `elementwise.rs` (read by fusion, both backends, autodiff,
//! help and the walk test alike): logarithms and powers (`log10 exp2 cbrt
//! square reciprocal`), rounding (`trunc rint`), hyperbolic and inverse
//! trigonometric functions, `arctan2 hypot logaddexp logaddexp2 copysign
//! fmod remainder`, `erf erfc`, predicates (`isinf isposinf isneginf
//! signbit`), `deg2rad rad2deg heaviside`, and `nan_to_num` (a builtin that
//! builds one fused tree of the table's `where`/`isnan`/`isposinf`/`isneginf`).
//!
//! Dtypes follow NumPy 2 with gcalc's rules (see `elementwise.rs`): the
//! float functions give floatX for ints and bools; `square reciprocal fmod`
//! keep ints (bool computes as int64); `trunc` keeps ints and bools (NumPy 2);
//! `rint` of ints is a float, as NumPy's. Domains give NumPy's values:
//! nan outside (arcsin(2), arccosh(0.5), log10(-1)), infinities at poles
//! (log10(0) = -inf, arctanh(1) = inf).

use super::elementwise::{Domain, EwDef, EwGrad, MOD, Rule, b, ew, kern};
use super::fuse::{EwNode, Operand, operand};
use super::{OpDef, OpKind};
use crate::autodiff::ewb::{E, c, call, e, eq, where_};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;
use gcalc_kernels::cpu::ew::{KResult, Kern, KernError, Src, map1, map2};
use gcalc_kernels::cpu::math_ext::FastMathExt;
use std::f64::consts::{LN_2, LN_10, PI};

const DEG: f64 = PI / 180.0;
const RAD: f64 = 180.0 / PI;
/// 2 / sqrt(pi), erf's derivative at 0.
const ERF_SLOPE: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// NumPy's integer reciprocal: 1 / x truncated (1, -1 or 0); 0 is an error.
fn recip_i64(a: &[Src<'_, i64>], o: &mut [i64]) -> KResult {
    if a[0].any(o.len(), |x| x == 0) {
        return Err(KernError::ZeroDivision);
    }
    map1(a, o, |x| if x == 1 || x == -1 { x } else { 0 });
    Ok(())
}

/// C's fmod on integers: the remainder of truncated division (the sign of
/// the dividend); a zero divisor is an error, as for `%`.
fn fmod_i64(a: &[Src<'_, i64>], o: &mut [i64]) -> KResult {
    if a[1].any(o.len(), |y| y == 0) {
        return Err(KernError::ZeroDivision);
    }
    map2(a, o, |x, y| x.wrapping_rem(y));
    Ok(())
}

/// NumPy's degree conversions: the constant rounded in the compute type
/// (`x * (NPY_PIf / 180.0f)` for float32), so results agree bit for bit.
trait Angle {
    fn deg2rad(self) -> Self;
    fn rad2deg(self) -> Self;
}
impl Angle for f32 {
    #[inline(always)]
    fn deg2rad(self) -> f32 {
        self * (std::f32::consts::PI / 180.0)
    }
    #[inline(always)]
    fn rad2deg(self) -> f32 {
        self * (180.0 / std::f32::consts::PI)
    }
}
impl Angle for f64 {
    #[inline(always)]
    fn deg2rad(self) -> f64 {
        self * DEG
    }
    #[inline(always)]
    fn rad2deg(self) -> f64 {
        self * RAD
    }
}

fn ref_logaddexp(x: f64, y: f64) -> f64 {
    if x == y {
        x + LN_2
    } else if x > y {
        x + (y - x).exp().ln_1p()
    } else if x < y {
        y + (x - y).exp().ln_1p()
    } else {
        f64::NAN
    }
}

fn ref_logaddexp2(x: f64, y: f64) -> f64 {
    if x == y {
        x + 1.0
    } else if x > y {
        x + (y - x).exp2().ln_1p() / LN_2
    } else if x < y {
        y + (x - y).exp2().ln_1p() / LN_2
    } else {
        f64::NAN
    }
}

fn ref_heaviside(x: f64, h0: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x < 0.0 {
        0.0
    } else if x > 0.0 {
        1.0
    } else {
        h0
    }
}

/// `g / sqrt(s)`, the derivative shape of the inverse trigonometric functions.
fn over_sqrt(g: &EwNode, s: E) -> Option<EwNode> {
    (e(g) / call("sqrt", [s])).0
}

/// `x * x` of operand `x`.
fn sq(x: &EwNode) -> E {
    e(x) * e(x)
}

/// `where(d == 0, 0, n / d)`: a ratio whose 0/0 is taken as 0 (hypot at the
/// origin, copysign at 0), as a subgradient rather than nan.
fn ratio0(n: E, d: &EwNode) -> Option<EwNode> {
    where_(eq(e(d), c(0.0)), c(0.0), n / e(d)).0
}

/// `deg2rad`, also `radians` (NumPy's other name) in `npmath_alias.rs`.
#[rustfmt::skip]
pub(crate) const DEG2RAD: OpDef = ew!("deg2rad", "deg2rad(x)", ["x"], Float, Any, |v| v[0] * DEG;
        f: map1 |x| x.deg2rad(); i: none; b: none;
        "gc_deg2rad({0})"; "Degrees to radians: x * (pi / 180).";
        grad: |_x, _o, g, _i| (e(g) * c(DEG)).0);

/// `rad2deg`, also `degrees` (NumPy's other name) in `npmath_alias.rs`.
#[rustfmt::skip]
pub(crate) const RAD2DEG: OpDef = ew!("rad2deg", "rad2deg(x)", ["x"], Float, Any, |v| v[0] * RAD;
        f: map1 |x| x.rad2deg(); i: none; b: none;
        "gc_rad2deg({0})"; "Radians to degrees: x * (180 / pi).";
        grad: |_x, _o, g, _i| (e(g) * c(RAD)).0);

/// `arcsin`, also `asin` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCSIN: OpDef = ew!("arcsin", "arcsin(x)", ["x"], Float, Unit, |v| v[0].asin();
        f: map1 |x| x.asin(); i: none; b: none;
        "asin({0})"; "Inverse sine, in [-pi/2, pi/2] (nan outside [-1, 1]).";
        grad: |x, _o, g, _i| over_sqrt(g, c(1.0) - sq(&x[0])));

/// `arccos`, also `acos` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCCOS: OpDef = ew!("arccos", "arccos(x)", ["x"], Float, Unit, |v| v[0].acos();
        f: map1 |x| x.acos(); i: none; b: none;
        "acos({0})"; "Inverse cosine, in [0, pi] (nan outside [-1, 1]).";
        grad: |x, _o, g, _i| (-E(over_sqrt(g, c(1.0) - sq(&x[0])))).0);

/// `arctan`, also `atan` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCTAN: OpDef = ew!("arctan", "arctan(x)", ["x"], Float, Any, |v| v[0].atan();
        f: map1 |x| x.atan(); i: none; b: none;
        "atan({0})"; "Inverse tangent, in (-pi/2, pi/2).";
        grad: |x, _o, g, _i| (e(g) / (c(1.0) + sq(&x[0]))).0);

/// `arcsinh`, also `asinh` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCSINH: OpDef = ew!("arcsinh", "arcsinh(x)", ["x"], Float, Any, |v| v[0].asinh();
        f: map1 |x| x.vasinh(); i: none; b: none;
        "asinh({0})"; "Inverse hyperbolic sine.";
        grad: |x, _o, g, _i| over_sqrt(g, sq(&x[0]) + c(1.0)));

/// `arccosh`, also `acosh` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCCOSH: OpDef = ew!("arccosh", "arccosh(x)", ["x"], Float, AtLeastOne, |v| v[0].acosh();
        f: map1 |x| x.vacosh(); i: none; b: none;
        "acosh({0})"; "Inverse hyperbolic cosine (nan below 1).";
        grad: |x, _o, g, _i| over_sqrt(g, sq(&x[0]) - c(1.0)));

/// `arctanh`, also `atanh` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCTANH: OpDef = ew!("arctanh", "arctanh(x)", ["x"], Float, Unit, |v| v[0].atanh();
        f: map1 |x| x.vatanh(); i: none; b: none;
        "atanh({0})"; "Inverse hyperbolic tangent (+-inf at +-1, nan outside).";
        grad: |x, _o, g, _i| (e(g) / (c(1.0) - sq(&x[0]))).0);

/// `arctan2`, also `atan2` (NumPy 2's array-API name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const ARCTAN2: OpDef = ew!("arctan2", "arctan2(y, x)", ["y", "x"], Float, Any, |v| v[0].atan2(v[1]);
        f: map2 |y, x| y.atan2(x); i: none; b: none;
        "atan2({0}, {1})"; "The angle of the point (x, y) in (-pi, pi], quadrant by the signs (NumPy's arctan2(x1, x2): y first).";
        grad: |x, _o, g, i| {
            let r2 = sq(&x[0]) + sq(&x[1]);
            if i == 0 { (e(g) * e(&x[1]) / r2).0 } else { (-(e(g) * e(&x[0]) / r2)).0 }
        });

#[rustfmt::skip]
pub static OPS: &[OpDef] = &[
    ew!("log10", "log10(x)", ["x"], Float, Positive, |v| v[0].log10();
        f: map1 |x| x.vlog10(); i: none; b: none;
        "log10({0})"; "Base-10 logarithm (-inf at 0, nan below).";
        grad: |x, _o, g, _i| (e(g) / (e(&x[0]) * c(LN_10))).0),
    ew!("exp2", "exp2(x)", ["x"], Float, Any, |v| v[0].exp2();
        f: map1 |x| x.vexp2(); i: none; b: none;
        "exp2({0})"; "2 to the power x.";
        grad: |_x, o, g, _i| (e(g) * e(o) * c(LN_2)).0),
    ew!("cbrt", "cbrt(x)", ["x"], Float, Any, |v| v[0].cbrt();
        f: map1 |x| x.cbrt(); i: none; b: none;
        "cbrt({0})"; "Cube root (negative for negative x).";
        grad: |_x, o, g, _i| (e(g) / (c(3.0) * e(o) * e(o))).0),
    ew!("square", "square(x)", ["x"], Arith, Any, |v| v[0] * v[0];
        f: map1 |x| x * x; i: map1 |x| x.wrapping_mul(x); b: none;
        "({0} * {0})"; "x * x; integers stay integers (wrapping on overflow, as NumPy).";
        grad: |x, _o, g, _i| (c(2.0) * e(g) * e(&x[0])).0),
    ew!("reciprocal", "reciprocal(x)", ["x"], Arith, NonZero, |v| 1.0 / v[0];
        f: map1 |x| 1.0 / x; i: func(recip_i64); b: none;
        "(1 / {0})", "gc_recip_i({0})";
        "1 / x. On integers it truncates as NumPy's does (reciprocal(2) is 0); an integer 0 is a division-by-zero error.";
        grad: |_x, o, g, _i| (-(e(g) * e(o) * e(o))).0;
        int_ref: |v| (1.0 / v[0]).trunc()),
    ew!("trunc", "trunc(x)", ["x"], Same, Any, |v| v[0].trunc();
        f: map1 |x| x.trunc(); i: map1 |x| x; b: none;
        "trunc({0})", "({0})"; "Round toward zero; integers and bools are kept (NumPy 2)."),
    ew!("rint", "rint(x)", ["x"], Float, Any, |v| v[0].round_ties_even();
        f: map1 |x| x.round_ties_even(); i: none; b: none;
        "rint({0})"; "Round to the nearest integer, halves to even; integer input gives floatX (NumPy gives float)."),
    ew!("sinh", "sinh(x)", ["x"], Float, Any, |v| v[0].sinh();
        f: map1 |x| x.vsinh(); i: none; b: none;
        "sinh({0})"; "Hyperbolic sine.";
        grad: |x, _o, g, _i| (e(g) * call("cosh", [e(&x[0])])).0),
    ew!("cosh", "cosh(x)", ["x"], Float, Any, |v| v[0].cosh();
        f: map1 |x| x.vcosh(); i: none; b: none;
        "cosh({0})"; "Hyperbolic cosine.";
        grad: |x, _o, g, _i| (e(g) * call("sinh", [e(&x[0])])).0),
    ARCSIN,
    ARCCOS,
    ARCTAN,
    ARCSINH,
    ARCCOSH,
    ARCTANH,
    ARCTAN2,
    ew!("hypot", "hypot(x, y)", ["x", "y"], Float, Any, |v| v[0].hypot(v[1]);
        f: map2 |x, y| x.hypot(y); i: none; b: none;
        "hypot({0}, {1})"; "sqrt(x**2 + y**2) without overflow or underflow.";
        grad: |x, o, g, i| ratio0(e(g) * e(&x[i]), o)),
    ew!("logaddexp", "logaddexp(x, y)", ["x", "y"], Float, Any, |v| ref_logaddexp(v[0], v[1]);
        f: map2 |x, y| x.vlogaddexp(y); i: none; b: none;
        "gc_logaddexp({0}, {1})"; "log(exp(x) + exp(y)) without overflow.";
        grad: |x, o, g, i| (e(g) * call("exp", [e(&x[i]) - e(o)])).0),
    ew!("logaddexp2", "logaddexp2(x, y)", ["x", "y"], Float, Any, |v| ref_logaddexp2(v[0], v[1]);
        f: map2 |x, y| x.vlogaddexp2(y); i: none; b: none;
        "gc_logaddexp2({0}, {1})"; "log2(2**x + 2**y) without overflow.";
        grad: |x, o, g, i| (e(g) * call("exp2", [e(&x[i]) - e(o)])).0),
    ew!("copysign", "copysign(x, y)", ["x", "y"], Float, Any, |v| v[0].copysign(v[1]);
        f: map2 |x, y| x.copysign(y); i: none; b: none;
        "copysign({0}, {1})"; "The magnitude of x with the sign of y (-0.0 counts as negative).";
        grad: |x, o, g, i| if i == 0 { ratio0(e(g) * e(o), &x[0]) } else { None }),
    ew!("fmod", "fmod(x, y)", ["x", "y"], Arith, NonZeroDivisor, |v| v[0] % v[1];
        f: map2 |x, y| x % y; i: func(fmod_i64); b: none;
        "fmod({0}, {1})", "gc_fmod_i({0}, {1})";
        "C's remainder: the sign of the dividend x (mod and % take the divisor's sign); integers stay integers, an integer 0 divisor is an error.";
        grad: |x, _o, g, i| if i == 0 { e(g).0 } else { (-(e(g) * call("trunc", [e(&x[0]) / e(&x[1])]))).0 }),
    OpDef {
        name: "remainder",
        sig: "remainder(x, y)",
        doc: "NumPy's name for mod: the remainder with the sign of the divisor (the `%` operator).",
        ..MOD
    },
    ew!("erf", "erf(x)", ["x"], Float, Any, |v| v[0].verf();
        f: map1 |x| x.verf(); i: none; b: none;
        "erf({0})"; "The error function 2/sqrt(pi) * integral of exp(-t**2) from 0 to x (SciPy's scipy.special.erf).";
        grad: |x, _o, g, _i| (e(g) * c(ERF_SLOPE) * call("exp", [-sq(&x[0])])).0),
    ew!("erfc", "erfc(x)", ["x"], Float, Any, |v| v[0].verfc();
        f: map1 |x| x.verfc(); i: none; b: none;
        "erfc({0})"; "1 - erf(x), accurate where erf(x) is near 1.";
        grad: |x, _o, g, _i| (-(e(g) * c(ERF_SLOPE) * call("exp", [-sq(&x[0])]))).0),
    ew!("isinf", "isinf(x)", ["x"], Pred, Any, |v| b(v[0].is_infinite());
        f: pred1 |x| x.is_infinite(); i: pred1 |_x| false; b: none;
        "isinf({0})", "false"; "Whether x is +inf or -inf."),
    ew!("isposinf", "isposinf(x)", ["x"], Pred, Any, |v| b(v[0] == f64::INFINITY);
        f: pred1 |x| x.is_infinite() && x > 0.0; i: pred1 |_x| false; b: none;
        "(isinf({0}) && {0} > 0)", "false"; "Whether x is +inf."),
    ew!("isneginf", "isneginf(x)", ["x"], Pred, Any, |v| b(v[0] == f64::NEG_INFINITY);
        f: pred1 |x| x.is_infinite() && x < 0.0; i: pred1 |_x| false; b: none;
        "(isinf({0}) && {0} < 0)", "false"; "Whether x is -inf."),
    ew!("signbit", "signbit(x)", ["x"], Pred, Any, |v| b(v[0].is_sign_negative());
        f: pred1 |x| x.is_sign_negative(); i: pred1 |x| x < 0; b: none;
        "signbit({0})", "({0} < 0)"; "Whether the sign bit is set (true for -0.0 and -nan)."),
    DEG2RAD,
    RAD2DEG,
    ew!("heaviside", "heaviside(x, h0)", ["x", "h0"], Float, Any, |v| ref_heaviside(v[0], v[1]);
        f: map2 |x, h0| if x < 0.0 { 0.0 } else if x > 0.0 { 1.0 } else if x == 0.0 { h0 } else { x };
        i: none; b: none;
        "gc_heaviside({0}, {1})"; "The step function: 0 for x < 0, h0 at 0, 1 for x > 0 (nan stays nan)."),
    OpDef {
        name: "nan_to_num",
        sig: "nan_to_num(x, nan=0.0, posinf=none, neginf=none)",
        doc: "x with nan replaced by `nan`, +inf by `posinf` and -inf by `neginf` (none: the largest finite value of x's dtype, or its negative). Integers and bools are returned as they are (a copy).",
        method: false,
        kind: OpKind::Func(nan_to_num),
        grad: None,
    },
];

/// `nan_to_num(x, nan=0.0, posinf=none, neginf=none)`: one fused pass of
/// `where(isnan(x), nan, where(isposinf(x), posinf, where(isneginf(x), neginf, x)))`,
/// recorded for `grad` like any elementwise tree (the gradient flows where x
/// is finite).
fn nan_to_num(i: &mut Interp, mut a: Args) -> Result<Value> {
    // A list is NumPy's array-like (as `array` makes it).
    let x = match a.req("x")? {
        v @ (Value::List(_) | Value::Tuple(_)) => {
            Value::Array(crate::array::create::value_to_array(&v, None, i.float_x())?)
        }
        v => v,
    };
    let x = operand(&x)?;
    let mut repl = |key: &str| -> Result<Option<Operand>> {
        match a.opt(key)? {
            None | Some(Value::None) => Ok(None),
            Some(v) => match operand(&v)? {
                Operand::Array(_) => Err(Error::type_(format!(
                    "nan_to_num: {key} must be a number, not an array"
                ))
                .with_op("nan_to_num")
                .with_help(format!("e.g. nan_to_num(x, {key}=0.0)"))),
                o => Ok(Some(o)),
            },
        }
    };
    let nan = repl("nan")?.unwrap_or(Operand::Float(0.0));
    let posinf = repl("posinf")?;
    let neginf = repl("neginf")?;
    // NumPy's `copy=`: gcalc always returns a new array (copy=false is refused).
    match a.kw("copy") {
        None | Some(Value::Bool(true)) => {}
        Some(_) => {
            return Err(Error::value(
                "nan_to_num: only copy=true is supported (the result is a new array)",
            )
            .with_op("nan_to_num")
            .with_help("write x = nan_to_num(x) to replace x"));
        }
    }
    a.finish_with(&["nan", "posinf", "neginf", "copy"])?;
    let dtype = match &x {
        Operand::Array(arr) if !arr.dtype().is_float() => {
            return Ok(Value::Array(crate::backend::copy::cast(arr, arr.dtype())?));
        }
        Operand::Int(_) | Operand::Bool(_) => return Ok(x.into_value()),
        Operand::Array(arr) => arr.dtype(),
        Operand::Float(_) | Operand::Complex(..) => DType::Float64,
    };
    let big = match dtype {
        DType::Float16 => half::f16::MAX.to_f64(),
        DType::Float32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    let posinf = posinf.unwrap_or(Operand::Float(big));
    let neginf = neginf.unwrap_or(Operand::Float(-big));
    let op = |name: &str| {
        super::lookup(name)
            .ok_or_else(|| Error::internal(format!("{name} missing from the op table")))
    };
    let leaf = || EwNode::Leaf(x.clone());
    let test = |name: &str| -> Result<EwNode> {
        Ok(EwNode::Op {
            op: op(name)?,
            args: vec![leaf()],
        })
    };
    let wh = op("where")?;
    let inner = EwNode::Op {
        op: wh,
        args: vec![test("isneginf")?, EwNode::Leaf(neginf), leaf()],
    };
    let mid = EwNode::Op {
        op: wh,
        args: vec![test("isposinf")?, EwNode::Leaf(posinf), inner],
    };
    let tree = EwNode::Op {
        op: wh,
        args: vec![test("isnan")?, EwNode::Leaf(nan), mid],
    };
    Ok(i.eval_tree(tree)?.into_value())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_give_numpy_special_values() {
        assert_eq!(
            ref_logaddexp(f64::NEG_INFINITY, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
        assert_eq!(ref_logaddexp(f64::INFINITY, 1.0), f64::INFINITY);
        assert!(ref_logaddexp(f64::NAN, 1.0).is_nan());
        assert_eq!(ref_heaviside(0.0, 0.5), 0.5);
        assert_eq!(ref_heaviside(-0.0, 0.25), 0.25);
        assert!(ref_heaviside(f64::NAN, 0.5).is_nan());
    }
}
