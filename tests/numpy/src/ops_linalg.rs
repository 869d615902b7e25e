//! The linear-algebra rows of the function table (issue 18) and the
//! matrices they draw: well-conditioned square, symmetric positive
//! definite, symmetric, ill-conditioned (U diag(s) V with a chosen
//! condition number), exactly singular, low-rank, right-hand sides shaped
//! after another argument, and arrays whose dims are named by letters
//! (`Arg::Labeled`, for einsum, inner, tensordot). Decompositions are
//! compared through invariants (reconstruction, orthogonality, values,
//! |R|), never raw factors, with `Tol::Norm` (a tolerance scaled by the
//! array's largest magnitude and, for ill-conditioned rows, the condition).

use crate::lit::{ArrayLit, DType, Data, FLOATS, NUMERIC, Scalar};
use crate::ops::{Arg, FnSpec};
use crate::outcome::Tol;
use crate::rng::Rng;

/// What kind of matrix (or companion array) an `Arg::Matrix` draws. Batch
/// dims (0 to 2, sizes 0 to 3) come before the last two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatKind {
    /// Square, diagonally dominant: condition number about 10.
    Square,
    /// Symmetric positive definite (b b^T + n I).
    Spd,
    /// Symmetric with a negative first diagonal entry: never positive definite.
    Indefinite,
    /// Symmetric, random.
    Symmetric,
    /// m x n, random entries.
    General,
    /// m x n with a boosted diagonal: singular values well away from zero.
    WellRect,
    /// Square with condition number 10^e (U diag(s) V, s log-spaced).
    Ill(u8),
    /// Square with a zero column: exactly singular in any LU with partial
    /// pivoting (a row copied is not: GEMM kernels may round its two
    /// copies differently).
    Singular,
    /// m x n of rank below min(m, n): a product of small integer matrices (exact).
    LowRank,
    /// solve's b for argument `of` (n x n): (n,) or (batch..., n, k).
    Rhs { of: usize },
    /// lstsq's b for argument `of` (m x n, no batch): (m,) or (m, k).
    Rows { of: usize },
    /// A stack of 3-vectors (sometimes 2-vectors) for cross.
    Vectors,
}

/// An array of `dtype` for `kind`, shaped after earlier arguments where needed.
pub fn matrix(rng: &mut Rng, dtype: DType, kind: MatKind, shapes: &[Vec<usize>]) -> ArrayLit {
    let batch = batch_dims(rng);
    let dim = |rng: &mut Rng| rng.range(0, 5) as usize;
    let (shape, vals): (Vec<usize>, Vec<f64>) = match kind {
        MatKind::Rhs { of } => {
            let a = shapes.get(of).cloned().unwrap_or_default();
            let n = a.last().copied().unwrap_or(0);
            let shape = match rng.chance(40) {
                true => vec![n],
                false => {
                    let mut s = a[..a.len().saturating_sub(2)].to_vec();
                    s.extend([n, rng.range(0, 3) as usize]);
                    s
                }
            };
            let v = random_values(rng, shape.iter().product(), dtype);
            (shape, v)
        }
        MatKind::Rows { of } => {
            let m = shapes.get(of).and_then(|s| s.first().copied()).unwrap_or(0);
            let shape = match rng.chance(50) {
                true => vec![m],
                false => vec![m, rng.range(0, 3) as usize],
            };
            let v = random_values(rng, shape.iter().product(), dtype);
            (shape, v)
        }
        MatKind::Vectors => {
            let mut s = batch;
            // 3-vectors only: NumPy 2.0 deprecated 2-vectors and 2.5 refuses
            // them, so the oracle's answer depends on its version (gcalc
            // keeps NumPy 2.4's: see cross in docs/LANGUAGE-REFERENCE.md).
            s.push(3);
            let v = random_values(rng, s.iter().product(), dtype);
            (s, v)
        }
        _ => {
            let (m, n) = match kind {
                MatKind::General | MatKind::WellRect | MatKind::LowRank => (dim(rng), dim(rng)),
                _ => {
                    let n = dim(rng);
                    (n, n)
                }
            };
            let count: usize = batch.iter().product();
            let mut v = Vec::with_capacity(count * m * n);
            for _ in 0..count {
                v.extend(one_matrix(rng, dtype, kind, m, n));
            }
            let mut s = batch;
            s.extend([m, n]);
            (s, v)
        }
    };
    let values = vals
        .into_iter()
        .map(|x| match dtype {
            DType::Float32 => Scalar::Float(x as f32 as f64),
            DType::Float64 => Scalar::Float(x),
            DType::Bool => Scalar::Bool(x != 0.0),
            DType::Int32 | DType::Int64 => Scalar::Int(x.round() as i64),
        })
        .collect();
    ArrayLit {
        dtype,
        shape,
        values,
    }
}

