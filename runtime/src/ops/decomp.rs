//! The matrix decompositions and what is computed straight from one:
//! `solve inv det slogdet cholesky qr svd svdvals eigh eigvalsh` (NumPy 2's
//! `np.linalg` names and semantics, batched over leading dims). Entries,
//! argument and shape checks and dtype rules are here; the factorizations
//! are the backends' (`backend::decomp`: faer, cuSOLVER).

use super::assemble::diagonal_view;
use super::creation::op;
use super::linalg_args::{
    NAN_HELP, any_nan, arr, as_dtype, at_least_2d, bool_arg, check_finite, choice_arg,
    lapack_dtype, same_device, square,
};
use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::layout::{broadcast_shapes, fmt_shape};
use crate::autodiff::rules_linalg as rules;
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{DecompOp, QrMode};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "solve",
        "solve(a, b)",
        "The solution x of a @ x = b for square a (..., n, n). b is a vector (n,) when 1-d, else a stack of matrices (..., n, k); batch dims broadcast (NumPy 2's rule). A singular matrix is an error. CPU: faer LU; GPU: cuSOLVER getrf/getrs.",
        false,
        solve,
        grad: rules::solve
    ),
    op!(
        "inv",
        "inv(a)",
        "The inverse of square a (..., n, n); a singular matrix is an error (see pinv).",
        false,
        inv,
        grad: rules::inv
    ),
    op!(
        "det",
        "det(a)",
        "The determinant of square a (..., n, n), from its LU factorization (as NumPy: sign * exp(log|det|)).",
        false,
        det,
        grad: rules::det
    ),
    op!(
        "slogdet",
        "slogdet(a)",
        "(sign, logabsdet) of square a (..., n, n): det = sign * exp(logabsdet) without overflow; sign 0 and logabsdet -inf for a singular matrix.",
        false,
        slogdet,
        grad: rules::slogdet
    ),
    op!(
        "cholesky",
        "cholesky(a, upper=false)",
        "L (lower triangular) with a = L @ L.T for symmetric positive-definite a (..., n, n), read from its lower triangle; upper=true gives U = L.T with a = U.T @ U, read from the upper triangle. Not positive definite is an error.",
        false,
        cholesky,
        grad: rules::cholesky
    ),
    op!(
        "qr",
        "qr(a, mode=\"reduced\")",
        "The QR factorization of a (..., m, n): (Q, R) with Q's columns orthonormal and R upper triangular; mode \"reduced\" (Q m x k, R k x n, k = min(m, n)), \"complete\" (Q m x m, R m x n) or \"r\" (R alone).",
        false,
        qr,
        grad: rules::qr
    ),
    op!(
        "svd",
        "svd(a, full_matrices=true, compute_uv=true, hermitian=false)",
        "The singular value decomposition of a (..., m, n): (U, S, Vh) with a = (U * S) @ Vh (reduced when full_matrices=false), S descending; compute_uv=false gives S alone.",
        false,
        svd,
        grad: rules::svd
    ),
    op!(
        "svdvals",
        "svdvals(x)",
        "The singular values of x (..., m, n), descending (svd(x, compute_uv=false)).",
        false,
        svdvals,
        grad: rules::svd
    ),
    op!(
        "eigh",
        "eigh(a, UPLO=\"L\")",
        "Eigenvalues (ascending) and eigenvectors (columns) of symmetric a (..., n, n), read from its lower (UPLO=\"L\") or upper (\"U\") triangle: (w, v) with a @ v = v * w.",
        false,
        eigh,
        grad: rules::eigh
    ),
    op!(
        "eigvalsh",
        "eigvalsh(a, UPLO=\"L\")",
        "The eigenvalues (ascending) of symmetric a (..., n, n), read from its lower or upper triangle.",
        false,
        eigvalsh,
        grad: rules::eigvalsh
    ),
];

/// `a` (and more) in their common LAPACK dtype.
fn prepared(op: &str, arrays: &[&Array], float_x: DType) -> Result<Vec<Array>> {
    let dt = lapack_dtype(op, arrays, float_x)?;
    arrays.iter().map(|a| as_dtype(a, dt)).collect()
}

fn run(op: DecompOp, inputs: &[Array]) -> Result<Vec<Array>> {
    backend::decomp::run(op, inputs)
}

fn one(mut v: Vec<Array>) -> Result<Array> {
    v.pop()
        .ok_or_else(|| Error::internal("decomposition gave no output"))
}

/// NumPy 2's result tuple (`SVDResult(U, S, Vh)`): items that are also attributes.
fn named(v: Vec<Array>, names: &'static [&'static str]) -> Value {
    Value::named_tuple(v.into_iter().map(Value::Array).collect(), names)
}

