//! Order statistics on a GPU (radix select, `kernels/src/cuda/select.cu`):
//! for each lane along an axis, the elements of given ranks in NumPy's sort
//! order (NaN last), up to four ranks per sequence of launches. Many lanes:
//! a block per lane, every pass in one launch; few long lanes: per pass of 8
//! key bits, blocks add their histograms into global memory and a block per
//! lane picks the bucket (8 launches for 32-bit keys), no host round trip.
//! A middle axis is moved last by a copy first.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use gcalc_kernels::cuda::select::{
    SELECT_KERNELS, SELECT_RANKS, SELECT_STATE_BYTES, SELECT_THREADS, select_key_bits,
    select_source,
};
use std::ffi::c_void;

/// Lanes at least this many take a block each (else several blocks per lane).
const MANY_LANES: usize = 256;
/// Elements per block of the per-pass histogram kernel (about).
const PER_BLOCK: usize = 1 << 14;

fn functions(g: &Gpu, d: DType) -> Result<[compile::Func; 4]> {
    static LOADED: compile::Loaded<DType, 4> = compile::Loaded::new();
    LOADED.get_or_load(g, d, || {
        let key = format!("select{d:?}");
        compile::functions(g, &key, &SELECT_KERNELS, || select_source(d))
    })
}

fn ptr<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}

/// The elements of ranks `ranks` (each below the axis length) of every lane
/// of GPU array `a` along `axis`: shape `[ranks.len()] + a's shape without
/// axis`, a's dtype.
pub fn select(a: &Array, axis: usize, ranks: &[usize]) -> Result<Array> {
    let g = match a.device() {
        Device::Gpu(i) => gpu(i)?,
        Device::Cpu => return Err(Error::internal("cuda select on a CPU array")),
    };
    let d = a.dtype();
    let shape = a.shape();
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let lanes = outer * inner;
    let mut out_shape = vec![ranks.len()];
    out_shape.extend(shape[..axis].iter().chain(&shape[axis + 1..]));
    if lanes == 0 || ranks.is_empty() {
        return super::ew::zeros(&out_shape, d, g.ordinal);
    }
    if let Some(&r) = ranks.iter().find(|&&r| r >= n) {
        return Err(Error::internal(format!(
            "select: rank {r} of a lane of {n}"
        )));
    }
    // Lanes contiguous, one after another (a middle axis moved last).
    let c = if a.is_contiguous() {
        a.clone()
    } else {
        super::ew::copy(a, d)?
    };
    let x = if inner > 1 {
        let v = c.view(
            vec![outer, inner, n],
            vec![(n * inner) as isize, 1, inner as isize],
            c.offset(),
        );
        super::ew::copy(&v, d)?
    } else {
        c
    };
    let fs = functions(&g, d)?;
    let out = DeviceBuffer::alloc(&g, d, ranks.len() * lanes)?;
    let mut xp = array_buffer(&x)?.ptr_at(x.offset());
    let (mut nn, mut ln) = (n as i64, lanes as i64);
    let mut bits = select_key_bits(d);
    let block = (SELECT_THREADS, 1, 1);
    let many = lanes >= MANY_LANES;
    // Few lanes: the search states and the global histograms.
    let (state, hist) = if many {
        (None, None)
    } else {
        let st = DeviceBuffer::alloc(
            &g,
            DType::Int64,
            lanes * SELECT_RANKS * SELECT_STATE_BYTES / 8,
        )?;
        let h = super::ew::zeros(&[lanes * SELECT_RANKS * 256], DType::Int64, g.ordinal)?;
        (Some(st), Some(h))
    };
    for (gi, group) in ranks.chunks(SELECT_RANKS).enumerate() {
        let mut nr = group.len() as i32;
        let mut r: [i64; 4] = [0; 4];
        for (k, &v) in group.iter().enumerate() {
            r[k] = v as i64;
        }
        let [mut r0, mut r1, mut r2, mut r3] = r;
        let mut op_ = out.ptr_at(gi * SELECT_RANKS * lanes);
        if many {
            let mut params = vec![
                ptr(&mut xp),
                ptr(&mut nn),
                ptr(&mut nr),
                ptr(&mut r0),
                ptr(&mut r1),
                ptr(&mut r2),
                ptr(&mut r3),
                ptr(&mut bits),
                ptr(&mut ln),
                ptr(&mut op_),
            ];
            let grid = u32::try_from(lanes)
                .map_err(|_| Error::value("select: too many lanes for one launch"))?;
            launch(
                &g,
                fs[3],
                (grid, 1, 1),
                block,
                0,
                &mut params,
                "a selection",
            )?;
            continue;
        }
        let (Some(st), Some(h)) = (&state, &hist) else {
            return Err(Error::internal("select: no workspace"));
        };
        let mut sp = st.ptr_at(0);
        let mut hp = array_buffer(h)?.ptr_at(h.offset());
        let mut params = vec![
            ptr(&mut sp),
            ptr(&mut ln),
            ptr(&mut nr),
            ptr(&mut r0),
            ptr(&mut r1),
            ptr(&mut r2),
            ptr(&mut r3),
        ];
        let init_grid = (lanes * SELECT_RANKS).div_ceil(256) as u32;
        launch(
            &g,
            fs[0],
            (init_grid, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "a selection",
        )?;
        // Blocks per lane: enough to fill the device, about PER_BLOCK elements each.
        let target = (4 * g.sms as usize).div_ceil(lanes).max(1);
        let mut per_lane = n.div_ceil(PER_BLOCK).clamp(1, target) as i32;
        let hist_grid = (lanes * per_lane as usize) as u32;
        let mut shift = bits - 8;
        while shift >= 0 {
            let mut params = vec![
                ptr(&mut xp),
                ptr(&mut nn),
                ptr(&mut per_lane),
                ptr(&mut sp),
                ptr(&mut nr),
                ptr(&mut hp),
                ptr(&mut shift),
            ];
            launch(
                &g,
                fs[1],
                (hist_grid, 1, 1),
                block,
                0,
                &mut params,
                "a selection",
            )?;
            let mut params = vec![
                ptr(&mut hp),
                ptr(&mut sp),
                ptr(&mut nr),
                ptr(&mut shift),
                ptr(&mut ln),
                ptr(&mut op_),
            ];
            launch(
                &g,
                fs[2],
                (lanes as u32, 1, 1),
                block,
                0,
                &mut params,
                "a selection",
            )?;
            shift -= 8;
        }
    }
    drop((state, hist));
    Ok(array_of(out, out_shape))
}
