//! The matrix-vector case of matmul on a GPU (one row or one column of
//! output, no batch) with gcalc's own kernels (kernels/src/cuda/gemv.cu):
//! cuBLAS's gemm and gemv spend ~10 us of device time on a 400x784 product
//! (measured on an H100: `A @ w` statements at 9.9 / 11.0 us each), several
//! times a small kernel's cost, which is what a training loop pays per step.
//! Shapes with a long reduction over few outputs stay with cuBLAS.

use super::buffer::array_buffer;
use super::compile;
use super::driver::Gpu;
use super::ew::launch;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use std::ffi::c_void;

/// Outputs of the matrix's unit-stride dim (axpy) or of its strided dim (dot).
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// y[i] = sum_k m[i*ld + k] x[k*inc]: a warp per output.
    Dot,
    /// y[j] = sum_k m[k*ld + j] x[k*inc]: a thread per output, 32 row groups.
    Axpy,
}

/// Reductions longer than this go to cuBLAS unless there are many outputs
/// (gcalc's kernels give each output one warp or one 32-thread column).
const LONG: usize = 8192;

/// The kernels of `dt` on `g` (f32 or f64): dot, axpy; loaded once per device.
fn functions(g: &Gpu, dt: DType) -> Result<[compile::Func; 2]> {
    static LOADED: compile::Loaded<DType, 2> = compile::Loaded::new();
    LOADED.get_or_load(g, dt, || {
        let s = if dt == DType::Float32 { "f32" } else { "f64" };
        let names = [format!("gemv_dot_{s}"), format!("gemv_axpy_{s}")];
        compile::functions(g, "gemv", &[&names[0], &names[1]], || {
            gcalc_kernels::cuda::GEMV.to_string()
        })
    })
}

/// `y = a @ b` for `m == 1` or `n == 1` into the contiguous `y` (dtype `dt`,
/// f32 or f64), the operands already in `dt` with the layouts `la`/`lb` that
/// `blas::mat_layout` gave: (stored transposed?, leading dim). False when the
/// shape or layout is left to cuBLAS.
#[allow(clippy::too_many_arguments)]
pub fn run(
    g: &Gpu,
    dt: DType,
    a: &Array,
    b: &Array,
    (ta, lda): (bool, i64),
    (tb, ldb): (bool, i64),
    (m, n, k): (usize, usize, usize),
    y: u64,
) -> Result<bool> {
    if !matches!(dt, DType::Float32 | DType::Float64) {
        return Ok(false);
    }
    let (na, nb) = (a.ndim(), b.ndim());
    let (form, outs, mat, ld, vec, inc) = if n == 1 {
        // y (m) = A x with x = b[:, 0]; A row-major: rows of A are dot products.
        let inc = if k == 1 { 1 } else { b.strides()[nb - 2] };
        let form = if ta { Form::Axpy } else { Form::Dot };
        (form, m, a, lda, b, inc)
    } else if m == 1 {
        // y (n) = x B with x = a[0, :]; B row-major: y sweeps B's rows.
        let inc = if k == 1 { 1 } else { a.strides()[na - 1] };
        let form = if tb { Form::Dot } else { Form::Axpy };
        (form, n, b, ldb, a, inc)
    } else {
        return Ok(false);
    };
    let many_outs = match form {
        Form::Dot => outs >= 1024,
        Form::Axpy => outs >= 4096,
    };
    if inc <= 0 || ld < 1 || (k > LONG && !many_outs) {
        return Ok(false);
    }
    let fs = functions(g, dt)?;
    let mut pm = array_buffer(mat)?.ptr_at(mat.offset());
    let mut pv = array_buffer(vec)?.ptr_at(vec.offset());
    let (mut py, mut no, mut len, mut ld, mut inc) = (y, outs as i64, k as i64, ld, inc as i64);
    let mut params: [*mut c_void; 7] = [
        &mut pm as *mut u64 as *mut c_void,
        &mut no as *mut i64 as *mut c_void,
        &mut len as *mut i64 as *mut c_void,
        &mut ld as *mut i64 as *mut c_void,
        &mut pv as *mut u64 as *mut c_void,
        &mut inc as *mut i64 as *mut c_void,
        &mut py as *mut u64 as *mut c_void,
    ];
    let (f, grid, block) = match form {
        Form::Dot => (fs[0], (outs * 32).div_ceil(256), (256, 1, 1)),
        Form::Axpy => (fs[1], outs.div_ceil(32), (32, 32, 1)),
    };
    let grid = u32::try_from(grid)
        .map_err(|_| crate::Error::value("matrix too large for the GPU's matrix-vector kernel"))?;
    launch(
        g,
        f,
        (grid, 1, 1),
        block,
        0,
        &mut params,
        "a matrix-vector product",
    )?;
    Ok(true)
}
