//! NumPy's ufunc methods on the binary elementwise builtins: `add.reduce(x,
//! axis=0)`, `maximum.accumulate(x)`, `subtract.outer(a, b)`, `add.at(x,
//! idx, v)`. Where gcalc has the op's own reduction or scan (`sum prod max
//! min all any nanmax nanmin`, `cumsum cumprod cummax cummin`, the `*_at`
//! writes) the method is that call; any other binary op folds along the
//! axis with the op itself. Every piece is a table call, so every device
//! runs them and `grad` differentiates through them.

use super::OpDef;
use super::elementwise::ew_def;
use super::npmath_calc::c;
use super::stats::call_op;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::{Object, Value};

/// The methods, by their NumPy names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Reduce,
    Accumulate,
    Outer,
    At,
}

const KINDS: &[(&str, Kind)] = &[
    ("reduce", Kind::Reduce),
    ("accumulate", Kind::Accumulate),
    ("outer", Kind::Outer),
    ("at", Kind::At),
];

/// (ufunc, its reduction) where gcalc has one.
const REDUCTIONS: &[(&str, &str)] = &[
    ("add", "sum"),
    ("multiply", "prod"),
    ("maximum", "max"),
    ("minimum", "min"),
    ("logical_and", "all"),
    ("logical_or", "any"),
    ("fmax", "nanmax"),
    ("fmin", "nanmin"),
];

/// (ufunc, its scan) where gcalc has one.
const SCANS: &[(&str, &str)] = &[
    ("add", "cumsum"),
    ("multiply", "cumprod"),
    ("maximum", "cummax"),
    ("minimum", "cummin"),
];

/// (ufunc, its unbuffered in-place write).
const WRITES: &[(&str, &str)] = &[
    ("add", "add_at"),
    ("subtract", "subtract_at"),
    ("multiply", "multiply_at"),
    ("maximum", "maximum_at"),
    ("minimum", "minimum_at"),
];

