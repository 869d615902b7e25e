//! Indexing as NumPy does it. Ints, slices, `newaxis` and `...` give views
//! of the same buffer; integer arrays, boolean masks, 0-d booleans and 0-d
//! integer arrays (advanced indices) give copies; an element taken by an
//! integer for every axis is a copy too (NumPy's scalar). Three steps:
//! `resolve` (normal form, masks to positions), `plan` (a `Select` over the
//! array's layout), then the backend gathers or stores (`write.rs` for
//! assignment: broadcasting, casting, NumPy's special cases). Index arrays
//! stay on the array's device: the host reads only ints, slices and, for a
//! mask, how many elements it selects.

mod plan;
pub mod resolve;
mod write;

pub use resolve::{Item, Resolved};

use super::Array;
use crate::array::select::Select;
use crate::backend;
use crate::error::{Error, Result};

/// One entry of `x[...]`.
#[derive(Clone, Debug)]
pub enum Index {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    Ellipsis,
    /// An integer array (any shape, 0-d too) or a boolean mask (0-d too).
    Array(Array),
}

impl Index {
    /// `:` (the whole axis).
    pub fn full() -> Index {
        Index::Slice {
            start: None,
            stop: None,
            step: None,
        }
    }
}

/// start, length and step of a slice over an axis of length `len`, as Python clamps them.
pub fn slice_range(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: usize,
) -> Result<(usize, usize, i64)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(
            Error::value("slice step cannot be zero").with_help("use a step like 1, 2 or -1")
        );
    }
    let (n, st) = (len as i128, step as i128);
    let (lower, upper) = if st > 0 { (0, n) } else { (-1, n - 1) };
    let adjust = |v: Option<i64>, default: i128| match v {
        None => default,
        Some(v) => {
            let v = v as i128;
            if v < 0 {
                (v + n).max(lower)
            } else {
                v.min(upper)
            }
        }
    };
    let b = adjust(start, if st > 0 { lower } else { upper });
    let e = adjust(stop, if st > 0 { upper } else { lower });
    let count = if st > 0 && b < e {
        (e - b - 1) / st + 1
    } else if st < 0 && e < b {
        (b - e - 1) / (-st) + 1
    } else {
        0
    };
    Ok((
        if count == 0 { 0 } else { b as usize },
        count as usize,
        step,
    ))
}

impl Array {
    /// `x[idx]`: a view for ints/slices/newaxis/ellipsis, a copy for an
    /// advanced index or one element taken by integers (as NumPy).
    pub fn index(&self, idx: &[Index]) -> Result<Array> {
        let r = self.resolve_index(idx)?;
        self.index_resolved(&r)
    }

    /// `idx` in normal form for this array (see `resolve`).
    pub fn resolve_index(&self, idx: &[Index]) -> Result<Resolved> {
        resolve::resolve(self, idx)
    }

    /// Where `r` selects in this array's buffer.
    pub fn selection(&self, r: &Resolved) -> Result<Select> {
        plan::select(self.shape(), self.strides(), self.offset(), r)
    }

    /// `x[r]` for a resolved index.
    pub fn index_resolved(&self, r: &Resolved) -> Result<Array> {
        let sel = self.selection(r)?;
        match sel.as_view(self) {
            Some(v) if !sel.advanced && !r.scalar => Ok(v),
            _ => {
                super::create::checked_numel(&sel.shape, self.dtype())?;
                backend::index::gather(self, &sel)
            }
        }
    }
}

/// The selection `r` makes in any view of `shape`/`strides` from `offset`
/// (the gradient of `x[r]` uses a contiguous layout of x's shape).
pub fn select_in(
    shape: &[usize],
    strides: &[isize],
    offset: usize,
    r: &Resolved,
) -> Result<Select> {
    plan::select(shape, strides, offset, r)
}

/// Write `v` into every element of `a` (in place, its own buffer).
pub fn fill<T: super::Element>(a: &Array, v: T) -> Result<()> {
    a.assign(&[], &Array::scalar(v))
}
