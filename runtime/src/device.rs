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
    /// The device as a number: 0 the CPU, 1 + i gpu(i) (keys, packed records).
    pub fn code(self) -> u32 {
        match self {
            Device::Cpu => 0,
            Device::Gpu(i) => i.saturating_add(1),
        }
    }
    /// The device `code` gave.
    pub fn from_code(c: u32) -> Device {
        match c {
            0 => Device::Cpu,
            c => Device::Gpu(c - 1),
        }
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

/// A memory size as `devices()`, `mem()` and out-of-memory errors show it.
pub fn fmt_bytes(b: usize) -> String {
    let b = b as f64;
    if b >= 1024.0 * 1024.0 * 1024.0 {
        format!("{:.2} GiB", b / (1024.0 * 1024.0 * 1024.0))
    } else if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{b} B")
    }
}
