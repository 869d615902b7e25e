//! Matrix decompositions on a GPU through cuSOLVER (loaded at run time like
//! the driver): its 64-bit generic API — Xgetrf/Xgetrs (`lu.rs`), Xpotrf and
//! Xgeqrf + orgqr (`factor.rs`), Xgesvd and Xsyevd (`spectral.rs`) — one
//! call per matrix of a stack, all queued on the device's stream; stacks of
//! small matrices (at most 32 rows) take one call for the whole stack
//! instead (`batched.rs`: potrfBatched, syevjBatched, gesvdjBatched; cuBLAS's
//! getrfBatched/getrsBatched in `lu.rs`) — with
//! gcalc's kernels (kernels/src/cuda/linalg.cu) for the layouts around them.
//! gcalc's arrays are row-major and cuSOLVER's matrices column-major: a
//! row-major a is the column-major a^T, which every routine here uses
//! rather than copying where it can (see each file).
//!
//! Each routine writes an `info` per matrix into one device array, read
//! once after the whole stack is queued (one sync) wherever NumPy raises on
//! it (a singular matrix for solve and inv, not positive definite, no
//! convergence); det, slogdet and qr read none.

mod batched;
mod factor;
mod lu;
mod spectral;

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::DecompOp;
use cudarc::cusolver::sys as cs;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

/// A cuSOLVER dense handle bound to one GPU's stream, with its params object.
struct Solver {
    h: cs::cusolverDnHandle_t,
    params: cs::cusolverDnParams_t,
}
// SAFETY: used only under `SOLVERS`' lock, with the GPU's context bound.
unsafe impl Send for Solver {}

static SOLVERS: Mutex<Vec<(u32, Solver)>> = Mutex::new(Vec::new());

/// Whether `GCALC_HIDE_LIBS` (a comma-separated list, for testing the
/// message on a machine that has the library) hides `lib`.
fn hidden(lib: &str) -> bool {
    std::env::var("GCALC_HIDE_LIBS").is_ok_and(|v| v.split(',').any(|x| x.trim() == lib))
}

/// The error of a GPU decomposition when libcusolver cannot be loaded
/// (`None` when it can): names the library, the function and how to get it.
pub fn library_error(op: &str) -> Option<Error> {
    // SAFETY: only probes whether the shared library can be opened.
    if !hidden("cusolver") && unsafe { cs::is_culib_present() } {
        return None;
    }
    Some(
        Error::device(format!(
            "cuSOLVER (libcusolver.so) could not be loaded: gcalc needs it for {op} on the GPU"
        ))
        .with_op(op)
        .with_help("install the CUDA toolkit's cuSOLVER (it comes with the toolkit's lib64, or `pip install nvidia-cusolver-cu12` with its cuBLAS and cuSPARSE) and add its lib folder to LD_LIBRARY_PATH; meanwhile x.to(cpu()) computes it on the CPU"),
    )
}

fn status(s: cs::cusolverStatus_t, what: &str) -> Result<()> {
    match s {
        cs::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS => Ok(()),
        s => Err(Error::device(format!("cuSOLVER failed in {what}: {s:?}"))),
    }
}

/// Run `f` with GPU `g`'s solver (made and bound to its stream on first use).
fn with_solver<T>(g: &Gpu, op: DecompOp, f: impl FnOnce(&Solver) -> Result<T>) -> Result<T> {
    if let Some(e) = library_error(op.name()) {
        return Err(e);
    }
    let mut lock = SOLVERS
        .lock()
        .map_err(|_| Error::internal("cuSOLVER handle lock poisoned"))?;
    if !lock.iter().any(|(o, _)| *o == g.ordinal) {
        let mut h: cs::cusolverDnHandle_t = std::ptr::null_mut();
        // SAFETY: out-pointers to locals; the context is bound (`gpu()`).
        status(unsafe { cs::cusolverDnCreate(&mut h) }, "creating a handle")?;
        status(
            unsafe { cs::cusolverDnSetStream(h, g.stream as _) },
            "binding the stream",
        )?;
        let mut params: cs::cusolverDnParams_t = std::ptr::null_mut();
        status(
            unsafe { cs::cusolverDnCreateParams(&mut params) },
            "creating params",
        )?;
        lock.push((g.ordinal, Solver { h, params }));
    }
    let s = lock
        .iter()
        .find(|(o, _)| *o == g.ordinal)
        .map(|(_, s)| s)
        .ok_or_else(|| Error::internal("no cuSOLVER handle"))?;
    f(s)
}

/// One decomposition call: the GPU, the dtype and cuSOLVER's name for it.
struct Ctx {
    g: Arc<Gpu>,
    dt: DType,
    cdt: cs::cudaDataType,
    op: DecompOp,
}

impl Ctx {
    /// Space for `len` elements of `dt` on this GPU.
    fn alloc(&self, dt: DType, len: usize) -> Result<DeviceBuffer> {
        DeviceBuffer::alloc(&self.g, dt, len.max(1))
    }

