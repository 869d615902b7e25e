//! The sorting family by device (`SortJob`: each backend matches every one).

use crate::array::Array;
use crate::device::Device;
use crate::error::Result;
use crate::opid::SortJob;
use crate::{cpu, cuda};

/// Run `job` on the device of its arrays (the caller checked they share one).
pub fn run(job: &SortJob<'_>, device: Device) -> Result<Vec<Array>> {
    match device {
        Device::Cpu => cpu::sort::run(job),
        Device::Gpu(_) => cuda::sort::run(job),
    }
}
