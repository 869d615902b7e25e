//! Device code with no interpreter knowledge: element types, CPU inner loops
//! (SIMD-friendly), and the CUDA C sources and code generator for fused kernels.

pub mod cpu;
pub mod cuda;
pub mod dtype;

pub use dtype::DType;
