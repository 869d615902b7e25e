//! Kernels: NVRTC straight to a cubin for the device's sm_XY (no PTX JIT),
//! an on-disk cache ($XDG_CACHE_HOME/gcalc/kernels/<sha256>.cubin; key =
//! sha256(source, NVRTC version, arch, options, codegen version); temp file +
//! rename; checksum verified on load; recompiled when bad) and an in-process
//! cache of loaded functions per device.

use super::driver::Gpu;
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::{result, sys};
use cudarc::nvrtc::{result as nvrtc, sys as nvrtc_sys};
use sha2::{Digest, Sha256};
use std::ffi::CString;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A loaded kernel.
#[derive(Clone, Copy)]
pub struct Func {
    pub f: sys::CUfunction,
}
// SAFETY: function handles are plain driver handles, valid in any thread with the context bound.
unsafe impl Send for Func {}
unsafe impl Sync for Func {}

/// NVRTC's version, or why NVRTC cannot be used (no GPU needed).
pub fn nvrtc_version() -> Result<(i32, i32)> {
    static V: OnceLock<std::result::Result<(i32, i32), Error>> = OnceLock::new();
    V.get_or_init(|| {
        if !unsafe { nvrtc_sys::is_culib_present() } {
            return Err(Error::device(
                "the CUDA runtime compiler (libnvrtc.so) was not found: gcalc compiles its GPU kernels with it",
            )
            .with_help("install the CUDA toolkit's NVRTC (or pip's nvidia-cuda-nvrtc) and add its lib folder to LD_LIBRARY_PATH"));
        }
        let (mut a, mut b) = (0, 0);
        unsafe { nvrtc_sys::nvrtcVersion(&mut a, &mut b) }
            .result()
            .map_err(|e| Error::device(format!("NVRTC failed: {e:?}")))?;
        Ok((a, b))
    })
    .clone()
}

pub(crate) fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("gcalc").join("kernels"))
}

/// Include folders for cuda_fp16.h when NVRTC lacks it built in.
fn include_opts() -> Vec<String> {
    let mut v = Vec::new();
    let mut cands: Vec<PathBuf> = Vec::new();
    if let Some(h) = std::env::var_os("CUDA_HOME") {
        cands.push(PathBuf::from(h).join("include"));
    }
    cands.push(PathBuf::from("/usr/local/cuda/include"));
    for c in cands {
        if c.join("cuda_fp16.h").exists() {
            v.push(format!("--include-path={}", c.display()));
            break;
        }
    }
    v
}

fn options(g: &Gpu) -> Vec<String> {
    options_for(g.cc)
}

/// The NVRTC options gcalc compiles with for compute capability `cc`
/// (`(9, 0)`: sm_90); no GPU needed.
pub fn options_for(cc: (i32, i32)) -> Vec<String> {
    let mut o = vec![
        format!("--gpu-architecture=sm_{}{}", cc.0, cc.1),
        "--std=c++17".to_string(),
        "--use_fast_math=false".to_string(),
    ];
    o.retain(|s| !s.starts_with("--use_fast_math"));
    o.extend(include_opts());
    o
}

