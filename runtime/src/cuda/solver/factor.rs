//! Cholesky (Xpotrf) and QR (Xgeqrf, then orgqr for Q) on a GPU.
//! Cholesky of stacks needs no transpose: for the lower factor of a (read from its
//! lower triangle), potrf factors the column-major m = a^T from m's upper
//! triangle into U with m = U^T U, and U read row-major is L; one large
//! matrix is copied column-major instead, for potrf's faster lower path. QR factors a
//! column-major copy of a; R and Q are read back row-major by `tri_copy`.

use super::{Ctx, Solver, col_major, copy, mat_ptr, with_tail};
use crate::array::Array;
use crate::cuda::buffer::array_of;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::QrMode;
use cudarc::cusolver::sys as cs;
use std::ffi::c_void;

pub(super) fn cholesky(cx: &Ctx, s: &Solver, a: &Array, upper: bool) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let n = a.shape()[nd - 1];
    let batch: usize = a.shape()[..nd - 2].iter().product();
    // potrf's lower-triangle path is the fast one (an H100, 4096 float32:
    // see docs/GPU.md): the lower factor of a single large matrix is taken
    // from a column-major copy of a, whose lower triangle is a's, and read
    // back transposed; else a is copied as it is.
    let cm = !upper && !super::batched::small_stack(n, batch);
    let tiled = match cm && a.dtype() == cx.dt && a.is_contiguous() {
        true => cx.transposed(mat_ptr(a, 0, 0)?, (batch, n, n), n * n, 0)?,
        false => None,
    };
    let buf = match tiled {
        Some(t) => array_of(t, a.shape().to_vec()),
        None if cm => col_major(a, cx.dt)?,
        None => copy(a, cx.dt)?,
    };
    // a's lower triangle is m's upper one (and the other way round).
    let uplo = match upper || cm {
        true => cs::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER,
        false => cs::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER,
    };
    let info = if n == 0 || batch == 0 {
        None
    } else if super::batched::small_stack(n, batch) {
        Some(super::batched::potrf(cx, s, &buf, n, batch, uplo)?)
    } else {
        let (mut dev_b, mut host_b) = (0usize, 0usize);
        let a0 = mat_ptr(&buf, 0, n * n)?;
        // SAFETY: sizes and pointers describe live buffers of this GPU.
        super::status(
            unsafe {
                cs::cusolverDnXpotrf_bufferSize(
                    s.h,
                    s.params,
                    uplo,
                    n as i64,
                    cx.cdt,
                    a0 as *const c_void,
                    n as i64,
                    cx.cdt,
                    &mut dev_b,
                    &mut host_b,
                )
            },
            "potrf's workspace size",
        )?;
        let (work, mut host) = cx.workspace(dev_b, host_b)?;
        let info = cx.alloc(DType::Int32, batch)?;
        for i in 0..batch {
            let p = mat_ptr(&buf, i, n * n)?;
            cx.call("potrf", || unsafe {
                // SAFETY: as above; buffers outlive the queued call.
                cs::cusolverDnXpotrf(
                    s.h,
                    s.params,
                    uplo,
                    n as i64,
                    cx.cdt,
                    p as *mut c_void,
                    n as i64,
                    cx.cdt,
                    work.ptr_at(0) as *mut c_void,
                    dev_b,
                    host.as_mut_ptr() as *mut c_void,
                    host_b,
                    info.ptr_at(i) as *mut i32,
                )
            })?;
        }
        Some(info)
    };
    if let Some(info) = info {
        let infos = cx.infos(info, batch)?;
        if let Some((i, &k)) = infos.iter().enumerate().find(|(_, v)| **v > 0) {
            return Err(cx.op.not_positive_definite(i, a.shape(), k as usize));
        }
    }
    // Keep the factor's triangle (row-major), zero potrf's untouched one.
    let mode = if upper { 1 } else { 2 };
    let src = mat_ptr(&buf, 0, 0)?;
    // The column-major factor read back transposed, through tiles.
    let tiled = match cm {
        true => cx.transposed(src, (batch, n, n), n * n, mode)?,
        false => None,
    };
    let out = match tiled {
        Some(o) => o,
        None => {
            let strides = if cm { (1, n, n * n) } else { (n, 1, n * n) };
            cx.tri_copy(src, (batch, n, n), strides, mode, None)?
                .ok_or_else(|| Error::internal("cholesky: no output"))?
        }
    };
    Ok(vec![array_of(out, a.shape().to_vec())])
}

