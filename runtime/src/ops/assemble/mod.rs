//! Shape and assembly builtins (issue 17): views where NumPy gives views
//! (`flip fliplr flipud swapaxes moveaxis rot90 diagonal atleast_*` and the
//! parts of `split`), copies through device kernels otherwise (`hstack
//! vstack dstack column_stack roll tile repeat pad meshgrid triu tril diag
//! trace take take_along_axis put_along_axis`). Argument checks and shapes
//! are here; the copies run in `backend::assemble` (a remap per call) or
//! through `concat`, fused `where` trees and strided stores. Gradients are
//! in `autodiff/rules_assemble.rs`.

mod copies;
mod gather;
mod join;
mod tri;
mod views;

pub(crate) use copies::{pad_plan, repeat_remap, roll_apply, roll_plan, tile_plan, tile_remap};
pub(crate) use gather::{take_along_parts, take_args, take_parts};
pub(crate) use join::{JoinKind, prepared_shape};
pub(crate) use tri::{masked, tri_mask, with_diagonal};
pub(crate) use views::{diag_axes, diagonal_view, flip_view, moveaxis_perm, rot90_view, swap_perm};

use super::creation::op;
use crate::array::Array;
use crate::array::create::value_to_array;
use crate::array::shape_ops::norm_axis;
use crate::builtins::lang::int_arg;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

use crate::autodiff::rules_assemble as rules;

/// `vstack`, also `row_stack` (NumPy's older name) in `ops/np_alias.rs`.
pub(crate) const VSTACK: OpDef = op!("vstack", "vstack(arrays)", "Join arrays vertically: 1-d arrays become rows (1, n), then everything joins along axis 0. A copy.", false, join::vstack, grad: rules::vstack);

