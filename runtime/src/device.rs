//! Devices: the CPU and CUDA GPUs by ordinal.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    Cpu,
    Gpu(u32),
}

impl Device {
    pub fn is_gpu(self) -> bool {
        matches!(self, Device::Gpu(_))
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => write!(f, "cpu(0)"),
            Device::Gpu(i) => write!(f, "gpu({i})"),
        }
    }
}
