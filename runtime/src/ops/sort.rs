//! The sorting and searching family's table entries (`SortOp`), their
//! argument checks, and the lane ops: `sort argsort partition argpartition
//! topk`. A lane op moves its axis last and makes the array contiguous (the
//! lanes a backend sorts), runs a `SortJob` through `backend::sort`, and
//! moves the axis back (a view). `search.rs` has searchsorted, unique,
//! nonzero and isin. NumPy's order everywhere: nans after every number
//! (also when descending, as the array API says), -0.0 equal to 0.0.

use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::shape_ops::norm_axis;
use crate::backend;
use crate::builtins::lang::int_arg;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{SortJob, SortOp};
use crate::value::Value;

/// A sorting op's entry: `sop!(Argsort, sig, doc, method)`, `grad:` a rule.
macro_rules! sop {
    ($op:ident, $sig:literal, $doc:literal, $method:expr $(, grad: $g:expr)?) => {
        OpDef {
            name: SortOp::$op.name(),
            sig: $sig,
            doc: $doc,
            method: $method,
            kind: OpKind::Func(|i, a| call(SortOp::$op, i, a)),
            grad: { #[allow(unused_mut, unused_assignments)] let mut g: Option<crate::autodiff::GradFn> = None; $(g = Some($g);)? g },
        }
    };
}

pub static OPS: &[OpDef] = &[
    sop!(
        Sort,
        "sort(x, axis=-1, descending=false, stable=true)",
        "A sorted copy of x along axis (of every element, flattened, when axis is none). Nans go last, also with descending=true (largest first). The sort is always stable; stable=false is accepted (the array API's name) and kind= (NumPy's) too.",
        false,
        grad: crate::autodiff::rules_sort::sort_grad
    ),
    sop!(
        Argsort,
        "argsort(x, axis=-1, descending=false, stable=true) | x.argsort(...)",
        "The int64 positions that sort x along axis (flat positions when axis is none): x[argsort(x)] is sort(x). Stable: equal elements keep their order, with descending=true too; nans go last.",
        true
    ),
    sop!(
        Partition,
        "partition(x, kth, axis=-1)",
        "A copy of x whose element at position kth (an int or a sequence of them) along axis is the one sort would put there, with no larger element before it and no smaller one after it; the order inside each side is unspecified.",
        false
    ),
    sop!(
        Argpartition,
        "argpartition(x, kth, axis=-1) | x.argpartition(...)",
        "The int64 positions that partition x along axis about kth (see partition): x[argpartition(x, k)] is a partition.",
        true
    ),
    sop!(
        Topk,
        "topk(x, k, axis=-1, largest=true, sorted=true) | x.topk(...)",
        "The k largest elements along axis (smallest with largest=false) and their int64 positions, as a tuple (values, indices), largest first like torch.topk; ties go to the lower position, nans count as smaller than every number. The result is always sorted (sorted=false is accepted).",
        true,
        grad: crate::autodiff::rules_sort::topk_grad
    ),
    sop!(
        Searchsorted,
        "searchsorted(a, v, side=\"left\", sorter=none) | a.searchsorted(...)",
        "For each element of v, the int64 position in the sorted 1-d array a (sorted by positions sorter when given) where inserting it keeps a sorted: before equal elements, or after them with side=\"right\". Nans sort last.",
        true
    ),
    sop!(
        Unique,
        "unique(x, return_index=false, return_inverse=false, return_counts=false, axis=none, equal_nan=true)",
        "The sorted distinct elements of x (flattened), and, when asked, as a tuple after them: the position of each one's first occurrence, the index into the result of every element of x (x's shape), each one's count. With axis, the distinct slices along it. equal_nan=true counts every nan as one element.",
        false
    ),
    sop!(
        Nonzero,
        "nonzero(x) | x.nonzero()",
        "A tuple of int64 arrays, one per dimension, with the coordinates of the nonzero elements of x in C order (nan counts as nonzero). Also where(x) with one argument.",
        true
    ),
    sop!(
        Argwhere,
        "argwhere(x)",
        "The coordinates of the nonzero elements of x, one row each: an int64 array of shape (count, x.ndim).",
        false
    ),
    sop!(
        Flatnonzero,
        "flatnonzero(x)",
        "The flat int64 positions of the nonzero elements of x.",
        false
    ),
    sop!(
        Isin,
        "isin(element, test_elements, invert=false)",
        "A bool array of element's shape: whether each element equals some element of test_elements (compared in their promoted dtype; nan equals nothing); negated with invert=true.",
        false
    ),
];

/// A call of sorting op `op` (its table entry's function).
pub fn call(op: SortOp, i: &mut Interp, args: Args) -> Result<Value> {
    let name = op.name();
    let r = match op {
        SortOp::Sort | SortOp::Argsort => sort_call(op, i, args),
        SortOp::Partition | SortOp::Argpartition => partition_call(op, i, args),
        SortOp::Topk => topk_call(i, args),
        SortOp::Searchsorted => super::search::searchsorted_call(i, args),
        SortOp::Unique => super::search::unique_call(i, args),
        SortOp::Nonzero | SortOp::Argwhere | SortOp::Flatnonzero => {
            super::search::nonzero_call(op, i, args)
        }
        SortOp::Isin => super::search::isin_call(i, args),
    };
    r.map_err(|e| if e.op.is_none() { e.with_op(name) } else { e })
}

/// `where(cond)` with one argument: NumPy's `nonzero(cond)`.
pub fn where_one(i: &mut Interp, args: Args) -> Result<Value> {
    let mut args = args;
    args.name = SortOp::Nonzero.name();
    call(SortOp::Nonzero, i, args)
}

/// An array argument: arrays as they are, numbers and lists made into arrays.
pub(super) fn input(i: &Interp, v: Value) -> Result<Array> {
    super::creation::array_arg(i, &v)
}

/// `axis=`: an int, none (flattened), or `default` when not given.
pub(super) fn axis_arg(v: Option<Value>, default: Option<i64>) -> Result<Option<i64>> {
    match v {
        None => Ok(default),
        Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(int_arg(&v, "axis").map_err(|e| {
            e.with_help("axis is an int (negative counts from the end) or none")
        })?)),
    }
}

