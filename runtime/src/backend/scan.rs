//! Scans by device (`ScanOp`: each backend implements every one), and the
//! gradient of cummax/cummin.

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::opid::ScanOp;
use crate::{cpu, cuda};

/// `op` along `axis` of `a` (checked by the caller), from the end of the
/// axis back when `reverse`; in `op.out_dtype(a.dtype())`.
pub fn scan(op: ScanOp, a: &Array, axis: usize, reverse: bool) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::scan::scan(op, a, axis, reverse),
        Device::Gpu(_) => cuda::scan::scan(op, a, axis, reverse),
    }
}

/// The gradient of `y = cummax(x, axis)` (or cummin) for upstream `g`, all
/// three of one shape on one device: each `g[j]` goes to the last element
/// at or before `j` that set the running value.
pub fn extreme_backward(x: &Array, y: &Array, g: &Array, axis: usize) -> Result<Array> {
    match x.device() {
        Device::Cpu => cpu::scan::extreme_backward(x, y, g, axis),
        Device::Gpu(_) => cuda::scan::extreme_backward(x, y, g, axis),
    }
}
