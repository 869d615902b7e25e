//! Shared by the GPU tests: whether a GPU is usable, skipping visibly when
//! not, and failing instead when GCALC_REQUIRE_GPU=1 (the GPU host's runner).

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
