//! Python's own builtins that NumPy users call without thinking: `isinstance`
//! (with Python's type names and `array`), `reversed`, `chr`, `ord`, `hex`,
//! `bin`, `oct`, `map`, `filter` (lists: gcalc has no lazy iterators), and
//! calling a dtype (`bool(x)` is Python's truth;
//! `float32(x)` NumPy's scalar constructor).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, builtin};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    builtin!(
        "isinstance",
        "isinstance(x, types)",
        "Whether x is of one of the types: int float bool str list tuple dict range array (arrays of any dtype), or a tuple of them. As Python, a bool is also an int.",
        isinstance
    ),
    builtin!(
        "reversed",
        "reversed(xs)",
        "A new list of the items of a list, tuple, range or string (an array: its rows) in reverse order.",
        reversed
    ),
    builtin!(
        "map",
        "map(f, xs, ...)",
        "A list of f(x) for each item x (with several sequences, f(x, y, ...) as long as the shortest), as Python's map made a list.",
        map
    ),
    builtin!(
        "filter",
        "filter(f, xs)",
        "A list of the items x of xs for which f(x) is true (f = none: the true items), as Python's filter made a list.",
        filter
    ),
    builtin!(
        "chr",
        "chr(i)",
        "The one-character string of the Unicode code point i.",
        chr
    ),
    builtin!(
        "ord",
        "ord(c)",
        "The Unicode code point of a one-character string.",
        ord
    ),
    builtin!(
        "hex",
        "hex(i)",
        "An integer as Python writes it in hexadecimal: hex(255) is \"0xff\".",
        hex
    ),
    builtin!(
        "bin",
        "bin(i)",
        "An integer as Python writes it in binary: bin(5) is \"0b101\".",
        bin
    ),
    builtin!(
        "oct",
        "oct(i)",
        "An integer as Python writes it in octal: oct(8) is \"0o10\".",
        oct
    ),
];

/// Whether `x` is of the type `t` names (one type, not a tuple).
fn is_instance(x: &Value, t: &Value) -> Result<bool> {
    // NumPy's abstract kinds (`floating`...): a 0-d array is gcalc's NumPy scalar.
    if let Some(k) = crate::builtins::np_types::abstract_of(t) {
        return Ok(matches!(x, Value::Array(a) if a.ndim() == 0 && k.contains(a.dtype())));
    }
    if let Value::Builtin(def) = t
        && crate::containers::set::is_set_type(def)
    {
        return Ok(crate::containers::set::as_set(x).is_some());
    }
    if let Value::Builtin(d) = t
        && crate::ops::generator::is_generator_type(d)
    {
        return Ok(crate::ops::generator::is_generator_of(x, d));
    }
    let name = match t {
        Value::Builtin(def) => def.name,
        Value::DType(DType::Bool) => "bool",
        Value::DType(d) => {
            return Err(
                Error::type_(format!("isinstance(): {} is a dtype, not a type", d.name()))
                    .with_help(format!("compare dtypes: x.dtype == {}", d.name())),
            );
        }
        other => {
            return Err(Error::type_(format!(
                "isinstance()'s second argument must be a type or a tuple of types, not {}",
                other.a_type_name()
            ))
            .with_help("types: int float bool str list tuple dict set range array ndarray"));
        }
    };
    Ok(match name {
        "int" => matches!(x, Value::Int(_) | Value::Bool(_)),
        "float" => matches!(x, Value::Float(_)),
        "bool" => matches!(x, Value::Bool(_)),
        "str" => matches!(x, Value::Str(_)),
        "list" => matches!(x, Value::List(_)),
        "tuple" => matches!(x, Value::Tuple(_)),
        "dict" => matches!(x, Value::Dict(_)),
        "range" => matches!(x, Value::Range(..)),
        "array" | "ndarray" => matches!(x, Value::Array(_)),
        other => {
            return Err(
                Error::type_(format!("isinstance(): `{other}` is a function, not a type"))
                    .with_help("types: int float bool str list tuple dict set range array ndarray"),
            );
        }
    })
}

