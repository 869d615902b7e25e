//! NumPy 2's element pickers gcalc lacked: `choose select piecewise` (a
//! chain of `where`s, so they fuse, run on every device and carry
//! gradients to the chosen values) and the in-place writers `place put`
//! (the language's index assignment: a GPU array is written on the GPU).

use super::writes::{place, put};
use super::{arr, astype, call, data, data_on, min_max, value_err};
use crate::array::Array;
use crate::array::index::Index;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::assemble::IndexMode;
use crate::ops::creation::op;
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use gcalc_lang::Span;

pub static OPS: &[OpDef] = &[
    op!(
        "choose",
        "choose(a, choices, mode=\"raise\")",
        "For int array a, choices[a[i]][i] at every i (a and the choices broadcast together); mode \"raise\" (an entry outside 0..len(choices)-1 is an error, read back from the device), \"wrap\" or \"clip\". Differentiable in the choices.",
        false,
        choose
    ),
    op!(
        "select",
        "select(condlist, choicelist, default=0)",
        "Elements from the choicelist entry of the first true condition (bool arrays, broadcast together), default where none is true. Differentiable in the choices.",
        false,
        select
    ),
    op!(
        "piecewise",
        "piecewise(x, condlist, funclist)",
        "An array of x's shape and dtype: where condition k is true, funclist[k] (a function of x or a number); one function more than conditions is the value where none is true, else 0 there. The functions are called once on all of x (see the Decision).",
        false,
        piecewise
    ),
    op!(
        "place",
        "place(arr, mask, vals)",
        "In place: the elements of arr where mask (arr's size) is true get vals (flattened) in order, repeated when shorter. Gives none.",
        false,
        place
    ),
    op!(
        "put",
        "put(a, ind, v, mode=\"raise\")",
        "In place: a.flat[ind] = v, v (flattened) repeated to len(ind); mode \"raise\" (an index out of bounds is an error), \"wrap\" or \"clip\". Gives none. Also a method: a.put(ind, v).",
        true,
        put
    ),
];

/// A `mode=` argument: "raise" (the default), "wrap" or "clip".
pub(super) fn mode_arg(v: Option<Value>, name: &str) -> Result<IndexMode> {
    match v {
        None => Ok(IndexMode::Raise),
        Some(Value::Str(s)) => IndexMode::named(&s).ok_or_else(|| {
            value_err(
                name,
                format!("mode must be one of 'raise', 'wrap' or 'clip', got \"{s}\""),
                "e.g. mode=\"wrap\"",
            )
        }),
        Some(v) => Err(Error::type_(format!(
            "{name}: mode must be a string, got {}",
            v.a_type_name()
        ))
        .with_op(name)),
    }
}

