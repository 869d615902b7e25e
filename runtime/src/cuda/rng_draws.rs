//! The distributions' draws on the GPU, the permutation's indices, `choice`'s
//! cdf search and rows gathered by an index array: the kernels of
//! `gcalc_kernels::cuda::draws_source` (samplers.cuh, the twin of the CPU's
//! samplers, compiled with `--fmad=false`), so a draw gives the CPU's values
//! bit for bit from the same generator state, and advances it alike.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::Dist;
use crate::random::{Param, Rng};
use gcalc_kernels::cuda as kc;
use std::ffi::c_void;
use std::sync::Arc;

/// Kernels of the module: a draw per distribution and output dtype, then the rest.
const EXTRA: [&str; 6] = [
    "perm_index",
    "choice_cdf",
    "take_rows_1",
    "take_rows_2",
    "take_rows_4",
    "take_rows_8",
];
const N_KERNELS: usize = Dist::ALL.len() * DType::ALL.len() + EXTRA.len();

fn names() -> Vec<String> {
    let mut v: Vec<String> = Dist::ALL
        .iter()
        .flat_map(|d| {
            DType::ALL
                .iter()
                .map(move |&t| format!("draw_{}_{}", d.name(), kc::draw_suffix(t)))
        })
        .collect();
    v.extend(EXTRA.iter().map(|s| s.to_string()));
    v
}

/// The module's functions on `g` (compiled once, without FMA contraction).
fn kernels(g: &Arc<Gpu>) -> Result<[compile::Func; N_KERNELS]> {
    static LOADED: compile::Loaded<(), N_KERNELS> = compile::Loaded::new();
    LOADED.get_or_load(g, (), || {
        let opts: Vec<String> = kc::DRAWS_OPTIONS.iter().map(|s| s.to_string()).collect();
        let bin = compile::cubin(g, &kc::draws_source(), &opts, "random draws")?;
        let m = compile::load_module(g, &bin)?;
        // SAFETY: `m` was just loaded on `g` and stays loaded.
        names()
            .iter()
            .map(|n| unsafe { compile::get_function(g, m, n) })
            .collect()
    })
}

fn func(g: &Arc<Gpu>, name: &str) -> Result<compile::Func> {
    let k = names()
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| Error::internal(format!("no random kernel {name}")))?;
    Ok(kernels(g)?[k])
}

/// One thread per element, 256 to a block; `args` are the kernel's
/// parameters in order, each 8 bytes (pointers, counts, and float64 values
/// by their bits).
fn run(g: &Gpu, f: compile::Func, threads: usize, args: &mut [u64]) -> Result<()> {
    if threads == 0 {
        return Ok(());
    }
    let blocks = u32::try_from(threads.div_ceil(256)).map_err(|_| {
        Error::value(format!(
            "a random draw of {threads} elements is too large for one launch"
        ))
    })?;
    let mut params: Vec<*mut c_void> = args
        .iter_mut()
        .map(|a| a as *mut u64 as *mut c_void)
        .collect();
    launch(
        g,
        f,
        (blocks, 1, 1),
        (256, 1, 1),
        0,
        &mut params,
        "a random draw",
    )
}

/// A parameter as (device pointer or 0, the bits of its value).
fn param(p: Param<'_>) -> Result<(u64, u64)> {
    match p {
        Param::Scalar(v) => Ok((0, v.to_bits())),
        Param::Array(a) => Ok((array_buffer(a)?.ptr_at(a.offset()), 0)),
    }
}

/// `n` (= the size of `shape`) draws of `dist` with parameters `a`, `b` as
/// `dtype` on GPU `dev`.
pub fn draw(
    rng: &mut Rng,
    dist: Dist,
    a: Param<'_>,
    b: Param<'_>,
    shape: &[usize],
    dtype: DType,
    dev: u32,
) -> Result<Array> {
    let g = gpu(dev)?;
    let n: usize = shape.iter().product();
    let out = DeviceBuffer::alloc(&g, dtype, n)?;
    let key = rng.key;
    let ctr = rng.take(dist.blocks(n as u64));
    if n > 0 {
        let f = func(
            &g,
            &format!("draw_{}_{}", dist.name(), kc::draw_suffix(dtype)),
        )?;
        let (pa, va) = param(a)?;
        let (pb, vb) = param(b)?;
        run(
            &g,
            f,
            n,
            &mut [out.ptr_at(0), n as u64, ctr, key, pa, va, pb, vb],
        )?;
    }
    Ok(array_of(out, shape.to_vec()))
}

/// The first `k` values of the permutation of `0..n` keyed at `ctr` (int64) on GPU `dev`.
pub fn perm_index(k: usize, n: u64, ctr: u64, key: u64, dev: u32) -> Result<Array> {
    let g = gpu(dev)?;
    let out = DeviceBuffer::alloc(&g, DType::Int64, k)?;
    if k > 0 {
        let f = func(&g, "perm_index")?;
        run(&g, f, k, &mut [out.ptr_at(0), k as u64, n, ctr, key])?;
    }
    Ok(array_of(out, vec![k]))
}

/// `k` indices drawn with the cumulative probabilities `cdf` (a contiguous
/// float64 array on GPU `dev`), int64.
pub fn choice_cdf(k: usize, cdf: &Array, ctr: u64, key: u64, dev: u32) -> Result<Array> {
    let g = gpu(dev)?;
    let out = DeviceBuffer::alloc(&g, DType::Int64, k)?;
    if k > 0 {
        let f = func(&g, "choice_cdf")?;
        let pc = array_buffer(cdf)?.ptr_at(cdf.offset());
        run(
            &g,
            f,
            k,
            &mut [out.ptr_at(0), k as u64, pc, cdf.size() as u64, ctr, key],
        )?;
    }
    Ok(array_of(out, vec![k]))
}

/// The rows of `x` (along axis 0) at the int64 indices `idx` (on x's GPU,
/// all in range), as a new contiguous array.
pub fn take_rows(x: &Array, idx: &Array, dev: u32) -> Result<Array> {
    let g = gpu(dev)?;
    let x = if x.is_contiguous() {
        x.clone()
    } else {
        super::ew::copy(x, x.dtype())?
    };
    let idx = if idx.is_contiguous() {
        idx.clone()
    } else {
        super::ew::copy(idx, DType::Int64)?
    };
    let k = idx.size();
    let row: usize = x.shape()[1..].iter().product();
    let mut shape = vec![k];
    shape.extend_from_slice(&x.shape()[1..]);
    let out = DeviceBuffer::alloc(&g, x.dtype(), k * row)?;
    if k * row > 0 {
        let f = func(&g, &format!("take_rows_{}", x.dtype().size()))?;
        let px = array_buffer(&x)?.ptr_at(x.offset());
        let pi = array_buffer(&idx)?.ptr_at(idx.offset());
        run(
            &g,
            f,
            k * row,
            &mut [out.ptr_at(0), px, pi, k as u64, row as u64],
        )?;
    }
    Ok(array_of(out, shape))
}
