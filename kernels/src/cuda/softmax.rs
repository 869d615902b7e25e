//! The softmax translation unit (`softmax.cu`) for one float dtype and mode
//! (0 softmax, 1 log_softmax, 2 logsumexp): `sm_block` (a block per lane of
//! the last axis), `sm_warp` (a warp per short lane), `sm_cols` (a thread per
//! lane of a middle axis).

use super::codegen::storage_type;
use crate::dtype::DType;

/// The softmax templates.
pub const SOFTMAX: &str = include_str!("softmax.cu");

/// Elements of a lane each thread of `sm_block` holds in registers (`SM_ITEMS`).
pub const SOFTMAX_ITEMS: usize = 16;

/// The kernel names, in the order the launcher expects.
pub const SOFTMAX_KERNELS: [&str; 3] = ["sm_block", "sm_warp", "sm_cols"];

/// The translation unit over float dtype `d` for `mode`.
pub fn softmax_source(d: DType, mode: i32) -> String {
    let t = storage_type(d);
    let a = if d == DType::Float64 {
        "double"
    } else {
        "float"
    };
    format!(
        "{SOFTMAX}\n\
extern \"C\" __global__ void __launch_bounds__(1024) sm_block(const {t}* x, {t}* out, i64 n) {{ softmax_block<{t}, {a}, {mode}>(x, out, n); }}\n\
extern \"C\" __global__ void sm_warp(const {t}* x, {t}* out, i64 lanes, i64 n) {{ softmax_warp<{t}, {a}, {mode}>(x, out, lanes, n); }}\n\
extern \"C\" __global__ void sm_cols(const {t}* x, {t}* out, i64 outer, i64 n, i64 inner) {{ softmax_cols<{t}, {a}, {mode}>(x, out, outer, n, inner); }}\n"
    )
}
