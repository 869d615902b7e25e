//! Shape operations: reshape, transpose, squeeze, expand_dims, ravel/flatten,
//! concat, stack, broadcast_to, astype, copy. Views where NumPy gives views.

use super::create::checked_numel;
use super::layout::{broadcast_strides_dims, contiguous_strides_dims, fmt_shape};
use super::{Array, Dims, Strides};
use crate::backend;
use crate::dtype::{DType, promote};
use crate::error::{Error, Result};

/// A possibly negative axis made positive for an array of `ndim` dimensions.
pub fn norm_axis(axis: i64, ndim: usize, op: &str) -> Result<usize> {
    let n = ndim as i64;
    let a = if axis < 0 { axis + n } else { axis };
    if a < 0 || a >= n {
        return Err(Error::new(
            crate::error::ErrorKind::Index,
            format!("axis {axis} is out of bounds for array of dimension {ndim}"),
        )
        .with_op(op)
        .with_help(format!("axes go from {} to {}", -n, n - 1)));
    }
    Ok(a as usize)
}

impl Array {
    /// The same elements in a new shape (one entry may be -1). A view when the
    /// array is C-contiguous, else a copy.
    pub fn reshape(&self, shape: &[i64]) -> Result<Array> {
        let size = self.size();
        let bad = || {
            Error::shape(
                "reshape",
                format!(
                    "cannot reshape array of size {size} into shape {}",
                    fmt_ishape(shape)
                ),
            )
            .with_help(
                "the new shape must have the same number of elements; one dimension may be -1",
            )
        };
        let mut known: usize = 1;
        let mut infer = None;
        for (i, &d) in shape.iter().enumerate() {
            if d == -1 && infer.is_none() {
                infer = Some(i);
            } else if d < 0 {
                return Err(bad());
            } else {
                known = known.checked_mul(d as usize).ok_or_else(bad)?;
            }
        }
        let mut out: Dims = shape.iter().map(|&d| d.max(0) as usize).collect();
        if let Some(i) = infer {
            if known == 0 || !size.is_multiple_of(known) {
                return Err(bad());
            }
            out[i] = size / known;
        } else if known != size {
            return Err(bad());
        }
        let strides = contiguous_strides_dims(&out);
        if self.is_contiguous() {
            return Ok(self.view(out, strides, self.offset()));
        }
        let src = self.contiguous()?;
        Ok(src.view(out, strides, src.offset()))
    }

    /// Permute the axes (reverse them when `axes` is `None`). A view.
    pub fn transpose(&self, axes: Option<&[i64]>) -> Result<Array> {
        let n = self.ndim();
        let perm: Vec<usize> = match axes {
            None => (0..n).rev().collect(),
            Some(ax) => {
                if ax.len() != n {
                    return Err(Error::value(format!(
                        "transpose: axes {} don't match array of dimension {n}",
                        fmt_ishape(ax)
                    ))
                    .with_help("give one axis for each dimension, e.g. transpose(x, (1, 0))"));
                }
                let p = ax
                    .iter()
                    .map(|&a| norm_axis(a, n, "transpose"))
                    .collect::<Result<Vec<_>>>()?;
                let mut seen = vec![false; n];
                for &a in &p {
                    if std::mem::replace(&mut seen[a], true) {
                        return Err(Error::value("transpose: repeated axis in transpose")
                            .with_help("each axis must appear exactly once"));
                    }
                }
                p
            }
        };
        let shape: Dims = perm.iter().map(|&a| self.shape()[a]).collect();
        let strides: Strides = perm.iter().map(|&a| self.strides()[a]).collect();
        Ok(self.view(shape, strides, self.offset()))
    }

    /// `x.T`: the axes reversed.
    pub fn t(&self) -> Array {
        let shape: Dims = self.shape().iter().rev().copied().collect();
        let strides: Strides = self.strides().iter().rev().copied().collect();
        self.view(shape, strides, self.offset())
    }

    /// Remove axes of length one (all of them, or those in `axes`). A view.
    pub fn squeeze(&self, axes: Option<&[i64]>) -> Result<Array> {
        let n = self.ndim();
        let drop: Vec<bool> = match axes {
            None => self.shape().iter().map(|&d| d == 1).collect(),
            Some(ax) => {
                let mut drop = vec![false; n];
                for &a in ax {
                    let a = norm_axis(a, n, "squeeze")?;
                    if self.shape()[a] != 1 {
                        return Err(Error::value(format!(
                            "squeeze: cannot select an axis to squeeze out which has size not equal to one (axis {a} has size {})",
                            self.shape()[a]
                        ))
                        .with_help("only axes of length 1 can be squeezed"));
                    }
                    drop[a] = true;
                }
                drop
            }
        };
        let keep = (0..n).filter(|&i| !drop[i]);
        let shape: Dims = keep.clone().map(|i| self.shape()[i]).collect();
        let strides: Strides = keep.map(|i| self.strides()[i]).collect();
        Ok(self.view(shape, strides, self.offset()))
    }

