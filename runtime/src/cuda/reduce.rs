//! Reductions on a GPU: the whole array in one launch (vectorised grid-stride
//! loads, warp shuffles, a shared-memory block reduce, about two blocks per
//! SM, the last block to finish combining the partials: deterministic), and
//! along one axis (a warp per output for the last axis, a thread per output
//! otherwise). Several axes reduce one after another.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::gpu;
use super::ew::launch;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::ReduceOp;
use gcalc_kernels::cuda::{RedOp, reduce_acc, reduce_source};
use std::ffi::c_void;

const THREADS: u32 = 512;

/// The three reduction kernels of (op, input dtype, output dtype) on `g`,
/// remembered per device in a short list (a reduction in a training loop
/// should not format and hash a module key on every call).
fn functions(
    g: &super::driver::Gpu,
    op: RedOp,
    d: DType,
    out: DType,
) -> Result<[compile::Func; 3]> {
    static LOADED: compile::Loaded<(RedOp, DType, DType), 3> = compile::Loaded::new();
    LOADED.get_or_load(g, (op, d, out), || {
        let key = format!("red{op:?}{d:?}{out:?}");
        compile::functions(g, &key, &["red_all", "red_rows", "red_cols"], || {
            reduce_source(op, d, out)
        })
    })
}

/// The dtype a reduction gives by default: sums and products of ints and
/// bools are int64, of floats the float type; max/min keep the dtype.
pub fn default_out(op: RedOp, d: DType) -> DType {
    match (op, d) {
        (RedOp::Sum | RedOp::Prod, d) if !d.is_float() => DType::Int64,
        (_, d) => d,
    }
}

/// Reduce `x` over `axes` (all when None) into dtype `out`; `keepdims` keeps
/// reduced axes as 1. Several axes reduce one after another (in the accumulator type).
pub fn reduce(
    x: &Array,
    op: RedOp,
    axes: Option<&[usize]>,
    keepdims: bool,
    out: DType,
) -> Result<Array> {
    let nd = x.ndim();
    let mut axes: Vec<usize> = axes
        .map(|a| a.to_vec())
        .unwrap_or_else(|| (0..nd).collect());
    axes.sort_unstable();
    axes.dedup();
    if let Some(&bad) = axes.iter().find(|&&a| a >= nd) {
        return Err(Error::value(format!(
            "axis {bad} is out of range for an array of {nd} dimensions"
        )));
    }
    let mut r = if axes.len() == nd {
        reduce_all(x, op, out)?
    } else {
        let mut cur = x.clone();
        // Highest axis first so lower axis numbers stay valid.
        for (k, &a) in axes.iter().rev().enumerate() {
            let last = k + 1 == axes.len();
            let to = if last {
                out
            } else {
                reduce_acc(op, cur.dtype())
            };
            cur = reduce_axis(&cur, op, a, to)?;
        }
        cur
    };
    if keepdims {
        let shape: Vec<usize> = (0..nd)
            .map(|d| if axes.contains(&d) { 1 } else { x.shape()[d] })
            .collect();
        r = r.view(
            shape.clone(),
            crate::array::layout::contiguous_strides(&shape),
            r.offset(),
        );
    }
    Ok(r)
}

fn gpu_of(x: &Array) -> Result<std::sync::Arc<super::driver::Gpu>> {
    match x.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda reduce on a CPU array")),
    }
}

/// The whole array to a 0-d array of dtype `out`.
pub fn reduce_all(x: &Array, op: RedOp, out_dt: DType) -> Result<Array> {
    reduce_all_div(x, op, out_dt, 1.0)
}

/// The per-device reduction workspace: `MAX_BLOCKS` 8-byte partials, then the
/// ticket. Zeroed once; the last block of every reduction resets the ticket,
/// and every reduction of a device is queued on its one stream, so one
/// workspace serves them all (no allocation or memset per reduction).
pub(super) fn workspace(g: &super::driver::Gpu) -> Result<(u64, u32)> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static WS: Mutex<Option<HashMap<u32, (u64, u32)>>> = Mutex::new(None);
    let mut ws = WS
        .lock()
        .map_err(|_| Error::internal("reduction workspace lock"))?;
    let map = ws.get_or_insert_with(HashMap::new);
    if let Some(&w) = map.get(&g.ordinal) {
        return Ok(w);
    }
    let blocks = (2 * g.sms).max(1);
    let bytes = (blocks as usize + 1) * 8;
    g.bind()?;
    let p = unsafe { cudarc::driver::result::malloc_sync(bytes) }
        .map_err(|e| g.err(e, "allocating the reduction workspace"))?;
    unsafe { cudarc::driver::result::memset_d8_sync(p, 0, bytes) }
        .map_err(|e| g.err(e, "preparing the reduction workspace"))?;
    map.insert(g.ordinal, (p, blocks));
    Ok((p, blocks))
}

