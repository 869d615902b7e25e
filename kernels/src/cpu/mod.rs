//! CPU inner loops with no interpreter knowledge: fast vectorisable math,
//! elementwise block loops (vector/scalar variants) and reduction kernels,
//! compiled for AVX-512 and AVX2+FMA with runtime dispatch.

pub mod argext;
pub mod argreduce;
pub mod ew;
pub mod gemv;
pub mod math;
pub mod math_ext;
pub mod reduce;
pub mod samplers;
pub mod simd;
pub mod softmax;
pub mod sort;
pub mod tile;
