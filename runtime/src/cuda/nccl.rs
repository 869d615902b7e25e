//! NCCL collectives over several GPUs of this process: libnccl loaded at run
//! time (the binary starts without it; a collective says what is missing and
//! how to get it), one communicator per ordered device list made once with
//! `ncclCommInitAll` and kept for the process, and each collective queued on
//! every device's own stream inside one NCCL group (asynchronous like every
//! other launch; `sync()` waits).
//!
//! The symbols are resolved here rather than through cudarc's `nccl::sys`
//! loader, whose candidate names (`libnccl.so`, `libnccl.so.<CUDA major>`)
//! miss `libnccl.so.2`, the soname NCCL 2 ships and the only name the
//! `nvidia-nccl-cu13` wheel has; cudarc's `nccl::sys` types are used as they are.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::driver::{Gpu, gpu};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::{CollectiveOp, RedKind};
use cudarc::nccl::sys as nc;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

type Res = nc::ncclResult_t;
type InitAll = unsafe extern "C" fn(*mut nc::ncclComm_t, c_int, *const c_int) -> Res;
type AllReduceFn = unsafe extern "C" fn(
    *const c_void,
    *mut c_void,
    usize,
    nc::ncclDataType_t,
    nc::ncclRedOp_t,
    nc::ncclComm_t,
    nc::cudaStream_t,
) -> Res;
type BroadcastFn = unsafe extern "C" fn(
    *const c_void,
    *mut c_void,
    usize,
    nc::ncclDataType_t,
    c_int,
    nc::ncclComm_t,
    nc::cudaStream_t,
) -> Res;
type AllGatherFn = unsafe extern "C" fn(
    *const c_void,
    *mut c_void,
    usize,
    nc::ncclDataType_t,
    nc::ncclComm_t,
    nc::cudaStream_t,
) -> Res;
type GroupFn = unsafe extern "C" fn() -> Res;
type VersionFn = unsafe extern "C" fn(*mut c_int) -> Res;
type ErrorStringFn = unsafe extern "C" fn(Res) -> *const c_char;

/// The loaded library and the entry points gcalc calls.
struct Nccl {
    _lib: libloading::Library,
    path: String,
    init_all: InitAll,
    all_reduce: AllReduceFn,
    broadcast: BroadcastFn,
    all_gather: AllGatherFn,
    reduce_scatter: AllReduceFn,
    group_start: GroupFn,
    group_end: GroupFn,
    version: VersionFn,
    error_string: ErrorStringFn,
}

/// Where libnccl is looked for, in order: `GCALC_NCCL_LIB` (a file), the
/// loader's own search (`libnccl.so.2`, `libnccl.so`: LD_LIBRARY_PATH,
/// ldconfig), then the `nvidia/nccl/lib` folder of a pip-installed
/// `nvidia-nccl-cu13` in the usual Python prefixes.
fn candidates() -> Vec<String> {
    let mut v = Vec::new();
    if let Ok(p) = std::env::var("GCALC_NCCL_LIB") {
        v.push(p);
    }
    v.push("libnccl.so.2".into());
    v.push("libnccl.so".into());
    let mut prefixes: Vec<PathBuf> = Vec::new();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Ok(p) = std::env::var(var) {
            prefixes.push(p.into());
        }
    }
    if let Ok(h) = std::env::var("HOME") {
        prefixes.push(PathBuf::from(h).join(".local"));
    }
    prefixes.extend(["/usr/local", "/usr"].map(PathBuf::from));
    for pre in prefixes {
        let Ok(dir) = std::fs::read_dir(pre.join("lib")) else {
            continue;
        };
        for e in dir.flatten() {
            if !e.file_name().to_string_lossy().starts_with("python3") {
                continue;
            }
            for site in ["site-packages", "dist-packages"] {
                let f = e.path().join(site).join("nvidia/nccl/lib/libnccl.so.2");
                if f.is_file() {
                    v.push(f.to_string_lossy().into_owned());
                }
            }
        }
    }
    v
}

/// Whether `GCALC_HIDE_LIBS` (comma-separated) hides libnccl, so the
/// missing-library message can be tested on a machine that has it.
fn hidden() -> bool {
    std::env::var("GCALC_HIDE_LIBS").is_ok_and(|v| v.split(',').any(|x| x.trim() == "nccl"))
}

fn missing(tried: &[String]) -> Error {
    Error::device(format!(
        "NCCL is not available: libnccl.so.2 could not be loaded (tried {})",
        tried.join(", ")
    ))
    .with_help(
        "the collectives (all_reduce, broadcast, all_gather, reduce_scatter) need NCCL: `pip install nvidia-nccl-cu13` (found in the active Python's site-packages) or NVIDIA's libnccl2 package; or set GCALC_NCCL_LIB=/path/to/libnccl.so.2. scatter, gather and x.to(gpu(j)) work without it",
    )
}

