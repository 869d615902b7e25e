//! The gcalc engine: the `Session` every front-end drives, the interpreter,
//! values, flags, arrays, devices, the op table, and the CPU and CUDA backends.

pub mod array;
pub mod autodiff;
pub mod backend;
pub mod builtins;
pub mod complete;
pub mod containers;
pub mod cpu;
pub mod cuda;
pub mod device;
pub mod display;
pub mod error;
pub mod flags;
pub mod fused;
pub mod fxhash;
pub mod help;
pub mod hints;
pub mod host_limits;
pub mod interp;
pub mod interrupt;
pub mod ipython;
pub mod nested;
pub mod npy;
pub mod opid;
pub mod ops;
pub mod output;
pub mod plot;
pub mod profile;
pub mod pyformat;
pub mod random;
pub mod safe_write;
pub mod session;
pub mod source;
pub mod value;

pub use array::{Array, Element, HostData};
pub use complete::Completion;
pub use device::Device;
pub use error::{Error, ErrorKind, Result};
pub use flags::Flags;
pub use gcalc_kernels::dtype;
pub use gcalc_kernels::dtype::DType;
pub use output::{DisplayData, Output};
pub use session::{ExecError, ExecOutcome, InterruptHandle, Session, VarInfo};
pub use value::Value;
