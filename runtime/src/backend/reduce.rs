//! Reductions by device (`ReduceOp`: each backend matches every one).

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::opid::ReduceOp;
use crate::{cpu, cuda};

/// `op` of `a` over the axes marked in `red`, checked by the caller
/// (argmax/argmin take one axis or all; max/min/argmax/argmin lanes are not
/// empty); `keepdims` keeps reduced axes as 1, `ddof` is std/var's.
pub fn reduce(
    op: ReduceOp,
    a: &Array,
    red: &[bool],
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::reduce::reduce(op, a, red, keepdims, ddof, float_x),
        Device::Gpu(_) => cuda::reduce::reduce_op(op, a, red, keepdims, ddof, float_x),
    }
}
