//! Complex elementwise ops by device (`opid::CxOp`).

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::opid::{CxArg, CxOp, ReduceOp};
use crate::{cpu, cuda};

/// The device of a complex op's arrays (the CPU when it has none).
fn device(args: &[CxArg]) -> Device {
    args.iter()
        .find_map(|a| match a {
            CxArg::Array(x) => Some(x.device()),
            CxArg::Scalar(..) => None,
        })
        .unwrap_or(Device::Cpu)
}

/// `sum`, `mean` or `prod` of a complex array over the axes marked in `red`.
pub fn reduce(op: ReduceOp, a: &Array, red: &[bool], keepdims: bool) -> Result<Array> {
    match a.device() {
        Device::Cpu => cpu::complex::reduce(op, a, red, keepdims),
        Device::Gpu(_) => cuda::complex::reduce(op, a, red, keepdims),
    }
}

/// `op` over `args` broadcast to `shape`, as a new array of dtype `out`.
pub fn apply(op: CxOp, args: &[CxArg], shape: &[usize], out: DType) -> Result<Array> {
    match device(args) {
        Device::Cpu => cpu::complex::apply(op, args, shape, out),
        Device::Gpu(i) => cuda::complex::apply(i, op, args, shape, out),
    }
}
