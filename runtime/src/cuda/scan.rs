//! Scans on a GPU (kernels in `kernels/src/cuda/scan.cu`): along the last
//! axis a warp per lane of up to `WARP_MAX` elements, longer lanes in one
//! pass (`sc_one`: each tile's carry the fixed-order combination of every
//! earlier tile's published total, deterministic) up to `SCAN_ONE_TILES`
//! tiles a lane, the longest lanes and the segmented sum by reduce-then-scan
//! (tile totals, one block per lane turning them into carries, every tile
//! scanned from its carry: three launches, fixed tiles, deterministic); a middle axis with a thread per lane when there are enough
//! lanes, else moved last by a copy, scanned, and moved back. Floats run in
//! float64, ints in int64, as on the CPU. Also cummax/cummin's gradient, a
//! segmented sum from the end of each lane with the same kernels.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::{Array, layout};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::ScanOp;
use gcalc_kernels::cuda::scan::{
    SCAN_ONE_TILES, SCAN_THREADS, SCAN_TILE, ScanKind, scan_acc_bytes, scan_source,
};
use std::ffi::c_void;
use std::sync::Arc;

/// Lanes up to this long take a warp each; longer ones the tile kernels.
const WARP_MAX: usize = 2048;
/// A middle axis with at least this many lanes takes a thread per lane.
const COLS_MIN: usize = 1 << 14;

fn functions(g: &Gpu, kind: ScanKind, d: DType, out: DType) -> Result<[compile::Func; 6]> {
    static LOADED: compile::Loaded<(ScanKind, DType, DType), 6> = compile::Loaded::new();
    LOADED.get_or_load(g, (kind, d, out), || {
        let key = format!("scan{kind:?}{d:?}{out:?}");
        compile::functions(g, &key, &ScanKind::KERNELS, || scan_source(kind, d, out))
    })
}

fn gpu_of(a: &Array) -> Result<Arc<Gpu>> {
    match a.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda scan on a CPU array")),
    }
}

/// `op` along `axis` of GPU array `a` (`reverse`: from the end back), in
/// `op`'s output dtype.
pub fn scan(op: ScanOp, a: &Array, axis: usize, reverse: bool) -> Result<Array> {
    if a.dtype().is_complex() {
        return Err(super::complex::refuse(op.name(), a.dtype()));
    }
    let kind = match op {
        ScanOp::Cumsum => ScanKind::Sum,
        ScanOp::Cumprod => ScanKind::Prod,
        ScanOp::Cummax => ScanKind::Max,
        ScanOp::Cummin => ScanKind::Min,
    };
    run(kind, [a, a, a], op.out_dtype(a.dtype()), axis, reverse)
}

/// The gradient of `y = cummax(x)` (or cummin) along `axis` for upstream `g`
/// (see `cpu::scan::extreme_backward`), in `x`'s dtype.
pub fn extreme_backward(x: &Array, y: &Array, g: &Array, axis: usize) -> Result<Array> {
    let d = x.dtype();
    let cast = |a: &Array| -> Result<Array> {
        if a.dtype() == d {
            Ok(a.clone())
        } else {
            super::ew::copy(a, d)
        }
    };
    let (y, g) = (cast(y)?, cast(g)?);
    run(ScanKind::SegSumRev, [&g, x, &y], d, axis, true)
}

