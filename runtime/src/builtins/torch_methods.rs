//! PyTorch's array methods that have a gcalc meaning (`x.permute(1, 0)`,
//! `x.unsqueeze(0)`, `x.float()`, `x.cuda()`...) and NumPy 2's `x.mT`,
//! read as the table's ops so autodiff, devices and errors stay theirs.
//! Names whose PyTorch meaning differs from NumPy's on the same spelling
//! (`x.size`, an int in NumPy, a method in PyTorch) keep NumPy's.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::ops::OpDef;
use crate::value::{Object, Value};
use gcalc_lang::span::Span;
use std::sync::Arc;

/// PyTorch method → the table op it is (called with the array first).
const ALIASES: [(&str, &str); 7] = [
    ("permute", "transpose"),
    ("unsqueeze", "expand_dims"),
    ("clone", "copy"),
    ("contiguous", "ascontiguousarray"),
    ("numel", "size"),
    ("dim", "ndim"),
    ("t", "transpose"),
];

/// PyTorch's conversion methods and the dtype each gives.
const CASTS: [(&str, DType); 6] = [
    ("float", DType::Float32),
    ("double", DType::Float64),
    ("half", DType::Float16),
    ("long", DType::Int64),
    ("int", DType::Int32),
    ("bool", DType::Bool),
];

/// PyTorch's device moves.
const MOVES: [(&str, Bind); 2] = [("cpu", Bind::Cpu), ("cuda", Bind::Cuda)];

/// Every name this module answers for arrays (completion).
pub const NAMES: [&str; 16] = [
    "permute",
    "unsqueeze",
    "clone",
    "contiguous",
    "numel",
    "dim",
    "t",
    "float",
    "double",
    "half",
    "long",
    "int",
    "bool",
    "cpu",
    "cuda",
    "mT",
];

/// `a.name` for PyTorch's methods and NumPy 2's `mT`, or None when `name`
/// is none of them.
pub fn attr(interp: &mut Interp, a: &Array, name: &str, span: Span) -> Option<Result<Value>> {
    let op = |n: &str| crate::interp::eval::op_named(n);
    if name == "mT" {
        // NumPy 2: the last two axes swapped (a view); needs a matrix.
        if a.ndim() < 2 {
            return Some(Err(crate::Error::value(format!(
                "x.mT needs at least 2 dimensions, got an array of shape {}",
                crate::array::layout::fmt_shape(a.shape())
            ))
            .at(span)
            .with_help(
                "a 1-d array has no matrix transpose: use x[:, newaxis] for a column",
            )));
        }
        return Some(op("swapaxes").and_then(|d| {
            interp.call_builtin(
                d,
                vec![Value::Array(a.clone()), Value::Int(-1), Value::Int(-2)],
                vec![],
                span,
            )
        }));
    }
    if let Some((_, target)) = ALIASES.iter().find(|(n, _)| *n == name) {
        return Some(op(target).map(|d| Value::Method(Box::new(Value::Array(a.clone())), d)));
    }
    if let Some((_, d)) = CASTS.iter().find(|(n, _)| *n == name) {
        return Some(Ok(Value::Object(Arc::new(Bound {
            array: a.clone(),
            what: Bind::Cast(*d),
        }))));
    }
    let (_, to) = MOVES.iter().find(|(n, _)| *n == name)?;
    Some(Ok(Value::Object(Arc::new(Bound {
        array: a.clone(),
        what: *to,
    }))))
}

/// What a bound PyTorch method does when called.
#[derive(Clone, Copy)]
enum Bind {
    /// `x.float()`: `x.astype(d)`.
    Cast(DType),
    /// `x.cpu()`: `x.to(cpu())`.
    Cpu,
    /// `x.cuda(k=0)`: `x.to(gpu(k))`.
    Cuda,
}

/// A PyTorch method bound to its array.
struct Bound {
    array: Array,
    what: Bind,
}

impl Bound {
    /// The method's PyTorch name.
    fn name(&self) -> &'static str {
        match self.what {
            Bind::Cast(d) => CASTS
                .iter()
                .find(|(_, c)| *c == d)
                .map_or("astype", |c| c.0),
            Bind::Cpu => "cpu",
            Bind::Cuda => "cuda",
        }
    }
}

impl Object for Bound {
    fn replayable_call(&self) -> bool {
        true
    }
    fn type_name(&self) -> &'static str {
        "method"
    }
    fn repr(&self) -> String {
        format!("<method {} of array>", self.name())
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn call(&self, interp: &mut Interp, mut a: Args) -> Result<Value> {
        a.name = self.name();
        let span = a.span;
        let x = Value::Array(self.array.clone());
        let call = |interp: &mut Interp, def: &'static OpDef, pos: Vec<Value>| {
            interp.call_builtin(def, pos, vec![], span)
        };
        match self.what {
            Bind::Cast(d) => {
                a.finish()?;
                call(
                    interp,
                    crate::interp::eval::op_named("astype")?,
                    vec![x, Value::DType(d)],
                )
            }
            Bind::Cpu => {
                a.finish()?;
                let dev = call(interp, crate::interp::eval::op_named("cpu")?, vec![])?;
                call(interp, crate::interp::eval::op_named("to")?, vec![x, dev])
            }
            Bind::Cuda => {
                let k = a.opt("device")?;
                a.finish()?;
                let dev = call(
                    interp,
                    crate::interp::eval::op_named("gpu")?,
                    k.into_iter().collect(),
                )?;
                call(interp, crate::interp::eval::op_named("to")?, vec![x, dev])
            }
        }
    }
}
