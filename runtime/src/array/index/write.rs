//! Writing through an index, as NumPy's setitem: the value broadcast to the
//! selection (extra leading length-1 dims dropped), cast to the array's
//! dtype whatever its kind ("unsafe": float to int truncates, to bool is
//! `!= 0`), NumPy's special cases (one element set by integers takes a
//! scalar; one mask over every axis takes a scalar or a 1-d value), repeated
//! positions written in order (the last wins); and the unbuffered updates
//! of `add_at` and its siblings, where every repeat applies.

use super::Index;
use super::resolve::Resolved;
use crate::array::Array;
use crate::array::layout::fmt_shape;
use crate::array::select::Select;
use crate::backend;
use crate::error::{Error, Result};
use crate::opid::AtOp;

/// A broadcast view (a stride of 0 on an axis longer than 1) cannot be
/// written: one element of the buffer stands for many (NumPy makes such
/// views read-only).
fn check_writable(x: &Array) -> Result<()> {
    if x.shape()
        .iter()
        .zip(x.strides())
        .any(|(&n, &s)| n > 1 && s == 0)
    {
        return Err(Error::value(
            "assignment destination is read-only: the array is a broadcast view, where one element stands for many",
        )
        .with_help("write into a copy: y = x.copy()"));
    }
    Ok(())
}

impl Array {
    /// `x[idx] = src`: written into this array's own buffer (views see it).
    pub fn assign(&self, idx: &[Index], src: &Array) -> Result<()> {
        let r = self.resolve_index(idx)?;
        self.assign_resolved(&r, src)
    }

    /// `x[r] = src` for a resolved index.
    pub fn assign_resolved(&self, r: &Resolved, src: &Array) -> Result<()> {
        let sel = self.selection(r)?;
        let src = self.value_for(r, &sel, src)?;
        self.store(&sel, &src)
    }

    /// What `x[r] = src` stores: `src` with NumPy's setitem rules applied,
    /// broadcast to the selection's shape, on x's device (not yet cast).
    pub fn value_for(&self, r: &Resolved, sel: &Select, src: &Array) -> Result<Array> {
        check_writable(self)?;
        let src = match r.scalar && src.ndim() > 0 {
            // A bool element takes any one-element value (NumPy reads its truth).
            true if self.dtype().is_bool() && src.size() == 1 => src.reshape(&[])?,
            _ => src.clone(),
        };
        let src = &src;
        if r.scalar && src.ndim() > 0 {
            // NumPy takes 0-d index arrays as ints here: their bounds come first.
            backend::index::check_now(sel)?;
            return Err(Error::value(format!(
                "setting an array element with a sequence: the index takes one element, the value has shape {}",
                fmt_shape(src.shape())
            ))
            .with_help("give one value (v[0], v.item()), or index with a slice to write several"));
        }
        if r.whole_mask {
            let count = sel.shape.first().copied().unwrap_or(0);
            match src.ndim() {
                0 => {}
                1 if src.shape()[0] == 1 || src.shape()[0] == count => {}
                1 => {
                    return Err(Error::shape(
                        "assign",
                        format!(
                            "cannot assign {} input values to the {count} output values where the mask is true",
                            src.shape()[0]
                        ),
                    )
                    .with_help("give one value, or as many as the mask has true elements"));
                }
                _ => {
                    return Err(Error::shape(
                        "assign",
                        format!(
                            "boolean mask assignment takes a scalar or a 1-d value; the value has shape {}",
                            fmt_shape(src.shape())
                        ),
                    )
                    .with_help("flatten the value first (v.ravel())"));
                }
            }
        }
        let src = drop_leading_ones(src, sel.shape.len(), sel.advanced)?;
        let src = src.broadcast_to(&sel.shape).map_err(|_| {
            Error::shape(
                "assign",
                format!(
                    "could not broadcast input array from shape {} into shape {}",
                    fmt_shape(src.shape()),
                    fmt_shape(&sel.shape)
                ),
            )
            .with_help("the value's trailing dimensions must equal the selection's, or be 1")
        })?;
        backend::index::values_for(self, &src, "assign")
    }

    /// Store `src` (the selection's shape, on this array's device) at `sel`,
    /// cast to this array's dtype; repeated positions: the last wins.
    pub fn store(&self, sel: &Select, src: &Array) -> Result<()> {
        match sel.as_view(self) {
            Some(v) => backend::index::store_view(&v, src),
            None => backend::index::store(self, sel, src),
        }
    }

    /// NumPy's `ufunc.at` (`add_at(x, idx, v)`): `x[p] = x[p] op v` for every
    /// selected position in order, repeats included, computed in `src`'s
    /// dtype and cast back to x's. `src` broadcasts to the selection.
    pub fn at(&self, r: &Resolved, src: &Array, op: AtOp) -> Result<()> {
        check_writable(self)?;
        let sel = self.selection(r)?;
        let v = src.broadcast_to(&sel.shape).map_err(|_| {
            Error::shape(
                op.name(),
                format!(
                    "the value of shape {} does not broadcast to the selection's shape {}",
                    fmt_shape(src.shape()),
                    fmt_shape(&sel.shape)
                ),
            )
            .with_help(format!("x[idx] has shape {}", fmt_shape(&sel.shape)))
        })?;
        let v = backend::index::values_for(self, &v, op.name())?;
        backend::index::at(self, &sel, &v, op)
    }
}

/// `v` without leading length-1 dims beyond `ndim` (NumPy's setitem drops
/// them). Through an advanced index NumPy reshapes the value to its last
/// `ndim` dims, which also takes an empty value with any leading dims.
fn drop_leading_ones(v: &Array, ndim: usize, advanced: bool) -> Result<Array> {
    let extra = v.ndim().saturating_sub(ndim);
    if advanced && extra > 0 && v.size() == 0 && v.shape()[extra..].contains(&0) {
        let tail: Vec<i64> = v.shape()[extra..].iter().map(|&d| d as i64).collect();
        return v.reshape(&tail);
    }
    let k = v.shape()[..extra].iter().take_while(|&&d| d == 1).count();
    if k == 0 {
        return Ok(v.clone());
    }
    let axes: Vec<i64> = (0..k as i64).collect();
    v.squeeze(Some(&axes))
}
