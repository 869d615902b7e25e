//! Python's sets: `set(xs)`, `set()`, literals `{1, 2}` and comprehensions
//! `{f(x) for x in xs}` (the parser writes them as `set([...])`), `in`,
//! `len`, iteration, the methods (`add remove discard pop update union
//! intersection difference symmetric_difference issubset...`) and the
//! operators `| & - ^` and comparisons (`interp/eval.rs` asks `set_op` and
//! `set_compare`). Elements are what can be a dict key (`HashKey`); a 0-d
//! array goes in as its Python scalar (NumPy's scalars are hashable).

use super::Dict;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, builtin};
use crate::value::{Object, Value};
use gcalc_lang::ast::{BinOp, CmpOp};
use std::sync::Arc;

pub static OPS: &[OpDef] = &[builtin!(
    "set",
    "set(xs=none)",
    "A set of the distinct items of xs (a list, tuple, range, string, dict's keys, an int or bool array's elements); set() is empty. Literals {1, 2} and comprehensions {f(x) for x in xs} make sets too; {} is an empty dict.",
    set_
)];

/// A set: a shared `Dict` whose keys are the elements (values `none`), so
/// aliases see each other's changes, as Python's.
pub struct PySet(pub Dict);

impl PySet {
    pub fn new() -> PySet {
        PySet(Dict::new())
    }

    /// The elements in the order sets show and walk them: insertion order,
    /// except that a set of numbers only is in increasing order (the order
    /// CPython shows for small ints, `{1, 2, 3}` whatever the insertion).
    pub fn ordered(&self) -> Vec<Value> {
        let mut items = self.0.keys();
        let num = |v: &Value| match v {
            Value::Int(i) => Some(*i as f64),
            Value::Bool(b) => Some(*b as i64 as f64),
            Value::Float(f) if !f.is_nan() => Some(*f),
            _ => None,
        };
        if items.iter().all(|v| num(v).is_some()) {
            items.sort_by(|a, b| num(a).unwrap_or(0.0).total_cmp(&num(b).unwrap_or(0.0)));
        }
        items
    }

    pub fn insert(&self, v: Value) -> Result<()> {
        self.0.insert(element(v)?, Value::None)
    }

    pub fn contains(&self, v: &Value) -> Result<bool> {
        match element(v.clone()) {
            Ok(e) => self.0.contains(&e),
            // Python: `[1] in s` is a TypeError (unhashable).
            Err(e) => Err(e),
        }
    }

    fn of(items: Vec<Value>) -> Result<PySet> {
        let s = PySet::new();
        for v in items {
            s.insert(v)?;
        }
        Ok(s)
    }

    fn value(self) -> Value {
        Value::Object(Arc::new(self))
    }
}

impl Default for PySet {
    fn default() -> Self {
        PySet::new()
    }
}

/// `v` as a set element: a 0-d array becomes its Python scalar; anything a
/// dict key cannot be is an error naming what a set holds.
fn element(v: Value) -> Result<Value> {
    let v = match v {
        Value::Array(a) if a.ndim() == 0 && !a.dtype().is_complex() => match a.dtype() {
            DType::Bool => Value::Bool(a.to_vec::<i64>()?[0] != 0),
            d if d.is_int() => Value::Int(a.to_vec::<i64>()?[0]),
            _ => Value::Float(a.to_vec::<f64>()?[0]),
        },
        v => v,
    };
    super::HashKey::of(&v).map_err(|_| {
        Error::type_(format!(
            "a set holds numbers, strings, bools, none and tuples of them, not {} (unhashable)",
            v.a_type_name()
        ))
        .with_help(match v {
            Value::Array(_) => {
                "add its elements: s.update(x.tolist()), or a tuple: tuple(x.tolist())"
            }
            _ => "use a tuple instead of a list: tuple(xs)",
        })
    })?;
    Ok(v)
}

/// The set inside a value, if it is one.
pub fn as_set(v: &Value) -> Option<&PySet> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<PySet>(),
        _ => None,
    }
}

