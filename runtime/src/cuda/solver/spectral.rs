//! The SVD (gesvdj, Xgesvd where Jacobi does not converge; QR first for
//! tall or wide matrices) and the symmetric eigendecomposition (Xsyevd) on a GPU.
//! gesvd needs rows >= cols: a wide or square row-major a is already the
//! column-major a^T (n x m, n >= m), whose factors a^T = U' S V'^T give
//! a = V' S U'^T, so gesvd's VT' read row-major is u and its U' read
//! row-major is vh, with no copy; a tall a is copied column-major and its
//! factors transposed back. syevd reads the column-major m = a^T (the same
//! matrix when a is symmetric, a's lower triangle being m's upper one).

use super::{Ctx, Solver, col_major, copy, mat_ptr, with_tail};
use crate::array::Array;
use crate::cuda::buffer::{DeviceBuffer, array_of};
use crate::dtype::DType;
use crate::error::{Error, Result};
use cudarc::cusolver::sys as cs;
use std::ffi::c_void;

/// The first matrix whose iteration did not converge (info > 0).
fn check_converged(cx: &Ctx, info: DeviceBuffer, batch: usize, shape: &[usize]) -> Result<()> {
    converged(cx, &cx.infos(info, batch)?, shape)
}

/// The first matrix whose iteration did not converge, of downloaded infos.
fn converged(cx: &Ctx, infos: &[i32], shape: &[usize]) -> Result<()> {
    match infos.iter().position(|&v| v > 0) {
        Some(i) => Err(cx.op.no_convergence(i, shape)),
        None => Ok(()),
    }
}

pub(super) fn svd(cx: &Ctx, s: &Solver, a: &Array, full: bool, uv: bool) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let batch: usize = a.shape()[..nd - 2].iter().product();
    if (!full || !uv) && k > 0 && m.max(n) >= 2 * k && !super::batched::small_stack(m.max(n), batch)
    {
        return svd_through_qr(cx, s, a, uv);
    }
    // The column-major matrix gesvd factors: rows x cols, rows >= cols.
    let wide = n >= m;
    let (rows, cols, x) = match wide {
        true => (n, m, copy(a, cx.dt)?),
        false => (m, n, col_major(a, cx.dt)?),
    };
    // gesvd's U (rows x ucols) and VT (cols x cols).
    let ucols = if full { rows } else { cols };
    let (jobu, jobvt) = match uv {
        true => (if full { b'A' } else { b'S' }, b'A'),
        false => (b'N', b'N'),
    };
    // Jacobi (gesvdj) first, as PyTorch: batched for stacks of small
    // matrices, one call per matrix beyond; where it does not converge,
    // LAPACK's QR iteration (gesvd) below on a fresh copy.
    let x = if k > 0 {
        let j = super::batched::gesvdj(cx, s, &x, (rows, cols, batch), uv)?;
        if j.3.iter().all(|&v| v <= 0) {
            return svd_jacobi(cx, a, j, (rows, cols, batch), full, uv);
        }
        match wide {
            true => copy(a, cx.dt)?,
            false => col_major(a, cx.dt)?,
        }
    } else {
        x
    };
    let sv = cx.alloc(cx.dt, batch * k)?;
    let ub = cx.alloc(cx.dt, if uv { batch * rows * ucols } else { 1 })?;
    let vb = cx.alloc(cx.dt, if uv { batch * cols * cols } else { 1 })?;
    if k > 0 && batch > 0 {
        let (mut dev_b, mut host_b) = (0usize, 0usize);
        let x0 = mat_ptr(&x, 0, rows * cols)?;
        let (ldu, ldvt) = (rows as i64, cols as i64);
        // SAFETY: sizes and pointers describe live buffers of this GPU.
        super::status(
            unsafe {
                cs::cusolverDnXgesvd_bufferSize(
                    s.h,
                    s.params,
                    jobu as i8,
                    jobvt as i8,
                    rows as i64,
                    cols as i64,
                    cx.cdt,
                    x0 as *const c_void,
                    rows as i64,
                    cx.cdt,
                    sv.ptr_at(0) as *const c_void,
                    cx.cdt,
                    ub.ptr_at(0) as *const c_void,
                    ldu,
                    cx.cdt,
                    vb.ptr_at(0) as *const c_void,
                    ldvt,
                    cx.cdt,
                    &mut dev_b,
                    &mut host_b,
                )
            },
            "gesvd's workspace size",
        )?;
        let (work, mut host) = cx.workspace(dev_b, host_b)?;
        let info = cx.alloc(DType::Int32, batch)?;
        for i in 0..batch {
            let p = mat_ptr(&x, i, rows * cols)?;
            let (up, vp) = match uv {
                true => (ub.ptr_at(i * rows * ucols), vb.ptr_at(i * cols * cols)),
                false => (ub.ptr_at(0), vb.ptr_at(0)),
            };
            cx.call("gesvd", || unsafe {
                // SAFETY: as above; buffers outlive the queued call.
                cs::cusolverDnXgesvd(
                    s.h,
                    s.params,
                    jobu as i8,
                    jobvt as i8,
                    rows as i64,
                    cols as i64,
                    cx.cdt,
                    p as *mut c_void,
                    rows as i64,
                    cx.cdt,
                    sv.ptr_at(i * k) as *mut c_void,
                    cx.cdt,
                    up as *mut c_void,
                    ldu,
                    cx.cdt,
                    vp as *mut c_void,
                    ldvt,
                    cx.cdt,
                    work.ptr_at(0) as *mut c_void,
                    dev_b,
                    host.as_mut_ptr() as *mut c_void,
                    host_b,
                    info.ptr_at(i) as *mut i32,
                )
            })?;
        }
        check_converged(cx, info, batch, a.shape())?;
    }
    let s_arr = array_of(sv, with_tail(a.shape(), &[k]));
    if !uv {
        return Ok(vec![s_arr]);
    }
    let (u, vh) = match (wide, k) {
        (_, 0) => (
            identity(cx, batch, m, full)?,
            identity_rows(cx, batch, n, full)?,
        ),
        (true, _) => {
            // u = VT' read row-major (m x m); vh = U' read row-major (ucols x n).
            (
                array_of(vb, vec![batch, m, m]),
                array_of(ub, vec![batch, ucols, n]),
            )
        }
        (false, _) => {
            // u = U transposed back (m x ucols); vh = VT transposed back (n x n).
            let u = cx
                .tri_copy(ub.ptr_at(0), (batch, m, ucols), (1, m, m * ucols), 0, None)?
                .ok_or_else(|| Error::internal("svd: no u"))?;
            let v = cx
                .tri_copy(vb.ptr_at(0), (batch, n, n), (1, n, n * n), 0, None)?
                .ok_or_else(|| Error::internal("svd: no vh"))?;
            (
                array_of(u, vec![batch, m, ucols]),
                array_of(v, vec![batch, n, n]),
            )
        }
    };
    let u = reshape(&u, &with_tail(a.shape(), &[m, u.shape()[2]]));
    let vh = reshape(&vh, &with_tail(a.shape(), &[vh.shape()[1], n]));
    Ok(vec![u, s_arr, vh])
}

