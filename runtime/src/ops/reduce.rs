//! Reductions (`sum mean prod max min argmax argmin std var any all`, the
//! NaN-skipping `nan*` ones, `ptp`, `count_nonzero`): their
//! table entries (each carries its `ReduceOp`), `axis=`, `keepdims=` and
//! `ddof=` checked with clear errors, then the backend's loops. NumPy's dtype
//! rules: sum/prod of ints -> int64, mean/std/var of ints -> floatX, argmax
//! -> int64, any/all -> bool; floats accumulate in float64 and results do not
//! depend on the thread count (the CPU's fixed chunking, the GPU's fixed grid).
//! NumPy's `where=` and `initial=` are composed in `reduce_where.rs`.

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
        "sum(x, axis=none, keepdims=false, dtype=none, initial=none, where=none)",
        "Sum of the elements over axis (all when none); ints sum in int64.",
        grad: crate::autodiff::rules::sum_grad
    ),
    red!(
        Mean,
        "mean(x, axis=none, keepdims=false, dtype=none, where=none)",
        "Arithmetic mean over axis; ints give floatX.",
        grad: crate::autodiff::rules::mean_grad
    ),
    red!(
        Prod,
        "prod(x, axis=none, keepdims=false, dtype=none, initial=none, where=none)",
        "Product of the elements over axis; ints in int64.",
        grad: crate::autodiff::rules::prod_grad
    ),
    red!(
        Max,
        "max(x, axis=none, keepdims=false, initial=none, where=none)",
        "Largest element over axis (nan if any is nan).",
        grad: crate::autodiff::rules::max_grad
    ),
    red!(
        Min,
        "min(x, axis=none, keepdims=false, initial=none, where=none)",
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
        "std(x, axis=none, keepdims=false, ddof=0, dtype=none, where=none)",
        "Standard deviation over axis, dividing by n - ddof.",
        grad: crate::autodiff::rules::std_grad
    ),
    red!(
        Var,
        "var(x, axis=none, keepdims=false, ddof=0, dtype=none, where=none)",
        "Variance over axis, dividing by n - ddof.",
        grad: crate::autodiff::rules::var_grad
    ),
    red!(
        Any,
        "any(x, axis=none, keepdims=false, where=none)",
        "Whether any element over axis is nonzero."
    ),
    red!(
        All,
        "all(x, axis=none, keepdims=false, where=none)",
        "Whether every element over axis is nonzero."
    ),
    red!(
        Nansum,
        "nansum(x, axis=none, keepdims=false, initial=none, where=none)",
        "Sum over axis treating NaN as zero (all-NaN lanes give 0); ints sum in int64.",
        grad: crate::autodiff::rules_stats::nansum
    ),
    red!(
        Nanmean,
        "nanmean(x, axis=none, keepdims=false, where=none)",
        "Mean over axis of the elements that are not NaN (NaN for a lane with none); ints give floatX.",
        grad: crate::autodiff::rules_stats::nanmean
    ),
    red!(
        Nanmax,
        "nanmax(x, axis=none, keepdims=false, initial=none, where=none)",
        "Largest element over axis ignoring NaN (NaN for a lane with no number, as NumPy gives with its warning).",
        grad: crate::autodiff::rules_stats::nanextreme
    ),
    red!(
        Nanmin,
        "nanmin(x, axis=none, keepdims=false, initial=none, where=none)",
        "Smallest element over axis ignoring NaN (NaN for a lane with no number).",
        grad: crate::autodiff::rules_stats::nanextreme
    ),
    red!(
        Nanstd,
        "nanstd(x, axis=none, keepdims=false, ddof=0, where=none)",
        "Standard deviation over axis of the elements that are not NaN, dividing by their count - ddof (NaN when that is not positive).",
        grad: crate::autodiff::rules_stats::nanstd
    ),
    red!(
        Nanvar,
        "nanvar(x, axis=none, keepdims=false, ddof=0, where=none)",
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

/// Python's `max(a, b, ...)` and `min(a, b, ...)` of numbers and 0-d
/// arrays: NumPy's `max(x, axis)` means nothing for a number or a 0-d `x`
/// (an axis error), so two or more such positionals and no keywords are
/// Python's builtin, giving the winning argument itself
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
    extreme_of(want_max, &args.pos)
}

