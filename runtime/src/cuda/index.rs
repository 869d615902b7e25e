//! Indexing kernels on a GPU (`kernels/src/cuda/index.cu`): gathers
//! (`x[idx]`, `x[mask]`) by element offsets, stores into a strided view
//! (`x[1:3] = v`) or at offsets (`x[idx] = v`, last write wins for repeated
//! indices, as on the CPU), and the gradient of a gather (repeated indices
//! add up in index order: a segmented sum, deterministic, no atomics). The
//! offsets are worked out on the host from the index values (a mask's count
//! decides the result's shape, so those come down; the data never does).

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::{Array, layout};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use std::ffi::c_void;
use std::sync::Arc;

const BLOCK: u32 = 256;
/// Most dimensions of a store's destination view after merging (`GcView`).
const VIEW_DIMS: usize = 8;

fn gpu_of(a: &Array) -> Result<Arc<Gpu>> {
    match a.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda index on a CPU array")),
    }
}

/// Every kernel of `index.cu` (one module, loaded once per device).
const KERNELS: [&str; 13] = [
    "gather_1",
    "gather_2",
    "gather_4",
    "gather_8",
    "scatter_1",
    "scatter_2",
    "scatter_4",
    "scatter_8",
    "store_view_1",
    "store_view_2",
    "store_view_4",
    "store_view_8",
    "scatter_add_f64",
];

/// Kernel `kind` (gather, scatter, store_view) for elements of `d`'s size, or scatter_add_f64.
fn function(g: &Gpu, kind: &str, d: Option<DType>) -> Result<compile::Func> {
    let name = match d {
        Some(d) => format!("{kind}_{}", d.size()),
        None => kind.to_string(),
    };
    let k = KERNELS
        .iter()
        .position(|&n| n == name)
        .ok_or_else(|| Error::internal(format!("no index kernel {name}")))?;
    static LOADED: compile::Loaded<(), { KERNELS.len() }> = compile::Loaded::new();
    let fs = LOADED.get_or_load(g, (), || {
        compile::functions(g, "index", &KERNELS, || {
            gcalc_kernels::cuda::INDEX.to_string()
        })
    })?;
    Ok(fs[k])
}

/// Host `i64` values as a GPU array on `g` (kept alive by the caller until launched).
fn upload_i64(v: Vec<i64>, g: &Gpu) -> Result<Array> {
    let n = v.len();
    super::buffer::upload(&Array::from_vec(v, vec![n]), g.ordinal)
}

fn blocks(n: usize) -> (u32, u32, u32) {
    ((n.div_ceil(BLOCK as usize) as u32).max(1), 1, 1)
}

/// `out[i] = x's buffer[offsets[i]]` as a new contiguous GPU array of `shape`.
pub fn gather(x: &Array, offsets: &[usize], shape: Vec<usize>) -> Result<Array> {
    let g = gpu_of(x)?;
    let n = offsets.len();
    let out = DeviceBuffer::alloc(&g, x.dtype(), n)?;
    if n > 0 {
        let offs = upload_i64(offsets.iter().map(|&o| o as i64).collect(), &g)?;
        let f = function(&g, "gather", Some(x.dtype()))?;
        let mut op_ = out.ptr_at(0);
        let mut nn = n as i64;
        let mut base = array_buffer(x)?.ptr_at(0);
        let mut po = array_buffer(&offs)?.ptr_at(0);
        let mut params: Vec<*mut c_void> = vec![
            &mut op_ as *mut u64 as *mut c_void,
            &mut nn as *mut i64 as *mut c_void,
            &mut base as *mut u64 as *mut c_void,
            &mut po as *mut u64 as *mut c_void,
        ];
        launch(&g, f, blocks(n), (BLOCK, 1, 1), 0, &mut params, "a gather")?;
    }
    Ok(array_of(out, shape))
}

/// `src` (any device, already broadcast to the selection's shape) as a
/// contiguous GPU array of `dst`'s dtype: read completely before any write,
/// so `x[1:] = x[:-1]` sees the old values.
fn values_for(dst: &Array, src: &Array) -> Result<Array> {
    if src.device() != dst.device() {
        return Err(Error::internal(
            "cuda index store: the values are on another device",
        ));
    }
    super::ew::copy(src, dst.dtype())
}

/// `view[...] = src`: `view` is a strided view of a GPU buffer, `src` the
/// values broadcast to its shape (on the same GPU).
pub fn store_view(view: &Array, src: &Array) -> Result<()> {
    let g = gpu_of(view)?;
    let n = view.size();
    if n == 0 {
        return Ok(());
    }
    let vals = values_for(view, src)?;
    let (mshape, mst) = layout::merge_dims(view.shape(), &[view.strides()]);
    if mshape.len() > VIEW_DIMS {
        return Err(Error::value(format!(
            "assigning into a view of more than {VIEW_DIMS} non-mergeable dimensions is not supported on the GPU"
        ))
        .with_help("assign through a reshaped or contiguous array"));
    }
    // GcView by value: shape[8], then strides[8].
    let mut st = [0i64; 2 * VIEW_DIMS];
    for (d, (&s, &t)) in mshape.iter().zip(&mst[0]).enumerate() {
        st[d] = s as i64;
        st[VIEW_DIMS + d] = t as i64;
    }
    let f = function(&g, "store_view", Some(view.dtype()))?;
    let mut base = array_buffer(view)?.ptr_at(view.offset());
    let mut nn = n as i64;
    let mut ps = array_buffer(&vals)?.ptr_at(vals.offset());
    let mut nd = mshape.len() as i32;
    let mut params: Vec<*mut c_void> = vec![
        &mut base as *mut u64 as *mut c_void,
        &mut nn as *mut i64 as *mut c_void,
        &mut ps as *mut u64 as *mut c_void,
        &mut nd as *mut i32 as *mut c_void,
        st.as_mut_ptr() as *mut c_void,
    ];
    launch(
        &g,
        f,
        blocks(n),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "a slice assignment",
    )
}

