//! The methods of lists (`append extend insert pop remove index count
//! reverse sort copy clear`) and dicts (`keys values items get pop update
//! copy clear setdefault`), changing the value in place as Python's do, and
//! the builtins that make and show containers: `list tuple dict sorted repr
//! format`. Methods live in their own tables (found by the receiver's type
//! in `Interp::get_attr`), so `append` alone is not a global name.

use super::{Dict, List};
use crate::error::{Error, ErrorKind, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, builtin};
use crate::value::Value;
use std::cmp::Ordering;

macro_rules! method_def {
    ($name:literal, $sig:literal, $doc:literal, $f:expr) => {
        $crate::ops::OpDef {
            name: $name,
            sig: $sig,
            doc: $doc,
            method: true,
            kind: $crate::ops::OpKind::Func($f),
            grad: None,
        }
    };
}
pub(crate) use method_def;

pub static LIST_METHODS: &[OpDef] = &[
    method_def!(
        "append",
        "xs.append(x)",
        "Add x at the end of the list (in place).",
        append
    ),
    method_def!(
        "extend",
        "xs.extend(items)",
        "Add every item of a list, tuple, range, string or array at the end (in place).",
        extend
    ),
    method_def!(
        "insert",
        "xs.insert(i, x)",
        "Put x before position i (negative from the end; past the end appends).",
        insert
    ),
    method_def!(
        "pop",
        "xs.pop(i=-1)",
        "Remove and give the item at i (the last by default).",
        list_pop
    ),
    method_def!(
        "remove",
        "xs.remove(x)",
        "Remove the first item equal to x; an error if there is none.",
        remove
    ),
    method_def!(
        "index",
        "xs.index(x, start=0, stop=len(xs))",
        "The position of the first item equal to x; an error if there is none.",
        index
    ),
    method_def!("count", "xs.count(x)", "How many items equal x.", count),
    method_def!(
        "reverse",
        "xs.reverse()",
        "Reverse the list in place.",
        reverse
    ),
    method_def!(
        "sort",
        "xs.sort(key=none, reverse=false)",
        "Sort the list in place (stable), by key(item) when a key function is given.",
        sort
    ),
    method_def!(
        "copy",
        "xs.copy()",
        "A new list with the same items (a shallow copy).",
        list_copy
    ),
    method_def!("clear", "xs.clear()", "Remove every item.", list_clear),
];

pub static TUPLE_METHODS: &[OpDef] = &[
    method_def!(
        "index",
        "t.index(x, start=0, stop=len(t))",
        "The position of the first item equal to x; an error if there is none.",
        index
    ),
    method_def!("count", "t.count(x)", "How many items equal x.", count),
];

pub static DICT_METHODS: &[OpDef] = &[
    method_def!(
        "keys",
        "d.keys()",
        "The keys, in insertion order, as a list.",
        keys
    ),
    method_def!(
        "values",
        "d.values()",
        "The values, in insertion order, as a list.",
        values
    ),
    method_def!(
        "items",
        "d.items()",
        "(key, value) tuples, in insertion order, as a list.",
        items
    ),
    method_def!(
        "get",
        "d.get(key, default=none)",
        "The value of key, or default when the dict has no such key.",
        get
    ),
    method_def!(
        "pop",
        "d.pop(key, default=...)",
        "Remove key and give its value (default, if given, when there is no such key; else an error).",
        dict_pop
    ),
    method_def!(
        "update",
        "d.update(other=none, key=value, ...)",
        "Set the entries of another dict (or of (key, value) pairs) and of the keyword arguments, in place.",
        update
    ),
    method_def!(
        "setdefault",
        "d.setdefault(key, default=none)",
        "The value of key; when missing, set it to default first.",
        setdefault
    ),
    method_def!(
        "copy",
        "d.copy()",
        "A new dict with the same entries (a shallow copy).",
        dict_copy
    ),
    method_def!("clear", "d.clear()", "Remove every entry.", dict_clear),
];

