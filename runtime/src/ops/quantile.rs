//! `median percentile quantile`: the elements of the needed ranks of each
//! lane come from `backend::select` (radix select on the GPU, introselect on
//! the CPU: no sort, no host round trip), then one fused expression
//! interpolates as NumPy 2 does (`_lerp`, the `t >= 0.5` form, in the
//! result dtype) and turns a lane holding NaN into NaN. The ranks and
//! weights depend on the lane length and q only, so they are computed here
//! on the host. Several axes are moved last and joined into one lane.

use super::creation::op;
use super::stat_args as sa;
use crate::array::{Array, Scalar};
use crate::autodiff::ewb::{E, c, call as ew, where_};
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::fuse::{self, EwNode, Operand};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "median",
        "median(x, axis=none, keepdims=false)",
        "The middle value of each lane along axis (an int, a tuple, or none for all): the mean of the two middle ones when the length is even; NaN for a lane holding NaN or an empty lane. Ints and bools give float64, floats keep their dtype.",
        true,
        |i, a| call(Kind::Median, i, a),
        grad: crate::autodiff::rules_stats::median
    ),
    op!(
        "percentile",
        "percentile(x, q, axis=none, keepdims=false, method=\"linear\")",
        "The q-th percentiles (q in [0, 100], a number or a list) of each lane along axis, NumPy's methods linear (default), lower, higher, nearest, midpoint. A list q adds a leading axis. Floats keep their dtype for a number q (float64 for a list, as NumPy 2); ints give float64, or their dtype for lower/higher/nearest.",
        false,
        |i, a| call(Kind::Percentile, i, a),
        grad: crate::autodiff::rules_stats::percentile
    ),
    op!(
        "quantile",
        "quantile(x, q, axis=none, keepdims=false, method=\"linear\")",
        "The q-th quantiles (q in [0, 1], a number or a list) of each lane along axis; as percentile with q / 100.",
        false,
        |i, a| call(Kind::Quantile, i, a),
        grad: crate::autodiff::rules_stats::quantile
    ),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Median,
    Percentile,
    Quantile,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Method {
    Linear,
    Lower,
    Higher,
    Nearest,
    Midpoint,
}

/// A parsed call: what to take of which lanes.
pub(crate) struct Plan {
    /// The data with the reduced axes joined into its last axis.
    pub lanes: Array,
    /// The shape of the result before keepdims (q's axis first, if any).
    pub shape: Vec<usize>,
    /// The result shape with keepdims applied.
    pub out_shape: Vec<usize>,
    /// The permutation moving the reduced axes last (to undo in gradients).
    pub perm: Vec<usize>,
    /// Per q: lower rank, upper rank, weight of the upper one.
    pub picks: Vec<(usize, usize, f64)>,
    /// The result dtype, and the dtype the interpolation runs in.
    pub out: DType,
    method: Method,
    median: bool,
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Median => "median",
        Kind::Percentile => "percentile",
        Kind::Quantile => "quantile",
    }
}

fn call(kind: Kind, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = kind_name(kind);
    let x = sa::data(i, a.req("x")?, name)?;
    let q = if kind == Kind::Median {
        None
    } else {
        Some(a.req("q")?)
    };
    let axis = a.opt("axis")?;
    let keepdims = sa::flag(a.opt("keepdims")?, "keepdims", name, false)?;
    let method = if kind == Kind::Median {
        None
    } else {
        a.opt("method")?
    };
    a.finish_with(if kind == Kind::Median {
        &["axis", "keepdims"]
    } else {
        &["axis", "keepdims", "method"]
    })?;
    let p = plan(
        kind,
        &x,
        q.as_ref(),
        axis.as_ref(),
        keepdims,
        method.as_ref(),
    )?;
    Ok(Value::Array(run(&p)?))
}

/// The q argument: its numbers in [0, 1] (flattened), its shape (`None`
/// for one number, which adds no axis), and the dtype it promotes the
/// result to (`None` for a Python number, weak as NumPy 2 treats it).
pub(crate) struct QArg {
    pub vals: Vec<f64>,
    pub shape: Option<Vec<usize>>,
    pub dtype: Option<DType>,
}

