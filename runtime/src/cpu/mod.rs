//! The CPU backend: every op's loops over host arrays, called by the
//! dispatch layer (`backend/`) for arrays on `cpu(0)`. Like `cuda/`, it
//! depends on the data layer only (arrays and their host buffers, dtypes,
//! errors, the typed fused program, op identities, the Philox stream).

pub mod assemble;
pub mod complex;
pub mod copy;
pub mod create;
pub mod decomp;
pub mod eig;
pub mod fft;
pub mod fused;
pub mod histogram;
pub mod index;
pub mod linalg;
pub mod nanreduce;
pub mod pair;
pub mod pool;
pub mod random;
pub mod random_draws;
pub mod reduce;
pub mod reduce_lane;
pub mod reduce_rows;
pub mod scan;
pub mod select;
pub mod softmax;
pub mod sort;
