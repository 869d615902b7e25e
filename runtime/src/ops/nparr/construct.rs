//! NumPy 2's construction functions gcalc lacked: the table entries of
//! `asarray empty_like logspace geomspace tri tril_indices triu_indices (+
//! _from) diag_indices (+ _from) diagflat indices ix_ vander ndim shape
//! size`, and the functions of those that are not index builders
//! (`grids.rs`). The spaced sequences are computed on the host with NumPy's
//! formulas (float64) and sent once.

use super::grids::{
    diag_indices, diag_indices_from, diagflat, indices, ix, tri, tri_indices, vander,
};
use super::{arr, astype, data, float, host_f64, int, shape_value, value_err};
use crate::array::Array;
use crate::array::alloc;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device_positional, op, shape_arg};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

/// `asarray`, also `asanyarray` (NumPy's name when subclasses pass) in `ops/np_misc.rs`.
pub(crate) const ASARRAY: OpDef = op!(
    "asarray",
    "asarray(a, dtype=none, device=none, copy=none)",
    "a as an array: an array of the asked dtype and device is given back as it is (no copy; copy=true copies, copy=false is an error when a copy is needed); numbers and lists are made into arrays like array().",
    false,
    asarray
);

pub static OPS: &[OpDef] = &[
    ASARRAY,
    op!(
        "empty_like",
        "empty_like(prototype, dtype=none, shape=none, device=none)",
        "A new array with prototype's shape (or shape=), dtype and device; gcalc fills it with zeros (NumPy leaves it uninitialised).",
        false,
        empty_like
    ),
    op!(
        "logspace",
        "logspace(start, stop, num=50, endpoint=true, base=10.0, dtype=none, device=none)",
        "num numbers spaced evenly on a log scale: base ** linspace(start, stop, num, endpoint), computed in float64 as NumPy does, then cast to dtype (floatX by default).",
        false,
        logspace
    ),
    op!(
        "geomspace",
        "geomspace(start, stop, num=50, endpoint=true, dtype=none, device=none)",
        "num numbers from start to stop forming a geometric progression (NumPy's formula in float64, the ends exact; negative start and stop give negative values); start or stop 0 is an error.",
        false,
        geomspace
    ),
    op!(
        "tri",
        "tri(N, M=none, k=0, dtype=floatX, device=none)",
        "An N x M array (M defaults to N) with ones at and below diagonal k and zeros elsewhere.",
        false,
        tri
    ),
    op!(
        "tril_indices",
        "tril_indices(n, k=0, m=none, device=none)",
        "The (rows, cols) int64 indices of the lower triangle (at and below diagonal k) of an n x m array, in row-major order.",
        false,
        |i, a| tri_indices(i, a, true, false)
    ),
    op!(
        "triu_indices",
        "triu_indices(n, k=0, m=none, device=none)",
        "The (rows, cols) int64 indices of the upper triangle (at and above diagonal k) of an n x m array, in row-major order.",
        false,
        |i, a| tri_indices(i, a, false, false)
    ),
    op!(
        "tril_indices_from",
        "tril_indices_from(arr, k=0)",
        "tril_indices for the shape of the 2-d array arr (on its device).",
        false,
        |i, a| tri_indices(i, a, true, true)
    ),
    op!(
        "triu_indices_from",
        "triu_indices_from(arr, k=0)",
        "triu_indices for the shape of the 2-d array arr (on its device).",
        false,
        |i, a| tri_indices(i, a, false, true)
    ),
    op!(
        "diag_indices",
        "diag_indices(n, ndim=2, device=none)",
        "A tuple of ndim int64 arrays arange(n): the indices of the main diagonal of an n x ... x n array.",
        false,
        diag_indices
    ),
    op!(
        "diag_indices_from",
        "diag_indices_from(arr)",
        "diag_indices for arr (at least 2-d, every dimension of equal length), on its device.",
        false,
        diag_indices_from
    ),
    op!(
        "diagflat",
        "diagflat(v, k=0)",
        "A 2-d array with the flattened v on diagonal k (diag(ravel(v), k)); differentiable.",
        false,
        diagflat
    ),
    op!(
        "indices",
        "indices(dimensions, dtype=int64, sparse=false, device=none)",
        "An array of shape (len(dimensions), *dimensions) whose k-th slice holds each position's index along axis k; sparse=true gives a tuple of arrays shaped to broadcast instead.",
        false,
        indices
    ),
    op!(
        "ix_",
        "ix_(*seqs)",
        "A tuple of arrays for an open mesh: the k-th sequence (1-d ints, or bools taken as their true positions) reshaped to length n along axis k and 1 elsewhere, so x[ix_(rows, cols)] takes a cross product.",
        false,
        ix
    ),
    op!(
        "vander",
        "vander(x, N=none, increasing=false)",
        "The Vandermonde matrix of the 1-d x: columns x**(N-1), ..., x**0 (x**0 first with increasing=true), N = len(x) by default; products accumulated as NumPy does; int64 for ints and bools, float64 for floats; differentiable.",
        false,
        vander
    ),
    op!(
        "ndim",
        "ndim(a)",
        "The number of dimensions of a (an array, a number or a nested list), as an int; x.ndim for arrays.",
        false,
        ndim
    ),
    op!(
        "shape",
        "shape(a)",
        "The shape of a (an array, a number or a nested list), as a tuple of ints; x.shape for arrays.",
        false,
        shape
    ),
    op!(
        "size",
        "size(a, axis=none)",
        "The number of elements of a (along axis when given), as an int; x.size for arrays.",
        false,
        size
    ),
];

