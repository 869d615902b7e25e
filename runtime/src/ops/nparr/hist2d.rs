//! `histogram2d`: NumPy's histogramdd for two variables, from table ops:
//! each axis's edges as `histogram` makes them (or given), bin numbers by
//! `searchsorted` (values on the last edge in the last bin, outside values
//! and nans in outlier bins), counts by one `bincount` of the flat bin
//! number, the outlier bins cut off. Every device; `histogram`'s edges
//! read the data's min and max back when no range is given.

use super::{arr, astype, call, data_on, items, reshape, tuple_of, value_err};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::op;
use crate::ops::linalg_calls::Calls;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[op!(
    "histogram2d",
    "histogram2d(x, y, bins=10, range=none, density=false, weights=none)",
    "The 2-d histogram of points (x[i], y[i]): a tuple (H, xedges, yedges), H float64 of shape (nx, ny). bins: an int, [nx, ny], an array of edges for both, or [xedges, yedges] (int or edges each); range [[xmin, xmax], [ymin, ymax]]; the last bin of each axis includes its right edge; density=true divides by the total and the bin areas; weights (one per point) are summed instead of counting.",
    false,
    histogram2d
)];

fn histogram2d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "histogram2d";
    let (x, y) = (a.req("x")?, a.req("y")?);
    let (x, y) = super::pair(i, x, y, name, ("x", "y"))?;
    let bins = a.opt("bins")?.unwrap_or(Value::Int(10));
    let range = a.opt("range")?.unwrap_or(Value::None);
    let density = crate::ops::stat_args::flag(a.opt("density")?, "density", name, false)?;
    let weights = a.opt("weights")?.unwrap_or(Value::None);
    a.finish_with(&["bins", "range", "density", "weights"])?;
    if x.ndim() != 1 || y.ndim() != 1 || x.size() != y.size() {
        return Err(value_err(
            name,
            format!(
                "x and y must be 1-d arrays of one length, got shapes {:?} and {:?}",
                x.shape(),
                y.shape()
            ),
            "give two 1-d arrays of the points' coordinates",
        ));
    }
    // NumPy: a sequence of length other than 2 is one array of edges for both.
    let (bx, by) = match &bins {
        Value::List(_) | Value::Tuple(_) => {
            let it = bins.seq_items().unwrap_or_default();
            if it.len() == 2 {
                (it[0].clone(), it[1].clone())
            } else {
                (bins.clone(), bins.clone())
            }
        }
        Value::Array(b) if b.ndim() == 1 && b.size() == 2 && !b.dtype().is_float() => {
            let v = b.to_vec::<i64>()?;
            (Value::Int(v[0]), Value::Int(v[1]))
        }
        v => (v.clone(), v.clone()),
    };
    let (rx, ry) = match &range {
        Value::None => (Value::None, Value::None),
        v => match v.seq_items() {
            Some(it) if it.len() == 2 => (it[0].clone(), it[1].clone()),
            _ => {
                return Err(value_err(
                    name,
                    "range argument must have one entry per dimension".into(),
                    "give range=[[xmin, xmax], [ymin, ymax]]",
                ));
            }
        },
    };
    let xe = edges(i, span, &x, bx, rx, 0)?;
    let ye = edges(i, span, &y, by, ry, 1)?;
    let (nx, ny) = (xe.size() - 1, ye.size() - 1);
    let ix = bin_numbers(i, span, &x, &xe)?;
    let iy = bin_numbers(i, span, &y, &ye)?;
    let w = match weights {
        Value::None => Value::None,
        v => {
            let w = data_on(i, v, x.device(), name, "weights")?;
            if w.shape() != x.shape() {
                return Err(value_err(
                    name,
                    format!(
                        "weights should have the shape of x, {:?}, got {:?}",
                        x.shape(),
                        w.shape()
                    ),
                    "give one weight per point",
                ));
            }
            Value::Array(w)
        }
    };
    let row = arr(
        i,
        span,
        "multiply",
        vec![ix.into(), Value::Int(ny as i64 + 2)],
        vec![],
    )?;
    let flat = arr(i, span, "add", vec![row.into(), iy.into()], vec![])?;
    let total = (nx + 2) * (ny + 2);
    let h = arr(
        i,
        span,
        "bincount",
        vec![flat.into()],
        vec![("weights", w), ("minlength", Value::Int(total as i64))],
    )?;
    let h = reshape(i, span, &h, &[nx + 2, ny + 2])?;
    let inner = Index::Slice {
        start: Some(1),
        stop: Some(-1),
        step: None,
    };
    let h = Calls::new(i, span).index(&h, &[inner.clone(), inner])?;
    let mut h = astype(i, span, &h, DType::Float64)?;
    if density {
        let s = arr(i, span, "sum", vec![h.clone().into()], vec![])?;
        let dx = arr(i, span, "diff", vec![xe.clone().into()], vec![])?;
        let dy = arr(i, span, "diff", vec![ye.clone().into()], vec![])?;
        let dx = reshape(i, span, &dx, &[nx, 1])?;
        let dy = reshape(i, span, &dy, &[1, ny])?;
        h = arr(i, span, "divide", vec![h.into(), dx.into()], vec![])?;
        h = arr(i, span, "divide", vec![h.into(), dy.into()], vec![])?;
        h = arr(i, span, "divide", vec![h.into(), s.into()], vec![])?;
        h = astype(i, span, &h, DType::Float64)?;
    }
    Ok(tuple_of(vec![h, xe, ye]))
}

