//! The random family's identity: the distributions drawn element by element
//! (`exponential bernoulli gamma beta poisson binomial`), defined beside
//! their samplers in the kernels crate (its CUDA source is generated from
//! the same list), matched by `cpu/random_draws.rs` and `cuda/rng_draws.rs`.

pub use gcalc_kernels::cpu::samplers::Dist;