pub(super) fn qr(cx: &Ctx, s: &Solver, a: &Array, mode: QrMode) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let batch: usize = a.shape()[..nd - 2].iter().product();
    let (qcols, rrows) = match mode {
        QrMode::Complete => (m, m),
        _ => (k, k),
    };
    // Column-major a: m x n with leading dim m.
    let f = col_major(a, cx.dt)?;
    let tau = cx.alloc(cx.dt, batch * k)?;
    if k > 0 && batch > 0 {
        let (mut dev_b, mut host_b) = (0usize, 0usize);
        let a0 = mat_ptr(&f, 0, m * n)?;
        // SAFETY: sizes and pointers describe live buffers of this GPU.
        super::status(
            unsafe {
                cs::cusolverDnXgeqrf_bufferSize(
                    s.h,
                    s.params,
                    m as i64,
                    n as i64,
                    cx.cdt,
                    a0 as *const c_void,
                    m as i64,
                    cx.cdt,
                    tau.ptr_at(0) as *const c_void,
                    cx.cdt,
                    &mut dev_b,
                    &mut host_b,
                )
            },
            "geqrf's workspace size",
        )?;
        let (work, mut host) = cx.workspace(dev_b, host_b)?;
        let info = cx.alloc(DType::Int32, batch)?;
        for i in 0..batch {
            let p = mat_ptr(&f, i, m * n)?;
            cx.call("geqrf", || unsafe {
                // SAFETY: as above.
                cs::cusolverDnXgeqrf(
                    s.h,
                    s.params,
                    m as i64,
                    n as i64,
                    cx.cdt,
                    p as *mut c_void,
                    m as i64,
                    cx.cdt,
                    tau.ptr_at(i * k) as *mut c_void,
                    cx.cdt,
                    work.ptr_at(0) as *mut c_void,
                    dev_b,
                    host.as_mut_ptr() as *mut c_void,
                    host_b,
                    info.ptr_at(i) as *mut i32,
                )
            })?;
        }
    }
    // R: the upper triangle of the first rrows rows (column-major read).
    let base = mat_ptr(&f, 0, 0)?;
    let r = cx
        .tri_copy(base, (batch, rrows, n), (1, m, m * n), 1, None)?
        .ok_or_else(|| Error::internal("qr: no R"))?;
    let r = array_of(r, with_tail(a.shape(), &[rrows, n]));
    if mode == QrMode::R {
        return Ok(vec![r]);
    }
    // Q: orgqr expands the k reflectors into qcols orthonormal columns, in
    // place in a column-major m x qcols buffer holding them.
    let (qbuf, ld_cols) = match qcols > n {
        false => (f, n),
        true => {
            let q = cx.alloc(cx.dt, batch * m * m)?;
            cx.tri_copy(
                base,
                (batch, n, m),
                (m, 1, m * n),
                0,
                Some((q.ptr_at(0), m * m)),
            )?;
            (array_of(q, with_tail(a.shape(), &[m, m])), m)
        }
    };
    if k == 0 {
        let eye = cx.eye(batch, m)?;
        let q = cx
            .tri_copy(eye.ptr_at(0), (batch, m, qcols), (m, 1, m * m), 0, None)?
            .ok_or_else(|| Error::internal("qr: no Q"))?;
        return Ok(vec![array_of(q, with_tail(a.shape(), &[m, qcols])), r]);
    }
    orgqr(cx, s, &qbuf, &tau, (m, qcols, k), ld_cols, batch)?;
    let q = cx
        .tri_copy(
            mat_ptr(&qbuf, 0, 0)?,
            (batch, m, qcols),
            (1, m, m * ld_cols),
            0,
            None,
        )?
        .ok_or_else(|| Error::internal("qr: no Q"))?;
    Ok(vec![array_of(q, with_tail(a.shape(), &[m, qcols])), r])
}

/// orgqr (typed: cuSOLVER has no generic form) on each matrix of `q`
/// (column-major, `ld_cols` columns of m apart).
fn orgqr(
    cx: &Ctx,
    s: &Solver,
    q: &Array,
    tau: &crate::cuda::buffer::DeviceBuffer,
    (m, cols, k): (usize, usize, usize),
    ld_cols: usize,
    batch: usize,
) -> Result<()> {
    let (mi, ci, ki) = (m as i32, cols as i32, k as i32);
    let mut lwork = 0i32;
    let q0 = mat_ptr(q, 0, m * ld_cols)?;
    // SAFETY: sizes and pointers describe live buffers of this GPU.
    super::status(
        unsafe {
            match cx.dt {
                DType::Float32 => cs::cusolverDnSorgqr_bufferSize(
                    s.h,
                    mi,
                    ci,
                    ki,
                    q0 as *const f32,
                    mi,
                    tau.ptr_at(0) as *const f32,
                    &mut lwork,
                ),
                _ => cs::cusolverDnDorgqr_bufferSize(
                    s.h,
                    mi,
                    ci,
                    ki,
                    q0 as *const f64,
                    mi,
                    tau.ptr_at(0) as *const f64,
                    &mut lwork,
                ),
            }
        },
        "orgqr's workspace size",
    )?;
    let work = cx.alloc(cx.dt, lwork.max(1) as usize)?;
    let info = cx.alloc(DType::Int32, batch)?;
    for i in 0..batch {
        let p = mat_ptr(q, i, m * ld_cols)?;
        let (t, w, inf) = (
            tau.ptr_at(i * k),
            work.ptr_at(0),
            info.ptr_at(i) as *mut i32,
        );
        cx.call("orgqr", || unsafe {
            // SAFETY: as above.
            match cx.dt {
                DType::Float32 => cs::cusolverDnSorgqr(
                    s.h,
                    mi,
                    ci,
                    ki,
                    p as *mut f32,
                    mi,
                    t as *const f32,
                    w as *mut f32,
                    lwork,
                    inf,
                ),
                _ => cs::cusolverDnDorgqr(
                    s.h,
                    mi,
                    ci,
                    ki,
                    p as *mut f64,
                    mi,
                    t as *const f64,
                    w as *mut f64,
                    lwork,
                    inf,
                ),
            }
        })?;
    }
    Ok(())
}
