//! Host arrays allocated without aborting: element counts checked against
//! what could ever fit, buffers reserved fallibly (an error, not an abort,
//! when the host cannot give the memory), and loaders' data checked.

use super::layout::fmt_shape;
use super::{Array, Element, HostData};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Number of elements of `shape`, or a clear error when the array could never be allocated.
pub fn checked_numel(shape: &[usize], dtype: DType) -> Result<usize> {
    let too_big = || {
        Error::new(
            crate::error::ErrorKind::OutOfMemory,
            format!(
                "array of shape {} and dtype {dtype} is too large to allocate",
                fmt_shape(shape)
            ),
        )
        .with_help("use a smaller shape")
    };
    let mut n: usize = 1;
    for &d in shape {
        n = n.checked_mul(d).ok_or_else(too_big)?;
    }
    let bytes = n.checked_mul(dtype.size()).ok_or_else(too_big)?;
    if bytes > isize::MAX as usize {
        return Err(too_big());
    }
    Ok(n)
}

/// A host buffer of `n` elements made by `f(i)`, allocated without aborting on failure.
pub fn alloc_with<T: Element>(shape: &[usize], mut f: impl FnMut(usize) -> T) -> Result<Array> {
    let mut v = reserve::<T>(shape)?;
    v.extend((0..checked_numel(shape, T::DTYPE)?).map(&mut f));
    Ok(Array::from_vec(v, shape))
}

/// A vector of `shape`'s element count of default values (to be overwritten),
/// allocated without aborting on failure.
pub fn filled<T: Element>(shape: &[usize]) -> Result<Vec<T>> {
    let n = checked_numel(shape, T::DTYPE)?;
    let mut v = reserve::<T>(shape)?;
    v.resize(n, T::default());
    Ok(v)
}

/// An empty vector with room for `shape`'s elements, or a clear error.
fn reserve<T: Element>(shape: &[usize]) -> Result<Vec<T>> {
    let n = checked_numel(shape, T::DTYPE)?;
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Error::new(
            crate::error::ErrorKind::OutOfMemory,
            format!(
                "array of shape {} needs {} bytes, more than the host can give",
                fmt_shape(shape),
                n.saturating_mul(T::DTYPE.size())
            ),
        )
        .with_help("use a smaller shape, or free variables you no longer need")
    })?;
    Ok(v)
}

/// A host array made from raw data after checking the length (used by loaders).
pub fn from_host_checked(data: HostData, shape: Vec<usize>) -> Result<Array> {
    let n = checked_numel(&shape, data.dtype())?;
    if n != data.len() {
        return Err(Error::internal(format!(
            "{} elements for shape {}",
            data.len(),
            fmt_shape(&shape)
        )));
    }
    Ok(Array::from_host(data, shape))
}
