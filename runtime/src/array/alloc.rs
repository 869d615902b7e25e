//! Host arrays allocated without aborting: element counts checked against
//! what could ever fit, requests checked against the host's memory budget
//! (`host_limits`: available memory, the process's limits, the session's
//! `host_memory` setting) before any byte is taken, buffers reserved
//! fallibly (an error, not an abort, when the host cannot give the memory),
//! and loaders' data checked. Every array-sized host buffer is made here.

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

/// Requests smaller than this are not checked against the budget (the
/// check reads `/proc`; malloc's own failure still comes back as an error).
const CHECKED_FROM: u64 = 4 << 20;

/// The host's out-of-memory error, in the GPU's shape: what was asked for
/// (`count` items of `what`, `need` bytes) and what the host has left.
pub fn host_oom(count: usize, what: &str, need: u64) -> Error {
    let have = match crate::host_limits::room() {
        Some((b, why)) => format!("the host has {} available to gcalc ({why})", fmt_bytes(b)),
        None => "the host could not give it".into(),
    };
    Error::new(
        crate::error::ErrorKind::OutOfMemory,
        format!(
            "{HOST_OOM}: this statement asked for {count} {what} ({}); {have}",
            fmt_bytes(need)
        ),
    )
    .with_help(crate::host_limits::RAISE_HELP)
}

/// How every host out-of-memory message starts (the session adds the
/// largest host variables to errors that start so).
pub const HOST_OOM: &str = "the host (cpu) is out of memory";

fn fmt_bytes(b: u64) -> String {
    crate::device::fmt_bytes(usize::try_from(b).unwrap_or(usize::MAX))
}

/// Check that `count` items of `size` bytes each (`what` names them:
/// "float32 elements") fit the host's memory budget, before allocating.
pub fn check_budget(count: usize, size: usize, what: &str) -> Result<()> {
    let need = (count as u64).saturating_mul(size as u64);
    if need < CHECKED_FROM {
        return Ok(());
    }
    match crate::host_limits::available() {
        Some(have) if need > have => Err(host_oom(count, what, need)),
        _ => Ok(()),
    }
}

/// `n` elements of `dtype`, plus `extra` bytes of temporaries per element,
/// fit the host's budget (an out-of-memory error when not).
pub fn host_budget(n: usize, dtype: DType, extra: usize) -> Result<()> {
    let what = if extra == 0 {
        format!("{dtype} elements")
    } else {
        format!("{dtype} elements with their working space")
    };
    check_budget(n, dtype.size() + extra, &what)
}

/// An empty vector with room for `n` items of `T`, checked against the
/// budget and reserved fallibly; `what` names the items in the error.
pub fn try_vec<T>(n: usize, what: &str) -> Result<Vec<T>> {
    let size = std::mem::size_of::<T>().max(1);
    check_budget(n, size, what)?;
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| host_oom(n, what, (n as u64).saturating_mul(size as u64)))?;
    Ok(v)
}

/// A vector of `n` elements of `T` made by `f(i)`, allocated without
/// aborting, filled in chunks with a look at the interrupt flag between them.
pub fn vec_with<T: Element>(n: usize, mut f: impl FnMut(usize) -> T) -> Result<Vec<T>> {
    const CHUNK: usize = 1 << 22;
    let mut v = try_vec::<T>(n, &format!("{} elements", T::DTYPE))?;
    let stop = crate::interrupt::Stop::current();
    for a in (0..n).step_by(CHUNK) {
        stop.check()?;
        v.extend((a..(a + CHUNK).min(n)).map(&mut f));
    }
    Ok(v)
}

/// A host buffer of `n` elements made by `f(i)`, allocated without aborting on failure.
pub fn alloc_with<T: Element>(shape: &[usize], f: impl FnMut(usize) -> T) -> Result<Array> {
    let n = checked_numel(shape, T::DTYPE)?;
    Ok(Array::from_vec(vec_with(n, f)?, shape))
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
/// op's keys or scratch), checked against the budget and reserved without
/// aborting on failure.
pub fn buffer<T: Clone>(n: usize, fill: T) -> Result<Vec<T>> {
    let mut v = try_vec::<T>(n, "work-buffer items")?;
    v.resize(n, fill);
    Ok(v)
}

/// An empty vector with room for the elements of `shape`, checked against
/// the budget and reserved without aborting: kernels that write every
/// element (through `spare_capacity_mut`) skip the zero fill of `alloc_with`.
pub fn reserve<T: Element>(shape: &[usize]) -> Result<Vec<T>> {
    let n = checked_numel(shape, T::DTYPE)?;
    try_vec(n, &format!("{} elements", T::DTYPE))
}
