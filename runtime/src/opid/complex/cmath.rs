//! Complex exp and the trigonometric and hyperbolic functions with C99
//! Annex G's special values, as NumPy gets them from the C library (glibc's
//! cexp, csinh, ccosh, ctanh; csin = -i csinh(iz), ccos = ccosh(iz),
//! ctan = -i ctanh(iz)). The naive formulas (exp(re) * cos(im), ...) give
//! inf * 0 = nan once exp(re) overflows: `exp(1000+0j)` must be `inf+0j`,
//! `tanh(1000+0j)` `1+0j`. Large real parts are scaled so that a finite
//! part stays finite (`exp(1000+1e-300j)` is `inf+1.97e134j`). Parts are
//! (re, im) pairs of f64.

/// (DBL_MAX_EXP - 1) * ln 2: exp of anything above overflows on scaling.
const T: f64 = 1023.0 * std::f64::consts::LN_2;

/// (sin y, cos y), with sin y = y for a tiny y (so its sign and exactness
/// survive: y = -0.0 gives -0.0).
fn sincos(y: f64) -> (f64, f64) {
    if y.abs() > f64::MIN_POSITIVE {
        y.sin_cos()
    } else {
        (y, 1.0)
    }
}

/// exp(x) * (c, s) for x > T without overflowing early: exp(T) is applied
/// to c and s first (twice at most), `scale` multiplies both (0.5 for
/// cosh/sinh).
fn scaled_exp(x: f64, c: f64, s: f64, scale: f64) -> (f64, f64) {
    let et = T.exp();
    let (mut c, mut s) = (c * et * scale, s * et * scale);
    let mut rx = x - T;
    if rx > T {
        rx -= T;
        c *= et;
        s *= et;
    }
    if rx > T {
        return (f64::MAX * c, f64::MAX * s);
    }
    let e = rx.exp();
    (e * c, e * s)
}

pub fn exp(x: f64, y: f64) -> (f64, f64) {
    if x.is_finite() {
        if !y.is_finite() {
            return (f64::NAN, f64::NAN);
        }
        if y == 0.0 {
            return (x.exp(), y);
        }
        let (s, c) = sincos(y);
        if x > T {
            return scaled_exp(x, c, s, 1.0);
        }
        let e = x.exp();
        (e * c, e * s)
    } else if x.is_infinite() {
        let v = if x > 0.0 { f64::INFINITY } else { 0.0 };
        if y == 0.0 {
            (v, y)
        } else if y.is_finite() {
            let (s, c) = sincos(y);
            (v.copysign(c), v.copysign(s))
        } else if x > 0.0 {
            (f64::INFINITY, f64::NAN)
        } else {
            (0.0, 0.0f64.copysign(y))
        }
    } else if y == 0.0 {
        (f64::NAN, y)
    } else {
        (f64::NAN, f64::NAN)
    }
}

pub fn cosh(x: f64, y: f64) -> (f64, f64) {
    if x.is_finite() {
        if !y.is_finite() {
            return (f64::NAN, if x == 0.0 { 0.0 } else { f64::NAN });
        }
        let (mut s, c) = sincos(y);
        if x.abs() > T {
            if x < 0.0 {
                s = -s;
            }
            return scaled_exp(x.abs(), c, s, 0.5);
        }
        (x.cosh() * c, x.sinh() * s)
    } else if x.is_infinite() {
        if y == 0.0 {
            (f64::INFINITY, y * 1.0f64.copysign(x))
        } else if y.is_finite() {
            let (s, c) = sincos(y);
            (
                f64::INFINITY.copysign(c),
                f64::INFINITY.copysign(s) * 1.0f64.copysign(x),
            )
        } else {
            (f64::INFINITY, f64::NAN)
        }
    } else {
        (f64::NAN, if y == 0.0 { y } else { f64::NAN })
    }
}

pub fn sinh(x: f64, y: f64) -> (f64, f64) {
    if x.is_finite() {
        if !y.is_finite() {
            return (if x == 0.0 { x } else { f64::NAN }, f64::NAN);
        }
        let (s, mut c) = sincos(y);
        if x.abs() > T {
            if x < 0.0 {
                c = -c;
            }
            return scaled_exp(x.abs(), c, s, 0.5);
        }
        (x.sinh() * c, x.cosh() * s)
    } else if x.is_infinite() {
        if y == 0.0 {
            (x, y)
        } else if y.is_finite() {
            let (s, c) = sincos(y);
            (
                f64::INFINITY.copysign(c) * 1.0f64.copysign(x),
                f64::INFINITY.copysign(s),
            )
        } else {
            (f64::INFINITY, f64::NAN)
        }
    } else {
        (f64::NAN, if y == 0.0 { y } else { f64::NAN })
    }
}

pub fn tanh(x: f64, y: f64) -> (f64, f64) {
    if !x.is_finite() || !y.is_finite() {
        if x.is_infinite() {
            let im = if y.is_finite() && y.abs() > 1.0 {
                let (s, c) = y.sin_cos();
                0.0f64.copysign(s * c)
            } else {
                0.0f64.copysign(y)
            };
            return (1.0f64.copysign(x), im);
        }
        if y == 0.0 {
            return (x, y);
        }
        return (if x == 0.0 { x } else { f64::NAN }, f64::NAN);
    }
    // trunc((DBL_MAX_EXP - 1) * ln 2 / 2): beyond, tanh's real part is +-1.
    const H: f64 = 354.0;
    let (s, c) = sincos(y);
    if x.abs() > H {
        let e2 = (2.0 * H).exp();
        let rx = x.abs() - H;
        let mut im = 4.0 * s * c / e2;
        im /= if rx > H { e2 } else { (2.0 * rx).exp() };
        return (1.0f64.copysign(x), im);
    }
    let (sh, ch) = if x.abs() > f64::MIN_POSITIVE {
        (x.sinh(), x.cosh())
    } else {
        (x, 1.0)
    };
    let den = if sh.abs() > c.abs() * f64::EPSILON {
        sh * sh + c * c
    } else {
        c * c
    };
    (sh * ch / den, s * c / den)
}

/// sin z = -i sinh(iz).
pub fn sin(x: f64, y: f64) -> (f64, f64) {
    if y.is_infinite() && !x.is_finite() {
        return (f64::NAN, f64::INFINITY);
    }
    let (a, b) = sinh(-y, x);
    (b, -a)
}

/// cos z = cosh(iz).
pub fn cos(x: f64, y: f64) -> (f64, f64) {
    cosh(-y, x)
}

/// tan z = -i tanh(iz).
pub fn tan(x: f64, y: f64) -> (f64, f64) {
    let (a, b) = tanh(-y, x);
    (b, -a)
}