fn batch_dims(rng: &mut Rng) -> Vec<usize> {
    let nd = rng.weighted(&[50, 35, 15]);
    (0..nd)
        .map(|_| {
            if rng.chance(10) {
                0
            } else {
                rng.range(1, 3) as usize
            }
        })
        .collect()
}

/// A uniform value in (-1, 1).
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

/// Random values: small integers for int dtypes, floats in (-4, 4) otherwise.
fn random_values(rng: &mut Rng, n: usize, dtype: DType) -> Vec<f64> {
    (0..n)
        .map(|_| match dtype {
            DType::Int32 | DType::Int64 => rng.range(-5, 5) as f64,
            _ => unit(rng) * 4.0,
        })
        .collect()
}

/// One m x n matrix of `kind`, row-major.
fn one_matrix(rng: &mut Rng, dtype: DType, kind: MatKind, m: usize, n: usize) -> Vec<f64> {
    let int = matches!(dtype, DType::Int32 | DType::Int64);
    let r = |rng: &mut Rng| {
        if int {
            rng.range(-3, 3) as f64
        } else {
            unit(rng)
        }
    };
    let mut a = vec![0.0; m * n];
    match kind {
        MatKind::Square | MatKind::WellRect => {
            for i in 0..m {
                for j in 0..n {
                    a[i * n + j] = r(rng) + if i == j { 4.0 + n as f64 } else { 0.0 };
                }
            }
        }
        MatKind::General => a = random_values(rng, m * n, dtype),
        MatKind::Spd | MatKind::Symmetric | MatKind::Indefinite => {
            let b: Vec<f64> = (0..n * n).map(|_| r(rng)).collect();
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = match kind {
                        MatKind::Spd => {
                            (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<f64>()
                                + if i == j { n as f64 } else { 0.0 }
                        }
                        _ => b[i * n + j] + b[j * n + i],
                    };
                }
            }
            if kind == MatKind::Indefinite && n > 0 {
                a[0] = -1.0 - a[0].abs();
            }
        }
        MatKind::Ill(e) => a = ill(rng, n, e),
        MatKind::Singular => {
            a = random_values(rng, n * n, dtype);
            if n > 0 {
                let j = rng.below(n);
                for i in 0..n {
                    a[i * n + j] = 0.0;
                }
            }
        }
        MatKind::LowRank => {
            let k = m.min(n).saturating_sub(1);
            let b: Vec<f64> = (0..m * k).map(|_| rng.range(-3, 3) as f64).collect();
            let c: Vec<f64> = (0..k * n).map(|_| rng.range(-3, 3) as f64).collect();
            for i in 0..m {
                for j in 0..n {
                    a[i * n + j] = (0..k).map(|t| b[i * k + t] * c[t * n + j]).sum();
                }
            }
        }
        MatKind::Rhs { .. } | MatKind::Rows { .. } | MatKind::Vectors => {}
    }
    a
}

/// H1 diag(s) H2 with Householder reflections H and s from 1 down to 10^-e.
fn ill(rng: &mut Rng, n: usize, e: u8) -> Vec<f64> {
    let house = |rng: &mut Rng| {
        let v: Vec<f64> = (0..n).map(|_| unit(rng)).collect();
        let vv: f64 = v.iter().map(|x| x * x).sum::<f64>().max(1e-300);
        let mut h = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                h[i * n + j] = if i == j { 1.0 } else { 0.0 } - 2.0 * v[i] * v[j] / vv;
            }
        }
        h
    };
    let (h1, h2) = (house(rng), house(rng));
    let s: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(-(e as f64) * i as f64 / (n.max(2) - 1) as f64))
        .collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = (0..n).map(|k| h1[i * n + k] * s[k] * h2[k * n + j]).sum();
        }
    }
    a
}

