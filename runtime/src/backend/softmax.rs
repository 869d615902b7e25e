//! softmax, log_softmax and logsumexp by device (`SoftmaxOp`).

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::opid::SoftmaxOp;
use crate::{cpu, cuda};

/// `op` of float array `a` along `axis` (checked by the caller): softmax and
/// log_softmax keep the shape, logsumexp drops the axis.
pub fn softmax(op: SoftmaxOp, a: &Array, axis: usize) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::softmax::softmax(op, a, axis),
        Device::Gpu(_) => cuda::softmax::softmax(op, a, axis),
    }
}
