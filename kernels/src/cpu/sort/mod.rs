//! Sorting's inner loops, with no array knowledge: order-preserving integer
//! keys of every element type (`keys`), a stable, parallel LSD radix sort of
//! keys with a payload (`radix`), and an AVX-512 quicksort of 32-bit keys
//! for values-only sorts (`simd`).

pub mod keys;
pub mod radix;
pub mod simd;
