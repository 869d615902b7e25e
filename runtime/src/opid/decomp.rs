//! The matrix decompositions the backends implement (faer on the CPU,
//! cuSOLVER/cuBLAS on a GPU): `ops/decomp.rs` holds their table entries,
//! `cpu/decomp.rs` and `cuda/solver/` their arms. Every other linear-algebra
//! function (norm, lstsq, pinv, cond, einsum...) is built from these, matmul
//! and the elementwise ops, so it runs on every device.

/// What `qr` returns (NumPy's `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QrMode {
    /// Q (m, k) and R (k, n), k = min(m, n).
    Reduced,
    /// Q (m, m) and R (m, n).
    Complete,
    /// R (k, n) only.
    R,
}

/// A decomposition of a stack of matrices (the last two dims), on one
/// device, of float32 or float64 (checked by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecompOp {
    /// `[a (..., n, n), b (..., n, k)]` -> `[x]` with `a x = b`. `check`:
    /// an exactly singular matrix is an error (else its x is inf/nan).
    Solve { check: bool },
    /// `[a]` -> `[inverse]`; `check` as for `Solve`.
    Inv { check: bool },
    /// `[a]` -> `[det (...)]`: the product of U's diagonal times the
    /// permutation's sign (LAPACK's getrf, as NumPy).
    Det,
    /// `[a]` -> `[sign (...), log|det| (...)]`.
    Slogdet,
    /// `[a]` -> `[L]` (or `[U]` when `upper`) with a = L L^T (= U^T U); an
    /// error when a matrix is not positive definite. Only the lower (upper)
    /// triangle of `a` is read.
    Cholesky { upper: bool },
    /// `[a (..., m, n)]` -> `[q, r]`, or `[r]` for `QrMode::R`.
    Qr { mode: QrMode },
    /// `[a (..., m, n)]` -> `[u, s, vh]` (`uv`; u (m, m) and vh (n, n) when
    /// `full`, else (m, k), (k, n)), or `[s]`; s descending.
    Svd { full: bool, uv: bool },
    /// `[a (..., n, n)]` symmetric -> `[w, v]` (`vectors`) or `[w]`, w
    /// ascending; only the lower (`upper`: upper) triangle is read.
    Eigh { upper: bool, vectors: bool },
}

impl DecompOp {
    /// The LAPACK-style name of the decomposition, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            DecompOp::Solve { .. } => "solve",
            DecompOp::Inv { .. } => "inv",
            DecompOp::Det => "det",
            DecompOp::Slogdet => "slogdet",
            DecompOp::Cholesky { .. } => "cholesky",
            DecompOp::Qr { .. } => "qr",
            DecompOp::Svd { .. } => "svd",
            DecompOp::Eigh { vectors: true, .. } => "eigh",
            DecompOp::Eigh { vectors: false, .. } => "eigvalsh",
        }
    }
}

/// `" (matrix 3 of the stack of shape (5, 4, 4))"` for a stack, `""` for
/// one matrix: where a failing matrix is, for messages.
pub fn which_matrix(i: usize, shape: &[usize]) -> String {
    if shape.len() <= 2 {
        return String::new();
    }
    format!(
        " (matrix {i} of the stack of shape {}, in C order)",
        crate::array::layout::fmt_shape(shape)
    )
}

impl DecompOp {
    /// NumPy's `LinAlgError: Singular matrix`, as gcalc says it (both backends).
    pub fn singular(self, i: usize, shape: &[usize]) -> crate::error::Error {
        let n = shape.last().copied().unwrap_or(0);
        crate::error::Error::value(format!(
            "{}: singular matrix{}: its LU factorization (with partial pivoting) has an exact zero pivot, so a {n}x{n} system has no unique solution",
            self.name(),
            which_matrix(i, shape)
        ))
        .with_op(self.name())
        .with_help(match self {
            DecompOp::Inv { .. } => "use pinv(a) for the pseudo-inverse, or check the matrix (det(a) is 0)",
            _ => "use lstsq(a, b) for a least-squares solution or pinv(a) @ b, or check the matrix (det(a) is 0)",
        })
    }

    /// NumPy's `LinAlgError: Matrix is not positive definite`.
    pub fn not_positive_definite(
        self,
        i: usize,
        shape: &[usize],
        order: usize,
    ) -> crate::error::Error {
        crate::error::Error::value(format!(
            "{}: matrix{} is not positive definite (its leading minor of order {order} is not positive, or holds NaN)",
            self.name(),
            which_matrix(i, shape)
        ))
        .with_op(self.name())
        .with_help("cholesky needs a symmetric positive-definite matrix: check a is symmetric and its eigenvalues (eigvalsh(a)) are > 0, or add a small multiple of the identity (a + 1e-8 * eye(n))")
    }

    /// NumPy's `LinAlgError: SVD did not converge` (and the eigensolver's).
    pub fn no_convergence(self, i: usize, shape: &[usize]) -> crate::error::Error {
        crate::error::Error::value(format!(
            "{}: the iteration did not converge{}",
            self.name(),
            which_matrix(i, shape)
        ))
        .with_op(self.name())
        .with_help("check the matrix for huge or tiny values (scale it), or compute in float64")
    }
}
