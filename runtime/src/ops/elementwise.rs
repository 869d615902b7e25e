//! The elementwise op table: one `ew!` entry per op gives its arity, dtype
//! rule, f64 reference, CPU kernels (f32/f64/i64/bool), CUDA C expression and
//! help text. Fusion (`fuse.rs`), the walk test, the GPU code generator and
//! `help()` all read these entries.
//!
//! Dtype decisions (NumPy 2 / NEP 50 with weak Python scalars, see
//! `dtype::promote_kinds`): float-only functions (`exp`, `/`, ...) give the
//! session's floatX for int/bool inputs (NumPy gives float64); bool arrays in
//! arithmetic (`+ - * // % ** neg abs sign`) compute as int64 (NumPy's `+` on
//! bool arrays is logical or); float16 computes in float32 and int32 in int64,
//! rounded back to the stored dtype after every op.

use super::fuse::EwNode;
use super::{OpDef, OpKind};
use crate::autodiff::ewb::{c, call, e, eq, ge, gt, le, lt, where_};
use crate::dtype::{DType, Kind, promote_kinds};
use crate::error::{Error, Result};
use gcalc_kernels::cpu::ew::{self as k, Kern, Src, map1, map2, map3};
use gcalc_kernels::cpu::math::FastMath;

/// How an op's compute and result dtypes follow from its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Float functions: ints and bools compute in floatX.
    Float,
    /// Arithmetic: promoted; bool computes as int64.
    Arith,
    /// Arithmetic where bool arrays stay bool, as NumPy's and PyTorch's:
    /// `+` is or, `*` is and, `abs` keeps them (`square` gives ints: NumPy's int8).
    BoolKeeps,
    /// Arithmetic NumPy and PyTorch refuse on bool arrays (`-`, unary `-`):
    /// an error pointing at `^` / `~`.
    NoBool,
    /// Promoted and kept, bool included (maximum, clip, floor, relu).
    Same,
    /// Comparisons: compute in the promoted type, give bool.
    Cmp,
    /// Predicates of one value (isnan): compute in its type, give bool.
    Pred,
    /// Logical ops: operands become bool (nonzero is true).
    Logical,
    /// `where(cond, x, y)`: cond becomes bool, x and y follow `Same`.
    Where,
    /// Bitwise ops (`& | ^ ~`): ints promoted, bools stay bool (logical);
    /// floats are a dtype error, as in NumPy.
    Bitwise,
    /// Shifts (`<< >>`): ints promoted, bools compute as int64; floats are an error.
    Shift,
}

/// Inputs on which an op is defined (the walk test draws its data from this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Any,
    /// Every operand > 0 (log, sqrt).
    Positive,
    /// x > -1 (log1p).
    AboveMinusOne,
    /// |x| < 1.4 (tan, away from its poles).
    Small,
    /// The second operand is nonzero (floor_divide, mod, divide).
    NonZeroDivisor,
    /// Base in [-4, 4] (positive for floats), exponent an integer in [0, 4] (power).
    Power,
    /// The second operand is a shift count in [0, 8] (left_shift, right_shift).
    ShiftCount,
    /// |x| < 1 (arcsin, arccos, arctanh).
    Unit,
    /// x >= 1 (arccosh).
    AtLeastOne,
    /// x != 0 (reciprocal, whose integer form divides).
    NonZero,
}

pub struct EwDef {
    pub arity: usize,
    /// Parameter names, for keyword calls and help.
    pub params: &'static [&'static str],
    pub rule: Rule,
    pub domain: Domain,
    /// The truth: the op on f64 values (bools as 0/1, results of predicates as 0/1).
    pub reference: fn(&[f64]) -> f64,
    pub f32: Option<Kern<f32>>,
    pub f64: Option<Kern<f64>>,
    pub i64: Option<Kern<i64>>,
    pub bool: Option<Kern<bool>>,
    /// CUDA C expression over `{0}`, `{1}`, `{2}` in the compute type, using CUDA's
    /// overloaded math so it serves float and double.
    pub cuda: &'static str,
    /// The expression for integer compute types when it differs from `cuda`.
    pub cuda_int: Option<&'static str>,
    /// The gradient: `grad(x, o, g, i)` is the gradient flowing to operand `i`
    /// as an elementwise tree over the operands `x`, the output `o` and the
    /// upstream gradient `g`, so the backward pass is fused as the forward is.
    /// `None` (or a rule giving `None`): no gradient flows (comparisons,
    /// rounding, predicates). Conventions at kinks follow PyTorch: relu'(0) = 0,
    /// abs'(0) = 0, maximum/minimum split g evenly at ties, clip passes g where
    /// lo <= x <= hi, where routes g by the condition.
    pub grad: Option<EwGrad>,
    /// Python's rule when every operand is a weak scalar (`2 ** -1` is 0.5,
    /// `2 ** 64` an overflow error, `1 // 0` a division by zero); the rule
    /// gives `None` where the op's ordinary result is Python's too.
    pub py: Option<PyRule>,
    /// The truth on bool operands where it differs from `reference`
    /// (`invert` is logical not on bools, bitwise not on ints).
    pub bool_reference: Option<fn(&[f64]) -> f64>,
    /// The truth on integer operands where it differs from `reference`
    /// (`reciprocal` truncates on ints, as NumPy's).
    pub int_reference: Option<fn(&[f64]) -> f64>,
    /// Called with this many arguments, the op is this builtin instead (not
    /// elementwise, never fused): `where(cond)` is `nonzero(cond)`, as in NumPy.
    pub alt: Option<(usize, super::BuiltinFn)>,
}

