//! How histogram-family kernels find an element's bin.

/// Bincount's index, histogram's uniform bins, or its bins by edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinMode {
    /// The element (a non-negative int) is its bin.
    Index,
    /// Equal bins: NumPy's formula, corrected against the edges.
    Uniform,
    /// Any increasing edges: binary search.
    Edges,
}

impl BinMode {
    /// The CUDA kernel's `mode`.
    pub const fn code(self) -> i32 {
        match self {
            BinMode::Index => 0,
            BinMode::Uniform => 1,
            BinMode::Edges => 2,
        }
    }
}
