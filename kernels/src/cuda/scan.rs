//! The scan translation unit (`scan.cu`): cumsum/cumprod/cummax/cummin and
//! the segmented reverse sum of cummax's gradient, instantiated per (kind,
//! input dtype, output dtype) with six kernels: `sc_warp` (a warp per short
//! lane), `sc_one` (one pass over long lanes, 8-byte running values),
//! `sc_reduce`/`sc_carry`/`sc_tile` (reduce-then-scan of the longest lanes
//! and of the segmented sum) and `sc_cols` (a thread per lane of a middle axis).

use super::codegen::storage_type;
use crate::dtype::DType;

/// The scan templates.
pub const SCAN: &str = include_str!("scan.cu");

/// What a scan computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanKind {
    Sum,
    Prod,
    Max,
    Min,
    /// The gradient of cummax/cummin, scanned from the end (inputs: g, x, y).
    SegSumRev,
}

impl ScanKind {
    /// The kernel names, in the order the launcher expects.
    pub const KERNELS: [&'static str; 6] = [
        "sc_warp",
        "sc_reduce",
        "sc_carry",
        "sc_tile",
        "sc_cols",
        "sc_one",
    ];
    /// Every kind.
    pub const ALL: [ScanKind; 5] = [
        ScanKind::Sum,
        ScanKind::Prod,
        ScanKind::Max,
        ScanKind::Min,
        ScanKind::SegSumRev,
    ];
}

/// Elements per tile of the reduce-then-scan kernels (`SC_TILE`).
pub const SCAN_TILE: usize = 512 * 8;
/// Longest lane (in tiles) for the one-pass kernel `sc_one`, whose carries
/// cost each block a read of every earlier tile's total.
pub const SCAN_ONE_TILES: usize = 4096;
/// Threads per block of the tile kernels (`SC_THREADS`).
pub const SCAN_THREADS: u32 = 512;

/// Bytes of the running value of `kind` over elements of `d` (the partials' size).
pub fn scan_acc_bytes(kind: ScanKind) -> usize {
    match kind {
        ScanKind::SegSumRev => 16,
        _ => 8,
    }
}

/// The translation unit of `kind` reading `d` and writing `out` (for
/// SegSumRev, `d` = `out`, a float type).
pub fn scan_source(kind: ScanKind, d: DType, out: DType) -> String {
    let t = storage_type(d);
    let o = storage_type(out);
    let a = if d.is_float() { "double" } else { "long long" };
    let p = match kind {
        ScanKind::Sum => format!("Plain<{t}, {a}, ScAdd, {o}>"),
        ScanKind::Prod => format!("Plain<{t}, {a}, ScMul, {o}>"),
        ScanKind::Max => format!("Plain<{t}, {a}, ScMax, {o}>"),
        ScanKind::Min => format!("Plain<{t}, {a}, ScMin, {o}>"),
        ScanKind::SegSumRev => format!("SegRev<{t}>"),
    };
    let acc = if kind == ScanKind::SegSumRev {
        "Seg"
    } else {
        a
    };
    // The one-pass kernel exists for 8-byte running values only.
    let one = if scan_acc_bytes(kind) == 8 {
        format!("scan_one<{t}, {o}, P>(x, a1, a2, partial, flags, counter, out, n, tiles, rev);")
    } else {
        String::new()
    };
    format!(
        "{SCAN}\ntypedef {p} P;\n\
extern \"C\" __global__ void sc_warp(const {t}* x, const {t}* a1, const {t}* a2, {o}* out, i64 lanes, i64 n, int rev) {{ scan_warp<{t}, {o}, P>(x, a1, a2, out, lanes, n, rev); }}\n\
extern \"C\" __global__ void __launch_bounds__(SC_THREADS) sc_reduce(const {t}* x, const {t}* a1, const {t}* a2, {acc}* partial, i64 n, i64 tiles, int rev) {{ scan_reduce<{t}, {o}, P>(x, a1, a2, partial, n, tiles, rev); }}\n\
extern \"C\" __global__ void __launch_bounds__(SC_THREADS) sc_carry({acc}* partial, i64 tiles) {{ scan_carry<P>(partial, tiles); }}\n\
extern \"C\" __global__ void __launch_bounds__(SC_THREADS) sc_tile(const {t}* x, const {t}* a1, const {t}* a2, const {acc}* partial, {o}* out, i64 n, i64 tiles, int rev) {{ scan_tile<{t}, {o}, P>(x, a1, a2, partial, out, n, tiles, rev); }}\n\
extern \"C\" __global__ void __launch_bounds__(SC_THREADS) sc_one(const {t}* x, const {t}* a1, const {t}* a2, {acc}* partial, int* flags, unsigned long long* counter, {o}* out, i64 n, i64 tiles, int rev) {{ {one} }}\n\
extern \"C\" __global__ void sc_cols(const {t}* x, const {t}* a1, const {t}* a2, {o}* out, i64 outer, i64 n, i64 inner, int rev) {{ scan_cols<{t}, {o}, P>(x, a1, a2, out, outer, n, inner, rev); }}\n"
    )
}
