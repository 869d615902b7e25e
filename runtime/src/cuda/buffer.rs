//! GPU buffers: stream-ordered allocation from the device's pool behind a
//! cache of small freed blocks (`cache.rs`; out of memory: empty the cache,
//! sync, trim, retry once, then an error saying what was asked and what is
//! free), uploads, downloads (the sync points) and device copies.

use super::cache::block_size;
use super::driver::{Gpu, gpu};
use crate::array::{Array, HostData, Storage};
use crate::device::{Device, fmt_bytes};
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::backend::Direction;
use cudarc::driver::{result, sys};
use std::sync::Arc;

/// A buffer in GPU memory: `len` elements of `dtype`.
pub struct DeviceBuffer {
    gpu: Arc<Gpu>,
    ptr: sys::CUdeviceptr,
    len: usize,
    dtype: DType,
    /// Bytes allocated (`cache::block_size` of the request).
    size: usize,
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // Stream-ordered free: safe while queued work still reads it. A poisoned
        // context cannot free anything; the memory goes with the process.
        if !self.gpu.is_poisoned()
            && !self.gpu.cache.put(self.size, self.ptr)
            && self.gpu.bind().is_ok()
        {
            self.gpu.note_host_event();
            let _ = unsafe { result::free_async(self.ptr, self.gpu.stream) };
        }
    }
}

impl DeviceBuffer {
    /// Uninitialised space for `len` elements of `dtype` on `g`.
    pub fn alloc(g: &Arc<Gpu>, dtype: DType, len: usize) -> Result<DeviceBuffer> {
        let bytes = block_size(len * dtype.size());
        if let Some(ptr) = g.cache.take(bytes) {
            return Ok(DeviceBuffer {
                gpu: g.clone(),
                ptr,
                len,
                dtype,
                size: bytes,
            });
        }
        g.note_host_event();
        let ptr = match unsafe { result::malloc_async(g.stream, bytes) } {
            Ok(p) => p,
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => {
                // Empty the block cache, sync (frees queued), trim the pool, retry once.
                for p in g.cache.drain() {
                    let _ = unsafe { result::free_async(p, g.stream) };
                }
                g.sync()?;
                let _ = unsafe { result::mem_pool::trim_to(g.pool, 0) };
                match unsafe { result::malloc_async(g.stream, bytes) } {
                    Ok(p) => p,
                    Err(_) => return Err(oom_error(g, dtype, len, bytes)),
                }
            }
            Err(e) => return Err(g.err(e, "allocating memory")),
        };
        Ok(DeviceBuffer {
            gpu: g.clone(),
            ptr,
            len,
            dtype,
            size: bytes,
        })
    }

    pub fn device(&self) -> Device {
        self.gpu.device()
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }
    /// Device address of element `offset`.
    pub fn ptr_at(&self, offset: usize) -> sys::CUdeviceptr {
        self.ptr + (offset * self.dtype.size()) as u64
    }

    /// Copy a view of this buffer to a contiguous host array (a sync point).
    pub fn download_view(&self, view: &Array) -> Result<Array> {
        let v = if view.is_contiguous() {
            view.clone()
        } else {
            super::ew::copy(view, view.dtype())?
        };
        let src = array_buffer(&v)?;
        let n = v.size();
        let g = &src.gpu;
        g.bind()?;
        let at = src.ptr_at(v.offset());
        let data = crate::with_dtype!(v.dtype(), T => {
            let mut host: Vec<T> = vec![T::default(); n];
            if v.dtype() == DType::Bool {
                let mut bytes = vec![0u8; n];
                dtoh(g, &mut bytes[..], at)?;
                <T as crate::array::Element>::wrap(bytes.iter().map(|&b| <T as crate::array::Element>::from_i64((b != 0) as i64)).collect())
            } else {
                dtoh(g, &mut host[..], at)?;
                <T as crate::array::Element>::wrap(host)
            }
        });
        Ok(Array::from_host(data, v.shape().to_vec()))
    }
}