pub static OPS: &[OpDef] = &[
    op!("hstack", "hstack(arrays)", "Join arrays horizontally: along axis 1, or axis 0 when they are 1-d (NumPy's hstack). A copy.", false, join::hstack, grad: rules::hstack),
    VSTACK,
    op!("dstack", "dstack(arrays)", "Join arrays along the third axis, after making each at least 3-d ((n,) -> (1, n, 1), (m, n) -> (m, n, 1)). A copy.", false, join::dstack, grad: rules::dstack),
    op!("column_stack", "column_stack(arrays)", "1-d arrays as the columns (n, 1) of a 2-d array, 2-d arrays as they are, joined along axis 1. A copy.", false, join::column_stack, grad: rules::column_stack),
    op!("split", "split(x, indices_or_sections, axis=0)", "A tuple of views of x cut along axis: into N equal parts (N must divide the length), or at the given indices (x[:i0], x[i0:i1], ..., x[ik:]).", false, join::split, grad: rules::split),
    op!("array_split", "array_split(x, indices_or_sections, axis=0)", "Like split, but N parts need not be equal: the first (length % N) parts are one longer. A tuple of views.", false, join::array_split, grad: rules::split),
    op!("meshgrid", "meshgrid(x, y, indexing=\"xy\") | meshgrid(x1, x2, ..., indexing=\"xy\", sparse=false, copy=true)", "Coordinate arrays from coordinate vectors, as a tuple: indexing=\"xy\" (Cartesian: the first two axes swapped, shape (len(y), len(x), ...)) or \"ij\" (matrix). sparse=true gives broadcastable shapes; copy=false broadcast views.", false, join::meshgrid, grad: rules::meshgrid),
    op!("flip", "flip(m, axis=none)", "m with the order of its elements reversed along axis (an int, a tuple of ints, or every axis). A view.", false, views::flip, grad: rules::flip),
    op!("fliplr", "fliplr(m)", "m flipped left to right (axis 1; m has at least 2 dimensions). A view.", false, views::fliplr, grad: rules::fliplr),
    op!("flipud", "flipud(m)", "m flipped up to down (axis 0; m has at least 1 dimension). A view.", false, views::flipud, grad: rules::flipud),
    op!("rot90", "rot90(m, k=1, axes=(0, 1))", "m rotated by 90 degrees k times in the plane of axes, from the first axis towards the second. A view.", false, views::rot90, grad: rules::rot90),
    op!("swapaxes", "swapaxes(a, axis1, axis2) | x.swapaxes(axis1, axis2)", "a with two axes interchanged. A view.", true, views::swapaxes, grad: rules::swapaxes),
    op!("moveaxis", "moveaxis(a, source, destination)", "a with the axes source (an int or a tuple) moved to positions destination; the other axes keep their order. A view.", false, views::moveaxis, grad: rules::moveaxis),
    op!("diagonal", "diagonal(a, offset=0, axis1=0, axis2=1) | x.diagonal(offset=0, axis1=0, axis2=1)", "The diagonal offset of the 2-d subarrays over axis1 and axis2, as the last axis (offset > 0: above the main diagonal). A view: writes through it reach a (NumPy's is read-only).", true, views::diagonal, grad: rules::diagonal),
    op!("atleast_1d", "atleast_1d(x) | atleast_1d(x1, x2, ...)", "x as an array of at least one dimension (a 0-d x becomes (1,)). A view; several arguments give a tuple.", false, views::atleast_1d, grad: rules::atleast),
    op!("atleast_2d", "atleast_2d(x) | atleast_2d(x1, x2, ...)", "x as an array of at least two dimensions ((n,) becomes (1, n)). A view; several arguments give a tuple.", false, views::atleast_2d, grad: rules::atleast),
    op!("atleast_3d", "atleast_3d(x) | atleast_3d(x1, x2, ...)", "x as an array of at least three dimensions ((n,) becomes (1, n, 1), (m, n) becomes (m, n, 1)). A view; several arguments give a tuple.", false, views::atleast_3d, grad: rules::atleast),
    op!("roll", "roll(a, shift, axis=none)", "The elements of a shifted by shift along axis, those past the end coming back at the start (shift and axis: ints or tuples); without axis the flattened array is rolled, then given a's shape. A copy.", false, copies::roll, grad: rules::roll),
    op!("tile", "tile(x, reps)", "x repeated reps times along each axis (reps: an int or a tuple; x gains leading axes when reps is longer than x.ndim). A copy.", false, copies::tile, grad: rules::tile),
    op!("repeat", "repeat(a, repeats, axis=none) | x.repeat(repeats, axis=none)", "Each element repeated: repeats is a count for all, or one count per element along axis; without axis the flattened array. A copy (the counts decide its size: counts on a GPU are read once).", true, copies::repeat, grad: rules::repeat),
    op!("pad", "pad(x, pad_width, mode=\"constant\", constant_values=0)", "x padded on each axis: pad_width is n, (before, after), or one (before, after) per axis; mode \"constant\" (constant_values: a value, or pairs like pad_width), \"edge\", \"reflect\", \"symmetric\" or \"wrap\". A copy.", false, copies::pad, grad: rules::pad),
    op!("triu", "triu(m, k=0)", "A copy of m with the elements below diagonal k zeroed (over the last two axes; a 1-d m is taken as rows of a square).", false, tri::triu, grad: rules::triu),
    op!("tril", "tril(m, k=0)", "A copy of m with the elements above diagonal k zeroed (over the last two axes; a 1-d m is taken as rows of a square).", false, tri::tril, grad: rules::tril),
    op!("diag", "diag(x, k=0)", "For a 1-d x, a 2-d array with x on diagonal k and zeros elsewhere (a copy); for a 2-d x, its diagonal k (a view).", false, tri::diag, grad: rules::diag),
    op!("trace", "trace(a, offset=0, axis1=0, axis2=1, dtype=none) | x.trace(offset=0, axis1=0, axis2=1, dtype=none)", "The sum along diagonal offset of the 2-d subarrays over axis1 and axis2 (dtypes as sum's: ints give int64).", true, tri::trace, grad: rules::trace),
    op!("take", "take(a, indices, axis=none, mode=\"raise\") | x.take(indices, axis=none, mode=\"raise\")", "The elements of a at indices along axis (of the flattened a without axis), of shape a.shape[:axis] + indices.shape + a.shape[axis+1:]; mode \"raise\" (an index out of bounds is an error), \"wrap\" or \"clip\". A copy.", true, gather::take, grad: rules::take),
    op!("take_along_axis", "take_along_axis(x, indices, axis=-1)", "The elements of x at indices along axis, position by position (indices has x's number of dimensions; the other axes broadcast), e.g. with argsort or argmax(..., keepdims=true); axis=none: the flattened x. A copy.", false, gather::take_along_axis, grad: rules::take_along_axis),
    op!(
        "put_along_axis",
        "put_along_axis(x, indices, values, axis)",
        "Write values into x at indices along axis, in place (take_along_axis backwards; a repeated target keeps the last value in C order). Gives none. Not differentiable (it writes in place).",
        false,
        gather::put_along_axis
    ),
];