/// A letter-named array's shape: each letter's size drawn once per case
/// (`sizes`), `.` standing for the case's shared leading dims.
pub fn labeled_shape(rng: &mut Rng, labels: &str, sizes: &mut [Option<usize>; 128]) -> Vec<usize> {
    let mut shape = Vec::new();
    for ch in labels.chars() {
        let k = (ch as usize).min(127);
        let d = *sizes[k].get_or_insert_with(|| match rng.below(8) {
            0 => 1,
            1 => 0,
            _ => rng.range(2, 4) as usize,
        });
        if ch == '.' {
            // The ellipsis: 0 to 2 dims, drawn once (their sizes under '0', '1').
            let nd = d % 3;
            for e in 0..nd {
                let s = *sizes[b'0' as usize + e].get_or_insert_with(|| rng.range(1, 3) as usize);
                shape.push(s);
            }
            continue;
        }
        shape.push(d);
    }
    shape
}

const LA: &[DType] = FLOATS;
const LA_INT: &[DType] = NUMERIC;

const fn mat(dtypes: &'static [DType], kind: MatKind) -> Arg {
    Arg::Matrix { dtypes, kind }
}
const fn lab(labels: &'static str) -> Arg {
    Arg::Labeled {
        labels,
        dtypes: NUMERIC,
        data: Data::Small,
    }
}
const fn row(
    name: &'static str,
    gcalc: &'static str,
    numpy: &'static str,
    args: &'static [Arg],
    tol: Tol,
) -> FnSpec {
    FnSpec {
        name,
        gcalc,
        numpy,
        args,
        tol,
    }
}

const WELL: Tol = Tol::Norm(2000);
const RHS0: Arg = mat(LA_INT, MatKind::Rhs { of: 0 });
const VEC_ORDS: Arg = Arg::Choice(&[
    ("none", "None"),
    ("2", "2"),
    ("1", "1"),
    ("float(\"inf\")", "np.inf"),
    ("-float(\"inf\")", "-np.inf"),
    ("0", "0"),
    ("3", "3"),
    ("-1", "-1"),
    ("0.5", "0.5"),
]);
const MAT_ORDS: Arg = Arg::Choice(&[
    ("none", "None"),
    ("\"fro\"", "'fro'"),
    ("\"nuc\"", "'nuc'"),
    ("1", "1"),
    ("-1", "-1"),
    ("2", "2"),
    ("-2", "-2"),
    ("float(\"inf\")", "np.inf"),
    ("-float(\"inf\")", "-np.inf"),
]);

