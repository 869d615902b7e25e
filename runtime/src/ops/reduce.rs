//! Reductions (`sum mean prod max min argmax argmin std var any all`, the
//! NaN-skipping `nan*` ones, `ptp`, `count_nonzero`): their
//! table entries (each carries its `ReduceOp`), `axis=`, `keepdims=` and
//! `ddof=` checked with clear errors, then the backend's loops. NumPy's dtype
//! rules: sum/prod of ints -> int64, mean/std/var of ints -> floatX, argmax
//! -> int64, any/all -> bool; floats accumulate in float64 and results do not
//! depend on the thread count (the CPU's fixed chunking, the GPU's fixed grid).

use super::{OpDef, OpKind};
use crate::array::Array;
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::value::Value;

/// A reduction's entry: `red!(Sum, sig, doc, grad: rule)`.
macro_rules! red {
    ($op:ident, $sig:literal, $doc:literal $(, grad: $g:expr)?) => {
        OpDef {
            name: ReduceOp::$op.name(),
            sig: $sig,
            doc: $doc,
            method: true,
            kind: OpKind::Reduce(ReduceOp::$op),
            grad: { #[allow(unused_mut, unused_assignments)] let mut g: Option<crate::autodiff::GradFn> = None; $(g = Some($g);)? g },
        }
    };
}

pub static OPS: &[OpDef] = &[
    red!(
        Sum,
        "sum(x, axis=none, keepdims=false)",
        "Sum of the elements over axis (all when none); ints sum in int64.",
        grad: crate::autodiff::rules::sum_grad
    ),
    red!(
        Mean,
        "mean(x, axis=none, keepdims=false)",
        "Arithmetic mean over axis; ints give floatX.",
        grad: crate::autodiff::rules::mean_grad
    ),
    red!(
        Prod,
        "prod(x, axis=none, keepdims=false)",
        "Product of the elements over axis; ints in int64.",
        grad: crate::autodiff::rules::prod_grad
    ),
    red!(
        Max,
        "max(x, axis=none, keepdims=false)",
        "Largest element over axis (nan if any is nan).",
        grad: crate::autodiff::rules::max_grad
    ),
    red!(
        Min,
        "min(x, axis=none, keepdims=false)",
        "Smallest element over axis (nan if any is nan).",
        grad: crate::autodiff::rules::min_grad
    ),
    red!(
        Argmax,
        "argmax(x, axis=none, keepdims=false)",
        "Index of the first largest element (flat index when axis is none)."
    ),
    red!(
        Argmin,
        "argmin(x, axis=none, keepdims=false)",
        "Index of the first smallest element (flat index when axis is none)."
    ),
    red!(
        Std,
        "std(x, axis=none, keepdims=false, ddof=0)",
        "Standard deviation over axis, dividing by n - ddof.",
        grad: crate::autodiff::rules::std_grad
    ),
    red!(
        Var,
        "var(x, axis=none, keepdims=false, ddof=0)",
        "Variance over axis, dividing by n - ddof.",
        grad: crate::autodiff::rules::var_grad
    ),
    red!(
        Any,
        "any(x, axis=none, keepdims=false)",
        "Whether any element over axis is nonzero."
    ),
    red!(
        All,
        "all(x, axis=none, keepdims=false)",
        "Whether every element over axis is nonzero."
    ),
    red!(
        Nansum,
        "nansum(x, axis=none, keepdims=false)",
        "Sum over axis treating NaN as zero (all-NaN lanes give 0); ints sum in int64.",
        grad: crate::autodiff::rules_stats::nansum
    ),
    red!(
        Nanmean,
        "nanmean(x, axis=none, keepdims=false)",
        "Mean over axis of the elements that are not NaN (NaN for a lane with none); ints give floatX.",
        grad: crate::autodiff::rules_stats::nanmean
    ),
    red!(
        Nanmax,
        "nanmax(x, axis=none, keepdims=false)",
        "Largest element over axis ignoring NaN (NaN for a lane with no number, as NumPy gives with its warning).",
        grad: crate::autodiff::rules_stats::nanextreme
    ),
    red!(
        Nanmin,
        "nanmin(x, axis=none, keepdims=false)",
        "Smallest element over axis ignoring NaN (NaN for a lane with no number).",
        grad: crate::autodiff::rules_stats::nanextreme
    ),
    red!(
        Nanstd,
        "nanstd(x, axis=none, keepdims=false, ddof=0)",
        "Standard deviation over axis of the elements that are not NaN, dividing by their count - ddof (NaN when that is not positive).",
        grad: crate::autodiff::rules_stats::nanstd
    ),
    red!(
        Nanvar,
        "nanvar(x, axis=none, keepdims=false, ddof=0)",
        "Variance over axis of the elements that are not NaN, dividing by their count - ddof (NaN when that is not positive).",
        grad: crate::autodiff::rules_stats::nanvar
    ),
    red!(
        Nanargmax,
        "nanargmax(x, axis=none, keepdims=false)",
        "Index of the first largest element ignoring NaN; a lane of only NaN is an error, as in NumPy."
    ),
    red!(
        Nanargmin,
        "nanargmin(x, axis=none, keepdims=false)",
        "Index of the first smallest element ignoring NaN; a lane of only NaN is an error, as in NumPy."
    ),
    red!(
        Ptp,
        "ptp(x, axis=none, keepdims=false)",
        "Peak to peak: max - min over axis, in x's dtype (ints wrap as NumPy's do).",
        grad: crate::autodiff::rules_stats::ptp
    ),
    red!(
        CountNonzero,
        "count_nonzero(x, axis=none, keepdims=false)",
        "How many elements over axis are nonzero (NaN counts), as int64."
    ),
];

/// Python's `max(a, b, ...)` and `min(a, b, ...)` of numbers: NumPy's
/// `max(x, axis)` means nothing for a number `x` (an axis error), so two or
/// more positional Python numbers and no keywords are Python's builtin
/// (`max(lr * 0.9, 1e-4)`). Like Python, the first of equal extremes wins
/// and a nan compares false (`max(1, nan)` is 1, `max(nan, 1)` nan).
fn python_extreme(op: ReduceOp, args: &Args) -> Option<Value> {
    let want_max = match op {
        ReduceOp::Max => true,
        ReduceOp::Min => false,
        _ => return None,
    };
    if args.pos.len() < 2 || !args.kw.is_empty() {
        return None;
    }
    let num = |v: &Value| match v {
        Value::Int(i) => Some((Some(*i), *i as f64)),
        Value::Bool(b) => Some((Some(*b as i64), *b as i64 as f64)),
        Value::Float(f) => Some((None, *f)),
        _ => None,
    };
    let mut best = &args.pos[0];
    num(best)?;
    for v in &args.pos[1..] {
        let ((vi, vf), (bi, bf)) = (num(v)?, num(best)?);
        let order = match (vi, bi) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ => vf.partial_cmp(&bf),
        };
        let wanted = if want_max {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Less
        };
        if order == Some(wanted) {
            best = v;
        }
    }
    Some(best.clone())
}