/// A `true`/`false` keyword (`default` when not given).
pub(super) fn flag(v: Option<Value>, key: &str, default: bool) -> Result<bool> {
    super::stat_args::flag_with(v, default, |v| {
        Error::type_(format!(
            "{key} must be true or false, not {}",
            v.a_type_name()
        ))
    })
}

/// NumPy's `kind=` keyword: accepted for portability (gcalc's sorts are
/// always stable and its selections always linear), checked for a known name.
fn kind_arg(v: Option<Value>, known: &[&str]) -> Result<()> {
    match v {
        None | Some(Value::None) => Ok(()),
        Some(Value::Str(s)) if known.contains(&&*s) => Ok(()),
        Some(v) => Err(Error::value(format!(
            "kind must be one of {}, not {}",
            known.join(", "),
            match &v {
                Value::Str(s) => format!("\"{s}\""),
                v => v.a_type_name(),
            }
        ))),
    }
}

/// How lanes were made from an array, to put results back.
pub(crate) enum Layout {
    /// axis=none: the array flattened; results stay 1-d.
    Flat,
    /// The axis moved last; results are moved back by this permutation.
    Moved(Option<Vec<i64>>),
}

impl Layout {
    /// A lane result (lanes along its last axis) in the input's axis order (a view).
    pub(crate) fn restore(&self, r: Array) -> Result<Array> {
        match self {
            Layout::Flat | Layout::Moved(None) => Ok(r),
            Layout::Moved(Some(inv)) => r.transpose(Some(inv)),
        }
    }
}

/// `x` with `axis` moved last (flattened when none), C-contiguous: the lanes.
pub(crate) fn to_lanes(x: &Array, axis: Option<i64>, op: &str) -> Result<(Array, Layout)> {
    let Some(axis) = axis else {
        return Ok((x.reshape(&[-1])?.contiguous()?, Layout::Flat));
    };
    let nd = x.ndim();
    let ax = norm_axis(axis, nd, op)?;
    if ax + 1 == nd {
        return Ok((x.contiguous()?, Layout::Moved(None)));
    }
    let mut perm: Vec<i64> = (0..nd as i64).filter(|&d| d != ax as i64).collect();
    perm.push(ax as i64);
    let mut inv = vec![0i64; nd];
    for (k, &p) in perm.iter().enumerate() {
        inv[p as usize] = k as i64;
    }
    let lanes = x.transpose(Some(&perm))?.contiguous()?;
    Ok((lanes, Layout::Moved(Some(inv))))
}