impl Object for PySet {
    fn type_name(&self) -> &'static str {
        "set"
    }
    fn repr(&self) -> String {
        let items = self.ordered();
        if items.is_empty() {
            return "set()".into();
        }
        let parts: Vec<String> = items.iter().map(crate::display::py_repr).collect();
        format!("{{{}}}", parts.join(", "))
    }
    fn len(&self) -> Option<usize> {
        Some(self.0.len())
    }
    fn attr(&self, name: &str) -> Option<Value> {
        let (_, m) = METHODS.iter().find(|(n, _)| *n == name)?;
        Some(Value::Object(Arc::new(SetMethod {
            set: self.0.clone(),
            method: *m,
        })))
    }
    fn attr_names(&self) -> Vec<String> {
        METHODS.iter().map(|(n, _)| n.to_string()).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A set method's identity (matched, never its name).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Method {
    Add,
    Remove,
    Discard,
    Pop,
    Clear,
    Copy,
    Update,
    Union,
    Intersection,
    Difference,
    SymmetricDifference,
    IntersectionUpdate,
    DifferenceUpdate,
    SymmetricDifferenceUpdate,
    IsSubset,
    IsSuperset,
    IsDisjoint,
}

const METHODS: &[(&str, Method)] = &[
    ("add", Method::Add),
    ("remove", Method::Remove),
    ("discard", Method::Discard),
    ("pop", Method::Pop),
    ("clear", Method::Clear),
    ("copy", Method::Copy),
    ("update", Method::Update),
    ("union", Method::Union),
    ("intersection", Method::Intersection),
    ("difference", Method::Difference),
    ("symmetric_difference", Method::SymmetricDifference),
    ("intersection_update", Method::IntersectionUpdate),
    ("difference_update", Method::DifferenceUpdate),
    (
        "symmetric_difference_update",
        Method::SymmetricDifferenceUpdate,
    ),
    ("issubset", Method::IsSubset),
    ("issuperset", Method::IsSuperset),
    ("isdisjoint", Method::IsDisjoint),
];

impl Method {
    fn name(self) -> &'static str {
        METHODS
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("?", |(n, _)| n)
    }
}

/// Whether `def` is the `set` builtin (the type of sets for isinstance).
pub fn is_set_type(def: &OpDef) -> bool {
    std::ptr::eq(def, &OPS[0])
}

/// `s.add`, `s.union`...: a set's method waiting for its call.
struct SetMethod {
    set: Dict,
    method: Method,
}

