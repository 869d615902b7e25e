//! Calls of table ops from Rust code, through the interpreter: what the
//! composite linear-algebra functions (norm, tensordot, einsum, kron,
//! cross, matrix_power...) are made of. Going through the interpreter puts
//! every step on the autodiff tape when one is active (and in the
//! profiler), so the composites need no gradient rules of their own.

use super::fuse::{EwNode, Operand};
use crate::array::Array;
use crate::array::index::Index;
use crate::autodiff::ewb::E;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::value::Value;
use gcalc_lang::Span;

pub struct Calls<'a> {
    pub i: &'a mut Interp,
    pub span: Span,
}

/// An array as a tree leaf (for `E` expressions).
pub fn leaf(a: &Array) -> E {
    crate::autodiff::ewb::e(&EwNode::Leaf(Operand::Array(a.clone())))
}

/// A shape as a tuple value.
pub fn shape_value(s: &[usize]) -> Value {
    Value::tuple(s.iter().map(|&d| Value::Int(d as i64)).collect())
}

impl<'a> Calls<'a> {
    pub fn new(i: &'a mut Interp, span: Span) -> Calls<'a> {
        Calls { i, span }
    }

    /// Op `name` of the table called with `pos` and `kw`.
    pub fn call(&mut self, name: &str, pos: Vec<Value>, kw: Vec<(&str, Value)>) -> Result<Value> {
        let def = crate::autodiff::op(name)?;
        let kw = kw.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        self.i.call_builtin(def, pos, kw, self.span)
    }

    /// Like `call`, for an op that gives an array.
    pub fn arr(&mut self, name: &str, pos: Vec<Value>, kw: Vec<(&str, Value)>) -> Result<Array> {
        match self.call(name, pos, kw)? {
            Value::Array(a) => Ok(a),
            v => Err(Error::internal(format!("{name} gave {}", v.a_type_name()))),
        }
    }

    /// An elementwise expression, fused and evaluated.
    pub fn tree(&mut self, t: E) -> Result<Array> {
        let t =
            t.0.ok_or_else(|| Error::internal("elementwise op missing"))?;
        match self.i.eval_tree(t)? {
            Operand::Array(a) => Ok(a),
            _ => Err(Error::internal("elementwise expression gave a scalar")),
        }
    }

    pub fn matmul(&mut self, a: &Array, b: &Array) -> Result<Array> {
        self.arr("matmul", vec![a.clone().into(), b.clone().into()], vec![])
    }

    pub fn reshape(&mut self, a: &Array, shape: &[usize]) -> Result<Array> {
        if a.shape() == shape {
            return Ok(a.clone());
        }
        self.arr(
            "reshape",
            vec![a.clone().into(), shape_value(shape)],
            vec![],
        )
    }

    /// `a` with its axes permuted (`perm[k]` is the old axis of new axis k).
    pub fn permute(&mut self, a: &Array, perm: &[usize]) -> Result<Array> {
        if perm.iter().enumerate().all(|(k, &p)| k == p) {
            return Ok(a.clone());
        }
        self.arr(
            "transpose",
            vec![a.clone().into(), shape_value(perm)],
            vec![],
        )
    }

    /// The last two axes swapped.
    pub fn mt(&mut self, a: &Array) -> Result<Array> {
        let nd = a.ndim();
        let mut p: Vec<usize> = (0..nd).collect();
        p.swap(nd - 2, nd - 1);
        self.permute(a, &p)
    }

    /// A reduction (`sum`, `max`, `min`) over `axes`.
    pub fn reduce(
        &mut self,
        name: &str,
        a: &Array,
        axes: &[usize],
        keepdims: bool,
    ) -> Result<Array> {
        let ax = Value::tuple(axes.iter().map(|&d| Value::Int(d as i64)).collect());
        self.arr(
            name,
            vec![a.clone().into()],
            vec![("axis", ax), ("keepdims", Value::Bool(keepdims))],
        )
    }

    /// `a[idx]`, recorded on the tape like the language's indexing.
    pub fn index(&mut self, a: &Array, idx: &[Index]) -> Result<Array> {
        self.i.index_array(a, idx)
    }
}
