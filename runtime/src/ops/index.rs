//! The unbuffered in-place updates, NumPy's `ufunc.at`: `add_at(x, idx, v)`
//! is `np.add.at(x, idx, v)` — `x[p] = x[p] + v` at every position `idx`
//! selects, a repeated position once per repeat (where `x[idx] += v` adds
//! once). Also `subtract_at multiply_at maximum_at minimum_at`. The index is
//! one item or a tuple of items, as in `x[...]`; `v` broadcasts to `x[idx]`;
//! the arithmetic is the elementwise twin's (its dtype rule: computed in the
//! promoted dtype, then cast back into x, as NumPy's unsafe casting).
//! Gradients: through `add_at`/`subtract_at` (x passes g on, v gets g at its
//! positions); the others refuse a tracked input with an error.

use super::elementwise::{ew_def, result_kinds};
use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::index::Index;
use crate::autodiff::writes::WriteKind;
use crate::dtype::Kind;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::AtOp;
use crate::value::Value;

macro_rules! at_op {
    ($op:expr, $name:literal, $doc:literal $(, $grad:expr)?) => {
        OpDef {
            name: $name,
            sig: concat!($name, "(x, idx, v)"),
            doc: $doc,
            method: false,
            kind: OpKind::Func(|i: &mut Interp, a: Args| call($op, i, a)),
            grad: { #[allow(unused_mut, unused_assignments)] let mut g: Option<crate::autodiff::GradFn> = None; $(g = Some($grad);)? g },
        }
    };
}

pub static OPS: &[OpDef] = &[
    at_op!(
        AtOp::Add,
        "add_at",
        "x[idx] += v without buffering, in place: a position idx names twice gets v twice (NumPy's np.add.at). idx is an index as inside x[...] (a tuple for several axes); v broadcasts to x[idx]'s shape. Gives none.",
        crate::autodiff::writes::recorded_by_the_write
    ),
    at_op!(
        AtOp::Subtract,
        "subtract_at",
        "x[idx] -= v without buffering, in place: every repeat of a position subtracts (np.subtract.at). Gives none.",
        crate::autodiff::writes::recorded_by_the_write
    ),
    at_op!(
        AtOp::Multiply,
        "multiply_at",
        "x[idx] *= v without buffering, in place: every repeat of a position multiplies (np.multiply.at). Gives none; no gradient."
    ),
    at_op!(
        AtOp::Maximum,
        "maximum_at",
        "x[idx] = maximum(x[idx], v) without buffering, in place: every repeat of a position counts; nan wins (np.maximum.at). Gives none; no gradient."
    ),
    at_op!(
        AtOp::Minimum,
        "minimum_at",
        "x[idx] = minimum(x[idx], v) without buffering, in place: every repeat of a position counts; nan wins (np.minimum.at). Gives none; no gradient."
    ),
];

/// The kind of a value as an operand (lists become arrays).
fn kind_of(v: &Value) -> Kind {
    match v {
        Value::Array(a) => Kind::Strong(a.dtype()),
        Value::Bool(_) => Kind::WeakBool,
        Value::Int(_) => Kind::WeakInt,
        _ => Kind::WeakFloat,
    }
}

fn call(op: AtOp, i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = op.name();
    let x = match a.req("x")? {
        Value::Array(x) => x,
        other => {
            return Err(Error::type_(format!(
                "{name}: x must be an array (it is updated in place), not {}",
                other.a_type_name()
            ))
            .with_help("make one first: x = array([...])"));
        }
    };
    let idx_value = a.req("idx")?;
    let v = a.req("v")?;
    let span = a.span;
    a.finish()?;
    let idx: Vec<Index> = match &idx_value {
        Value::Tuple(t) => t
            .iter()
            .map(|v| i.index_of_value(v))
            .collect::<Result<_>>()?,
        v => vec![i.index_of_value(v)?],
    };
    let v = match v {
        Value::List(_) | Value::Tuple(_) => {
            Value::Array(crate::array::create::value_to_array(&v, None, i.float_x())?)
        }
        v => v,
    };
    let twin = super::lookup(op.twin())
        .ok_or_else(|| Error::internal(format!("{name}: no op {}", op.twin())))?;
    let def = ew_def(twin).ok_or_else(|| Error::internal(format!("{name}: not elementwise")))?;
    let (c, _) = result_kinds(
        twin.name,
        def,
        &[Kind::Strong(x.dtype()), kind_of(&v)],
        i.float_x(),
    )?;
    let c = c.dtype(i.float_x());
    let src: Array = match &v {
        Value::Array(s) if s.dtype() == c => s.clone(),
        Value::Array(_) => {
            let cast = super::lookup("astype").ok_or_else(|| Error::internal("astype"))?;
            match i.call_def_taped(
                cast,
                Args::new("astype", vec![v.clone(), Value::DType(c)], vec![], span),
            )? {
                Value::Array(s) => s,
                _ => return Err(Error::internal("astype gave no array")),
            }
        }
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            crate::array::create::value_to_array(&v, Some(c), i.float_x())?
        }
        other => {
            return Err(Error::type_(format!(
                "{name}: v must be a number or an array, not {}",
                other.a_type_name()
            )));
        }
    };
    i.check_not_temporary(&x, &format!("{name}(x, ...)"))?;
    let x = i.refresh(&x)?;
    let src = i.refresh(&src)?;
    let r = x.resolve_index(&idx)?;
    let kind = match op {
        AtOp::Add => Some(WriteKind::Add),
        AtOp::Subtract => Some(WriteKind::Subtract),
        AtOp::Multiply | AtOp::Maximum | AtOp::Minimum => None,
    };
    if let Some(t) = i.tape.as_mut() {
        if kind.is_none() && (t.tracks(&src) || t.tracks(&x) || t.written(&x)) {
            return Err(Error::value(format!(
                "{name} has no gradient: an argument is being differentiated"
            ))
            .with_help(
                "write it with buffered indexing, which grad follows: x[idx] = maximum(x[idx], v)",
            ));
        }
        t.before_write(&x)?;
    }
    x.at(&r, &src, op)?;
    if let (Some(t), Some(k)) = (i.tape.as_mut(), kind) {
        t.record_write(&x, Some(&r), &src, k, None);
    }
    Ok(Value::None)
}