/// See `EwDef::grad`.
pub type EwGrad = fn(x: &[EwNode], o: &EwNode, g: &EwNode, i: usize) -> Option<EwNode>;

/// See `EwDef::py`.
pub type PyRule = fn(&[super::fuse::Operand]) -> Result<Option<super::fuse::Operand>>;

// The bodies' closures are always inlined into the SIMD loops of `map1`..:
// a body built of several polynomial functions (arcsinh's) is too large for
// the inliner's own choice, and a call per element runs scalar code.
macro_rules! kern {
    ($t:ty, none) => {
        None
    };
    ($t:ty, func ($f:path)) => {
        Some(Kern::Map($f))
    };
    ($t:ty, map1 |$x:ident| $b:expr) => {
        Some(Kern::Map(|a: &[Src<'_, $t>], o: &mut [$t]| {
            map1(
                a,
                o,
                #[inline(always)]
                |$x: $t| -> $t { $b },
            );
            Ok(())
        }))
    };
    ($t:ty, map2 |$x:ident, $y:ident| $b:expr) => {
        Some(Kern::Map(|a: &[Src<'_, $t>], o: &mut [$t]| {
            map2(
                a,
                o,
                #[inline(always)]
                |$x: $t, $y: $t| -> $t { $b },
            );
            Ok(())
        }))
    };
    ($t:ty, map3 |$x:ident, $y:ident, $z:ident| $b:expr) => {
        Some(Kern::Map(|a: &[Src<'_, $t>], o: &mut [$t]| {
            map3(
                a,
                o,
                #[inline(always)]
                |$x: $t, $y: $t, $z: $t| -> $t { $b },
            );
            Ok(())
        }))
    };
    ($t:ty, pred1 |$x:ident| $b:expr) => {
        Some(Kern::Pred(|a: &[Src<'_, $t>], o: &mut [bool]| {
            map1(
                a,
                o,
                #[inline(always)]
                |$x: $t| -> bool { $b },
            );
            Ok(())
        }))
    };
    ($t:ty, pred2 |$x:ident, $y:ident| $b:expr) => {
        Some(Kern::Pred(|a: &[Src<'_, $t>], o: &mut [bool]| {
            map2(
                a,
                o,
                #[inline(always)]
                |$x: $t, $y: $t| -> bool { $b },
            );
            Ok(())
        }))
    };
}

