//! The order-statistics translation unit (`select.cu`, radix select) for one
//! dtype: `sel_init`, `sel_hist` and `sel_pick` (few long lanes, several
//! blocks per lane) and `sel_lane` (a block per lane).

use super::codegen::storage_type;
use crate::dtype::DType;

/// The radix-select templates.
pub const SELECT: &str = include_str!("select.cu");
/// The kernel names, in the order the launcher expects.
pub const SELECT_KERNELS: [&str; 4] = ["sel_init", "sel_hist", "sel_pick", "sel_lane"];
/// Ranks found per launch sequence (`SEL_R`).
pub const SELECT_RANKS: usize = 4;
/// Threads per block (`SEL_THREADS`, one per histogram bin).
pub const SELECT_THREADS: u32 = 256;
/// Bytes of one (lane, rank) search state.
pub const SELECT_STATE_BYTES: usize = 16;

/// Bits of the sort key of `d` (8 per pass).
pub fn select_key_bits(d: DType) -> i32 {
    match d {
        DType::Bool => 8,
        DType::Float16 => 16,
        DType::Int32 | DType::Float32 => 32,
        DType::Int64 | DType::Float64 => 64,
        // Complex arrays have no order: refused before a selection is made.
        DType::Complex64 | DType::Complex128 => 64,
    }
}

/// The translation unit over elements of `d`.
pub fn select_source(d: DType) -> String {
    let t = storage_type(d);
    format!(
        "{SELECT}\n\
extern \"C\" __global__ void sel_init(SelState* state, i64 lanes, int nr, i64 r0, i64 r1, i64 r2, i64 r3) {{ select_init(state, lanes, nr, r0, r1, r2, r3); }}\n\
extern \"C\" __global__ void __launch_bounds__(SEL_THREADS) sel_hist(const {t}* x, i64 n, int per_lane, const SelState* state, int nr, unsigned long long* hist, int shift) {{ select_hist<{t}>(x, n, per_lane, state, nr, hist, shift); }}\n\
extern \"C\" __global__ void __launch_bounds__(SEL_THREADS) sel_pick(unsigned long long* hist, SelState* state, int nr, int shift, i64 lanes, {t}* out) {{ select_pick<{t}>(hist, state, nr, shift, lanes, out); }}\n\
extern \"C\" __global__ void __launch_bounds__(SEL_THREADS) sel_lane(const {t}* x, i64 n, int nr, i64 r0, i64 r1, i64 r2, i64 r3, int bits, i64 lanes, {t}* out) {{ select_lane<{t}>(x, n, nr, r0, r1, r2, r3, bits, lanes, out); }}\n"
    )
}
