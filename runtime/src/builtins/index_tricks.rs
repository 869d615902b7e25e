//! NumPy's index tricks `r_ c_ mgrid ogrid`: objects indexed with slices
//! and values to build arrays (`r_[0:3, 10]`, `c_[x, y]`,
//! `mgrid[-1:1:5j, 0:2]`). A slice is `arange(start, stop, step)`, or
//! `linspace(start, stop, n)` (stop included) when its step is an imaginary
//! `nj`, as NumPy's. Built of table calls (`arange linspace concatenate
//! meshgrid stack reshape`), so they land on the `device` flag's device.

use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::ops::npmath_calc::c;
use crate::ops::stats::call_op;
use crate::value::{Object, Value};

/// Which trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trick {
    /// `r_`: the pieces joined along the first axis.
    R,
    /// `c_`: the pieces as columns, joined along the last axis.
    C,
    /// `mgrid`: the dense grid of the slices, stacked (`meshgrid`, ij).
    Mgrid,
    /// `ogrid`: the open grid (each slice's points along its own axis).
    Ogrid,
}

impl Trick {
    pub fn name(self) -> &'static str {
        match self {
            Trick::R => "r_",
            Trick::C => "c_",
            Trick::Mgrid => "mgrid",
            Trick::Ogrid => "ogrid",
        }
    }
}

/// The object behind the names `r_ c_ mgrid ogrid`.
pub struct IndexTrick(pub Trick);

impl Object for IndexTrick {
    fn type_name(&self) -> &'static str {
        "index trick"
    }
    fn repr(&self) -> String {
        format!(
            "<index trick {}: index it, {}[...]>",
            self.0.name(),
            self.0.name()
        )
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// One item between the brackets, evaluated.
pub enum Item {
    /// `start:stop:step`, each part as written (none when left out).
    Slice(Box<[Value; 3]>),
    Value(Value),
}

/// The points of one slice.
fn slice_points(
    i: &mut Interp,
    name: &str,
    start: Value,
    stop: Value,
    step: Value,
) -> Result<Value> {
    let start = match start {
        Value::None => Value::Int(0),
        v => v,
    };
    if matches!(stop, Value::None) {
        return Err(Error::value(format!(
            "{name}[...]: a slice needs its stop (`{name}[0:5]`)"
        ))
        .with_op(name));
    }
    match step {
        // NumPy's `a:b:nj`: n points from a to b, b included.
        Value::Complex(_, im) => {
            let n = im.abs().round();
            if n < 1.0 {
                return Err(Error::value(format!(
                    "{name}[...]: an imaginary step counts points, got {im}j"
                ))
                .with_op(name)
                .with_help("write `0:1:5j` for five points from 0 to 1"));
            }
            call_op(
                i,
                "linspace",
                vec![start, stop, Value::Int(n as i64)],
                vec![],
            )
        }
        Value::None => c(i, "arange", vec![start, stop]),
        step => c(i, "arange", vec![start, stop, step]),
    }
}

/// `r_`/`c_` pieces: slices as their points, numbers and lists as arrays.
fn piece(i: &mut Interp, name: &str, it: Item) -> Result<Value> {
    match it {
        Item::Slice(p) => {
            let [a, b, s] = *p;
            slice_points(i, name, a, b, s)
        }
        Item::Value(Value::Str(s)) => Err(Error::value(format!(
            "{name}[...]: the string directive \"{s}\" is not supported"
        ))
        .with_op(name)
        .with_help("join along another axis with concatenate(xs, axis=k) or stack(xs, axis=k)")),
        Item::Value(v @ Value::Array(_)) => Ok(v),
        Item::Value(v) => c(i, "array", vec![v]),
    }
}

fn ndim(v: &Value) -> usize {
    v.as_array().map_or(0, |a| a.ndim())
}

fn shape(dims: &[i64]) -> Value {
    Value::tuple(dims.iter().map(|&d| Value::Int(d)).collect())
}

impl IndexTrick {
    /// `trick[items]`.
    pub fn index(&self, i: &mut Interp, items: Vec<Item>) -> Result<Value> {
        let name = self.0.name();
        match self.0 {
            Trick::R | Trick::C => {
                // NumPy's rule: every piece takes the result type of the
                // arrays and the Python numbers (weak) among the items.
                let mut parts = Vec::with_capacity(items.len());
                let mut typing = Vec::with_capacity(items.len());
                for it in items {
                    let weak = match &it {
                        Item::Value(
                            v @ (Value::Int(_)
                            | Value::Float(_)
                            | Value::Bool(_)
                            | Value::Complex(..)),
                        ) => Some(v.clone()),
                        _ => None,
                    };
                    let p = piece(i, name, it)?;
                    typing.push(weak.unwrap_or_else(|| p.clone()));
                    let p = match (self.0, ndim(&p)) {
                        (Trick::R, 0) => c(i, "reshape", vec![p, shape(&[1])])?,
                        (Trick::C, 0) => c(i, "reshape", vec![p, shape(&[1, 1])])?,
                        (Trick::C, 1) => c(i, "reshape", vec![p, shape(&[-1, 1])])?,
                        _ => p,
                    };
                    parts.push(p);
                }
                if !typing.is_empty() {
                    let d = c(i, "result_type", typing)?;
                    for p in &mut parts {
                        *p = c(i, "astype", vec![p.clone(), d.clone()])?;
                    }
                }
                let axis = if self.0 == Trick::R { 0 } else { -1 };
                call_op(
                    i,
                    "concatenate",
                    vec![Value::list(parts)],
                    vec![("axis", Value::Int(axis))],
                )
            }
            Trick::Mgrid | Trick::Ogrid => {
                let mut axes = Vec::with_capacity(items.len());
                for it in items {
                    match it {
                        Item::Slice(p) => {
                            let [a, b, s] = *p;
                            axes.push(slice_points(i, name, a, b, s)?)
                        }
                        Item::Value(v) => {
                            return Err(Error::type_(format!(
                                "{name}[...] takes slices, got {}",
                                v.a_type_name()
                            ))
                            .with_op(name)
                            .with_help(format!("write {name}[0:3, 0:1:5j]")));
                        }
                    }
                }
                if axes.len() == 1 {
                    return Ok(axes.remove(0));
                }
                if self.0 == Trick::Mgrid {
                    let grids = call_op(i, "meshgrid", axes, vec![("indexing", Value::str("ij"))])?;
                    let grids = grids.seq_items().map(|t| t.to_vec()).unwrap_or_default();
                    return call_op(
                        i,
                        "stack",
                        vec![Value::list(grids)],
                        vec![("axis", Value::Int(0))],
                    );
                }
                let n = axes.len();
                let mut out = Vec::with_capacity(n);
                for (k, a) in axes.into_iter().enumerate() {
                    let dims: Vec<i64> = (0..n).map(|j| if j == k { -1 } else { 1 }).collect();
                    out.push(c(i, "reshape", vec![a, shape(&dims)])?);
                }
                Ok(Value::tuple(out))
            }
        }
    }
}
