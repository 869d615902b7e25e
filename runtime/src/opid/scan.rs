//! The scans: `cumsum cumprod cummax cummin` (NumPy's `add.accumulate`,
//! `multiply.accumulate`, `maximum.accumulate`, `minimum.accumulate`), and the
//! dtype rule both backends read.

use crate::dtype::DType;

/// A running combination along one axis (`ops/scan.rs` holds the entries,
/// `cpu/scan.rs` and `cuda/scan.rs` their arms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanOp {
    Cumsum,
    Cumprod,
    Cummax,
    Cummin,
}

impl ScanOp {
    /// Every scan, in table order.
    pub const ALL: &'static [ScanOp] = &[
        ScanOp::Cumsum,
        ScanOp::Cumprod,
        ScanOp::Cummax,
        ScanOp::Cummin,
    ];

    /// The op-table name (`cumsum`).
    pub const fn name(self) -> &'static str {
        match self {
            ScanOp::Cumsum => "cumsum",
            ScanOp::Cumprod => "cumprod",
            ScanOp::Cummax => "cummax",
            ScanOp::Cummin => "cummin",
        }
    }
}

impl ScanOp {
    /// NumPy's result dtype: sums and products of ints and bools are int64,
    /// of floats the float type; running max/min keep the dtype.
    pub fn out_dtype(self, d: DType) -> DType {
        match self {
            ScanOp::Cumsum | ScanOp::Cumprod if !d.is_float() => DType::Int64,
            _ => d,
        }
    }
}
