//! Indexing by device: gathers and stores through a `Select` (the index
//! arrays read where they are: on a GPU by the kernels, never by the host),
//! stores into a view, the unbuffered `ufunc.at` updates, the positions of
//! a mask's true elements, which selected elements a store keeps when
//! positions repeat (for gradients), and where index arrays and written
//! values must be (host literals go to the GPU; another device is an error).

use crate::array::Array;
use crate::array::select::Select;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::opid::AtOp;
use crate::{cpu, cuda};

/// `x[sel]` as a new contiguous array on x's device.
pub fn gather(x: &Array, sel: &Select) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::index::gather(x, sel),
        Device::Gpu(_) => cuda::index::gather(x, sel),
    }
}

/// The values `op` stores into `dst`: on `dst`'s device. A GPU array takes
/// host values (literals such as `x[0] = 5`) uploaded as they are; values on
/// another device are an error.
pub fn values_for(dst: &Array, src: &Array, op: &str) -> Result<Array> {
    match (dst.device(), src.device()) {
        (Device::Gpu(_), Device::Cpu) => super::to_device(src, dst.device()),
        (a, b) if a != b => Err(Error::device_mismatch(op, a, b)),
        _ => Ok(src.clone()),
    }
}

/// Whether index array `a` may index `x`: on x's device, or on the host
/// (moved to x's GPU). A GPU index for a host array is an error (as
/// PyTorch's): the host would have to wait for the GPU.
pub fn check_index_device(x: &Array, a: &Array) -> Result<()> {
    match (x.device(), a.device()) {
        (Device::Cpu, Device::Gpu(_)) => Err(Error::device(format!(
            "an index on {} cannot index an array on {}",
            a.device(),
            x.device()
        ))
        .with_help("move the index: idx.to(cpu()), or the array: x.to(gpu())")),
        (Device::Gpu(i), Device::Gpu(j)) if i != j => {
            Err(Error::device_mismatch("index", x.device(), a.device()))
        }
        _ => Ok(()),
    }
}

/// Index array `a` where `x`'s kernels read it: on x's device.
pub fn index_values(x: &Array, a: &Array) -> Result<Array> {
    check_index_device(x, a)?;
    match (x.device(), a.device()) {
        (Device::Gpu(_), Device::Cpu) => super::to_device(a, x.device()),
        _ => Ok(a.clone()),
    }
}

/// The C-order flat positions of `mask`'s true elements (1-d int64, on its
/// device). On a GPU the count comes to the host (the result's shape): one
/// wait, 8 bytes.
pub fn nonzero(mask: &Array) -> Result<Array> {
    match mask.device() {
        Device::Cpu => cpu::index::nonzero(mask),
        Device::Gpu(_) => cuda::index::nonzero(mask),
    }
}

/// Check `sel`'s index values now (an error is about to be raised for
/// something NumPy checks after them): read on the host, from a GPU too.
pub fn check_now(sel: &Select) -> Result<()> {
    let mut host = sel.clone();
    for e in &mut host.entries {
        e.values = e.values.to_host()?;
    }
    cpu::index::positions(&host).map(|_| ())
}

/// `view[...] = src` into the view's buffer (`src` broadcast to the view's
/// shape, on its device, cast to its dtype, read completely before any write).
pub fn store_view(view: &Array, src: &Array) -> Result<()> {
    match view.device() {
        Device::Cpu => cpu::index::store_view(view, src),
        Device::Gpu(_) => cuda::index::store_view(view, src),
    }
}

/// `x[sel] = src` (`src` of the selection's shape on x's device, cast to
/// x's dtype); with repeated positions the last value wins, on both
/// devices. No element is written when an index is out of bounds (on a GPU
/// the error comes at the next sync point).
pub fn store(x: &Array, sel: &Select, src: &Array) -> Result<()> {
    match x.device() {
        Device::Cpu => cpu::index::store(x, sel, src),
        Device::Gpu(_) => cuda::index::store(x, sel, src),
    }
}

/// `x[p] = x[p] op src[i]` for every selected position p in order (repeats
/// included), computed in src's dtype and cast to x's. On a GPU by atomics:
/// repeats of one position are combined in no fixed order.
pub fn at(x: &Array, sel: &Select, src: &Array, op: AtOp) -> Result<()> {
    match x.device() {
        Device::Cpu => cpu::index::at(x, sel, src, op),
        Device::Gpu(_) => cuda::index::at(x, sel, src, op),
    }
}

/// For each element of `x[sel]`, whether a store through `sel` keeps it
/// (false where a later element goes to the same position): bool, of the
/// selection's shape, on x's device.
pub fn kept(x: &Array, sel: &Select) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::index::kept(x, sel),
        Device::Gpu(_) => cuda::index::kept(x, sel),
    }
}
