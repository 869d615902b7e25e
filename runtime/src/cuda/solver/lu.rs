//! LU on a GPU: solve, inv, det, slogdet. One matrix (or a stack of large
//! ones): cuSOLVER's Xgetrf/Xgetrs (64-bit pivots), a call per matrix; a
//! stack of matrices of at most 32 rows (`batched::small_stack`): cuBLAS's
//! getrfBatched and getrsBatched, one call for the whole stack (32-bit
//! pivots). A row-major
//! a is the column-major m = a^T, factored in place of a contiguous copy:
//! a x = b is m^T x = b (getrs with OP_T, b and x column-major), and m^-1 =
//! a^-T read row-major is a^-1 (getrs with OP_N on identities: inv needs no
//! transpose at all).

use super::{Ctx, Solver, col_major, copy, mat_ptr, pointers, swapped};
use crate::array::Array;
use crate::cuda::buffer::{DeviceBuffer, array_of};
use crate::dtype::DType;
use crate::error::{Error, Result};
use cudarc::cublas::sys as cbs;
use cudarc::cusolver::sys as cs;
use std::ffi::c_void;

/// A stack factored in place: pivots (int32 when `piv32`, the batched
/// routine's), one info per matrix, and the device array of the matrices'
/// addresses (the batched routines').
struct Factors {
    piv: DeviceBuffer,
    piv32: bool,
    info: DeviceBuffer,
    ptrs: Option<Array>,
}

/// Factor each matrix of the contiguous stack `lu` in place.
fn factor(cx: &Ctx, s: &Solver, lu: &Array, n: usize, batch: usize) -> Result<Factors> {
    let info = cx.alloc(DType::Int32, batch)?;
    if n > 0 && super::batched::small_stack(n, batch) {
        let piv = cx.alloc(DType::Int32, batch * n)?;
        let ptrs = pointers(cx, lu, n * n, batch)?;
        let p = mat_ptr(&ptrs, 0, 0)?;
        crate::cuda::blas::with_handle(&cx.g, |h| {
            cx.call_blas("getrfBatched", || unsafe {
                // SAFETY: `ptrs` holds `batch` addresses of n x n matrices; pivots
                // and infos have room for every matrix; all outlive the queued call.
                match cx.dt {
                    DType::Float32 => cbs::cublasSgetrfBatched(
                        h,
                        n as i32,
                        p as *const *mut f32,
                        n as i32,
                        piv.ptr_at(0) as *mut i32,
                        info.ptr_at(0) as *mut i32,
                        batch as i32,
                    ),
                    _ => cbs::cublasDgetrfBatched(
                        h,
                        n as i32,
                        p as *const *mut f64,
                        n as i32,
                        piv.ptr_at(0) as *mut i32,
                        info.ptr_at(0) as *mut i32,
                        batch as i32,
                    ),
                }
            })
        })?;
        return Ok(Factors {
            piv,
            piv32: true,
            info,
            ptrs: Some(ptrs),
        });
    }
    let piv = cx.alloc(DType::Int64, batch * n)?;
    if n == 0 || batch == 0 {
        return Ok(Factors {
            piv,
            piv32: false,
            info,
            ptrs: None,
        });
    }
    let (mut dev_b, mut host_b) = (0usize, 0usize);
    let a0 = mat_ptr(lu, 0, n * n)?;
    // SAFETY: sizes and pointers describe live buffers of this GPU; outputs are locals.
    super::status(
        unsafe {
            cs::cusolverDnXgetrf_bufferSize(
                s.h,
                s.params,
                n as i64,
                n as i64,
                cx.cdt,
                a0 as *const c_void,
                n as i64,
                cx.cdt,
                &mut dev_b,
                &mut host_b,
            )
        },
        "getrf's workspace size",
    )?;
    let (work, mut host) = cx.workspace(dev_b, host_b)?;
    for i in 0..batch {
        let a = mat_ptr(lu, i, n * n)?;
        let (p, inf) = (piv.ptr_at(i * n), info.ptr_at(i));
        cx.call("getrf", || unsafe {
            // SAFETY: as above; every buffer outlives the queued call (stream-ordered frees).
            cs::cusolverDnXgetrf(
                s.h,
                s.params,
                n as i64,
                n as i64,
                cx.cdt,
                a as *mut c_void,
                n as i64,
                p as *mut i64,
                cx.cdt,
                work.ptr_at(0) as *mut c_void,
                dev_b,
                host.as_mut_ptr() as *mut c_void,
                host_b,
                inf as *mut i32,
            )
        })?;
    }
    Ok(Factors {
        piv,
        piv32: false,
        info,
        ptrs: None,
    })
}