fn lib() -> Result<&'static Nccl> {
    static LIB: OnceLock<std::result::Result<Nccl, Error>> = OnceLock::new();
    if hidden() {
        return Err(missing(
            &["libnccl.so.2 (hidden by GCALC_HIDE_LIBS)".into()],
        ));
    }
    LIB.get_or_init(|| {
        let tried = candidates();
        for c in &tried {
            // SAFETY: loading NCCL runs its initialisers, which have no
            // preconditions; the symbols are read with NCCL 2's signatures.
            let Ok(lib) = (unsafe { libloading::Library::new(c.as_str()) }) else {
                continue;
            };
            let sym = |name: &str| -> std::result::Result<*const (), Error> {
                unsafe { lib.get::<*const ()>(name) }
                    .map(|s| *s)
                    .map_err(|e| Error::device(format!("{c} has no {name}: {e}")))
            };
            // SAFETY: each pointer is the named NCCL 2 function, whose C
            // signature is the type it is read as.
            let n = unsafe {
                Nccl {
                    init_all: std::mem::transmute::<*const (), InitAll>(sym("ncclCommInitAll")?),
                    all_reduce: std::mem::transmute::<*const (), AllReduceFn>(sym(
                        "ncclAllReduce",
                    )?),
                    broadcast: std::mem::transmute::<*const (), BroadcastFn>(sym("ncclBroadcast")?),
                    all_gather: std::mem::transmute::<*const (), AllGatherFn>(sym(
                        "ncclAllGather",
                    )?),
                    reduce_scatter: std::mem::transmute::<*const (), AllReduceFn>(sym(
                        "ncclReduceScatter",
                    )?),
                    group_start: std::mem::transmute::<*const (), GroupFn>(sym("ncclGroupStart")?),
                    group_end: std::mem::transmute::<*const (), GroupFn>(sym("ncclGroupEnd")?),
                    version: std::mem::transmute::<*const (), VersionFn>(sym("ncclGetVersion")?),
                    error_string: std::mem::transmute::<*const (), ErrorStringFn>(sym(
                        "ncclGetErrorString",
                    )?),
                    path: c.clone(),
                    _lib: lib,
                }
            };
            return Ok(n);
        }
        Err(missing(&tried))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// NCCL's version and where it was loaded from (for `devices()`), or why not.
pub fn version_text() -> String {
    match lib() {
        Ok(n) => {
            let mut v: c_int = 0;
            // SAFETY: writes one int.
            unsafe { (n.version)(&mut v) };
            format!(
                "NCCL {}.{}.{} ({})",
                v / 10000,
                (v / 100) % 100,
                v % 100,
                n.path
            )
        }
        Err(_) => "NCCL not found (collectives need it: pip install nvidia-nccl-cu13)".into(),
    }
}

fn check(n: &Nccl, r: Res, what: &str, devs: &[u32]) -> Result<()> {
    if r == nc::ncclResult_t::ncclSuccess {
        return Ok(());
    }
    // SAFETY: NCCL returns a static C string for every result code.
    let msg = unsafe { std::ffi::CStr::from_ptr((n.error_string)(r)) }
        .to_string_lossy()
        .into_owned();
    Err(Error::device(format!(
        "NCCL {what} over {} failed: {msg} ({r:?})",
        devices_text(devs)
    ))
    .with_help("NCCL_DEBUG=WARN in the environment makes NCCL say more"))
}

/// `gpu(0), gpu(1)` for messages.
pub fn devices_text(devs: &[u32]) -> String {
    devs.iter()
        .map(|d| format!("gpu({d})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The communicators of one ordered device list (rank r on `devs[r]`).
struct Comms(Vec<nc::ncclComm_t>);
// SAFETY: NCCL communicators may be used from any thread, one at a time;
// gcalc calls them under the cache's lock or from the session's thread.
unsafe impl Send for Comms {}
unsafe impl Sync for Comms {}

/// The communicators of `devs`, made on first use and kept for the process.
fn comms(n: &Nccl, devs: &[u32]) -> Result<Arc<Comms>> {
    static CACHE: OnceLock<Mutex<HashMap<Vec<u32>, Arc<Comms>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache
        .lock()
        .map_err(|_| Error::internal("NCCL cache poisoned"))?;
    if let Some(c) = map.get(devs) {
        return Ok(c.clone());
    }
    // NVLink SHARP (multicast objects) stays off unless the user asks for it.
    if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
        // SAFETY: set once, under the cache lock, before NCCL first reads it.
        unsafe { std::env::set_var("NCCL_NVLS_ENABLE", "0") };
    }
    for &d in devs {
        gpu(d)?;
    }
    let list: Vec<c_int> = devs.iter().map(|&d| d as c_int).collect();
    let mut out: Vec<nc::ncclComm_t> = vec![std::ptr::null_mut(); devs.len()];
    // SAFETY: `out` has room for one communicator per listed device.
    let r = unsafe { (n.init_all)(out.as_mut_ptr(), list.len() as c_int, list.as_ptr()) };
    rebind(devs);
    check(n, r, "making a communicator", devs)?;
    let c = Arc::new(Comms(out));
    map.insert(devs.to_vec(), c.clone());
    Ok(c)
}

/// NCCL sets the current device itself: make gcalc's contexts current again.
fn rebind(devs: &[u32]) {
    for &d in devs {
        if let Some(g) = super::driver::gpu_if_started(d) {
            g.rebind();
        }
    }
}

fn nccl_dtype(op: CollectiveOp, d: DType) -> Result<nc::ncclDataType_t> {
    use nc::ncclDataType_t as T;
    Ok(match d {
        DType::Int32 => T::ncclInt32,
        DType::Int64 => T::ncclInt64,
        DType::Float16 => T::ncclFloat16,
        DType::Float32 => T::ncclFloat32,
        DType::Float64 => T::ncclFloat64,
        DType::Complex64 | DType::Complex128 => {
            return Err(Error::dtype(
                op.name(),
                format!("`{}` of {d} arrays is not supported across GPUs", op.name()),
            )
            .with_help("apply it to real(z) and imag(z) and join them with complex(re, im)"));
        }
        // Bytes: moved, never reduced (the op layer casts before a reduction).
        DType::Bool => match op {
            CollectiveOp::Broadcast { .. } | CollectiveOp::AllGather => T::ncclUint8,
            CollectiveOp::AllReduce(_) | CollectiveOp::ReduceScatter(_) => {
                return Err(Error::internal("a bool array reached an NCCL reduction"));
            }
        },
    })
}

fn nccl_op(k: RedKind) -> nc::ncclRedOp_t {
    use nc::ncclRedOp_t as O;
    match k {
        RedKind::Sum => O::ncclSum,
        RedKind::Prod => O::ncclProd,
        RedKind::Max => O::ncclMax,
        RedKind::Min => O::ncclMin,
        RedKind::Mean => O::ncclAvg,
    }
}

/// Run collective `op` over GPUs `devs` (rank order). `xs[r]` is rank r's
/// input (for a broadcast `xs` is the root's array alone); every output has
/// `out_shape`.
/// The op layer checked devices, shapes and dtypes.
pub fn collective(
    op: CollectiveOp,
    devs: &[u32],
    xs: &[Array],
    dtype: DType,
    out_shape: &[usize],
) -> Result<Vec<Array>> {
    let n = lib()?;
    let comms = comms(n, devs)?;
    let gpus: Vec<Arc<Gpu>> = devs.iter().map(|&d| gpu(d)).collect::<Result<_>>()?;
    // Inputs contiguous, on their own GPU's stream.
    let mut ins = Vec::with_capacity(xs.len());
    for x in xs {
        ins.push(if x.is_contiguous() {
            x.clone()
        } else {
            super::ew::copy(x, x.dtype())?
        });
    }
    let out_len: usize = out_shape.iter().product();
    let mut outs = Vec::with_capacity(devs.len());
    for g in &gpus {
        g.bind()?;
        outs.push(DeviceBuffer::alloc(g, dtype, out_len)?);
    }
    let in_len = ins.first().map_or(0, |a| a.size());
    let dt = nccl_dtype(op, dtype)?;
    if in_len > 0 || out_len > 0 {
        for g in &gpus {
            g.before_launch();
        }
        // SAFETY: group calls have no preconditions.
        check(n, unsafe { (n.group_start)() }, op.name(), devs)?;
        let mut first_err = Ok(());
        for (r, g) in gpus.iter().enumerate() {
            let dst = outs[r].ptr_at(0) as *mut c_void;
            // A broadcast reads only the root's input (`xs` holds just it).
            let src = match op {
                CollectiveOp::Broadcast { root } if r != root => dst as *const c_void,
                CollectiveOp::Broadcast { .. } => {
                    array_buffer(&ins[0])?.ptr_at(ins[0].offset()) as *const c_void
                }
                _ => array_buffer(&ins[r])?.ptr_at(ins[r].offset()) as *const c_void,
            };
            let comm = comms.0[r];
            let stream = g.stream as nc::cudaStream_t;
            // SAFETY: src holds `in_len` and dst `out_len` elements of `dtype`
            // on GPU devs[r], whose communicator and stream these are.
            let res = unsafe {
                match op {
                    CollectiveOp::AllReduce(k) => {
                        (n.all_reduce)(src, dst, in_len, dt, nccl_op(k), comm, stream)
                    }
                    CollectiveOp::ReduceScatter(k) => {
                        (n.reduce_scatter)(src, dst, out_len, dt, nccl_op(k), comm, stream)
                    }
                    CollectiveOp::Broadcast { root } => {
                        (n.broadcast)(src, dst, out_len, dt, root as c_int, comm, stream)
                    }
                    CollectiveOp::AllGather => (n.all_gather)(src, dst, in_len, dt, comm, stream),
                }
            };
            if first_err.is_ok() {
                first_err = check(n, res, op.name(), devs);
            }
        }
        // SAFETY: closes the group opened above (also after a failed call).
        let end = unsafe { (n.group_end)() };
        rebind(devs);
        first_err?;
        check(n, end, op.name(), devs)?;
        for g in &gpus {
            g.after_launch()?;
        }
    }
    Ok(outs
        .into_iter()
        .map(|b| array_of(b, out_shape.to_vec()))
        .collect())
}

/// Why NCCL cannot be used (`None` when libnccl loads): what the
/// collectives answer on a machine without it.
pub fn load_error() -> Option<Error> {
    lib().err()
}