/// Reads q as NumPy 2 does: a list becomes a float64 array; an array keeps
/// its shape (each of its dimensions leads the result) and, when floating,
/// its dtype; percentile's `q / 100` makes an int array float64, while
/// quantile leaves it weak (NumPy: `quantile(f32, int array)` is float32).
pub(crate) fn q_values(kind: Kind, q: &Value) -> Result<QArg> {
    let name = kind_name(kind);
    let (scale, top) = if kind == Kind::Percentile {
        (100.0, "100")
    } else {
        (1.0, "1")
    };
    let (vals, shape, dtype) = match q {
        Value::Int(_) | Value::Float(_) => (vec![sa::float(q, "q", name)?], None, None),
        Value::List(_) | Value::Tuple(_) => {
            let v = q
                .seq_items()
                .unwrap_or_default()
                .iter()
                .map(|v| sa::float(v, "q", name))
                .collect::<Result<Vec<f64>>>()?;
            let n = v.len();
            (v, Some(vec![n]), Some(DType::Float64))
        }
        Value::Array(a) if !a.dtype().is_complex() => {
            let v = a.to_host()?.astype(DType::Float64)?.to_f64_vec()?;
            let d = a.dtype();
            let dtype = if d.is_float() {
                Some(d)
            } else if kind == Kind::Percentile {
                Some(DType::Float64)
            } else {
                None
            };
            let shape = (a.ndim() > 0).then(|| a.shape().to_vec());
            (v, shape, dtype)
        }
        v => {
            return Err(Error::type_(format!(
                "{name}: q must be a number, a list or an array of numbers, got {}",
                v.a_type_name()
            ))
            .with_op(name)
            .with_help("e.g. q=[25, 50, 75]".to_string()));
        }
    };
    if let Some(bad) = vals.iter().find(|v| !(0.0..=scale).contains(*v)) {
        return Err(Error::value(format!(
            "{name}: q must be in the range [0, {top}], got {bad}"
        ))
        .with_op(name));
    }
    Ok(QArg {
        vals: vals.into_iter().map(|v| v / scale).collect(),
        shape,
        dtype,
    })
}

fn method_of(kind: Kind, v: Option<&Value>) -> Result<Method> {
    let name = kind_name(kind);
    Ok(match v {
        None => Method::Linear,
        Some(Value::Str(s)) => match &**s {
            "linear" => Method::Linear,
            "lower" => Method::Lower,
            "higher" => Method::Higher,
            "nearest" => Method::Nearest,
            "midpoint" => Method::Midpoint,
            other => {
                return Err(Error::value(format!("{name}: unknown method \"{other}\""))
                    .with_op(name)
                    .with_help("use one of linear, lower, higher, nearest, midpoint"));
            }
        },
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}: method must be a string, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    })
}

/// `v` rounded to `d` (the precision NumPy computes the positions in).
fn round_to(v: f64, d: DType) -> f64 {
    match d {
        DType::Float32 => v as f32 as f64,
        DType::Float16 => crate::array::host::f16_of(v).to_f64(),
        _ => v,
    }
}

/// Lower rank, upper rank and weight of q for a lane of `n`, computed in
/// float64 as NumPy 2's `_get_indexes` and `_get_gamma` do (the weight then
/// meets the data as a weak scalar: rounded to the result dtype).
fn pick(q: f64, n: usize, m: Method) -> (usize, usize, f64) {
    let last = n - 1;
    let vi = (n as f64 - 1.0) * q;
    let rank = |v: f64| (v.max(0.0) as usize).min(last);
    match m {
        Method::Lower => (rank(vi.floor()), rank(vi.floor()), 0.0),
        Method::Higher => (rank(vi.ceil()), rank(vi.ceil()), 0.0),
        Method::Nearest => {
            let r = rank(vi.round_ties_even());
            (r, r, 0.0)
        }
        Method::Linear | Method::Midpoint => {
            let prev = vi.floor();
            // Above the last element both indexes are -1 (the last), and the
            // weight stays vi - (-1), as NumPy computes it.
            let (lo, hi, base) = if vi >= last as f64 {
                (last, last, -1.0)
            } else if vi < 0.0 {
                (0, 0, 0.0)
            } else {
                (prev as usize, prev as usize + 1, prev)
            };
            let mut g = vi - base;
            if m == Method::Midpoint {
                g = if g == 0.0 { 0.0 } else { 0.5 };
            }
            (lo, hi, g)
        }
    }
}

