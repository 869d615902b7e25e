//! bincount, histogram and digitize by device (`BinMode`).

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::opid::BinMode;
use crate::{cpu, cuda};

/// Counts (int64) or sums of float64 weights `w` (x's shape and device) of
/// x's elements in `nb` bins by `mode`; `edges` (nb + 1 increasing float64
/// values on x's device) for Uniform and Edges.
pub fn histogram(
    x: &Array,
    w: Option<&Array>,
    edges: Option<&Array>,
    nb: usize,
    mode: BinMode,
) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::histogram::histogram(x, w, edges, nb, mode),
        Device::Gpu(_) => cuda::histogram::histogram(x, w, edges, nb, mode),
    }
}

/// The bin of each element of `x` among float64 edges `e` (increasing; the
/// original edges reversed when `decreasing`), NumPy's digitize: int64.
pub fn digitize(x: &Array, e: &Array, left: bool, decreasing: bool) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::histogram::digitize(x, e, left, decreasing),
        Device::Gpu(_) => cuda::histogram::digitize(x, e, left, decreasing),
    }
}