    /// Device workspace of `bytes` (8-byte aligned) and host workspace.
    fn workspace(&self, dev_bytes: usize, host_bytes: usize) -> Result<(DeviceBuffer, Vec<u8>)> {
        Ok((
            self.alloc(DType::Float64, dev_bytes.div_ceil(8))?,
            vec![0u8; host_bytes],
        ))
    }

    /// One cuSOLVER call on the stream, reported to the profiler as a launch.
    fn call(&self, what: &str, f: impl FnOnce() -> cs::cusolverStatus_t) -> Result<()> {
        self.g.before_launch();
        status(f(), what)?;
        self.g.after_launch()
    }

    /// One cuBLAS call on the stream (the batched LU), reported as a launch.
    fn call_blas(
        &self,
        what: &str,
        f: impl FnOnce() -> cudarc::cublas::sys::cublasStatus_t,
    ) -> Result<()> {
        self.g.before_launch();
        match f() {
            cudarc::cublas::sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS => {}
            s => return Err(Error::device(format!("cuBLAS failed in {what}: {s:?}"))),
        }
        self.g.after_launch()
    }

    /// The infos of a stack, downloaded (the one sync).
    fn infos(&self, info: DeviceBuffer, n: usize) -> Result<Vec<i32>> {
        let a = array_of(info, vec![n.max(1)]).to_host()?;
        Ok(a.to_vec::<i32>()?.into_iter().take(n).collect())
    }

    /// gcalc's helper kernels of this dtype: tri_copy, lu_slogdet, eye_fill, tile_t.
    fn kernels(&self) -> Result<[compile::Func; 4]> {
        static LOADED: compile::Loaded<DType, 4> = compile::Loaded::new();
        let dt = self.dt;
        LOADED.get_or_load(&self.g, dt, || {
            let s = if dt == DType::Float32 { "f32" } else { "f64" };
            let names = [
                format!("tri_copy_{s}"),
                format!("lu_slogdet_{s}"),
                format!("eye_fill_{s}"),
                format!("tile_t_{s}"),
            ];
            compile::functions(
                &self.g,
                "linalg",
                &[&names[0], &names[1], &names[2], &names[3]],
                || gcalc_kernels::cuda::LINALG.to_string(),
            )
        })
    }

    /// The transposes of a stack of `batch` row-major (cols x rows) matrices
    /// at `src` (`ss` elements apart) as a new contiguous stack of (rows x
    /// cols), keeping all (`mode` 0), the upper (1) or the lower (2)
    /// triangle: `tile_t`, coalesced on both sides. `None` when the grid
    /// would not fit a launch (the caller uses `tri_copy`).
    fn transposed(
        &self,
        src: u64,
        (batch, rows, cols): (usize, usize, usize),
        ss: usize,
        mode: i32,
    ) -> Result<Option<DeviceBuffer>> {
        let (gx, gy) = (cols.div_ceil(32), rows.div_ceil(32));
        if batch > 65_535 || gy > 65_535 || gx > u32::MAX as usize {
            return Ok(None);
        }
        let out = self.alloc(self.dt, batch * rows * cols)?;
        if batch * rows * cols > 0 {
            let f = self.kernels()?[3];
            let (mut s, mut d, mut mode) = (src, out.ptr_at(0), mode);
            let mut v: [i64; 4] = [rows, cols, ss, rows * cols].map(|x| x as i64);
            let mut params = copy_params(&mut s, &mut d, &mut v, &mut mode);
            launch(
                &self.g,
                f,
                (gx as u32, gy as u32, batch as u32),
                (32, 8, 1),
                0,
                &mut params,
                "a matrix transpose",
            )?;
        }
        Ok(Some(out))
    }

    /// A stack of `batch` row-major `rows x cols` matrices read from `src`
    /// (element `(r, c)` of matrix `b` at `b*bs + r*rs + c*cs`), keeping all
    /// (`mode` 0), the upper (1) or the lower (2) triangle; written into
    /// `dst` at `ds` elements apart (a new contiguous buffer when `None`).
    fn tri_copy(
        &self,
        src: u64,
        (batch, rows, cols): (usize, usize, usize),
        (rs, cs, bs): (usize, usize, usize),
        mode: i32,
        dst: Option<(u64, usize)>,
    ) -> Result<Option<DeviceBuffer>> {
        let (out, (dp, ds)) = match dst {
            Some(d) => (None, d),
            None => {
                let b = self.alloc(self.dt, batch * rows * cols)?;
                let p = b.ptr_at(0);
                (Some(b), (p, rows * cols))
            }
        };
        let total = batch * rows * cols;
        if total > 0 {
            let f = self.kernels()?[0];
            let (mut s, mut d, mut mode) = (src, dp, mode);
            let mut v: [i64; 7] = [batch, rows, cols, rs, cs, bs, ds].map(|x| x as i64);
            let mut params = copy_params(&mut s, &mut d, &mut v, &mut mode);
            let grid = total.div_ceil(256).min(65_535) as u32;
            launch(
                &self.g,
                f,
                (grid, 1, 1),
                (256, 1, 1),
                0,
                &mut params,
                "a matrix copy",
            )?;
        }
        Ok(out)
    }

