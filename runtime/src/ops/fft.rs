//! The FFT family, as NumPy 2's `np.fft`: `fft ifft rfft irfft` along one
//! axis, `fft2 ifft2 rfft2 irfft2 fftn ifftn rfftn irfftn` over several (made
//! of 1-d transforms, one axis after another), `fftfreq rfftfreq`, and
//! `fftshift ifftshift` (rolls). Dtypes: float32 (and float16) data gives
//! complex64, float64 complex128, ints and bools floatX's complex; the real
//! results of `irfft` are the complex dtype's parts. Also reachable as
//! `fft.fft(x)` (NumPy's `np.fft.fft`, after `from numpy import fft`).

use super::creation::op;
use super::linalg_calls::Calls;
use super::stat_args as sa;
use crate::array::{Array, alloc, shape_ops::norm_axis};
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{FftJob, FftKind, FftNorm};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

/// Which transform an entry computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tr {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl Tr {
    fn kind(self) -> FftKind {
        match self {
            Tr::Fft => FftKind::C2c { inverse: false },
            Tr::Ifft => FftKind::C2c { inverse: true },
            Tr::Rfft => FftKind::R2c,
            Tr::Irfft => FftKind::C2r,
        }
    }
}

pub static OPS: &[OpDef] = &[
    op!(
        "fft",
        "fft(a, n=none, axis=-1, norm=none)",
        "The discrete Fourier transform of a along axis (complex; real input is promoted), cut or zero-padded to n points. complex64 for float32/complex64 input, complex128 for float64/complex128.",
        false,
        |i, a| one(Tr::Fft, i, a),
        grad: crate::autodiff::rules_fft::fft
    ),
    op!(
        "ifft",
        "ifft(a, n=none, axis=-1, norm=none)",
        "The inverse discrete Fourier transform of a along axis (scaled by 1/n by default), cut or zero-padded to n points.",
        false,
        |i, a| one(Tr::Ifft, i, a),
        grad: crate::autodiff::rules_fft::ifft
    ),
    op!(
        "rfft",
        "rfft(a, n=none, axis=-1, norm=none)",
        "The Fourier transform of real a along axis: the n//2+1 non-negative frequency terms. Complex input is a TypeError, as in NumPy 2.",
        false,
        |i, a| one(Tr::Rfft, i, a),
        grad: crate::autodiff::rules_fft::rfft
    ),
    op!(
        "irfft",
        "irfft(a, n=none, axis=-1, norm=none)",
        "The inverse of rfft: n real points (n=2*(m-1) by default for m input terms) from the non-negative frequency terms; the imaginary parts of the zero (and, n even, the Nyquist) terms are ignored.",
        false,
        |i, a| one(Tr::Irfft, i, a),
        grad: crate::autodiff::rules_fft::irfft
    ),
    op!(
        "fft2",
        "fft2(a, s=none, axes=(-2, -1), norm=none)",
        "The 2-d discrete Fourier transform over axes (the last two by default), each cut or padded to s.",
        false,
        |i, a| many(Tr::Fft, Some(2), i, a)
    ),
    op!(
        "ifft2",
        "ifft2(a, s=none, axes=(-2, -1), norm=none)",
        "The 2-d inverse discrete Fourier transform over axes (the last two by default).",
        false,
        |i, a| many(Tr::Ifft, Some(2), i, a)
    ),
    op!(
        "rfft2",
        "rfft2(a, s=none, axes=(-2, -1), norm=none)",
        "The 2-d Fourier transform of real a: rfft over the last of axes, fft over the other.",
        false,
        |i, a| many(Tr::Rfft, Some(2), i, a)
    ),
    op!(
        "irfft2",
        "irfft2(a, s=none, axes=(-2, -1), norm=none)",
        "The inverse of rfft2: ifft over the first of axes, irfft over the last (2*(m-1) points by default).",
        false,
        |i, a| many(Tr::Irfft, Some(2), i, a)
    ),
    op!(
        "fftn",
        "fftn(a, s=none, axes=none, norm=none)",
        "The n-d discrete Fourier transform over axes (all by default; the last len(s) when only s is given).",
        false,
        |i, a| many(Tr::Fft, None, i, a)
    ),
    op!(
        "ifftn",
        "ifftn(a, s=none, axes=none, norm=none)",
        "The n-d inverse discrete Fourier transform over axes (all by default).",
        false,
        |i, a| many(Tr::Ifft, None, i, a)
    ),
    op!(
        "rfftn",
        "rfftn(a, s=none, axes=none, norm=none)",
        "The n-d Fourier transform of real a: rfft over the last of axes, fft over the others.",
        false,
        |i, a| many(Tr::Rfft, None, i, a)
    ),
    op!(
        "irfftn",
        "irfftn(a, s=none, axes=none, norm=none)",
        "The inverse of rfftn: ifft over all but the last of axes, irfft over the last.",
        false,
        |i, a| many(Tr::Irfft, None, i, a)
    ),
    op!(
        "fftfreq",
        "fftfreq(n, d=1.0, device=none)",
        "The sample frequencies of an n-point fft with sample spacing d: [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n), in floatX.",
        false,
        |i, a| freq(false, i, a)
    ),
    op!(
        "rfftfreq",
        "rfftfreq(n, d=1.0, device=none)",
        "The sample frequencies of an n-point rfft: [0, 1, ..., n//2] / (d*n), in floatX.",
        false,
        |i, a| freq(true, i, a)
    ),
    op!(
        "fftshift",
        "fftshift(x, axes=none)",
        "x rolled by n//2 along axes (all by default): the zero frequency moved to the centre.",
        false,
        |i, a| shift(false, i, a)
    ),
    op!(
        "ifftshift",
        "ifftshift(x, axes=none)",
        "The inverse of fftshift: x rolled by -(n//2) along axes (all by default).",
        false,
        |i, a| shift(true, i, a)
    ),
];