fn solve(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    args.finish()?;
    Ok(solve_arrays(&a, &b, i.float_x())?.into())
}

/// NumPy 2's solve: b is a vector when 1-d, else a stack of (n, k) matrices.
pub fn solve_arrays(a: &Array, b: &Array, float_x: DType) -> Result<Array> {
    let n = square("solve", a)?;
    same_device("solve", a, b)?;
    let sh = || format!("a {} and b {}", fmt_shape(a.shape()), fmt_shape(b.shape()));
    let mismatch = |what: String| {
        Error::shape("solve", format!("solve: {what} (shapes {})", sh()))
            .with_help("b must be (n,) or (..., n, k) for a of shape (..., n, n)")
    };
    if b.ndim() == 0 {
        return Err(mismatch("b must be at least 1-dimensional".into()));
    }
    let vector = b.ndim() == 1;
    let b2 = if vector {
        b.reshape(&[b.size() as i64, 1])?
    } else {
        b.clone()
    };
    let rows = b2.shape()[b2.ndim() - 2];
    if rows != n {
        return Err(mismatch(format!("b has {rows} rows where a is {n}x{n}")));
    }
    let k = b2.shape()[b2.ndim() - 1];
    let (ab, bb) = (&a.shape()[..a.ndim() - 2], &b2.shape()[..b2.ndim() - 2]);
    let batch = broadcast_shapes(ab, bb, "solve")
        .map_err(|_| mismatch("the batch dims do not broadcast".into()))?;
    let with = |tail: &[usize]| [batch.as_slice(), tail].concat();
    let v = prepared("solve", &[a, &b2], float_x)?;
    let a2 = v[0].broadcast_to(&with(&[n, n]))?;
    let b3 = v[1].broadcast_to(&with(&[n, k]))?;
    let x = one(run(DecompOp::Solve { check: true }, &[a2, b3])?)?;
    match vector {
        true => {
            let s: Vec<i64> = with(&[n]).iter().map(|&d| d as i64).collect();
            x.reshape(&s)
        }
        false => Ok(x),
    }
}

fn inv(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    args.finish()?;
    Ok(inv_array(&a, i.float_x(), true)?.into())
}

/// The inverse; `check` false: a singular matrix gives inf/nan (cond's use).
pub fn inv_array(a: &Array, float_x: DType, check: bool) -> Result<Array> {
    square("inv", a)?;
    let v = prepared("inv", &[a], float_x)?;
    one(run(DecompOp::Inv { check }, &v)?)
}

fn det(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    args.finish()?;
    square("det", &a)?;
    let v = prepared("det", &[&a], i.float_x())?;
    Ok(one(run(DecompOp::Det, &v)?)?.into())
}

fn slogdet(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    args.finish()?;
    square("slogdet", &a)?;
    let v = prepared("slogdet", &[&a], i.float_x())?;
    Ok(named(run(DecompOp::Slogdet, &v)?, &["sign", "logabsdet"]))
}

/// `upper=` of cholesky (keyword only, as in NumPy).
pub fn cholesky_upper(args: &mut Args) -> Result<bool> {
    bool_arg("cholesky", "upper", args.kw("upper"), false)
}

fn cholesky(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let upper = cholesky_upper(&mut args)?;
    args.finish_with(&["upper"])?;
    Ok(cholesky_array(&a, upper, i.float_x())?.into())
}

/// NaN in the triangle read makes the matrix not positive definite (NumPy's
/// LinAlgError; NumPy, reading one triangle, ignores the other, and so does
/// gcalc). It shows on the factor's diagonal (a NaN reaches every later
/// diagonal element of its row), so the check reads n elements after the
/// factorization rather than all of a before it (on a GPU: a pass over a
/// and a sync of its own). A failed factorization says NaN or inf when a
/// holds one.
pub fn cholesky_array(a: &Array, upper: bool, float_x: DType) -> Result<Array> {
    square("cholesky", a)?;
    let v = prepared("cholesky", &[a], float_x)?;
    let out = match run(DecompOp::Cholesky { upper }, &v) {
        Ok(r) => one(r)?,
        Err(e) => {
            check_finite_pd(&v[0], float_x)?;
            return Err(e);
        }
    };
    let nd = out.ndim();
    if any_nan(&diagonal_view(&out, 0, nd - 2, nd - 1), float_x)? {
        return Err(check_finite_pd(&v[0], float_x)
            .err()
            .unwrap_or_else(|| pd_nan_error(v[0].shape(), None)));
    }
    Ok(out)
}