/// An empty array of `shape` and `dtype` on `x`'s device.
pub(super) fn empty_like(x: &Array, shape: &[usize], dtype: DType) -> Result<Array> {
    backend::create::full(shape, crate::array::Scalar::Int(0), dtype, x.device())
}

/// Sort `x` along `axis` (none: flattened): `[values?, indices?]`, each in
/// x's axis order. Used by the `sort`/`argsort` entries and sort's gradient.
pub(crate) fn sort_along(
    x: &Array,
    axis: Option<i64>,
    descending: bool,
    values: bool,
    indices: bool,
) -> Result<Vec<Array>> {
    let op = if indices { "argsort" } else { "sort" };
    let (lanes, layout) = to_lanes(x, axis, op)?;
    let out = if lanes.size() == 0 {
        let mut v = Vec::new();
        if values {
            v.push(lanes.clone());
        }
        if indices {
            v.push(empty_like(&lanes, lanes.shape(), DType::Int64)?);
        }
        v
    } else {
        let job = SortJob::Sort {
            x: &lanes,
            descending,
            values,
            indices,
        };
        backend::sort::run(&job, lanes.device())?
    };
    out.into_iter().map(|r| layout.restore(r)).collect()
}

fn sort_call(op: SortOp, i: &mut Interp, mut args: Args) -> Result<Value> {
    let x = input(i, args.req("x")?)?;
    let mut axis = axis_arg(args.opt("axis")?, Some(-1))?;
    let descending = flag(args.opt("descending")?, "descending", false)?;
    let _stable = flag(args.opt("stable")?, "stable", true)?;
    kind_arg(
        args.kw("kind"),
        &["quicksort", "mergesort", "heapsort", "stable"],
    )?;
    args.finish_with(&["axis", "descending", "stable", "kind"])?;
    let indices = op == SortOp::Argsort;
    if indices && x.ndim() == 0 {
        axis = None; // NumPy: argsort of a 0-d array is [0]
    }
    if x.dtype().is_complex() {
        return sort_complex_lanes(i, x, axis, descending, indices);
    }
    let mut r = sort_along(&x, axis, descending, !indices, indices)?;
    Ok(Value::Array(r.remove(0)))
}

/// NumPy's order of complex numbers: by real part, then imaginary part
/// (nans last in each), through `lexsort` and `take_along_axis` so it runs
/// on every device; `descending` reverses the lanes.
fn sort_complex_lanes(
    i: &mut Interp,
    x: Array,
    axis: Option<i64>,
    descending: bool,
    indices: bool,
) -> Result<Value> {
    use super::stats::call_op;
    let (x, axis) = match axis {
        None => (Value::Array(x.reshape(&[-1])?), -1),
        Some(k) => (Value::Array(x), k),
    };
    let re = call_op(i, "real", vec![x.clone()], vec![])?;
    let im = call_op(i, "imag", vec![x.clone()], vec![])?;
    let ax = Value::Int(axis);
    let mut idx = call_op(
        i,
        "lexsort",
        vec![Value::tuple(vec![im, re])],
        vec![("axis", ax.clone())],
    )?;
    if descending {
        idx = call_op(i, "flip", vec![idx, ax.clone()], vec![])?;
    }
    if indices {
        return Ok(idx);
    }
    call_op(i, "take_along_axis", vec![x, idx, ax], vec![])
}

/// `kth=`: an int, or a tuple, list or int array of them.
fn kth_arg(v: Value) -> Result<Vec<i64>> {
    let bad = |v: &Value| {
        Error::type_(format!(
            "kth must be an int or a sequence of ints, not {}",
            v.a_type_name()
        ))
    };
    match &v {
        Value::Int(k) => Ok(vec![*k]),
        tv @ (Value::Tuple(_) | Value::List(_)) => tv
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|x| match x {
                Value::Int(k) => Ok(*k),
                x => Err(bad(x)),
            })
            .collect(),
        Value::Array(a) if a.dtype().is_int() && a.ndim() <= 1 => a.to_vec::<i64>(),
        v => Err(bad(v)),
    }
}