/// Copy from device address `src` into `dst` and wait for it (a sync point).
fn dtoh<T>(g: &Gpu, dst: &mut [T], src: sys::CUdeviceptr) -> Result<()> {
    if !dst.is_empty() {
        let mark = g.copy_start();
        unsafe { result::memcpy_dtoh_async(&mut dst[..], src, g.stream) }
            .map_err(|e| g.err(e, "copying to the host"))?;
        g.copy_end(
            mark,
            Direction::DeviceToHost,
            std::mem::size_of_val(dst) as u64,
        );
    }
    g.sync()
}

/// Wrap a fresh buffer as a contiguous array of `shape`.
pub fn array_of(buf: DeviceBuffer, shape: Vec<usize>) -> Array {
    let dtype = buf.dtype;
    Array::from_storage(Arc::new(Storage::Cuda(buf)), dtype, shape)
}

/// The GPU buffer behind an array.
pub fn array_buffer(a: &Array) -> Result<&DeviceBuffer> {
    match &**a.storage() {
        Storage::Cuda(b) => Ok(b),
        Storage::Host(_) => Err(Error::internal(
            "a CPU array where a GPU array was expected",
        )),
    }
}

/// Upload a host array (any layout) to GPU `i` as a contiguous array.
pub fn upload(a: &Array, i: u32) -> Result<Array> {
    let g = gpu(i)?;
    let h = a.to_host()?;
    let h = h.contiguous()?;
    let n = h.size();
    let buf = DeviceBuffer::alloc(&g, h.dtype(), n)?;
    htod(&g, buf.ptr, &h)?;
    g.note_launch();
    Ok(array_of(buf, h.shape().to_vec()))
}

/// A copy of GPU array `a` on GPU `i` (same or another GPU), contiguous.
pub fn device_copy(a: &Array, i: u32) -> Result<Array> {
    let src = array_buffer(a)?;
    if src.gpu.ordinal == i {
        if !a.is_contiguous() {
            return super::ew::copy(a, a.dtype());
        }
        let g = &src.gpu;
        g.bind()?;
        let buf = DeviceBuffer::alloc(g, a.dtype(), a.size())?;
        if a.size() > 0 {
            g.before_launch();
            unsafe {
                result::memcpy_dtod_async(buf.ptr, src.ptr_at(a.offset()), a.nbytes(), g.stream)
            }
            .map_err(|e| g.err(e, "copying on the GPU"))?;
        }
        g.after_launch()?;
        return Ok(array_of(buf, a.shape().to_vec()));
    }
    // Between GPUs: a peer copy, never through the host.
    super::peer::copy_to(a, i)
}

fn oom_error(g: &Gpu, dtype: DType, len: usize, bytes: usize) -> Error {
    let (free, total) = result::mem_get_info().unwrap_or((0, g.total_mem));
    let stmt = super::driver::current_statement().unwrap_or_else(|| "this statement".into());
    Error::new(
        ErrorKind::OutOfMemory,
        format!(
            "{} is out of memory: {stmt} asked for {len} {dtype} elements ({}); the device has {} free of {}",
            g.device(),
            fmt_bytes(bytes),
            fmt_bytes(free),
            fmt_bytes(total)
        ),
    )
    .with_help("free GPU variables (x = none), use smaller arrays, or set allow_gc = true; mem() shows what is in use")
}

/// Copy contiguous host array `h` (from its offset) to device address `dst`.
fn htod(g: &Gpu, dst: sys::CUdeviceptr, h: &Array) -> Result<()> {
    let n = h.size();
    if n == 0 {
        return Ok(());
    }
    let d = h.host_read()?;
    let off = h.offset();
    let mark = g.copy_start();
    let r = unsafe {
        match &*d {
            HostData::Bool(v) => {
                let b: Vec<u8> = v[off..off + n].iter().map(|&x| x as u8).collect();
                result::memcpy_htod_async(dst, &b[..], g.stream)
            }
            HostData::I32(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
            HostData::I64(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
            HostData::F16(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
            HostData::F32(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
            HostData::F64(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
            HostData::C64(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
            HostData::C128(v) => result::memcpy_htod_async(dst, &v[off..off + n], g.stream),
        }
    };
    r.map_err(|e| g.err(e, "copying to the GPU"))?;
    g.copy_end(mark, Direction::HostToDevice, h.nbytes() as u64);
    Ok(())
}
