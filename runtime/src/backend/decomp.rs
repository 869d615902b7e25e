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
        // Empty matrices have nothing to factor (and cuSOLVER writes no
        // info for n = 0): the host's rules give the results (det's 1.0s,
        // empty factors), placed on the GPU.
        dev @ Device::Gpu(_) if inputs.iter().any(|a| a.size() == 0) => {
            let host = inputs
                .iter()
                .map(|a| a.to_host())
                .collect::<Result<Vec<_>>>()?;
            cpu::decomp::run(op, &host)?
                .iter()
                .map(|r| super::to_device(r, dev))
                .collect()
        }
        Device::Gpu(_) => cuda::solver::run(op, inputs),
    }
}

/// Why GPU decompositions cannot run here (libcusolver missing), if so; the
/// error `op` gives on a GPU array (tests read it without a GPU).
pub fn gpu_library_error(op: &str) -> Option<Error> {
    cuda::solver::library_error(op)
}
