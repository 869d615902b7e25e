//! The parser's tests, one binary: golden cases, `is_complete`, robustness.

mod complete;
mod parse_cases;
mod resolve;
mod robustness;
