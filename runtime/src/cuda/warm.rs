//! Start-up out of the user's timings: when a GPU is first opened, its
//! cuBLAS handle is made and the kernels most programs need are compiled
//! into the on-disk cache (in parallel, NVRTC being thread-safe) before the
//! statement that opened the GPU returns, so neither cost lands inside a
//! later `time {}` (Theano's check1 with an empty cache, the first 64x64
//! product). Nothing is loaded: a kernel's first use reads its cubin from
//! the cache (a fraction of a millisecond) instead of compiling it (tens of
//! milliseconds). A marker file per set of sources makes later processes
//! skip the work; `GCALC_NO_WARM=1` turns it off.
//!
//! The elementwise sources come from the layer above (the op table and the
//! lowering: `ops::fuse::warm_programs`, registered by the session through
//! `backend::devices`), the backend's own modules from here.

use super::driver::Gpu;
use super::{blas, compile};
use crate::array::{Array, Element};
use crate::dtype::DType;
use gcalc_kernels::cuda::{self as kc, RedOp};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

static SOURCES: OnceLock<fn() -> Vec<String>> = OnceLock::new();

/// The function giving the elementwise kernel sources to warm (set once).
pub fn register(f: fn() -> Vec<String>) {
    let _ = SOURCES.set(f);
}

/// The reductions (sum/max/min of the float and int dtypes, with the
/// output dtypes the backend asks for by default), argmax/argmin of floats
/// and Philox (the modules the backend itself ships), and copies.
fn module_sources() -> Vec<String> {
    let mut v = Vec::new();
    for op in [RedOp::Sum, RedOp::Max, RedOp::Min] {
        for d in [DType::Float32, DType::Float64, DType::Int64] {
            let outs = [super::reduce::default_out(op, d), kc::reduce_acc(op, d)];
            for o in if outs[0] == outs[1] {
                &outs[..1]
            } else {
                &outs[..]
            } {
                v.push(kc::reduce_source(op, d, *o));
            }
        }
    }
    for max in [true, false] {
        for d in [DType::Float32, DType::Float64] {
            v.push(kc::argreduce_source(max, d));
        }
    }
    v.push(kc::philox_source());
    // Copies and casts between the everyday dtypes (`astype`, `.copy()`).
    let dts = [DType::Float32, DType::Float64, DType::Int64, DType::Bool];
    for from in dts {
        let a = crate::with_dtype!(from, T => Array::from_vec(vec![T::from_i64(1); 4], vec![4]));
        let e = super::ew::Expr::Array(a);
        for to in dts {
            v.extend(super::ew::contiguous_source(&e, to));
        }
    }
    v
}

/// Every source to warm, without repeats.
pub fn sources() -> Vec<String> {
    let mut v = SOURCES.get().map(|f| f()).unwrap_or_default();
    v.extend(module_sources());
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.clone()));
    v
}

/// At `g`'s opening: cuBLAS's handle on one thread, the cache filled on the
/// others; returns when both are done. Failures are left for the first real
/// use to report (a missing libcublas is said by the first matmul).
pub(crate) fn on_open(g: &Gpu) {
    if std::env::var("GCALC_NO_WARM").as_deref() == Ok("1") {
        return;
    }
    std::thread::scope(|s| {
        s.spawn(|| {
            if g.bind().is_ok() && blas::ensure_handle(g).is_ok() {
                let _ = first_products(g);
            }
        });
        fill_cache(g);
    });
}

/// cuBLAS loads its kernels at their first use (CUDA's lazy module
/// loading: ~100 ms for the first product even with the handle made): a
/// product of small and middling float32 and float64 matrices loads the
/// ones most programs reach for.
fn first_products(g: &Gpu) -> crate::error::Result<()> {
    for dt in [DType::Float32, DType::Float64] {
        for n in [64, 512] {
            let a = super::ew::zeros(&[n, n], dt, g.ordinal)?;
            blas::matmul(&a, &a)?;
        }
    }
    g.sync()
}

fn fill_cache(g: &Gpu) {
    let (Some(dir), Ok(nvrtc)) = (compile::cache_dir(), compile::nvrtc_version()) else {
        return;
    };
    let srcs = sources();
    let mut h = DefaultHasher::new();
    (&srcs, nvrtc, g.cc).hash(&mut h);
    let marker = dir.join(format!("warm-{:016x}.done", h.finish()));
    if marker.exists() {
        return;
    }
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 16);
    let next = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(src) = srcs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if compile::ensure_cached(g, src).is_err() {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    if failed.load(Ordering::Relaxed) == 0 {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(&marker, format!("{} kernel sources\n", srcs.len()));
    }
}