fn partition_call(op: SortOp, i: &mut Interp, mut args: Args) -> Result<Value> {
    let x = input(i, args.req("x")?)?;
    let kth = kth_arg(args.req("kth")?)?;
    let axis = axis_arg(args.opt("axis")?, Some(-1))?;
    kind_arg(args.kw("kind"), &["introselect"])?;
    args.finish_with(&["axis", "kind"])?;
    let (lanes, layout) = to_lanes(&x, axis, op.name())?;
    let indices = op == SortOp::Argpartition;
    if lanes.size() == 0 {
        let r = if indices {
            empty_like(&lanes, lanes.shape(), DType::Int64)?
        } else {
            lanes
        };
        return Ok(Value::Array(layout.restore(r)?));
    }
    let n = lanes.shape().last().copied().unwrap_or(1);
    let mut ks = Vec::with_capacity(kth.len());
    for k in kth {
        let kk = if k < 0 { k + n as i64 } else { k };
        if kk < 0 || kk >= n as i64 {
            return Err(Error::value(format!(
                "kth={k} is out of bounds for an axis of length {n}"
            ))
            .with_help(format!("kth goes from {} to {}", -(n as i64), n as i64 - 1)));
        }
        ks.push(kk as usize);
    }
    ks.sort_unstable();
    ks.dedup();
    let job = SortJob::Partition {
        x: &lanes,
        kth: &ks,
        values: !indices,
        indices,
    };
    let mut r = backend::sort::run(&job, lanes.device())?;
    Ok(Value::Array(layout.restore(r.remove(0))?))
}

/// The k largest (or smallest) of every lane along `axis`: (values, indices)
/// in x's axis order. `k` is checked against the lane length.
pub(crate) fn topk_along(
    x: &Array,
    k: i64,
    axis: Option<i64>,
    largest: bool,
) -> Result<(Array, Array)> {
    let (lanes, layout) = to_lanes(x, axis, "topk")?;
    let n = lanes.shape().last().copied().unwrap_or(1);
    if k < 0 || k as usize > n {
        return Err(
            Error::value(format!("k={k} is out of range for an axis of length {n}"))
                .with_help(format!("k goes from 0 to {n}")),
        );
    }
    let k = k as usize;
    let mut shape = lanes.shape().to_vec();
    if let Some(last) = shape.last_mut() {
        *last = k;
    }
    let (v, ix) = if k == 0 || lanes.size() == 0 {
        (
            empty_like(&lanes, &shape, lanes.dtype())?,
            empty_like(&lanes, &shape, DType::Int64)?,
        )
    } else {
        let job = SortJob::Topk {
            x: &lanes,
            k,
            largest,
        };
        let mut r = backend::sort::run(&job, lanes.device())?.into_iter();
        match (r.next(), r.next()) {
            (Some(v), Some(ix)) => (v, ix),
            _ => return Err(Error::internal("topk gave fewer than two arrays")),
        }
    };
    Ok((layout.restore(v)?, layout.restore(ix)?))
}

fn topk_call(i: &mut Interp, mut args: Args) -> Result<Value> {
    let x = input(i, args.req("x")?)?;
    let k = int_arg(&args.req("k")?, "k")?;
    let axis = axis_arg(args.opt("axis")?, Some(-1))?;
    let largest = flag(args.opt("largest")?, "largest", true)?;
    let _sorted = flag(args.opt("sorted")?, "sorted", true)?;
    args.finish_with(&["axis", "largest", "sorted"])?;
    let (v, ix) = topk_along(&x, k, axis, largest)?;
    // torch.topk's names.
    Ok(Value::named_tuple(
        vec![Value::Array(v), Value::Array(ix)],
        &["values", "indices"],
    ))
}

/// Zeros of `shape` in x's dtype on x's device.
pub(crate) fn zeros_like_shape(x: &Array, shape: &[usize]) -> Result<Array> {
    empty_like(x, shape, x.dtype())
}