/// The arrays of a list/tuple argument (or the rows of one array).
fn array_list(
    i: &mut Interp,
    span: Span,
    v: Value,
    name: &str,
    what: &str,
    dev: Option<Device>,
) -> Result<Vec<Array>> {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let dev = dev.unwrap_or_else(|| super::device_of(i, &[&v]));
            v.seq_items()
                .unwrap_or_default()
                .iter()
                .map(|c| data_on(i, c.clone(), dev, name, what))
                .collect()
        }
        Value::Array(a) if a.ndim() > 0 => {
            let n = a.shape()[0];
            (0..n)
                .map(|k| {
                    crate::ops::linalg_calls::Calls::new(i, span).index(&a, &[Index::Int(k as i64)])
                })
                .collect()
        }
        v => Err(Error::type_(format!(
            "{name}: {what} must be a list of arrays, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help(format!("e.g. {name}(..., [x, y])"))),
    }
}

fn choose(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "choose";
    let idxv = a.req("a")?;
    let choices = a.req("choices")?;
    let dev = super::device_of(i, &[&idxv, &choices]);
    let idx = data_on(i, idxv, dev, name, "a")?;
    let mode = mode_arg(a.opt("mode")?, name)?;
    a.finish_with(&["mode"])?;
    if idx.dtype().is_float() {
        return Err(Error::type_(format!(
            "{name}: Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
            idx.dtype().name()
        ))
        .with_op(name)
        .with_help("give int indices (x.astype(int64))"));
    }
    let cs = array_list(i, span, choices, name, "choices", Some(dev))?;
    if cs.is_empty() {
        return Err(value_err(
            name,
            "0-length sequence of choices".into(),
            "give at least one choice",
        ));
    }
    let cs: Vec<Array> = cs
        .into_iter()
        .map(|c| data_on(i, c.into(), dev, name, "choices"))
        .collect::<Result<_>>()?;
    let n = cs.len() as i64;
    let mut idx = astype(i, span, &idx, DType::Int64)?;
    match mode {
        IndexMode::Raise => {
            if idx.size() > 0 {
                let (lo, hi) = min_max(i, span, &idx)?;
                if lo < 0 || hi >= n {
                    return Err(value_err(
                        name,
                        format!(
                            "invalid entry in choice array: {} is not in 0..{}",
                            if lo < 0 { lo } else { hi },
                            n - 1
                        ),
                        "use mode=\"wrap\" or mode=\"clip\", or fix the indices",
                    ));
                }
            }
        }
        IndexMode::Wrap => idx = arr(i, span, "mod", vec![idx.into(), Value::Int(n)], vec![])?,
        IndexMode::Clip => {
            idx = arr(
                i,
                span,
                "clip",
                vec![idx.into(), Value::Int(0), Value::Int(n - 1)],
                vec![],
            )?
        }
    }
    // Broadcast every operand once so the result has the common shape even
    // when one choice covers it all.
    let mut all = vec![idx.clone()];
    all.extend(cs.iter().cloned());
    let b = arr_tuple(i, span, all)?;
    let idx = &b[0];
    let mut acc = b[1].clone();
    for (k, c) in b[2..].iter().enumerate() {
        let m = arr(
            i,
            span,
            "equal",
            vec![idx.clone().into(), Value::Int(k as i64 + 1)],
            vec![],
        )?;
        acc = arr(
            i,
            span,
            "where",
            vec![m.into(), c.clone().into(), acc.into()],
            vec![],
        )?;
    }
    let d = cs
        .iter()
        .skip(1)
        .fold(cs[0].dtype(), |d, c| crate::dtype::promote(d, c.dtype()));
    Ok(Value::Array(astype(i, span, &acc, d)?))
}

/// `broadcast_arrays(*xs)`.
fn arr_tuple(i: &mut Interp, span: Span, xs: Vec<Array>) -> Result<Vec<Array>> {
    let v = call(
        i,
        span,
        "broadcast_arrays",
        xs.into_iter().map(Value::Array).collect(),
        vec![],
    )?;
    super::items(v, "broadcast_arrays")?
        .into_iter()
        .map(|v| match v {
            Value::Array(a) => Ok(a),
            _ => Err(Error::internal("broadcast_arrays gave a non-array")),
        })
        .collect()
}

fn select(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "select";
    let condv = a.req("condlist")?;
    let choicev = a.req("choicelist")?;
    let default = a.opt("default")?.unwrap_or(Value::Int(0));
    a.finish_with(&["default"])?;
    let dev = super::device_of(i, &[&condv, &choicev]);
    let conds = array_list(i, span, condv, name, "condlist", Some(dev))?;
    let choices = array_list(i, span, choicev, name, "choicelist", Some(dev))?;
    if conds.len() != choices.len() {
        return Err(value_err(
            name,
            format!(
                "list of cases must be same length as list of conditions ({} conditions, {} choices)",
                conds.len(),
                choices.len()
            ),
            "give one choice per condition",
        ));
    }
    if conds.is_empty() {
        return Err(value_err(
            name,
            "select with an empty condition list is not possible".into(),
            "give at least one condition",
        ));
    }
    for (k, c) in conds.iter().enumerate() {
        if c.dtype() != DType::Bool {
            return Err(Error::type_(format!(
                "{name}: invalid entry {k} in condlist: should be boolean ndarray, got {}",
                c.dtype().name()
            ))
            .with_op(name)
            .with_help("give conditions such as x > 0"));
        }
    }
    let dev = conds[0].device();
    let mut d = choices[0].dtype();
    for c in &choices[1..] {
        d = crate::dtype::promote(d, c.dtype());
    }
    let mut acc = match default {
        Value::Array(x) => {
            let x = data_on(i, x.into(), dev, name, "default")?;
            d = crate::dtype::promote(d, x.dtype());
            x
        }
        v => {
            let s = crate::ops::creation::scalar_arg(&v, "default")?;
            // A weak number: its kind counts, not its width (NEP 50).
            d = match (&v, d) {
                (Value::Int(_), DType::Bool) => DType::Int64,
                (Value::Float(_), d) if !d.is_float() => DType::Float64,
                (_, d) => d,
            };
            Array::full(&[], s, d, dev)?
        }
    };
    for (c, x) in conds.iter().zip(&choices).rev() {
        let c = data_on(i, c.clone().into(), dev, name, "condlist")?;
        let x = data_on(i, x.clone().into(), dev, name, "choicelist")?;
        acc = arr(
            i,
            span,
            "where",
            vec![c.into(), x.into(), acc.into()],
            vec![],
        )?;
    }
    Ok(Value::Array(astype(i, span, &acc, d)?))
}

fn piecewise(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "piecewise";
    let x = data(i, a.req("x")?, name, "x")?;
    let condv = a.req("condlist")?;
    let funcv = a.req("funclist")?;
    a.finish()?;
    let conds = match &condv {
        Value::Array(c) if c.dtype() == DType::Bool && c.shape() == x.shape() => vec![c.clone()],
        _ => array_list(i, span, condv, name, "condlist", Some(x.device()))?,
    };
    let funcs: Vec<Value> = match &funcv {
        Value::List(_) | Value::Tuple(_) => funcv
            .seq_items()
            .unwrap_or_default()
            .iter()
            .cloned()
            .collect(),
        v => vec![v.clone()],
    };
    let n = conds.len();
    let mut conds = conds;
    if funcs.len() == n + 1 {
        let mut any = arr(
            i,
            span,
            "zeros_like",
            vec![x.clone().into()],
            vec![("dtype", Value::DType(DType::Bool))],
        )?;
        for c in &conds {
            any = arr(
                i,
                span,
                "logical_or",
                vec![any.into(), c.clone().into()],
                vec![],
            )?;
        }
        conds.push(arr(i, span, "logical_not", vec![any.into()], vec![])?);
    } else if funcs.len() != n {
        return Err(value_err(
            name,
            format!(
                "with {n} condition(s), either {n} or {} functions are expected, got {}",
                n + 1,
                funcs.len()
            ),
            "give one function (or value) per condition, and optionally one for the rest",
        ));
    }
    let mut y = arr(i, span, "zeros_like", vec![x.clone().into()], vec![])?;
    for (c, f) in conds.iter().zip(funcs) {
        let c = data_on(i, c.clone().into(), x.device(), name, "condlist")?;
        if c.dtype() != DType::Bool {
            return Err(Error::type_(format!(
                "{name}: conditions must be bool arrays, got {}",
                c.dtype().name()
            ))
            .with_op(name));
        }
        let v = match f {
            Value::Func(_) | Value::Builtin(_) | Value::Method(..) => {
                i.call_value(f, vec![x.clone().into()], vec![], span)?
            }
            v => v,
        };
        let v = match v {
            Value::Array(va) => Value::Array(astype(i, span, &va, x.dtype())?),
            v => v,
        };
        y = arr(i, span, "where", vec![c.into(), v, y.into()], vec![])?;
        y = astype(i, span, &y, x.dtype())?;
    }
    Ok(Value::Array(y))
}
