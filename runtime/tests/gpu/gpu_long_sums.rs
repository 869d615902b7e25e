//! Long float32 sums on a GPU (issue 24: on the CPU `ones(10**9) @
//! ones(10**9)` gave 268435460.0, float32 chains stopping at 2^24 terms).
//! Reading the kernels: gcalc's gemv kernels (kernels/src/cuda/gemv.cu) take
//! a reduction longer than 8192 only with 1024+ (dot) or 4096+ (axpy)
//! outputs, so a thread's float32 chain is at most len/128 or len/64 terms,
//! far from 2^24 within any GPU's memory; longer reductions over few
//! outputs (a 1-D dot) go to cuBLAS, and sums accumulate in float64. These
//! tests check each path counts every term. About 9 GiB of GPU memory.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

use crate::gpu_session::ok;
use crate::gpu_util::have_gpu;

#[test]
fn long_float32_dots_gemvs_and_sums_count_every_term() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Flags::default(), Box::new(Captured::default()));
    ok(&mut s, "set device = gpu(0)");
    // A 1-D dot of 10^9 (cuBLAS), sums of as many (float64 accumulation),
    // fused and not.
    ok(&mut s, "x = ones(10**9)");
    // cuBLAS's sdot accumulates in float32 in a tree: 1000004224.0 on an H100
    // (66 ulps, 4e-6 relative; PyTorch gives the same), not a stall near 2^24
    // or 2^28 as a serial float32 chain would.
    let d: f64 = ok(&mut s, "(x @ x).item()").parse().expect("a float");
    assert!((d - 1e9).abs() / 1e9 < 1e-5, "{d}");
    assert_eq!(ok(&mut s, "sum(x).item()"), "1000000000.0");
    assert_eq!(ok(&mut s, "sum(x * 2).item()"), "2000000000.0");
    ok(&mut s, "x = none");
    // Few outputs, long rows (cuBLAS); many outputs (gcalc's dot and axpy kernels).
    assert_eq!(
        ok(&mut s, "(ones((2, 2**28)) @ ones(2**28)).tolist()"),
        "[268435456.0, 268435456.0]"
    );
    assert_eq!(
        ok(
            &mut s,
            "a = ones((2048, 2**20)) @ ones(2**20); (a.min().item(), a.max().item())"
        ),
        "(1048576.0, 1048576.0)"
    );
    assert_eq!(
        ok(
            &mut s,
            "a = ones(2**19) @ ones((2**19, 4096)); (a.min().item(), a.max().item())"
        ),
        "(524288.0, 524288.0)"
    );
    // Random data against float64.
    ok(&mut s, "seed(3); a = rand(2**27); b = rand(2**27)");
    assert_eq!(
        ok(
            &mut s,
            "r = (a.astype(float64) @ b.astype(float64)).item(); abs((a @ b).item() - r) / r < 1e-5"
        ),
        "true"
    );
}