    /// A stack of identity matrices.
    fn eye(&self, batch: usize, n: usize) -> Result<DeviceBuffer> {
        let b = self.alloc(self.dt, batch * n * n)?;
        let total = batch * n * n;
        if total > 0 {
            let f = self.kernels()?[2];
            let mut d = b.ptr_at(0);
            let (mut bt, mut nn) = (batch as i64, n as i64);
            let mut params: [*mut c_void; 3] = [
                &mut d as *mut u64 as *mut c_void,
                &mut bt as *mut i64 as *mut c_void,
                &mut nn as *mut i64 as *mut c_void,
            ];
            let grid = total.div_ceil(256).min(65_535) as u32;
            launch(
                &self.g,
                f,
                (grid, 1, 1),
                (256, 1, 1),
                0,
                &mut params,
                "an identity matrix",
            )?;
        }
        Ok(b)
    }
}

/// The launch parameters of tri_copy and tile_t: source and destination
/// addresses, the sizes, the triangle mode.
fn copy_params(s: &mut u64, d: &mut u64, v: &mut [i64], mode: &mut i32) -> Vec<*mut c_void> {
    let mut p: Vec<*mut c_void> = vec![s as *mut u64 as *mut c_void, d as *mut u64 as *mut c_void];
    p.extend(v.iter_mut().map(|x| x as *mut i64 as *mut c_void));
    p.push(mode as *mut i32 as *mut c_void);
    p
}

/// `a`'s last two axes swapped (a view).
fn swapped(a: &Array) -> Array {
    let nd = a.ndim();
    let (mut sh, mut st) = (a.shape().to_vec(), a.strides().to_vec());
    sh.swap(nd - 2, nd - 1);
    st.swap(nd - 2, nd - 1);
    a.view(sh, st, a.offset())
}

/// A contiguous copy of `a` in `dt`: row-major a, which cuSOLVER reads as a^T.
fn copy(a: &Array, dt: DType) -> Result<Array> {
    super::ew::copy(a, dt)
}

/// A contiguous (..., n, m) copy of a (..., m, n): a in column-major order.
fn col_major(a: &Array, dt: DType) -> Result<Array> {
    super::ew::copy(&swapped(a), dt)
}

/// Device address of matrix `i` of a contiguous stack of `per`-element matrices.
fn mat_ptr(a: &Array, i: usize, per: usize) -> Result<u64> {
    Ok(array_buffer(a)?.ptr_at(a.offset() + i * per))
}

/// The device addresses of the `batch` matrices of the contiguous stack
/// `a` (`per` elements each), uploaded: the pointer array the batched
/// routines take.
fn pointers(cx: &Ctx, a: &Array, per: usize, batch: usize) -> Result<Array> {
    let base = mat_ptr(a, 0, 0)?;
    let size = (per * cx.dt.size()) as u64;
    let host: Vec<i64> = (0..batch as u64)
        .map(|i| (base + i * size) as i64)
        .collect();
    let dev = match a.device() {
        Device::Gpu(d) => d,
        Device::Cpu => return Err(Error::internal("pointer array of a CPU array")),
    };
    super::buffer::upload(&Array::from_vec(host, vec![batch]), dev)
}

/// `shape` with its last two dims replaced by `tail`.
fn with_tail(shape: &[usize], tail: &[usize]) -> Vec<usize> {
    let mut s = shape[..shape.len() - 2].to_vec();
    s.extend_from_slice(tail);
    s
}

/// `op` on GPU arrays of one float dtype (batch dims equal; checked by the caller).
pub fn run(op: DecompOp, inputs: &[Array]) -> Result<Vec<Array>> {
    let a = inputs
        .first()
        .ok_or_else(|| Error::internal("decomposition without inputs"))?;
    let Device::Gpu(dev) = a.device() else {
        return Err(Error::internal("cuSOLVER call on a CPU array"));
    };
    let dt = a.dtype();
    let cdt = match dt {
        DType::Float32 => cs::cudaDataType::CUDA_R_32F,
        DType::Float64 => cs::cudaDataType::CUDA_R_64F,
        d => {
            return Err(Error::internal(format!(
                "{}: dtype {d} reached cuSOLVER",
                op.name()
            )));
        }
    };
    let g = gpu(dev)?;
    let cx = Ctx {
        g: g.clone(),
        dt,
        cdt,
        op,
    };
    with_solver(&g, op, |s| match op {
        DecompOp::Solve { check } => lu::solve(&cx, s, a, &inputs[1], check),
        DecompOp::Inv { check } => lu::inv(&cx, s, a, check),
        DecompOp::Det => lu::det(&cx, s, a, false),
        DecompOp::Slogdet => lu::det(&cx, s, a, true),
        DecompOp::Cholesky { upper } => factor::cholesky(&cx, s, a, upper),
        DecompOp::Qr { mode } => factor::qr(&cx, s, a, mode),
        DecompOp::Svd { full, uv } => spectral::svd(&cx, s, a, full, uv),
        DecompOp::Eigh { upper, vectors } => spectral::eigh(&cx, s, a, upper, vectors),
    })
}
