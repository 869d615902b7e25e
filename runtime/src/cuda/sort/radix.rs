//! Sorting lanes on a GPU. A lane of up to 4096 elements (2048 for 8-byte
//! keys) is sorted by one block: its (key, position) pairs in shared memory,
//! a bitonic network (positions break ties: stable). Longer lanes go to the
//! LSD radix sort over the whole array: 8-bit digits of the key, then of the
//! lane number (position / lane length) when there are several lanes, so
//! each lane ends sorted in its place. Onesweep: the digit counts of every
//! pass from one read, then one kernel a pass (tiles of 2048 learn their
//! offsets by decoupled look-back over the tiles before them) that ranks
//! and scatters stably; past 2^30 keys, three kernels a pass.

use super::{
    Kern, Module, P, blocks, buf, count32, go, gpu_of, key_dtype, lane_len, ptr, ptr_or_null,
};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use gcalc_kernels::cuda::sort::{RADIX_THREADS, TILE, key_bytes, key_passes};

/// Elements from which an integer sort reads back which key bytes differ
/// (one sync, about 10 us) to skip the radix passes over the bytes all keys
/// share (about 30 us each at 2^20 elements on an H100).
const TRIM_MIN: usize = 1 << 20;

/// Sort every lane of contiguous GPU `x` (descending when `desc`) and keep
/// the first `keep` of each: values and/or positions (int64), shape (rows..., keep).
pub fn sort_lanes(
    x: &Array,
    desc: bool,
    values: bool,
    indices: bool,
    keep: usize,
) -> Result<Vec<Array>> {
    let g = gpu_of(x)?;
    let d = x.dtype();
    let m = Module::of(&g, d)?;
    let n = lane_len(x)?;
    let total = count32(x.size(), "sorting")?;
    let rows = x.size() / n.max(1);
    let mut shape = x.shape().to_vec();
    if let Some(last) = shape.last_mut() {
        *last = keep;
    }
    let vals = if values {
        Some(buf(&g, d, rows * keep)?)
    } else {
        None
    };
    let idx = if indices {
        Some(buf(&g, DType::Int64, rows * keep)?)
    } else {
        None
    };
    // Positions wanted: -0.0 and 0.0 tie (NumPy's stable order) and values
    // are gathered by position; else values come back from the keys.
    let canon = indices;
    let small = if key_bytes(d) == 8 { 2048 } else { 4096 };
    if n <= small {
        let p = n.next_power_of_two();
        let threads = (p / 2).clamp(32, 1024) as u32;
        let shared = (p * (key_bytes(d) + 4)) as u32;
        go(
            &g,
            &m,
            Kern::Small,
            (rows as u64).min(1 << 20),
            threads,
            shared,
            &[
                P::Ptr(ptr(x)?),
                P::U32(rows as u32),
                P::U32(n as u32),
                P::U32(p as u32),
                P::I32(desc as i32),
                P::I32(canon as i32),
                P::Ptr(ptr_or_null(vals.as_ref())?),
                P::Ptr(ptr_or_null(idx.as_ref())?),
                P::U32(keep as u32),
            ],
        )?;
    } else {
        let lane_passes = if rows > 1 {
            (usize::BITS - (rows - 1).leading_zeros()).div_ceil(8)
        } else {
            0
        };
        // Integer keys often share their high bytes (small ranges): learn
        // which with one sync when the passes saved outweigh it.
        let trim = matches!(d, DType::Int32 | DType::Int64) && x.size() >= TRIM_MIN;
        let with_pos = indices || rows > 1;
        let (keys, pos) = radix_sort(x, desc, canon, with_pos, n, lane_passes, trim)?;
        go(
            &g,
            &m,
            Kern::Finish,
            blocks(x.size()),
            256,
            0,
            &[
                P::Ptr(ptr(&keys)?),
                P::Ptr(ptr_or_null(pos.as_ref())?),
                P::U32(total),
                P::U32(n as u32),
                P::U32(keep as u32),
                P::I32(desc as i32),
                P::I32(canon as i32),
                P::Ptr(ptr(x)?),
                P::Ptr(ptr_or_null(vals.as_ref())?),
                P::Ptr(ptr_or_null(idx.as_ref())?),
            ],
        )?;
    }
    let shape_i: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let mut out = Vec::new();
    for a in [vals, idx].into_iter().flatten() {
        out.push(a.reshape(&shape_i)?);
    }
    Ok(out)
}