/// Compile `src` to a cubin (or give NVRTC's log as a Kernel error).
pub fn nvrtc_cubin(src: &str, opts: &[String], what: &str) -> Result<Vec<u8>> {
    nvrtc_version()?;
    let csrc = CString::new(src).map_err(|_| Error::value("kernel source contains a NUL byte"))?;
    let name = CString::new(format!("{what}.cu")).unwrap_or_default();
    let prog = nvrtc::create_program(&csrc, Some(&name))
        .map_err(|e| Error::device(format!("NVRTC could not create a program: {e:?}")))?;
    let compiled = unsafe { nvrtc::compile_program(prog, opts) };
    let out = match compiled {
        Ok(()) => unsafe {
            let mut size = 0usize;
            nvrtc_sys::nvrtcGetCUBINSize(prog, &mut size)
                .result()
                .and_then(|_| {
                    let mut buf = vec![0u8; size];
                    nvrtc_sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut _)
                        .result()
                        .map(|_| buf)
                })
                .map_err(|e| Error::device(format!("NVRTC gave no cubin: {e:?}")))
        },
        Err(_) => {
            let log = unsafe { nvrtc::get_program_log(prog) }
                .map(|l| {
                    let bytes: Vec<u8> =
                        l.iter().map(|&c| c as u8).take_while(|&c| c != 0).collect();
                    String::from_utf8_lossy(&bytes).into_owned()
                })
                .unwrap_or_default();
            Err(Error::new(
                ErrorKind::Kernel,
                format!("CUDA compile error in {what}:\n{}", log.trim_end()),
            ))
        }
    };
    let _ = unsafe { nvrtc::destroy_program(prog) };
    out
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// The disk-cache file of `src` compiled for `g` with `opts` (None: no
/// cache folder), named by the key of the module's doc.
fn cache_path(g: &Gpu, src: &str, opts: &[String]) -> Result<Option<PathBuf>> {
    let (va, vb) = nvrtc_version()?;
    let mut h = Sha256::new();
    h.update(src.as_bytes());
    h.update(format!("\0nvrtc {va}.{vb}\0sm_{}{}\0", g.cc.0, g.cc.1).as_bytes());
    h.update(opts.join(" ").as_bytes());
    h.update(
        format!(
            "\0codegen {}",
            gcalc_kernels::cuda::codegen::CODEGEN_VERSION
        )
        .as_bytes(),
    );
    let key = hex(&h.finalize());
    Ok(cache_dir().map(|d| d.join(format!("{key}.cubin"))))
}

/// The cubin for `src` on `g`: from the disk cache when a good copy is there, else compiled and stored.
pub fn cubin(g: &Gpu, src: &str, extra: &[String], what: &str) -> Result<Vec<u8>> {
    let mut opts = options(g);
    opts.extend(extra.iter().cloned());
    let t0 = std::time::Instant::now();
    let path = cache_path(g, src, &opts)?;
    if let Some(p) = &path
        && let Some(bin) = read_checked(p)
    {
        crate::profile::backend::compile(what, g.device(), t0.elapsed(), true);
        return Ok(bin);
    }
    let bin = nvrtc_cubin(src, &opts, what)?;
    if let Some(p) = &path {
        write_checked(p, &bin);
    }
    crate::profile::backend::compile(what, g.device(), t0.elapsed(), false);
    Ok(bin)
}

/// Make sure the disk cache holds `src` compiled for `g` (what `function`
/// and `functions` will load): compiled and stored when missing, nothing
/// loaded. Thread-safe (NVRTC programs are independent), for the start-up
/// warm-up that fills the cache in parallel (`warm.rs`).
pub(crate) fn ensure_cached(g: &Gpu, src: &str) -> Result<()> {
    let opts = options(g);
    let Some(path) = cache_path(g, src, &opts)? else {
        return Ok(());
    };
    if path.exists() {
        return Ok(());
    }
    let bin = nvrtc_cubin(src, &opts, "warm-up")?;
    write_checked(&path, &bin);
    Ok(())
}

/// File layout: cubin bytes, then the sha256 of those bytes (32 bytes).
fn read_checked(p: &PathBuf) -> Option<Vec<u8>> {
    let mut data = std::fs::read(p).ok()?;
    if data.len() < 33 {
        return None;
    }
    let sum = data.split_off(data.len() - 32);
    (Sha256::digest(&data).as_slice() == sum.as_slice()).then_some(data)
}