/// `arrays` (on GPU `dev`) joined along axis `ax` into a new array of
/// `shape` and `dtype`: each part stored into its slice of the output.
pub fn concat(
    arrays: &[Array],
    ax: usize,
    shape: &[usize],
    dtype: DType,
    dev: u32,
) -> Result<Array> {
    let out = super::ew::zeros(shape, dtype, dev)?;
    let mut off = 0;
    for a in arrays {
        let mut vshape = shape.to_vec();
        vshape[ax] = a.shape()[ax];
        let at = off * out.strides()[ax] as usize;
        let view = out.view(vshape, out.strides().to_vec(), at);
        store_view(&view, a)?;
        off += a.shape()[ax];
    }
    Ok(out)
}

/// Positions `0..n` grouped by target: (distinct targets in increasing
/// order, group starts with a final end, positions in index order per group).
fn group(offsets: &[i64]) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let mut from: Vec<i64> = (0..offsets.len() as i64).collect();
    from.sort_by_key(|&j| offsets[j as usize]); // stable: index order within a target
    let (mut tgt, mut start) = (Vec::new(), Vec::new());
    for (k, &j) in from.iter().enumerate() {
        let o = offsets[j as usize];
        if tgt.last() != Some(&o) {
            tgt.push(o);
            start.push(k as i64);
        }
    }
    start.push(from.len() as i64);
    (tgt, start, from)
}

/// `x's buffer[offsets[i]] = src[i]` (`src` broadcast to the selection's
/// shape, on `x`'s GPU); with repeated offsets the last value wins.
pub fn store_offsets(x: &Array, offsets: &[usize], src: &Array) -> Result<()> {
    let g = gpu_of(x)?;
    if offsets.is_empty() {
        return Ok(());
    }
    let vals = values_for(x, src)?;
    let offs: Vec<i64> = offsets.iter().map(|&o| o as i64).collect();
    let (tgt, start, from) = group(&offs);
    let last: Vec<i64> = start[1..].iter().map(|&e| from[e as usize - 1]).collect();
    let u = tgt.len();
    let (tgt, last) = (upload_i64(tgt, &g)?, upload_i64(last, &g)?);
    let f = function(&g, "scatter", Some(x.dtype()))?;
    let mut base = array_buffer(x)?.ptr_at(0);
    let mut nn = u as i64;
    let mut ps = array_buffer(&vals)?.ptr_at(vals.offset());
    let mut pt = array_buffer(&tgt)?.ptr_at(0);
    let mut pf = array_buffer(&last)?.ptr_at(0);
    let mut params: Vec<*mut c_void> = vec![
        &mut base as *mut u64 as *mut c_void,
        &mut nn as *mut i64 as *mut c_void,
        &mut ps as *mut u64 as *mut c_void,
        &mut pt as *mut u64 as *mut c_void,
        &mut pf as *mut u64 as *mut c_void,
    ];
    launch(
        &g,
        f,
        blocks(u),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "an indexed assignment",
    )
}

/// The gradient of a gather: zeros of `shape` with `g[i]` added at flat
/// position `offsets[i]` (repeated positions add up in index order, in
/// float64 as on the CPU), then cast to `dtype`; on `g`'s GPU.
pub fn scatter_add(g: &Array, offsets: &[i64], shape: &[usize], dtype: DType) -> Result<Array> {
    let gp = gpu_of(g)?;
    let size: usize = shape.iter().product();
    let out = super::ew::zeros(shape, DType::Float64, gp.ordinal)?;
    if !offsets.is_empty() {
        if offsets.len() != g.size() {
            return Err(Error::internal(
                "scatter_add: gradient and offsets differ in size",
            ));
        }
        if offsets.iter().any(|&o| o < 0 || o as usize >= size) {
            return Err(Error::internal("scatter_add: an offset is out of range"));
        }
        let gv = super::ew::copy(g, DType::Float64)?;
        let (tgt, start, from) = group(offsets);
        let u = tgt.len();
        let (tgt, start, from) = (
            upload_i64(tgt, &gp)?,
            upload_i64(start, &gp)?,
            upload_i64(from, &gp)?,
        );
        let f = function(&gp, "scatter_add_f64", None)?;
        let mut po = array_buffer(&out)?.ptr_at(0);
        let mut nu = u as i64;
        let mut pt = array_buffer(&tgt)?.ptr_at(0);
        let mut pst = array_buffer(&start)?.ptr_at(0);
        let mut pf = array_buffer(&from)?.ptr_at(0);
        let mut pg = array_buffer(&gv)?.ptr_at(0);
        let mut params: Vec<*mut c_void> = vec![
            &mut po as *mut u64 as *mut c_void,
            &mut nu as *mut i64 as *mut c_void,
            &mut pt as *mut u64 as *mut c_void,
            &mut pst as *mut u64 as *mut c_void,
            &mut pf as *mut u64 as *mut c_void,
            &mut pg as *mut u64 as *mut c_void,
        ];
        launch(
            &gp,
            f,
            blocks(u),
            (BLOCK, 1, 1),
            0,
            &mut params,
            "an index gradient",
        )?;
    }
    if dtype == DType::Float64 {
        Ok(out)
    } else {
        super::ew::copy(&out, dtype)
    }
}