impl Object for SetMethod {
    fn type_name(&self) -> &'static str {
        "method"
    }
    fn repr(&self) -> String {
        format!("<method {} of set>", self.method.name())
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, i: &mut Interp, mut a: Args) -> Result<Value> {
        let me = PySet(self.set.clone());
        let m = self.method;
        match m {
            Method::Add | Method::Remove | Method::Discard => {
                let x = a.req("x")?;
                a.finish()?;
                if m == Method::Add {
                    me.insert(x)?;
                    return Ok(Value::None);
                }
                let e = element(x)?;
                if self.set.remove(&e)?.is_none() && m == Method::Remove {
                    return Err(Error::new(
                        crate::ErrorKind::Key,
                        format!(
                            "set.remove(x): {} is not in the set",
                            crate::display::py_repr(&e)
                        ),
                    )
                    .with_help(
                        "s.discard(x) removes x when it is there and does nothing otherwise",
                    ));
                }
                Ok(Value::None)
            }
            Method::Pop => {
                a.finish()?;
                let Some(first) = me.ordered().into_iter().next() else {
                    return Err(Error::new(crate::ErrorKind::Key, "pop from an empty set"));
                };
                self.set.remove(&first)?;
                Ok(first)
            }
            Method::Clear => {
                a.finish()?;
                self.set.clear();
                Ok(Value::None)
            }
            Method::Copy => {
                a.finish()?;
                Ok(PySet(self.set.copy()).value())
            }
            _ => {
                let others = a.rest();
                a.finish()?;
                let mut sets = Vec::with_capacity(others.len());
                for o in others {
                    sets.push(match as_set(&o) {
                        Some(s) => PySet(s.0.clone()),
                        None => PySet::of(i.collect_items(o)?)?,
                    });
                }
                method_of_others(&me, m, &sets)
            }
        }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The methods that take other sets (already made from any iterables).
fn method_of_others(me: &PySet, m: Method, others: &[PySet]) -> Result<Value> {
    let one = || -> Result<&PySet> {
        match others {
            [o] => Ok(o),
            _ => Err(Error::type_(format!(
                "set.{}() takes exactly one argument ({} given)",
                m.name(),
                others.len()
            ))),
        }
    };
    Ok(match m {
        Method::Update => {
            for o in others {
                for v in o.0.keys() {
                    me.insert(v)?;
                }
            }
            Value::None
        }
        Method::Union => {
            let out = PySet(me.0.copy());
            for o in others {
                for v in o.0.keys() {
                    out.insert(v)?;
                }
            }
            out.value()
        }
        Method::Intersection | Method::IntersectionUpdate => {
            let mut keep = me.0.keys();
            for o in others {
                keep.retain(|v| o.0.contains(v).unwrap_or(false));
            }
            if m == Method::Intersection {
                PySet::of(keep)?.value()
            } else {
                replace(me, keep)?
            }
        }
        Method::Difference | Method::DifferenceUpdate => {
            let mut keep = me.0.keys();
            for o in others {
                keep.retain(|v| !o.0.contains(v).unwrap_or(false));
            }
            if m == Method::Difference {
                PySet::of(keep)?.value()
            } else {
                replace(me, keep)?
            }
        }
        Method::SymmetricDifference | Method::SymmetricDifferenceUpdate => {
            let o = one()?;
            let out = sym_diff(me, o)?;
            if m == Method::SymmetricDifference {
                out.value()
            } else {
                replace(me, out.0.keys())?
            }
        }
        Method::IsSubset => Value::Bool(subset(me, one()?)),
        Method::IsSuperset => Value::Bool(subset(one()?, me)),
        Method::IsDisjoint => {
            let o = one()?;
            Value::Bool(!me.0.keys().iter().any(|v| o.0.contains(v).unwrap_or(false)))
        }
        Method::Add
        | Method::Remove
        | Method::Discard
        | Method::Pop
        | Method::Clear
        | Method::Copy => {
            return Err(Error::internal(format!(
                "set.{}() takes no other sets",
                m.name()
            )));
        }
    })
}

fn replace(me: &PySet, keep: Vec<Value>) -> Result<Value> {
    me.0.clear();
    for v in keep {
        me.insert(v)?;
    }
    Ok(Value::None)
}

fn sym_diff(a: &PySet, b: &PySet) -> Result<PySet> {
    let out = PySet::new();
    for v in a.0.keys() {
        if !b.0.contains(&v)? {
            out.insert(v)?;
        }
    }
    for v in b.0.keys() {
        if !a.0.contains(&v)? {
            out.insert(v)?;
        }
    }
    Ok(out)
}

fn subset(a: &PySet, b: &PySet) -> bool {
    a.0.len() <= b.0.len() && a.0.keys().iter().all(|v| b.0.contains(v).unwrap_or(false))
}

/// `a | b`, `a & b`, `a - b`, `a ^ b` of two sets (`None`: not two sets).
pub fn set_op(op: BinOp, l: &Value, r: &Value) -> Option<Result<Value>> {
    let (a, b) = (as_set(l)?, as_set(r)?);
    let m = match op {
        BinOp::BitOr => Method::Union,
        BinOp::BitAnd => Method::Intersection,
        BinOp::Sub => Method::Difference,
        BinOp::BitXor => Method::SymmetricDifference,
        _ => {
            return Some(Err(Error::type_(format!(
                "`{}` is not defined between sets",
                op.symbol()
            ))
            .with_help(
                "sets take | (union), & (intersection), - (difference), ^ (symmetric difference)",
            )));
        }
    };
    Some(method_of_others(a, m, &[PySet(b.0.clone())]))
}

/// `a < b` (proper subset), `<=`, `>`, `>=` of two sets (`None`: not two sets).
pub fn set_compare(op: CmpOp, l: &Value, r: &Value) -> Option<bool> {
    let (a, b) = (as_set(l)?, as_set(r)?);
    let eq = a.0.len() == b.0.len() && subset(a, b);
    Some(match op {
        CmpOp::Lt => subset(a, b) && !eq,
        CmpOp::Le => subset(a, b),
        CmpOp::Gt => subset(b, a) && !eq,
        CmpOp::Ge => subset(b, a),
        CmpOp::Eq => eq,
        CmpOp::Ne => !eq,
        _ => return None,
    })
}

fn set_(i: &mut Interp, mut a: Args) -> Result<Value> {
    let xs = a.opt("xs")?;
    a.finish()?;
    let items = match xs {
        None | Some(Value::None) => Vec::new(),
        // set(x) of an array: its elements (NumPy's scalars), not its rows.
        Some(Value::Array(arr)) => {
            if arr.ndim() != 1 {
                return Err(Error::type_(format!(
                    "set() of a {}-d array: its items would be {}",
                    arr.ndim(),
                    if arr.ndim() == 0 {
                        "none (a 0-d array cannot be iterated)"
                    } else {
                        "rows, which are unhashable arrays"
                    }
                ))
                .with_help("flatten it first: set(x.ravel()) or set(x.tolist()) of a 1-d x"));
            }
            i.collect_items(Value::Array(arr))?
        }
        Some(v) => i.collect_items(v)?,
    };
    Ok(PySet::of(items)?.value())
}