/// One elementwise op: `ew!(name, [params], rule, domain, reference;
/// float: kernel for f32 and f64; int: i64 kernel; bool: bool kernel; cuda, cuda_int; doc)`.
macro_rules! ew {
    ($name:literal, $sig:literal, [$($p:literal),*], $rule:ident, $dom:ident, $r:expr;
     f: $fk:ident $(($fpath:path))? $(|$($fx:ident),*| $fb:expr)?;
     i: $ik:ident $(($ipath:path))? $(|$($ix:ident),*| $ib:expr)?;
     b: $bk:ident $(|$($bx:ident),*| $bb:expr)?;
     $cuda:literal $(, $cint:literal)?; $doc:literal $(; grad: $g:expr)?
     $(; py: $py:path)? $(; bool_ref: $br:expr)? $(; int_ref: $ir:expr)? $(; alt: $alt:expr)?) => {
        OpDef {
            name: $name,
            sig: $sig,
            doc: $doc,
            method: false,
            grad: None,
            kind: OpKind::Elementwise(EwDef {
                arity: [$($p),*].len(),
                params: &[$($p),*],
                rule: Rule::$rule,
                domain: Domain::$dom,
                reference: $r,
                f32: kern!(f32, $fk $(($fpath))? $(|$($fx),*| $fb)?),
                f64: kern!(f64, $fk $(($fpath))? $(|$($fx),*| $fb)?),
                i64: kern!(i64, $ik $(($ipath))? $(|$($ix),*| $ib)?),
                bool: kern!(bool, $bk $(|$($bx),*| $bb)?),
                cuda: $cuda,
                cuda_int: { #[allow(unused_mut, unused_assignments)] let mut c = None; $(c = Some($cint);)? c },
                grad: { #[allow(unused_mut, unused_assignments)] let mut g: Option<EwGrad> = None; $(g = Some($g);)? g },
                py: { #[allow(unused_mut, unused_assignments)] let mut p: Option<$crate::ops::elementwise::PyRule> = None; $(p = Some($py);)? p },
                bool_reference: { #[allow(unused_mut, unused_assignments)] let mut r: Option<fn(&[f64]) -> f64> = None; $(r = Some($br);)? r },
                int_reference: { #[allow(unused_mut, unused_assignments)] let mut r: Option<fn(&[f64]) -> f64> = None; $(r = Some($ir);)? r },
                alt: { #[allow(unused_mut, unused_assignments)] let mut a: Option<(usize, super::BuiltinFn)> = None; $(a = Some($alt);)? a },
            }),
        }
    };
}

// The table's other files (`elementwise_math.rs`) write their entries with these.
pub(crate) use {ew, kern};

pub(crate) fn b(x: bool) -> f64 {
    x as u8 as f64
}
/// An int reference of two f64 operands (ints and bools, exactly representable).
fn ref_bits(v: &[f64], f: fn(i64, i64) -> i64) -> f64 {
    f(v[0] as i64, v[1] as i64) as f64
}
/// NumPy's shifts: a count outside 0..64 shifts everything out (sign kept by `>>`).
pub(crate) fn shl(x: i64, n: i64) -> i64 {
    if (0..64).contains(&n) {
        x.wrapping_shl(n as u32)
    } else {
        0
    }
}
pub(crate) fn shr(x: i64, n: i64) -> i64 {
    if (0..64).contains(&n) {
        x >> n
    } else if x < 0 {
        -1
    } else {
        0
    }
}
fn py_mod(x: f64, y: f64) -> f64 {
    k::mod_f64(x, y)
}
fn ref_softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}
fn ref_max(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }
}
fn ref_min(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.min(y)
    }
}
fn ref_sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else if x == 0.0 {
        0.0 // NumPy: sign(-0.0) is 0.0
    } else {
        x
    }
}
/// `x ** (y - 1)` for power's gradient; `x` itself when y is the constant 2
/// (the common `x ** 2` then needs no pow in its backward).
fn pow_minus_one(x: &EwNode, y: &EwNode) -> crate::autodiff::ewb::E {
    use super::fuse::Operand;
    match y {
        EwNode::Leaf(Operand::Int(2)) => e(x),
        EwNode::Leaf(Operand::Float(f)) if *f == 2.0 => e(x),
        _ => call("power", [e(x), e(y) - c(1.0)]),
    }
}
/// Python's float `%` and `//`, as methods so one op body serves f32 and f64.
trait PyMod {
    fn py_mod(self, y: Self) -> Self;
    fn py_floordiv(self, y: Self) -> Self;
}
impl PyMod for f32 {
    #[inline(always)]
    fn py_mod(self, y: f32) -> f32 {
        k::mod_f32(self, y)
    }
    #[inline(always)]
    fn py_floordiv(self, y: f32) -> f32 {
        k::floordiv_f32(self, y)
    }
}
impl PyMod for f64 {
    #[inline(always)]
    fn py_mod(self, y: f64) -> f64 {
        k::mod_f64(self, y)
    }
    #[inline(always)]
    fn py_floordiv(self, y: f64) -> f64 {
        k::floordiv_f64(self, y)
    }
}

/// `mod`, also `remainder` (NumPy's name for it) in `elementwise_math.rs`.
#[rustfmt::skip]
pub(crate) const MOD: OpDef = ew!("mod", "mod(x, y)", ["x", "y"], Arith, NonZeroDivisor, |v| py_mod(v[0], v[1]);
        f: map2 |x, y| x.py_mod(y); i: func(k::mod_i64_kern); b: none;
        "gc_fmod_py({0}, {1})", "gc_mod({0}, {1})";
        "Remainder with the sign of the divisor, as Python and NumPy (the `%` operator).";
        grad: |x, _o, g, i| if i == 0 { e(g).0 } else { (-(e(g) * call("floor_divide", [e(&x[0]), e(&x[1])]))).0 }; py: super::py_scalar::modulo);

/// `abs`, also `absolute` (NumPy's name for it) in `npmath_alias.rs`.
#[rustfmt::skip]
pub(crate) const ABS: OpDef = ew!("abs", "abs(x)", ["x"], BoolKeeps, Any, |v| v[0].abs();
        f: map1 |x| x.abs(); i: map1 |x| x.wrapping_abs(); b: map1 |x| x;
        "abs({0})"; "Absolute value.";
        grad: |x, _o, g, _i| (e(g) * call("sign", [e(&x[0])])).0; py: super::py_scalar::abs);

/// `invert`, also `bitwise_not` (NumPy's name for it) in `npmath_alias.rs`.
#[rustfmt::skip]
pub(crate) const INVERT: OpDef = ew!("invert", "invert(x)", ["x"], Bitwise, Any, |v| !(v[0] as i64) as f64;
        f: none; i: map1 |x| !x; b: map1 |x| !x;
        "gc_invert({0})"; "Bitwise not of ints (~x == -x - 1), logical not of bools (the `~` operator).";
        bool_ref: |v| b(v[0] == 0.0));

/// `divide`, also `true_divide` (NumPy's other name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const DIVIDE: OpDef = ew!("divide", "divide(x, y)", ["x", "y"], Float, NonZeroDivisor, |v| v[0] / v[1];
        f: map2 |x, y| x / y; i: none; b: none;
        "({0} / {1})"; "True division x / y; integer inputs give floatX (the `/` operator).";
        grad: |x, o, g, i| if i == 0 { (e(g) / e(&x[1])).0 } else { (-(e(g) * e(o) / e(&x[1]))).0 }; py: super::py_scalar::divide);

/// `left_shift`, also `bitwise_left_shift` (NumPy's other name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const LEFT_SHIFT: OpDef = ew!("left_shift", "left_shift(x, y)", ["x", "y"], Shift, ShiftCount, |v| ref_bits(v, shl);
        f: none; i: map2 |x, y| shl(x, y); b: none;
        "gc_shl({0}, {1})"; "x shifted left by y bits (the `<<` operator); a count outside 0..63 gives 0, as NumPy.";
        py: super::py_scalar::left_shift);