/// Checks the arguments and plans the selection.
pub(crate) fn plan(
    kind: Kind,
    x: &Array,
    q: Option<&Value>,
    axis: Option<&Value>,
    keepdims: bool,
    method: Option<&Value>,
) -> Result<Plan> {
    let name = kind_name(kind);
    let method = method_of(kind, method)?;
    let QArg {
        vals: qs,
        shape: qshape,
        dtype: qdtype,
    } = match q {
        Some(q) => q_values(kind, q)?,
        None => QArg {
            vals: vec![0.5],
            shape: None,
            dtype: None,
        },
    };
    let xd = x.dtype();
    let exact = matches!(method, Method::Lower | Method::Higher | Method::Nearest);
    if xd == DType::Bool && kind != Kind::Median && !exact {
        return Err(Error::type_(format!(
            "{name}: interpolating between bools is undefined (NumPy raises too)"
        ))
        .with_op(name)
        .with_help("cast first: x.astype(float64)"));
    }
    let out = if exact {
        xd
    } else if xd.is_float() {
        qdtype.map_or(xd, |qd| crate::dtype::promote(xd, qd))
    } else {
        DType::Float64
    };
    let nd = x.ndim();
    let axes: Vec<usize> = match axis {
        None | Some(Value::None) => (0..nd).collect(),
        Some(tv @ (Value::Tuple(_) | Value::List(_))) => {
            let mut v = tv
                .seq_items()
                .unwrap_or_default()
                .iter()
                .map(|k| crate::array::shape_ops::norm_axis(sa::axis_int(k, name)?, nd, name))
                .collect::<Result<Vec<usize>>>()?;
            v.sort_unstable();
            if v.windows(2).any(|w| w[0] == w[1]) {
                return Err(Error::value(format!("{name}: repeated axis")).with_op(name));
            }
            v
        }
        Some(k) => vec![crate::array::shape_ops::norm_axis(
            sa::axis_int(k, name)?,
            nd,
            name,
        )?],
    };
    let kept: Vec<usize> = (0..nd).filter(|d| !axes.contains(d)).collect();
    let perm: Vec<usize> = kept.iter().chain(&axes).copied().collect();
    let n: usize = axes.iter().map(|&d| x.shape()[d]).product();
    let mut joined: Vec<i64> = kept.iter().map(|&d| x.shape()[d] as i64).collect();
    joined.push(n as i64);
    let perm_i: Vec<i64> = perm.iter().map(|&d| d as i64).collect();
    let lanes = x.transpose(Some(&perm_i))?.reshape(&joined)?;
    if n == 0 && kind != Kind::Median {
        // NumPy: IndexError (index -1 of an empty lane), lanes or not.
        return Err(
            Error::index(format!("{name}: an empty lane has no quantiles"))
                .with_op(name)
                .with_help("reduce along an axis of nonzero length"),
        );
    }
    let picks = if n == 0 {
        vec![(0, 0, 0.0); qs.len()]
    } else if kind == Kind::Median {
        vec![(
            (n - 1) / 2,
            n / 2,
            if n.is_multiple_of(2) { 0.5 } else { 0.0 },
        )]
    } else {
        qs.iter().map(|&q| pick(q, n, method)).collect()
    };
    let rest: Vec<usize> = kept.iter().map(|&d| x.shape()[d]).collect();
    let lead = qshape.unwrap_or_default();
    let mut shape = lead.clone();
    shape.extend(&rest);
    let mut out_shape = lead;
    if keepdims {
        out_shape.extend((0..nd).map(|d| if axes.contains(&d) { 1 } else { x.shape()[d] }));
    } else {
        out_shape.extend(&rest);
    }
    Ok(Plan {
        lanes,
        shape,
        out_shape,
        perm,
        picks,
        out,
        method,
        median: kind == Kind::Median,
    })
}

pub(crate) fn leaf(a: &Array) -> E {
    E(Some(EwNode::Leaf(Operand::Array(a.clone()))))
}

/// The fused elementwise tree `t`, evaluated in `fx`, as an array.
pub(crate) fn eval(t: E, fx: DType) -> Result<Array> {
    let t = t.0.ok_or_else(|| Error::internal("quantile: op missing"))?;
    match fuse::eval(t, fx)? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("quantile: scalar result")),
    }
}

/// Row `t` of a contiguous `[rows] + rest` array, as a view.
pub(crate) fn row(a: &Array, t: usize) -> Array {
    let rest: Vec<usize> = a.shape()[1..].to_vec();
    let size: usize = rest.iter().product();
    let strides = crate::array::layout::contiguous_strides(&rest);
    a.view(rest, strides, a.offset() + t * size)
}

