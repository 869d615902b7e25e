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
    let n = checked_numel(shape, T::DTYPE)?;
    v.extend((0..n).map(&mut f));
    Ok(Array::from_vec(v, shape))
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

/// A host buffer of `n` copies of `fill` (`T` any plain element type: an
/// op's keys or scratch), reserved without aborting on failure.
pub fn buffer<T: Clone>(n: usize, fill: T) -> Result<Vec<T>> {
    let bytes = n.checked_mul(std::mem::size_of::<T>().max(1));
    let mut v: Vec<T> = Vec::new();
    if bytes.is_none_or(|b| b > isize::MAX as usize) || v.try_reserve_exact(n).is_err() {
        return Err(Error::new(
            crate::error::ErrorKind::OutOfMemory,
            format!(
                "a work buffer of {n} elements of {} bytes is more than the host can give",
                std::mem::size_of::<T>()
            ),
        )
        .with_help("use a smaller array, or free variables you no longer need"));
    }
    v.resize(n, fill);
    Ok(v)
}

/// An empty vector with room for the elements of `shape`, reserved without
/// aborting: kernels that write every element (through `spare_capacity_mut`)
/// skip the zero fill of `alloc_with`.
pub fn reserve<T: Element>(shape: &[usize]) -> Result<Vec<T>> {
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
