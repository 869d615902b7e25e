//! Histograms on a GPU (`kernels/src/cuda/histogram.cu`): a thread per
//! element adds to its bin, in per-block shared-memory counters when the bins
//! fit in 48 KiB, else with 64-bit global atomics (counts as integers, weights
//! as doubles); digitize by binary search in the edges. No host round trip
//! here; the sizes (bins, range) were decided by the caller.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::BinMode;
use gcalc_kernels::cuda::histogram::{HISTOGRAM_KERNELS, histogram_source};
use std::ffi::c_void;

const THREADS: u32 = 256;
/// Dynamic shared memory a block may take without opting in (48 KiB).
const SHARED_BINS_BYTES: usize = 48 * 1024;

fn functions(g: &Gpu, d: DType) -> Result<[compile::Func; 2]> {
    static LOADED: compile::Loaded<DType, 2> = compile::Loaded::new();
    LOADED.get_or_load(g, d, || {
        let key = format!("histogram{d:?}");
        compile::functions(g, &key, &HISTOGRAM_KERNELS, || histogram_source(d))
    })
}

fn ptr<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}

fn gpu_of(a: &Array) -> Result<std::sync::Arc<Gpu>> {
    match a.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda histogram on a CPU array")),
    }
}

/// Grid for `n` elements, grid-stride beyond a few waves.
fn grid(g: &Gpu, n: usize) -> u32 {
    (n.div_ceil(THREADS as usize)).clamp(1, 8 * g.sms as usize) as u32
}

/// A contiguous device pointer to `a`'s first element (copied when strided).
fn contiguous(a: &Array) -> Result<(Array, u64)> {
    let c = if a.is_contiguous() {
        a.clone()
    } else {
        super::ew::copy(a, a.dtype())?
    };
    let p = array_buffer(&c)?.ptr_at(c.offset());
    Ok((c, p))
}

/// See `backend::histogram::histogram`.
pub fn histogram(
    x: &Array,
    w: Option<&Array>,
    edges: Option<&Array>,
    nb: usize,
    mode: BinMode,
) -> Result<Array> {
    let g = gpu_of(x)?;
    let (xc, mut xp) = contiguous(x)?;
    let (wc, mut wp) = match w {
        Some(w) => {
            let (c, p) = contiguous(w)?;
            (Some(c), p)
        }
        None => (None, 0u64),
    };
    let (ec, mut ep) = match edges {
        Some(e) => {
            let (c, p) = contiguous(e)?;
            (Some(c), p)
        }
        None => (None, 0u64),
    };
    let out_dt = if w.is_some() {
        DType::Float64
    } else {
        DType::Int64
    };
    let out = super::ew::zeros(&[nb], out_dt, g.ordinal)?;
    let n = x.size();
    if n > 0 && nb > 0 {
        let fs = functions(&g, x.dtype())?;
        let op_ = array_buffer(&out)?.ptr_at(out.offset());
        let (mut cp, mut sp) = if w.is_some() {
            (0u64, op_)
        } else {
            (op_, 0u64)
        };
        let (mut nn, mut nbb, mut m) = (n as i64, nb as i64, mode.code());
        // Per-block counters in shared memory when the bins fit (see the kernel).
        let smem = nb * if w.is_some() { 8 } else { 4 };
        let mut shared = (smem <= SHARED_BINS_BYTES) as i32;
        let mut params = vec![
            ptr(&mut xp),
            ptr(&mut wp),
            ptr(&mut nn),
            ptr(&mut ep),
            ptr(&mut nbb),
            ptr(&mut m),
            ptr(&mut cp),
            ptr(&mut sp),
            ptr(&mut shared),
        ];
        // Shared counters: fewer, fuller blocks (each flushes its bins once).
        let gr = if shared == 1 {
            (n.div_ceil(THREADS as usize * 16)).clamp(1, 4 * g.sms as usize) as u32
        } else {
            grid(&g, n)
        };
        let smem = if shared == 1 { smem as u32 } else { 0 };
        launch(
            &g,
            fs[0],
            (gr, 1, 1),
            (THREADS, 1, 1),
            smem,
            &mut params,
            "a histogram",
        )?;
    }
    drop((xc, wc, ec));
    Ok(out)
}

/// See `backend::histogram::digitize`.
pub fn digitize(x: &Array, e: &Array, left: bool, decreasing: bool) -> Result<Array> {
    let g = gpu_of(x)?;
    let n = x.size();
    let out = DeviceBuffer::alloc(&g, DType::Int64, n)?;
    if n > 0 {
        let (xc, mut xp) = contiguous(x)?;
        let (ec, mut ep) = contiguous(e)?;
        let fs = functions(&g, x.dtype())?;
        let mut op_ = out.ptr_at(0);
        let (mut nn, mut m) = (n as i64, e.size() as i64);
        let (mut l, mut d) = (left as i32, decreasing as i32);
        let mut params = vec![
            ptr(&mut xp),
            ptr(&mut nn),
            ptr(&mut ep),
            ptr(&mut m),
            ptr(&mut l),
            ptr(&mut d),
            ptr(&mut op_),
        ];
        let gr = grid(&g, n);
        launch(
            &g,
            fs[1],
            (gr, 1, 1),
            (THREADS, 1, 1),
            0,
            &mut params,
            "digitize",
        )?;
        drop((xc, ec));
    }
    Ok(array_of(out, x.shape().to_vec()))
}