/// The reduced SVD of a matrix at least twice as tall as wide (or as wide
/// as tall) as LAPACK's gesdd does it: a = Q R, then the SVD of the small
/// square R, u = Q u_R (gesvd would bidiagonalise the whole tall matrix:
/// lstsq of 4096 x 256 spent most of its time there). A wide a goes through
/// its transpose: a^T = Q u_R S vh_R gives u = vh_R^T, vh = (Q u_R)^T.
fn svd_through_qr(cx: &Ctx, s: &Solver, a: &Array, uv: bool) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let wide = a.shape()[nd - 1] > a.shape()[nd - 2];
    let t = if wide { super::swapped(a) } else { a.clone() };
    let qr = super::factor::qr(cx, s, &t, crate::opid::QrMode::Reduced)?;
    let [q, r] =
        <[Array; 2]>::try_from(qr).map_err(|_| Error::internal("svd: qr gave no (q, r)"))?;
    let mut f = svd(cx, s, &r, false, uv)?;
    if !uv {
        return Ok(f);
    }
    let (Some(vh_r), Some(sv), Some(u_r)) = (f.pop(), f.pop(), f.pop()) else {
        return Err(Error::internal("svd: no factors of r"));
    };
    let qu = crate::cuda::blas::matmul(&q, &u_r)?;
    Ok(match wide {
        false => vec![qu, sv, vh_r],
        true => vec![
            copy(&super::swapped(&vh_r), cx.dt)?,
            sv,
            copy(&super::swapped(&qu), cx.dt)?,
        ],
    })
}

/// The SVD by gesvdj (`batched::gesvdj`): the column-major x (rows >= cols,
/// as `svd` arranged it) gave U (rows x rows) and V (cols x cols), read back
/// row-major into u and vh.
fn svd_jacobi(
    cx: &Ctx,
    a: &Array,
    (sv, ub, vb, info): (DeviceBuffer, DeviceBuffer, DeviceBuffer, Vec<i32>),
    (rows, cols, batch): (usize, usize, usize),
    full: bool,
    uv: bool,
) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = rows.min(cols);
    converged(cx, &info, a.shape())?;
    let s_arr = array_of(sv, with_tail(a.shape(), &[k]));
    if !uv {
        return Ok(vec![s_arr]);
    }
    let copy = |b: &DeviceBuffer,
                shape: (usize, usize),
                (rs, cs, bs): (usize, usize, usize)|
     -> Result<Array> {
        let out = cx
            .tri_copy(
                b.ptr_at(0),
                (batch, shape.0, shape.1),
                (rs, cs, bs),
                0,
                None,
            )?
            .ok_or_else(|| Error::internal("svd: no factor"))?;
        Ok(array_of(out, with_tail(a.shape(), &[shape.0, shape.1])))
    };
    let (u, vh) = match n >= m {
        // x = a^T = U' S V'^T, so u = V' (m x m) and vh = U'^T (first rows).
        true => {
            let vrows = if full { n } else { m };
            (
                copy(&vb, (m, m), (1, cols, cols * cols))?,
                copy(&ub, (vrows, n), (rows, 1, rows * rows))?,
            )
        }
        // x = a = U S V^T: u = U's first columns, vh = V^T.
        false => {
            let ucols = if full { m } else { n };
            (
                copy(&ub, (m, ucols), (1, rows, rows * rows))?,
                copy(&vb, (n, n), (cols, 1, cols * cols))?,
            )
        }
    };
    Ok(vec![u, s_arr, vh])
}

