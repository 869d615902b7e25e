//! More of Python's builtins: `pow` (with Python's three-argument modular
//! form for ints), `exit`/`quit`, `callable`, `getattr`/`hasattr`,
//! `iter`/`next` (iterator objects walked live, as Python's), `slice`
//! objects (usable as indexes), `hash` (Python's values for numbers and
//! tuples) and `ndarray`, the type of arrays.

use crate::containers::HashKey;
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use crate::interp::{Args, Interp, Iter};
use crate::ops::{OpDef, builtin};
use crate::value::{Object, Value};
use gcalc_lang::ast::Ident;
use std::sync::{Arc, Mutex};

pub static OPS: &[OpDef] = &[
    builtin!(
        "pow",
        "pow(base, exp, mod=none)",
        "base ** exp (NumPy's power for arrays, Python's ** for numbers). With mod (ints only), (base ** exp) % mod computed without the big power, as Python: the result has mod's sign, and a negative exp takes the modular inverse of base.",
        pow
    ),
    builtin!(
        "exit",
        "exit(status=0)",
        "Stop: a script ends with this exit status once its output is written (a string is printed to standard error and the status is 1, as Python's); the terminal REPL leaves; in Jupyter the cell stops and the kernel stays up.",
        exit
    ),
    builtin!("quit", "quit(status=0)", "The same as exit(status).", exit),
    builtin!(
        "callable",
        "callable(x)",
        "Whether x can be called: functions, lambdas, builtins, methods, types, dtypes, gradient functions, CUDA kernels.",
        callable
    ),
    builtin!(
        "getattr",
        "getattr(x, name, default)",
        "The attribute x.name (an array's shape, dtype, T, a method...); without it, default when given, else an error.",
        getattr
    ),
    builtin!(
        "hasattr",
        "hasattr(x, name)",
        "Whether x.name exists (an array's shape, dtype, T, its methods...).",
        hasattr
    ),
    builtin!(
        "iter",
        "iter(xs)",
        "An iterator over a list, tuple, range, string, dict (its keys) or array (its rows): next(it) takes the next item; a for loop takes the rest. iter of an iterator is itself.",
        iter
    ),
    builtin!(
        "next",
        "next(it, default)",
        "The next item of an iterator made by iter(xs); at its end, default when given, else a StopIteration error.",
        next
    ),
    builtin!(
        "slice",
        "slice(stop) | slice(start, stop, step=none)",
        "A slice object: x[slice(1, 5, 2)] is x[1:5:2] (arrays, lists, tuples, strings); none leaves a bound open. Its .start, .stop, .step and .indices(n) as Python's.",
        slice
    ),
    builtin!(
        "hash",
        "hash(x)",
        "Python's hash of a number, string, bool, none, dtype or tuple of them (equal numbers hash alike: hash(1) == hash(1.0)). Lists, dicts and arrays are unhashable, as in Python and NumPy; a 0-d array hashes as its scalar.",
        hash
    ),
    builtin!(
        "ndarray",
        "ndarray(shape, dtype=float)",
        "The type of arrays (NumPy's np.ndarray), for isinstance(x, ndarray) and type(x) == ndarray. Called, a new array of zeros of that shape (NumPy's is left uninitialised).",
        ndarray
    ),
];

/// `pow(b, e)` is `b ** e`; `pow(b, e, m)` Python's modular power of ints.
fn pow(i: &mut Interp, mut a: Args) -> Result<Value> {
    let base = a.req("base")?;
    let exp = a.req("exp")?;
    let modulus = a.opt("mod")?;
    let span = a.span;
    a.finish()?;
    match modulus {
        None | Some(Value::None) => {
            let power = crate::interp::eval::op_named("power")?;
            i.call_value(Value::Builtin(power), vec![base, exp], vec![], span)
        }
        Some(m) => {
            let int = |v: &Value, what: &str| {
                match v {
                Value::Int(n) => Ok(*n),
                Value::Bool(b) => Ok(*b as i64),
                other => Err(Error::type_(format!(
                    "pow() with a modulus needs ints, and {what} is {}",
                    other.a_type_name()
                ))
                .with_help("pow(b, e, m) is Python's modular power of integers; for arrays write (b ** e) % m")),
            }
            };
            Ok(Value::Int(mod_pow(
                int(&base, "base")?,
                int(&exp, "exp")?,
                int(&m, "mod")?,
            )?))
        }
    }
}

