//! The backward pass of writes: what a written buffer's gradient gives
//! what it held and the value written, and what a view read from a written
//! buffer gives the buffer.

use super::{Layout, Prev, WriteKind, WriteNode};
use crate::array::{Array, Scalar};
use crate::dtype::DType;
use crate::error::Result;
use crate::interp::Interp;
use crate::ops::fuse::Operand;
use crate::value::Value;

/// The gradients of a write node: (node, gradient) for what the buffer held
/// and for the value. `g`: the buffer's gradient, flat.
pub(in crate::autodiff) fn write_grads(
    w: &WriteNode,
    g: &Array,
    fx: DType,
) -> Result<Vec<(u64, Array)>> {
    let mut out = Vec::new();
    let gv = w.at.view(g);
    if w.value != 0 {
        let mut gs = match &w.idx {
            None => gv.clone(),
            Some(r) => gv.index_resolved(r)?,
        };
        if let Some(k) = &w.kept {
            gs = crate::autodiff::arrays::to_array(crate::ops::fuse::apply(
                "where",
                vec![
                    Operand::Array(k.clone()),
                    Operand::Array(gs),
                    Operand::Float(0.0),
                ],
                fx,
            )?)?;
        }
        if w.kind == WriteKind::Subtract {
            gs = crate::autodiff::arrays::to_array(crate::ops::fuse::apply(
                "negative",
                vec![Operand::Array(gs)],
                fx,
            )?)?;
        }
        out.push((w.value, value_grad(&gs, &w.value_shape, w.value_dtype, fx)?));
    }
    let prev = match w.kind {
        WriteKind::Store => {
            let p = g.copy()?;
            let zero = Array::scalar(0.0f64);
            let pv = w.at.view(&p);
            match &w.idx {
                None => pv.assign(&[], &zero)?,
                Some(r) => pv.assign_resolved(r, &zero)?,
            }
            p
        }
        WriteKind::Add | WriteKind::Subtract => g.clone(),
    };
    match &w.prev {
        Prev::None => {}
        Prev::Flat(id) => out.push((*id, prev)),
        Prev::Owner(id, l) => out.push((*id, l.view(&prev))),
    }
    Ok(out)
}

/// The gradient of a value written through a selection: summed over the
/// dims broadcasting gave it (NumPy drops extra leading 1-dims first).
fn value_grad(gs: &Array, shape: &[usize], dtype: DType, fx: DType) -> Result<Array> {
    let lead = shape.len().saturating_sub(gs.ndim());
    let k = shape[..lead].iter().take_while(|&&d| d == 1).count();
    let dropped = &shape[k..];
    let s = crate::autodiff::arrays::sum_to(gs, dropped, fx)?;
    let want: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    crate::autodiff::arrays::cast(s.reshape(&want)?, dtype)
}

/// The gradient of the flat buffer a view of `layout` read, given the
/// view's gradient `g`: zeros with `g` added at the view's positions.
pub(in crate::autodiff) fn view_grad(
    g: &Array,
    layout: &Layout,
    len: usize,
    dtype: DType,
) -> Result<Array> {
    let z = crate::backend::create::full(&[len], Scalar::Int(0), dtype, g.device())?;
    let v = layout.view(&z);
    let g = g.broadcast_to(&layout.shape)?;
    let overlaps = layout
        .shape
        .iter()
        .zip(&layout.strides)
        .any(|(&n, &s)| n > 1 && s == 0);
    if !overlaps {
        crate::backend::index::store_view(&v, &g)?;
        return Ok(z);
    }
    // A broadcast view: every position it repeats adds up.
    let r = v.resolve_index(&[])?;
    let sel = v.selection(&r)?;
    let g = crate::autodiff::arrays::cast(g, dtype)?;
    crate::backend::index::at(&z, &sel, &g, crate::opid::AtOp::Add)?;
    Ok(z)
}

/// The gradient rule named by `add_at` and `subtract_at`: never called, as
/// their write records itself (`Tape::record_write`); it marks them
/// differentiable for help and the gradient walk.
pub fn recorded_by_the_write(
    _: &mut Interp,
    _: &crate::autodiff::GradCall,
) -> Result<Vec<Option<Value>>> {
    Err(crate::Error::internal(
        "an in-place update's gradient comes from its write node",
    ))
}