/// The linear-algebra rows (run by the core and GPU tests' linalg suites).
pub const LINALG: &[FnSpec] = &[
    row(
        "solve",
        "solve({0}, {1})",
        "np.linalg.solve({0}, {1})",
        &[mat(LA_INT, MatKind::Square), RHS0],
        WELL,
    ),
    row(
        "solve_ill",
        "solve({0}, {1})",
        "np.linalg.solve({0}, {1})",
        &[mat(LA, MatKind::Ill(3)), RHS0],
        Tol::Norm(2_000_000),
    ),
    row(
        "solve_singular",
        "solve({0}, {1})",
        "np.linalg.solve({0}, {1})",
        &[mat(LA, MatKind::Singular), RHS0],
        WELL,
    ),
    row(
        "inv",
        "inv({0})",
        "np.linalg.inv({0})",
        &[mat(LA_INT, MatKind::Square)],
        WELL,
    ),
    row(
        "inv_ill",
        "inv({0})",
        "np.linalg.inv({0})",
        &[mat(LA, MatKind::Ill(3))],
        Tol::Norm(2_000_000),
    ),
    row(
        "inv_singular",
        "inv({0})",
        "np.linalg.inv({0})",
        &[mat(LA, MatKind::Singular)],
        WELL,
    ),
    row(
        "det",
        "det({0})",
        "np.linalg.det({0})",
        &[mat(LA_INT, MatKind::Square)],
        WELL,
    ),
    row(
        "det_singular",
        "det({0})",
        "np.linalg.det({0})",
        &[mat(LA, MatKind::Singular)],
        WELL,
    ),
    row(
        "slogdet_sign",
        "slogdet({0})[0]",
        "np.linalg.slogdet({0})[0]",
        &[mat(LA_INT, MatKind::Square)],
        Tol::Norm(1),
    ),
    row(
        "slogdet_log",
        "slogdet({0})[1]",
        "np.linalg.slogdet({0})[1]",
        &[mat(LA, MatKind::Ill(3))],
        WELL,
    ),
    row(
        "cholesky",
        "cholesky({0})",
        "np.linalg.cholesky({0})",
        &[mat(LA_INT, MatKind::Spd)],
        WELL,
    ),
    row(
        "cholesky_upper",
        "cholesky({0}, upper=true)",
        "np.linalg.cholesky({0}, upper=True)",
        &[mat(LA, MatKind::Spd)],
        WELL,
    ),
    row(
        "cholesky_indefinite",
        "cholesky({0})",
        "np.linalg.cholesky({0})",
        &[mat(LA, MatKind::Indefinite)],
        WELL,
    ),
    row(
        "qr_reconstruct",
        "qr({0})[0] @ qr({0})[1]",
        "np.linalg.qr({0})[0] @ np.linalg.qr({0})[1]",
        &[mat(LA_INT, MatKind::General)],
        WELL,
    ),
    row(
        "qr_complete",
        "qr({0}, mode=\"complete\")[0] @ qr({0}, mode=\"complete\")[1]",
        "np.linalg.qr({0}, mode='complete')[0] @ np.linalg.qr({0}, mode='complete')[1]",
        &[mat(LA, MatKind::General)],
        WELL,
    ),
    row(
        "qr_orthogonal",
        "einsum(\"...ji,...jk->...ik\", qr({0})[0], qr({0})[0])",
        "np.einsum('...ji,...jk->...ik', np.linalg.qr({0})[0], np.linalg.qr({0})[0])",
        &[mat(LA, MatKind::General)],
        WELL,
    ),
    row(
        "qr_r",
        "abs(qr({0}, mode=\"r\"))",
        "np.abs(np.linalg.qr({0}, mode='r'))",
        &[mat(LA, MatKind::WellRect)],
        WELL,
    ),
    row(
        "svd_values",
        "svd({0}, compute_uv=false)",
        "np.linalg.svd({0}, compute_uv=False)",
        &[mat(LA_INT, MatKind::General)],
        WELL,
    ),
    row(
        "svdvals",
        "svdvals({0})",
        "np.linalg.svdvals({0})",
        &[mat(LA, MatKind::General)],
        WELL,
    ),
    row(
        "svd_reconstruct",
        "einsum(\"...ij,...j,...jk->...ik\", svd({0}, full_matrices=false)[0], svd({0}, full_matrices=false)[1], svd({0}, full_matrices=false)[2])",
        "np.einsum('...ij,...j,...jk->...ik', *np.linalg.svd({0}, full_matrices=False))",
        &[mat(LA, MatKind::General)],
        WELL,
    ),
    row(
        "svd_full_u",
        "einsum(\"...ji,...jk->...ik\", svd({0})[0], svd({0})[0])",
        "np.einsum('...ji,...jk->...ik', np.linalg.svd({0})[0], np.linalg.svd({0})[0])",
        &[mat(LA, MatKind::General)],
        WELL,
    ),
    row(
        "svd_full_vh",
        "einsum(\"...ij,...kj->...ik\", svd({0})[2], svd({0})[2])",
        "np.einsum('...ij,...kj->...ik', np.linalg.svd({0})[2], np.linalg.svd({0})[2])",
        &[mat(LA, MatKind::General)],
        WELL,
    ),
    row(
        "eigvalsh",
        "eigvalsh({0})",
        "np.linalg.eigvalsh({0})",
        &[mat(LA_INT, MatKind::Symmetric)],
        WELL,
    ),
    row(
        "eigh_upper",
        "eigh({0}, UPLO=\"U\")[0]",
        "np.linalg.eigh({0}, UPLO='U')[0]",
        &[mat(LA, MatKind::Square)],
        WELL,
    ),
    row(
        "eigh_reconstruct",
        "einsum(\"...ij,...j,...kj->...ik\", eigh({0})[1], eigh({0})[0], eigh({0})[1])",
        "np.einsum('...ij,...j,...kj->...ik', np.linalg.eigh({0})[1], np.linalg.eigh({0})[0], np.linalg.eigh({0})[1])",
        &[mat(LA, MatKind::Symmetric)],
        WELL,
    ),
    row(
        "norm",
        "norm({0})",
        "np.linalg.norm({0})",
        &[Arg::Array {
            dtypes: NUMERIC,
            ndim: (0, 3),
            data: Data::Random,
        }],
        Tol::Norm(64),
    ),
    row(
        "norm_vector",
        "norm({0}, ord={1}, axis={2}, keepdims={3})",
        "np.linalg.norm({0}, ord={1}, axis={2}, keepdims={3})",
        &[
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (1, 3),
                data: Data::Random,
            },
            VEC_ORDS,
            Arg::Axis { of: 0, none: false },
            Arg::Bool,
        ],
        Tol::Norm(64),
    ),
    row(
        "norm_matrix",
        "norm({0}, ord={1}, axis=(-2, -1), keepdims={2})",
        "np.linalg.norm({0}, ord={1}, axis=(-2, -1), keepdims={2})",
        &[mat(LA_INT, MatKind::General), MAT_ORDS, Arg::Bool],
        WELL,
    ),
    row(
        "norm_2d",
        "norm({0}, {1})",
        "np.linalg.norm({0}, {1})",
        &[
            Arg::Array {
                dtypes: FLOATS,
                ndim: (2, 2),
                data: Data::Random,
            },
            MAT_ORDS,
        ],
        WELL,
    ),
    row(
        "cond",
        "cond({0}, {1})",
        "np.linalg.cond({0}, {1})",
        &[mat(LA, MatKind::Square), MAT_ORDS],
        WELL,
    ),
    row(
        "matrix_rank",
        "matrix_rank({0})",
        "np.linalg.matrix_rank({0})",
        &[mat(LA_INT, MatKind::LowRank)],
        Tol::Exact,
    ),
    row(
        "matrix_rank_full",
        "matrix_rank({0})",
        "np.linalg.matrix_rank({0})",
        &[mat(LA, MatKind::WellRect)],
        Tol::Exact,
    ),
    row(
        "lstsq_x",
        "lstsq({0}, {1})[0]",
        "np.linalg.lstsq({0}, {1})[0]",
        &[
            Arg::Matrix {
                dtypes: LA,
                kind: MatKind::WellRect,
            },
            mat(LA, MatKind::Rows { of: 0 }),
        ],
        WELL,
    ),
    row(
        "lstsq_residuals",
        "lstsq({0}, {1})[1]",
        "np.linalg.lstsq({0}, {1})[1]",
        &[
            Arg::Matrix {
                dtypes: LA,
                kind: MatKind::WellRect,
            },
            mat(LA, MatKind::Rows { of: 0 }),
        ],
        WELL,
    ),
    row(
        "lstsq_rank",
        "lstsq({0}, {1})[2]",
        "np.linalg.lstsq({0}, {1})[2]",
        &[
            Arg::Matrix {
                dtypes: LA_INT,
                kind: MatKind::LowRank,
            },
            mat(LA, MatKind::Rows { of: 0 }),
        ],
        Tol::Exact,
    ),
    row(
        "lstsq_s",
        "lstsq({0}, {1})[3]",
        "np.linalg.lstsq({0}, {1})[3]",
        &[
            Arg::Matrix {
                dtypes: LA,
                kind: MatKind::General,
            },
            mat(LA, MatKind::Rows { of: 0 }),
        ],
        WELL,
    ),
    row(
        "pinv",
        "pinv({0})",
        "np.linalg.pinv({0})",
        &[mat(LA_INT, MatKind::WellRect)],
        WELL,
    ),
    row(
        "matrix_power",
        "matrix_power({0}, {1})",
        "np.linalg.matrix_power({0}, {1})",
        &[
            mat(LA_INT, MatKind::Square),
            Arg::Choice(&[
                ("0", "0"),
                ("1", "1"),
                ("2", "2"),
                ("3", "3"),
                ("5", "5"),
                ("-1", "-1"),
                ("-2", "-2"),
            ]),
        ],
        WELL,
    ),
    row(
        "cross",
        "cross({0}, {1})",
        "np.cross({0}, {1})",
        &[
            mat(NUMERIC, MatKind::Vectors),
            mat(NUMERIC, MatKind::Vectors),
        ],
        Tol::Norm(8),
    ),
    row(
        "kron",
        "kron({0}, {1})",
        "np.kron({0}, {1})",
        &[
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (0, 3),
                data: Data::Small,
            },
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (0, 2),
                data: Data::Small,
            },
        ],
        Tol::Exact,
    ),
    row(
        "inner",
        "inner({0}, {1})",
        "np.inner({0}, {1})",
        &[lab("ak"), lab("bck")],
        Tol::Exact,
    ),
    row(
        "tensordot",
        "tensordot({0}, {1})",
        "np.tensordot({0}, {1})",
        &[lab("ijk"), lab("jkl")],
        Tol::Exact,
    ),
    row(
        "tensordot_axes",
        "tensordot({0}, {1}, axes=([1, 0], [0, 2]))",
        "np.tensordot({0}, {1}, axes=([1, 0], [0, 2]))",
        &[lab("ij"), lab("jki")],
        Tol::Exact,
    ),
    row(
        "einsum_matmul",
        "einsum(\"ij,jk->ik\", {0}, {1})",
        "np.einsum('ij,jk->ik', {0}, {1})",
        &[lab("ij"), lab("jk")],
        Tol::Exact,
    ),
    row(
        "einsum_batched",
        "einsum(\"bij,bjk->bik\", {0}, {1})",
        "np.einsum('bij,bjk->bik', {0}, {1})",
        &[lab("bij"), lab("bjk")],
        Tol::Exact,
    ),
    row(
        "einsum_trace",
        "einsum(\"ii\", {0})",
        "np.einsum('ii', {0})",
        &[lab("ii")],
        Tol::Exact,
    ),
    row(
        "einsum_diag",
        "einsum(\"ii->i\", {0})",
        "np.einsum('ii->i', {0})",
        &[lab("ii")],
        Tol::Exact,
    ),
    row(
        "einsum_implicit",
        "einsum(\"ba,cb\", {0}, {1})",
        "np.einsum('ba,cb', {0}, {1})",
        &[lab("ba"), lab("cb")],
        Tol::Exact,
    ),
    row(
        "einsum_three",
        "einsum(\"ij,jk,kl->il\", {0}, {1}, {2})",
        "np.einsum('ij,jk,kl->il', {0}, {1}, {2})",
        &[lab("ij"), lab("jk"), lab("kl")],
        Tol::Exact,
    ),
    row(
        "einsum_outer_sum",
        "einsum(\"i,j->\", {0}, {1})",
        "np.einsum('i,j->', {0}, {1})",
        &[lab("i"), lab("j")],
        Tol::Exact,
    ),
    row(
        "einsum_ellipsis",
        "einsum(\"...ij,...jk->...ik\", {0}, {1})",
        "np.einsum('...ij,...jk->...ik', {0}, {1})",
        &[lab(".ij"), lab(".jk")],
        Tol::Exact,
    ),
    row(
        "einsum_mismatch",
        "einsum(\"ij,jk->ik\", {0}, {1})",
        "np.einsum('ij,jk->ik', {0}, {1})",
        &[
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (1, 3),
                data: Data::Small,
            },
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (2, 2),
                data: Data::Small,
            },
        ],
        Tol::Exact,
    ),
];