pub static OPS: &[OpDef] = &[
    builtin!(
        "list",
        "list(items=[])",
        "A new list of the items of a list, tuple, range, string, dict (its keys) or array (its rows).",
        list_
    ),
    builtin!(
        "tuple",
        "tuple(items=())",
        "A tuple of the items of a list, tuple, range, string, dict (its keys) or array (its rows).",
        tuple_
    ),
    builtin!(
        "dict",
        "dict(pairs={}, key=value, ...)",
        "A new dict from another dict or (key, value) pairs, and keyword arguments: dict(w=w, b=b).",
        dict_
    ),
    builtin!(
        "sorted",
        "sorted(items, key=none, reverse=false)",
        "A new sorted list of the items (stable), by key(item) when a key function is given.",
        sorted
    ),
    builtin!(
        "repr",
        "repr(x)",
        "The text the prompt shows for x (strings quoted; arrays with their trailer).",
        repr_
    ),
    builtin!(
        "format",
        "format(x, spec=\"\")",
        "x formatted with Python's format spec, as in an f-string: format(3.14159, \".2f\") is \"3.14\"; arrays element by element.",
        format_
    ),
];

/// The method `name` of a list or dict, if it has one.
pub fn method(recv: &Value, name: &str) -> Option<&'static OpDef> {
    let table = match recv {
        Value::List(_) => LIST_METHODS,
        Value::Dict(_) => DICT_METHODS,
        Value::Tuple(_) => TUPLE_METHODS,
        Value::Str(_) => super::str_methods::STR_METHODS,
        Value::Array(_) => super::array_methods::ARRAY_METHODS,
        _ => return None,
    };
    table.iter().find(|d| d.name == name)
}

/// Method names of a value's type, for completion and "did you mean".
pub fn method_names(recv: &Value) -> Vec<&'static str> {
    match recv {
        Value::List(_) => LIST_METHODS.iter().map(|d| d.name).collect(),
        Value::Dict(_) => DICT_METHODS.iter().map(|d| d.name).collect(),
        Value::Tuple(_) => TUPLE_METHODS.iter().map(|d| d.name).collect(),
        Value::Str(_) => super::str_methods::STR_METHODS
            .iter()
            .map(|d| d.name)
            .collect(),
        Value::Array(_) => super::array_methods::ARRAY_METHODS
            .iter()
            .map(|d| d.name)
            .collect(),
        _ => Vec::new(),
    }
}

fn this_list(a: &mut Args) -> Result<List> {
    match a.req("self")? {
        Value::List(l) => Ok(l),
        other => Err(Error::internal(format!(
            "list method called on {}",
            other.a_type_name()
        ))),
    }
}

fn this_dict(a: &mut Args) -> Result<Dict> {
    match a.req("self")? {
        Value::Dict(d) => Ok(d),
        other => Err(Error::internal(format!(
            "dict method called on {}",
            other.a_type_name()
        ))),
    }
}

fn int_of(v: &Value, what: &str) -> Result<i64> {
    crate::builtins::lang::int_arg(v, what)
}

/// `i` counted from the end when negative, checked against `n` items.
fn position(i: i64, n: usize, what: &str) -> Result<usize> {
    let j = if i < 0 { i + n as i64 } else { i };
    if j < 0 || j >= n as i64 {
        return Err(Error::index(format!(
            "{what}: index {i} is out of range for a list of length {n}"
        )));
    }
    Ok(j as usize)
}

fn append(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    let x = a.req("x")?;
    a.finish()?;
    l.modify(|v| v.push(x));
    Ok(Value::None)
}

fn extend(i: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    let items = a.req("items")?;
    a.finish()?;
    // Collected first: `xs.extend(xs)` doubles the list once.
    let new = i.collect_items(items)?;
    l.modify(|v| v.extend(new));
    Ok(Value::None)
}

fn insert(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    let at = int_of(&a.req("i")?, "insert()'s position")?;
    let x = a.req("x")?;
    a.finish()?;
    l.modify(|v| {
        let n = v.len() as i64;
        let j = if at < 0 { (at + n).max(0) } else { at.min(n) };
        v.insert(j as usize, x);
    });
    Ok(Value::None)
}