/// `right_shift`, also `bitwise_right_shift` (NumPy's other name) in `np_alias.rs`.
#[rustfmt::skip]
pub(crate) const RIGHT_SHIFT: OpDef = ew!("right_shift", "right_shift(x, y)", ["x", "y"], Shift, ShiftCount, |v| ref_bits(v, shr);
        f: none; i: map2 |x, y| shr(x, y); b: none;
        "gc_shr({0}, {1})"; "x shifted right by y bits, keeping the sign (the `>>` operator).";
        py: super::py_scalar::right_shift);

#[rustfmt::skip]
pub static OPS: &[OpDef] = &[
    ew!("add", "add(x, y)", ["x", "y"], BoolKeeps, Any, |v| v[0] + v[1];
        f: map2 |x, y| x + y; i: map2 |x, y| x.wrapping_add(y); b: map2 |x, y| x | y;
        "({0} + {1})"; "x + y elementwise, broadcasting (the `+` operator).";
        grad: |_x, _o, g, _i| e(g).0; py: super::py_scalar::add; bool_ref: |v| b(v[0] != 0.0 || v[1] != 0.0)),
    ew!("subtract", "subtract(x, y)", ["x", "y"], NoBool, Any, |v| v[0] - v[1];
        f: map2 |x, y| x - y; i: map2 |x, y| x.wrapping_sub(y); b: none;
        "({0} - {1})"; "x - y elementwise, broadcasting (the `-` operator).";
        grad: |_x, _o, g, i| if i == 0 { e(g).0 } else { (-e(g)).0 }; py: super::py_scalar::subtract),
    ew!("multiply", "multiply(x, y)", ["x", "y"], BoolKeeps, Any, |v| v[0] * v[1];
        f: map2 |x, y| x * y; i: map2 |x, y| x.wrapping_mul(y); b: map2 |x, y| x & y;
        "({0} * {1})"; "x * y elementwise, broadcasting (the `*` operator).";
        grad: |x, _o, g, i| (e(g) * e(&x[1 - i])).0; py: super::py_scalar::multiply; bool_ref: |v| b(v[0] != 0.0 && v[1] != 0.0)),
    DIVIDE,
    ew!("floor_divide", "floor_divide(x, y)", ["x", "y"], Arith, NonZeroDivisor, |v| k::floordiv_f64(v[0], v[1]);
        f: map2 |x, y| x.py_floordiv(y); i: func(k::floor_divide_i64); b: none;
        "gc_floordiv_f({0}, {1})", "gc_floordiv({0}, {1})";
        "Division rounded toward -inf (the `//` operator); integer division by zero is an error."; py: super::py_scalar::floor_divide),
    MOD,
    ew!("power", "power(x, y)", ["x", "y"], Arith, Power, |v| v[0].powf(v[1]);
        f: func(k::power_float); i: func(k::power_i64); b: none;
        "pow({0}, {1})", "gc_ipow({0}, {1})";
        "x to the power y (the `**` operator); integers to negative integer powers are an error.";
        grad: |x, o, g, i| if i == 0 { (e(g) * e(&x[1]) * pow_minus_one(&x[0], &x[1])).0 } else { where_(eq(e(&x[0]), c(0.0)), c(0.0), e(g) * e(o) * call("log", [e(&x[0])])).0 }; py: super::py_scalar::power),
    ew!("negative", "negative(x)", ["x"], NoBool, Any, |v| -v[0];
        f: map1 |x| -x; i: map1 |x| x.wrapping_neg(); b: none;
        "(-{0})"; "-x (unary minus).";
        grad: |_x, _o, g, _i| (-e(g)).0; py: super::py_scalar::negative),
    ew!("equal", "equal(x, y)", ["x", "y"], Cmp, Any, |v| b(v[0] == v[1]);
        f: pred2 |x, y| x == y; i: pred2 |x, y| x == y; b: none;
        "({0} == {1})"; "x == y elementwise, giving bool."),
    ew!("not_equal", "not_equal(x, y)", ["x", "y"], Cmp, Any, |v| b(v[0] != v[1]);
        f: pred2 |x, y| x != y; i: pred2 |x, y| x != y; b: none;
        "({0} != {1})"; "x != y elementwise, giving bool."),
    ew!("less", "less(x, y)", ["x", "y"], Cmp, Any, |v| b(v[0] < v[1]);
        f: pred2 |x, y| x < y; i: pred2 |x, y| x < y; b: none;
        "({0} < {1})"; "x < y elementwise, giving bool."),
    ew!("less_equal", "less_equal(x, y)", ["x", "y"], Cmp, Any, |v| b(v[0] <= v[1]);
        f: pred2 |x, y| x <= y; i: pred2 |x, y| x <= y; b: none;
        "({0} <= {1})"; "x <= y elementwise, giving bool."),
    ew!("greater", "greater(x, y)", ["x", "y"], Cmp, Any, |v| b(v[0] > v[1]);
        f: pred2 |x, y| x > y; i: pred2 |x, y| x > y; b: none;
        "({0} > {1})"; "x > y elementwise, giving bool."),
    ew!("greater_equal", "greater_equal(x, y)", ["x", "y"], Cmp, Any, |v| b(v[0] >= v[1]);
        f: pred2 |x, y| x >= y; i: pred2 |x, y| x >= y; b: none;
        "({0} >= {1})"; "x >= y elementwise, giving bool."),
    ABS,
    ew!("sign", "sign(x)", ["x"], Arith, Any, |v| ref_sign(v[0]);
        f: map1 |x| if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else if x == 0.0 { 0.0 } else { x }; i: map1 |x| x.signum(); b: none;
        "(({0} > 0) - ({0} < 0) + ({0} != {0}) * {0})", "(({0} > 0) - ({0} < 0))";
        "-1, 0 or 1 by the sign of x (nan stays nan)."),
    ew!("sqrt", "sqrt(x)", ["x"], Float, Positive, |v| v[0].sqrt();
        f: map1 |x| x.sqrt(); i: none; b: none;
        "sqrt({0})"; "Square root (nan for negative inputs).";
        grad: |_x, o, g, _i| (c(0.5) * e(g) / e(o)).0),
    ew!("rsqrt", "rsqrt(x)", ["x"], Float, Positive, |v| 1.0 / v[0].sqrt();
        f: map1 |x| 1.0 / x.sqrt(); i: none; b: none;
        "rsqrt({0})"; "1 / sqrt(x).";
        grad: |x, o, g, _i| (c(-0.5) * e(g) * e(o) / e(&x[0])).0),
    ew!("exp", "exp(x)", ["x"], Float, Any, |v| v[0].exp();
        f: map1 |x| x.vexp(); i: none; b: none;
        "exp({0})"; "e to the power x.";
        grad: |_x, o, g, _i| (e(g) * e(o)).0),
    ew!("expm1", "expm1(x)", ["x"], Float, Any, |v| v[0].exp_m1();
        f: map1 |x| x.vexpm1(); i: none; b: none;
        "expm1({0})"; "exp(x) - 1, accurate for small x.";
        grad: |_x, o, g, _i| (e(g) * (e(o) + c(1.0))).0),
    ew!("log", "log(x)", ["x"], Float, Positive, |v| v[0].ln();
        f: map1 |x| x.vln(); i: none; b: none;
        "log({0})"; "Natural logarithm (-inf at 0, nan below).";
        grad: |x, _o, g, _i| (e(g) / e(&x[0])).0),
    ew!("log1p", "log1p(x)", ["x"], Float, AboveMinusOne, |v| v[0].ln_1p();
        f: map1 |x| x.vln1p(); i: none; b: none;
        "log1p({0})"; "log(1 + x), accurate for small x.";
        grad: |x, _o, g, _i| (e(g) / (e(&x[0]) + c(1.0))).0),
    ew!("log2", "log2(x)", ["x"], Float, Positive, |v| v[0].log2();
        f: map1 |x| x.vlog2(); i: none; b: none;
        "log2({0})"; "Base-2 logarithm.";
        grad: |x, _o, g, _i| (e(g) / (e(&x[0]) * c(std::f64::consts::LN_2))).0),
    ew!("sin", "sin(x)", ["x"], Float, Any, |v| v[0].sin();
        f: map1 |x| x.sin(); i: none; b: none;
        "sin({0})"; "Sine (radians).";
        grad: |x, _o, g, _i| (e(g) * call("cos", [e(&x[0])])).0),
    ew!("cos", "cos(x)", ["x"], Float, Any, |v| v[0].cos();
        f: map1 |x| x.cos(); i: none; b: none;
        "cos({0})"; "Cosine (radians).";
        grad: |x, _o, g, _i| (-(e(g) * call("sin", [e(&x[0])]))).0),
    ew!("tan", "tan(x)", ["x"], Float, Small, |v| v[0].tan();
        f: map1 |x| x.tan(); i: none; b: none;
        "tan({0})"; "Tangent (radians).";
        grad: |_x, o, g, _i| (e(g) * (c(1.0) + e(o) * e(o))).0),
    ew!("tanh", "tanh(x)", ["x"], Float, Any, |v| v[0].tanh();
        f: map1 |x| x.vtanh(); i: none; b: none;
        "tanh({0})"; "Hyperbolic tangent.";
        grad: |_x, o, g, _i| (e(g) * (c(1.0) - e(o) * e(o))).0),
    ew!("sigmoid", "sigmoid(x)", ["x"], Float, Any, |v| 1.0 / (1.0 + (-v[0]).exp());
        f: map1 |x| x.vsigmoid(); i: none; b: none;
        "(1 / (1 + exp(-{0})))"; "The logistic function 1 / (1 + exp(-x)).";
        grad: |_x, o, g, _i| (e(g) * e(o) * (c(1.0) - e(o))).0),
    ew!("softplus", "softplus(x)", ["x"], Float, Any, |v| ref_softplus(v[0]);
        f: map1 |x| x.vsoftplus(); i: none; b: none;
        "(fmax({0}, 0) + log1p(exp(-fabs({0}))))"; "log(1 + exp(x)), computed without overflow.";
        grad: |x, _o, g, _i| (e(g) * call("sigmoid", [e(&x[0])])).0),
    ew!("relu", "relu(x)", ["x"], Same, Any, |v| if v[0] > 0.0 || v[0].is_nan() { v[0] } else { 0.0 };
        f: map1 |x| if x > 0.0 || x.is_nan() { x } else { 0.0 }; i: map1 |x| x.max(0); b: none;
        "({0} > 0 || {0} != {0} ? {0} : 0)", "({0} > 0 ? {0} : 0)"; "max(x, 0); nan stays nan.";
        grad: |x, _o, g, _i| where_(gt(e(&x[0]), c(0.0)), e(g), c(0.0)).0),
    ew!("floor", "floor(x)", ["x"], Same, Any, |v| v[0].floor();
        f: map1 |x| x.floor(); i: map1 |x| x; b: none;
        "floor({0})", "({0})"; "Round down; integers are kept as they are (NumPy 2)."),
    ew!("ceil", "ceil(x)", ["x"], Same, Any, |v| v[0].ceil();
        f: map1 |x| x.ceil(); i: map1 |x| x; b: none;
        "ceil({0})", "({0})"; "Round up; integers are kept as they are."),
    ew!("round", "round(x)", ["x"], Same, Any, |v| v[0].round_ties_even();
        f: map1 |x| x.round_ties_even(); i: map1 |x| x; b: none;
        "rint({0})", "({0})"; "Round to the nearest integer, halves to even (as NumPy); a Python number gives a Python int (round(2.5) is 2). round(x, decimals) rounds to that many decimals (as around).";
        py: super::py_scalar::round; alt: (2, super::npmath::round_digits)),
    ew!("maximum", "maximum(x, y)", ["x", "y"], Same, Any, |v| ref_max(v[0], v[1]);
        f: map2 |x, y| if x > y || x.is_nan() { x } else { y }; i: map2 |x, y| x.max(y); b: none;
        "(({0} > {1} || {0} != {0}) ? {0} : {1})", "max({0}, {1})"; "Elementwise larger value; nan wins.";
        grad: |x, _o, g, i| where_(gt(e(&x[i]), e(&x[1 - i])), e(g), where_(eq(e(&x[0]), e(&x[1])), c(0.5) * e(g), c(0.0))).0),
    ew!("minimum", "minimum(x, y)", ["x", "y"], Same, Any, |v| ref_min(v[0], v[1]);
        f: map2 |x, y| if x < y || x.is_nan() { x } else { y }; i: map2 |x, y| x.min(y); b: none;
        "(({0} < {1} || {0} != {0}) ? {0} : {1})", "min({0}, {1})"; "Elementwise smaller value; nan wins.";
        grad: |x, _o, g, i| where_(lt(e(&x[i]), e(&x[1 - i])), e(g), where_(eq(e(&x[0]), e(&x[1])), c(0.5) * e(g), c(0.0))).0),
    ew!("clip", "clip(x, lo, hi)", ["x", "lo", "hi"], Same, Any, |v| ref_min(ref_max(v[0], v[1]), v[2]);
        f: map3 |x, lo, hi| { let m = if x > lo || x.is_nan() { x } else { lo }; if m < hi || m.is_nan() { m } else { hi } };
        i: map3 |x, lo, hi| x.max(lo).min(hi); b: none;
        "gc_clip({0}, {1}, {2})", "min(max({0}, {1}), {2})"; "minimum(maximum(x, lo), hi); a nan wins. A none or missing bound is no bound (clip(x, 0, none) is maximum(x, 0)); NumPy's a_min=/a_max= and min=/max= (x.clip(min=0), PyTorch's clamp) name the bounds too.";
        grad: |x, _o, g, i| match i { 0 => where_(call("logical_and", [ge(e(&x[0]), e(&x[1])), le(e(&x[0]), e(&x[2]))]), e(g), c(0.0)).0, 1 => where_(lt(e(&x[0]), e(&x[1])), e(g), c(0.0)).0, _ => where_(gt(e(&x[0]), e(&x[2])), e(g), c(0.0)).0 };
        alt: (ANY_ARITY, super::clip_call::clip_call)),
    ew!("where", "where(cond, x, y)", ["cond", "x", "y"], Where, Any, |v| if v[0] != 0.0 { v[1] } else { v[2] };
        f: map3 |c, x, y| if c != 0.0 { x } else { y }; i: map3 |c, x, y| if c != 0 { x } else { y }; b: none;
        "({0} ? {1} : {2})"; "x where cond is true, else y (broadcasting all three). With one argument, where(cond) is nonzero(cond), as in NumPy.";
        grad: |x, _o, g, i| match i { 1 => where_(e(&x[0]), e(g), c(0.0)).0, 2 => where_(e(&x[0]), c(0.0), e(g)).0, _ => None };
        alt: (1, super::sort::where_one)),
    ew!("logical_and", "logical_and(x, y)", ["x", "y"], Logical, Any, |v| b(v[0] != 0.0 && v[1] != 0.0);
        f: none; i: none; b: map2 |x, y| x & y;
        "({0} && {1})"; "Elementwise and of truth values (nonzero is true)."),
    ew!("logical_or", "logical_or(x, y)", ["x", "y"], Logical, Any, |v| b(v[0] != 0.0 || v[1] != 0.0);
        f: none; i: none; b: map2 |x, y| x | y;
        "({0} || {1})"; "Elementwise or of truth values (nonzero is true)."),
    ew!("logical_not", "logical_not(x)", ["x"], Logical, Any, |v| b(v[0] == 0.0);
        f: none; i: none; b: map1 |x| !x;
        "(!{0})"; "Elementwise not of truth values (nonzero is true)."),
    ew!("bitwise_and", "bitwise_and(x, y)", ["x", "y"], Bitwise, Any, |v| ref_bits(v, |x, y| x & y);
        f: none; i: map2 |x, y| x & y; b: map2 |x, y| x & y;
        "({0} & {1})"; "Bitwise and of ints, logical and of bools (the `&` operator); floats are an error."),
    ew!("bitwise_or", "bitwise_or(x, y)", ["x", "y"], Bitwise, Any, |v| ref_bits(v, |x, y| x | y);
        f: none; i: map2 |x, y| x | y; b: map2 |x, y| x | y;
        "({0} | {1})"; "Bitwise or of ints, logical or of bools (the `|` operator); floats are an error."),
    ew!("bitwise_xor", "bitwise_xor(x, y)", ["x", "y"], Bitwise, Any, |v| ref_bits(v, |x, y| x ^ y);
        f: none; i: map2 |x, y| x ^ y; b: map2 |x, y| x ^ y;
        "({0} ^ {1})"; "Bitwise exclusive or of ints, logical xor of bools (the `^` operator); floats are an error."),
    INVERT,
    LEFT_SHIFT,
    RIGHT_SHIFT,
    ew!("isnan", "isnan(x)", ["x"], Pred, Any, |v| b(v[0].is_nan());
        f: pred1 |x| x.is_nan(); i: pred1 |_x| false; b: none;
        "isnan({0})", "false"; "Whether x is nan."),
    ew!("isfinite", "isfinite(x)", ["x"], Pred, Any, |v| b(v[0].is_finite());
        f: pred1 |x| x.is_finite(); i: pred1 |_x| true; b: none;
        "isfinite({0})", "true"; "Whether x is neither inf nor nan."),
];

