//! Builtins of the language itself (printing, loops, timing, help) and of
//! devices; array operations live in `ops`.

pub mod constants;
pub mod cuda_module;
pub mod device;
pub mod help;
pub mod index_tricks;
pub mod lang;
pub mod np_types;
pub mod printing;
pub mod pyobjects;
pub mod python;
pub mod torch_methods;
