//! NumPy's array methods that change the array in place and give `none`:
//! `x.sort(axis=-1)`, `x.partition(kth, axis=-1)`, `x.fill(v)`. The functions
//! `sort(x)` and `partition(x, kth)` give new arrays; the methods write the
//! result back into x (views of x see it), as NumPy's do, so `x.sort();
//! print(x)` prints x sorted. Found by the receiver's type in
//! `Interp::get_attr`, before the op table's methods.

use super::methods::method_def;
use crate::array::index::Index;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::OpDef;
use crate::value::Value;

pub static ARRAY_METHODS: &[OpDef] = &[
    method_def!(
        "sort",
        "x.sort(axis=-1)",
        "Sort x in place along axis (stable; nan last), as NumPy's x.sort(); gives none. sort(x) gives a sorted copy.",
        sort_in_place
    ),
    method_def!(
        "partition",
        "x.partition(kth, axis=-1)",
        "Partition x in place around its kth element along axis, as NumPy's x.partition(kth); gives none. partition(x, kth) gives a copy.",
        partition_in_place
    ),
    method_def!(
        "fill",
        "x.fill(value)",
        "Set every element of x to value (cast to x's dtype), in place; gives none.",
        fill
    ),
];

fn this_array(a: &mut Args) -> Result<crate::array::Array> {
    match a.req("self")? {
        Value::Array(x) => Ok(x),
        other => Err(Error::internal(format!(
            "array method called on {}",
            other.a_type_name()
        ))),
    }
}

/// Call the op-table function `op` with x and the method's other
/// arguments, then write its result over x.
fn replace_with(i: &mut Interp, mut a: Args, op: &str) -> Result<Value> {
    let x = this_array(&mut a)?;
    let def = crate::ops::lookup(op)
        .ok_or_else(|| Error::internal(format!("op `{op}` missing from the op table")))?;
    let mut pos = vec![Value::Array(x.clone())];
    pos.extend(a.rest());
    let kw = std::mem::take(&mut a.kw);
    let span = a.span;
    a.finish()?;
    let new = i.call_value(Value::Builtin(def), pos, kw, span)?;
    i.assign_index(&x, &[Index::Ellipsis], &new)?;
    Ok(Value::None)
}

fn sort_in_place(i: &mut Interp, a: Args) -> Result<Value> {
    replace_with(i, a, "sort")
}

fn partition_in_place(i: &mut Interp, a: Args) -> Result<Value> {
    replace_with(i, a, "partition")
}

fn fill(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = this_array(&mut a)?;
    let v = a.req("value")?;
    a.finish()?;
    if !matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_))
        && !matches!(&v, Value::Array(y) if y.size() == 1)
    {
        return Err(
            Error::type_(format!("fill() takes one number, not {}", v.a_type_name()))
                .with_help("x[...] = values writes an array of values"),
        );
    }
    i.assign_index(&x, &[Index::Ellipsis], &v)?;
    Ok(Value::None)
}
