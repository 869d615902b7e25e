//! The GPU tests, one binary (backend, ops, indexing, NumPy-differential
//! suites, sessions, the sorting family, profiler, benchmark, poisoned context, and every kernel
//! source compiled with NVRTC, which needs no GPU). They skip
//! visibly without a GPU and fail instead when GCALC_REQUIRE_GPU=1. The poison test runs its body in a child
//! process of this binary, since a poisoned CUDA context stays poisoned for
//! the process.

mod gpu_arrutil;
mod gpu_assemble;
mod gpu_backend;
mod gpu_bench;
mod gpu_collective;
mod gpu_ew_grad;
mod gpu_fft;
mod gpu_index;
mod gpu_index_writes;
mod gpu_linalg;
mod gpu_long_sums;
mod gpu_loop_graphs;
mod gpu_np_names;
mod gpu_nparr;
mod gpu_npmath;
mod gpu_numpy_diff;
mod gpu_nvrtc;
mod gpu_ops;
mod gpu_poison;
mod gpu_profile;
mod gpu_pyhabits;
mod gpu_random_draws;
mod gpu_rng_generator;
mod gpu_session;
mod gpu_signal;
mod gpu_sort;
mod gpu_stats;
mod gpu_util;
#[path = "../core/grad_assemble.rs"]
mod grad_assemble;
#[path = "../core/grad_index_forms.rs"]
mod grad_index_forms;
#[path = "../core/grad_util.rs"]
mod grad_util;
#[path = "../core/numpy_side.rs"]
mod numpy_side;
#[path = "../profile/profile_util.rs"]
mod profile_util;
