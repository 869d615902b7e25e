//! NumPy's window functions `hanning hamming blackman bartlett kaiser`:
//! float64 values computed on the host with NumPy's formulas (kaiser's
//! Bessel I0 with the Cephes Chebyshev tables NumPy's `i0` uses), sent to
//! the session's device (or `device=`) once. M < 1 gives an empty array,
//! M == 1 gives [1.].

use super::super::nparr::{float, host_f64, value_err};
use crate::array::alloc;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

#[derive(Clone, Copy)]
pub(crate) enum Window {
    Hanning,
    Hamming,
    Blackman,
    Bartlett,
    Kaiser,
}

impl Window {
    fn name(self) -> &'static str {
        match self {
            Window::Hanning => "hanning",
            Window::Hamming => "hamming",
            Window::Blackman => "blackman",
            Window::Bartlett => "bartlett",
            Window::Kaiser => "kaiser",
        }
    }
}

/// M as NumPy reads it (`np.array([0.0, M])[1]`): any real number.
fn m_arg(v: Value, name: &str) -> Result<f64> {
    match v {
        Value::Bool(_) | Value::Int(_) | Value::Float(_) => float(&v, name, "M"),
        Value::Array(ref a) if a.ndim() == 0 && !a.dtype().is_complex() => float(&v, name, "M"),
        v => Err(Error::type_(format!(
            "{name}: M must be a number (the window's length), got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help(format!("e.g. {name}(51)"))),
    }
}

pub(crate) fn window(i: &mut Interp, mut a: Args, w: Window) -> Result<Value> {
    let name = w.name();
    let m = m_arg(a.req("M")?, name)?;
    let beta = match w {
        Window::Kaiser => float(&a.req("beta")?, name, "beta")?,
        _ => 0.0,
    };
    let dev = match a.kw("device") {
        None | Some(Value::None) => i.default_device(),
        Some(Value::Device(d)) => d,
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}: device must be a device, got {}",
                v.a_type_name()
            ))
            .with_op(name)
            .with_help("give device=cpu or device=gpu(0)"));
        }
    };
    match w {
        Window::Kaiser => a.finish_with(&["beta", "device"])?,
        _ => a.finish_with(&["device"])?,
    }
    let v = values(w, m, beta, name)?;
    to_array(v, dev)
}

fn to_array(v: Vec<f64>, dev: Device) -> Result<Value> {
    let n = v.len();
    Ok(Value::Array(host_f64(v, &[n], dev)?))
}

/// The window's float64 values, NumPy's expression by expression.
pub(crate) fn values(w: Window, m: f64, beta: f64, name: &str) -> Result<Vec<f64>> {
    if m.is_nan() || m > 1e12 {
        return Err(value_err(
            name,
            format!("M must be a finite window length, got {m}"),
            "give a length such as 51",
        ));
    }
    if let Window::Kaiser = w {
        if m == 1.0 {
            return Ok(vec![1.0]);
        }
        // n = arange(0, M); alpha = (M - 1) / 2
        let len = if m > 0.0 { m.ceil() as usize } else { 0 };
        let alpha = (m - 1.0) / 2.0;
        let den = i0(beta);
        return alloc::vec_with(len, |k| {
            let r = (k as f64 - alpha) / alpha;
            i0(beta * (1.0 - r * r).sqrt()) / den
        });
    }
    if m < 1.0 {
        return Ok(Vec::new());
    }
    if m == 1.0 {
        return Ok(vec![1.0]);
    }
    // n = arange(1 - M, M, 2)
    let start = 1.0 - m;
    let len = ((m - start) / 2.0).ceil() as usize;
    let pi = std::f64::consts::PI;
    alloc::vec_with(len, |k| {
        let n = start + 2.0 * k as f64;
        match w {
            Window::Hanning => 0.5 + 0.5 * (pi * n / (m - 1.0)).cos(),
            Window::Hamming => 0.54 + 0.46 * (pi * n / (m - 1.0)).cos(),
            Window::Blackman => {
                0.42 + 0.5 * (pi * n / (m - 1.0)).cos() + 0.08 * (2.0 * pi * n / (m - 1.0)).cos()
            }
            Window::Bartlett => {
                if n <= 0.0 {
                    1.0 + n / (m - 1.0)
                } else {
                    1.0 - n / (m - 1.0)
                }
            }
            Window::Kaiser => f64::NAN,
        }
    })
}

/// Chebyshev series of Cephes (NumPy's `_chbevl`).
fn chbevl(x: f64, vals: &[f64]) -> f64 {
    let mut b0 = vals[0];
    let mut b1 = 0.0;
    let mut b2 = 0.0;
    for &v in &vals[1..] {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + v;
    }
    0.5 * (b0 - b2)
}

/// The modified Bessel function of the first kind, order 0 (NumPy's `i0`).
pub(crate) fn i0(x: f64) -> f64 {
    let x = x.abs();
    if x <= 8.0 {
        x.exp() * chbevl(x / 2.0 - 2.0, &I0A)
    } else {
        x.exp() * chbevl(32.0 / x - 2.0, &I0B) / x.sqrt()
    }
}

const I0A: [f64; 30] = [
    -4.4153416464793395e-18,
    3.3307945188222384e-17,
    -2.431279846547955e-16,
    1.715391285555133e-15,
    -1.1685332877993451e-14,
    7.676185498604936e-14,
    -4.856446783111929e-13,
    2.95505266312964e-12,
    -1.726826291441556e-11,
    9.675809035373237e-11,
    -5.189795601635263e-10,
    2.6598237246823866e-09,
    -1.300025009986248e-08,
    6.046995022541919e-08,
    -2.670793853940612e-07,
    1.1173875391201037e-06,
    -4.4167383584587505e-06,
    1.6448448070728896e-05,
    -5.754195010082104e-05,
    0.00018850288509584165,
    -0.0005763755745385824,
    0.0016394756169413357,
    -0.004324309995050576,
    0.010546460394594998,
    -0.02373741480589947,
    0.04930528423967071,
    -0.09490109704804764,
    0.17162090152220877,
    -0.3046826723431984,
    0.6767952744094761,
];

const I0B: [f64; 25] = [
    -7.233180487874754e-18,
    -4.830504485944182e-18,
    4.46562142029676e-17,
    3.461222867697461e-17,
    -2.8276239805165836e-16,
    -3.425485619677219e-16,
    1.7725601330565263e-15,
    3.8116806693526224e-15,
    -9.554846698828307e-15,
    -4.150569347287222e-14,
    1.54008621752141e-14,
    3.8527783827421426e-13,
    7.180124451383666e-13,
    -1.7941785315068062e-12,
    -1.3215811840447713e-11,
    -3.1499165279632416e-11,
    1.1889147107846439e-11,
    4.94060238822497e-10,
    3.3962320257083865e-09,
    2.266668990498178e-08,
    2.0489185894690638e-07,
    2.8913705208347567e-06,
    6.889758346916825e-05,
    0.0033691164782556943,
    0.8044904110141088,
];
