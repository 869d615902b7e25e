//! Writes into arrays, as NumPy makes them: `x[idx] = v` (setitem: the
//! value broadcast and cast, whatever the index kind, into x's own buffer),
//! `x[idx] op= v` (buffered: `x[idx] = x[idx] op v`, so a repeated index
//! applies once; in place through a view), `x op= v` (in place when x's
//! buffer is shared, so views see it). A mask with a one-element value is
//! written as `where(mask, v, x)` over the masked view: no wait for how many
//! elements it selects. Every write goes through `write`, which the
//! gradient tape follows (autodiff/writes/). No path writes into a
//! temporary copy.

use super::Interp;
use crate::array::index::{Index, Resolved};
use crate::array::layout::fmt_shape;
use crate::array::select::Select;
use crate::array::{Array, can_cast_same_kind};
use crate::autodiff::writes::WriteKind;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::fuse::{self, EwNode, Operand};
use crate::value::Value;
use gcalc_lang::ast::{BinOp, Expr};

/// `where(mask, ..., view)` of a masked write: the view of x the mask's
/// axes span (the other items applied) and the mask laid over it.
struct MaskPath {
    view: Array,
    mask: Array,
}

impl Interp {
    /// A value written into `like`'s buffer: arrays as they are, numbers and
    /// lists as arrays of like's dtype (cast as NumPy's setitem casts).
    pub(crate) fn to_array_like(&self, v: &Value, like: &Array) -> Result<Array> {
        match v {
            Value::Array(a) => Ok(a.clone()),
            Value::Int(i) if like.dtype() == DType::Int32 && i32::try_from(*i).is_err() => Err(
                Error::value(format!("Python integer {i} out of bounds for int32")).with_help(
                    "the array holds int32: use a smaller value, or astype(int64) first",
                ),
            ),
            other => {
                crate::array::create::value_to_array(other, Some(like.dtype()), self.float_x())
            }
        }
    }

    /// Write `val` (the selection's shape, on x's device) at `sel` of `x`, and
    /// tell the tape: `src` is the value as given, `r` the index (`None`:
    /// all of x).
    fn write(
        &mut self,
        x: &Array,
        r: Option<&Resolved>,
        sel: &Select,
        src: &Array,
        val: &Array,
    ) -> Result<()> {
        let kept = match self.tape.as_ref() {
            Some(t) if t.needs_kept(src, sel.may_repeat()) => {
                Some(crate::backend::index::kept(x, sel)?)
            }
            _ => None,
        };
        if let Some(t) = self.tape.as_mut() {
            t.before_write(x)?;
        }
        x.store(sel, val)?;
        if let Some(t) = self.tape.as_mut() {
            t.record_write(x, r, src, WriteKind::Store, kept);
        }
        Ok(())
    }

    /// Write `r` over all of the view `x`.
    fn write_whole(&mut self, x: &Array, r: &Array) -> Result<()> {
        let all = x.resolve_index(&[])?;
        let sel = x.selection(&all)?;
        let val = x.value_for(&all, &sel, r)?;
        self.write(x, None, &sel, r, &val)
    }

    /// `x[idx] = v`.
    pub(crate) fn assign_index(&mut self, x: &Array, idx: &[Index], v: &Value) -> Result<()> {
        let src = self.to_array_like(v, x)?;
        let src = self.refresh(&src)?;
        if let Some(m) = self.mask_path(x, idx, src.shape(), false)? {
            // A number or list becomes a host array: it goes where x is.
            let src = crate::backend::index::values_for(x, &src, "assign")?;
            let node = where_node(&m, EwNode::Leaf(Operand::Array(src)))?;
            let r = self.eval_tree(node)?.into_array()?;
            return self.write_whole(&m.view, &r);
        }
        let r = x.resolve_index(idx)?;
        let sel = x.selection(&r)?;
        let val = x.value_for(&r, &sel, &src)?;
        self.write(x, Some(&r), &sel, &src, &val)
    }

