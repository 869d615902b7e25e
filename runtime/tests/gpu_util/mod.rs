//! Shared by the GPU tests: whether a GPU is usable, skipping visibly when
//! not, and failing instead when GCALC_REQUIRE_GPU=1 (the GPU host's runner);
//! deterministic random test data.

use gcalc_runtime::cuda;

pub fn have_gpu() -> bool {
    if cuda::gpu_count() > 0 && cuda::gpu(0).is_ok() {
        return true;
    }
    if std::env::var("GCALC_REQUIRE_GPU").as_deref() == Ok("1") {
        panic!(
            "GCALC_REQUIRE_GPU=1 but no GPU is usable: {}",
            cuda::why_no_gpu().message
        );
    }
    println!("SKIPPED: no GPU ({})", cuda::why_no_gpu().message);
    false
}

/// Deterministic pseudo-random values in [lo, hi) (an LCG seeded by `seed`).
#[allow(dead_code)]
pub fn data(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}
