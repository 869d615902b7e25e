//! Counter-based random numbers (Philox 4x32-10): the same sequence for the
//! same seed on every device. The state is a key (the seed) and a counter that
//! every draw advances by the number of 128-bit blocks it used.

/// The session's generator state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    pub key: u64,
    pub counter: u64,
}

impl Default for Rng {
    fn default() -> Rng {
        Rng {
            key: 0x5eed_6ca1c,
            counter: 0,
        }
    }
}
