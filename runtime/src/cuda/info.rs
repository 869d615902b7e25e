//! What `devices()` and `mem()` print about GPUs: name, memory, compute
//! capability, driver and CUDA versions (as nvidia-smi tells them), and the
//! pool's in use / pooled / peak figures.

use super::driver::{Gpu, gpu, gpu_count};
use crate::device::fmt_bytes;
use crate::error::Result;
use cudarc::driver::{result, sys};

/// The driver's release (from /proc, as nvidia-smi shows it) and the CUDA version it supports.
pub fn driver_versions() -> (Option<String>, Option<(i32, i32)>) {
    let release = std::fs::read_to_string("/proc/driver/nvidia/version")
        .ok()
        .and_then(|t| {
            let l = t.lines().next()?.to_string();
            l.split_whitespace()
                .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.'))
                .map(String::from)
        });
    let mut v = 0;
    let cuda = (unsafe { sys::cuDriverGetVersion(&mut v) } == sys::CUresult::CUDA_SUCCESS)
        .then_some((v / 1000, (v % 1000) / 10));
    (release, cuda)
}

/// Pool figures: (in use, pooled but free, peak in use); blocks in the small
/// block cache count as pooled.
pub fn pool_stats(g: &Gpu) -> (u64, u64, u64) {
    let get = |a| {
        let mut v: u64 = 0;
        let _ = unsafe { result::mem_pool::get_attribute(g.pool, a, &mut v as *mut u64 as *mut _) };
        v
    };
    use sys::CUmemPool_attribute as A;
    let used = get(A::CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
    let reserved = get(A::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
    let peak = get(A::CU_MEMPOOL_ATTR_USED_MEM_HIGH);
    let cached = g.cache.bytes() as u64;
    let used = used.saturating_sub(cached);
    (used, reserved.saturating_sub(used), peak)
}

/// One line per GPU for `devices()`.
pub fn devices_text() -> String {
    let n = gpu_count();
    let (release, cuda) = driver_versions();
    let mut s = String::new();
    for i in 0..n as u32 {
        match gpu(i) {
            Ok(g) => {
                let (free, total) = result::mem_get_info().unwrap_or((0, g.total_mem));
                s.push_str(&format!(
                    "gpu({i}): {} | memory {} used / {} | compute capability {}.{} | {} SMs",
                    g.name,
                    fmt_bytes(total.saturating_sub(free)),
                    fmt_bytes(total),
                    g.cc.0,
                    g.cc.1,
                    g.sms
                ));
                if g.is_poisoned() {
                    s.push_str(" | POISONED (restart gcalc to use it again)");
                }
            }
            Err(e) => s.push_str(&format!("gpu({i}): unusable: {}", e.message)),
        }
        s.push('\n');
    }
    s.push_str(&super::peer::pairs_text());
    if n > 0 {
        s.push_str(&format!(
            "driver {} | CUDA {} | {}\n",
            release.unwrap_or_else(|| "?".into()),
            cuda.map(|(a, b)| format!("{a}.{b}"))
                .unwrap_or_else(|| "?".into()),
            super::nccl::version_text()
        ));
    }
    s
}

/// `mem()`'s text for every started GPU.
pub fn mem_text() -> Result<String> {
    let mut s = String::new();
    for i in 0..gpu_count() as u32 {
        let Some(g) = super::driver::gpu_if_started(i) else {
            s.push_str(&format!("gpu({i}): not used yet\n"));
            continue;
        };
        g.bind()?;
        let (used, pooled, peak) = pool_stats(&g);
        let (free, total) = result::mem_get_info().unwrap_or((0, g.total_mem));
        s.push_str(&format!(
            "gpu({i}): in use {} | pooled {} | peak {} | device free {} of {} (allow_gc={})\n",
            fmt_bytes(used as usize),
            fmt_bytes(pooled as usize),
            fmt_bytes(peak as usize),
            fmt_bytes(free),
            fmt_bytes(total),
            super::driver::ALLOW_GC.load(std::sync::atomic::Ordering::Relaxed)
        ));
    }
    Ok(s)
}
