//! Indexing on a GPU (`kernels/src/cuda/index_sel.cuh`, `index.cu`): every
//! selection runs on the device from a `Select` passed by value — gathers
//! (`x[idx]`, `x[mask]`), stores (`x[idx] = v`: the bounds check first,
//! then for repeated positions the last element wins, as on the CPU, by a
//! per-position atomicMax of element numbers), stores into a strided view
//! (`x[1:3] = v`), the `ufunc.at` updates (`at.rs`, atomics) and a mask's
//! positions (`mask.rs`: the count is the one wait). Index arrays are read
//! by the kernels where they are: nothing goes to the host, and a value out
//! of bounds is reported at the next sync (`fault.rs`).

mod at;
pub mod fault;
mod mask;
mod params;

pub use at::{at, source as at_source};
pub use mask::nonzero;

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::select::{Select, span};
use crate::array::{Array, layout};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use cudarc::driver::result;
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
const KERNELS: [&str; 18] = [
    "store_view_1",
    "store_view_2",
    "store_view_4",
    "store_view_8",
    "store_view_16",
    "sel_gather_1",
    "sel_gather_2",
    "sel_gather_4",
    "sel_gather_8",
    "sel_gather_16",
    "sel_store_1",
    "sel_store_2",
    "sel_store_4",
    "sel_store_8",
    "sel_store_16",
    "sel_check",
    "sel_win",
    "sel_kept",
];

/// Kernel `kind` for elements of `d`'s size (`None`: a kernel of no size).
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

fn blocks(n: usize) -> (u32, u32, u32) {
    ((n.div_ceil(BLOCK as usize) as u32).max(1), 1, 1)
}

fn arg<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}

/// A selection's parameter block and the device's fault record, as
/// kernel arguments.
struct Launch {
    sel: params::GcSel,
    f: u64,
    h: u64,
}

impl Launch {
    fn new(g: &Gpu, sel: &Select) -> Result<Launch> {
        let (f, h) = fault::of(g)?.ptrs();
        Ok(Launch {
            sel: params::pack(sel)?,
            f,
            h,
        })
    }
}

/// Launch `kernel` over `n` elements with arguments: `lead` (pointers,
/// 8-byte values), the selection, `tail` (the winners and their start, for
/// the kernels that take them), the fault record.
fn run(
    g: &Gpu,
    kernel: compile::Func,
    n: usize,
    mut lead: Vec<u64>,
    l: &mut Launch,
    mut tail: Vec<u64>,
    what: &str,
) -> Result<()> {
    let mut params: Vec<*mut c_void> = lead.iter_mut().map(arg).collect();
    params.push(arg(&mut l.sel));
    params.extend(tail.iter_mut().map(arg));
    params.push(arg(&mut l.f));
    params.push(arg(&mut l.h));
    launch(g, kernel, blocks(n), (BLOCK, 1, 1), 0, &mut params, what)
}

/// Check every value of the index arrays (NumPy does before a write, when
/// the index block is not empty): a fault stops the writes that follow.
fn check(g: &Gpu, sel: &Select, l: &mut Launch) -> Result<()> {
    let nb = sel.block_size();
    if nb == 0 || !sel.may_repeat() {
        return Ok(());
    }
    let f = function(g, "sel_check", None)?;
    let mut params = vec![arg(&mut l.sel), arg(&mut l.f), arg(&mut l.h)];
    launch(
        g,
        f,
        blocks(nb),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "an index check",
    )
}

