//! Copies between two GPUs without the host: `cuMemcpyPeerAsync` on the
//! destination's stream, ordered after the source's queued work and before
//! the source's later work (its buffer's stream-ordered free included) by an
//! event each way. Peer access (the context's and the source pool's) is
//! enabled once per pair when `cuDeviceCanAccessPeer` says it is possible;
//! without it the driver still copies device to device, staged.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::driver::{Gpu, gpu, gpu_count};
use crate::array::Array;
use crate::error::Result;
use crate::profile::backend::Direction;
use cudarc::driver::{result, sys};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Whether GPU `dst` can read GPU `src`'s memory directly (the driver's answer).
pub fn can_access(dst: u32, src: u32) -> bool {
    if dst == src {
        return true;
    }
    let (Ok(d), Ok(s)) = (
        result::device::get(dst as i32),
        result::device::get(src as i32),
    ) else {
        return false;
    };
    let mut can: i32 = 0;
    // SAFETY: writes one int; both handles come from the driver.
    let r = unsafe { sys::cuDeviceCanAccessPeer(&mut can, d, s) };
    r == sys::CUresult::CUDA_SUCCESS && can != 0
}

/// The driver's relative rank of the link from `src` to `dst` (0 is the
/// best; `None` when it does not say).
pub fn link_rank(src: u32, dst: u32) -> Option<i32> {
    let s = result::device::get(src as i32).ok()?;
    let d = result::device::get(dst as i32).ok()?;
    let mut v: i32 = 0;
    // SAFETY: writes one int.
    let r = unsafe {
        sys::cuDeviceGetP2PAttribute(
            &mut v,
            sys::CUdevice_P2PAttribute::CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
            s,
            d,
        )
    };
    (r == sys::CUresult::CUDA_SUCCESS).then_some(v)
}

/// Enable `dst`'s access to `src`'s memory once (a no-op when impossible).
fn enable_peer(dst: &Gpu, src: &Gpu) -> Result<bool> {
    static DONE: OnceLock<Mutex<HashMap<(u32, u32), bool>>> = OnceLock::new();
    let done = DONE.get_or_init(Default::default);
    let key = (dst.ordinal, src.ordinal);
    if let Some(ok) = done.lock().ok().and_then(|m| m.get(&key).copied()) {
        return Ok(ok);
    }
    let ok = can_access(dst.ordinal, src.ordinal);
    if ok {
        dst.bind()?;
        // SAFETY: the peer context is a live primary context; enabling twice
        // answers PEER_ACCESS_ALREADY_ENABLED, which is fine.
        let r = unsafe { sys::cuCtxEnablePeerAccess(src.ctx, 0) };
        if r != sys::CUresult::CUDA_SUCCESS
            && r != sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
        {
            return Err(dst.err(
                cudarc::driver::DriverError(r),
                &format!("enabling peer access to gpu({})", src.ordinal),
            ));
        }
        // Stream-ordered pool memory has its own access list.
        let desc = sys::CUmemAccessDesc {
            location: sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                id: dst.ordinal as i32,
            },
            flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
        };
        // SAFETY: one valid descriptor for the source's own pool.
        let r = unsafe { sys::cuMemPoolSetAccess(src.pool, &desc, 1) };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(src.err(
                cudarc::driver::DriverError(r),
                &format!("giving gpu({}) access to its memory pool", dst.ordinal),
            ));
        }
    }
    if let Ok(mut m) = done.lock() {
        m.insert(key, ok);
    }
    Ok(ok)
}

/// Make `waiter`'s stream wait for the work queued so far on `on`'s stream.
fn order_after(waiter: &Gpu, on: &Gpu) -> Result<()> {
    on.bind()?;
    let ev = result::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING)
        .map_err(|e| on.err(e, "creating an event"))?;
    // SAFETY: a fresh event of `on`'s context, recorded on its stream; the
    // wait may be on another context's stream (events work across devices);
    // destroying a recorded event is deferred by the driver until it completes.
    unsafe {
        result::event::record(ev, on.stream).map_err(|e| on.err(e, "recording an event"))?;
        waiter.bind()?;
        let r = sys::cuStreamWaitEvent(waiter.stream, ev, 0);
        on.bind()?;
        let _ = result::event::destroy(ev);
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(waiter.err(cudarc::driver::DriverError(r), "waiting for another GPU"));
        }
    }
    Ok(())
}

/// A contiguous copy on GPU `dst` of GPU array `a` (on another GPU).
pub fn copy_to(a: &Array, dst: u32) -> Result<Array> {
    let src_buf = array_buffer(a)?;
    let sg = src_buf.gpu().clone();
    let a = if a.is_contiguous() {
        a.clone()
    } else {
        super::ew::copy(a, a.dtype())?
    };
    let src_buf = array_buffer(&a)?;
    let dg = gpu(dst)?;
    enable_peer(&dg, &sg)?;
    dg.bind()?;
    let buf = DeviceBuffer::alloc(&dg, a.dtype(), a.size())?;
    if a.size() > 0 {
        order_after(&dg, &sg)?;
        dg.bind()?;
        let mark = dg.copy_start();
        // SAFETY: both ranges hold a.nbytes() bytes on their devices; the
        // copy is queued on dst's stream after src's queued work.
        let r = unsafe {
            sys::cuMemcpyPeerAsync(
                buf.ptr_at(0),
                dg.ctx,
                src_buf.ptr_at(a.offset()),
                sg.ctx,
                a.nbytes(),
                dg.stream,
            )
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(dg.err(
                cudarc::driver::DriverError(r),
                &format!("copying from gpu({})", sg.ordinal),
            ));
        }
        dg.copy_end(mark, Direction::DeviceToDevice, a.nbytes() as u64);
        // The source's later work (its free included) waits for the copy.
        order_after(&sg, &dg)?;
        dg.note_launch();
        if super::driver::LAUNCH_BLOCKING.load(std::sync::atomic::Ordering::Relaxed) {
            dg.sync()?;
        }
    }
    Ok(array_of(buf, a.shape().to_vec()))
}

/// `devices()`'s lines on peer access between every pair of GPUs (empty
/// with fewer than two).
pub fn pairs_text() -> String {
    let n = gpu_count() as u32;
    let mut s = String::new();
    for i in 0..n {
        for j in i + 1..n {
            let (ij, ji) = (can_access(j, i), can_access(i, j));
            let rank = link_rank(i, j)
                .map(|r| format!(", link performance rank {r} (0 = fastest)"))
                .unwrap_or_default();
            s.push_str(&format!(
                "gpu({i}) <-> gpu({j}): peer access {}{}\n",
                match (ij, ji) {
                    (true, true) => "yes",
                    (false, false) => "no (copies are staged by the driver)",
                    _ => "one way only",
                },
                if ij || ji { rank } else { String::new() }
            ));
        }
    }
    s
}