/// A contiguous array viewed with another shape of the same size.
fn reshape(a: &Array, shape: &[usize]) -> Array {
    a.view(
        shape.to_vec(),
        crate::array::layout::contiguous_strides(shape),
        a.offset(),
    )
}

/// Identities (m x m when `full`, else m x 0): the u of a matrix with no singular values.
fn identity(cx: &Ctx, batch: usize, m: usize, full: bool) -> Result<Array> {
    let cols = if full { m } else { 0 };
    let e = cx.eye(batch, m)?;
    let out = cx
        .tri_copy(e.ptr_at(0), (batch, m, cols), (m, 1, m * m), 0, None)?
        .ok_or_else(|| Error::internal("svd: no identity"))?;
    Ok(array_of(out, vec![batch, m, cols]))
}

/// Identities (n x n when `full`, else 0 x n): the vh of a matrix with no singular values.
fn identity_rows(cx: &Ctx, batch: usize, n: usize, full: bool) -> Result<Array> {
    let rows = if full { n } else { 0 };
    let e = cx.eye(batch, n)?;
    let out = cx
        .tri_copy(e.ptr_at(0), (batch, rows, n), (n, 1, n * n), 0, None)?
        .ok_or_else(|| Error::internal("svd: no identity"))?;
    Ok(array_of(out, vec![batch, rows, n]))
}

pub(super) fn eigh(
    cx: &Ctx,
    s: &Solver,
    a: &Array,
    upper: bool,
    vectors: bool,
) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let n = a.shape()[nd - 1];
    let batch: usize = a.shape()[..nd - 2].iter().product();
    let buf = copy(a, cx.dt)?;
    let w = cx.alloc(cx.dt, batch * n)?;
    let uplo = match upper {
        true => cs::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER,
        false => cs::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER,
    };
    let jobz = match vectors {
        true => cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR,
        false => cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR,
    };
    if n > 0 && super::batched::small_stack(n, batch) {
        let info = super::batched::syevj(cx, s, &buf, &w, (n, batch), jobz, uplo)?;
        converged(cx, &info, a.shape())?;
    } else if n > 0 && batch > 0 {
        let (mut dev_b, mut host_b) = (0usize, 0usize);
        let a0 = mat_ptr(&buf, 0, n * n)?;
        // SAFETY: sizes and pointers describe live buffers of this GPU.
        super::status(
            unsafe {
                cs::cusolverDnXsyevd_bufferSize(
                    s.h,
                    s.params,
                    jobz,
                    uplo,
                    n as i64,
                    cx.cdt,
                    a0 as *const c_void,
                    n as i64,
                    cx.cdt,
                    w.ptr_at(0) as *const c_void,
                    cx.cdt,
                    &mut dev_b,
                    &mut host_b,
                )
            },
            "syevd's workspace size",
        )?;
        let (work, mut host) = cx.workspace(dev_b, host_b)?;
        let info = cx.alloc(DType::Int32, batch)?;
        for i in 0..batch {
            let p = mat_ptr(&buf, i, n * n)?;
            cx.call("syevd", || unsafe {
                // SAFETY: as above.
                cs::cusolverDnXsyevd(
                    s.h,
                    s.params,
                    jobz,
                    uplo,
                    n as i64,
                    cx.cdt,
                    p as *mut c_void,
                    n as i64,
                    cx.cdt,
                    w.ptr_at(i * n) as *mut c_void,
                    cx.cdt,
                    work.ptr_at(0) as *mut c_void,
                    dev_b,
                    host.as_mut_ptr() as *mut c_void,
                    host_b,
                    info.ptr_at(i) as *mut i32,
                )
            })?;
        }
        check_converged(cx, info, batch, a.shape())?;
    }
    let w = array_of(w, vec![batch * n]);
    let w = reshape(&w, &with_tail(a.shape(), &[n]));
    if !vectors {
        return Ok(vec![w]);
    }
    // The eigenvectors are the columns of the column-major result.
    let v = cx
        .tri_copy(mat_ptr(&buf, 0, 0)?, (batch, n, n), (1, n, n * n), 0, None)?
        .ok_or_else(|| Error::internal("eigh: no eigenvectors"))?;
    Ok(vec![w, array_of(v, a.shape().to_vec())])
}
