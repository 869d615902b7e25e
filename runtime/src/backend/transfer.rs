//! Moving arrays between devices: the one way arrays change device (`to`,
//! `copyto`, creation and loading with `device=`, host values assigned into
//! a GPU array, a gradient sent back to its input's device).

use crate::array::{Array, Element};
use crate::device::Device;
use crate::error::Result;
use crate::{cpu, cuda};

/// `a` on device `d`: `a` itself when it is already there, else a copy.
pub fn to_device(a: &Array, d: Device) -> Result<Array> {
    if a.device() == d {
        return Ok(a.clone());
    }
    copy_to_device(a, d)
}

/// A fresh contiguous copy of `a` on device `d`, even when it is already there.
pub fn copy_to_device(a: &Array, d: Device) -> Result<Array> {
    match (a.device(), d) {
        (Device::Cpu, Device::Cpu) => cpu::copy::contiguous(a),
        (Device::Gpu(_), Device::Cpu) => {
            // A download is a new contiguous buffer, unless the view was
            // contiguous and came back as it is.
            let h = a.to_host()?;
            if h.shares_buffer(a) {
                let data = crate::with_dtype!(h.dtype(), T => T::wrap(h.to_vec::<T>()?));
                return Ok(Array::from_host(data, h.shape().to_vec()));
            }
            Ok(h)
        }
        (Device::Cpu, Device::Gpu(i)) => cuda::buffer::upload(a, i),
        (Device::Gpu(_), Device::Gpu(i)) => cuda::buffer::device_copy(a, i),
    }
}
