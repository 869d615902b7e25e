//! Python's arithmetic for weak scalars: an elementwise tree whose operands
//! are all weak numbers (literals, `len()`, loop counters, `item()`) follows
//! Python, not NumPy's fixed-width arrays (docs/LANGUAGE-REFERENCE.md,
//! "Python numbers"):
//!
//! - `/`, `//` and `%` by zero are a division-by-zero error (ints and floats);
//! - an int result that does not fit in 64 bits is an overflow error, never
//!   a wrapped value (`2 ** 64`, `10 ** 100`, `2 ** 62 * 4`);
//! - `int ** negative int` is a float (`2 ** -1` is 0.5);
//! - `//` and `%` of floats are Python's (`1 // 0.1` is 9.0);
//! - shifts by a negative count are an error.
//!
//! Each op's rule is named by its op-table entry (`EwDef::py`); an op without
//! one (or whose rule declines) computes as it does for arrays.

use super::OpDef;
use super::elementwise::ew_checked;
use super::fuse::{EwNode, Operand};
use crate::display::float_text;
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};

/// Evaluate a tree whose leaves are all weak scalars.
pub fn eval(node: EwNode, float_x: DType) -> Result<Operand> {
    match node {
        EwNode::Leaf(o) => Ok(o),
        EwNode::Op { op, args } => {
            let vals = args
                .into_iter()
                .map(|a| eval(a, float_x))
                .collect::<Result<Vec<_>>>()?;
            apply(op, vals, float_x)
        }
    }
}

fn apply(op: &'static OpDef, vals: Vec<Operand>, float_x: DType) -> Result<Operand> {
    let def = ew_checked(op, vals.len())?;
    if let Some(rule) = def.py
        && let Some(o) = rule(&vals)?
    {
        return Ok(o);
    }
    super::fuse::eval_scalar_op(op, vals, float_x)
}

/// The operands as Python ints (bools are 0 and 1), when both are.
fn ints(v: &[Operand]) -> Option<(i64, i64)> {
    let int = |o: &Operand| match o {
        Operand::Int(i) => Some(*i),
        Operand::Bool(b) => Some(*b as i64),
        _ => None,
    };
    Some((int(v.first()?)?, int(v.get(1)?)?))
}

fn one_int(v: &[Operand]) -> Option<i64> {
    match v.first()? {
        Operand::Int(i) => Some(*i),
        Operand::Bool(b) => Some(*b as i64),
        _ => None,
    }
}

fn floats(v: &[Operand]) -> Option<(f64, f64)> {
    let f = |o: &Operand| match o {
        Operand::Int(i) => Some(*i as f64),
        Operand::Bool(b) => Some(*b as i64 as f64),
        Operand::Float(f) => Some(*f),
        Operand::Array(_) | Operand::Complex(..) => None,
    };
    Some((f(v.first()?)?, f(v.get(1)?)?))
}

fn text(o: &Operand) -> String {
    match o {
        Operand::Int(i) => i.to_string(),
        Operand::Float(f) => float_text(*f),
        Operand::Bool(b) => b.to_string(),
        Operand::Complex(re, im) => {
            crate::array::print::format_complex_scalar(*re, *im, crate::dtype::DType::Complex128)
        }
        Operand::Array(_) => "an array".into(),
    }
}

fn overflow(v: &[Operand], sym: &str) -> Error {
    let expr = match v {
        [x] => format!("{sym}{}", text(x)),
        [x, y, ..] => format!("{} {sym} {}", text(x), text(y)),
        [] => sym.to_string(),
    };
    Error::new(
        ErrorKind::Overflow,
        format!("{expr} does not fit in a 64-bit integer"),
    )
    .with_help(
        "gcalc's integers are 64-bit, as NumPy's int64 (they never wrap around); \
         use a float for larger values, e.g. 2.0 ** 64",
    )
}

fn zero_division(v: &[Operand], sym: &str) -> Error {
    Error::new(
        ErrorKind::ZeroDivision,
        format!("{} {sym} {}", text(&v[0]), text(&v[1])),
    )
    .with_help(
        "Python numbers follow Python: dividing one by zero is an error \
         (arrays follow NumPy: inf or nan for floats)",
    )
}

fn is_zero(o: &Operand) -> bool {
    match o {
        Operand::Int(i) => *i == 0,
        Operand::Bool(b) => !*b,
        Operand::Float(f) => *f == 0.0,
        Operand::Complex(re, im) => *re == 0.0 && *im == 0.0,
        Operand::Array(_) => false,
    }
}