/// A data argument: an array as it is; numbers and (nested) lists become an
/// array on the session's default device, like `array(...)`.
pub(crate) fn data_arg(i: &Interp, v: &Value) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        other => {
            let a = value_to_array(other, None, i.float_x())?;
            crate::backend::to_device(&a, i.default_device())
        }
    }
}

/// The arrays of a list or tuple argument (each a `data_arg`).
pub(crate) fn data_list(i: &Interp, v: &Value, op: &str) -> Result<Vec<Array>> {
    match v {
        tv @ (Value::List(_) | Value::Tuple(_)) => tv
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|x| data_arg(i, x))
            .collect(),
        other => Err(Error::type_(format!(
            "{op} takes a list or tuple of arrays, not {}",
            other.a_type_name()
        ))
        .with_help(format!("e.g. {op}([a, b])"))),
    }
}

/// Integers from an int, a tuple/list of ints, or a 0-d/1-d int array.
pub(crate) fn int_list(v: &Value, what: &str) -> Result<Vec<i64>> {
    match v {
        tv @ (Value::Tuple(_) | Value::List(_)) => tv
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|x| int_arg(x, what))
            .collect(),
        Value::Array(a) if a.ndim() == 1 && (a.dtype().is_int() || a.dtype().is_bool()) => {
            a.to_vec::<i64>()
        }
        v => Ok(vec![int_arg(v, what)?]),
    }
}

/// Distinct axes of an array of `ndim` dims from an int or a tuple (NumPy's
/// `normalize_axis_tuple`): an axis out of bounds or given twice is an error.
pub(crate) fn axes_arg(v: &Value, ndim: usize, op: &str) -> Result<Vec<usize>> {
    let mut out = Vec::new();
    for a in int_list(v, "axis")? {
        let a = norm_axis(a, ndim, op)?;
        if out.contains(&a) {
            return Err(
                Error::value(format!("{op}: repeated axis {a} in the axis argument"))
                    .with_op(op)
                    .with_help("give each axis once"),
            );
        }
        out.push(a);
    }
    Ok(out)
}

/// An optional int keyword or positional argument with a default.
pub(crate) fn opt_int(a: &mut Args, key: &str, default: i64) -> Result<i64> {
    match a.opt(key)? {
        None => Ok(default),
        Some(v) => int_arg(&v, key),
    }
}

/// An optional axis: `none` (or absent) gives `None`.
pub(crate) fn opt_axis(a: &mut Args, default: Option<i64>) -> Result<Option<i64>> {
    match a.opt("axis")? {
        None => Ok(default),
        Some(Value::None) => Ok(None),
        Some(v) => int_arg(&v, "axis").map(Some),
    }
}

/// A string argument that must be one of `choices` (`mode="edge"`).
pub(crate) fn choice_arg(
    v: &Value,
    op: &str,
    key: &str,
    choices: &[&'static str],
) -> Result<&'static str> {
    let list = choices
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    match v {
        Value::Str(s) => choices
            .iter()
            .find(|c| **c == &**s)
            .copied()
            .ok_or_else(|| {
                Error::value(format!("{op}: {key}=\"{s}\" is not supported"))
                    .with_op(op)
                    .with_help(format!("{key} is one of {list}"))
            }),
        other => Err(Error::type_(format!(
            "{op}: {key} must be a string, not {}",
            other.a_type_name()
        ))
        .with_help(format!("{key} is one of {list}"))),
    }
}

/// A host table of `len` entries made by `f`, allocated without aborting
/// (its length comes from user arguments: `repeat`'s counts).
pub(crate) fn table_with(len: usize, f: impl FnMut(usize) -> i64) -> Result<Vec<i64>> {
    let mut v: Vec<i64> = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::new(
            crate::error::ErrorKind::OutOfMemory,
            format!("a table of {len} positions does not fit in host memory"),
        )
        .with_help("use smaller counts")
    })?;
    v.extend((0..len).map(f));
    Ok(v)
}