/// Python's `pow(b, e, m)`: the result has m's sign; a negative e inverts b.
pub fn mod_pow(b: i64, e: i64, m: i64) -> Result<i64> {
    if m == 0 {
        return Err(Error::value("pow() 3rd argument cannot be 0"));
    }
    let mm = (m as i128).abs();
    let mut base = (b as i128).rem_euclid(mm);
    if e < 0 {
        base = inverse(base, mm).ok_or_else(|| {
            Error::value("pow(): base is not invertible for the given modulus")
                .with_help("a negative exponent needs gcd(base, mod) == 1")
        })?;
    }
    let mut e = (e as i128).unsigned_abs();
    let mut r: i128 = 1 % mm;
    while e > 0 {
        if e & 1 == 1 {
            r = r * base % mm;
        }
        base = base * base % mm;
        e >>= 1;
    }
    if m < 0 && r != 0 {
        r -= mm;
    }
    Ok(r as i64)
}

/// The inverse of `a` modulo `m` (both non-negative, m > 0), if any.
fn inverse(a: i128, m: i128) -> Option<i128> {
    let (mut r0, mut r1, mut s0, mut s1) = (a, m, 1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    (r0 == 1 || m == 1).then(|| s0.rem_euclid(m))
}

/// `exit(status)`: an `Exit` error carrying the status in `Interp::exit_status`,
/// which every statement passes up untouched; the front-end ends.
fn exit(i: &mut Interp, mut a: Args) -> Result<Value> {
    let status = a.opt("status")?;
    a.finish()?;
    let (code, text) = match status {
        None | Some(Value::None) => (0, String::new()),
        Some(Value::Int(n)) => (n, String::new()),
        Some(Value::Bool(b)) => (b as i64, String::new()),
        Some(other) => (1, crate::display::to_text(&other)),
    };
    if !text.is_empty() {
        i.out.stderr(&format!("{text}\n"));
    }
    i.exit_status = Some(code as i32);
    Err(Error::new(
        ErrorKind::Exit,
        format!("exit({code}) was called"),
    ))
}

fn callable(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::Bool(match &x {
        Value::Func(_) | Value::Builtin(_) | Value::Method(..) | Value::DType(_) => true,
        Value::Object(o) => o.is_callable(),
        _ => false,
    }))
}

fn attr_name(v: Value, span: gcalc_lang::Span) -> Result<Ident> {
    match v {
        Value::Str(s) => Ok(Ident {
            name: s.to_string(),
            span,
        }),
        other => Err(Error::type_(format!(
            "attribute name must be a string, not {}",
            other.a_type_name()
        ))),
    }
}

fn getattr(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let name = attr_name(a.req("name")?, a.span)?;
    let default = a.opt("default")?;
    a.finish()?;
    match (i.get_attr(x, &name), default) {
        (Ok(v), _) => Ok(v),
        (Err(e), Some(d)) if e.kind == ErrorKind::Type => Ok(d),
        (Err(e), _) => Err(e),
    }
}

fn hasattr(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let name = attr_name(a.req("name")?, a.span)?;
    a.finish()?;
    match i.get_attr(x, &name) {
        Ok(_) => Ok(Value::Bool(true)),
        Err(e) if e.kind == ErrorKind::Type => Ok(Value::Bool(false)),
        Err(e) => Err(e),
    }
}

/// An iterator made by `iter(xs)`: the walk a `for` loop makes, shared, so
/// `next(it)` and loops over `it` take items from one place.
pub struct PyIter {
    walk: Mutex<Iter>,
}

impl PyIter {
    /// The next item, `None` at the end.
    pub(crate) fn next_item(&self, interp: &mut Interp) -> Result<Option<Value>> {
        let mut w = self.walk.lock().unwrap_or_else(|p| p.into_inner());
        w.next(interp)
    }
}

