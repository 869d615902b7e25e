//! The sorting family's CUDA C (`sort.cu`): keys, the bitonic sort of short
//! lanes, the LSD radix sort of long ones, flag scans, unique, nonzero,
//! searchsorted, isin and the gradient's scatter, instantiated per element
//! dtype as one module with the kernels `KERNELS` names, in that order.

use super::codegen;
use crate::dtype::DType;

/// The template source.
pub const SORT: &str = include_str!("sort.cu");

/// The kernels of a sort module, in the order the backend loads them.
pub const KERNELS: [&str; 20] = [
    "sort_small",
    "radix_keys",
    "radix_hist",
    "radix_scan",
    "radix_scatter",
    "radix_finish",
    "scan_blocks",
    "scan_sums",
    "scan_add",
    "unique_flags",
    "unique_write",
    "unique_counts",
    "unique_inverse",
    "nz_flags",
    "nz_write",
    "ss_keys",
    "ss_search",
    "isin_search",
    "scatter_lanes",
    "radix_hist_all",
];

/// Threads of the radix, scan and block-scan kernels (one digit each).
pub const RADIX_THREADS: u32 = 256;
/// Elements a radix or scan block takes (RADIX_THREADS x 8).
pub const TILE: u32 = 2048;

/// Bytes of the key of `d` on the GPU: 8 for int64/float64, else 4
/// (bool and float16 keys sit in the low bits of a 32-bit word).
pub fn key_bytes(d: DType) -> usize {
    match d {
        DType::Int64 | DType::Float64 => 8,
        _ => 4,
    }
}

/// Radix passes over a key of `d` (one per key byte that can differ).
pub fn key_passes(d: DType) -> u32 {
    match d {
        DType::Bool => 1,
        DType::Float16 => 2,
        DType::Int32 | DType::Float32 => 4,
        DType::Int64 | DType::Float64 => 8,
        // Complex arrays have no order: refused before a sort is made.
        DType::Complex64 | DType::Complex128 => 8,
    }
}

/// The sort module for elements of `d`.
pub fn sort_source(d: DType) -> String {
    let t = codegen::storage_type(d);
    let k = if key_bytes(d) == 8 { "u64" } else { "u32" };
    format!(
        "{SORT}\n\
extern \"C\" __global__ void sort_small(const {t}* x, u32 rows, u32 n, u32 P, int desc, int canon, {t}* vals, i64* idx, u32 keep) {{ sort_small_t<{t}>(x, rows, n, P, desc, canon, vals, idx, keep); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) radix_keys(const {t}* x, u32 N, int desc, int canon, {k}* keys, u32* pos, u64* diff) {{ radix_keys_t<{t}>(x, N, desc, canon, keys, pos, diff); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) radix_hist(const {k}* keys, const u32* pos, u32 N, int pass, int kpasses, u32 n, u32* counts) {{ radix_hist_t<{k}>(keys, pos, N, pass, kpasses, n, counts); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) radix_scan(u32* counts, u32 nb, u32* totals) {{ radix_scan_t(counts, nb, totals); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) radix_scatter(const {k}* kin, const u32* pin, {k}* kout, u32* pout, u32 N, int pass, int kpasses, u32 n, const u32* counts, const u32* totals, u32* status, u32* counter) {{ radix_scatter_t<{k}>(kin, pin, kout, pout, N, pass, kpasses, n, counts, totals, status, counter); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) radix_hist_all(const {k}* keys, u32 N, int kpasses, int passes, u32 n, u32* hist) {{ radix_hist_all_t<{k}>(keys, N, kpasses, passes, n, hist); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) radix_finish(const {k}* keys, const u32* pos, u32 N, u32 n, u32 keep, int desc, int gather, const {t}* x, {t}* vals, i64* idx) {{ radix_finish_t<{t}>(keys, pos, N, n, keep, desc, gather, x, vals, idx); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) scan_blocks(const u32* in, u32 N, u32* out, u32* sums) {{ scan_blocks_t(in, N, out, sums); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) scan_sums(u32* sums, u32 nb) {{ scan_sums_t(sums, nb); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) scan_add(u32* out, u32 N, const u32* sums) {{ scan_add_t(out, N, sums); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) unique_flags(const {k}* keys, u32 N, int equal_nan, u32* flags) {{ unique_flags_t<{t}>(keys, N, equal_nan, flags); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) unique_write(const {k}* keys, const u32* pos, const u32* g, u32 N, const {t}* x, {t}* vals, u32* starts, i64* index) {{ unique_write_t<{t}>(keys, pos, g, N, x, vals, starts, index); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) unique_counts(const u32* starts, u32 m, u32 N, i64* counts) {{ unique_counts_t(starts, m, N, counts); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) unique_inverse(const u32* pos, const u32* g, u32 N, i64* inv) {{ unique_inverse_t(pos, g, N, inv); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) nz_flags(const {t}* x, u32 N, u32* flags) {{ nz_flags_t<{t}>(x, N, flags); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) nz_write(const u32* g, u32 N, u32 count, const i64* dims, int ndim, int flat, i64* out) {{ nz_write_t(g, N, count, dims, ndim, flat, out); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) ss_keys(const {t}* a, u32 m, const i64* sorter, {k}* keys) {{ ss_keys_t<{t}>(a, m, sorter, keys); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) ss_search(const {k}* keys, u32 m, const {t}* v, u32 nv, int right, i64* out) {{ ss_search_t<{t}>(keys, m, v, nv, right, out); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) isin_search(const {k}* keys, u32 m, const {t}* x, u32 nx, int invert, bool* out) {{ isin_search_t<{t}>(keys, m, x, nx, invert, out); }}\n\
extern \"C\" __global__ void __launch_bounds__(256) scatter_lanes(const {t}* g, const i64* idx, u32 total, u32 k, u32 n, {t}* out) {{ scatter_lanes_t<{t}>(g, idx, total, k, n, out); }}\n"
    )
}

/// Every sort module (one per dtype), named, for the NVRTC test.
pub fn sources() -> Vec<(String, String)> {
    DType::ALL
        .into_iter()
        .map(|d| (format!("sort {d}"), sort_source(d)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_is_defined_once() {
        let src = sort_source(DType::Float32);
        for k in KERNELS {
            let def = format!(" {k}(");
            assert_eq!(src.matches(&def).count(), 1, "{k}");
        }
        assert_eq!(TILE, RADIX_THREADS * 8);
    }
}
