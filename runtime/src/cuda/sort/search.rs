//! searchsorted, isin and the gradient's scatter on a GPU: searchsorted
//! makes the keys of `a` (through `sorter`) and binary-searches each
//! value's key, a thread per value; isin sorts the test elements' keys with
//! the radix sort and searches each element's; the scatter stores each
//! gradient element at its lane position in zeros.

use super::radix::sorted_keys;
use super::{
    Kern, Module, P, blocks, buf, count32, go, gpu_of, key_dtype, lane_len, ptr, ptr_or_null,
};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;

/// Where each element of `v` goes in 1-d `a` (one dtype), int64 of v's shape.
pub fn searchsorted(
    a: &Array,
    v: &Array,
    right: bool,
    sorter: Option<&Array>,
) -> Result<Vec<Array>> {
    let g = gpu_of(a)?;
    let m = Module::of(&g, a.dtype())?;
    let (a, v) = (a.contiguous()?, v.contiguous()?);
    let sorter = sorter.map(|s| s.contiguous()).transpose()?;
    let na = count32(a.size(), "searchsorted")?;
    let nv = count32(v.size(), "searchsorted")?;
    let keys = buf(&g, key_dtype(a.dtype()), a.size())?;
    go(
        &g,
        &m,
        Kern::SsKeys,
        blocks(a.size()),
        256,
        0,
        &[
            P::Ptr(ptr(&a)?),
            P::U32(na),
            P::Ptr(ptr_or_null(sorter.as_ref())?),
            P::Ptr(ptr(&keys)?),
        ],
    )?;
    let out = buf(&g, DType::Int64, v.size())?;
    go(
        &g,
        &m,
        Kern::SsSearch,
        blocks(v.size()),
        256,
        0,
        &[
            P::Ptr(ptr(&keys)?),
            P::U32(na),
            P::Ptr(ptr(&v)?),
            P::U32(nv),
            P::I32(right as i32),
            P::Ptr(ptr(&out)?),
        ],
    )?;
    let shape: Vec<i64> = v.shape().iter().map(|&s| s as i64).collect();
    Ok(vec![out.reshape(&shape)?])
}

/// Whether each element of `x` is among `test` (one dtype), negated when `invert`.
pub fn isin(x: &Array, test: &Array, invert: bool) -> Result<Vec<Array>> {
    let g = gpu_of(x)?;
    let m = Module::of(&g, x.dtype())?;
    let (x, test) = (x.contiguous()?, test.contiguous()?);
    let keys = sorted_keys(&test)?;
    let nt = count32(test.size(), "isin")?;
    let nx = count32(x.size(), "isin")?;
    let out = buf(&g, DType::Bool, x.size())?;
    go(
        &g,
        &m,
        Kern::IsinSearch,
        blocks(x.size()),
        256,
        0,
        &[
            P::Ptr(ptr(&keys)?),
            P::U32(nt),
            P::Ptr(ptr(&x)?),
            P::U32(nx),
            P::I32(invert as i32),
            P::Ptr(ptr(&out)?),
        ],
    )?;
    let shape: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
    Ok(vec![out.reshape(&shape)?])
}

/// Zeros of (rows..., n) in g's dtype with `g[r, j]` at lane position `idx[r, j]`.
pub fn scatter_lanes(g_arr: &Array, idx: &Array, n: usize) -> Result<Vec<Array>> {
    let g = gpu_of(g_arr)?;
    let m = Module::of(&g, g_arr.dtype())?;
    let (ga, idx) = (g_arr.contiguous()?, idx.contiguous()?);
    let k = lane_len(&ga)?;
    let rows = ga.size() / k.max(1);
    let mut shape = ga.shape().to_vec();
    if let Some(last) = shape.last_mut() {
        *last = n;
    }
    let out = crate::cuda::ew::zeros(&shape, ga.dtype(), g.ordinal)?;
    let total = count32(ga.size(), "the gradient of a sort")?;
    count32(rows * n, "the gradient of a sort")?;
    if total > 0 {
        go(
            &g,
            &m,
            Kern::ScatterLanes,
            blocks(ga.size()),
            256,
            0,
            &[
                P::Ptr(ptr(&ga)?),
                P::Ptr(ptr(&idx)?),
                P::U32(total),
                P::U32(k as u32),
                P::U32(n as u32),
                P::Ptr(ptr(&out)?),
            ],
        )?;
    }
    Ok(vec![out])
}
