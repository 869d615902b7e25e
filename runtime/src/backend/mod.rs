//! The dispatch layer: the one place that asks "CPU or GPU?".

pub mod storage;

pub mod assemble;
pub mod collective;
pub mod complex;
pub mod copy;
pub mod create;
pub mod custom;
pub mod decomp;
pub mod devices;
pub mod eig;
pub mod elementwise;
pub mod fft;
pub mod histogram;
pub mod index;
pub mod transfer;

pub use transfer::{copy_to_device, to_device};
pub mod linalg;
pub mod random;
pub mod reduce;
pub mod scan;
pub mod select;
pub mod softmax;
pub mod sort;
