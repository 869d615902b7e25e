//! Typed identities of the op families the backends implement. Each op-table
//! entry of a family carries its identity (`OpKind::Reduce(ReduceOp::Sum)`),
//! and each backend matches it with no wildcard arm, so an op without a CPU
//! or a CUDA arm is a compile error, not a run-time one. Tests iterate
//! `ALL`. A family is one file here; nothing outside the table matches op
//! names as strings (`tidy` checks it).

pub mod assemble;
mod collective;
mod complex;
mod decomp;
mod fft;
mod histogram;
mod index;
mod random;
mod reduce;
mod scan;
mod softmax;
mod sort;

pub use collective::{CollectiveOp, RedKind};
pub use complex::{CxArg, CxOp, CxOut};
pub use decomp::{DecompOp, QrMode};
pub use fft::{FftJob, FftKind, FftNorm};
pub use histogram::BinMode;
pub use index::AtOp;
pub use random::Dist;
pub use reduce::ReduceOp;
pub use scan::ScanOp;
pub use softmax::SoftmaxOp;
pub use sort::{SortJob, SortOp};