/// Below this many keys a pass's digit counts fit the onesweep kernel's
/// 30-bit status words; larger sorts take three kernels a pass.
const ONESWEEP_MAX: u32 = 1 << 30;

/// How a sort's passes learn each tile's offsets: the onesweep status words,
/// or the per-tile digit counts of the three-kernel pass.
enum Path {
    Onesweep(Array),
    ThreeKernel(Array),
}

/// The radix passes over `total` keys (and positions, when given) in
/// `keys[0]`: `key_passes` over the key's bytes, then `lane_passes` over the
/// lane number's. Gives which of the two buffers holds the result.
///
/// Onesweep (up to `ONESWEEP_MAX` keys): every pass's digit counts from one
/// read of the keys, then one kernel a pass whose tiles learn their offsets
/// by looking back over the tiles before them. Otherwise per pass a
/// histogram per tile, a scan per digit over the tiles, and the scatter.
#[allow(clippy::too_many_arguments)]
fn passes(
    g: &std::sync::Arc<crate::cuda::Gpu>,
    m: &Module,
    keys: &[Array; 2],
    pos: Option<&[Array; 2]>,
    total: u32,
    n: u32,
    key_passes: u32,
    lane_passes: u32,
) -> Result<usize> {
    let nb = (total as usize).div_ceil(TILE as usize);
    let npasses = (key_passes + lane_passes) as usize;
    let onesweep = match keys[0].device() {
        crate::device::Device::Gpu(dev) if total < ONESWEEP_MAX && npasses > 0 => Some(dev),
        _ => None,
    };
    let (path, totals) = if let Some(dev) = onesweep {
        // Every pass's status words (tile x digit), then one tile counter a pass.
        let status = crate::cuda::ew::zeros(&[npasses * (nb * 256 + 1)], DType::Int32, dev)?;
        let hist = crate::cuda::ew::zeros(&[npasses * 256], DType::Int32, dev)?;
        go(
            g,
            m,
            Kern::HistAll,
            (nb as u64).min(1024),
            RADIX_THREADS,
            0,
            &[
                P::Ptr(ptr(&keys[0])?),
                P::U32(total),
                P::I32(key_passes as i32),
                P::I32(npasses as i32),
                P::U32(n),
                P::Ptr(ptr(&hist)?),
            ],
        )?;
        (Path::Onesweep(status), hist)
    } else {
        let counts = buf(g, DType::Int32, 256 * nb)?;
        (Path::ThreeKernel(counts), buf(g, DType::Int32, 256)?)
    };
    let mut at = 0;
    for pass in 0..npasses {
        let (src_p, dst_p) = match pos {
            Some(p) => (ptr(&p[at])?, ptr(&p[1 - at])?),
            None => (0, 0),
        };
        let (counts_p, totals_p, status_p, counter_p) = match &path {
            Path::Onesweep(st) => {
                let words = ptr(st)?;
                (
                    0,
                    ptr(&totals)? + (pass * 256 * 4) as u64,
                    words + (pass * nb * 256 * 4) as u64,
                    words + ((npasses * nb * 256 + pass) * 4) as u64,
                )
            }
            Path::ThreeKernel(counts) => {
                go(
                    g,
                    m,
                    Kern::Hist,
                    nb as u64,
                    RADIX_THREADS,
                    0,
                    &[
                        P::Ptr(ptr(&keys[at])?),
                        P::Ptr(src_p),
                        P::U32(total),
                        P::I32(pass as i32),
                        P::I32(key_passes as i32),
                        P::U32(n),
                        P::Ptr(ptr(counts)?),
                    ],
                )?;
                go(
                    g,
                    m,
                    Kern::Scan,
                    256,
                    RADIX_THREADS,
                    0,
                    &[
                        P::Ptr(ptr(counts)?),
                        P::U32(nb as u32),
                        P::Ptr(ptr(&totals)?),
                    ],
                )?;
                (ptr(counts)?, ptr(&totals)?, 0, 0)
            }
        };
        go(
            g,
            m,
            Kern::Scatter,
            nb as u64,
            RADIX_THREADS,
            0,
            &[
                P::Ptr(ptr(&keys[at])?),
                P::Ptr(src_p),
                P::Ptr(ptr(&keys[1 - at])?),
                P::Ptr(dst_p),
                P::U32(total),
                P::I32(pass as i32),
                P::I32(key_passes as i32),
                P::U32(n),
                P::Ptr(counts_p),
                P::Ptr(totals_p),
                P::Ptr(status_p),
                P::Ptr(counter_p),
            ],
        )?;
        at = 1 - at;
    }
    Ok(at)
}

