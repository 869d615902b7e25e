//! Making host arrays: `full` (zeros, ones and the `*_like` builtins).

use crate::array::alloc::alloc_with;
use crate::array::{Array, Scalar};
use crate::dtype::DType;
use crate::error::Result;

/// `shape` filled with `value` as `dtype` (allocation failures are errors).
pub fn full(shape: &[usize], value: Scalar, dtype: DType) -> Result<Array> {
    crate::with_dtype!(dtype, T => { let x: T = value.to_elem(); alloc_with::<T>(shape, |_| x) })
}
