//! matmul on a GPU through cuBLAS: row-major products by the transposition
//! trick (C^T = B^T A^T in column-major), transposed views passed as
//! transpose flags rather than copied, batches through strided batched GEMM
//! (a batch stride of 0 broadcasts one operand); matrix-vector products go
//! to `gemv.rs`. Plain fp32/fp64 (no TF32).

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::driver::{Gpu, gpu};
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use cudarc::cublas::{result as cb, sys as cbs};
use std::sync::Arc;

/// A cuBLAS handle bound to the device's stream.
pub struct Handle(cbs::cublasHandle_t);
// SAFETY: used only under the device's mutex, with its context bound.
unsafe impl Send for Handle {}

pub(crate) fn with_handle<T>(
    g: &Gpu,
    f: impl FnOnce(cbs::cublasHandle_t) -> Result<T>,
) -> Result<T> {
    let mut lock = g
        .blas
        .lock()
        .map_err(|_| Error::internal("cuBLAS handle lock poisoned"))?;
    if lock.is_none() {
        if !unsafe { cbs::is_culib_present() } {
            return Err(Error::device("cuBLAS (libcublas.so) was not found: gcalc needs it for matmul on the GPU")
                .with_help("install the CUDA toolkit's cuBLAS (or pip's nvidia-cublas) and add its lib folder to LD_LIBRARY_PATH"));
        }
        let h = cb::create_handle()
            .map_err(|e| Error::device(format!("cuBLAS could not start: {e:?}")))?;
        unsafe { cb::set_stream(h, g.stream as _) }
            .map_err(|e| Error::device(format!("cuBLAS: {e:?}")))?;
        *lock = Some(Handle(h));
    }
    let h = lock
        .as_ref()
        .map(|h| h.0)
        .ok_or_else(|| Error::internal("no cuBLAS handle"))?;
    f(h)
}

/// Make `g`'s cuBLAS handle now (cuBLAS's start-up, 0.25-0.55 s, at the
/// GPU's opening rather than inside the first timed product; `warm.rs`).
pub(crate) fn ensure_handle(g: &Gpu) -> Result<()> {
    with_handle(g, |_| Ok(()))
}

/// One operand's last two dims as cuBLAS sees them: (transposed?, leading dim).
fn mat_layout(a: &Array) -> Option<(bool, i64)> {
    let nd = a.ndim();
    let (r, c) = (a.shape()[nd - 2] as isize, a.shape()[nd - 1] as isize);
    let (sr, sc) = (a.strides()[nd - 2], a.strides()[nd - 1]);
    if (sc == 1 || c == 1) && (sr == c || r == 1) {
        Some((false, c.max(1) as i64))
    } else if (sr == 1 || r == 1) && (sc == r || c == 1) {
        Some((true, r.max(1) as i64))
    } else {
        None
    }
}

/// Batch stride of an operand whose batch dims are flattened (None: needs a copy).
fn batch_stride(a: &Array) -> Option<i64> {
    let nd = a.ndim();
    if nd <= 2 {
        return Some(0);
    }
    let batch: usize = a.shape()[..nd - 2].iter().product();
    if batch == 1 {
        return Some(0);
    }
    // Flattenable batch dims: contiguous among themselves.
    let inner = a.strides()[nd - 3];
    let mut expect = inner;
    for d in (0..nd - 2).rev() {
        if a.shape()[d] != 1 && a.strides()[d] != expect {
            return None;
        }
        expect *= a.shape()[d] as isize;
    }
    Some(inner as i64)
}

