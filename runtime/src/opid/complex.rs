//! Complex elementwise ops (`CxOp`): which table ops take complex operands,
//! what each gives (complex, its real part's dtype, or bool), and the f64
//! arithmetic both the CPU loop and Python-scalar evaluation run. Complex
//! trees are evaluated op by op (`ops::complex_ew`), not fused.

use crate::array::Cf64;

mod cmath;

/// A (re, im) function of `cmath` applied to `x`.
fn via(f: fn(f64, f64) -> (f64, f64), x: Cf64) -> Cf64 {
    let (re, im) = f(x.re, x.im);
    Cf64::new(re, im)
}

/// What a complex op gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CxOut {
    /// The operands' complex dtype.
    Complex,
    /// The real dtype of its parts (`abs`, `real`, `imag`, `angle`).
    Real,
    /// Bool (`==`, `!=`, `isnan`).
    Bool,
}

macro_rules! cx_ops {
    ($($v:ident $name:literal $arity:literal $out:ident,)*) => {
        /// A complex elementwise op; `name` is its op-table name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum CxOp { $($v,)* }
        impl CxOp {
            pub const ALL: &'static [CxOp] = &[$(CxOp::$v,)*];
            pub const fn name(self) -> &'static str {
                match self { $(CxOp::$v => $name,)* }
            }
            pub fn arity(self) -> usize {
                match self { $(CxOp::$v => $arity,)* }
            }
            pub fn out(self) -> CxOut {
                match self { $(CxOp::$v => CxOut::$out,)* }
            }
        }
    };
}

cx_ops! {
    Add "add" 2 Complex,
    Subtract "subtract" 2 Complex,
    Multiply "multiply" 2 Complex,
    Divide "divide" 2 Complex,
    Power "power" 2 Complex,
    Negative "negative" 1 Complex,
    Square "square" 1 Complex,
    Reciprocal "reciprocal" 1 Complex,
    Exp "exp" 1 Complex,
    Log "log" 1 Complex,
    Log10 "log10" 1 Complex,
    Log2 "log2" 1 Complex,
    Sqrt "sqrt" 1 Complex,
    Sin "sin" 1 Complex,
    Cos "cos" 1 Complex,
    Tan "tan" 1 Complex,
    Sinh "sinh" 1 Complex,
    Cosh "cosh" 1 Complex,
    Tanh "tanh" 1 Complex,
    Conj "conj" 1 Complex,
    Where "where" 3 Complex,
    Abs "abs" 1 Real,
    Real "real" 1 Real,
    Imag "imag" 1 Real,
    Angle "angle" 1 Real,
    Equal "equal" 2 Bool,
    NotEqual "not_equal" 2 Bool,
    Isnan "isnan" 1 Bool,
    Isfinite "isfinite" 1 Bool,
    Isinf "isinf" 1 Bool,
}

fn b(x: bool) -> Cf64 {
    Cf64::new(f64::from(u8::from(x)), 0.0)
}

/// NumPy's complex power: `0 ** 0` is 1, an integral exponent is exact
/// repeated multiplication (so `(1j) ** 2` is exactly -1), others by exp/log.
fn pow(x: Cf64, y: Cf64) -> Cf64 {
    if y.im == 0.0 && y.re.fract() == 0.0 && y.re.abs() <= 64.0 {
        let n = y.re as i32;
        let p = x.powi(n.abs());
        return if n < 0 { Cf64::new(1.0, 0.0) / p } else { p };
    }
    if x == Cf64::new(0.0, 0.0) {
        return if y.re > 0.0 {
            Cf64::new(0.0, 0.0)
        } else {
            Cf64::new(f64::NAN, f64::NAN)
        };
    }
    x.powc(y)
}

/// NumPy's complex division (Smith's algorithm, as its loops): no overflow
/// for large divisors, and a zero divisor gives the parts divided by 0.0
/// (`(1+1j)/0` is `inf+infj`, `(1+0j)/0` `inf+nanj`), no error.
fn div(a: Cf64, b: Cf64) -> Cf64 {
    let (br, bi) = (b.re.abs(), b.im.abs());
    if br >= bi {
        if br == 0.0 && bi == 0.0 {
            return Cf64::new(a.re / br, a.im / br);
        }
        let rat = b.im / b.re;
        let scl = 1.0 / (b.re + b.im * rat);
        Cf64::new((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl)
    } else {
        let rat = b.re / b.im;
        let scl = 1.0 / (b.im + b.re * rat);
        Cf64::new((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl)
    }
}

impl CxOp {
    /// The op on complex f64 operands; a real or bool result is the real
    /// part (bools as 0/1).
    #[inline]
    pub fn apply(self, v: &[Cf64]) -> Cf64 {
        let x = v[0];
        let r = |f: f64| Cf64::new(f, 0.0);
        match self {
            CxOp::Add => x + v[1],
            CxOp::Subtract => x - v[1],
            CxOp::Multiply => x * v[1],
            CxOp::Divide => div(x, v[1]),
            CxOp::Power => pow(x, v[1]),
            CxOp::Negative => -x,
            CxOp::Square => x * x,
            CxOp::Reciprocal => div(Cf64::new(1.0, 0.0), x),
            CxOp::Exp => via(cmath::exp, x),
            CxOp::Log => x.ln(),
            CxOp::Log10 => x.log10(),
            CxOp::Log2 => x.log2(),
            CxOp::Sqrt => x.sqrt(),
            CxOp::Sin => via(cmath::sin, x),
            CxOp::Cos => via(cmath::cos, x),
            CxOp::Tan => via(cmath::tan, x),
            CxOp::Sinh => via(cmath::sinh, x),
            CxOp::Cosh => via(cmath::cosh, x),
            CxOp::Tanh => via(cmath::tanh, x),
            CxOp::Conj => x.conj(),
            CxOp::Where => {
                if x.re != 0.0 || x.im != 0.0 {
                    v[1]
                } else {
                    v[2]
                }
            }
            CxOp::Abs => r(x.re.hypot(x.im)),
            CxOp::Real => r(x.re),
            CxOp::Imag => r(x.im),
            CxOp::Angle => r(x.im.atan2(x.re)),
            CxOp::Equal => b(x == v[1]),
            CxOp::NotEqual => b(x != v[1]),
            CxOp::Isnan => b(x.re.is_nan() || x.im.is_nan()),
            CxOp::Isfinite => b(x.re.is_finite() && x.im.is_finite()),
            CxOp::Isinf => b(x.re.is_infinite() || x.im.is_infinite()),
        }
    }
}

/// An operand of a complex op: an array or a weak scalar (real, imaginary).
#[derive(Clone, Debug)]
pub enum CxArg {
    Array(crate::array::Array),
    Scalar(f64, f64),
}