fn list_pop(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    let at = a
        .opt("i")?
        .map(|v| int_of(&v, "pop()'s index"))
        .transpose()?;
    a.finish()?;
    l.modify(|v| {
        if v.is_empty() {
            return Err(Error::index("pop from an empty list"));
        }
        let j = position(at.unwrap_or(-1), v.len(), "pop()")?;
        Ok(v.remove(j))
    })
}

/// The position of the first item equal to `x` among `items[start..stop]`.
fn find(i: &Interp, items: &[Value], x: &Value, start: usize, stop: usize) -> Option<usize> {
    (start..stop.min(items.len())).find(|&k| i.values_equal(&items[k], x))
}

fn remove(i: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    let x = a.req("x")?;
    a.finish()?;
    let items = l.snapshot();
    let Some(k) = find(i, &items, &x, 0, items.len()) else {
        return Err(Error::value(format!(
            "list.remove(x): {} is not in the list",
            crate::display::repr(&x)
        )));
    };
    drop(items);
    l.modify(|v| v.remove(k));
    Ok(Value::None)
}

/// The items of the list or tuple a method (`index`, `count`) is called on.
fn this_items(a: &mut Args) -> Result<(std::sync::Arc<crate::nested::Items>, &'static str)> {
    let v = a.req("self")?;
    let kind = if matches!(v, Value::Tuple(_)) {
        "tuple"
    } else {
        "list"
    };
    v.seq_items()
        .map(|items| (items, kind))
        .ok_or_else(|| Error::internal(format!("sequence method called on {}", v.a_type_name())))
}

fn index(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (items, kind) = this_items(&mut a)?;
    let x = a.req("x")?;
    let n = items.len() as i64;
    let bound = |v: Option<Value>, default: i64| -> Result<usize> {
        let k = match v {
            Some(v) => int_of(&v, "index()'s bound")?,
            None => default,
        };
        Ok((if k < 0 { k + n } else { k }).clamp(0, n) as usize)
    };
    let start = bound(a.opt("start")?, 0)?;
    let stop = bound(a.opt("stop")?, n)?;
    a.finish()?;
    match find(i, &items, &x, start, stop) {
        Some(k) => Ok(Value::Int(k as i64)),
        None => Err(Error::value(format!(
            "{} is not in the {kind}",
            crate::display::repr(&x)
        ))),
    }
}

fn count(i: &mut Interp, mut a: Args) -> Result<Value> {
    let (items, _) = this_items(&mut a)?;
    let x = a.req("x")?;
    a.finish()?;
    let n = items.iter().filter(|v| i.values_equal(v, &x)).count();
    Ok(Value::Int(n as i64))
}

fn reverse(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    a.finish()?;
    l.modify(|v| v.reverse());
    Ok(Value::None)
}

fn list_copy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    a.finish()?;
    Ok(Value::list(l.snapshot().to_vec()))
}

fn list_clear(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    a.finish()?;
    l.set(Vec::new());
    Ok(Value::None)
}

/// A value as a sort key: numbers (0-d arrays too), strings, tuples of keys.
#[derive(Clone)]
enum SortKey {
    Num(f64),
    Str(std::sync::Arc<str>),
    Tuple(Vec<SortKey>),
}

fn sort_key(v: &Value) -> Result<SortKey> {
    Ok(match v {
        Value::Int(i) => SortKey::Num(*i as f64),
        Value::Float(f) => SortKey::Num(*f),
        Value::Bool(b) => SortKey::Num(*b as u8 as f64),
        Value::Array(a) if a.size() == 1 => SortKey::Num(a.get_f64(0)?),
        Value::Str(s) => SortKey::Str(s.clone()),
        Value::Tuple(_) | Value::List(_) => SortKey::Tuple(
            v.seq_items()
                .unwrap_or_default()
                .iter()
                .map(sort_key)
                .collect::<Result<_>>()?,
        ),
        other => {
            return Err(Error::type_(format!(
                "cannot sort {}: items must be numbers, strings or tuples of them",
                other.a_type_name()
            ))
            .with_help("give a key function, e.g. xs.sort(key=fn(x) = x.shape[0])"));
        }
    })
}