/// One axis's edges: given (checked increasing) or made by `histogram`.
fn edges(
    i: &mut Interp,
    span: Span,
    s: &Array,
    bins: Value,
    range: Value,
    k: usize,
) -> Result<Array> {
    let name = "histogram2d";
    let given = match &bins {
        Value::Int(n) => {
            if *n < 1 {
                return Err(value_err(
                    name,
                    format!("`bins[{k}]` must be positive, when an integer"),
                    "give a bin count >= 1",
                ));
            }
            None
        }
        Value::Array(b) if b.ndim() == 0 => None,
        Value::Float(_) => {
            return Err(Error::type_(format!(
                "{name}: `bins[{k}]` must be an integer, when a scalar"
            ))
            .with_op(name));
        }
        v => Some(data_on(i, v.clone(), s.device(), name, "bins")?),
    };
    if let Some(e) = given {
        if e.ndim() != 1 {
            return Err(value_err(
                name,
                format!("`bins[{k}]` must be a scalar or 1d array"),
                "give a count or 1-d edges",
            ));
        }
        if e.size() >= 2 {
            let lo = Calls::new(i, span).index(
                &e,
                &[Index::Slice {
                    start: None,
                    stop: Some(-1),
                    step: None,
                }],
            )?;
            let hi = Calls::new(i, span).index(
                &e,
                &[Index::Slice {
                    start: Some(1),
                    stop: None,
                    step: None,
                }],
            )?;
            let bad = arr(i, span, "greater", vec![lo.into(), hi.into()], vec![])?;
            let any = arr(i, span, "any", vec![bad.into()], vec![])?.to_vec::<i64>()?[0];
            if any != 0 {
                return Err(value_err(
                    name,
                    format!("`bins[{k}]` must be monotonically increasing, when an array"),
                    "sort the edges",
                ));
            }
        }
        return Ok(e);
    }
    // NumPy's histogramdd: edges from the data's min and max (in its
    // dtype, as `histogram` makes them), else float64 from the range (or
    // 0..1 for no data).
    let n = super::int(&bins, name, "bins")?;
    if matches!(range, Value::None) && s.size() > 0 {
        let v = call(
            i,
            span,
            "histogram",
            vec![s.clone().into()],
            vec![("bins", bins), ("range", range)],
        )?;
        return super::as_array(items(v, "histogram")?.remove(1));
    }
    let (mut lo, mut hi) = match &range {
        Value::None => (0.0, 1.0),
        r => {
            let it = r.seq_items().filter(|it| it.len() == 2).ok_or_else(|| {
                value_err(
                    name,
                    format!("range[{k}] must be a pair (min, max)"),
                    "give range=[[xmin, xmax], [ymin, ymax]]",
                )
            })?;
            (
                super::float(&it[0], name, "range")?,
                super::float(&it[1], name, "range")?,
            )
        }
    };
    if lo > hi {
        return Err(value_err(
            name,
            "max must be larger than min in range parameter.".into(),
            "give (min, max)",
        ));
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(value_err(
            name,
            format!("supplied range of [{lo}, {hi}] is not finite"),
            "give finite bounds",
        ));
    }
    if lo == hi {
        lo -= 0.5;
        hi += 0.5;
    }
    let e = super::construct::linspace_f64(lo, hi, n as usize + 1, true)?;
    let len = e.len();
    super::host_f64(e, &[len], s.device())
}

/// Bin numbers of `s` in `e` with NumPy's outlier bins 0 and len(e).
fn bin_numbers(i: &mut Interp, span: Span, s: &Array, e: &Array) -> Result<Array> {
    let n = arr(
        i,
        span,
        "searchsorted",
        vec![e.clone().into(), s.clone().into()],
        vec![("side", Value::Str("right".into()))],
    )?;
    let last = Calls::new(i, span).index(e, &[Index::Int(-1)])?;
    let on_edge = arr(
        i,
        span,
        "equal",
        vec![s.clone().into(), last.into()],
        vec![],
    )?;
    let on_edge = astype(i, span, &on_edge, DType::Int64)?;
    arr(i, span, "subtract", vec![n.into(), on_edge.into()], vec![])
}
