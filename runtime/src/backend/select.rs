//! Order statistics by device: the elements of given ranks of every lane
//! (the base of median, percentile, quantile and their gradients).

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::{cpu, cuda};

/// The elements of ranks `ranks` (each below the axis length, checked by
/// the caller) of every lane of `a` along `axis`, in NumPy's sort order (NaN
/// last): shape `[ranks.len()] + a's shape without axis`, a's dtype.
pub fn select(a: &Array, axis: usize, ranks: &[usize]) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::select::select(a, axis, ranks),
        Device::Gpu(_) => cuda::select::select(a, axis, ranks),
    }
}