/// The whole array to a 0-d array of dtype `out`, the result divided by `div`
/// in the same launch (`mean`; 1.0 for none).
pub fn reduce_all_div(x: &Array, op: RedOp, out_dt: DType, div: f64) -> Result<Array> {
    let g = gpu_of(x)?;
    // The kernel's 16-byte vector loads need a 16-byte aligned start (a
    // contiguous slice such as x[1:] is copied).
    let aligned = (x.offset() * x.dtype().size()).is_multiple_of(16);
    let x = if x.is_contiguous() && aligned {
        x.clone()
    } else {
        super::ew::copy(x, x.dtype())?
    };
    if x.size() == 0 {
        let v = if op == RedOp::Prod { 1.0 } else { 0.0 };
        return super::ew::full(&[], v / div, out_dt, g.ordinal);
    }
    let fs = functions(&g, op, x.dtype(), out_dt)?;
    let (ws, max_blocks) = workspace(&g)?;
    // Enough blocks for ~8 elements a thread, at most two per SM: the grid
    // depends only on the size and the device, so the sum order is fixed.
    let blocks = (x.size().div_ceil(THREADS as usize * 8) as u32).clamp(1, max_blocks);
    let out = DeviceBuffer::alloc(&g, out_dt, 1)?;
    let src = array_buffer(&x)?;
    let mut xp = src.ptr_at(x.offset());
    let mut n = x.size() as i64;
    let mut partial = ws;
    let mut tk = ws + max_blocks as u64 * 8;
    let mut op_ = out.ptr_at(0);
    let mut dv = div;
    let mut params: Vec<*mut c_void> = vec![
        &mut xp as *mut u64 as *mut c_void,
        &mut n as *mut i64 as *mut c_void,
        &mut partial as *mut u64 as *mut c_void,
        &mut tk as *mut u64 as *mut c_void,
        &mut op_ as *mut u64 as *mut c_void,
        &mut dv as *mut f64 as *mut c_void,
    ];
    launch(
        &g,
        fs[0],
        (blocks, 1, 1),
        (THREADS, 1, 1),
        0,
        &mut params,
        "a reduction",
    )?;
    Ok(array_of(out, vec![]))
}

/// Reduce one axis of `x` into dtype `out_dt`.
pub fn reduce_axis(x: &Array, op: RedOp, axis: usize, out_dt: DType) -> Result<Array> {
    let g = gpu_of(x)?;
    let x = if x.is_contiguous() {
        x.clone()
    } else {
        super::ew::copy(x, x.dtype())?
    };
    let shape = x.shape();
    let outer: usize = shape[..axis].iter().product();
    let r = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out_shape = shape.to_vec();
    out_shape.remove(axis);
    if outer * inner == 0 || r == 0 {
        let v = if op == RedOp::Prod { 1.0 } else { 0.0 };
        return super::ew::full(&out_shape, v, out_dt, g.ordinal);
    }
    let out = DeviceBuffer::alloc(&g, out_dt, outer * inner)?;
    let fs = functions(&g, op, x.dtype(), out_dt)?;
    let xp = array_buffer(&x)?.ptr_at(x.offset());
    launch_axis(
        &g,
        [fs[1], fs[2]],
        xp,
        (outer, r, inner),
        out.ptr_at(0),
        "a reduction",
    )?;
    Ok(array_of(out, out_shape))
}