/// The compute kind and the result kind of `def` applied to operands of `kinds`.
pub fn result_kinds(
    name: &str,
    def: &EwDef,
    kinds: &[Kind],
    float_x: DType,
) -> Result<(Kind, Kind)> {
    let p = promote_kinds(kinds, float_x);
    let bool_to_int = |k: Kind| match k {
        Kind::Strong(DType::Bool) => Kind::Strong(DType::Int64),
        Kind::WeakBool => Kind::WeakInt,
        k => k,
    };
    let to_bool = |k: Kind| {
        if matches!(k, Kind::Strong(_)) {
            Kind::Strong(DType::Bool)
        } else {
            Kind::WeakBool
        }
    };
    Ok(match def.rule {
        Rule::Float => {
            let c = match p {
                Kind::Strong(d) if d.is_float() => p,
                Kind::Strong(_) => Kind::Strong(float_x),
                _ => Kind::WeakFloat,
            };
            (c, c)
        }
        Rule::Arith => (bool_to_int(p), bool_to_int(p)),
        Rule::BoolKeeps if p == Kind::Strong(DType::Bool) => (p, p),
        Rule::BoolKeeps => (bool_to_int(p), bool_to_int(p)),
        Rule::NoBool if p == Kind::Strong(DType::Bool) => {
            let (what, fix) = if kinds.len() == 1 {
                ("negative, the unary `-`", "`~x` or logical_not(x)")
            } else {
                ("subtract, the `-` operator", "`x ^ y` or logical_xor(x, y)")
            };
            return Err(Error::dtype(
                name,
                format!("{what}, is not defined on bool arrays (NumPy and PyTorch refuse it too)"),
            )
            .with_help(format!(
                "use {fix} for bools, or convert first: x.astype(int64)"
            )));
        }
        Rule::NoBool => (bool_to_int(p), bool_to_int(p)),
        Rule::Same => (p, p),
        Rule::Cmp | Rule::Pred => (p, to_bool(p)),
        Rule::Logical => (to_bool(p), to_bool(p)),
        Rule::Bitwise | Rule::Shift => {
            if let Kind::WeakFloat
            | Kind::Strong(DType::Float16 | DType::Float32 | DType::Float64) = p
            {
                return Err(not_on_floats(name, def, p, float_x));
            }
            match def.rule {
                Rule::Shift => (bool_to_int(p), bool_to_int(p)),
                _ => (p, p),
            }
        }
        Rule::Where => {
            let Some(values) = kinds.get(1..) else {
                return Err(Error::internal(format!(
                    "{name}: where needs three operands"
                )));
            };
            let v = promote_kinds(values, float_x);
            let strong = kinds.iter().any(|k| matches!(k, Kind::Strong(_)));
            let v = match v {
                Kind::WeakInt if strong => Kind::Strong(DType::Int64),
                Kind::WeakFloat if strong => Kind::Strong(float_x),
                Kind::WeakBool if strong => Kind::Strong(DType::Bool),
                v => v,
            };
            (v, v)
        }
    })
}

