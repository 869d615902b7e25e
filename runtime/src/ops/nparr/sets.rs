//! NumPy 2's set functions gcalc lacked: `intersect1d union1d setdiff1d
//! setxor1d unique_values unique_counts unique_inverse unique_all` (and the
//! table entries of the index helpers in `ravel.rs`), written as NumPy
//! writes them (unique, a stable sort, adjacent comparisons, a mask) from
//! table ops, so they run on every device. A masked selection's size is
//! data-dependent: it reads one count back from a GPU (as indexing by a
//! mask does). The index helpers' range checks read a min and a max back.

use super::ravel::{lexsort, ravel_multi_index, unravel_index};
use super::{arr, call, data, items, ravel, tuple_of};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::ops::creation::op;
use crate::ops::linalg_calls::Calls;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "intersect1d",
        "intersect1d(ar1, ar2, assume_unique=false, return_indices=false)",
        "The sorted values found in both arrays (flattened); with return_indices=true, (values, positions in ar1, positions in ar2) of their first occurrences.",
        false,
        intersect1d
    ),
    op!(
        "union1d",
        "union1d(ar1, ar2)",
        "The sorted distinct values found in either array (flattened).",
        false,
        union1d
    ),
    op!(
        "setdiff1d",
        "setdiff1d(ar1, ar2, assume_unique=false)",
        "The sorted distinct values of ar1 that are not in ar2 (ar1 as it is, flattened, with assume_unique=true).",
        false,
        setdiff1d
    ),
    op!(
        "setxor1d",
        "setxor1d(ar1, ar2, assume_unique=false)",
        "The sorted values found in exactly one of the arrays (flattened).",
        false,
        setxor1d
    ),
    op!(
        "unique_values",
        "unique_values(x)",
        "The sorted distinct elements of x (flattened); every nan counts as distinct (the array API's rule, equal_nan=false).",
        false,
        |i, a| unique_parts(i, a, &[], &[])
    ),
    op!(
        "unique_counts",
        "unique_counts(x)",
        "A tuple (values, counts): the sorted distinct elements of x and how often each occurs (nans distinct).",
        false,
        |i, a| unique_parts(i, a, &["return_counts"], &["values", "counts"])
    ),
    op!(
        "unique_inverse",
        "unique_inverse(x)",
        "A tuple (values, inverse_indices): the sorted distinct elements of x and, in x's shape, each element's position among them (nans distinct).",
        false,
        |i, a| unique_parts(i, a, &["return_inverse"], &["values", "inverse_indices"])
    ),
    op!(
        "unique_all",
        "unique_all(x)",
        "A tuple (values, indices, inverse_indices, counts): the sorted distinct elements of x, the position of each one's first occurrence, each element's position among them (x's shape), each one's count (nans distinct).",
        false,
        |i, a| unique_parts(
            i,
            a,
            &["return_index", "return_inverse", "return_counts"],
            &["values", "indices", "inverse_indices", "counts"]
        )
    ),
    op!(
        "lexsort",
        "lexsort(keys, axis=-1)",
        "The int64 positions that sort by several keys (a list of arrays of one shape, or the rows of a 2-d array): the last key is the primary one; stable, nans last.",
        false,
        lexsort
    ),
    op!(
        "unravel_index",
        "unravel_index(indices, shape, order=\"C\")",
        "A tuple of int64 arrays (indices' shape): the coordinates in an array of shape of each flat position (C or F order); a position outside the array is an error.",
        false,
        unravel_index
    ),
    op!(
        "ravel_multi_index",
        "ravel_multi_index(multi_index, dims, mode=\"raise\", order=\"C\")",
        "The int64 flat positions of coordinate arrays (a tuple, one per dim, broadcast together) in an array of shape dims; mode \"raise\", \"wrap\" or \"clip\" (one, or one per dim).",
        false,
        ravel_multi_index
    ),
];

fn flag(v: Option<Value>, what: &str, name: &str) -> Result<bool> {
    crate::ops::stat_args::flag(v, what, name, false)
}

fn unique(i: &mut Interp, span: Span, x: &Array, kw: &[&str]) -> Result<Vec<Array>> {
    let kws: Vec<(&str, Value)> = kw.iter().map(|k| (*k, Value::Bool(true))).collect();
    let v = call(i, span, "unique", vec![x.clone().into()], kws)?;
    if kw.is_empty() {
        return Ok(vec![super::as_array(v)?]);
    }
    items(v, "unique")?
        .into_iter()
        .map(super::as_array)
        .collect()
}

/// `unique` with the flags `kw`; its tuple's items named `names` (NumPy 2's
/// `UniqueAllResult` and kin) when there are several.
fn unique_parts(
    i: &mut Interp,
    mut a: Args,
    kw: &[&str],
    names: &'static [&'static str],
) -> Result<Value> {
    let span = a.span;
    let x = data(i, a.req("x")?, a.name, "x")?;
    a.finish()?;
    let mut kws: Vec<(&str, Value)> = kw.iter().map(|k| (*k, Value::Bool(true))).collect();
    kws.push(("equal_nan", Value::Bool(false)));
    let v = call(i, span, "unique", vec![x.into()], kws)?;
    match v {
        Value::Tuple(t) if t.len() == names.len() => {
            Ok(Value::named_tuple(t.iter().cloned().collect(), names))
        }
        v => Ok(v),
    }
}

fn slice(
    i: &mut Interp,
    span: Span,
    x: &Array,
    start: Option<i64>,
    stop: Option<i64>,
) -> Result<Array> {
    Calls::new(i, span).index(
        x,
        &[Index::Slice {
            start,
            stop,
            step: None,
        }],
    )
}

