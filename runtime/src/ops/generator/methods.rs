//! The methods of a `Generator` (NumPy's names and argument names): each
//! runs the random builtin of its name with the generator's state swapped
//! in; `normal`/`uniform` take NumPy's defaults and array parameters,
//! `gamma` NumPy's `shape`/`scale`, `choice`/`permutation`/`shuffle` an
//! `axis`, and `permuted` (each slice along an axis shuffled on its own) is
//! composed from `random`, `argsort` and `take_along_axis`.

use super::receiver;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_device, shape_arg};
use crate::ops::nparr::{arr, astype, call, data, shape_value};
use crate::value::Value;

/// What a method does beyond calling the builtin of its name.
#[derive(Clone, Copy)]
pub(super) enum How {
    Forward,
    Normal,
    Uniform,
    /// NumPy's `shape`/`scale` are the builtin's `k`/`theta`.
    Gamma,
    Choice,
    /// `permutation`/`shuffle` with `axis=`.
    AlongAxis,
    Permuted,
    /// `RandomState.seed(n)`: restart the receiver's own state.
    Seed,
}

/// Every method: the receiver's state swapped in, then the call.
pub(super) fn method(i: &mut Interp, mut a: Args, how: How) -> Result<Value> {
    let state = receiver(&mut a)?;
    if let How::Seed = how {
        let seed = a.opt("seed")?;
        a.finish()?;
        super::reseed(&state, seed)?;
        return Ok(Value::None);
    }
    let g = super::Generator {
        state,
        legacy: false,
    };
    g.with(i, |i| run(i, a, how))
}

fn run(i: &mut Interp, mut a: Args, how: How) -> Result<Value> {
    match how {
        How::Normal => loc_scale(i, a, LocScale::Normal),
        How::Uniform => loc_scale(i, a, LocScale::Uniform),
        How::Gamma => {
            rename(&mut a, &[("shape", "k"), ("scale", "theta")]);
            let name = a.name;
            forward(i, a, name)
        }
        How::Choice => choice(i, a),
        How::AlongAxis => along_axis(i, a),
        How::Permuted => permuted(i, a),
        How::Forward | How::Seed => {
            let name = a.name;
            forward(i, a, name)
        }
    }
}

/// NumPy's keyword names turned into the builtin's.
fn rename(a: &mut Args, map: &[(&str, &str)]) {
    for (k, _) in a.kw.iter_mut() {
        if let Some((_, to)) = map.iter().find(|(from, _)| from == k) {
            *k = to.to_string();
        }
    }
}

/// The builtin `name` with the method's arguments.
fn forward(i: &mut Interp, a: Args, name: &str) -> Result<Value> {
    let def = crate::ops::lookup(name)
        .ok_or_else(|| Error::internal(format!("Generator.{name}: no builtin {name}")))?;
    i.call_builtin(def, a.pos, a.kw, a.span)
}

/// The `uniform`/`normal` builtins called NumPy's way (`uniform(size=3)`,
/// `normal(0, 1, size=(2, 3))`, `normal(loc=x)`, array parameters; no size
/// gives one Python float): gcalc's own names `lo hi` / `mu sigma` are
/// read as NumPy's `low high` / `loc scale`.
pub(crate) fn numpy_uniform(i: &mut Interp, mut a: Args) -> Result<Value> {
    rename(&mut a, &[("lo", "low"), ("hi", "high")]);
    loc_scale(i, a, LocScale::Uniform)
}

/// See `numpy_uniform`.
pub(crate) fn numpy_normal(i: &mut Interp, mut a: Args) -> Result<Value> {
    rename(&mut a, &[("mu", "loc"), ("sigma", "scale")]);
    loc_scale(i, a, LocScale::Normal)
}

#[derive(Clone, Copy)]
enum LocScale {
    Normal,
    Uniform,
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_))
}

