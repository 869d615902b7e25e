//! The methods of `Array` and `Storage` that depend on where the elements
//! live: the one place that looks inside a `Storage`. Host access is an
//! internal error on a GPU array (callers reach host code only through the
//! dispatch, or after `to_host`).

use crate::array::{Array, HostData, Storage};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::{cpu, cuda};
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

thread_local! {
    static HOST_WRITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Writes into host arrays made on this thread so far (a loop replayed as a
/// CUDA graph must make none: `interp/loop_graph.rs`).
pub fn host_writes() -> u64 {
    HOST_WRITES.with(|c| c.get())
}

impl Storage {
    pub fn device(&self) -> Device {
        match self {
            Storage::Host(_) => Device::Cpu,
            Storage::Cuda(b) => b.device(),
        }
    }
}

impl Array {
    /// Read access to a host buffer.
    pub fn host_read(&self) -> Result<RwLockReadGuard<'_, HostData>> {
        match &**self.storage() {
            Storage::Host(l) => Ok(l.read().unwrap_or_else(|p| p.into_inner())),
            Storage::Cuda(_) => Err(Error::internal("host_read on a GPU array")),
        }
    }
    pub fn host_write(&self) -> Result<RwLockWriteGuard<'_, HostData>> {
        HOST_WRITES.with(|c| c.set(c.get() + 1));
        match &**self.storage() {
            Storage::Host(l) => Ok(l.write().unwrap_or_else(|p| p.into_inner())),
            Storage::Cuda(_) => Err(Error::internal("host_write on a GPU array")),
        }
    }

    /// Which buffer the elements live in: a GPU buffer's device address
    /// (blocks are reused, so a variable rebound to a reused block reads as
    /// the same buffer, as a CUDA graph sees it), a host buffer's storage.
    pub fn buffer_identity(&self) -> u64 {
        match &**self.storage() {
            Storage::Host(_) => std::sync::Arc::as_ptr(self.storage()) as usize as u64,
            Storage::Cuda(b) => b.ptr_at(0),
        }
    }

    /// This array on the host: itself if already there, else a copy (sync point).
    pub fn to_host(&self) -> Result<Array> {
        match &**self.storage() {
            Storage::Host(_) => Ok(self.clone()),
            Storage::Cuda(b) => b.download_view(self),
        }
    }

    /// A C-contiguous array with the same elements: `self` when it already is one
    /// whose view covers its whole buffer from offset 0, else a copy on the same device.
    pub fn contiguous(&self) -> Result<Array> {
        if self.is_contiguous() && self.offset() == 0 && self.buffer_len() == self.size() {
            return Ok(self.clone());
        }
        match &**self.storage() {
            Storage::Host(_) => cpu::copy::contiguous(self),
            Storage::Cuda(_) => cuda::ew::copy(self, self.dtype()),
        }
    }

    /// Number of elements in the underlying buffer.
    pub fn buffer_len(&self) -> usize {
        match &**self.storage() {
            Storage::Host(l) => l.read().map(|d| d.len()).unwrap_or(0),
            Storage::Cuda(b) => b.len(),
        }
    }
}
