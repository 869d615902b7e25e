//! Stacks of small matrices in one cuSOLVER call each: potrfBatched
//! (Cholesky, a pointer array), syevjBatched (Jacobi eigensolver) and
//! gesvdjBatched (Jacobi SVD), both for matrices of at most 32 rows and
//! columns, as cuSOLVER requires. The per-matrix loops of the other files
//! cost a call (~10 us of host time) per matrix; these cost one per stack.

use super::{Ctx, Solver, mat_ptr, pointers};
use crate::array::Array;
use crate::cuda::buffer::DeviceBuffer;
use crate::dtype::DType;
use crate::error::{Error, Result};
use cudarc::cusolver::sys as cs;

/// The largest matrix the Jacobi batched routines take (and the largest
/// that cuBLAS's batched LU is meant for).
pub(super) const JACOBI_MAX: usize = 32;

/// Whether a stack of `batch` matrices of at most `n` rows and columns goes
/// to the batched routines: more than one, small, and a count that fits
/// their 32-bit argument.
pub(super) fn small_stack(n: usize, batch: usize) -> bool {
    batch > 1 && batch <= i32::MAX as usize && n <= JACOBI_MAX
}

/// Cholesky of each matrix of the contiguous stack `buf` in place; the infos.
pub(super) fn potrf(
    cx: &Ctx,
    s: &Solver,
    buf: &Array,
    n: usize,
    batch: usize,
    uplo: cs::cublasFillMode_t,
) -> Result<DeviceBuffer> {
    let info = cx.alloc(DType::Int32, batch)?;
    let ptrs = pointers(cx, buf, n * n, batch)?;
    let p = mat_ptr(&ptrs, 0, 0)?;
    cx.call("potrfBatched", || unsafe {
        // SAFETY: `ptrs` holds `batch` addresses of n x n matrices of `buf`;
        // `info` has room for each; all outlive the queued call.
        match cx.dt {
            DType::Float32 => cs::cusolverDnSpotrfBatched(
                s.h,
                uplo,
                n as i32,
                p as *mut *mut f32,
                n as i32,
                info.ptr_at(0) as *mut i32,
                batch as i32,
            ),
            _ => cs::cusolverDnDpotrfBatched(
                s.h,
                uplo,
                n as i32,
                p as *mut *mut f64,
                n as i32,
                info.ptr_at(0) as *mut i32,
                batch as i32,
            ),
        }
    })?;
    Ok(info)
}

/// Eigenvalues (into `w`, ascending) and, with `jobz` VECTOR, eigenvectors
/// (in place, column-major) of each symmetric matrix of `buf`; the infos,
/// downloaded (the one sync) before the params object is destroyed.
pub(super) fn syevj(
    cx: &Ctx,
    s: &Solver,
    buf: &Array,
    w: &DeviceBuffer,
    (n, batch): (usize, usize),
    jobz: cs::cusolverEigMode_t,
    uplo: cs::cublasFillMode_t,
) -> Result<Vec<i32>> {
    let mut params: cs::syevjInfo_t = std::ptr::null_mut();
    // SAFETY: an out-pointer to a local; destroyed below.
    super::status(
        unsafe { cs::cusolverDnCreateSyevjInfo(&mut params) },
        "syevj's params",
    )?;
    let r = syevj_with(cx, s, buf, w, (n, batch), jobz, uplo, params)
        .and_then(|info| cx.infos(info, batch));
    // SAFETY: made above; the call has finished (its infos were read).
    unsafe { cs::cusolverDnDestroySyevjInfo(params) };
    r
}