    /// `x[idx] op= e`: NumPy's `x[idx] = x[idx] op e` (a repeated index
    /// applies once); the result keeps the selection's shape and goes back
    /// in x's dtype (same_kind, or any cast for one element set by integers).
    pub(crate) fn aug_index(
        &mut self,
        x: &Array,
        idx: &[Index],
        op: BinOp,
        value: &Expr,
    ) -> Result<()> {
        let sym = op.symbol();
        let rhs = self.rhs_node(op, value)?;
        let mut rshape = None;
        if let Ok(n) = &rhs {
            fuse::tree_shape(n, &mut rshape)?;
        }
        let rshape = rshape.unwrap_or_default();
        if let (Ok(rhs), Some(m)) = (&rhs, self.mask_path(x, idx, &rshape, true)?) {
            let view = EwNode::Leaf(Operand::Array(m.view.clone()));
            let t = EwNode::Op {
                op: super::eval::binop_def(op)?,
                args: vec![view, rhs.clone()],
            };
            let r = self.eval_tree(where_node(&m, t)?)?.into_array()?;
            same_kind(&r, x, sym)?;
            return self.write_whole(&m.view, &r);
        }
        let xr = self.refresh(x)?;
        let r = xr.resolve_index(idx)?;
        let sel = xr.selection(&r)?;
        let cur = match sel.as_view(&xr) {
            Some(v) if !sel.advanced && !r.scalar => v,
            _ => crate::backend::index::gather(&xr, &sel)?,
        };
        let cur = self.record_index(&xr, &r, cur);
        let result = match rhs {
            Err(rv) => self.matmul_values(Value::Array(cur), rv)?,
            Ok(rhs) => {
                let node = EwNode::Op {
                    op: super::eval::binop_def(op)?,
                    args: vec![EwNode::Leaf(Operand::Array(cur)), rhs],
                };
                super::eval::operand_value(self.eval_tree(node)?)
            }
        };
        let Value::Array(res) = result else {
            return Err(Error::internal(format!("`{sym}=` gave no array")));
        };
        // A bool element takes any one-element result (NumPy reads its truth).
        let res = match r.scalar && x.dtype().is_bool() && res.size() == 1 && res.ndim() > 0 {
            true => res.reshape(&[])?,
            false => res,
        };
        if res.shape() != sel.shape.as_slice() {
            if r.scalar {
                // NumPy reads 0-d index arrays as ints: their bounds come first
                // (on a GPU they are otherwise checked by the kernel, later).
                crate::backend::index::check_now(&sel)?;
                return Err(Error::value(format!(
                    "setting an array element with a sequence: `{sym}=` on one element gave shape {}",
                    fmt_shape(res.shape())
                ))
                .with_help("give one value: v[0] or v.item()"));
            }
            return Err(Error::shape(
                sym,
                format!(
                    "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
                    fmt_shape(&sel.shape),
                    fmt_shape(res.shape())
                ),
            )
            .with_help(format!("the value must broadcast to x[...]'s shape {}", fmt_shape(&sel.shape))));
        }
        if !r.scalar {
            same_kind(&res, x, sym)?;
        }
        let val = crate::backend::index::values_for(x, &res, sym)?;
        self.write(x, Some(&r), &sel, &res, &val)
    }

    /// The right side of `op=`: a fused tree, or (for `@=`) its value.
    fn rhs_node(&mut self, op: BinOp, value: &Expr) -> Result<std::result::Result<EwNode, Value>> {
        if op == BinOp::MatMul {
            return Ok(Err(self.eval(value)?));
        }
        let n = self.ew_node(value)?;
        Ok(Ok(self.array_like_node(n, value.span)?))
    }

    /// `x op= r` where x is an array variable whose buffer others share
    /// (views, other names, the tape): written in place through all of x.
    pub(crate) fn aug_in_place(&mut self, x: &Array, r: &Array) -> Result<()> {
        let x = self.refresh(x)?;
        self.write_whole(&x, r)
    }

    /// A write into an array nothing else holds (`x[[0, 1]][0] = v`: the
    /// advanced index made a copy) would be lost: an error that says so,
    /// where NumPy loses it silently. `what` spells the target.
    pub(crate) fn check_not_temporary(&self, x: &Array, what: &str) -> Result<()> {
        let tape = self.tape.as_ref().map_or(0, |t| t.holds(x));
        if std::sync::Arc::strong_count(x.storage()) > 1 + tape {
            return Ok(());
        }
        Err(Error::value(format!(
            "{what} writes into a temporary array that nothing else holds, so the write would be lost (an advanced index, a copy or a computed result)"
        ))
        .with_help(
            "write through one index (x[idx, j] = v rather than x[idx][j] = v), or name the array first (y = x[idx]; y[j] = v)",
        ))
    }

    /// Whether `x`'s buffer is held only by the variable being updated (and
    /// the value in hand), so `x op= v` may rebind rather than write.
    pub(crate) fn sole_holder(&self, x: &Array) -> bool {
        let tape = self.tape.as_ref().map_or(0, |t| t.holds(x));
        std::sync::Arc::strong_count(x.storage()) <= 2 + tape
    }