/// Scan `ins[0]` (with `ins[1..]` as the kind's other inputs, all of one
/// shape and dtype) along `axis` into a new array of dtype `out_dt`.
fn run(
    kind: ScanKind,
    ins: [&Array; 3],
    out_dt: DType,
    axis: usize,
    reverse: bool,
) -> Result<Array> {
    let g = gpu_of(ins[0])?;
    let shape = ins[0].shape().to_vec();
    let n_all: usize = shape.iter().product();
    if n_all == 0 {
        return super::ew::zeros(&shape, out_dt, g.ordinal);
    }
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    if inner > 1 && outer * inner < COLS_MIN {
        // Few long lanes of a middle axis: scan them as rows, axis last.
        let last = |a: &Array| -> Result<Array> {
            let c = contiguous(a)?;
            let v = c.view(
                vec![outer, inner, n],
                vec![(n * inner) as isize, 1, inner as isize],
                c.offset(),
            );
            super::ew::copy(&v, v.dtype())
        };
        let moved = [last(ins[0])?, last(ins[1])?, last(ins[2])?];
        let r = run(kind, [&moved[0], &moved[1], &moved[2]], out_dt, 2, reverse)?;
        let back = r.view(
            vec![outer, n, inner],
            vec![(inner * n) as isize, 1, n as isize],
            r.offset(),
        );
        let back = super::ew::copy(&back, out_dt)?;
        return Ok(back.view(
            shape.clone(),
            layout::contiguous_strides(&shape),
            back.offset(),
        ));
    }
    let ins = [
        contiguous(ins[0])?,
        contiguous(ins[1])?,
        contiguous(ins[2])?,
    ];
    let fs = functions(&g, kind, ins[0].dtype(), out_dt)?;
    let out = DeviceBuffer::alloc(&g, out_dt, n_all)?;
    let mut p: [u64; 3] = [0; 3];
    for (k, a) in ins.iter().enumerate() {
        p[k] = array_buffer(a)?.ptr_at(a.offset());
    }
    let mut op_ = out.ptr_at(0);
    let mut rev: i32 = reverse as i32;
    let (mut o, mut nn, mut inn) = (outer as i64, n as i64, inner as i64);
    let [x0, x1, x2] = &mut p;
    let v = |v: &mut u64| v as *mut u64 as *mut c_void;
    let w = |v: &mut i64| v as *mut i64 as *mut c_void;
    let r = &mut rev as *mut i32 as *mut c_void;
    // Every kernel but the carries' starts with the three inputs.
    let mut params: Vec<*mut c_void> = vec![v(x0), v(x1), v(x2)];
    if inner > 1 {
        params.extend([v(&mut op_), w(&mut o), w(&mut nn), w(&mut inn), r]);
        let blocks = grid((outer * inner).div_ceil(256))?;
        launch(
            &g,
            fs[4],
            (blocks, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "a scan",
        )?;
    } else if n <= WARP_MAX {
        params.extend([v(&mut op_), w(&mut o), w(&mut nn), r]);
        let blocks = grid((outer * 32).div_ceil(256))?;
        launch(
            &g,
            fs[0],
            (blocks, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "a scan",
        )?;
    } else {
        let tiles = n.div_ceil(SCAN_TILE);
        let blocks = grid(outer * tiles)?;
        let words = scan_acc_bytes(kind) / 8;
        let block = (SCAN_THREADS, 1, 1);
        let mut t = tiles as i64;
        if tiles > 1 && words == 1 && tiles <= SCAN_ONE_TILES {
            // One pass: the tiles' totals, their flags and the block ticket,
            // zeroed together.
            let k = outer * tiles;
            let state = super::ew::zeros(&[k + k.div_ceil(2) + 1], DType::Float64, g.ordinal)?;
            let base = array_buffer(&state)?.ptr_at(0);
            let (mut pp, mut fl, mut ctr) = (
                base,
                base + 8 * k as u64,
                base + 8 * (k + k.div_ceil(2)) as u64,
            );
            params.extend([
                v(&mut pp),
                v(&mut fl),
                v(&mut ctr),
                v(&mut op_),
                w(&mut nn),
                w(&mut t),
                r,
            ]);
            launch(&g, fs[5], (blocks, 1, 1), block, 0, &mut params, "a scan")?;
            drop(state);
            return Ok(array_of(out, shape));
        }
        // Tile totals (then carries): one running value per tile.
        let partial = DeviceBuffer::alloc(&g, DType::Float64, (outer * tiles * words).max(1))?;
        let mut pp = partial.ptr_at(0);
        if tiles > 1 {
            let mut reduce_params = params.clone();
            reduce_params.extend([v(&mut pp), w(&mut nn), w(&mut t), r]);
            launch(
                &g,
                fs[1],
                (blocks, 1, 1),
                block,
                0,
                &mut reduce_params,
                "a scan",
            )?;
            let mut carry_params = vec![v(&mut pp), w(&mut t)];
            launch(
                &g,
                fs[2],
                (grid(outer)?, 1, 1),
                block,
                0,
                &mut carry_params,
                "a scan",
            )?;
        }
        params.extend([v(&mut pp), v(&mut op_), w(&mut nn), w(&mut t), r]);
        launch(&g, fs[3], (blocks, 1, 1), block, 0, &mut params, "a scan")?;
        drop(partial);
    }
    Ok(array_of(out, shape))
}

/// A contiguous array with the elements of `a` (itself when it is one).
fn contiguous(a: &Array) -> Result<Array> {
    if a.is_contiguous() {
        Ok(a.clone())
    } else {
        super::ew::copy(a, a.dtype())
    }
}

/// A grid size, or a clear error past CUDA's limit.
fn grid(blocks: usize) -> Result<u32> {
    u32::try_from(blocks.max(1))
        .ok()
        .filter(|&b| b < i32::MAX as u32)
        .ok_or_else(|| {
            Error::value(format!(
                "a scan of {blocks} blocks is too large for one launch"
            ))
        })
}