/// `normal(loc, scale, size)` / `uniform(low, high, size)` with NumPy's
/// defaults: numbers go to the builtin (no size: one Python float, drawn in
/// float64); arrays broadcast, `loc + scale * z` / `low + (high - low) * u`.
fn loc_scale(i: &mut Interp, mut a: Args, law: LocScale) -> Result<Value> {
    let span = a.span;
    let base = a.name;
    let keys = match law {
        LocScale::Normal => [("loc", 0.0), ("scale", 1.0)],
        LocScale::Uniform => [("low", 0.0), ("high", 1.0)],
    };
    let p0 = a.opt(keys[0].0)?.unwrap_or(Value::Float(keys[0].1));
    let p1 = a.opt(keys[1].0)?.unwrap_or(Value::Float(keys[1].1));
    let size = match crate::ops::random_draws::shape_or_size(&mut a)? {
        None | Some(Value::None) => None,
        Some(v) => Some(shape_arg(&v)?),
    };
    let (dt, dev) = dtype_device(&mut a)?;
    a.finish_with(&[keys[0].0, keys[1].0, "shape", "size", "dtype", "device"])?;
    if is_number(&p0) && is_number(&p1) {
        let dev = dev.unwrap_or_else(|| i.default_device());
        return match size {
            None => {
                let kw = vec![
                    ("dtype", Value::DType(DType::Float64)),
                    ("device", Value::Device(dev)),
                ];
                let x = arr(i, span, base, vec![p0, p1, shape_value(&[])], kw)?;
                Ok(Value::Float(x.to_vec::<f64>()?[0]))
            }
            Some(s) => {
                let d = dt.unwrap_or_else(|| i.float_x());
                let kw = vec![("dtype", Value::DType(d)), ("device", Value::Device(dev))];
                call(i, span, base, vec![p0, p1, shape_value(&s)], kw)
            }
        };
    }
    let fetch = |i: &mut Interp, v: Value, what: &str| -> Result<Array> {
        let x = match dev {
            Some(d) => crate::ops::nparr::data_on(i, v, d, base, what)?,
            None => data(i, v, base, what)?,
        };
        astype(i, span, &x, DType::Float64)
    };
    let first_is_array = matches!(p0, Value::Array(_));
    let x0 = fetch(i, p0, keys[0].0)?;
    let x1 = fetch(i, p1, keys[1].0)?;
    let place = dev.unwrap_or(if first_is_array {
        x0.device()
    } else {
        x1.device()
    });
    if matches!(law, LocScale::Normal) && x1.size() > 0 {
        let lo = arr(i, span, "min", vec![x1.clone().into()], vec![])?.to_vec::<f64>()?[0];
        if lo < 0.0 || lo.is_nan() {
            return Err(Error::value(format!("normal: scale < 0 ({lo})"))
                .with_op("normal")
                .with_help("give scale >= 0"));
        }
    }
    let shape = match size {
        Some(s) => s,
        None => crate::array::layout::broadcast_shapes(x0.shape(), x1.shape(), base)?,
    };
    let kw = vec![
        ("dtype", Value::DType(DType::Float64)),
        ("device", Value::Device(place)),
    ];
    let z = arr(
        i,
        span,
        base,
        vec![Value::Float(0.0), Value::Float(1.0), shape_value(&shape)],
        kw,
    )?;
    let width = if matches!(law, LocScale::Uniform) {
        arr(
            i,
            span,
            "subtract",
            vec![x1.into(), x0.clone().into()],
            vec![],
        )?
    } else {
        x1
    };
    let s = arr(i, span, "multiply", vec![z.into(), width.into()], vec![])?;
    let r = arr(i, span, "add", vec![s.into(), x0.into()], vec![])?;
    if r.shape() != shape.as_slice() {
        return Err(Error::value(format!(
            "{base}: parameters of shape {:?} do not broadcast to size {shape:?}",
            r.shape()
        ))
        .with_op(base)
        .with_help("give parameters that broadcast against size"));
    }
    let d = dt.unwrap_or_else(|| i.float_x());
    Ok(Value::Array(astype(i, span, &r, d)?))
}

/// An `axis=` keyword as a non-negative axis of an `nd`-dimensional array.
fn axis_of(v: Option<Value>, nd: usize, op: &str) -> Result<Option<usize>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => {
            let k = crate::ops::nparr::int(&v, op, "axis")?;
            crate::ops::nparr::norm_axis(k, nd, op).map(Some)
        }
    }
}

/// `choice(a, size, replace, p, axis=0, shuffle=true)`: along another axis,
/// the axis is moved first, chosen along, and the chosen axes put back.
fn choice(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let axis = a.kw("axis");
    if let Some(v) = a.kw("shuffle")
        && !matches!(v, Value::Bool(_))
    {
        return Err(Error::type_(format!(
            "choice: shuffle must be true or false, not {}",
            v.a_type_name()
        ))
        .with_op("choice"));
    }
    let axis = match (
        &axis,
        a.pos
            .first()
            .or(a.kw.iter().find(|(k, _)| k == "a").map(|(_, v)| v)),
    ) {
        (Some(_), Some(Value::Array(x))) => axis_of(axis.clone(), x.ndim().max(1), "choice")?,
        (Some(v), _) => {
            let k = crate::ops::nparr::int(v, "choice", "axis")?;
            if k != 0 && k != -1 {
                return Err(Error::new(
                    crate::error::ErrorKind::Index,
                    format!("choice: axis {k} is out of bounds for a population of 1 dimension"),
                )
                .with_op("choice"));
            }
            None
        }
        (None, _) => None,
    };
    let Some(ax) = axis.filter(|&k| k != 0) else {
        return forward(i, a, "choice");
    };
    let x = match a.pos.first().cloned() {
        Some(v) => v,
        None => {
            a.kw.iter()
                .find(|(k, _)| k == "a")
                .map(|(_, v)| v.clone())
                .unwrap_or(Value::None)
        }
    };
    let Value::Array(xa) = x else {
        return forward(i, a, "choice");
    };
    let moved = arr(
        i,
        span,
        "moveaxis",
        vec![xa.clone().into(), Value::Int(ax as i64), Value::Int(0)],
        vec![],
    )?;
    if !a.pos.is_empty() {
        a.pos[0] = moved.into();
    } else if let Some(e) = a.kw.iter_mut().find(|(k, _)| k == "a") {
        e.1 = moved.into();
    }
    let r = crate::ops::nparr::as_array(forward(i, a, "choice")?)?;
    // The chosen axes lead: r.ndim() - (x.ndim() - 1) of them.
    let m = r.ndim() + 1 - xa.ndim();
    let mut perm: Vec<Value> = (m..m + ax).map(|k| Value::Int(k as i64)).collect();
    perm.extend((0..m).map(|k| Value::Int(k as i64)));
    perm.extend((m + ax..r.ndim()).map(|k| Value::Int(k as i64)));
    call(
        i,
        span,
        "transpose",
        vec![r.into(), Value::tuple(perm)],
        vec![],
    )
}

