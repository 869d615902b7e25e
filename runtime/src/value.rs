//! The values of the language: arrays, weak scalars, strings, tuples, lists,
//! dicts, functions, devices, dtypes, figures, CUDA modules, none.

use crate::array::Array;
use crate::containers::{Dict, List};
use crate::device::Device;
use crate::dtype::DType;
use crate::nested::Items;
use crate::ops::OpDef;
use gcalc_lang::ast::FnBody;
use std::sync::Arc;

#[derive(Clone)]
pub enum Value {
    None,
    /// `true` / `false` and the result of comparing scalars.
    Bool(bool),
    /// A weak integer (a literal, `len`, a loop counter): never widens an array's dtype.
    Int(i64),
    /// A weak float (a literal, `item()`): takes the dtype of the array it meets.
    Float(f64),
    /// A weak (Python) complex: `2j`, `1 + 2j`, `complex(1, 2)`.
    Complex(f64, f64),
    Str(Arc<str>),
    Array(Array),
    /// Items drop without recursion however deep they nest (`crate::nested`).
    Tuple(Arc<Items>),
    /// A shared mutable list (`containers::List`): aliases see each other's changes.
    List(List),
    /// A shared mutable dict in insertion order (`containers::Dict`).
    Dict(Dict),
    /// A user function (named or anonymous) with its captured environment.
    Func(Arc<Function>),
    /// A builtin from the op table.
    Builtin(&'static OpDef),
    /// A method looked up on a value (`x.sum`), waiting for its call.
    Method(Box<Value>, &'static OpDef),
    Device(Device),
    DType(DType),
    /// `range(a, b, step)`: iterated lazily.
    Range(i64, i64, i64),
    /// Values owned by other modules (figures, CUDA modules, gradient functions...).
    Object(Arc<dyn Object>),
}

/// A value kind defined outside this module (figure, CUDA module, gradient function).
pub trait Object: Send + Sync {
    fn type_name(&self) -> &'static str;
    /// Text shown at the prompt.
    fn repr(&self) -> String;
    /// Attribute lookup (`mod.kernel_name`), if the object has attributes.
    fn attr(&self, _name: &str) -> Option<Value> {
        None
    }
    /// Names for completion after `.`.
    fn attr_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// Its length, for `len(x)` and truth, when it has one (sets).
    fn len(&self) -> Option<usize> {
        None
    }
    /// Whether `call` does something (`callable(x)`).
    fn is_callable(&self) -> bool {
        false
    }
    /// Whether a call does no more than compute from its arguments and queue
    /// GPU work (a gradient function, a CUDA kernel, a bound array method):
    /// a loop calling any other object is never replayed as a CUDA graph
    /// (`interp/loop_graph.rs`; sets, generators and figures change state).
    fn replayable_call(&self) -> bool {
        false
    }
    /// Calling the object (a kernel launch, a gradient function).
    fn call(
        &self,
        _interp: &mut crate::interp::Interp,
        _args: crate::interp::Args,
    ) -> crate::Result<Value> {
        Err(crate::Error::type_(format!(
            "{} cannot be called",
            crate::error::with_article(self.type_name())
        )))
    }
    fn as_any(&self) -> &dyn std::any::Any;
}

pub struct Function {
    pub name: String,
    pub def: FnBody,
    /// Variables captured where the function was defined (closures); globals are
    /// looked up in the session at call time.
    pub captured: Vec<(String, Value)>,
    /// The source the function was parsed from (for error rendering).
    pub source: Arc<crate::interp::Source>,
}

/// How many ints `range(start, stop, step)` gives (`step` is never 0).
pub fn range_len(start: i64, stop: i64, step: i64) -> usize {
    let (start, stop, step) = (start as i128, stop as i128, step as i128);
    let n = if step > 0 {
        (stop - start + step - 1) / step
    } else {
        (start - stop - step - 1) / -step
    };
    n.clamp(0, usize::MAX as i128) as usize
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(..) => "complex",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Dict(_) => "dict",
            Value::Func(_) | Value::Builtin(_) | Value::Method(..) => "function",
            Value::Device(_) => "device",
            Value::DType(_) => "dtype",
            Value::Range(..) => "range",
            Value::Object(o) => o.type_name(),
        }
    }
    /// The Python int this value stands for where Python takes an index
    /// (`__index__`): an int, a bool, or a 0-d integer array, which is what
    /// gcalc gives where NumPy gives an integer scalar (`argmax(p)`, `x[i]`).
    /// A 0-d array on a GPU is read back once.
    pub fn as_py_index(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            Value::Array(a) if a.ndim() == 0 && a.dtype().is_int() => {
                a.to_vec::<i64>().ok()?.first().copied()
            }
            _ => None,
        }
    }

    /// The type name with its article, for messages: "an int", "a string", "none".
    pub fn a_type_name(&self) -> String {
        match self.type_name() {
            "none" => "none".into(),
            t => crate::error::with_article(t),
        }
    }
    pub fn str(s: impl Into<Arc<str>>) -> Value {
        Value::Str(s.into())
    }
    pub fn tuple(v: Vec<Value>) -> Value {
        Value::Tuple(Arc::new(Items::from(v)))
    }
    /// A tuple whose items also read as attributes (NumPy 2's `EighResult`,
    /// `SVDResult`...): `names[k]` names item k.
    pub fn named_tuple(v: Vec<Value>, names: &'static [&'static str]) -> Value {
        Value::Tuple(Arc::new(Items::named(v, names)))
    }
    pub fn list(v: Vec<Value>) -> Value {
        Value::List(List::new(v))
    }
    /// The items of a tuple, or a snapshot of a list's (`None` for other values).
    pub fn seq_items(&self) -> Option<Arc<Items>> {
        match self {
            Value::Tuple(t) => Some(t.clone()),
            Value::List(l) => Some(l.snapshot()),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Value {
        Value::Array(a)
    }
}
