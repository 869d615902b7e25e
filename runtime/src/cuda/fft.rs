//! FFTs on a GPU.

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::FftJob;

/// `job` over `x` on GPU `ordinal`.
pub fn run(ordinal: u32, _x: &Array, _job: FftJob, _out: DType) -> Result<Array> {
    Err(Error::device(format!(
        "the FFT family is not available on gpu({ordinal}) yet"
    ))
    .with_help("compute it on the CPU: to(x, cpu)"))
}
