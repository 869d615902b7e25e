//! Assembly by device: the remap gather (`pad roll tile repeat take
//! take_along_axis`), the adjoint of an axis map (their gradients) and
//! `put_along_axis`'s in-place writes.

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::opid::assemble::{Remap, Segments};
use crate::{cpu, cuda};

/// `out[c] = src[map_0(c_0), ...]` (or a fill), a new contiguous array on
/// `src`'s device. Index arrays in `m` are on that device too.
pub fn remap(src: &Array, m: &Remap) -> Result<Array> {
    match src.device() {
        Device::Cpu => cpu::assemble::remap(src, m),
        Device::Gpu(_) => cuda::assemble::remap(src, m),
    }
}

/// Float `g`'s axis `axis` summed by segments into `seg.n` coordinates, on
/// `g`'s device (fixed order, float64 sums, rounded once).
pub fn axis_sum(g: &Array, axis: usize, seg: &Segments) -> Result<Array> {
    match g.device() {
        Device::Cpu => cpu::assemble::axis_sum(g, axis, seg),
        Device::Gpu(_) => cuda::assemble::axis_sum(g, axis, seg),
    }
}

/// Write `vals[p]` at `arr`'s coordinates of `p` with `idx[p]` on `axis`
/// (all on `arr`'s device; see `cpu::assemble::put_along`).
pub fn put_along(arr: &Array, idx: &Array, vals: &Array, axis: usize) -> Result<()> {
    match arr.device() {
        Device::Cpu => cpu::assemble::put_along(arr, idx, vals, axis),
        Device::Gpu(_) => cuda::assemble::put_along(arr, idx, vals, axis),
    }
}