fn norm_arg(v: Option<Value>, name: &str) -> Result<FftNorm> {
    match v {
        None | Some(Value::None) => Ok(FftNorm::Backward),
        Some(Value::Str(s)) => FftNorm::from_name(&s).ok_or_else(|| {
            Error::value(format!("{name}: invalid norm \"{s}\""))
                .with_op(name)
                .with_help("norm is \"backward\", \"ortho\" or \"forward\"")
        }),
        Some(v) => Err(Error::type_(format!(
            "{name}: norm must be a string, not {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("norm is \"backward\", \"ortho\" or \"forward\"")),
    }
}

/// A transform length (`n`, an item of `s`): an int of at least 1.
/// A 0-d integer array is an int here (NumPy's integer scalars).
fn len_arg(v: &Value, name: &str, what: &str) -> Result<usize> {
    match sa::index_of(v) {
        Some(k) if k >= 1 => Ok(k as usize),
        Some(k) => Err(Error::value(format!(
            "{name}: invalid number of FFT data points ({k}) specified"
        ))
        .with_op(name)
        .with_help(format!("{what} must be at least 1"))),
        None => Err(Error::type_(format!(
            "{name}: {what} must be an int, not {}",
            v.a_type_name()
        ))
        .with_op(name)),
    }
}

/// The complex dtype a transform computes in for input dtype `d`.
fn complex_of(d: DType, float_x: DType) -> DType {
    if d.is_int() || d.is_bool() {
        float_x.to_complex()
    } else {
        d.to_complex()
    }
}

/// One transform along `axis` with its length (`None`: from the input).
fn transform(
    x: &Array,
    tr: Tr,
    axis: usize,
    n: Option<usize>,
    norm: FftNorm,
    fx: DType,
) -> Result<Array> {
    let name = match tr {
        Tr::Fft => "fft",
        Tr::Ifft => "ifft",
        Tr::Rfft => "rfft",
        Tr::Irfft => "irfft",
    };
    if tr == Tr::Rfft && x.dtype().is_complex() {
        return Err(Error::type_(format!(
            "rfft: a must be real, got {} (NumPy 2 raises TypeError)",
            x.dtype()
        ))
        .with_op(name)
        .with_help("take the real part first, real(a), or use fft for complex data"));
    }
    let len = x.shape()[axis];
    let n = match n {
        Some(n) => n,
        None if tr == Tr::Irfft => 2 * len.saturating_sub(1),
        None => len,
    };
    if n == 0 {
        return Err(Error::value(format!(
            "{name}: invalid number of FFT data points (0) specified"
        ))
        .with_op(name)
        .with_help(if tr == Tr::Irfft {
            "irfft of m terms gives 2*(m-1) points: give at least 2 terms, or n"
        } else {
            "the axis is empty: give n >= 1 to pad it with zeros"
        }));
    }
    let cd = complex_of(x.dtype(), fx);
    let out = if tr == Tr::Irfft { cd.real_part() } else { cd };
    let job = FftJob {
        kind: tr.kind(),
        axis,
        n,
        norm,
    };
    backend::fft::run(x, job, out)
}

fn tr_of(kind: FftKind) -> Tr {
    match kind {
        FftKind::C2c { inverse: false } => Tr::Fft,
        FftKind::C2c { inverse: true } => Tr::Ifft,
        FftKind::R2c => Tr::Rfft,
        FftKind::C2r => Tr::Irfft,
    }
}

/// One 1-d transform (what the gradient rules' adjoints compute).
pub fn transform1(
    x: &Array,
    kind: FftKind,
    axis: usize,
    n: Option<usize>,
    norm: FftNorm,
    fx: DType,
) -> Result<Array> {
    transform(x, tr_of(kind), axis, n, norm, fx)
}

/// The (axis, n, norm) of a recorded 1-d call on `x` (for its gradient).
pub fn job_of(
    kind: FftKind,
    x: &Array,
    call: &crate::autodiff::GradCall,
    _fx: DType,
) -> Result<(usize, usize, FftNorm)> {
    let tr = tr_of(kind);
    let name = name_of1(tr);
    let get = |k: usize, key: &str| {
        call.pos
            .get(k)
            .or_else(|| call.kw.iter().find(|(w, _)| w == key).map(|(_, v)| v))
    };
    let axis = match get(2, "axis") {
        None => -1,
        Some(v) => sa::axis_int(v, name)?,
    };
    let axis = norm_axis(axis, x.ndim(), name)?;
    let len = x.shape()[axis];
    let n = match get(1, "n") {
        None | Some(Value::None) => {
            if tr == Tr::Irfft {
                2 * len.saturating_sub(1)
            } else {
                len
            }
        }
        Some(v) => len_arg(v, name, "n")?,
    };
    let norm = norm_arg(get(3, "norm").cloned(), name)?;
    Ok((axis, n, norm))
}

fn name_of(tr: Tr, axes: Option<usize>) -> &'static str {
    match (tr, axes) {
        (Tr::Fft, None) => "fftn",
        (Tr::Ifft, None) => "ifftn",
        (Tr::Rfft, None) => "rfftn",
        (Tr::Irfft, None) => "irfftn",
        (Tr::Fft, _) => "fft2",
        (Tr::Ifft, _) => "ifft2",
        (Tr::Rfft, _) => "rfft2",
        (Tr::Irfft, _) => "irfft2",
    }
}