/// A small host array of `d` made of `v`, shape `[v.len(), 1, ...]`
/// broadcasting over `rest`, on `like`'s device.
fn column(v: &[f64], d: DType, nd_rest: usize, like: &Array) -> Result<Array> {
    let mut shape = vec![v.len()];
    shape.extend(std::iter::repeat_n(1, nd_rest));
    let a = Array::from_vec(v.to_vec(), shape).astype(d)?;
    backend::to_device(&a, like.device())
}

/// The lower and upper selected elements of every q (`[Q] + rest` each, in
/// x's dtype) and the top of every lane (`rest`).
pub(crate) fn selected(p: &Plan) -> Result<(Array, Array, Array)> {
    let x = &p.lanes;
    let ax = x.ndim() - 1;
    let n = x.shape()[ax];
    let q = p.picks.len();
    let mut ranks: Vec<usize> = p.picks.iter().map(|k| k.0).collect();
    ranks.extend(p.picks.iter().map(|k| k.1));
    ranks.push(n.saturating_sub(1));
    let s = backend::select::select(x, ax, &ranks)?;
    let size: usize = s.shape()[1..].iter().product();
    let rows = |from: usize| {
        let mut shape = vec![q];
        shape.extend(&s.shape()[1..]);
        let strides = crate::array::layout::contiguous_strides(&shape);
        s.view(shape, strides, s.offset() + from * size)
    };
    Ok((rows(0), rows(q), row(&s, 2 * q)))
}

/// The result of a planned call.
pub(crate) fn run(p: &Plan) -> Result<Array> {
    let x = &p.lanes;
    let n = x.shape()[x.ndim() - 1];
    let fx = p.out;
    let reshape = |a: Array| -> Result<Array> {
        let s: Vec<i64> = p.out_shape.iter().map(|&d| d as i64).collect();
        a.reshape(&s)
    };
    if n == 0 || x.size() == 0 {
        let s = Array::full(&p.shape, Scalar::Float(f64::NAN), p.out, x.device())?;
        return reshape(s);
    }
    let (lo, hi, top) = selected(p)?;
    let xd = x.dtype();
    let nd_rest = lo.ndim() - 1;
    let r = if matches!(p.method, Method::Lower | Method::Higher | Method::Nearest) {
        lo.contiguous()?
    } else if p.median {
        // NumPy's mean of the middle one or two, float16 through float32.
        let md = if p.out == DType::Float16 {
            DType::Float32
        } else {
            p.out
        };
        let (l, h) = (lo.astype(md)?, hi.astype(md)?);
        let m = if p.picks[0].2 == 0.0 {
            l
        } else {
            eval((leaf(&l) + leaf(&h)) / c(2.0), md)?
        };
        m.astype(p.out)?
    } else {
        // _lerp: a + d*t, or b - d*(1-t) where t >= 0.5; d = b - a in x's dtype.
        let diff = if xd.is_float() {
            eval(leaf(&hi) - leaf(&lo), xd)?.astype(p.out)?
        } else {
            eval(leaf(&hi.astype(p.out)?) - leaf(&lo.astype(p.out)?), p.out)?
        };
        let ts: Vec<f64> = p.picks.iter().map(|k| k.2).collect();
        let us: Vec<f64> = ts.iter().map(|t| round_to(1.0 - t, p.out)).collect();
        let ups: Vec<f64> = ts
            .iter()
            .map(|&t| if t >= 0.5 { 1.0 } else { 0.0 })
            .collect();
        let t = column(&ts, p.out, nd_rest, x)?;
        let u = column(&us, p.out, nd_rest, x)?;
        let up = column(&ups, DType::Bool, nd_rest, x)?;
        let (l, h) = (lo.astype(p.out)?, hi.astype(p.out)?);
        // Each product rounded to the dtype on its own, as NumPy's ufuncs do.
        let pu = eval(leaf(&diff) * leaf(&u), fx)?;
        let pt = eval(leaf(&diff) * leaf(&t), fx)?;
        let e = where_(leaf(&up), leaf(&h) - leaf(&pu), leaf(&l) + leaf(&pt));
        eval(e, fx)?
    };
    let r = if xd.is_float() {
        let nan = ew("isnan", [leaf(&top)]);
        eval(where_(nan, c(f64::NAN), leaf(&r)), fx)?
    } else {
        r
    };
    let s: Vec<i64> = p.shape.iter().map(|&d| d as i64).collect();
    reshape(r.reshape(&s)?)
}
