//! Matrix decompositions by device (`DecompOp`: faer on the CPU, cuSOLVER
//! and cuBLAS on a GPU; each backend matches every op).

use crate::array::Array;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::opid::DecompOp;
use crate::{cpu, cuda};

/// `op` on `inputs` (one device, one float dtype, equal batch dims, checked
/// by the caller); the outputs in the op's order (see `DecompOp`).
pub fn run(op: DecompOp, inputs: &[Array]) -> Result<Vec<Array>> {
    let first = inputs
        .first()
        .ok_or_else(|| Error::internal("decomposition without inputs"))?;
    match first.device() {
        Device::Cpu => cpu::decomp::run(op, inputs),
        Device::Gpu(_) => cuda::solver::run(op, inputs),
    }
}

/// Why GPU decompositions cannot run here (libcusolver missing), if so; the
/// error `op` gives on a GPU array (tests read it without a GPU).
pub fn gpu_library_error(op: &str) -> Option<Error> {
    cuda::solver::library_error(op)
}