fn compare(a: &SortKey, b: &SortKey) -> Result<Ordering> {
    Ok(match (a, b) {
        (SortKey::Num(x), SortKey::Num(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (SortKey::Str(x), SortKey::Str(y)) => x.cmp(y),
        (SortKey::Tuple(x), SortKey::Tuple(y)) => {
            for (p, q) in x.iter().zip(y) {
                let o = compare(p, q)?;
                if o != Ordering::Equal {
                    return Ok(o);
                }
            }
            x.len().cmp(&y.len())
        }
        _ => {
            return Err(Error::type_(
                "cannot compare a number with a string when sorting",
            ));
        }
    })
}

/// `items` sorted by `key` (a function, or the items themselves), stable.
fn sort_values(
    i: &mut Interp,
    items: Vec<Value>,
    key: Option<Value>,
    rev: bool,
    span: gcalc_lang::Span,
) -> Result<Vec<Value>> {
    let mut keyed = Vec::with_capacity(items.len());
    for v in items {
        let k = match &key {
            Some(f) => i.call_value(f.clone(), vec![v.clone()], vec![], span)?,
            None => v.clone(),
        };
        keyed.push((sort_key(&k)?, v));
    }
    let mut err = None;
    keyed.sort_by(|(a, _), (b, _)| {
        let o = compare(a, b).unwrap_or_else(|e| {
            err.get_or_insert(e);
            Ordering::Equal
        });
        if rev { o.reverse() } else { o }
    });
    if let Some(e) = err {
        return Err(e);
    }
    Ok(keyed.into_iter().map(|(_, v)| v).collect())
}

/// `key=` and `reverse=` of `sort` and `sorted`.
fn sort_options(i: &Interp, a: &mut Args) -> Result<(Option<Value>, bool)> {
    let key = a.kw("key").filter(|k| !matches!(k, Value::None));
    let rev = match a.kw("reverse") {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    Ok((key, rev))
}

fn sort(i: &mut Interp, mut a: Args) -> Result<Value> {
    let l = this_list(&mut a)?;
    let (key, rev) = sort_options(i, &mut a)?;
    let span = a.span;
    a.finish_with(&["key", "reverse"])?;
    let sorted = sort_values(i, l.snapshot().to_vec(), key, rev, span)?;
    l.set(sorted);
    Ok(Value::None)
}

fn sorted(i: &mut Interp, mut a: Args) -> Result<Value> {
    let items = a.req("items")?;
    let (key, rev) = sort_options(i, &mut a)?;
    let span = a.span;
    a.finish_with(&["key", "reverse"])?;
    let items = i.collect_items(items)?;
    Ok(Value::list(sort_values(i, items, key, rev, span)?))
}

pub(crate) fn key_error(key: &Value, d: &Dict) -> Error {
    let mut e = Error::new(
        ErrorKind::Key,
        format!("the dict has no key {}", crate::display::repr(key)),
    );
    let keys: Vec<String> = d
        .keys()
        .iter()
        .filter_map(|k| match k {
            Value::Str(s) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    if let Value::Str(s) = key {
        e.help = crate::error::did_you_mean(s, keys.iter().map(|k| k.as_str()))
            .map(|h| h.replace('`', "\""));
    }
    if e.help.is_none() {
        let shown: Vec<String> = d.keys().iter().take(8).map(crate::display::repr).collect();
        e.help = Some(if shown.is_empty() {
            "the dict is empty; d.get(key, default) gives a default instead".into()
        } else {
            format!(
                "its keys: {}{}; d.get(key, default) gives a default instead",
                shown.join(", "),
                if d.len() > 8 { ", ..." } else { "" }
            )
        });
    }
    e
}

/// `d[key]`.
pub fn dict_get(d: &Dict, key: &Value) -> Result<Value> {
    d.get(key)?.ok_or_else(|| key_error(key, d))
}

fn keys(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    a.finish()?;
    Ok(Value::list(d.keys()))
}

fn values(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    a.finish()?;
    Ok(Value::list(
        d.snapshot().values().map(|(_, v)| v.clone()).collect(),
    ))
}

fn items(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    a.finish()?;
    Ok(Value::list(
        d.snapshot()
            .values()
            .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
            .collect(),
    ))
}

fn get(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    let key = a.req("key")?;
    let default = a.opt("default")?.unwrap_or(Value::None);
    a.finish()?;
    Ok(d.get(&key)?.unwrap_or(default))
}

fn dict_pop(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    let key = a.req("key")?;
    let default = a.opt("default")?;
    a.finish()?;
    match (d.remove(&key)?, default) {
        (Some(v), _) => Ok(v),
        (None, Some(v)) => Ok(v),
        (None, None) => Err(key_error(&key, &d)),
    }
}

/// The (key, value) pairs of a dict, or of a sequence of 2-item tuples/lists.
fn pairs(i: &mut Interp, v: Value) -> Result<Vec<(Value, Value)>> {
    if let Value::Dict(d) = &v {
        return Ok(d.snapshot().values().cloned().collect());
    }
    let mut out = Vec::new();
    for (n, item) in i.collect_items(v)?.into_iter().enumerate() {
        match item.seq_items() {
            Some(kv) if kv.len() == 2 => out.push((kv[0].clone(), kv[1].clone())),
            _ => {
                return Err(Error::type_(format!(
                    "item {n} is {}, not a (key, value) pair",
                    item.a_type_name()
                ))
                .with_help(
                    "give a dict or a list of (key, value) tuples, e.g. dict(zip(keys, values))",
                ));
            }
        }
    }
    Ok(out)
}

fn update(i: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    let other = a.opt("other")?;
    let kw = std::mem::take(&mut a.kw);
    a.finish()?;
    if let Some(o) = other.filter(|o| !matches!(o, Value::None)) {
        for (k, v) in pairs(i, o)? {
            d.insert(k, v)?;
        }
    }
    for (k, v) in kw {
        d.insert(Value::str(k), v)?;
    }
    Ok(Value::None)
}

fn setdefault(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    let key = a.req("key")?;
    let default = a.opt("default")?.unwrap_or(Value::None);
    a.finish()?;
    if let Some(v) = d.get(&key)? {
        return Ok(v);
    }
    d.insert(key, default.clone())?;
    Ok(default)
}

fn dict_copy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    a.finish()?;
    Ok(Value::Dict(d.copy()))
}

fn dict_clear(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = this_dict(&mut a)?;
    a.finish()?;
    d.clear();
    Ok(Value::None)
}

fn list_(i: &mut Interp, mut a: Args) -> Result<Value> {
    let items = a.opt("items")?;
    a.finish()?;
    match items {
        None => Ok(Value::list(Vec::new())),
        Some(v) => Ok(Value::list(i.collect_items(v)?)),
    }
}

fn tuple_(i: &mut Interp, mut a: Args) -> Result<Value> {
    let items = a.opt("items")?;
    a.finish()?;
    match items {
        None => Ok(Value::tuple(Vec::new())),
        Some(Value::Tuple(t)) => Ok(Value::Tuple(t)),
        Some(v) => Ok(Value::tuple(i.collect_items(v)?)),
    }
}

fn dict_(i: &mut Interp, mut a: Args) -> Result<Value> {
    let src = a.opt("pairs")?;
    let kw = std::mem::take(&mut a.kw);
    a.finish()?;
    let d = Dict::new();
    if let Some(s) = src {
        for (k, v) in pairs(i, s)? {
            d.insert(k, v)?;
        }
    }
    for (k, v) in kw {
        d.insert(Value::str(k), v)?;
    }
    Ok(Value::Dict(d))
}

fn repr_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::str(crate::display::py_repr(&x)))
}

fn format_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let spec = match a.opt("spec")? {
        None => String::new(),
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => {
            return Err(Error::type_(format!(
                "format()'s spec must be a string, not {}",
                other.a_type_name()
            )));
        }
    };
    a.finish()?;
    Ok(Value::str(crate::pyformat::format_value(&x, &spec)?))
}