impl Object for PyIter {
    fn type_name(&self) -> &'static str {
        "iterator"
    }
    fn repr(&self) -> String {
        "<iterator>".into()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn iter(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xs = a.req("xs")?;
    a.finish()?;
    if let Value::Object(o) = &xs
        && o.as_any().is::<PyIter>()
    {
        return Ok(xs);
    }
    let walk = i.iterate(xs)?;
    Ok(Value::Object(Arc::new(PyIter {
        walk: Mutex::new(walk),
    })))
}

fn next(i: &mut Interp, mut a: Args) -> Result<Value> {
    let it = a.req("it")?;
    let default = a.opt("default")?;
    a.finish()?;
    let Some(p) = (match &it {
        Value::Object(o) => o.as_any().downcast_ref::<PyIter>(),
        _ => None,
    }) else {
        return Err(Error::type_(format!(
            "next() needs an iterator, not {}",
            it.a_type_name()
        ))
        .with_help("make one with iter(xs): it = iter(xs); next(it)"));
    };
    match (p.next_item(i)?, default) {
        (Some(v), _) => Ok(v),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(Error::new(
            ErrorKind::StopIteration,
            "next(): the iterator has no more items",
        )
        .with_help("give a default: next(it, none)")),
    }
}

/// `slice(start, stop, step)`: the bounds of `x[start:stop:step]` as a value.
pub struct PySlice {
    pub start: Option<i64>,
    pub stop: Option<i64>,
    pub step: Option<i64>,
}

fn bound_text(b: Option<i64>) -> String {
    b.map_or("none".into(), |v| v.to_string())
}

fn bound_value(b: Option<i64>) -> Value {
    b.map_or(Value::None, Value::Int)
}

impl Object for PySlice {
    fn type_name(&self) -> &'static str {
        "slice"
    }
    fn repr(&self) -> String {
        format!(
            "slice({}, {}, {})",
            bound_text(self.start),
            bound_text(self.stop),
            bound_text(self.step)
        )
    }
    fn attr(&self, name: &str) -> Option<Value> {
        let (_, get) = SLICE_ATTRS.iter().find(|(n, _)| *n == name)?;
        Some(get(self))
    }
    fn attr_names(&self) -> Vec<String> {
        SLICE_ATTRS.iter().map(|(n, _)| n.to_string()).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A slice's attributes: `.start .stop .step` and the method `.indices`.
type SliceAttr = (&'static str, fn(&PySlice) -> Value);
const SLICE_ATTRS: &[SliceAttr] = &[
    ("start", |s| bound_value(s.start)),
    ("stop", |s| bound_value(s.stop)),
    ("step", |s| bound_value(s.step)),
    ("indices", |s| {
        Value::Object(Arc::new(SliceIndices {
            start: s.start,
            stop: s.stop,
            step: s.step,
        }))
    }),
];

/// `s.indices(n)`: Python's (start, stop, step) of the slice over length n.
struct SliceIndices {
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
}

impl Object for SliceIndices {
    fn type_name(&self) -> &'static str {
        "method"
    }
    fn repr(&self) -> String {
        "<method indices of slice>".into()
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, _: &mut Interp, mut a: Args) -> Result<Value> {
        let n = crate::builtins::lang::int_arg(&a.req("n")?, "indices(n)'s n")?;
        a.finish()?;
        if n < 0 {
            return Err(Error::value("slice.indices(n): n must be >= 0"));
        }
        let step = self.step.unwrap_or(1);
        if step == 0 {
            return Err(Error::value("slice step cannot be zero"));
        }
        // CPython's PySlice_AdjustIndices: bounds clamped into the walk's range.
        let (lower, upper) = if step > 0 { (0, n) } else { (-1, n - 1) };
        let adjust = |v: Option<i64>, default: i64| match v {
            None => default,
            Some(v) if v < 0 => v.saturating_add(n).max(lower),
            Some(v) => v.min(upper),
        };
        let start = adjust(self.start, if step > 0 { lower } else { upper });
        let stop = adjust(self.stop, if step > 0 { upper } else { lower });
        let st = step;
        Ok(Value::tuple(vec![
            Value::Int(start),
            Value::Int(stop),
            Value::Int(st),
        ]))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn slice(_: &mut Interp, mut a: Args) -> Result<Value> {
    let first = a.req("start")?;
    let second = a.opt("stop")?;
    let step = a.opt("step")?;
    a.finish()?;
    let bound = |v: &Value, what: &str| -> Result<Option<i64>> {
        match v {
            Value::None => Ok(None),
            v => crate::builtins::lang::int_arg(v, &format!("slice()'s {what}")).map(Some),
        }
    };
    let (start, stop) = match &second {
        None => (None, bound(&first, "stop")?),
        Some(s) => (bound(&first, "start")?, bound(s, "stop")?),
    };
    let step = match &step {
        None => None,
        Some(s) => bound(s, "step")?,
    };
    if step == Some(0) {
        return Err(Error::value("slice step cannot be zero"));
    }
    Ok(Value::Object(Arc::new(PySlice { start, stop, step })))
}

/// Python's hash of an int: n mod 2**61 - 1 with n's sign; -1 is -2.
fn hash_int(n: i64) -> i64 {
    const M: i128 = (1 << 61) - 1;
    let h = (n as i128).abs() % M;
    let h = if n < 0 { -h } else { h } as i64;
    if h == -1 { -2 } else { h }
}

/// Python's hash of a float (`_Py_HashDouble`): equal to the int's for
/// integral values, ±314159 for infinities, 0 for nan.
fn hash_float(v: f64) -> i64 {
    const BITS: u32 = 61;
    const M: u64 = (1 << BITS) - 1;
    if v.is_infinite() {
        return if v > 0.0 { 314159 } else { -314159 };
    }
    if v.is_nan() {
        return 0;
    }
    let (mut m, mut e) = frexp(v.abs());
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & M) | (x >> (BITS - 28));
        m *= 268435456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= M {
            x -= M;
        }
    }
    let e = if e >= 0 {
        e as u32 % BITS
    } else {
        BITS - 1 - ((-1 - e) as u32 % BITS)
    };
    x = ((x << e) & M) | (x >> (BITS - e));
    let h = if v < 0.0 { -(x as i64) } else { x as i64 };
    if h == -1 { -2 } else { h }
}

/// C's frexp: v = m * 2**e with m in [0.5, 1) (v finite, non-negative).
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (0.0, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale up first.
        let (m, e) = frexp(v * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, exp - 1022)
}

/// Python's tuple hash (xxHash's round, as CPython 3.8+).
fn hash_tuple(items: &[i64]) -> i64 {
    const P1: u64 = 11400714785074694791;
    const P2: u64 = 14029467366897019727;
    const P5: u64 = 2870177450012600261;
    let mut acc = P5;
    for &h in items {
        acc = acc.wrapping_add((h as u64).wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add(items.len() as u64 ^ (P5 ^ 3527539));
    if acc == u64::MAX {
        1546275796
    } else {
        acc as i64
    }
}

fn hash_key(k: &HashKey, v: &Value) -> i64 {
    use std::hash::{Hash, Hasher};
    match (k, v) {
        (HashKey::Int(n), _) => hash_int(*n),
        (HashKey::Float(_), Value::Float(f)) => hash_float(*f),
        (HashKey::Float(bits), _) => hash_float(f64::from_bits(*bits)),
        (HashKey::Tuple(ks), Value::Tuple(vs)) => {
            let hs: Vec<i64> = ks
                .iter()
                .zip(vs.iter())
                .map(|(k, v)| hash_key(k, v))
                .collect();
            hash_tuple(&hs)
        }
        (HashKey::Tuple(ks), _) => {
            let hs: Vec<i64> = ks.iter().map(|k| hash_key(k, &Value::None)).collect();
            hash_tuple(&hs)
        }
        // Python's None hashes to a fixed value in 3.12+ (its address before).
        (HashKey::None, _) => 0xFCA86420,
        (other, _) => {
            let mut h = crate::fxhash::FxHasher::default();
            other.hash(&mut h);
            let h = (h.finish() >> 1) as i64;
            if h == -1 { -2 } else { h }
        }
    }
}

fn hash(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    // A 0-d array stands for NumPy's scalar, which hashes as its value.
    let x = match &x {
        Value::Array(arr) if arr.ndim() == 0 && !arr.dtype().is_complex() => match arr.dtype() {
            DType::Bool => Value::Bool(arr.to_vec::<i64>()?[0] != 0),
            d if d.is_int() => Value::Int(arr.to_vec::<i64>()?[0]),
            _ => Value::Float(arr.to_vec::<f64>()?[0]),
        },
        Value::Array(_) => {
            return Err(Error::type_("unhashable type: an array").with_help(
                "arrays are mutable; hash a tuple of its items (tuple(x.tolist())) or x.item()",
            ));
        }
        _ => x,
    };
    let key = HashKey::of(&x).map_err(|_| {
        Error::type_(format!("unhashable type: {}", x.a_type_name()))
            .with_help("hash numbers, strings, bools, none or tuples of them: tuple(xs) for a list")
    })?;
    Ok(Value::Int(hash_key(&key, &x)))
}

/// `stdout` and `stderr`, the streams `print(..., file=)` writes to.
pub struct Stream {
    pub to_stderr: bool,
}

impl Object for Stream {
    fn type_name(&self) -> &'static str {
        "stream"
    }
    fn repr(&self) -> String {
        if self.to_stderr {
            "<stderr>".into()
        } else {
            "<stdout>".into()
        }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Whether `print`'s `file=` names standard error: `stderr`/`stdout` (or
/// their names as strings); none is stdout.
pub fn file_is_stderr(file: &Value) -> Result<bool> {
    match file {
        Value::None => Ok(false),
        Value::Object(o) if o.as_any().is::<Stream>() => Ok(o
            .as_any()
            .downcast_ref::<Stream>()
            .is_some_and(|s| s.to_stderr)),
        Value::Str(s) if &**s == "stderr" => Ok(true),
        Value::Str(s) if &**s == "stdout" => Ok(false),
        other => Err(Error::type_(format!(
            "print(): file must be stdout or stderr, not {}",
            other.a_type_name()
        ))
        .with_help("print(x, file=stderr); files are written with save() or savetxt()")),
    }
}

fn ndarray(i: &mut Interp, a: Args) -> Result<Value> {
    let zeros = crate::interp::eval::op_named("zeros")?;
    i.call_def_inner(zeros, a)
}