/// Bitwise ops and shifts on a float operand: NumPy refuses them too.
fn not_on_floats(name: &str, def: &EwDef, p: Kind, float_x: DType) -> Error {
    let what = match p {
        Kind::Strong(d) => format!("a {d} operand"),
        _ => "a float".to_string(),
    };
    let _ = float_x;
    let help = if def.rule == Rule::Shift {
        format!("{name} takes integers: convert first, e.g. x.astype(int64)")
    } else {
        "`& | ^ ~` take ints or bools: compare first for a mask, e.g. (x > 0) & (y < 1), or convert with astype(int64)".to_string()
    };
    Error::dtype(
        name,
        format!("{name} is defined on integers and bools, not on {what}"),
    )
    .with_help(help)
}

/// The builtin an elementwise entry is when called with `n` arguments other
/// than its arity (`where(cond)`), if it has one.
#[inline]
pub fn alternate(op: &OpDef, n: usize) -> Option<super::BuiltinFn> {
    match &op.kind {
        OpKind::Elementwise(EwDef {
            alt: Some((k, f)), ..
        }) if *k == n || *k == ANY_ARITY => Some(*f),
        _ => None,
    }
}

/// An `alt` arity meaning every call that does not fuse (keywords, a
/// method call, a none argument): `clip`'s optional bounds.
pub const ANY_ARITY: usize = usize::MAX;

