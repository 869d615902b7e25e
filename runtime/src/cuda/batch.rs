//! Many generated kernels compiled as one NVRTC program: NVRTC compiles one
//! program at a time in a process (measured: two threads ran 12 compiles
//! slower than one) and spends most of a small kernel's ~30-120 ms parsing
//! the prelude's `cuda_fp16.h`, so the start-up warm-up (`warm.rs`) puts up
//! to `BATCH` generated kernels in one program, the prelude once, each
//! kernel renamed in its own namespace. The batch's cubin is cached under
//! its own key, and each member's key gets an alias file
//! (`<key>.alias`: the batch's file name and the member's kernel symbol),
//! which `compile::function` follows before compiling anything.

use super::compile::{self, Func};
use super::driver::Gpu;
use crate::error::{Error, Result};
use gcalc_kernels::cuda::PRELUDE;
use std::path::PathBuf;

/// Kernels per program (a batch of 48 small kernels compiles in about the
/// time of four single ones).
pub const BATCH: usize = 48;

/// The kernel a generated source defines (`gc_ew` or `gc_sum`), if it is
/// one that can join a batch: the prelude, then one kernel.
fn kernel_of(src: &str) -> Option<&'static str> {
    let body = src.strip_prefix(PRELUDE)?;
    let has = |k: &str| body.contains(&format!(" {k}("));
    match (has("gc_ew"), has("gc_sum")) {
        (true, false) => Some("gc_ew"),
        (false, true) => Some("gc_sum"),
        _ => None,
    }
}

/// Whether `src` can be compiled in a batch.
pub fn batchable(src: &str) -> bool {
    kernel_of(src).is_some()
}

fn alias_path(g: &Gpu, src: &str) -> Result<Option<PathBuf>> {
    Ok(compile::cache_file(g, src)?.map(|p| p.with_extension("alias")))
}

/// Whether `src` has a cached cubin or an alias into a batch.
pub fn is_cached(g: &Gpu, src: &str) -> Result<bool> {
    let cubin = compile::cache_file(g, src)?;
    Ok(cubin.is_some_and(|p| p.exists() || p.with_extension("alias").exists()))
}

/// The one program of `members` (batchable sources) and each member's
/// kernel symbol in it (no GPU needed: the NVRTC test compiles it).
pub fn batch_source(members: &[&str]) -> Result<(String, Vec<String>)> {
    let mut src = String::from(PRELUDE);
    let mut symbols = Vec::with_capacity(members.len());
    for (k, m) in members.iter().enumerate() {
        let (Some(kernel), Some(body)) = (kernel_of(m), m.strip_prefix(PRELUDE)) else {
            return Err(Error::internal("a kernel source that cannot join a batch"));
        };
        let symbol = format!("{kernel}_b{k}");
        let body = body.replace(&format!(" {kernel}("), &format!(" {symbol}("));
        src.push_str(&format!("namespace gcb{k} {{\n{body}\n}}\n"));
        symbols.push(symbol);
    }
    Ok((src, symbols))
}

/// Compile `members` (batchable sources) as one program, store its cubin
/// and an alias for each member.
pub fn compile_batch(g: &Gpu, members: &[&str]) -> Result<()> {
    let (src, symbols) = batch_source(members)?;
    let Some(batch_file) = compile::cache_file(g, &src)? else {
        return Ok(());
    };
    let bin = compile::nvrtc_cubin(&src, &compile::options_of(g), "warm-up batch")?;
    compile::write_checked(&batch_file, &bin);
    let name = batch_file
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error::internal("cache file without a name"))?
        .to_string();
    for (m, symbol) in members.iter().zip(&symbols) {
        if let Some(p) = alias_path(g, m)? {
            let _ = std::fs::write(p, format!("{name} {symbol}\n"));
        }
    }
    Ok(())
}

/// The kernel `name` of `src` through its alias, when the warm-up compiled
/// it in a batch (the batch's module loaded once per process); None: no
/// usable alias (the caller compiles `src` as usual).
pub fn from_alias(g: &Gpu, src: &str, name: &str) -> Option<Func> {
    let t0 = std::time::Instant::now();
    let alias = std::fs::read_to_string(alias_path(g, src).ok()??).ok()?;
    let (file, symbol) = alias.trim().split_once(' ')?;
    if !symbol.starts_with(name) {
        return None;
    }
    let dir = compile::cache_dir()?;
    let mut mods = g.batch_modules.lock().ok()?;
    let m = match mods.get(file) {
        Some(&m) => m,
        None => {
            let bin = compile::read_checked(&dir.join(file))?;
            let m = compile::load_module(g, &bin).ok()?;
            mods.insert(file.to_string(), m as usize);
            m as usize
        }
    };
    drop(mods);
    // SAFETY: `m` was loaded on `g` by `load_module` and is never unloaded.
    let f = unsafe { compile::get_function(g, m as _, symbol) }.ok()?;
    crate::profile::backend::compile(name, g.device(), t0.elapsed(), true);
    Some(f)
}
