//! STUB (replaced by the arr branch at merge).
use crate::array::Array;
use crate::error::{Error, Result};
pub enum Index {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    Ellipsis,
    Array(Array),
}
impl Array {
    pub fn index(&self, _idx: &[Index]) -> Result<Array> {
        Err(Error::internal("stub"))
    }
    pub fn assign(&self, _idx: &[Index], _src: &Array) -> Result<()> {
        Err(Error::internal("stub"))
    }
}