fn checked(v: &[Operand], sym: &str, f: fn(i64, i64) -> Option<i64>) -> Result<Option<Operand>> {
    match ints(v) {
        Some((a, b)) => f(a, b)
            .map(|r| Some(Operand::Int(r)))
            .ok_or_else(|| overflow(v, sym)),
        None => Ok(None),
    }
}

pub fn add(v: &[Operand]) -> Result<Option<Operand>> {
    checked(v, "+", i64::checked_add)
}

pub fn subtract(v: &[Operand]) -> Result<Option<Operand>> {
    checked(v, "-", i64::checked_sub)
}

pub fn multiply(v: &[Operand]) -> Result<Option<Operand>> {
    checked(v, "*", i64::checked_mul)
}

pub fn divide(v: &[Operand]) -> Result<Option<Operand>> {
    if v.get(1).is_some_and(is_zero) {
        return Err(zero_division(v, "/"));
    }
    Ok(None)
}

pub fn floor_divide(v: &[Operand]) -> Result<Option<Operand>> {
    if v.get(1).is_some_and(is_zero) {
        return Err(zero_division(v, "//"));
    }
    if let Some((a, b)) = ints(v) {
        let q = a.checked_div(b).ok_or_else(|| overflow(v, "//"))?;
        let q = if (a % b != 0) && ((a < 0) != (b < 0)) {
            q - 1
        } else {
            q
        };
        return Ok(Some(Operand::Int(q)));
    }
    Ok(floats(v).map(|(a, b)| Operand::Float(py_float_divmod(a, b).0)))
}

pub fn modulo(v: &[Operand]) -> Result<Option<Operand>> {
    if v.get(1).is_some_and(is_zero) {
        return Err(zero_division(v, "%"));
    }
    if let Some((a, b)) = ints(v) {
        let r = a.checked_rem(b).unwrap_or(0);
        let r = if r != 0 && ((r < 0) != (b < 0)) {
            r + b
        } else {
            r
        };
        return Ok(Some(Operand::Int(r)));
    }
    Ok(floats(v).map(|(a, b)| Operand::Float(py_float_divmod(a, b).1)))
}

/// CPython's `float.__divmod__` (floatobject.c): the quotient rounded to
/// the nearest integer the exact one lies under, and a remainder with the
/// divisor's sign. `b` is nonzero.
pub fn py_float_divmod(a: f64, b: f64) -> (f64, f64) {
    let mut m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(b);
    }
    let floordiv = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0f64.copysign(a / b)
    };
    (floordiv, m)
}

pub fn power(v: &[Operand]) -> Result<Option<Operand>> {
    if let Some((a, b)) = ints(v) {
        if b < 0 {
            if a == 0 {
                return Err(Error::new(
                    ErrorKind::ZeroDivision,
                    format!("0 ** {b}: zero cannot be raised to a negative power"),
                ));
            }
            return Ok(Some(Operand::Float((a as f64).powf(b as f64))));
        }
        let r = match u32::try_from(b) {
            Ok(e) => a.checked_pow(e),
            // Huge exponents only fit for bases 0, 1 and -1.
            Err(_) => match a {
                0 | 1 => Some(a),
                -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
                _ => None,
            },
        };
        return r
            .map(|r| Some(Operand::Int(r)))
            .ok_or_else(|| overflow(v, "**"));
    }
    if let Some((a, b)) = floats(v)
        && a == 0.0
        && b < 0.0
    {
        return Err(Error::new(
            ErrorKind::ZeroDivision,
            format!(
                "{} ** {}: zero cannot be raised to a negative power",
                text(&v[0]),
                text(&v[1])
            ),
        ));
    }
    Ok(None)
}

pub fn negative(v: &[Operand]) -> Result<Option<Operand>> {
    match one_int(v) {
        Some(a) => a
            .checked_neg()
            .map(|r| Some(Operand::Int(r)))
            .ok_or_else(|| overflow(v, "-")),
        None => Ok(None),
    }
}

pub fn abs(v: &[Operand]) -> Result<Option<Operand>> {
    match one_int(v) {
        Some(a) => a
            .checked_abs()
            .map(|r| Some(Operand::Int(r)))
            .ok_or_else(|| overflow(v, "abs ")),
        None => Ok(None),
    }
}

fn negative_count(v: &[Operand], sym: &str) -> Error {
    Error::value(format!(
        "{} {sym} {}: a shift count cannot be negative",
        text(&v[0]),
        text(&v[1])
    ))
}

pub fn left_shift(v: &[Operand]) -> Result<Option<Operand>> {
    let Some((a, n)) = ints(v) else {
        return Ok(None);
    };
    if n < 0 {
        return Err(negative_count(v, "<<"));
    }
    if a == 0 {
        return Ok(Some(Operand::Int(0)));
    }
    let r = super::elementwise::shl(a, n);
    if n >= 64 || (r >> n) != a {
        return Err(overflow(v, "<<"));
    }
    Ok(Some(Operand::Int(r)))
}

