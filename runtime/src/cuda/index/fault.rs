//! Index faults on a GPU: an index array read by a kernel may hold a value
//! out of bounds, and the host does not wait to look. The first such value
//! since the last report is kept in a record per device — a device word the
//! kernels claim with atomicCAS (stores and updates do nothing while it is
//! set, so a bad index writes nothing), and a copy in host memory the GPU
//! writes through (mapped, pinned) — which `Gpu::sync` reads after every
//! successful wait: no copy, no extra call. The error then names the value,
//! the axis and its size, as NumPy's does, at that sync point (at once with
//! `launch_blocking`).

use super::super::driver::Gpu;
use crate::array::select::out_of_bounds;
use crate::error::{Error, Result};
use cudarc::driver::{result, sys};
use std::ffi::c_void;

/// The layout of `GcFault` (index_sel.cuh).
#[repr(C)]
struct Record {
    flag: i32,
    pad: i32,
    value: i64,
    axis: i64,
    len: i64,
}

const _: () = assert!(std::mem::size_of::<Record>() == 32);

/// One device's fault record: the device word and the host-mapped copy.
pub struct Fault {
    dev: sys::CUdeviceptr,
    host: *mut Record,
    host_dev: sys::CUdeviceptr,
}

// SAFETY: the pointers are owned by this record for the process's life; the
// host copy is only read after a stream sync and written by one thread.
unsafe impl Send for Fault {}
unsafe impl Sync for Fault {}

impl Fault {
    fn new(g: &Gpu) -> Result<Fault> {
        let size = std::mem::size_of::<Record>();
        // SAFETY: plain allocations on g's bound context; zeroed before use.
        unsafe {
            let dev = result::malloc_sync(size)
                .map_err(|e| g.err(e, "allocating the index fault word"))?;
            result::memset_d8_sync(dev, 0, size)
                .map_err(|e| g.err(e, "clearing the index fault word"))?;
            let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
            let host = result::malloc_host(size, flags)
                .map_err(|e| g.err(e, "allocating the index fault record"))?
                as *mut Record;
            std::ptr::write_volatile(
                host,
                Record {
                    flag: 0,
                    pad: 0,
                    value: 0,
                    axis: 0,
                    len: 0,
                },
            );
            // With unified addressing (every 64-bit process) the host address
            // is the device's too, should the driver not say otherwise.
            let mut host_dev: sys::CUdeviceptr = 0;
            if sys::cuMemHostGetDevicePointer_v2(&mut host_dev, host as *mut c_void, 0)
                .result()
                .is_err()
            {
                host_dev = host as sys::CUdeviceptr;
            }
            Ok(Fault {
                dev,
                host,
                host_dev,
            })
        }
    }

    /// (device word, host record as the device sees it): the kernels' `f`, `h`.
    pub fn ptrs(&self) -> (sys::CUdeviceptr, sys::CUdeviceptr) {
        (self.dev, self.host_dev)
    }

    /// The fault the GPU recorded, if any, cleared for the next one. Call
    /// only after the stream has been waited for.
    pub fn take(&self, g: &Gpu) -> Option<Error> {
        // SAFETY: the GPU's writes are visible after the sync; only this
        // thread writes the host copy.
        let r = unsafe { std::ptr::read_volatile(self.host) };
        if r.flag == 0 {
            return None;
        }
        unsafe {
            std::ptr::write_volatile(&mut (*self.host).flag, 0);
            let _ = sys::cuMemsetD32Async(self.dev, 0, 1, g.stream).result();
        }
        let axis = r.axis.max(0) as usize;
        let len = r.len.max(0) as usize;
        Some(out_of_bounds(r.value, axis, len).with_note(format!(
            "found by {} when the queued work ran: GPU index errors come at the next point that waits (set launch_blocking = true to stop at the statement); the statement's index writes did nothing",
            g.device()
        )))
    }
}

/// GPU `g`'s fault record (made on first use).
pub fn of(g: &Gpu) -> Result<&Fault> {
    if let Some(f) = g.index_fault.get() {
        return Ok(f);
    }
    let f = Fault::new(g)?;
    let _ = g.index_fault.set(f);
    g.index_fault
        .get()
        .ok_or_else(|| Error::internal("index fault record"))
}