fn input(i: &Interp, v: Value, name: &str) -> Result<Array> {
    let x = sa::data(i, v, name)?;
    if x.ndim() == 0 {
        return Err(Error::value(format!(
            "{name}: a must have at least one dimension, got a 0-d array"
        ))
        .with_op(name)
        .with_help("transform a 1-d array: array([x])"));
    }
    Ok(x)
}

fn one(tr: Tr, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = name_of1(tr);
    let x = input(i, a.req("a")?, name)?;
    let n = match a.opt("n")? {
        None | Some(Value::None) => None,
        Some(v) => Some(len_arg(&v, name, "n")?),
    };
    let axis = match a.opt("axis")? {
        None => -1,
        Some(v) => sa::axis_int(&v, name)?,
    };
    let norm = norm_arg(a.opt("norm")?, name)?;
    a.finish_with(&["a", "n", "axis", "norm"])?;
    let axis = norm_axis(axis, x.ndim(), name)?;
    Ok(Value::Array(transform(&x, tr, axis, n, norm, i.float_x())?))
}

fn name_of1(tr: Tr) -> &'static str {
    match tr {
        Tr::Fft => "fft",
        Tr::Ifft => "ifft",
        Tr::Rfft => "rfft",
        Tr::Irfft => "irfft",
    }
}

