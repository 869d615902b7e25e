//! Copies of host arrays: contiguous copies, dtype casts (NumPy's `astype`:
//! float->int truncates toward zero and saturates, nan -> 0, non-zero ->
//! true), a fresh buffer of the same elements, and concatenation.

use crate::array::{Array, Element, alloc, convert};
use crate::dtype::DType;
use crate::error::{Error, Result};
use gcalc_kernels::cpu::tile;
use rayon::prelude::*;

/// A C-contiguous copy of host array `a` (any view).
pub fn contiguous(a: &Array) -> Result<Array> {
    cast(a, a.dtype())
}

/// Views at least this large are copied in parallel bands of their first axis.
const PAR_COPY: usize = 1 << 18;

/// A contiguous copy of host array `a` converted to `dtype` (a strided view
/// through the tiled gather, in bands on rayon when large).
pub fn cast(a: &Array, dtype: DType) -> Result<Array> {
    if a.is_contiguous() || a.size() < PAR_COPY || a.shape()[0] < 2 {
        let data = crate::with_dtype!(dtype, T => T::wrap(a.to_vec::<T>()?));
        return Ok(Array::from_host(data, a.shape()));
    }
    let inner: usize = a.shape()[1..].iter().product();
    let band = (PAR_COPY / 4 / inner.max(1)).max(1);
    let (shape, strides, s0) = (a.shape(), a.strides(), a.strides()[0]);
    let src = a.host_read()?;
    let data = crate::with_dtype!(dtype, T => {
        let mut out = alloc::filled::<T>(shape)?;
        crate::with_dtype!(a.dtype(), S => {
            let d = S::slice(&src).ok_or_else(|| Error::internal("cast: dtype mismatch"))?;
            out.par_chunks_mut(band * inner).enumerate().for_each(|(i, o)| {
                let mut sub = shape.to_vec();
                sub[0] = o.len() / inner;
                let off = a.offset() as isize + (i * band) as isize * s0;
                tile::gather(d, &sub, strides, off as usize, o, convert::<S, T>);
            });
        });
        T::wrap(out)
    });
    Ok(Array::from_host(data, a.shape()))
}

/// Host arrays joined along axis `ax` into `shape` (checked by the caller:
/// every other dim equal), converted to `dtype`.
pub fn concat(arrays: &[Array], ax: usize, shape: &[usize], dtype: DType) -> Result<Array> {
    let outer: usize = shape[..ax].iter().product();
    let data = crate::with_dtype!(dtype, T => {
        let total = crate::array::alloc::checked_numel(shape, dtype)?;
        crate::array::alloc::host_budget(total, dtype, dtype.size())?;
        let parts = arrays.iter().map(|a| a.to_vec::<T>()).collect::<Result<Vec<_>>>()?;
        let mut out: Vec<T> = crate::array::alloc::try_vec(total, &format!("{dtype} elements"))?;
        for o in 0..outer {
            for (a, p) in arrays.iter().zip(&parts) {
                let chunk: usize = a.shape()[ax..].iter().product();
                out.extend_from_slice(&p[o * chunk..(o + 1) * chunk]);
            }
        }
        T::wrap(out)
    });
    Ok(Array::from_host(data, shape.to_vec()))
}