/// Whether `name`, a type as `type(x)` names it, is the type `t`:
/// `type(x) == int`, `type(x) == list` compare as in Python.
pub(crate) fn type_name_is(name: &str, t: &Value) -> bool {
    if let Value::Builtin(d) = t
        && crate::ops::generator::is_generator_type(d)
    {
        return name == d.name;
    }
    let samples = [
        Value::Int(0),
        Value::Float(0.0),
        Value::str(""),
        Value::list(Vec::new()),
        Value::tuple(Vec::new()),
        Value::Dict(crate::containers::Dict::new()),
        Value::Range(0, 0, 1),
        Value::Array(crate::array::Array::scalar(0.0f32)),
        Value::Object(std::sync::Arc::new(crate::containers::set::PySet::new())),
    ];
    samples
        .iter()
        .filter(|s| s.type_name() == name)
        .any(|s| is_instance(s, t).unwrap_or(false))
}

fn isinstance(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let t = a.req("types")?;
    a.finish()?;
    let hit = match &t {
        Value::Tuple(ts) => {
            let mut any = false;
            for t in ts.iter() {
                any |= is_instance(&x, t)?;
            }
            any
        }
        t => is_instance(&x, t)?,
    };
    Ok(Value::Bool(hit))
}

fn reversed(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xs = a.req("xs")?;
    a.finish()?;
    if let Value::Str(s) = &xs {
        return Ok(Value::list(
            s.chars().rev().map(|c| Value::str(c.to_string())).collect(),
        ));
    }
    if !matches!(
        xs,
        Value::List(_) | Value::Tuple(_) | Value::Range(..) | Value::Array(_) | Value::Dict(_)
    ) {
        return Err(Error::type_(format!(
            "reversed() needs a list, tuple, range, string or array, not {}",
            xs.a_type_name()
        )));
    }
    let mut items = i.collect_items(xs)?;
    items.reverse();
    Ok(Value::list(items))
}

fn map(i: &mut Interp, mut a: Args) -> Result<Value> {
    let f = a.req("f")?;
    let seqs = a.rest();
    let span = a.span;
    a.finish()?;
    if seqs.is_empty() {
        return Err(
            Error::value("map() needs a function and at least one sequence")
                .with_help("map(f, xs) gives [f(x) for x in xs]"),
        );
    }
    let mut lists = Vec::with_capacity(seqs.len());
    for s in seqs {
        lists.push(i.collect_items(s)?);
    }
    let n = lists.iter().map(Vec::len).min().unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        i.check_interrupt()?;
        let args = lists.iter().map(|l| l[k].clone()).collect();
        out.push(i.call_value(f.clone(), args, vec![], span)?);
    }
    Ok(Value::list(out))
}

fn filter(i: &mut Interp, mut a: Args) -> Result<Value> {
    let f = a.req("f")?;
    let xs = a.req("xs")?;
    let span = a.span;
    a.finish()?;
    let mut out = Vec::new();
    for x in i.collect_items(xs)? {
        i.check_interrupt()?;
        let keep = match &f {
            Value::None => x.clone(),
            f => i.call_value(f.clone(), vec![x.clone()], vec![], span)?,
        };
        if i.truthy(&keep)? {
            out.push(x);
        }
    }
    Ok(Value::list(out))
}

/// Python's `max(xs, key=f)` / `min(xs, key=f)` (also of several
/// positional values, and `default=` for an empty sequence): the first item
/// whose key is largest (smallest). Keys are numbers or strings.
pub(crate) fn extreme_by_key(i: &mut Interp, want_max: bool, mut a: Args) -> Result<Value> {
    let name = if want_max { "max" } else { "min" };
    let key = a.kw("key");
    let default = a.kw("default");
    let span = a.span;
    let pos = a.rest();
    a.finish()?;
    let items = match <[Value; 1]>::try_from(pos) {
        Ok([one]) => i.collect_items(one)?,
        Err(several) => several,
    };
    let mut best: Option<(Value, Value)> = None;
    for x in items {
        let k = match &key {
            None | Some(Value::None) => x.clone(),
            Some(f) => i.call_value(f.clone(), vec![x.clone()], vec![], span)?,
        };
        let better = match &best {
            None => true,
            Some((_, bk)) => {
                let o = compare_keys(&k, bk, name)?;
                if want_max { o.is_gt() } else { o.is_lt() }
            }
        };
        if better {
            best = Some((x, k));
        }
    }
    match (best, default) {
        (Some((x, _)), _) => Ok(x),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(Error::value(format!("{name}() of an empty sequence"))
            .with_help(format!("give {name}(xs, key=f, default=v) a default"))),
    }
}