fn asarray(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "asarray";
    let v = a.req("a")?;
    let (dt, dev) = dtype_device_positional(&mut a)?;
    let copy = a.opt("copy")?.unwrap_or(Value::None);
    a.finish_with(&["dtype", "device", "copy"])?;
    let copy = match copy {
        Value::None => None,
        Value::Bool(b) => Some(b),
        v => {
            return Err(Error::type_(format!(
                "{name}: copy must be true, false or none, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    let x = match v {
        Value::Array(x) => x,
        v => {
            if copy == Some(false) {
                return Err(value_err(
                    name,
                    format!("making an array of {} needs a copy", v.a_type_name()),
                    "leave copy= out, or give copy=true",
                ));
            }
            let mut kw = vec![];
            if let Some(d) = dt {
                kw.push(("dtype", Value::DType(d)));
            }
            if let Some(d) = dev {
                kw.push(("device", Value::Device(d)));
            }
            return super::call(i, span, "array", vec![v], kw);
        }
    };
    let same = dt.is_none_or(|d| d == x.dtype()) && dev.is_none_or(|d| d == x.device());
    if same && copy != Some(true) {
        return Ok(Value::Array(x));
    }
    if copy == Some(false) {
        return Err(value_err(
            name,
            "a change of dtype or device needs a copy".into(),
            "leave copy= out, or give copy=true",
        ));
    }
    let mut y = x.clone();
    if let Some(d) = dev.filter(|d| *d != x.device()) {
        y = arr(i, span, "to", vec![y.into(), Value::Device(d)], vec![])?;
    }
    if let Some(d) = dt.filter(|d| *d != x.dtype()) {
        y = astype(i, span, &y, d)?;
    }
    if y.same_as(&x) {
        y = arr(i, span, "copy", vec![y.into()], vec![])?;
    }
    Ok(Value::Array(y))
}

fn empty_like(i: &mut Interp, mut a: Args) -> Result<Value> {
    let p = data(i, a.req("prototype")?, "empty_like", "prototype")?;
    let (dt, dev) = dtype_device_positional(&mut a)?;
    let shape = a.kw("shape").filter(|v| !matches!(v, Value::None));
    a.finish_with(&["dtype", "shape", "device"])?;
    let shape = match shape {
        Some(s) => shape_arg(&s)?,
        None => p.shape().to_vec(),
    };
    let z = Array::zeros(&shape, dt.unwrap_or(p.dtype()), dev.unwrap_or(p.device()))?;
    Ok(Value::Array(z))
}

/// `num` (an int >= 0).
fn num_arg(v: Option<Value>, name: &str) -> Result<usize> {
    let n = match v {
        None => 50,
        Some(v) => int(&v, name, "num")?,
    };
    usize::try_from(n).map_err(|_| {
        value_err(
            name,
            format!("Number of samples, {n}, must be non-negative."),
            "give num >= 0",
        )
    })
}

pub(super) fn flag(v: Option<Value>, name: &str, what: &str, default: bool) -> Result<bool> {
    crate::ops::stat_args::flag(v, what, name, default)
}

/// NumPy's linspace in float64: k * step + start, the last value stop.
pub(super) fn linspace_f64(start: f64, stop: f64, num: usize, endpoint: bool) -> Result<Vec<f64>> {
    let div = if endpoint { num.saturating_sub(1) } else { num } as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut y = alloc::vec_with(num, |k| {
        if div > 0.0 {
            if step == 0.0 {
                (k as f64) / div * delta + start
            } else {
                (k as f64) * step + start
            }
        } else {
            (k as f64) * delta + start
        }
    })?;
    if endpoint && num > 1 {
        y[num - 1] = stop;
    }
    Ok(y)
}

/// A float64 host vector made into an array of `dt` on `dev`.
fn finish_f64(
    i: &mut Interp,
    span: gcalc_lang::Span,
    v: Vec<f64>,
    dt: Option<DType>,
    dev: Option<Device>,
) -> Result<Value> {
    let n = v.len();
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or_else(|| i.float_x());
    let x = host_f64(v, &[n], dev)?;
    Ok(Value::Array(astype(i, span, &x, d)?))
}

fn spaced(name: &'static str, i: &mut Interp, a: &mut Args) -> Result<(f64, f64, usize, bool)> {
    let start = float(&a.req("start")?, name, "start")?;
    let stop = float(&a.req("stop")?, name, "stop")?;
    let num = num_arg(a.opt("num")?, name)?;
    let endpoint = flag(a.opt("endpoint")?, name, "endpoint", true)?;
    let _ = i;
    Ok((start, stop, num, endpoint))
}

fn logspace(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "logspace";
    let (start, stop, num, endpoint) = spaced(name, i, &mut a)?;
    let base = match a.opt("base")? {
        None => 10.0,
        Some(v) => float(&v, name, "base")?,
    };
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["num", "endpoint", "base", "dtype", "device"])?;
    let y: Vec<f64> = linspace_f64(start, stop, num, endpoint)?
        .into_iter()
        .map(|e| base.powf(e))
        .collect();
    finish_f64(i, span, y, dt, dev)
}

fn geomspace(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "geomspace";
    let (start, stop, num, endpoint) = spaced(name, i, &mut a)?;
    let (dt, dev) = dtype_device_positional(&mut a)?;
    a.finish_with(&["num", "endpoint", "dtype", "device"])?;
    if start == 0.0 || stop == 0.0 {
        return Err(value_err(
            name,
            "Geometric sequence cannot include zero".into(),
            "give a start and a stop that are not 0",
        ));
    }
    let sign = if start.is_nan() {
        f64::NAN
    } else {
        start.signum()
    };
    let (s0, s1) = (start / sign, stop / sign);
    let mut y: Vec<f64> = linspace_f64(s0.log10(), s1.log10(), num, endpoint)?
        .into_iter()
        .map(|e| 10f64.powf(e))
        .collect();
    if num > 0 {
        y[0] = s0;
        if num > 1 && endpoint {
            y[num - 1] = s1;
        }
    }
    for v in &mut y {
        *v *= sign;
    }
    finish_f64(i, span, y, dt, dev)
}

fn any_array(i: &Interp, v: Value, name: &str) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        v => data(i, v, name, "a"),
    }
}

fn ndim(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = any_array(i, a.req("a")?, "ndim")?;
    a.finish()?;
    Ok(Value::Int(x.ndim() as i64))
}

fn shape(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = any_array(i, a.req("a")?, "shape")?;
    a.finish()?;
    Ok(shape_value(x.shape()))
}

fn size(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = any_array(i, a.req("a")?, "size")?;
    let axis = a.opt("axis")?;
    a.finish_with(&["axis"])?;
    match axis {
        None | Some(Value::None) => Ok(Value::Int(x.size() as i64)),
        Some(v) => {
            let ax = super::norm_axis(int(&v, "size", "axis")?, x.ndim(), "size")?;
            Ok(Value::Int(x.shape()[ax] as i64))
        }
    }
}
