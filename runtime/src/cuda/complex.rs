//! Complex elementwise ops on a GPU.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::{CxArg, CxOp, ReduceOp};

/// A reduction of a complex array on GPU `ordinal`.
pub fn reduce(ordinal: u32, op: ReduceOp, dtype: DType) -> Result<Array> {
    Err(Error::device(format!(
        "`{}` of {dtype} arrays is not available on gpu({ordinal}) yet",
        op.name()
    ))
    .with_help("compute it on the CPU: to(x, cpu)"))
}

/// `op` over `args` broadcast to `shape` on GPU `ordinal`.
pub fn apply(
    ordinal: u32,
    op: CxOp,
    _args: &[CxArg],
    _shape: &[usize],
    out: DType,
) -> Result<Array> {
    Err(Error::device(format!(
        "`{}` on complex arrays ({out}) is not available on gpu({ordinal}) yet",
        op.name()
    ))
    .with_help("compute it on the CPU: to(x, cpu)"))
}