/// A tuple or list of ints (`s`, `axes`).
fn ints(v: &Value, name: &str, what: &str) -> Result<Vec<Value>> {
    match v.seq_items() {
        Some(items) => Ok(items.iter().cloned().collect()),
        None => match sa::index_of(v) {
            Some(_) => Ok(vec![v.clone()]),
            None => Err(Error::type_(format!(
                "{name}: {what} must be a tuple of ints, not {}",
                v.a_type_name()
            ))
            .with_op(name)),
        },
    }
}

/// The n-d transforms; `two`: the 2-d entries (axes default to the last two).
fn many(tr: Tr, two: Option<usize>, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = name_of(tr, two);
    let a_span = a.span;
    let x = input(i, a.req("a")?, name)?;
    let s = match a.opt("s")? {
        None | Some(Value::None) => None,
        Some(v) => Some(
            ints(&v, name, "s")?
                .iter()
                .map(|k| len_arg(k, name, "each item of s"))
                .collect::<Result<Vec<usize>>>()?,
        ),
    };
    let axes_v = a.opt("axes")?;
    let norm = norm_arg(a.opt("norm")?, name)?;
    a.finish_with(&["a", "s", "axes", "norm"])?;
    let nd = x.ndim();
    let axes: Vec<usize> = match axes_v {
        None | Some(Value::None) => match (two, &s) {
            (Some(k), _) => {
                if nd < k {
                    return Err(Error::value(format!(
                        "{name}: a has {nd} dimension(s); the default axes (-2, -1) need 2"
                    ))
                    .with_op(name)
                    .with_help("give axes=(-1,) or use the 1-d function"));
                }
                (nd - k..nd).collect()
            }
            (None, Some(s)) => {
                if s.len() > nd {
                    return Err(Error::value(format!(
                        "{name}: s has {} items but a has {nd} dimension(s)",
                        s.len()
                    ))
                    .with_op(name));
                }
                (nd - s.len()..nd).collect()
            }
            (None, None) => (0..nd).collect(),
        },
        Some(v) => ints(&v, name, "axes")?
            .iter()
            .map(|k| norm_axis(sa::axis_int(k, name)?, nd, name))
            .collect::<Result<Vec<usize>>>()?,
    };
    if let Some(s) = &s
        && s.len() != axes.len()
    {
        return Err(Error::value(format!(
            "{name}: s has {} items and axes {}: they must be as long",
            s.len(),
            axes.len()
        ))
        .with_op(name)
        .with_help("give one length in s per axis"));
    }
    if axes.is_empty() {
        if matches!(tr, Tr::Rfft | Tr::Irfft) {
            return Err(Error::value(format!("{name}: axes is empty")).with_op(name));
        }
        // NumPy returns the input itself (no transform, no cast).
        return Ok(Value::Array(x));
    }
    let len = |k: usize| s.as_ref().map(|s| s[k]);
    let last = axes.len() - 1;
    let c2c = if tr == Tr::Ifft || tr == Tr::Irfft {
        Tr::Ifft
    } else {
        Tr::Fft
    };
    // The 1-d steps go through the interpreter, so under grad each is on
    // the tape with its own rule (the n-d transforms need none).
    let mut steps: Vec<(Tr, usize, Option<usize>)> = Vec::new();
    match tr {
        Tr::Fft | Tr::Ifft => {
            for k in (0..axes.len()).rev() {
                steps.push((tr, axes[k], len(k)));
            }
        }
        Tr::Rfft => {
            steps.push((Tr::Rfft, axes[last], len(last)));
            for k in (0..last).rev() {
                steps.push((c2c, axes[k], len(k)));
            }
        }
        Tr::Irfft => {
            for (k, &ax) in axes[..last].iter().enumerate() {
                steps.push((c2c, ax, len(k)));
            }
            steps.push((Tr::Irfft, axes[last], len(last)));
        }
    }
    let span = a_span;
    let norm_name = FftNorm::NAMES[match norm {
        FftNorm::Backward => 0,
        FftNorm::Ortho => 1,
        FftNorm::Forward => 2,
    }];
    let mut c = Calls::new(i, span);
    let mut y = x;
    for (t, ax, n) in steps {
        let n = n.map_or(Value::None, |n| Value::Int(n as i64));
        y = c.arr(
            name_of1(t),
            vec![
                Value::Array(y),
                n,
                Value::Int(ax as i64),
                Value::str(norm_name),
            ],
            vec![],
        )?;
    }
    Ok(Value::Array(y))
}

