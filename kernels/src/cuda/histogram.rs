//! The histogram translation unit (`histogram.cu`) for one dtype of x:
//! `hist_add` (bincount, uniform bins, bins by edges; counts or sums of
//! weights) and `digitize`.

use super::codegen::storage_type;
use crate::dtype::DType;

/// The histogram templates.
pub const HISTOGRAM: &str = include_str!("histogram.cu");
/// The kernel names, in the order the launcher expects.
pub const HISTOGRAM_KERNELS: [&str; 2] = ["hist_add", "digitize"];

/// The translation unit over elements of `d`.
pub fn histogram_source(d: DType) -> String {
    let t = storage_type(d);
    format!(
        "{HISTOGRAM}\n\
extern \"C\" __global__ void hist_add(const {t}* x, const double* w, i64 n, const double* e, i64 nb, int mode, u64* counts, double* sums, int shared) {{ hist_add<{t}>(x, w, n, e, nb, mode, counts, sums, shared); }}\n\
extern \"C\" __global__ void digitize(const {t}* x, i64 n, const double* e, i64 m, int left, int decreasing, i64* out) {{ digitize_n<{t}>(x, n, e, m, left, decreasing, out); }}\n"
    )
}
