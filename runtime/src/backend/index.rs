//! Indexing by device: gathers by element offsets, stores into a view or at
//! offsets, the values an assignment stores (host literals go to the GPU;
//! another device is an error), and the scatter-add of a gather's gradient.
//! The offsets are worked out on the host from the index values.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::{cpu, cuda};

/// `out[i] = a's buffer[offsets[i]]` as a new contiguous array of `shape` on `a`'s device.
pub fn gather(a: &Array, offsets: &[usize], shape: Vec<usize>) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::index::gather(a, offsets, shape),
        Device::Gpu(_) => cuda::index::gather(a, offsets, shape),
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

/// `view[...] = src` into the view's buffer (`src` broadcast to the view's
/// shape, on its device, read completely before any write).
pub fn store_view(view: &Array, src: &Array) -> Result<()> {
    match view.device() {
        Device::Cpu => cpu::index::store_view(view, src),
        Device::Gpu(_) => cuda::index::store_view(view, src),
    }
}

/// `dst's buffer[offsets[i]] = src[i]` (`src` broadcast to the selection's
/// shape, on `dst`'s device); with repeated offsets the last value wins.
pub fn store_offsets(dst: &Array, offsets: &[usize], src: &Array) -> Result<()> {
    match dst.device() {
        Device::Cpu => cpu::index::store_offsets(dst, offsets.iter().copied(), src),
        Device::Gpu(_) => cuda::index::store_offsets(dst, offsets, src),
    }
}

/// The gradient of a gather: zeros of `shape` with `g[i]` added at flat
/// position `offsets[i]` (repeated positions add up in index order, in
/// float64), as `dtype`, on `g`'s device.
pub fn scatter_add(g: &Array, offsets: &[i64], shape: &[usize], dtype: DType) -> Result<Array> {
    match g.device() {
        Device::Cpu => cpu::index::scatter_add(g, offsets, shape, dtype),
        Device::Gpu(_) => cuda::index::scatter_add(g, offsets, shape, dtype),
    }
}
