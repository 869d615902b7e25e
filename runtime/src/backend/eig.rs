//! The general eigendecomposition by device: the CPU through faer; gcalc
//! has no GPU general eigensolver, so a GPU input is a clear error with the fix.

use crate::array::Array;
use crate::cpu;
use crate::device::Device;
use crate::error::{Error, Result};

/// `[w, v]` (or `[w]`) of the square matrices of `a` (see `cpu::eig`).
pub fn eig(a: &Array, vectors: bool, name: &str) -> Result<Vec<Array>> {
    match a.device() {
        Device::Cpu => cpu::eig::eig(a, vectors, name),
        Device::Gpu(i) => Err(Error::device(format!(
            "{name}: the general eigendecomposition runs on the CPU only; a is on gpu({i})"
        ))
        .with_op(name)
        .with_help(format!(
            "compute on the CPU: {name}(a.to(cpu)) (then move real results back with .to(gpu({i})))"
        ))),
    }
}

/// An error naming `fix` when `a` is on a GPU (functions built on the
/// general eigendecomposition, which runs on the CPU only).
pub fn require_cpu(a: &Array, name: &str, fix: &str) -> Result<()> {
    match a.device() {
        Device::Cpu => Ok(()),
        Device::Gpu(i) => Err(Error::device(format!(
            "{name}: runs on the CPU only (through the general eigendecomposition); the input is on gpu({i})"
        ))
        .with_op(name)
        .with_help(format!("compute on the CPU: {fix}"))),
    }
}