fn freq(half: bool, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = if half { "rfftfreq" } else { "fftfreq" };
    let n = len_arg(&a.req("n")?, name, "n")?;
    // d: a number or a 0-d array (NumPy's `fftfreq(n, d=t[1] - t[0])`).
    let d = match a.opt("d")? {
        None => 1.0,
        Some(v) => sa::number_of(&v).ok_or_else(|| {
            Error::type_(format!(
                "{name}: d must be a number, not {}",
                v.a_type_name()
            ))
            .with_op(name)
        })?,
    };
    let dev = match a.kw("device") {
        Some(v) => super::creation::device_arg(&v)?,
        None => i.default_device(),
    };
    a.finish_with(&["n", "d", "device"])?;
    let val = 1.0 / (n as f64 * d);
    let count = if half { n / 2 + 1 } else { n };
    let pos = (n - 1) / 2 + 1;
    let dt = i.float_x();
    let f = |k: usize| -> f64 {
        if half || k < pos {
            k as f64 * val
        } else {
            (k as f64 - n as f64) * val
        }
    };
    let host = crate::with_real_dtype!(dt, T => alloc::alloc_with::<T>(&[count], |k| <T as crate::array::Element>::from_f64(f(k)))?,
        complex => return Err(Error::internal("floatX is complex")));
    Ok(Value::Array(backend::transfer::to_device(&host, dev)?))
}

fn shift(inverse: bool, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = if inverse { "ifftshift" } else { "fftshift" };
    let span = a.span_of(0);
    let x = sa::data(i, a.req("x")?, name)?;
    let axes_v = a.opt("axes")?;
    a.finish_with(&["x", "axes"])?;
    let nd = x.ndim();
    let axes: Vec<usize> = match axes_v {
        None | Some(Value::None) => (0..nd).collect(),
        Some(v) => ints(&v, name, "axes")?
            .iter()
            .map(|k| norm_axis(sa::axis_int(k, name)?, nd, name))
            .collect::<Result<Vec<usize>>>()?,
    };
    if axes.is_empty() {
        return Ok(Value::Array(x));
    }
    let shifts: Vec<Value> = axes
        .iter()
        .map(|&k| {
            let h = (x.shape()[k] / 2) as i64;
            Value::Int(if inverse { -h } else { h })
        })
        .collect();
    let axes: Vec<Value> = axes.iter().map(|&k| Value::Int(k as i64)).collect();
    let mut c = Calls::new(i, span);
    Ok(Value::Array(c.arr(
        "roll",
        vec![Value::Array(x), Value::tuple(shifts)],
        vec![("axis", Value::tuple(axes))],
    )?))
}

/// `fft.fft`, `fft.rfftfreq`...: attributes of the `fft` builtin (NumPy's
/// `np.fft` module, after `from numpy import fft`), the entries of this table.
pub fn namespace_attr(recv: &OpDef, attr: &str) -> Option<Value> {
    if !std::ptr::eq(recv, &OPS[0]) {
        return None;
    }
    OPS.iter().find(|d| d.name == attr).map(Value::Builtin)
}

/// The names `fft.` completes to.
pub fn namespace_names() -> Vec<String> {
    OPS.iter().map(|d| d.name.to_string()).collect()
}