fn partner(table: &[(&str, &'static str)], ufunc: &str) -> Option<&'static str> {
    table.iter().find(|(u, _)| *u == ufunc).map(|(_, r)| *r)
}

/// `add.reduce` and the like: the method value, for binary elementwise ops.
pub fn namespace_attr(recv: &'static OpDef, attr: &str) -> Option<Value> {
    let def = ew_def(recv)?;
    let kind = KINDS.iter().find(|(n, _)| *n == attr)?.1;
    (def.arity == 2).then(|| Value::Object(std::sync::Arc::new(UfuncMethod { op: recv, kind })))
}

/// The method names a binary elementwise builtin completes to.
pub fn names(recv: &'static OpDef) -> Vec<String> {
    match ew_def(recv) {
        Some(d) if d.arity == 2 => KINDS.iter().map(|(n, _)| n.to_string()).collect(),
        _ => Vec::new(),
    }
}

/// `add.reduce` as a value (called later).
pub struct UfuncMethod {
    op: &'static OpDef,
    kind: Kind,
}

impl UfuncMethod {
    fn method_name(&self) -> &'static str {
        KINDS
            .iter()
            .find(|(_, k)| *k == self.kind)
            .map_or("reduce", |(n, _)| *n)
    }
}

impl Object for UfuncMethod {
    fn replayable_call(&self) -> bool {
        true
    }
    fn type_name(&self) -> &'static str {
        "ufunc method"
    }
    fn repr(&self) -> String {
        format!("<ufunc method {}.{}>", self.op.name, self.method_name())
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, i: &mut Interp, mut a: Args) -> Result<Value> {
        let what = format!("{}.{}", self.op.name, self.method_name());
        a.name = self.method_name();
        match self.kind {
            Kind::Reduce => reduce(self.op, i, a),
            Kind::Accumulate => accumulate(self.op, i, a),
            Kind::Outer => outer(self.op, i, a),
            Kind::At => at(self.op, i, a),
        }
        .map_err(|e| if e.op.is_none() { e.with_op(&what) } else { e })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn ndim(v: &Value) -> usize {
    v.as_array().map_or(0, |a| a.ndim())
}

/// NumPy's `axis` of a ufunc method: default 0, `none` for all (flattened).
fn axis_of(a: &mut Args) -> Result<Option<i64>> {
    match a.opt("axis")? {
        None => Ok(Some(0)),
        Some(Value::None) => Ok(None),
        Some(Value::Int(k)) => Ok(Some(k)),
        Some(v) => Err(Error::type_(format!(
            "axis must be an int or none, got {}",
            v.a_type_name()
        ))),
    }
}

/// The array `x` with the axis `k` first (flattened for none).
fn lanes_first(i: &mut Interp, x: Value, axis: Option<i64>) -> Result<(Value, i64)> {
    match axis {
        None => Ok((c(i, "ravel", vec![x])?, 0)),
        Some(k) => {
            let n = ndim(&x) as i64;
            if n == 0 {
                return Err(Error::value("cannot reduce a 0-d array along an axis")
                    .with_help("give an array of one dimension or more"));
            }
            if k < -n || k >= n {
                return Err(Error::index(format!(
                    "axis {k} is out of bounds for an array of {n} dimensions"
                )));
            }
            Ok((
                c(i, "moveaxis", vec![x, Value::Int(k), Value::Int(0)])?,
                k.rem_euclid(n),
            ))
        }
    }
}

fn len0(v: &Value) -> usize {
    v.as_array()
        .map_or(0, |a| a.shape().first().copied().unwrap_or(0))
}

fn item(i: &mut Interp, x: &Value, k: usize) -> Result<Value> {
    c(
        i,
        "take",
        vec![x.clone(), Value::Int(k as i64), Value::Int(0)],
    )
}

/// `op.reduce(x, axis=0, keepdims=false, dtype=none, initial=, where=)`.
fn reduce(op: &'static OpDef, i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let axis = axis_of(&mut a)?;
    let mut kw: Vec<(&str, Value)> = Vec::new();
    for k in ["dtype", "keepdims", "initial", "where"] {
        if let Some(v) = a.kw(k) {
            kw.push((k, v));
        }
    }
    a.finish_with(&["axis", "dtype", "keepdims", "initial", "where"])?;
    if let Some(r) = partner(REDUCTIONS, op.name) {
        kw.push(("axis", axis.map_or(Value::None, Value::Int)));
        return call_op(i, r, vec![x], kw);
    }
    if let Some((k, _)) = kw.first() {
        return Err(Error::value(format!(
            "{}.reduce takes no {k}= (gcalc folds it with {} itself)",
            op.name, op.name
        )));
    }
    let x = c(i, "asarray", vec![x])?;
    if axis.is_none() && ndim(&x) > 1 {
        return Err(Error::value(format!(
            "reduction operation '{}' is not reorderable, so at most one axis may be specified",
            op.name
        ))
        .with_help(format!(
            "reduce one axis at a time, or {}.reduce(x.ravel())",
            op.name
        )));
    }
    let (t, _) = lanes_first(i, x, axis)?;
    let n = len0(&t);
    if n == 0 {
        return Err(Error::value(format!(
            "zero-size array to reduction operation {} which has no identity",
            op.name
        )));
    }
    let mut acc = item(i, &t, 0)?;
    for k in 1..n {
        let next = item(i, &t, k)?;
        acc = c(i, op.name, vec![acc, next])?;
    }
    Ok(acc)
}

/// `op.accumulate(x, axis=0, dtype=none)`.
fn accumulate(op: &'static OpDef, i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let axis = match axis_of(&mut a)? {
        None => {
            return Err(
                Error::value("accumulate needs an axis (none is not allowed)")
                    .with_help("flatten first: add.accumulate(x.ravel())"),
            );
        }
        k => k,
    };
    let dtype = a.kw("dtype");
    a.finish_with(&["axis", "dtype"])?;
    let x = c(i, "asarray", vec![x])?;
    let x = match dtype {
        Some(d) => c(i, "astype", vec![x, d])?,
        None => x,
    };
    if let Some(s) = partner(SCANS, op.name) {
        return call_op(
            i,
            s,
            vec![x],
            vec![("axis", axis.map_or(Value::None, Value::Int))],
        );
    }
    let (t, k) = lanes_first(i, x, axis)?;
    let n = len0(&t);
    let mut parts: Vec<Value> = Vec::with_capacity(n);
    for j in 0..n {
        let next = item(i, &t, j)?;
        let acc = match parts.last() {
            None => next,
            Some(prev) => c(i, op.name, vec![prev.clone(), next])?,
        };
        parts.push(acc);
    }
    if parts.is_empty() {
        return c(i, "moveaxis", vec![t, Value::Int(0), Value::Int(k)]);
    }
    call_op(
        i,
        "stack",
        vec![Value::list(parts)],
        vec![("axis", Value::Int(k))],
    )
}

/// `op.outer(a, b)`: op of every element of a with every element of b.
fn outer(op: &'static OpDef, i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = c(i, "asarray", vec![a.req("a")?])?;
    let y = c(i, "asarray", vec![a.req("b")?])?;
    a.finish()?;
    let mut shape: Vec<Value> = x
        .as_array()
        .map(|a| a.shape().iter().map(|&d| Value::Int(d as i64)).collect())
        .unwrap_or_default();
    shape.extend(std::iter::repeat_n(Value::Int(1), ndim(&y)));
    let xr = c(i, "reshape", vec![x, Value::tuple(shape)])?;
    c(i, op.name, vec![xr, y])
}

/// `op.at(x, idx, v)`: the unbuffered in-place write.
fn at(op: &'static OpDef, i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let idx = a.req("indices")?;
    let v = a.req("b")?;
    a.finish()?;
    match partner(WRITES, op.name) {
        Some(w) => c(i, w, vec![x, idx, v]),
        None => Err(Error::value(format!("{}.at is not in gcalc", op.name))
            .with_help("add.at, subtract.at, multiply.at, maximum.at and minimum.at are")),
    }
}
