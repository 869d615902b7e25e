//! Copies of host arrays: contiguous copies, dtype casts (NumPy's `astype`:
//! float->int truncates toward zero and saturates, nan -> 0, non-zero ->
//! true), a fresh buffer of the same elements, and concatenation.

use crate::array::{Array, Element};
use crate::dtype::DType;
use crate::error::Result;

/// A C-contiguous copy of host array `a` (any view).
pub fn contiguous(a: &Array) -> Result<Array> {
    cast(a, a.dtype())
}

/// A contiguous copy of host array `a` converted to `dtype`.
pub fn cast(a: &Array, dtype: DType) -> Result<Array> {
    let data = crate::with_dtype!(dtype, T => T::wrap(a.to_vec::<T>()?));
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