/// A call of reduction `op` (its table entry's `OpKind::Reduce`).
pub fn call(op: ReduceOp, interp: &mut Interp, mut args: Args) -> Result<Value> {
    if let Some(v) = python_extreme(op, &args) {
        return Ok(v);
    }
    let name = op.name();
    let x = match args.req("x")? {
        Value::Array(a) => a,
        Value::Int(i) => Array::scalar(i),
        Value::Float(f) => Array::scalar(f),
        Value::Bool(b) => Array::scalar(b),
        // NumPy's `np.sum([1, 2, 3])`: a list or tuple is made an array first.
        v @ (Value::List(_) | Value::Tuple(_)) => {
            crate::array::create::value_to_array(&v, None, interp.float_x())?
        }
        v => {
            return Err(
                Error::type_(format!("{name}() needs an array, got {}", v.a_type_name()))
                    .with_op(name)
                    .with_help("make one with array([...])"),
            );
        }
    };
    let axes: Option<Vec<isize>> = match args.opt("axis")? {
        None | Some(Value::None) => None,
        Some(Value::Int(i)) => Some(vec![i as isize]),
        Some(Value::Tuple(t)) => Some(
            t.iter()
                .map(|v| match v {
                    Value::Int(i) => Ok(*i as isize),
                    v => Err(
                        Error::type_(format!("axis must hold ints, got {}", v.a_type_name()))
                            .with_op(name),
                    ),
                })
                .collect::<Result<_>>()?,
        ),
        Some(v) => {
            return Err(Error::type_(format!(
                "axis must be an int, a tuple of ints or none, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    let keepdims = match args.opt("keepdims")? {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(v) => {
            return Err(Error::type_(format!(
                "keepdims must be true or false, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    let ddof = if op.takes_ddof() {
        match args.opt("ddof")? {
            None => 0,
            Some(Value::Int(i)) => i,
            Some(v) => {
                return Err(
                    Error::type_(format!("ddof must be an int, got {}", v.a_type_name()))
                        .with_op(name),
                );
            }
        }
    } else {
        0
    };
    args.finish_with(&["axis", "keepdims", "ddof"])?;
    Ok(Value::Array(reduce_ddof(
        op,
        &x,
        axes.as_deref(),
        keepdims,
        ddof,
        interp.float_x(),
    )?))
}

/// Reduce `a` by `op` over `axes` (None: all).
pub fn reduce(
    op: ReduceOp,
    a: &Array,
    axes: Option<&[isize]>,
    keepdims: bool,
    float_x: DType,
) -> Result<Array> {
    reduce_ddof(op, a, axes, keepdims, 0, float_x)
}

/// `reduce` with `ddof` for std/var.
pub fn reduce_ddof(
    op: ReduceOp,
    a: &Array,
    axes: Option<&[isize]>,
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    let name = op.name();
    let nd = a.ndim();
    let mut red = vec![false; nd];
    match axes {
        None => red.iter_mut().for_each(|r| *r = true),
        Some(ax) => {
            for &x in ax {
                let k = if x < 0 { x + nd as isize } else { x };
                if k < 0 || k >= nd as isize {
                    return Err(Error::index(format!(
                        "axis {x} is out of bounds for an array of dimension {nd}"
                    ))
                    .with_op(name)
                    .with_help(format!(
                        "axes run from {} to {}",
                        -(nd as isize),
                        nd as isize - 1
                    )));
                }
                if red[k as usize] {
                    return Err(Error::value(format!("repeated axis {x}")).with_op(name));
                }
                red[k as usize] = true;
            }
            if op.is_arg() && ax.len() > 1 {
                return Err(
                    Error::value(format!("{name} takes one axis or none, not a tuple"))
                        .with_op(name)
                        .with_help("reshape first to combine axes"),
                );
            }
        }
    }
    if op == ReduceOp::Ptp && a.dtype().is_bool() {
        return Err(
            Error::type_("ptp: bools have no subtraction (NumPy raises the same)")
                .with_op(name)
                .with_help("convert first: ptp(x.astype(int32))"),
        );
    }
    let m: usize = (0..nd).filter(|&d| red[d]).map(|d| a.shape()[d]).product();
    if m == 0 && op.needs_elements() {
        return Err(Error::value(format!(
            "zero-size array to reduction operation {name} which has no identity"
        ))
        .with_op(name)
        .with_help("check the array is not empty before reducing"));
    }
    if a.dtype().is_complex() {
        return match op {
            ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Prod => {
                backend::complex::reduce(op, a, &red, keepdims)
            }
            _ => Err(super::complex::unsupported(name, a.dtype())),
        };
    }
    backend::reduce::reduce(op, a, &red, keepdims, ddof, float_x)
}