pub fn right_shift(v: &[Operand]) -> Result<Option<Operand>> {
    let Some((a, n)) = ints(v) else {
        return Ok(None);
    };
    if n < 0 {
        return Err(negative_count(v, ">>"));
    }
    Ok(Some(Operand::Int(super::elementwise::shr(a, n))))
}

/// Python's `round(x, ndigits)` of a float: the value correctly rounded to
/// `ndigits` decimals (halves to even on the exact binary value, so
/// `round(2.675, 2)` is 2.67 as Python gives), as CPython's dtoa-based
/// `float.__round__`: ndigits past 323 leave x, below -308 give a zero.
pub fn round_float_digits(x: f64, nd: i64) -> Result<f64> {
    if nd > 323 || x == 0.0 || !x.is_finite() {
        return Ok(x);
    }
    if nd < -308 {
        return Ok(0.0 * x);
    }
    let r: f64 = if nd >= 0 {
        format!("{:.*}", nd as usize, x).parse().unwrap_or(x)
    } else {
        // Exact digits of the integer part; the fraction only breaks ties.
        let a = x.abs();
        let int = format!("{:.0}", a.trunc());
        let frac = a - a.trunc();
        let k = (-nd) as usize;
        let m: f64 = if int.len() < k {
            // |x| < 10^(k-1): rounds to 0 unless it reaches half of 10^k.
            0.0
        } else {
            let (head, tail) = int.split_at(int.len() - k);
            let half = format!("5{}", "0".repeat(k - 1));
            let up = match tail.cmp(half.as_str()) {
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal if frac > 0.0 => true,
                std::cmp::Ordering::Equal => {
                    head.bytes().last().is_some_and(|d| (d - b'0') % 2 == 1)
                }
            };
            let mut digits: Vec<u8> = head.bytes().collect();
            if up {
                let mut i = digits.len();
                loop {
                    if i == 0 {
                        digits.insert(0, b'1');
                        break;
                    }
                    i -= 1;
                    if digits[i] == b'9' {
                        digits[i] = b'0';
                    } else {
                        digits[i] += 1;
                        break;
                    }
                }
            }
            let text = format!("{}e{k}", String::from_utf8_lossy(&digits));
            let text = if digits.is_empty() {
                "0".to_string()
            } else {
                text
            };
            text.parse().unwrap_or(f64::INFINITY)
        };
        m.copysign(x)
    };
    if r.is_infinite() {
        return Err(Error::new(
            ErrorKind::Overflow,
            format!("round({x}, {nd}): the rounded value is too large to represent"),
        ));
    }
    Ok(r)
}

/// Python's `round(k, ndigits)` of an int: exact, halves to even
/// (`round(1250, -2)` is 1200); ndigits >= 0 leaves k.
pub fn round_int_digits(k: i64, nd: i64) -> Result<i64> {
    if nd >= 0 {
        return Ok(k);
    }
    if nd < -38 {
        return Ok(0);
    }
    let p = 10i128.pow((-nd) as u32);
    let (q, r) = ((k as i128).div_euclid(p), (k as i128).rem_euclid(p));
    let q = match (2 * r).cmp(&p) {
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal if q % 2 != 0 => q + 1,
        _ => q,
    };
    i64::try_from(q * p).map_err(|_| {
        Error::new(
            ErrorKind::Overflow,
            format!("round({k}, {nd}) does not fit in a 64-bit integer"),
        )
    })
}

/// Python's `round(x)` of a number: an int, halves to even (`round(2.5)` is
/// 2); nan and inf cannot be rounded to an int (Python's ValueError and
/// OverflowError). `round(x, n)` goes elsewhere (NumPy's `around`).
pub fn round(v: &[Operand]) -> Result<Option<Operand>> {
    Ok(match v {
        [Operand::Int(i)] => Some(Operand::Int(*i)),
        [Operand::Bool(b)] => Some(Operand::Int(*b as i64)),
        [Operand::Float(f)] if f.is_nan() => {
            return Err(
                Error::value("round(nan): nan cannot be rounded to an integer").with_help(
                    "round(x) of a Python float gives an int, as Python's; array(x) keeps floats",
                ),
            );
        }
        [Operand::Float(f)] => {
            let r = f.round_ties_even();
            if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&r) {
                return Err(Error::new(
                    ErrorKind::Overflow,
                    format!("round({}) does not fit in a 64-bit integer", text(&v[0])),
                ));
            }
            Some(Operand::Int(r as i64))
        }
        _ => None,
    })
}
