//! 1-d FFTs along an axis on a GPU through cuFFT (libcufft, loaded at run
//! time; missing, it is an error naming the library and the fix): one kernel
//! gathers the rows (the axis last, any strides), cuts or zero-pads them to
//! the transform's length, scales them (norm=) and converts them to the
//! compute dtype; one batched cuFFT plan (cached per device, length, batch
//! and type) transforms every row; the axis moves back as on the CPU.
//! float32 data is transformed in single precision (C2C/R2C/C2R), float64 in
//! double (Z2Z/D2Z/Z2D), as the CPU's rustfft and NumPy's pocketfft do.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::{Array, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::{FftJob, FftKind};
use cudarc::cufft::{result as cf, sys as cfs};
use gcalc_kernels::cuda::codegen::storage_type;
use std::collections::hash_map::DefaultHasher;
use std::ffi::{c_int, c_void};
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// Outer dimensions the gather kernel takes (`GC_CX_DIMS`).
const DIMS: usize = 8;
const BLOCK: u32 = 256;
/// Plans kept (each holds a work area on its device); the oldest goes first.
const PLANS: usize = 16;

/// The error when libcufft cannot be loaded.
pub fn missing_library() -> Error {
    Error::device(
        "cuFFT (libcufft.so.12, or libcufft.so) could not be loaded: gcalc needs it for the FFT family on the GPU",
    )
    .with_help("install the CUDA toolkit's cuFFT or pip's nvidia-cufft-cu13 wheel and add its lib folder to LD_LIBRARY_PATH; or compute on the CPU: fft(to(x, cpu))")
}