    /// The masked view and mask for `x[idx] = v` / `x[idx] op= v` when idx
    /// is one boolean mask (ndim >= 1) among ints, slices and `...`, and the
    /// value has one element: the write is `where(mask, v, view)`.
    fn mask_path(
        &mut self,
        x: &Array,
        idx: &[Index],
        vshape: &[usize],
        aug: bool,
    ) -> Result<Option<MaskPath>> {
        let is_mask =
            |i: &Index| matches!(i, Index::Array(a) if a.dtype() == DType::Bool && a.ndim() > 0);
        let masks: Vec<usize> = (0..idx.len()).filter(|&k| is_mask(&idx[k])).collect();
        let [k] = masks[..] else { return Ok(None) };
        let others_basic = idx.iter().enumerate().all(|(j, i)| {
            j == k || matches!(i, Index::Int(_) | Index::Slice { .. } | Index::Ellipsis)
        });
        if !others_basic || vshape.iter().product::<usize>() != 1 {
            return Ok(None);
        }
        let Index::Array(m) = &idx[k] else {
            return Ok(None);
        };
        let takes = |i: &Index| match i {
            Index::Int(_) | Index::Slice { .. } => 1,
            Index::Array(a) => a.ndim(),
            _ => 0,
        };
        let used: usize = idx.iter().map(takes).sum();
        if used > x.ndim() || crate::backend::index::check_index_device(x, m).is_err() {
            return Ok(None);
        }
        let fill = x.ndim() - used;
        let (mut ax, mut p) = (0, 0);
        for i in &idx[..k] {
            let (a, d) = match i {
                Index::Int(_) => (1, 0),
                Index::Slice { .. } => (1, 1),
                Index::Ellipsis => (fill, fill),
                _ => (0, 0),
            };
            ax += a;
            p += d;
        }
        if m.shape() != &x.shape()[ax..ax + m.ndim()] {
            return Ok(None);
        }
        let whole = idx.len() == 1;
        let view_nd_guess = x.ndim() - idx.iter().filter(|i| matches!(i, Index::Int(_))).count();
        let sel_nd = view_nd_guess - m.ndim() + 1;
        if (whole && !aug && vshape.len() > 1)
            || vshape.len() > view_nd_guess
            || (aug && vshape.len() > sel_nd)
        {
            return Ok(None);
        }
        let mut vidx: Vec<Index> = idx.to_vec();
        vidx.splice(k..k + 1, (0..m.ndim()).map(|_| Index::full()));
        let view = self.index_array(x, &vidx)?;
        let m = crate::backend::index::index_values(x, m)?;
        let mut strides = vec![0isize; view.ndim()];
        strides[p..p + m.ndim()].copy_from_slice(m.strides());
        let mask = m.view(view.shape().to_vec(), strides, m.offset());
        Ok(Some(MaskPath { view, mask }))
    }
}

/// `where(mask, t, view)`.
fn where_node(m: &MaskPath, t: EwNode) -> Result<EwNode> {
    Ok(EwNode::Op {
        op: super::eval::op_named("where")?,
        args: vec![
            EwNode::Leaf(Operand::Array(m.mask.clone())),
            t,
            EwNode::Leaf(Operand::Array(m.view.clone())),
        ],
    })
}

/// NumPy's in-place check: the result of `x op= v` must cast to x's dtype
/// within its kind or up (bool < int < float).
fn same_kind(r: &Array, x: &Array, sym: &str) -> Result<()> {
    if r.dtype() == x.dtype() || can_cast_same_kind(r.dtype(), x.dtype()) {
        return Ok(());
    }
    let bool_note = match (x.dtype(), r.dtype()) {
        (DType::Bool, DType::Int64) => {
            " (bool arrays stay bool only under `+ * | & ^`; other arithmetic gives int64)"
        }
        _ => "",
    };
    Err(Error::dtype(
        sym,
        format!(
            "cannot write the {} result of `{sym}=` into {} array in place{bool_note}",
            r.dtype(),
            crate::error::with_article(x.dtype().name())
        ),
    )
    .with_help(format!(
        "write `x = x {} ...` to make a new array, or astype first",
        sym.trim_end_matches('=')
    )))
}

trait IntoArray {
    fn into_array(self) -> Result<Array>;
}

impl IntoArray for Operand {
    fn into_array(self) -> Result<Array> {
        match self {
            Operand::Array(a) => Ok(a),
            _ => Err(Error::internal("a masked write gave a scalar")),
        }
    }
}