fn masked(i: &mut Interp, span: Span, x: &Array, m: &Array) -> Result<Array> {
    Calls::new(i, span).index(x, &[Index::Array(m.clone())])
}

fn concat(i: &mut Interp, span: Span, xs: Vec<Array>) -> Result<Array> {
    arr(
        i,
        span,
        "concatenate",
        vec![Value::list(xs.into_iter().map(Value::Array).collect())],
        vec![],
    )
}

fn two(i: &mut Interp, a: &mut Args, name: &str) -> Result<(Array, Array)> {
    let (x, y) = (a.req("ar1")?, a.req("ar2")?);
    super::pair(i, x, y, name, ("ar1", "ar2"))
}

fn intersect1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "intersect1d";
    let (x, y) = two(i, &mut a, name)?;
    let assume_unique = flag(a.opt("assume_unique")?, "assume_unique", name)?;
    let return_indices = flag(a.opt("return_indices")?, "return_indices", name)?;
    a.finish_with(&["assume_unique", "return_indices"])?;
    let (x, y, ind) = if assume_unique {
        (ravel(i, span, &x)?, ravel(i, span, &y)?, None)
    } else if return_indices {
        let ux = unique(i, span, &x, &["return_index"])?;
        let uy = unique(i, span, &y, &["return_index"])?;
        (
            ux[0].clone(),
            uy[0].clone(),
            Some((ux[1].clone(), uy[1].clone())),
        )
    } else {
        (
            unique(i, span, &x, &[])?.remove(0),
            unique(i, span, &y, &[])?.remove(0),
            None,
        )
    };
    let nx = x.size() as i64;
    let aux = concat(i, span, vec![x, y])?;
    let (aux, order) = if return_indices {
        let o = arr(i, span, "argsort", vec![aux.clone().into()], vec![])?;
        (
            arr(i, span, "take", vec![aux.into(), o.clone().into()], vec![])?,
            Some(o),
        )
    } else {
        (arr(i, span, "sort", vec![aux.into()], vec![])?, None)
    };
    let hi = slice(i, span, &aux, Some(1), None)?;
    let lo = slice(i, span, &aux, None, Some(-1))?;
    let mask = arr(i, span, "equal", vec![hi.into(), lo.clone().into()], vec![])?;
    let int1d = masked(i, span, &lo, &mask)?;
    let Some(o) = order else {
        return Ok(Value::Array(int1d));
    };
    let o_lo = slice(i, span, &o, None, Some(-1))?;
    let o_hi = slice(i, span, &o, Some(1), None)?;
    let mut i1 = masked(i, span, &o_lo, &mask)?;
    let i2 = masked(i, span, &o_hi, &mask)?;
    let mut i2 = arr(i, span, "subtract", vec![i2.into(), Value::Int(nx)], vec![])?;
    if let Some((ix, iy)) = ind {
        i1 = arr(i, span, "take", vec![ix.into(), i1.into()], vec![])?;
        i2 = arr(i, span, "take", vec![iy.into(), i2.into()], vec![])?;
    }
    Ok(tuple_of(vec![int1d, i1, i2]))
}

fn union1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "union1d";
    let (x, y) = two(i, &mut a, name)?;
    a.finish()?;
    let (x, y) = (ravel(i, span, &x)?, ravel(i, span, &y)?);
    let aux = concat(i, span, vec![x, y])?;
    Ok(Value::Array(unique(i, span, &aux, &[])?.remove(0)))
}

fn setdiff1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "setdiff1d";
    let (x, y) = two(i, &mut a, name)?;
    let assume_unique = flag(a.opt("assume_unique")?, "assume_unique", name)?;
    a.finish_with(&["assume_unique"])?;
    let (x, y) = if assume_unique {
        (ravel(i, span, &x)?, y)
    } else {
        (
            unique(i, span, &x, &[])?.remove(0),
            unique(i, span, &y, &[])?.remove(0),
        )
    };
    let keep = arr(
        i,
        span,
        "isin",
        vec![x.clone().into(), y.into()],
        vec![("invert", Value::Bool(true))],
    )?;
    Ok(Value::Array(masked(i, span, &x, &keep)?))
}

fn setxor1d(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "setxor1d";
    let (x, y) = two(i, &mut a, name)?;
    let assume_unique = flag(a.opt("assume_unique")?, "assume_unique", name)?;
    a.finish_with(&["assume_unique"])?;
    let (x, y) = if assume_unique {
        (ravel(i, span, &x)?, ravel(i, span, &y)?)
    } else {
        (
            unique(i, span, &x, &[])?.remove(0),
            unique(i, span, &y, &[])?.remove(0),
        )
    };
    let aux = concat(i, span, vec![x, y])?;
    if aux.size() == 0 {
        return Ok(Value::Array(aux));
    }
    let aux = arr(i, span, "sort", vec![aux.into()], vec![])?;
    let hi = slice(i, span, &aux, Some(1), None)?;
    let lo = slice(i, span, &aux, None, Some(-1))?;
    let ne = arr(i, span, "not_equal", vec![hi.into(), lo.into()], vec![])?;
    let t = Array::full(
        &[1],
        crate::array::Scalar::Bool(true),
        DType::Bool,
        aux.device(),
    )?;
    let fl = concat(i, span, vec![t.clone(), ne, t])?;
    let f_hi = slice(i, span, &fl, Some(1), None)?;
    let f_lo = slice(i, span, &fl, None, Some(-1))?;
    let keep = arr(
        i,
        span,
        "logical_and",
        vec![f_hi.into(), f_lo.into()],
        vec![],
    )?;
    Ok(Value::Array(masked(i, span, &aux, &keep)?))
}
