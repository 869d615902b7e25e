//! unique and nonzero on a GPU: 0/1 flags (a group starts where the sorted
//! key changes; an element is nonzero), their inclusive scan (each block of
//! 2048 scans its part, one block scans the block sums, a pass adds them),
//! then each flagged element writes its result at its scan value. The size
//! of the result is the scan's last value: it is read back to the host,
//! the one sync of these ops (the shape must be known to allocate).

use super::radix::radix_sort;
use super::{Kern, Module, P, blocks, buf, count32, go, gpu_of, ptr, ptr_or_null};
use crate::array::Array;
use crate::cuda::Gpu;
use crate::dtype::DType;
use crate::error::{Error, Result};
use gcalc_kernels::cuda::sort::{RADIX_THREADS, TILE};
use std::sync::Arc;

/// The inclusive scan of `n` u32 `flags`, and its last value (one sync).
fn scan_count(g: &Arc<Gpu>, m: &Module, flags: &Array, n: u32) -> Result<(Array, u32)> {
    let nb = (n as usize).div_ceil(TILE as usize);
    let out = buf(g, DType::Int32, n as usize)?;
    let sums = buf(g, DType::Int32, nb)?;
    go(
        g,
        m,
        Kern::ScanBlocks,
        nb as u64,
        RADIX_THREADS,
        0,
        &[
            P::Ptr(ptr(flags)?),
            P::U32(n),
            P::Ptr(ptr(&out)?),
            P::Ptr(ptr(&sums)?),
        ],
    )?;
    if nb > 1 {
        go(
            g,
            m,
            Kern::ScanSums,
            1,
            RADIX_THREADS,
            0,
            &[P::Ptr(ptr(&sums)?), P::U32(nb as u32)],
        )?;
        go(
            g,
            m,
            Kern::ScanAdd,
            blocks(n as usize),
            256,
            0,
            &[P::Ptr(ptr(&out)?), P::U32(n), P::Ptr(ptr(&sums)?)],
        )?;
    }
    // The sync: the count decides the result's shape.
    let last = out.view(vec![1], vec![1], n as usize - 1).to_vec::<i32>()?;
    let count = last
        .first()
        .map(|&c| c as u32)
        .ok_or_else(|| Error::internal("scan: nothing read back"))?;
    Ok((out, count))
}

/// The distinct elements of contiguous GPU `x` (flattened), then first
/// positions, inverse (x's shape) and counts as asked.
pub fn unique(
    x: &Array,
    index: bool,
    inverse: bool,
    counts: bool,
    equal_nan: bool,
) -> Result<Vec<Array>> {
    let g = gpu_of(x)?;
    let d = x.dtype();
    let m = Module::of(&g, d)?;
    let n = count32(x.size(), "unique")?;
    let size = x.size();
    // Float values are read from x at each group's first position (a stable
    // sort), so -0.0 and 0.0 keep the first one's sign, as NumPy's unique.
    let want_pos = index || inverse || d.is_float();
    // unique syncs for its size anyway: one more to skip the shared bytes.
    let trim = size >= 1 << 16;
    let (keys, pos) = radix_sort(x, false, true, want_pos, size, 0, trim)?;
    let (keys, pos) = (&keys, pos.as_ref());
    let flags = buf(&g, DType::Int32, size)?;
    go(
        &g,
        &m,
        Kern::UniqueFlags,
        blocks(size),
        256,
        0,
        &[
            P::Ptr(ptr(keys)?),
            P::U32(n),
            P::I32(equal_nan as i32),
            P::Ptr(ptr(&flags)?),
        ],
    )?;
    let (scan, count) = scan_count(&g, &m, &flags, n)?;
    let c = count as usize;
    let vals = buf(&g, d, c)?;
    let starts = buf(&g, DType::Int32, c)?;
    let first = if index {
        Some(buf(&g, DType::Int64, c)?)
    } else {
        None
    };
    go(
        &g,
        &m,
        Kern::UniqueWrite,
        blocks(size),
        256,
        0,
        &[
            P::Ptr(ptr(keys)?),
            P::Ptr(ptr_or_null(pos)?),
            P::Ptr(ptr(&scan)?),
            P::U32(n),
            P::Ptr(ptr(x)?),
            P::Ptr(ptr(&vals)?),
            P::Ptr(ptr(&starts)?),
            P::Ptr(ptr_or_null(first.as_ref())?),
        ],
    )?;
    let mut out = vec![vals];
    out.extend(first);
    if inverse {
        let inv = buf(&g, DType::Int64, size)?;
        go(
            &g,
            &m,
            Kern::UniqueInverse,
            blocks(size),
            256,
            0,
            &[
                P::Ptr(ptr_or_null(pos)?),
                P::Ptr(ptr(&scan)?),
                P::U32(n),
                P::Ptr(ptr(&inv)?),
            ],
        )?;
        let shape: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
        out.push(inv.reshape(&shape)?);
    }
    if counts {
        let cs = buf(&g, DType::Int64, c)?;
        go(
            &g,
            &m,
            Kern::UniqueCounts,
            blocks(c),
            256,
            0,
            &[
                P::Ptr(ptr(&starts)?),
                P::U32(count),
                P::U32(n),
                P::Ptr(ptr(&cs)?),
            ],
        )?;
        out.push(cs);
    }
    Ok(out)
}

/// The nonzero elements of contiguous GPU `x` (ndim >= 1): their coordinates
/// as one (ndim, count) int64 array, or flat positions (count,) when `flat`.
pub fn nonzero(x: &Array, flat: bool) -> Result<Vec<Array>> {
    let g = gpu_of(x)?;
    let m = Module::of(&g, x.dtype())?;
    let n = count32(x.size(), "nonzero")?;
    let flags = buf(&g, DType::Int32, x.size())?;
    go(
        &g,
        &m,
        Kern::NzFlags,
        blocks(x.size()),
        256,
        0,
        &[P::Ptr(ptr(x)?), P::U32(n), P::Ptr(ptr(&flags)?)],
    )?;
    let (scan, count) = scan_count(&g, &m, &flags, n)?;
    let c = count as usize;
    let nd = if flat { 1 } else { x.ndim() };
    let out = buf(&g, DType::Int64, nd * c)?;
    if c > 0 {
        let dims: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
        let nd_dims = dims.len();
        let dims = crate::cuda::buffer::upload(&Array::from_vec(dims, vec![nd_dims]), g.ordinal)?;
        go(
            &g,
            &m,
            Kern::NzWrite,
            blocks(x.size()),
            256,
            0,
            &[
                P::Ptr(ptr(&scan)?),
                P::U32(n),
                P::U32(count),
                P::Ptr(ptr(&dims)?),
                P::I32(nd_dims as i32),
                P::I32(flat as i32),
                P::Ptr(ptr(&out)?),
            ],
        )?;
    }
    let shape: Vec<i64> = if flat {
        vec![c as i64]
    } else {
        vec![nd as i64, c as i64]
    };
    Ok(vec![out.reshape(&shape)?])
}