/// Solve with the factors for `k` right-hand sides per matrix in `rhs`
/// (column-major n x k each), in place; `trans`: with m^T.
fn solve_with(
    cx: &Ctx,
    s: &Solver,
    lu: &Array,
    f: &Factors,
    rhs: &Array,
    (n, k, batch): (usize, usize, usize),
    trans: bool,
) -> Result<()> {
    if n == 0 || k == 0 || batch == 0 {
        return Ok(());
    }
    if let Some(ptrs) = &f.ptrs {
        let bptrs = pointers(cx, rhs, n * k, batch)?;
        let (pa, pb) = (mat_ptr(ptrs, 0, 0)?, mat_ptr(&bptrs, 0, 0)?);
        let op = match trans {
            true => cbs::cublasOperation_t::CUBLAS_OP_T,
            false => cbs::cublasOperation_t::CUBLAS_OP_N,
        };
        let mut host_info = 0i32;
        crate::cuda::blas::with_handle(&cx.g, |h| {
            cx.call_blas("getrsBatched", || unsafe {
                // SAFETY: as in `factor`; `host_info` is a local the call writes.
                match cx.dt {
                    DType::Float32 => cbs::cublasSgetrsBatched(
                        h,
                        op,
                        n as i32,
                        k as i32,
                        pa as *const *const f32,
                        n as i32,
                        f.piv.ptr_at(0) as *const i32,
                        pb as *const *mut f32,
                        n as i32,
                        &mut host_info,
                        batch as i32,
                    ),
                    _ => cbs::cublasDgetrsBatched(
                        h,
                        op,
                        n as i32,
                        k as i32,
                        pa as *const *const f64,
                        n as i32,
                        f.piv.ptr_at(0) as *const i32,
                        pb as *const *mut f64,
                        n as i32,
                        &mut host_info,
                        batch as i32,
                    ),
                }
            })
        })?;
        if host_info != 0 {
            return Err(Error::internal(format!(
                "getrsBatched rejected argument {}",
                -host_info
            )));
        }
        return Ok(());
    }
    let info = cx.alloc(DType::Int32, batch)?;
    let op = match trans {
        true => cs::cublasOperation_t::CUBLAS_OP_T,
        false => cs::cublasOperation_t::CUBLAS_OP_N,
    };
    for i in 0..batch {
        let (a, b) = (mat_ptr(lu, i, n * n)?, mat_ptr(rhs, i, n * k)?);
        cx.call("getrs", || unsafe {
            // SAFETY: as in `factor`.
            cs::cusolverDnXgetrs(
                s.h,
                s.params,
                op,
                n as i64,
                k as i64,
                cx.cdt,
                a as *const c_void,
                n as i64,
                f.piv.ptr_at(i * n) as *const i64,
                cx.cdt,
                b as *mut c_void,
                n as i64,
                info.ptr_at(i) as *mut i32,
            )
        })?;
    }
    Ok(())
}

/// The first matrix whose U has an exact zero on its diagonal (info > 0).
fn check_singular(cx: &Ctx, info: DeviceBuffer, batch: usize, shape: &[usize]) -> Result<()> {
    if batch == 0 {
        return Ok(());
    }
    match cx.infos(info, batch)?.iter().position(|&v| v > 0) {
        Some(i) => Err(cx.op.singular(i, shape)),
        None => Ok(()),
    }
}

pub(super) fn solve(cx: &Ctx, s: &Solver, a: &Array, b: &Array, check: bool) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let n = a.shape()[nd - 1];
    let k = b.shape()[nd - 1];
    let batch: usize = a.shape()[..nd - 2].iter().product();
    let lu = copy(a, cx.dt)?;
    let x = col_major(b, cx.dt)?;
    let f = factor(cx, s, &lu, n, batch)?;
    solve_with(cx, s, &lu, &f, &x, (n, k, batch), true)?;
    if check {
        check_singular(cx, f.info, batch, a.shape())?;
    }
    Ok(vec![crate::cuda::ew::copy(&swapped(&x), cx.dt)?])
}

pub(super) fn inv(cx: &Ctx, s: &Solver, a: &Array, check: bool) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let n = a.shape()[nd - 1];
    let batch: usize = a.shape()[..nd - 2].iter().product();
    let lu = copy(a, cx.dt)?;
    let x = array_of(cx.eye(batch, n)?, a.shape().to_vec());
    let f = factor(cx, s, &lu, n, batch)?;
    solve_with(cx, s, &lu, &f, &x, (n, n, batch), false)?;
    if check {
        check_singular(cx, f.info, batch, a.shape())?;
    }
    Ok(vec![x])
}

/// det (`log` false: sign * exp(log|det|), as NumPy) or (sign, log|det|).
pub(super) fn det(cx: &Ctx, s: &Solver, a: &Array, log: bool) -> Result<Vec<Array>> {
    let nd = a.ndim();
    let n = a.shape()[nd - 1];
    let batch: usize = a.shape()[..nd - 2].iter().product();
    let lu = copy(a, cx.dt)?;
    let f = factor(cx, s, &lu, n, batch)?;
    let bshape = a.shape()[..nd - 2].to_vec();
    let sign = cx.alloc(cx.dt, batch)?;
    let logabs = cx.alloc(cx.dt, batch)?;
    if batch > 0 {
        let kf = cx.kernels()?[1];
        let mut p = [mat_ptr(&lu, 0, 0)?, f.piv.ptr_at(0)];
        let (mut bt, mut nn) = (batch as i64, n as i64);
        let (mut sp, mut lp) = (sign.ptr_at(0), logabs.ptr_at(0));
        let (mut det, mut piv32) = ((!log) as i32, f.piv32 as i32);
        let mut params: [*mut c_void; 8] = [
            &mut p[0] as *mut u64 as *mut c_void,
            &mut p[1] as *mut u64 as *mut c_void,
            &mut bt as *mut i64 as *mut c_void,
            &mut nn as *mut i64 as *mut c_void,
            &mut sp as *mut u64 as *mut c_void,
            &mut lp as *mut u64 as *mut c_void,
            &mut det as *mut i32 as *mut c_void,
            &mut piv32 as *mut i32 as *mut c_void,
        ];
        let grid = batch.div_ceil(128).min(65_535) as u32;
        crate::cuda::ew::launch(
            &cx.g,
            kf,
            (grid, 1, 1),
            (128, 1, 1),
            0,
            &mut params,
            "a determinant",
        )?;
    }
    Ok(match log {
        true => vec![array_of(sign, bshape.clone()), array_of(logabs, bshape)],
        false => vec![array_of(sign, bshape)],
    })
}