/// Per position of x's span, the highest element number (+1) a store
/// through `sel` writes there: (the buffer, the span's start).
fn winners(g: &Arc<Gpu>, x: &Array, l: &mut Launch) -> Result<(DeviceBuffer, i64)> {
    let n = l.sel.n as usize;
    if n >= u32::MAX as usize {
        return Err(Error::value(format!(
            "a GPU store through an index of {n} elements: at most {} are supported",
            u32::MAX - 1
        )));
    }
    let (lo, hi) = span(x.shape(), x.strides(), x.offset()).unwrap_or((0, 0));
    let len = hi - lo + 1;
    let win = DeviceBuffer::alloc(g, DType::Int32, len)?;
    g.before_launch();
    unsafe { result::memset_d8_async(win.ptr_at(0), 0, len * 4, g.stream) }
        .map_err(|e| g.err(e, "clearing an index's winners"))?;
    g.after_launch()?;
    let f = function(g, "sel_win", None)?;
    let mut pw = win.ptr_at(0);
    let mut lo = lo as i64;
    let mut params = vec![
        arg(&mut pw),
        arg(&mut lo),
        arg(&mut l.sel),
        arg(&mut l.f),
        arg(&mut l.h),
    ];
    launch(
        g,
        f,
        blocks(n),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "an indexed store",
    )?;
    Ok((win, lo))
}

/// A write through `sel` into `x` begins: its index values checked (a bad
/// one stops the write on the device); `None` when nothing is selected.
fn begin_write(x: &Array, sel: &Select) -> Result<Option<(Arc<Gpu>, Launch)>> {
    let g = gpu_of(x)?;
    let mut l = Launch::new(&g, sel)?;
    check(&g, sel, &mut l)?;
    Ok((sel.size() > 0).then_some((g, l)))
}

/// `x[sel]` as a new contiguous GPU array.
pub fn gather(x: &Array, sel: &Select) -> Result<Array> {
    let g = gpu_of(x)?;
    let n = sel.size();
    let out = DeviceBuffer::alloc(&g, x.dtype(), n)?;
    let mut l = Launch::new(&g, sel)?;
    if n == 0 {
        // Nothing to read, but NumPy still checks the index values.
        check(&g, sel, &mut l)?;
    } else {
        let f = function(&g, "sel_gather", Some(x.dtype()))?;
        let lead = vec![out.ptr_at(0), array_buffer(x)?.ptr_at(0)];
        run(&g, f, n, lead, &mut l, vec![], "a gather")?;
    }
    Ok(array_of(out, sel.shape.clone()))
}

/// `src` (already broadcast to the selection's shape, on `dst`'s GPU) as a
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

/// `x[sel] = src` on x's GPU: checked, then the last of repeated positions wins.
pub fn store(x: &Array, sel: &Select, src: &Array) -> Result<()> {
    let Some((g, mut l)) = begin_write(x, sel)? else {
        return Ok(());
    };
    let n = sel.size();
    let vals = values_for(x, src)?;
    let (win, lo) = match sel.may_repeat() {
        true => {
            let (w, lo) = winners(&g, x, &mut l)?;
            (Some(w), lo)
        }
        false => (None, 0),
    };
    let f = function(&g, "sel_store", Some(x.dtype()))?;
    let lead = vec![
        array_buffer(x)?.ptr_at(0),
        array_buffer(&vals)?.ptr_at(vals.offset()),
    ];
    let tail = vec![win.as_ref().map_or(0, |w| w.ptr_at(0)), lo as u64];
    run(&g, f, n, lead, &mut l, tail, "an indexed store")
}

/// For each selected element, whether a store through `sel` keeps it (bool).
pub fn kept(x: &Array, sel: &Select) -> Result<Array> {
    let g = gpu_of(x)?;
    let n = sel.size();
    let out = DeviceBuffer::alloc(&g, DType::Bool, n)?;
    if n > 0 {
        let mut l = Launch::new(&g, sel)?;
        let (win, lo) = winners(&g, x, &mut l)?;
        let f = function(&g, "sel_kept", None)?;
        let tail = vec![win.ptr_at(0), lo as u64];
        let what = "an index's kept elements";
        run(&g, f, n, vec![out.ptr_at(0)], &mut l, tail, what)?;
    }
    Ok(array_of(out, sel.shape.clone()))
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
        arg(&mut base),
        arg(&mut nn),
        arg(&mut ps),
        arg(&mut nd),
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
