//! The sorting family on a GPU (kernels in `kernels/src/cuda/sort.cu`, one
//! module per element dtype): `radix.rs` sorts lanes (sort, argsort,
//! partition, topk; the isin test set) by a bitonic sort in shared memory
//! per short lane or a stable LSD radix sort of long ones; `select.rs`
//! scans flags for unique and nonzero, whose result size is read back with
//! one sync (the only host round trip of the family, besides the sorter
//! check of searchsorted in the ops layer); `search.rs` has searchsorted,
//! isin and the gradient's scatter. Positions are u32 on the device: an
//! array of more than 2^32 - 1 elements is an error here.

mod radix;
mod search;
mod select;

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::SortJob;
use gcalc_kernels::cuda::sort::{KERNELS, sort_source};
use std::ffi::c_void;
use std::sync::Arc;

/// Run a job of the sorting family on GPU arrays.
pub fn run(job: &SortJob<'_>) -> Result<Vec<Array>> {
    match *job {
        SortJob::Sort {
            x,
            descending,
            values,
            indices,
        } => {
            let keep = lane_len(x)?;
            radix::sort_lanes(x, descending, values, indices, keep)
        }
        SortJob::Partition {
            x,
            kth: _,
            values,
            indices,
        } => {
            // A sorted lane is a partition about every position.
            let keep = lane_len(x)?;
            radix::sort_lanes(x, false, values, indices, keep)
        }
        SortJob::Topk { x, k, largest } => radix::sort_lanes(x, largest, true, true, k),
        SortJob::Searchsorted {
            a,
            v,
            right,
            sorter,
        } => search::searchsorted(a, v, right, sorter),
        SortJob::Isin { x, test, invert } => search::isin(x, test, invert),
        SortJob::ScatterLanes { g, idx, n } => search::scatter_lanes(g, idx, n),
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

/// The kernels of the sort module of `d`, in `KERNELS` order.
#[derive(Clone, Copy)]
enum Kern {
    Small,
    Keys,
    Hist,
    Scan,
    Scatter,
    Finish,
    ScanBlocks,
    ScanSums,
    ScanAdd,
    UniqueFlags,
    UniqueWrite,
    UniqueCounts,
    UniqueInverse,
    NzFlags,
    NzWrite,
    SsKeys,
    SsSearch,
    IsinSearch,
    ScatterLanes,
    HistAll,
}

/// The loaded sort module of elements of `d` on `g`.
struct Module([compile::Func; KERNELS.len()]);

impl Module {
    fn of(g: &Gpu, d: DType) -> Result<Module> {
        static LOADED: compile::Loaded<DType, { KERNELS.len() }> = compile::Loaded::new();
        LOADED
            .get_or_load(g, d, || {
                compile::functions(g, &format!("sort{d:?}"), &KERNELS, || sort_source(d))
            })
            .map(Module)
    }
    fn f(&self, k: Kern) -> compile::Func {
        self.0[k as usize]
    }
}

/// A kernel argument (each passed from an 8-byte slot; 4-byte ones are its
/// low half, as x86 and the GPU are little-endian).
#[derive(Clone, Copy)]
enum P {
    /// A device address (0: none).
    Ptr(u64),
    U32(u32),
    I32(i32),
}

/// Launch kernel `k` of `m` with `args` on `blocks` blocks of `threads`.
fn go(
    g: &Gpu,
    m: &Module,
    k: Kern,
    blocks: u64,
    threads: u32,
    shared: u32,
    args: &[P],
) -> Result<()> {
    let mut slots: Vec<u64> = args
        .iter()
        .map(|a| match *a {
            P::Ptr(p) => p,
            P::U32(v) => v as u64,
            P::I32(v) => v as u32 as u64,
        })
        .collect();
    let mut params: Vec<*mut c_void> = slots
        .iter_mut()
        .map(|s| s as *mut u64 as *mut c_void)
        .collect();
    let blocks = u32::try_from(blocks.max(1))
        .map_err(|_| Error::internal("sort: too many blocks for one launch"))?;
    super::ew::launch(
        g,
        m.f(k),
        (blocks, 1, 1),
        (threads, 1, 1),
        shared,
        &mut params,
        "a sorting kernel",
    )
}

/// Blocks of 256 threads for one thread per element of `n`.
fn blocks(n: usize) -> u64 {
    (n as u64).div_ceil(256)
}

fn gpu_of(a: &Array) -> Result<Arc<Gpu>> {
    match a.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda sort on a CPU array")),
    }
}

/// The device address of `a`'s first element (contiguous `a`).
fn ptr(a: &Array) -> Result<u64> {
    Ok(array_buffer(a)?.ptr_at(a.offset()))
}

/// The address of an optional array (0 when none).
fn ptr_or_null(a: Option<&Array>) -> Result<u64> {
    a.map_or(Ok(0), ptr)
}

/// A fresh 1-d GPU array of `n` elements of `dtype` (uninitialised).
fn buf(g: &Arc<Gpu>, dtype: DType, n: usize) -> Result<Array> {
    Ok(array_of(DeviceBuffer::alloc(g, dtype, n)?, vec![n]))
}

/// `n` as a 32-bit count, or the family's size limit on a GPU.
fn count32(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::value(format!(
            "{what} of {n} elements at once is more than a GPU sort handles (at most {})",
            u32::MAX
        ))
        .with_help("split the array, or move it to the CPU with .to(cpu())")
    })
}

/// The lane length of a lane job's `x` (its last dimension).
fn lane_len(x: &Array) -> Result<usize> {
    x.shape()
        .last()
        .copied()
        .ok_or_else(|| Error::internal("a lane job got a 0-d array"))
}

/// The key container dtype of `d` (its width: 4 or 8 bytes).
fn key_dtype(d: DType) -> DType {
    if gcalc_kernels::cuda::sort::key_bytes(d) == 8 {
        DType::Int64
    } else {
        DType::Int32
    }
}