#[allow(clippy::too_many_arguments)]
fn syevj_with(
    cx: &Ctx,
    s: &Solver,
    buf: &Array,
    w: &DeviceBuffer,
    (n, batch): (usize, usize),
    jobz: cs::cusolverEigMode_t,
    uplo: cs::cublasFillMode_t,
    params: cs::syevjInfo_t,
) -> Result<DeviceBuffer> {
    let (a, wp) = (mat_ptr(buf, 0, 0)?, w.ptr_at(0));
    let (ni, bi) = (n as i32, batch as i32);
    let mut lwork = 0i32;
    // SAFETY: sizes and pointers describe live buffers of this GPU.
    super::status(
        unsafe {
            match cx.dt {
                DType::Float32 => cs::cusolverDnSsyevjBatched_bufferSize(
                    s.h,
                    jobz,
                    uplo,
                    ni,
                    a as *const f32,
                    ni,
                    wp as *const f32,
                    &mut lwork,
                    params,
                    bi,
                ),
                _ => cs::cusolverDnDsyevjBatched_bufferSize(
                    s.h,
                    jobz,
                    uplo,
                    ni,
                    a as *const f64,
                    ni,
                    wp as *const f64,
                    &mut lwork,
                    params,
                    bi,
                ),
            }
        },
        "syevjBatched's workspace size",
    )?;
    let work = cx.alloc(cx.dt, lwork.max(1) as usize)?;
    let info = cx.alloc(DType::Int32, batch)?;
    let (wk, inf) = (work.ptr_at(0), info.ptr_at(0) as *mut i32);
    cx.call("syevjBatched", || unsafe {
        // SAFETY: as above.
        match cx.dt {
            DType::Float32 => cs::cusolverDnSsyevjBatched(
                s.h,
                jobz,
                uplo,
                ni,
                a as *mut f32,
                ni,
                wp as *mut f32,
                wk as *mut f32,
                lwork,
                inf,
                params,
                bi,
            ),
            _ => cs::cusolverDnDsyevjBatched(
                s.h,
                jobz,
                uplo,
                ni,
                a as *mut f64,
                ni,
                wp as *mut f64,
                wk as *mut f64,
                lwork,
                inf,
                params,
                bi,
            ),
        }
    })?;
    Ok(info)
}

/// The SVD of each column-major rows x cols matrix of `x` (destroyed):
/// s (min(rows, cols) each, descending), and with `uv` U (rows x rows) and
/// V (cols x cols, not transposed), column-major; the infos, downloaded
/// (the one sync) before the params object is destroyed.
pub(super) fn gesvdj(
    cx: &Ctx,
    s: &Solver,
    x: &Array,
    (rows, cols, batch): (usize, usize, usize),
    uv: bool,
) -> Result<(DeviceBuffer, DeviceBuffer, DeviceBuffer, Vec<i32>)> {
    let k = rows.min(cols);
    let sv = cx.alloc(cx.dt, batch * k)?;
    let u = cx.alloc(cx.dt, batch * rows * rows)?;
    let v = cx.alloc(cx.dt, batch * cols * cols)?;
    let jobz = match uv {
        true => cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR,
        false => cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR,
    };
    let mut params: cs::gesvdjInfo_t = std::ptr::null_mut();
    // SAFETY: an out-pointer to a local; destroyed below.
    super::status(
        unsafe { cs::cusolverDnCreateGesvdjInfo(&mut params) },
        "gesvdj's params",
    )?;
    if !small_stack(rows, batch) {
        let r = gesvdj_each(cx, s, x, (rows, cols, batch), (&sv, &u, &v), jobz, params);
        // SAFETY: made above; the calls have finished (their infos were read).
        unsafe { cs::cusolverDnDestroyGesvdjInfo(params) };
        return Ok((sv, u, v, r?));
    }
    let (a, sp, up, vp) = (mat_ptr(x, 0, 0)?, sv.ptr_at(0), u.ptr_at(0), v.ptr_at(0));
    let (m, n, bi) = (rows as i32, cols as i32, batch as i32);
    let run = || -> Result<DeviceBuffer> {
        let mut lwork = 0i32;
        // SAFETY: sizes and pointers describe live buffers of this GPU.
        super::status(
            unsafe {
                match cx.dt {
                    DType::Float32 => cs::cusolverDnSgesvdjBatched_bufferSize(
                        s.h,
                        jobz,
                        m,
                        n,
                        a as *const f32,
                        m,
                        sp as *const f32,
                        up as *const f32,
                        m,
                        vp as *const f32,
                        n,
                        &mut lwork,
                        params,
                        bi,
                    ),
                    _ => cs::cusolverDnDgesvdjBatched_bufferSize(
                        s.h,
                        jobz,
                        m,
                        n,
                        a as *const f64,
                        m,
                        sp as *const f64,
                        up as *const f64,
                        m,
                        vp as *const f64,
                        n,
                        &mut lwork,
                        params,
                        bi,
                    ),
                }
            },
            "gesvdjBatched's workspace size",
        )?;
        let work = cx.alloc(cx.dt, lwork.max(1) as usize)?;
        let info = cx.alloc(DType::Int32, batch)?;
        let (wk, inf) = (work.ptr_at(0), info.ptr_at(0) as *mut i32);
        cx.call("gesvdjBatched", || unsafe {
            // SAFETY: as above.
            match cx.dt {
                DType::Float32 => cs::cusolverDnSgesvdjBatched(
                    s.h,
                    jobz,
                    m,
                    n,
                    a as *mut f32,
                    m,
                    sp as *mut f32,
                    up as *mut f32,
                    m,
                    vp as *mut f32,
                    n,
                    wk as *mut f32,
                    lwork,
                    inf,
                    params,
                    bi,
                ),
                _ => cs::cusolverDnDgesvdjBatched(
                    s.h,
                    jobz,
                    m,
                    n,
                    a as *mut f64,
                    m,
                    sp as *mut f64,
                    up as *mut f64,
                    m,
                    vp as *mut f64,
                    n,
                    wk as *mut f64,
                    lwork,
                    inf,
                    params,
                    bi,
                ),
            }
        })?;
        Ok(info)
    };
    let r = run().and_then(|info| cx.infos(info, batch));
    // SAFETY: made above; the call has finished (its infos were read).
    unsafe { cs::cusolverDnDestroyGesvdjInfo(params) };
    Ok((sv, u, v, r?))
}