/// The largest (`want_max`) or smallest of Python numbers, Python's way;
/// `None` when one is not a Python number.
fn extreme_of(want_max: bool, items: &[Value]) -> Option<Value> {
    // A 0-d array is gcalc's NumPy scalar (`acc = mean(...)`): compared by
    // its value, as Python compares np.float64 (`best = max(best, acc)`).
    let num = |v: &Value| match v {
        Value::Int(i) => Some((Some(*i), *i as f64)),
        Value::Bool(b) => Some((Some(*b as i64), *b as i64 as f64)),
        Value::Float(f) => Some((None, *f)),
        Value::Array(a) if a.ndim() == 0 && !a.dtype().is_complex() => {
            if a.dtype().is_float() {
                Some((None, *a.to_vec::<f64>().ok()?.first()?))
            } else {
                let k = *a.to_vec::<i64>().ok()?.first()?;
                Some((Some(k), k as f64))
            }
        }
        _ => None,
    };
    let mut best = items.first()?;
    num(best)?;
    for v in &items[1..] {
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

/// Python's builtin `sum`, `max` and `min` of one list, tuple or range of
/// Python numbers and no keywords (`sum([1, 2])`, `max(losses)`,
/// `sum(range(n))`): a Python number, ints exact (an overflow is an error),
/// floats summed as Python 3.12 sums them (compensated). `None`: NumPy's
/// reduction applies (arrays, nested lists, keywords, an empty max).
fn python_builtin(op: ReduceOp, args: &Args) -> Option<Result<Value>> {
    // Python's `max(xs, default=v)`: v when xs is empty.
    let default = match args.kw.as_slice() {
        [] => None,
        [(k, v)] if k.as_str() == "default" && op != ReduceOp::Sum => Some(v),
        _ => return None,
    };
    // Python's `any(xs)` / `all(xs)` of Python numbers and bools (a
    // generator written as a comprehension included): a bool.
    if matches!(op, ReduceOp::Any | ReduceOp::All) && default.is_none() {
        let [v] = args.pos.as_slice() else {
            return None;
        };
        let items = match v {
            Value::List(_) | Value::Tuple(_) => v.seq_items()?.to_vec(),
            Value::Range(a, b, c) => {
                let n = crate::value::range_len(*a, *b, *c);
                return Some(Ok(Value::Bool(match op {
                    ReduceOp::Any => n > 1 || (n == 1 && *a != 0),
                    _ => n == 0 || (0..n as i64).all(|k| a + k * c != 0),
                })));
            }
            _ => return None,
        };
        let truth = |x: &Value| match x {
            Value::Bool(b) => Some(*b),
            Value::Int(i) => Some(*i != 0),
            Value::Float(f) => Some(*f != 0.0),
            _ => None,
        };
        let truths: Option<Vec<bool>> = items.iter().map(truth).collect();
        let truths = truths?;
        return Some(Ok(Value::Bool(match op {
            ReduceOp::Any => truths.iter().any(|&t| t),
            _ => truths.iter().all(|&t| t),
        })));
    }
    if !matches!(op, ReduceOp::Sum | ReduceOp::Max | ReduceOp::Min) {
        return None;
    }
    let [v] = args.pos.as_slice() else {
        return None;
    };
    let empty = v.seq_items().is_some_and(|t| t.is_empty())
        || matches!(*v, Value::Range(a, b, c) if crate::value::range_len(a, b, c) == 0);
    if let (Some(d), true) = (default, empty) {
        return Some(Ok(d.clone()));
    }
    if let Value::Range(start, stop, step) = *v {
        let n = crate::value::range_len(start, stop, step) as i128;
        if n == 0 {
            return (op == ReduceOp::Sum).then_some(Ok(Value::Int(0)));
        }
        let (first, last) = (start as i128, start as i128 + (n - 1) * step as i128);
        let r = match op {
            ReduceOp::Sum => (n * (first + last) / 2)
                .try_into()
                .map(Value::Int)
                .map_err(|_| {
                    Error::new(
                        crate::ErrorKind::Overflow,
                        "sum() of the range does not fit in a 64-bit integer",
                    )
                }),
            ReduceOp::Max => Ok(Value::Int(first.max(last) as i64)),
            _ => Ok(Value::Int(first.min(last) as i64)),
        };
        return Some(r);
    }
    let items = match v {
        Value::List(_) | Value::Tuple(_) => v.seq_items()?,
        _ => return None,
    };
    if !items
        .iter()
        .all(|x| matches!(x, Value::Int(_) | Value::Float(_) | Value::Bool(_)))
    {
        return None;
    }
    match op {
        ReduceOp::Sum => Some(python_sum(&items)),
        ReduceOp::Max => extreme_of(true, &items).map(Ok),
        _ => extreme_of(false, &items).map(Ok),
    }
}

/// Python's `sum` of numbers: ints (and bools) exactly, with an overflow
/// error past 64 bits; with a float, Neumaier's compensated sum (Python 3.12).
fn python_sum(items: &[Value]) -> Result<Value> {
    let mut int_total: i64 = 0;
    let mut k = 0;
    while let Some(Value::Int(_) | Value::Bool(_)) = items.get(k) {
        let x = match items[k] {
            Value::Int(i) => i,
            Value::Bool(b) => b as i64,
            _ => 0,
        };
        int_total = int_total.checked_add(x).ok_or_else(|| {
            Error::new(
                crate::ErrorKind::Overflow,
                "sum() of the list does not fit in a 64-bit integer",
            )
            .with_help("sum floats instead, e.g. sum(float(x) for x in xs)")
        })?;
        k += 1;
    }
    if k == items.len() {
        return Ok(Value::Int(int_total));
    }
    let (mut s, mut c) = (int_total as f64, 0.0f64);
    for x in &items[k..] {
        let x = match x {
            Value::Int(i) => *i as f64,
            Value::Bool(b) => *b as i64 as f64,
            Value::Float(f) => *f,
            _ => 0.0,
        };
        let t = s + x;
        if s.abs() >= x.abs() {
            c += (s - t) + x;
        } else {
            c += (x - t) + s;
        }
        s = t;
    }
    // Python keeps an inf or nan sum as it is (the correction would be nan).
    Ok(Value::Float(if c.is_finite() { s + c } else { s }))
}

/// A call of reduction `op` (its table entry's `OpKind::Reduce`).
pub fn call(op: ReduceOp, interp: &mut Interp, mut args: Args) -> Result<Value> {
    if let Some(v) = python_extreme(op, &args) {
        return Ok(v);
    }
    if let Some(r) = python_builtin(op, &args) {
        return r;
    }
    if super::reduce_where::wanted(&args) {
        return super::reduce_where::call(op, interp, args);
    }
    if matches!(op, ReduceOp::Max | ReduceOp::Min) && args.kw.iter().any(|(k, _)| k == "key") {
        return crate::builtins::python::extreme_by_key(interp, op == ReduceOp::Max, args);
    }
    let name = op.name();
    let x = match args.req("x")? {
        Value::Array(a) => a,
        Value::Int(i) => Array::scalar(i),
        Value::Float(f) => Array::scalar(f),
        Value::Bool(b) => Array::scalar(b),
        // NumPy's `np.sum([1, 2, 3])`: a list or tuple is made an array first.
        v @ (Value::List(_) | Value::Tuple(_) | Value::Range(..)) => {
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
        Some(v) if v.as_py_index().is_some() && !matches!(v, Value::Bool(_)) => {
            v.as_py_index().map(|i| vec![i as isize])
        }
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
    let keepdims = super::stat_args::flag_with(args.opt("keepdims")?, false, |v| {
        let e = Error::type_(format!(
            "keepdims must be true or false, got {}",
            v.a_type_name()
        ))
        .with_op(name);
        match v {
            Value::DType(d) => e.with_help(format!(
                "gcalc's order is {name}(x, axis, keepdims, ...), NumPy's third is dtype: write dtype={d}"
            )),
            _ => e,
        }
    })?;
    let ddof = if op.takes_ddof() {
        ddof_arg(args.opt("ddof")?, name)?
    } else {
        0
    };
    // NumPy's `dtype=`: the elements are cast to it first and the result
    // has it (`sum(x, dtype=float64)` of float32 data sums in float64).
    let dtype = match args.kw("dtype") {
        None | Some(Value::None) => None,
        Some(v) if op.takes_dtype() => Some(super::creation::dtype_arg(&v)?),
        Some(_) => {
            return Err(Error::type_(format!("{name}() takes no dtype="))
                .with_op(name)
                .with_help(format!(
                    "cast the result instead: {name}(x).astype(float64)"
                )));
        }
    };
    args.finish_with(&["axis", "keepdims", "ddof", "dtype"])?;
    let x = match dtype {
        Some(d) if d != x.dtype() => x.astype(d)?,
        _ => x,
    };
    let r = reduce_ddof(op, &x, axes.as_deref(), keepdims, ddof, interp.float_x())?;
    Ok(Value::Array(match dtype {
        Some(d) if d != r.dtype() => r.astype(d)?,
        _ => r,
    }))
}

/// `ddof=` of std/var (missing or none: 0).
pub(crate) fn ddof_arg(v: Option<Value>, name: &str) -> Result<i64> {
    match v {
        None | Some(Value::None) => Ok(0),
        Some(Value::Int(i)) => Ok(i),
        Some(v) => {
            Err(Error::type_(format!("ddof must be an int, got {}", v.a_type_name())).with_op(name))
        }
    }
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
            ReduceOp::Any | ReduceOp::All => {
                // An element is nonzero when either part is: reduce `a != 0`.
                let nz = super::fuse::apply(
                    "not_equal",
                    vec![
                        super::fuse::Operand::Array(a.clone()),
                        super::fuse::Operand::Int(0),
                    ],
                    float_x,
                )?;
                match nz {
                    super::fuse::Operand::Array(b) => {
                        backend::reduce::reduce(op, &b, &red, keepdims, ddof, float_x)
                    }
                    _ => Err(Error::internal("any/all: `!= 0` of an array gave a scalar")),
                }
            }
            _ => Err(super::complex::unsupported(name, a.dtype())),
        };
    }
    backend::reduce::reduce(op, a, &red, keepdims, ddof, float_x)
}