/// The `alt` taken instead of fusing a positional call of `n` arguments
/// (an `ANY_ARITY` alt still lets positional calls fuse).
pub fn alternate_exact(op: &OpDef, n: usize) -> Option<super::BuiltinFn> {
    match &op.kind {
        OpKind::Elementwise(EwDef {
            alt: Some((k, f)), ..
        }) if *k == n => Some(*f),
        _ => None,
    }
}

/// The elementwise definition of a table entry, if it is one.
pub fn ew_def(op: &OpDef) -> Option<&EwDef> {
    match &op.kind {
        OpKind::Elementwise(d) => Some(d),
        _ => None,
    }
}

/// The elementwise entry of `op`, checked against a call with `n` arguments
/// (the one arity check of the interpreter, the CPU pass and the CUDA pass).
#[inline]
pub fn ew_checked(op: &OpDef, n: usize) -> Result<&EwDef> {
    let def = ew_def(op).ok_or_else(|| {
        Error::type_(format!("{} is not an elementwise operation", op.name)).with_op(op.name)
    })?;
    if n != def.arity {
        return Err(Error::value(format!(
            "{}() takes {} argument{} but {n} were given",
            op.name,
            def.arity,
            if def.arity == 1 { "" } else { "s" },
        ))
        .with_op(op.name)
        .with_help(format!("usage: {}", op.sig)));
    }
    Ok(def)
}