/// `permutation(x, axis=0)` / `shuffle(x, axis=0)`: along another axis of
/// an array, through the axis swapped to the front (a view: shuffle's writes
/// reach x).
fn along_axis(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = a.name;
    let axis = a.kw("axis");
    let x = match a.pos.first() {
        Some(Value::Array(x)) => Some(x.clone()),
        _ => None,
    };
    let ax = match (&x, axis) {
        (Some(x), v) => axis_of(v, x.ndim().max(1), name)?.unwrap_or(0),
        (None, None) => 0,
        (None, Some(v)) => {
            let k = crate::ops::nparr::int(&v, name, "axis")?;
            if k != 0 {
                return Err(
                    Error::value(format!("{name}: axis={k} needs an array, not an int"))
                        .with_op(name),
                );
            }
            0
        }
    };
    let (Some(x), true) = (x, ax != 0) else {
        return forward(i, a, name);
    };
    let swapped = arr(
        i,
        span,
        "swapaxes",
        vec![x.into(), Value::Int(0), Value::Int(ax as i64)],
        vec![],
    )?;
    a.pos[0] = swapped.into();
    let r = forward(i, a, name)?;
    match r {
        Value::Array(r) => call(
            i,
            span,
            "swapaxes",
            vec![r.into(), Value::Int(0), Value::Int(ax as i64)],
            vec![],
        ),
        other => Ok(other),
    }
}

/// `permuted(x, axis=none, out=none)`: all elements shuffled (axis none), or
/// each 1-d slice along axis by its own permutation (the argsort of uniform
/// keys), on x's device.
fn permuted(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let xv = a.req("x")?;
    let axis = a.opt("axis")?;
    let out = a.opt("out")?;
    a.finish()?;
    let x = data(i, xv, "permuted", "x")?;
    let r = match axis_of(axis, x.ndim().max(1), "permuted")? {
        None => {
            let flat = crate::ops::nparr::ravel(i, span, &x)?;
            let p = arr(i, span, "permutation", vec![flat.into()], vec![])?;
            crate::ops::nparr::reshape(i, span, &p, x.shape())?
        }
        Some(_) if x.ndim() == 0 => x.clone(),
        Some(ax) => {
            let keys = arr(
                i,
                span,
                "random",
                vec![shape_value(x.shape())],
                vec![
                    ("dtype", Value::DType(DType::Float64)),
                    ("device", Value::Device(x.device())),
                ],
            )?;
            let idx = arr(
                i,
                span,
                "argsort",
                vec![keys.into()],
                vec![("axis", Value::Int(ax as i64))],
            )?;
            arr(
                i,
                span,
                "take_along_axis",
                vec![x.clone().into(), idx.into()],
                vec![("axis", Value::Int(ax as i64))],
            )?
        }
    };
    match out {
        None | Some(Value::None) => Ok(Value::Array(r)),
        Some(Value::Array(o)) => {
            if o.shape() != r.shape() {
                return Err(Error::value(format!(
                    "permuted: out has shape {:?}, x has {:?}",
                    o.shape(),
                    r.shape()
                ))
                .with_op("permuted")
                .with_help("give out= of x's shape"));
            }
            let r = if o.dtype() != r.dtype() {
                astype(i, span, &r, o.dtype())?
            } else {
                r
            };
            crate::backend::index::store_view(&o, &r)?;
            Ok(Value::Array(o))
        }
        Some(v) => Err(Error::type_(format!(
            "permuted: out must be an array, not {}",
            v.a_type_name()
        ))
        .with_op("permuted")),
    }
}