fn write_checked(p: &PathBuf, bin: &[u8]) {
    let Some(dir) = p.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!(
        ".tmp-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let mut data = bin.to_vec();
    data.extend_from_slice(&Sha256::digest(bin));
    if std::fs::write(&tmp, &data).is_ok() && std::fs::rename(&tmp, p).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Load a cubin image as a module on `g`.
pub fn load_module(g: &Gpu, bin: &[u8]) -> Result<sys::CUmodule> {
    g.bind()?;
    unsafe { result::module::load_data(bin.as_ptr() as *const _) }
        .map_err(|e| g.err(e, "loading a kernel module"))
}

/// # Safety
/// `m` must be a module loaded by `load_module` on `g` and not unloaded.
pub unsafe fn get_function(g: &Gpu, m: sys::CUmodule, name: &str) -> Result<Func> {
    let c = CString::new(name).map_err(|_| Error::value("bad kernel name"))?;
    let f = unsafe { result::module::get_function(m, c) }
        .map_err(|e| g.err(e, &format!("finding kernel `{name}`")))?;
    Ok(Func { f })
}

/// Function `name` of the module built from `source()`, cached under `key`.
/// A cubin from the disk cache that fails to load is recompiled once.
pub fn function(g: &Gpu, key: u64, name: &str, source: impl FnOnce() -> String) -> Result<Func> {
    let fkey = key;
    if let Some(f) = g.functions.lock().ok().and_then(|m| m.get(&fkey).copied()) {
        return Ok(f);
    }
    let src = source();
    let bin = cubin(g, &src, &[], name)?;
    let m = match load_module(g, &bin) {
        Ok(m) => m,
        Err(_) if !g.is_poisoned() => {
            let opts = options(g);
            let t0 = std::time::Instant::now();
            let bin = nvrtc_cubin(&src, &opts, name)?;
            crate::profile::backend::compile(name, g.device(), t0.elapsed(), false);
            load_module(g, &bin)?
        }
        Err(e) => return Err(e),
    };
    let f = unsafe { get_function(g, m, name) }?;
    if let Ok(mut map) = g.functions.lock() {
        map.insert(fkey, f);
    }
    Ok(f)
}

/// Every function of a module of several kernels (loaded once under `key`).
pub fn functions(
    g: &Gpu,
    key: &str,
    names: &[&str],
    source: impl FnOnce() -> String,
) -> Result<Vec<Func>> {
    let cached: Option<Vec<Func>> = g.functions.lock().ok().and_then(|m| {
        names
            .iter()
            .map(|n| m.get(&key_of(key, n)).copied())
            .collect()
    });
    if let Some(v) = cached {
        return Ok(v);
    }
    let src = source();
    let bin = cubin(g, &src, &[], key)?;
    let m = load_module(g, &bin)?;
    let mut out = Vec::new();
    for n in names {
        let f = unsafe { get_function(g, m, n) }?;
        if let Ok(mut map) = g.functions.lock() {
            map.insert(key_of(key, n), f);
        }
        out.push(f);
    }
    Ok(out)
}

/// Functions already loaded, per device and a small `Copy` key (one static
/// per kernel family: gemv, reductions, argreduce, index, philox): a kernel
/// called in a training loop should not format and hash a module key on
/// every call, as `functions` does.
pub struct Loaded<K, const N: usize>(std::sync::Mutex<Vec<((u32, K), [Func; N])>>);

impl<K: PartialEq + Copy, const N: usize> Loaded<K, N> {
    pub const fn new() -> Self {
        Loaded(std::sync::Mutex::new(Vec::new()))
    }

    /// The functions of `key` on `g`, loaded by `load` (N of them) the first time.
    pub fn get_or_load(
        &self,
        g: &Gpu,
        key: K,
        load: impl FnOnce() -> Result<Vec<Func>>,
    ) -> Result<[Func; N]> {
        let id = (g.ordinal, key);
        let found = self
            .0
            .lock()
            .ok()
            .and_then(|l| l.iter().find(|(k, _)| *k == id).map(|(_, f)| *f));
        if let Some(f) = found {
            return Ok(f);
        }
        let v = load()?;
        let n = v.len();
        let f: [Func; N] = v
            .try_into()
            .map_err(|_| Error::internal(format!("a kernel module gave {n} functions, not {N}")))?;
        if let Ok(mut l) = self.0.lock() {
            l.push((id, f));
        }
        Ok(f)
    }
}

/// In-process cache key of function `name` of the module known as `key`.
pub fn key_of(key: &str, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    name.hash(&mut h);
    h.finish()
}