/// NaN makes a matrix not positive definite (NumPy's answer), said clearly.
fn check_finite_pd(a: &Array, float_x: DType) -> Result<()> {
    check_finite("cholesky", a, float_x).map_err(|e| pd_nan_error(a.shape(), e.help))
}

fn pd_nan_error(shape: &[usize], help: Option<String>) -> Error {
    Error::value(format!(
        "cholesky: the matrix (shape {}) holds NaN or infinity, so it is not positive definite",
        fmt_shape(shape)
    ))
    .with_op("cholesky")
    .with_help(help.unwrap_or_else(|| NAN_HELP.to_string()))
}

/// `mode=` of qr.
pub fn qr_mode(args: &mut Args) -> Result<QrMode> {
    let m = choice_arg(
        "qr",
        "mode",
        args.opt("mode")?,
        "reduced",
        &["reduced", "complete", "r"],
    )?;
    Ok(match m {
        "complete" => QrMode::Complete,
        "r" => QrMode::R,
        _ => QrMode::Reduced,
    })
}

fn qr(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let mode = qr_mode(&mut args)?;
    args.finish_with(&["mode"])?;
    at_least_2d("qr", &a)?;
    let v = prepared("qr", &[&a], i.float_x())?;
    let out = run(DecompOp::Qr { mode }, &v)?;
    Ok(match mode {
        QrMode::R => one(out)?.into(),
        _ => named(out, &["Q", "R"]),
    })
}

/// `[q, r]` of the reduced QR (qr's gradient with mode="r" needs q).
pub fn qr_reduced(a: &Array, float_x: DType) -> Result<Vec<Array>> {
    let v = prepared("qr", &[a], float_x)?;
    run(
        DecompOp::Qr {
            mode: QrMode::Reduced,
        },
        &v,
    )
}

/// svd's keywords: (full_matrices, compute_uv); hermitian is accepted (the
/// general SVD gives the same factorization of a symmetric matrix).
pub fn svd_flags(args: &mut Args) -> Result<(bool, bool)> {
    let full = bool_arg("svd", "full_matrices", args.opt("full_matrices")?, true)?;
    let uv = bool_arg("svd", "compute_uv", args.opt("compute_uv")?, true)?;
    bool_arg("svd", "hermitian", args.opt("hermitian")?, false)?;
    Ok((full, uv))
}

fn svd(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let (full, uv) = svd_flags(&mut args)?;
    args.finish_with(&["full_matrices", "compute_uv", "hermitian"])?;
    let out = svd_arrays(&a, full, uv, i.float_x())?;
    Ok(match uv {
        true => named(out, &["U", "S", "Vh"]),
        false => one(out)?.into(),
    })
}

/// `[u, s, vh]` or `[s]` of `a`, checked.
pub fn svd_arrays(a: &Array, full: bool, uv: bool, float_x: DType) -> Result<Vec<Array>> {
    at_least_2d("svd", a)?;
    let v = prepared("svd", &[a], float_x)?;
    check_finite("svd", &v[0], float_x)?;
    run(DecompOp::Svd { full, uv }, &v)
}

fn svdvals(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("x")?)?;
    args.finish()?;
    Ok(one(svd_arrays(&a, false, false, i.float_x())?)?.into())
}

/// `UPLO=` of eigh/eigvalsh: true for "U".
pub fn uplo(op: &str, args: &mut Args) -> Result<bool> {
    let v = args.opt("UPLO")?.map(|v| match v {
        Value::Str(s) => Value::str(s.to_uppercase()),
        v => v,
    });
    Ok(choice_arg(op, "UPLO", v, "L", &["L", "U"])? == "U")
}

fn eigh(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let upper = uplo("eigh", &mut args)?;
    args.finish_with(&["UPLO"])?;
    Ok(named(
        eigh_arrays(&a, upper, true, i.float_x())?,
        &["eigenvalues", "eigenvectors"],
    ))
}

fn eigvalsh(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("a")?)?;
    let upper = uplo("eigvalsh", &mut args)?;
    args.finish_with(&["UPLO"])?;
    Ok(one(eigh_arrays(&a, upper, false, i.float_x())?)?.into())
}

/// `[w, v]` or `[w]` of symmetric `a`, checked.
pub fn eigh_arrays(a: &Array, upper: bool, vectors: bool, float_x: DType) -> Result<Vec<Array>> {
    let op = if vectors { "eigh" } else { "eigvalsh" };
    square(op, a)?;
    let v = prepared(op, &[a], float_x)?;
    check_finite(op, &v[0], float_x)?;
    run(DecompOp::Eigh { upper, vectors }, &v)
}
