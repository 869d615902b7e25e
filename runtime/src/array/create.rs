//! STUB (replaced by the arr branch at merge).
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::value::Value;
pub fn value_to_array(_v: &Value, _dtype: Option<DType>, _float_x: DType) -> Result<Array> {
    Err(Error::internal("stub"))
}
