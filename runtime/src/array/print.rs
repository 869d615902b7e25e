//! STUB (replaced by the arr branch at merge).
use crate::array::Array;
use crate::error::Result;
pub fn format_array(a: &Array) -> Result<String> {
    Ok(format!("{:?}", a.to_f64_vec()?))
}
pub fn repr(a: &Array) -> String {
    format_array(a).unwrap_or_default()
}
pub fn format_html(a: &Array) -> Result<String> {
    format_array(a)
}