/// The order of two keys of `max`/`min`: numbers (0-d arrays too) or strings.
fn compare_keys(a: &Value, b: &Value, name: &str) -> Result<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        return Ok(x.cmp(y));
    }
    let num = |v: &Value| -> Option<f64> {
        match v {
            Value::Int(k) => Some(*k as f64),
            Value::Float(f) => Some(*f),
            Value::Bool(b) => Some(*b as i64 as f64),
            Value::Array(x) if x.size() == 1 => x.to_host().ok()?.get_f64(0).ok(),
            _ => None,
        }
    };
    match (num(a), num(b)) {
        // A nan key compares false both ways, as in Python: the earlier item stays.
        (Some(x), Some(y)) => Ok(x.partial_cmp(&y).unwrap_or(Ordering::Equal)),
        _ => Err(Error::type_(format!(
            "{name}(): cannot order keys {} and {}",
            a.a_type_name(),
            b.a_type_name()
        ))
        .with_help("key= must give numbers or strings")),
    }
}

fn int_of(a: &mut Args, name: &str) -> Result<i64> {
    let v = a.req(name)?;
    match v {
        Value::Int(k) => Ok(k),
        Value::Bool(b) => Ok(b as i64),
        other => Err(Error::type_(format!(
            "{}() needs an integer, not {}",
            a.name,
            other.a_type_name()
        ))),
    }
}

fn chr(_: &mut Interp, mut a: Args) -> Result<Value> {
    let k = int_of(&mut a, "i")?;
    a.finish()?;
    u32::try_from(k)
        .ok()
        .and_then(char::from_u32)
        .map(|c| Value::str(c.to_string()))
        .ok_or_else(|| {
            Error::value(format!(
                "chr(): {k} is not a Unicode code point (0..0x10ffff, no surrogates)"
            ))
        })
}

fn ord(_: &mut Interp, mut a: Args) -> Result<Value> {
    let c = a.req("c")?;
    a.finish()?;
    let Value::Str(s) = &c else {
        return Err(Error::type_(format!(
            "ord() needs a one-character string, not {}",
            c.a_type_name()
        )));
    };
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(ch), None) => Ok(Value::Int(ch as i64)),
        _ => Err(Error::type_(format!(
            "ord() needs one character, but the string has {}",
            s.chars().count()
        ))),
    }
}

/// `hex`, `bin`, `oct`: Python's prefix, a `-` before it for negatives.
fn radix(mut a: Args, prefix: &str, f: fn(u64) -> String) -> Result<Value> {
    let k = int_of(&mut a, "i")?;
    a.finish()?;
    let sign = if k < 0 { "-" } else { "" };
    Ok(Value::str(format!("{sign}{prefix}{}", f(k.unsigned_abs()))))
}

fn hex(_: &mut Interp, a: Args) -> Result<Value> {
    radix(a, "0x", |u| format!("{u:x}"))
}

fn bin(_: &mut Interp, a: Args) -> Result<Value> {
    radix(a, "0b", |u| format!("{u:b}"))
}

fn oct(_: &mut Interp, a: Args) -> Result<Value> {
    radix(a, "0o", |u| format!("{u:o}"))
}

/// A dtype called as a function: `bool(x)` is Python's truth of x (`bool()`
/// is false); `float32(x)`, `int64(x)`... are NumPy's scalar constructors:
/// x as a 0-d array (an array or list: cast) of that dtype, on x's device
/// (a number or list: where new arrays go).
pub(crate) fn call_dtype(i: &mut Interp, d: DType, mut a: Args) -> Result<Value> {
    let x = a.opt("x")?;
    a.finish()?;
    if d == DType::Bool {
        return match x {
            None => Ok(Value::Bool(false)),
            Some(v) => i.truthy(&v).map(Value::Bool),
        };
    }
    let x = x.unwrap_or(Value::Int(0));
    let x = match x {
        Value::Str(s) => match s.trim().parse::<f64>() {
            Ok(f) => Value::Float(f),
            Err(_) => {
                return Err(Error::value(format!(
                    "{}(): cannot read {s:?} as a number",
                    d.name()
                )));
            }
        },
        v => v,
    };
    let arr = match &x {
        Value::Array(arr) => arr.astype(d)?,
        // Where new arrays go, as `array(...)` puts them.
        v => {
            let host = crate::array::create::value_to_array(v, Some(d), i.float_x())?;
            crate::backend::to_device(&host, i.default_device())?
        }
    };
    Ok(Value::Array(arr))
}