/// `gesvdj` one matrix at a time (matrices above 32 rows, or one matrix):
/// the same layouts as the batched call (full U and V), one workspace; the
/// infos downloaded once after the whole stack is queued.
fn gesvdj_each(
    cx: &Ctx,
    s: &Solver,
    x: &Array,
    (rows, cols, batch): (usize, usize, usize),
    (sv, u, v): (&DeviceBuffer, &DeviceBuffer, &DeviceBuffer),
    jobz: cs::cusolverEigMode_t,
    params: cs::gesvdjInfo_t,
) -> Result<Vec<i32>> {
    let k = rows.min(cols);
    let (m, n) = (
        i32::try_from(rows).map_err(|_| too_big(rows))?,
        i32::try_from(cols).map_err(|_| too_big(cols))?,
    );
    let (a0, s0, u0, v0) = (mat_ptr(x, 0, 0)?, sv.ptr_at(0), u.ptr_at(0), v.ptr_at(0));
    let mut lwork = 0i32;
    // SAFETY: sizes and pointers describe live buffers of this GPU.
    super::status(
        unsafe {
            match cx.dt {
                DType::Float32 => cs::cusolverDnSgesvdj_bufferSize(
                    s.h,
                    jobz,
                    0,
                    m,
                    n,
                    a0 as *const f32,
                    m,
                    s0 as *const f32,
                    u0 as *const f32,
                    m,
                    v0 as *const f32,
                    n,
                    &mut lwork,
                    params,
                ),
                _ => cs::cusolverDnDgesvdj_bufferSize(
                    s.h,
                    jobz,
                    0,
                    m,
                    n,
                    a0 as *const f64,
                    m,
                    s0 as *const f64,
                    u0 as *const f64,
                    m,
                    v0 as *const f64,
                    n,
                    &mut lwork,
                    params,
                ),
            }
        },
        "gesvdj's workspace size",
    )?;
    let work = cx.alloc(cx.dt, lwork.max(1) as usize)?;
    let info = cx.alloc(DType::Int32, batch)?;
    let wk = work.ptr_at(0);
    for i in 0..batch {
        let a = mat_ptr(x, i, rows * cols)?;
        let (sp, up, vp) = (
            sv.ptr_at(i * k),
            u.ptr_at(i * rows * rows),
            v.ptr_at(i * cols * cols),
        );
        let inf = info.ptr_at(i) as *mut i32;
        cx.call("gesvdj", || unsafe {
            // SAFETY: as above; the buffers outlive the queued call.
            match cx.dt {
                DType::Float32 => cs::cusolverDnSgesvdj(
                    s.h,
                    jobz,
                    0,
                    m,
                    n,
                    a as *mut f32,
                    m,
                    sp as *mut f32,
                    up as *mut f32,
                    m,
                    vp as *mut f32,
                    n,
                    wk as *mut f32,
                    lwork,
                    inf,
                    params,
                ),
                _ => cs::cusolverDnDgesvdj(
                    s.h,
                    jobz,
                    0,
                    m,
                    n,
                    a as *mut f64,
                    m,
                    sp as *mut f64,
                    up as *mut f64,
                    m,
                    vp as *mut f64,
                    n,
                    wk as *mut f64,
                    lwork,
                    inf,
                    params,
                ),
            }
        })?;
    }
    cx.infos(info, batch)
}

fn too_big(d: usize) -> Error {
    Error::value(format!(
        "svd: a dimension of {d} is beyond cuSOLVER's 32-bit sizes"
    ))
    .with_help("compute it on the CPU: to(x, cpu())")
}