    /// Insert an axis of length one at `axis` (in the result's numbering). A view.
    pub fn expand_dims(&self, axis: i64) -> Result<Array> {
        let a = norm_axis(axis, self.ndim() + 1, "expand_dims")?;
        let mut shape = Dims::from_slice(self.shape());
        let mut strides = Strides::from_slice(self.strides());
        shape.insert(a, 1);
        strides.insert(a, 0);
        Ok(self.view(shape, strides, self.offset()))
    }

    /// A 1-d view when contiguous, else a 1-d copy.
    pub fn ravel(&self) -> Result<Array> {
        self.reshape(&[-1])
    }

    /// A 1-d copy (always a copy, as NumPy's flatten).
    pub fn flatten(&self) -> Result<Array> {
        self.copy()?.reshape(&[-1])
    }

    /// A new contiguous buffer with the same elements, on the same device.
    pub fn copy(&self) -> Result<Array> {
        backend::copy_to_device(self, self.device())
    }

    /// A view of this array as `shape` following NumPy's broadcasting (zero strides).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Array> {
        let ok = self.ndim() <= shape.len()
            && self
                .shape()
                .iter()
                .rev()
                .zip(shape.iter().rev())
                .all(|(&a, &b)| a == b || a == 1);
        if !ok {
            return Err(Error::shape(
                "broadcast_to",
                format!(
                    "cannot broadcast an array of shape {} to shape {}",
                    fmt_shape(self.shape()),
                    fmt_shape(shape)
                ),
            )
            .with_help("trailing dimensions must be equal or 1"));
        }
        let strides = broadcast_strides_dims(self.shape(), self.strides(), shape);
        Ok(self.view(shape, strides, self.offset()))
    }

    /// A copy converted to `dtype` as NumPy's `astype` (float->int truncates
    /// toward zero and saturates; nan -> 0; anything non-zero -> true).
    pub fn astype(&self, dtype: DType) -> Result<Array> {
        if dtype == self.dtype() {
            return self.copy();
        }
        backend::copy::cast(self, dtype)
    }

    /// Join arrays along an existing axis (their dtypes promoted).
    pub fn concat(arrays: &[Array], axis: i64) -> Result<Array> {
        let first = arrays.first().ok_or_else(|| {
            Error::value("concat: need at least one array to concatenate")
                .with_help("e.g. concat([a, b], axis=0)")
        })?;
        if first.ndim() == 0 {
            return Err(
                Error::value("concat: zero-dimensional arrays cannot be concatenated")
                    .with_help("use stack, or reshape them to 1-d first"),
            );
        }
        let ax = norm_axis(axis, first.ndim(), "concat")?;
        let mut dtype = first.dtype();
        let mut total: usize = 0;
        for (i, a) in arrays.iter().enumerate() {
            same_device(first, a, "concat")?;
            let fits = a.ndim() == first.ndim()
                && (0..a.ndim()).all(|d| d == ax || a.shape()[d] == first.shape()[d]);
            if !fits {
                return Err(Error::shape(
                    "concat",
                    format!(
                        "all the input array dimensions except for the concatenation axis must match exactly, but array 0 has shape {} and array {i} has shape {}",
                        fmt_shape(first.shape()),
                        fmt_shape(a.shape())
                    ),
                )
                .with_help("reshape or transpose the arrays so that they line up"));
            }
            dtype = promote(dtype, a.dtype());
            total = total
                .checked_add(a.shape()[ax])
                .ok_or_else(|| Error::value("concat: result too large"))?;
        }
        let mut shape = first.shape().to_vec();
        shape[ax] = total;
        checked_numel(&shape, dtype)?;
        backend::copy::concat(arrays, ax, &shape, dtype)
    }

    /// Join arrays of one shape along a new axis.
    pub fn stack(arrays: &[Array], axis: i64) -> Result<Array> {
        let first = arrays.first().ok_or_else(|| {
            Error::value("stack: need at least one array to stack")
                .with_help("e.g. stack([a, b], axis=0)")
        })?;
        let ax = norm_axis(axis, first.ndim() + 1, "stack")?;
        let mut parts = Vec::with_capacity(arrays.len());
        for (i, a) in arrays.iter().enumerate() {
            if a.shape() != first.shape() {
                return Err(Error::shape(
                    "stack",
                    format!(
                        "all input arrays must have the same shape, but array 0 has shape {} and array {i} has shape {}",
                        fmt_shape(first.shape()),
                        fmt_shape(a.shape())
                    ),
                )
                .with_help("use concat to join arrays of different lengths"));
            }
            parts.push(a.expand_dims(ax as i64)?);
        }
        Array::concat(&parts, ax as i64)
    }
}

pub(crate) fn same_device(a: &Array, b: &Array, op: &str) -> Result<()> {
    if a.device() != b.device() {
        return Err(Error::device_mismatch(op, a.device(), b.device()));
    }
    Ok(())
}

/// `(2, -1)` style text of a requested shape.
pub fn fmt_ishape(s: &[i64]) -> String {
    super::layout::fmt_dims(s)
}
