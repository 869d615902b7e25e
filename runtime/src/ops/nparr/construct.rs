//! NumPy 2's construction functions gcalc lacked: `asarray empty_like
//! logspace geomspace tri tril_indices triu_indices (+ _from) diag_indices
//! (+ _from) diagflat indices ix_ vander ndim shape size`. The spaced
//! sequences are computed on the host with NumPy's formulas (bit for bit in
//! float64) and sent once; the rest are compositions of table ops.

use super::{
    arr, astype, data, float, host_f64, host_i64, int, ravel, reshape, shape_value, tuple_of,
    value_err,
};
use crate::array::Array;
use crate::array::alloc;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, op, shape_arg};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "asarray",
        "asarray(a, dtype=none, device=none, copy=none)",
        "a as an array: an array of the asked dtype and device is given back as it is (no copy; copy=true copies, copy=false is an error when a copy is needed); numbers and lists are made into arrays like array().",
        false,
        asarray
    ),
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
    let (dt, dev) = dtype_device(&mut a)?;
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
    let (dt, dev) = dtype_device(&mut a)?;
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

fn flag(v: Option<Value>, name: &str, what: &str, default: bool) -> Result<bool> {
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
    let (dt, dev) = dtype_device(&mut a)?;
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
    let (dt, dev) = dtype_device(&mut a)?;
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

fn dim(v: &Value, name: &str, what: &str) -> Result<usize> {
    let n = int(v, name, what)?;
    usize::try_from(n).map_err(|_| {
        value_err(
            name,
            format!("{what} must not be negative, got {n}"),
            "give a size >= 0",
        )
    })
}

fn tri(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "tri";
    let n = dim(&a.req("N")?, name, "N")?;
    let m = match a.opt("M")? {
        None | Some(Value::None) => n,
        Some(v) => dim(&v, name, "M")?,
    };
    let k = match a.opt("k")? {
        None => 0,
        Some(v) => int(&v, name, "k")?,
    };
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["M", "k", "dtype", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or_else(|| i.float_x());
    let x = alloc::alloc_with(&[n, m], |p| {
        let (r, c) = ((p / m.max(1)) as i64, (p % m.max(1)) as i64);
        (c <= r + k) as u8 != 0
    })?;
    let x = crate::backend::to_device(&x, dev)?;
    Ok(Value::Array(astype(i, span, &x, d)?))
}

fn tri_indices(i: &mut Interp, mut a: Args, lower: bool, from: bool) -> Result<Value> {
    let name = a.name;
    let (n, m, dev) = if from {
        let x = data(i, a.req("arr")?, name, "arr")?;
        if x.ndim() != 2 {
            return Err(value_err(
                name,
                format!("input array must be 2-d, got shape {:?}", x.shape()),
                "give a 2-d array",
            ));
        }
        (x.shape()[0], x.shape()[1], x.device())
    } else {
        let n = dim(&a.req("n")?, name, "n")?;
        (n, n, Device::Cpu)
    };
    let k = match a.opt("k")? {
        None => 0,
        Some(v) => int(&v, name, "k")?,
    };
    let (m, dev) = if from {
        a.finish_with(&["k"])?;
        (m, dev)
    } else {
        let m = match a.opt("m")? {
            None | Some(Value::None) => n,
            Some(v) => dim(&v, name, "m")?,
        };
        let (_, dev) = dtype_device(&mut a)?;
        a.finish_with(&["k", "m", "device"])?;
        (m, dev.unwrap_or_else(|| i.default_device()))
    };
    alloc::check_budget(n.saturating_mul(m), 16, "triangle indices")?;
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    for r in 0..n as i64 {
        for c in 0..m as i64 {
            if (lower && c <= r + k) || (!lower && c >= r + k) {
                rows.push(r);
                cols.push(c);
            }
        }
    }
    let len = rows.len();
    Ok(tuple_of(vec![
        host_i64(rows, &[len], dev)?,
        host_i64(cols, &[len], dev)?,
    ]))
}

fn diag_indices(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "diag_indices";
    let n = dim(&a.req("n")?, name, "n")?;
    let nd = match a.opt("ndim")? {
        None => 2,
        Some(v) => dim(&v, name, "ndim")?,
    };
    let (_, dev) = dtype_device(&mut a)?;
    a.finish_with(&["ndim", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let r = host_i64(alloc::vec_with(n, |k| k as i64)?, &[n], dev)?;
    Ok(tuple_of(vec![r; nd]))
}

fn diag_indices_from(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "diag_indices_from";
    let x = data(i, a.req("arr")?, name, "arr")?;
    a.finish()?;
    if x.ndim() < 2 {
        return Err(value_err(
            name,
            "input array must be at least 2-d".into(),
            "give a 2-d (or more) array",
        ));
    }
    let n = x.shape()[0];
    if x.shape().iter().any(|&d| d != n) {
        return Err(value_err(
            name,
            format!(
                "All dimensions of input must be of equal length, got shape {:?}",
                x.shape()
            ),
            "give a square array",
        ));
    }
    let r = host_i64(alloc::vec_with(n, |k| k as i64)?, &[n], x.device())?;
    Ok(tuple_of(vec![r; x.ndim()]))
}

fn diagflat(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let v = data(i, a.req("v")?, "diagflat", "v")?;
    let k = a.opt("k")?.unwrap_or(Value::Int(0));
    a.finish()?;
    let flat = ravel(i, span, &v)?;
    super::call(i, span, "diag", vec![flat.into(), k], vec![])
}

fn indices(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "indices";
    let dims: Vec<usize> = super::int_list(&a.req("dimensions")?, name, "dimensions")?
        .into_iter()
        .map(|d| {
            usize::try_from(d).map_err(|_| {
                value_err(
                    name,
                    format!("negative dimensions are not allowed, got {d}"),
                    "give sizes >= 0",
                )
            })
        })
        .collect::<Result<_>>()?;
    let sparse = flag(a.opt("sparse")?, name, "sparse", false)?;
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&["dtype", "sparse", "device"])?;
    let dev = dev.unwrap_or_else(|| i.default_device());
    let d = dt.unwrap_or(DType::Int64);
    let nd = dims.len();
    let mut out = Vec::with_capacity(nd);
    for (k, &n) in dims.iter().enumerate() {
        let r = host_i64(alloc::vec_with(n, |j| j as i64)?, &[n], dev)?;
        let r = astype(i, span, &r, d)?;
        let s: Vec<usize> = (0..nd).map(|j| if j == k { n } else { 1 }).collect();
        let r = reshape(i, span, &r, &s)?;
        out.push(r);
    }
    if sparse {
        return Ok(tuple_of(out));
    }
    if nd == 0 {
        return Ok(Value::Array(Array::zeros(&[0], d, dev)?));
    }
    let mut full = Vec::with_capacity(nd);
    for r in out {
        full.push(Value::Array(arr(
            i,
            span,
            "broadcast_to",
            vec![r.into(), shape_value(&dims)],
            vec![],
        )?));
    }
    super::call(
        i,
        span,
        "stack",
        vec![Value::list(full)],
        vec![("axis", Value::Int(0))],
    )
}

fn ix(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "ix_";
    let seqs = a.rest();
    a.finish()?;
    let nd = seqs.len();
    let mut out = Vec::with_capacity(nd);
    for (k, v) in seqs.into_iter().enumerate() {
        let empty_list =
            v.seq_items().is_some_and(|s| s.is_empty()) && !matches!(v, Value::Array(_));
        let mut x = if empty_list {
            Array::zeros(&[0], DType::Int64, i.default_device())?
        } else {
            data(i, v, name, "seqs")?
        };
        if x.ndim() != 1 {
            return Err(value_err(
                name,
                format!(
                    "Cross index must be 1 dimensional, argument {k} has shape {:?}",
                    x.shape()
                ),
                "give 1-d sequences",
            ));
        }
        if x.dtype() == DType::Bool {
            x = arr(i, span, "flatnonzero", vec![x.into()], vec![])?;
        } else if x.dtype().is_float() {
            return Err(Error::index(format!(
                "{name}: arrays used as indices must be of integer (or boolean) type, argument {k} is {}",
                x.dtype().name()
            ))
            .with_op(name)
            .with_help("give ints or bools"));
        }
        let n = x.size();
        let s: Vec<usize> = (0..nd).map(|j| if j == k { n } else { 1 }).collect();
        out.push(reshape(i, span, &x, &s)?);
    }
    Ok(tuple_of(out))
}

fn vander(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "vander";
    let x = data(i, a.req("x")?, name, "x")?;
    let n = match a.opt("N")? {
        None | Some(Value::None) => x.size(),
        Some(v) => dim(&v, name, "N")?,
    };
    let increasing = flag(a.opt("increasing")?, name, "increasing", false)?;
    a.finish_with(&["N", "increasing"])?;
    if x.ndim() != 1 {
        return Err(value_err(
            name,
            format!(
                "x must be a one-dimensional array or sequence, got shape {:?}",
                x.shape()
            ),
            "give a 1-d x",
        ));
    }
    let d = if x.dtype().is_float() {
        DType::Float64
    } else {
        DType::Int64
    };
    if n == 0 {
        return Ok(Value::Array(Array::zeros(&[x.size(), 0], d, x.device())?));
    }
    let xd = astype(i, span, &x, d)?;
    let mut cols = vec![Value::Array(arr(
        i,
        span,
        "ones_like",
        vec![xd.clone().into()],
        vec![],
    )?)];
    let mut prev = xd.clone();
    for k in 1..n {
        if k > 1 {
            prev = arr(
                i,
                span,
                "multiply",
                vec![prev.into(), xd.clone().into()],
                vec![],
            )?;
        }
        cols.push(Value::Array(prev.clone()));
    }
    if !increasing {
        cols.reverse();
    }
    super::call(
        i,
        span,
        "stack",
        vec![Value::list(cols)],
        vec![("axis", Value::Int(1))],
    )
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
