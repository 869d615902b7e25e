//! What the text before a `.` is, for completing what follows it: a name, an
//! attribute chain or a call (`x.T.sh`, `zeros((2,2)).resh`,
//! `x.sum(axis=0).it`). Nothing is run: the chain is parsed and its type
//! inferred from the session's variables, array attributes and the op table,
//! so completion never computes, allocates or calls user code.

use crate::array::Array;
use crate::interp::Interp;
use crate::value::Value;
use gcalc_lang::ast::{Expr, ExprKind, StmtKind};

/// Where the expression that ends at `end` (just before a `.`) starts: a
/// chain of names, `.attr`, calls `(...)` and indexing `[...]`, or a
/// bracketed (a dict literal `{...}` included) or string atom.
pub fn chain_start(code: &str, end: usize) -> usize {
    let b = code.as_bytes();
    let mut i = end;
    loop {
        match b[..i].last() {
            Some(b')' | b']' | b'}') => match open_bracket(b, i - 1) {
                Some(open) => i = open,
                None => return i,
            },
            Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => {
                while i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
                    i -= 1;
                }
                if i > 0 && b[i - 1] == b'.' {
                    i -= 1;
                    continue;
                }
                return i;
            }
            Some(b'"') => return string_open(b, i - 1).unwrap_or(i),
            _ => return i,
        }
        // After a bracketed group: a callee or indexed value may come before it.
        match b[..i].last() {
            Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c == b')' || *c == b']' => {}
            _ => return i,
        }
    }
}

/// The `(` or `[` matching the closing bracket at `close`, skipping strings.
fn open_bracket(b: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = close + 1;
    while j > 0 {
        j -= 1;
        match b[j] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            b'"' => j = string_open(b, j)?,
            _ => {}
        }
    }
    None
}

/// The opening quote of the string whose closing quote is at `close`.
fn string_open(b: &[u8], close: usize) -> Option<usize> {
    (0..close)
        .rev()
        .find(|&k| b[k] == b'"' && (k == 0 || b[k - 1] != b'\\'))
}

/// What a completion needs to know of a value: a stand-in with the same
/// attributes (an array's are the same whatever its shape).
pub fn infer(interp: &Interp, text: &str) -> Option<Value> {
    let parsed = gcalc_lang::parse(text);
    if !parsed.diagnostics.is_empty() {
        return None;
    }
    match parsed.program.stmts.as_slice() {
        [s] => match &s.kind {
            StmtKind::Expr(e) => of(interp, e),
            _ => None,
        },
        _ => None,
    }
}

fn an_array() -> Value {
    Value::Array(Array::scalar(0f32))
}

fn of(interp: &Interp, e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Name(n) => interp
            .globals
            .get(n)
            .cloned()
            .or_else(|| crate::interp::special_name(interp, n)),
        ExprKind::Str(_) => Some(Value::str("")),
        ExprKind::List(_) | ExprKind::ListComp { .. } => Some(Value::list(vec![])),
        ExprKind::Dict(_) | ExprKind::DictComp { .. } => {
            Some(Value::Dict(crate::containers::Dict::new()))
        }
        ExprKind::Tuple(_) => Some(Value::tuple(vec![])),
        ExprKind::Int(_) => Some(Value::Int(0)),
        ExprKind::Float(_) => Some(Value::Float(0.0)),
        ExprKind::Imag(_) => Some(Value::Complex(0.0, 0.0)),
        ExprKind::Attr { base, attr } => attr_of(&of(interp, base)?, &attr.name),
        ExprKind::Index { base, .. } => match of(interp, base)? {
            Value::Array(_) => Some(an_array()),
            _ => None,
        },
        ExprKind::Call { func, .. } => call_of(interp, func),
        ExprKind::Unary { operand, .. } => of(interp, operand),
        ExprKind::Binary { lhs, rhs, .. } => {
            let (l, r) = (of(interp, lhs)?, of(interp, rhs)?);
            matches!((&l, &r), (Value::Array(_), _) | (_, Value::Array(_))).then(an_array)
        }
        _ => None,
    }
}

/// `v.name` without computing it.
fn attr_of(v: &Value, name: &str) -> Option<Value> {
    if let Value::Array(_) = v {
        match name {
            "shape" => return Some(Value::tuple(vec![])),
            "size" | "ndim" | "nbytes" => return Some(Value::Int(0)),
            "dtype" => return Some(Value::DType(crate::DType::Float32)),
            "device" => return Some(Value::Device(crate::Device::Cpu)),
            "T" => return Some(an_array()),
            _ => {}
        }
    }
    if let Value::Object(o) = v {
        return o.attr(name);
    }
    None
}

/// What calling `func` gives: a user function's result is unknown (it is
/// not run); an op's is an array when the op makes arrays.
fn call_of(interp: &Interp, func: &Expr) -> Option<Value> {
    let def = match &func.kind {
        ExprKind::Name(n) if !interp.globals.contains_key(n) => crate::ops::lookup(n)?,
        ExprKind::Attr { base, attr } => {
            let recv = of(interp, base)?;
            if let Value::Object(o) = &recv {
                // A kernel of a CUDA module and the like: not known.
                let _ = o.attr(&attr.name)?;
                return None;
            }
            crate::ops::lookup(&attr.name).filter(|d| d.method)?
        }
        _ => return None,
    };
    makes_array(def).then(an_array)
}

/// Conversions out of arrays that live in array-making tables.
const NOT_ARRAYS: &[&str] = &["item", "tolist"];
/// Array-making ops outside those tables (moving between devices).
const ALSO_ARRAYS: &[&str] = &["to", "copyto"];

/// Whether an op gives an array: the array-math families do, but for the
/// conversions out of arrays.
fn makes_array(def: &crate::ops::OpDef) -> bool {
    let math = crate::ops::family::family(def).is_some_and(|f| f.is_array_math());
    (math && !NOT_ARRAYS.contains(&def.name)) || ALSO_ARRAYS.contains(&def.name)
}
