//! The sorting family on the CPU: every `SortJob` over host arrays, on
//! integer keys (`gcalc_kernels::cpu::sort::keys`: NumPy's order, nans last)
//! with the stable parallel radix sort of `gcalc_kernels::cpu::sort::radix`.
//! `lanes.rs`: sort, argsort, partition, topk and the gradient's scatter;
//! `search.rs`: searchsorted and isin; `select.rs`: unique and nonzero.

mod lanes;
mod search;
mod select;

use crate::array::{Array, Element, HostData};
use crate::error::{Error, Result};
use crate::opid::SortJob;
use gcalc_kernels::cpu::sort::keys::SortKey;
use rayon::prelude::*;

/// Run a job of the sorting family on host arrays.
pub fn run(job: &SortJob<'_>) -> Result<Vec<Array>> {
    match *job {
        SortJob::Sort {
            x,
            descending,
            values,
            indices,
        } => lanes::sort(x, descending, values, indices),
        SortJob::Partition {
            x,
            kth,
            values,
            indices,
        } => lanes::partition(x, kth, values, indices),
        SortJob::Topk { x, k, largest } => lanes::topk(x, k, largest),
        SortJob::ScatterLanes { g, idx, n } => lanes::scatter(g, idx, n),
        SortJob::Searchsorted {
            a,
            v,
            right,
            sorter,
        } => search::searchsorted(a, v, right, sorter),
        SortJob::Isin { x, test, invert } => search::isin(x, test, invert),
        SortJob::Unique {
            x,
            index,
            inverse,
            counts,
            equal_nan,
        } => select::unique(x, index, inverse, counts, equal_nan),
        SortJob::Nonzero { x } => select::nonzero(x, false),
        SortJob::Flatnonzero { x } => select::nonzero(x, true),
    }
}

/// Element types the family sorts: gcalc's, each with its integer key.
pub(crate) trait Item: Element + SortKey {}
impl<T: Element + SortKey> Item for T {}

/// A lane position carried through a sort: u32 while lanes are shorter than
/// 2^32 (half the memory traffic of u64), else u64.
pub(crate) trait Pos: Copy + Default + Send + Sync + 'static {
    fn at(i: usize) -> Self;
    fn get(self) -> usize;
}
impl Pos for u32 {
    #[inline(always)]
    fn at(i: usize) -> u32 {
        i as u32
    }
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
    }
}
impl Pos for u64 {
    #[inline(always)]
    fn at(i: usize) -> u64 {
        i as u64
    }
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
    }
}

/// Elements per parallel chunk of the element-wise passes (keys in, values out).
const CHUNK: usize = 1 << 15;

/// The elements of contiguous host array `x` as `T` (its dtype).
fn elements<'a, T: Element>(x: &Array, d: &'a HostData) -> Result<&'a [T]> {
    if !x.is_contiguous() {
        return Err(Error::internal("a sort job got a non-contiguous array"));
    }
    let s = T::slice(d).ok_or_else(|| Error::internal("sort: dtype mismatch"))?;
    s.get(x.offset()..x.offset() + x.size())
        .ok_or_else(|| Error::internal("sort: view outside its buffer"))
}

/// `out[i] = f(src[i])` in parallel chunks when long.
fn map_into<A: Sync, B: Send>(src: &[A], out: &mut [B], f: impl Fn(&[A], &mut [B]) + Sync) {
    if src.len() > 2 * CHUNK {
        out.par_chunks_mut(CHUNK)
            .zip(src.par_chunks(CHUNK))
            .for_each(|(o, s)| f(s, o));
    } else {
        f(src, out);
    }
}