/// The keys of all of contiguous GPU `x` (`desc`, `canon` as the kernels
/// take them) and, when `with_pos`, their flat positions (u32), sorted by
/// the radix passes: the key's bytes, then `lane_passes` bytes of the lane
/// number (position / `n`) so that lanes of `n` stay in place. With `trim`
/// the keys kernel also ORs every key's difference from the first one,
/// read back (a sync) to skip the passes over the high bytes every key
/// shares: a stable pass over one digit value moves nothing.
pub(super) fn radix_sort(
    x: &Array,
    desc: bool,
    canon: bool,
    with_pos: bool,
    n: usize,
    lane_passes: u32,
    trim: bool,
) -> Result<(Array, Option<Array>)> {
    let g = gpu_of(x)?;
    let d = x.dtype();
    let m = Module::of(&g, d)?;
    let total = count32(x.size(), "sorting")?;
    let kd = key_dtype(d);
    let keys = [buf(&g, kd, x.size())?, buf(&g, kd, x.size())?];
    let pos = if with_pos {
        Some([
            buf(&g, DType::Int32, x.size())?,
            buf(&g, DType::Int32, x.size())?,
        ])
    } else {
        None
    };
    let diff = match (trim && x.size() > 0, x.device()) {
        (true, crate::device::Device::Gpu(dev)) => {
            Some(crate::cuda::ew::zeros(&[1], DType::Int64, dev)?)
        }
        _ => None,
    };
    go(
        &g,
        &m,
        Kern::Keys,
        blocks(x.size()),
        256,
        0,
        &[
            P::Ptr(ptr(x)?),
            P::U32(total),
            P::I32(desc as i32),
            P::I32(canon as i32),
            P::Ptr(ptr(&keys[0])?),
            P::Ptr(ptr_or_null(pos.as_ref().map(|p| &p[0]))?),
            P::Ptr(ptr_or_null(diff.as_ref())?),
        ],
    )?;
    let kpasses = match diff {
        Some(diff) => {
            let bits = diff.to_vec::<i64>()?.first().copied().unwrap_or(-1) as u64;
            (u64::BITS - bits.leading_zeros())
                .div_ceil(8)
                .min(key_passes(d))
        }
        None => key_passes(d),
    };
    let at = passes(
        &g,
        &m,
        &keys,
        pos.as_ref(),
        total,
        n.max(1) as u32,
        kpasses,
        lane_passes,
    )?;
    let [k0, k1] = keys;
    let pos = pos.map(|[p0, p1]| if at == 0 { p0 } else { p1 });
    Ok((if at == 0 { k0 } else { k1 }, pos))
}

/// The sorted keys (canonical: -0.0 = 0.0, one nan key) of all of `x`'s
/// elements, as a 1-d GPU array of the key container dtype.
pub(super) fn sorted_keys(x: &Array) -> Result<Array> {
    Ok(radix_sort(x, false, true, false, x.size(), 0, false)?.0)
}