/// `a @ b` for GPU arrays of 2 or more dims (1-d operands are viewed as rows/columns by the caller).
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    if let Some(d) = [a.dtype(), b.dtype()].into_iter().find(|d| d.is_complex()) {
        return Err(super::complex::refuse("matmul", d));
    }
    let (da, db) = (a.device(), b.device());
    if da != db {
        return Err(Error::device_mismatch("matmul", da, db));
    }
    let Device::Gpu(i) = da else {
        return Err(Error::internal("cuda matmul on the CPU"));
    };
    let g = gpu(i)?;
    let (a1, b1) = (a.ndim() == 1, b.ndim() == 1);
    let a = if a1 {
        a.view(
            vec![1, a.size()],
            vec![a.strides()[0], a.strides()[0]],
            a.offset(),
        )
    } else {
        a.clone()
    };
    let b = if b1 {
        b.view(vec![b.size(), 1], vec![b.strides()[0], 1], b.offset())
    } else {
        b.clone()
    };
    let (m, k) = (a.shape()[a.ndim() - 2], a.shape()[a.ndim() - 1]);
    let (k2, n) = (b.shape()[b.ndim() - 2], b.shape()[b.ndim() - 1]);
    if k != k2 {
        return Err(Error::shape(
            "matmul",
            format!(
                "inner dimensions differ: {} @ {}",
                crate::array::layout::fmt_shape(a.shape()),
                crate::array::layout::fmt_shape(b.shape())
            ),
        ));
    }
    let ba = &a.shape()[..a.ndim() - 2];
    let bb = &b.shape()[..b.ndim() - 2];
    let batch_shape = crate::array::layout::broadcast_shapes(ba, bb, "matmul")?;
    let batch: usize = batch_shape.iter().product();
    let pa: usize = ba.iter().product();
    let pb: usize = bb.iter().product();
    if (pa != batch && pa != 1) || (pb != batch && pb != 1) {
        return Err(Error::shape(
            "matmul",
            "batch dimensions that need broadcasting beyond one operand are not supported on the GPU yet",
        ));
    }
    // Compute dtype: f32/f64 directly; f16 in f32; ints and bools in f64.
    let dt = a.dtype().max_float(b.dtype());
    let mut shape = batch_shape.clone();
    if !a1 {
        shape.push(m);
    }
    if !b1 {
        shape.push(n);
    }
    // An empty result, or an empty sum (k = 0: zeros): no product to run,
    // and empty operands have no layout cuBLAS takes.
    if batch * m * n == 0 || k == 0 {
        let z = super::ew::zeros(&shape, dt, i)?;
        return finish(z, a.dtype(), b.dtype());
    }
    let prep = |x: &Array| -> Result<Array> {
        let x = if x.dtype() != dt {
            super::ew::copy(x, dt)?
        } else {
            x.clone()
        };
        if mat_layout(&x).is_some() && batch_stride(&x).is_some() {
            Ok(x)
        } else {
            super::ew::copy(&x, dt)
        }
    };
    let (dta, dtb) = (a.dtype(), b.dtype());
    let (a, b) = (prep(&a)?, prep(&b)?);
    let (ta, lda) = mat_layout(&a).ok_or_else(|| Error::internal("matmul layout"))?;
    let (tb, ldb) = mat_layout(&b).ok_or_else(|| Error::internal("matmul layout"))?;
    let sa = if pa == 1 {
        0
    } else {
        batch_stride(&a).unwrap_or(0)
    };
    let sb = if pb == 1 {
        0
    } else {
        batch_stride(&b).unwrap_or(0)
    };
    let out = DeviceBuffer::alloc(&g, dt, batch * m * n)?;
    let gemv = batch == 1
        && super::gemv::run(
            &g,
            dt,
            &a,
            &b,
            (ta, lda),
            (tb, ldb),
            (m, n, k),
            out.ptr_at(0),
        )?;
    if gemv {
        return finish(array_of(out, shape), dta, dtb);
    }
    gemm(
        &g,
        dt,
        (tb, ta),
        (n, m, k),
        (array_buffer(&b)?.ptr_at(b.offset()), ldb, sb),
        (array_buffer(&a)?.ptr_at(a.offset()), lda, sa),
        (out.ptr_at(0), n as i64, (m * n) as i64),
        batch,
    )?;
    finish(array_of(out, shape), dta, dtb)
}

fn finish(r: Array, da: DType, db: DType) -> Result<Array> {
    let want = crate::dtype::promote(da, db);
    if (r.dtype() != want && !want.is_float()) || want == DType::Float16 {
        super::ew::copy(&r, want)
    } else {
        Ok(r)
    }
}

trait MaxFloat {
    fn max_float(self, o: DType) -> DType;
}
impl MaxFloat for DType {
    fn max_float(self, o: DType) -> DType {
        match (self, o) {
            (DType::Float32 | DType::Float16, DType::Float32 | DType::Float16) => DType::Float32,
            _ => DType::Float64,
        }
    }
}

/// Column-major C = op(X) op(Y), X given first (the caller passes B, A).
fn gemm(
    g: &Arc<Gpu>,
    dt: DType,
    (tx, ty): (bool, bool),
    (m, n, k): (usize, usize, usize),
    (x, ldx, sx): (u64, i64, i64),
    (y, ldy, sy): (u64, i64, i64),
    (c, ldc, sc): (u64, i64, i64),
    batch: usize,
) -> Result<()> {
    use cbs::cublasOperation_t as Op;
    let op = |t: bool| if t { Op::CUBLAS_OP_T } else { Op::CUBLAS_OP_N };
    let (m, n, k) = (m as i32, n as i32, k as i32);
    let err = |e: cudarc::cublas::result::CublasError| {
        Error::device(format!("cuBLAS matmul failed: {e:?}")).with_op("matmul")
    };
    g.before_launch();
    with_handle(g, |h| {
        unsafe {
            match dt {
                DType::Float32 => {
                    let (al, be) = (1.0f32, 0.0f32);
                    if batch == 1 {
                        cb::sgemm(
                            h,
                            op(tx),
                            op(ty),
                            m,
                            n,
                            k,
                            &al,
                            x as *const f32,
                            ldx as i32,
                            y as *const f32,
                            ldy as i32,
                            &be,
                            c as *mut f32,
                            ldc as i32,
                        )
                    } else {
                        cb::sgemm_strided_batched(
                            h,
                            op(tx),
                            op(ty),
                            m,
                            n,
                            k,
                            &al,
                            x as *const f32,
                            ldx as i32,
                            sx,
                            y as *const f32,
                            ldy as i32,
                            sy,
                            &be,
                            c as *mut f32,
                            ldc as i32,
                            sc,
                            batch as i32,
                        )
                    }
                }
                _ => {
                    let (al, be) = (1.0f64, 0.0f64);
                    if batch == 1 {
                        cb::dgemm(
                            h,
                            op(tx),
                            op(ty),
                            m,
                            n,
                            k,
                            &al,
                            x as *const f64,
                            ldx as i32,
                            y as *const f64,
                            ldy as i32,
                            &be,
                            c as *mut f64,
                            ldc as i32,
                        )
                    } else {
                        cb::dgemm_strided_batched(
                            h,
                            op(tx),
                            op(ty),
                            m,
                            n,
                            k,
                            &al,
                            x as *const f64,
                            ldx as i32,
                            sx,
                            y as *const f64,
                            ldy as i32,
                            sy,
                            &be,
                            c as *mut f64,
                            ldc as i32,
                            sc,
                            batch as i32,
                        )
                    }
                }
            }
        }
        .map_err(err)
    })?;
    g.after_launch()
}
