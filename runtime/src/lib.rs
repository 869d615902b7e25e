//! The gcalc engine: the `Session` every front-end drives, the interpreter,
//! values, flags, arrays, devices, the op table, and the CPU and CUDA backends.

pub mod array;
pub mod cuda;
pub mod device;
pub mod error;
pub mod flags;
pub mod interp;
pub mod ops;
pub mod output;
pub mod random;
pub mod value;

pub use array::{Array, Element, HostData};
pub use device::Device;
pub use error::{Error, ErrorKind, Result};
pub use gcalc_kernels::dtype;
pub use gcalc_kernels::dtype::DType;
pub use value::Value;