/// Whether libcufft can be loaded (probed once). `GCALC_HIDE_LIBS=cufft`
/// (comma-separated) hides it, to test the message on a machine that has it.
fn library() -> Result<()> {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    let probe = || {
        let hidden = std::env::var("GCALC_HIDE_LIBS")
            .is_ok_and(|v| v.split(',').any(|x| x.trim() == "cufft"));
        // SAFETY: only probes whether the shared library can be opened.
        !hidden && unsafe { cfs::is_culib_present() }
    };
    match *PRESENT.get_or_init(probe) {
        true => Ok(()),
        false => Err(missing_library()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct PlanKey {
    ordinal: u32,
    n: usize,
    batch: usize,
    ty: cfs::cufftType,
}

/// The cached plans: (key, handle), oldest first.
static CACHE: Mutex<Vec<(PlanKey, cfs::cufftHandle)>> = Mutex::new(Vec::new());

fn cufft_err(what: &str, e: cf::CufftError) -> Error {
    Error::device(format!("cuFFT failed while {what}: {:?}", e.0))
}

/// Run `f` with the plan of `key` on `g`'s stream (made and cached the first time).
fn with_plan<T>(g: &Gpu, key: PlanKey, f: impl FnOnce(cfs::cufftHandle) -> Result<T>) -> Result<T> {
    let mut cache = CACHE
        .lock()
        .map_err(|_| Error::internal("cuFFT plan cache lock poisoned"))?;
    g.bind()?;
    let h = match cache.iter().position(|(k, _)| *k == key) {
        Some(i) => {
            let e = cache.remove(i);
            cache.push(e);
            e.1
        }
        None => {
            let (Ok(n), Ok(batch)) = (c_int::try_from(key.n), c_int::try_from(key.batch)) else {
                return Err(Error::value(format!(
                    "an FFT of {} points in {} rows is too large for cuFFT",
                    key.n, key.batch
                )));
            };
            let mut dims = [n];
            let h = unsafe {
                cf::plan_many(
                    1,
                    dims.as_mut_ptr(),
                    std::ptr::null_mut(),
                    1,
                    0,
                    std::ptr::null_mut(),
                    1,
                    0,
                    key.ty,
                    batch,
                )
            }
            .map_err(|e| cufft_err("making a plan", e))?;
            unsafe { cf::set_stream(h, g.stream as cfs::cudaStream_t) }
                .map_err(|e| cufft_err("setting its stream", e))?;
            if cache.len() >= PLANS {
                let (_, old) = cache.remove(0);
                let _ = unsafe { cf::destroy(old) };
            }
            cache.push((key, h));
            h
        }
    };
    f(h)
}

/// The gather kernel's source: input dtype `i`, output (compute) dtype `o`.
pub fn pad_source(i: DType, o: DType) -> String {
    super::complex::with_helpers(&format!(
        "extern \"C\" __global__ void gc_fftpad({o}* out, const {i}* src, i64 rows, i64 nin, i64 len, i64 last, int nd, GcCxStrides p, double scale, i64 z0, i64 z1) {{ gc_fft_pad<{i}, {o}>(out, src, rows, nin, len, last, nd, p, scale, z0, z1); }}\n",
        o = storage_type(o),
        i = storage_type(i),
    ))
}

/// `job` over `x` on GPU `ordinal`, giving dtype `out` (complex, or real for `C2r`).
pub fn run(ordinal: u32, x: &Array, job: FftJob, out: DType) -> Result<Array> {
    library()?;
    let g = gpu(ordinal)?;
    let nd = x.ndim();
    let mut perm: Vec<i64> = (0..nd as i64).filter(|&d| d as usize != job.axis).collect();
    perm.push(job.axis as i64);
    let moved = x.transpose(Some(&perm))?;
    let outer: Vec<usize> = moved.shape()[..nd - 1].to_vec();
    let rows: usize = outer.iter().product();
    let (nin, nout) = (job.len_in(), job.len_out());
    let single = matches!(out, DType::Complex64 | DType::Float32);
    let (real, cplx) = match single {
        true => (DType::Float32, DType::Complex64),
        false => (DType::Float64, DType::Complex128),
    };
    let (din, ty) = match (job.kind, single) {
        (FftKind::C2c { .. }, true) => (cplx, cfs::cufftType::CUFFT_C2C),
        (FftKind::C2c { .. }, false) => (cplx, cfs::cufftType::CUFFT_Z2Z),
        (FftKind::R2c, true) => (real, cfs::cufftType::CUFFT_R2C),
        (FftKind::R2c, false) => (real, cfs::cufftType::CUFFT_D2Z),
        (FftKind::C2r, true) => (cplx, cfs::cufftType::CUFFT_C2R),
        (FftKind::C2r, false) => (cplx, cfs::cufftType::CUFFT_Z2D),
    };
    let mut shape = outer.clone();
    shape.push(nout);
    let obuf = DeviceBuffer::alloc(&g, out, rows * nout)?;
    if rows == 0 {
        return back(array_of(obuf, shape), &perm, out);
    }
    let ibuf = DeviceBuffer::alloc(&g, din, rows * nin)?;
    gather(&g, &moved, &ibuf, rows, nin, &job)?;
    let key = PlanKey {
        ordinal,
        n: job.n,
        batch: rows,
        ty,
    };
    let (ip, op) = (ibuf.ptr_at(0), obuf.ptr_at(0));
    with_plan(&g, key, |h| {
        g.before_launch();
        let r = unsafe {
            match (job.kind, single) {
                (FftKind::C2c { inverse }, true) => {
                    cf::exec_c2c(h, ip as *mut _, op as *mut _, if inverse { 1 } else { -1 })
                }
                (FftKind::C2c { inverse }, false) => {
                    cf::exec_z2z(h, ip as *mut _, op as *mut _, if inverse { 1 } else { -1 })
                }
                (FftKind::R2c, true) => cf::exec_r2c(h, ip as *mut _, op as *mut _),
                (FftKind::R2c, false) => cf::exec_d2z(h, ip as *mut _, op as *mut _),
                (FftKind::C2r, true) => cf::exec_c2r(h, ip as *mut _, op as *mut _),
                (FftKind::C2r, false) => cf::exec_z2d(h, ip as *mut _, op as *mut _),
            }
        };
        r.map_err(|e| cufft_err("transforming", e))?;
        g.after_launch()
    })?;
    // The input buffer is freed in stream order, after the transform.
    drop(ibuf);
    back(array_of(obuf, shape), &perm, out)
}

/// The result, rows of the moved axis last, with the axis put back (contiguous).
fn back(res: Array, perm: &[i64], out: DType) -> Result<Array> {
    if perm.iter().enumerate().all(|(i, &p)| p as usize == i) {
        return Ok(res);
    }
    let mut inv = vec![0i64; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inv[p as usize] = i as i64;
    }
    super::ew::copy(&res.transpose(Some(&inv))?, out)
}

/// Fill `dst` ([rows, nin] of its dtype) from `moved` (the axis last): rows
/// cut or zero-padded to `nin`, scaled, irfft's ignored imaginary parts 0.
fn gather(
    g: &std::sync::Arc<Gpu>,
    moved: &Array,
    dst: &DeviceBuffer,
    rows: usize,
    nin: usize,
    job: &FftJob,
) -> Result<()> {
    let nd = moved.ndim();
    let len = moved.shape()[nd - 1].min(nin);
    let outer = &moved.shape()[..nd - 1];
    let ost = &moved.strides()[..nd - 1];
    let (mut ms, mut mst) = layout::merge_dims(outer, &[ost]);
    if ms.is_empty() {
        ms.push(1);
        mst[0].push(0);
    }
    if ms.len() > DIMS {
        return Err(Error::value(format!(
            "an FFT over an array of more than {} non-mergeable other dimensions is not supported on the GPU",
            DIMS
        ))
        .with_help("make it contiguous (copy) or reshape to fewer dimensions first"));
    }
    let mut st = [0i64; DIMS * 4];
    for (d, &e) in ms.iter().enumerate() {
        st[d] = e as i64;
        st[DIMS + d] = mst[0][d] as i64;
    }
    let (din, dout) = (moved.dtype(), dst.dtype());
    let mut h = DefaultHasher::new();
    ("gc_fftpad", din, dout).hash(&mut h);
    let f = compile::function(g, h.finish(), "gc_fftpad", || pad_source(din, dout))?;
    let mut po = dst.ptr_at(0);
    let mut ps = if len == 0 {
        po
    } else {
        array_buffer(moved)?.ptr_at(moved.offset())
    };
    let (mut r, mut ni, mut l) = (rows as i64, nin as i64, len as i64);
    let mut last = moved.strides()[nd - 1] as i64;
    let mut ndim = ms.len() as i32;
    let mut scale = job.scale();
    let (mut z0, mut z1) = match job.kind {
        FftKind::C2r => (
            0i64,
            if job.n.is_multiple_of(2) {
                nin as i64 - 1
            } else {
                -1
            },
        ),
        _ => (-1, -1),
    };
    let mut params: Vec<*mut c_void> = vec![
        &mut po as *mut u64 as *mut c_void,
        &mut ps as *mut u64 as *mut c_void,
        &mut r as *mut i64 as *mut c_void,
        &mut ni as *mut i64 as *mut c_void,
        &mut l as *mut i64 as *mut c_void,
        &mut last as *mut i64 as *mut c_void,
        &mut ndim as *mut i32 as *mut c_void,
        st.as_mut_ptr() as *mut c_void,
        &mut scale as *mut f64 as *mut c_void,
        &mut z0 as *mut i64 as *mut c_void,
        &mut z1 as *mut i64 as *mut c_void,
    ];
    let blocks = (rows * nin).div_ceil(BLOCK as usize).clamp(1, 1 << 20) as u32;
    launch(
        g,
        f,
        (blocks, 1, 1),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "an FFT's input gather",
    )
}
