//! Indexing loops on host arrays: gathers by element offsets (`x[idx]`,
//! `x[mask]`), stores into a view or at offsets (last write wins for
//! repeated offsets), and the gradient of a gather (repeated offsets add up
//! in index order, in float64).

use crate::array::{Array, Element};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// `out[i] = a's buffer[offsets[i]]` as a new contiguous host array of `shape`.
pub fn gather(a: &Array, offsets: &[usize], shape: Vec<usize>) -> Result<Array> {
    let d = a.host_read()?;
    let data = crate::with_dtype!(a.dtype(), T => {
        let s = T::slice(&d).ok_or_else(|| Error::internal("dtype mismatch in index"))?;
        T::wrap(crate::array::alloc::vec_with(offsets.len(), |i| s.get(offsets[i]).copied().unwrap_or_default())?)
    });
    Ok(Array::from_host(data, shape))
}

/// `dst's buffer[offsets[i]] = src[i]` (`src` host values already broadcast
/// to the selection's shape; cast to `dst`'s dtype). The values are read
/// completely first: they may share the buffer (`x[1:] = x[:-1]`).
pub fn store_offsets(dst: &Array, offsets: impl Iterator<Item = usize>, src: &Array) -> Result<()> {
    crate::with_dtype!(dst.dtype(), T => {
        let vals = src.to_vec::<T>()?;
        let mut d = dst.host_write()?;
        let s = T::slice_mut(&mut d).ok_or_else(|| Error::internal("dtype mismatch in assign"))?;
        for (o, v) in offsets.zip(vals) {
            if let Some(slot) = s.get_mut(o) {
                *slot = v;
            }
        }
    });
    Ok(())
}

/// `view[...] = src`: every element of the view (a view of a host buffer).
pub fn store_view(view: &Array, src: &Array) -> Result<()> {
    store_offsets(view, view.offsets(), src)
}

/// Zeros of `shape` with `g[i]` added at flat position `offsets[i]`
/// (repeated positions add up in index order, in float64), then `dtype`.
pub fn scatter_add(g: &Array, offsets: &[i64], shape: &[usize], dtype: DType) -> Result<Array> {
    let size: usize = shape.iter().product();
    let gv = g.to_f64_vec()?;
    let mut out = crate::array::alloc::vec_with(size, |_| 0.0f64)?;
    for (&o, v) in offsets.iter().zip(gv) {
        if let Some(slot) = out.get_mut(o as usize) {
            *slot += v;
        }
    }
    super::copy::cast(&Array::from_vec(out, shape.to_vec()), dtype)
}