/// Launch an axis kernel over contiguous `x` seen as (outer, r, inner):
/// `rows` (a warp per output, `(x, outer, r, out)`) when inner is 1, else
/// `cols` (a thread per output, `(x, outer, r, inner, out)`).
pub(super) fn launch_axis(
    g: &super::driver::Gpu,
    [rows, cols]: [compile::Func; 2],
    x: u64,
    (outer, r, inner): (usize, usize, usize),
    out: u64,
    what: &str,
) -> Result<()> {
    let (mut xp, mut op_) = (x, out);
    let (mut o, mut rr, mut inn) = (outer as i64, r as i64, inner as i64);
    let mut params: Vec<*mut c_void> = vec![
        &mut xp as *mut u64 as *mut c_void,
        &mut o as *mut i64 as *mut c_void,
        &mut rr as *mut i64 as *mut c_void,
    ];
    let (f, threads) = if inner == 1 {
        (rows, outer * 32)
    } else {
        params.push(&mut inn as *mut i64 as *mut c_void);
        (cols, outer * inner)
    };
    params.push(&mut op_ as *mut u64 as *mut c_void);
    let blocks = threads.div_ceil(256) as u32;
    launch(g, f, (blocks, 1, 1), (256, 1, 1), 0, &mut params, what)
}

/// Reduction `op` of a GPU array over the axes marked in `red`, all on the
/// device with the CPU path's dtypes and conventions: sum/prod/max/min here,
/// mean = sum / n, std/var/any/all in `stats`, argmax/argmin in `argreduce`.
/// Empty max/min/argmax/argmin lanes are refused by the caller.
pub fn reduce_op(
    op: ReduceOp,
    a: &Array,
    red: &[bool],
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    if a.dtype().is_complex() {
        return Err(super::complex::refuse(op.name(), a.dtype()));
    }
    let axes: Vec<usize> = (0..red.len()).filter(|&d| red[d]).collect();
    let d = a.dtype();
    let op = op.without_nan_if(!d.is_float());
    let rop = match op {
        ReduceOp::Sum | ReduceOp::Mean => RedOp::Sum,
        ReduceOp::Prod => RedOp::Prod,
        ReduceOp::Max => RedOp::Max,
        ReduceOp::Min => RedOp::Min,
        ReduceOp::Std | ReduceOp::Var => {
            let std = op == ReduceOp::Std;
            return super::stats::var_std(a, std, &axes, keepdims, ddof, float_x);
        }
        ReduceOp::Any | ReduceOp::All => {
            return super::stats::any_all(a, op == ReduceOp::Any, &axes, keepdims);
        }
        ReduceOp::Nansum
        | ReduceOp::Nanmean
        | ReduceOp::Nanmax
        | ReduceOp::Nanmin
        | ReduceOp::Nanstd
        | ReduceOp::Nanvar
        | ReduceOp::Nanargmax
        | ReduceOp::Nanargmin
        | ReduceOp::Ptp
        | ReduceOp::CountNonzero => {
            return super::nanreduce::reduce_nan(op, a, red, keepdims, ddof, float_x);
        }
        ReduceOp::Argmax | ReduceOp::Argmin => {
            // All axes: the flat index (argmax/argmin take one axis or none).
            if axes.is_empty() && a.ndim() > 0 {
                // axis=(): every element is its own lane.
                return super::ew::zeros(a.shape(), DType::Int64, gpu_of(a)?.ordinal);
            }
            let axis = (axes.len() < a.ndim())
                .then(|| axes.first().copied())
                .flatten();
            let max = op == ReduceOp::Argmax;
            return super::argreduce::argreduce(a, max, axis, keepdims);
        }
    };
    if op == ReduceOp::Mean && d.is_float() && axes.len() == a.ndim() {
        // The whole array: the division happens in the reduction's last block.
        let r = reduce_all_div(a, rop, d, a.size() as f64)?;
        if !keepdims {
            return Ok(r);
        }
        let shape = vec![1; a.ndim()];
        let strides = crate::array::layout::contiguous_strides(&shape);
        return Ok(r.view(shape, strides, 0));
    }
    if op == ReduceOp::Mean {
        let m: usize = axes.iter().map(|&x| a.shape()[x]).product();
        let out = if d.is_float() { d } else { float_x };
        let acc = if d.is_float() {
            DType::Float64
        } else {
            DType::Int64
        };
        let s = reduce(a, rop, Some(&axes), keepdims, acc)?;
        let e = super::ew::Expr::Op {
            template: super::stats::DIVIDE.into(),
            compute: DType::Float64,
            result: DType::Float64,
            args: vec![
                super::ew::Expr::Array(s),
                super::ew::Expr::Float(m as f64, DType::Float64),
            ],
        };
        return super::ew::eval(&e, out, None, None);
    }
    reduce(a, rop, Some(&axes), keepdims, default_out(rop, d))
}
