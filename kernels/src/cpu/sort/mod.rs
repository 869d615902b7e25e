//! Sorting's inner loops, with no array knowledge: order-preserving integer
//! keys of every element type (`keys`) and a stable, parallel LSD radix
//! sort of keys with a payload (`radix`).

pub mod keys;
pub mod radix;
