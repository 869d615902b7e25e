//! Assembly loops on host arrays: the remap gather behind `pad roll tile
//! repeat take take_along_axis` (rows of the output in parallel, each
//! element read through one precomputed offset per axis coordinate), the
//! adjoint of an axis map (gradients: a fixed-order float64 sum per source
//! coordinate) and `put_along_axis`'s in-place writes (the last write to a
//! target in C order wins).

use crate::array::alloc::alloc_with;
use crate::array::{Array, Element};
use crate::error::{Error, Result};
use crate::opid::assemble::{AxisMap, FILL_AFTER, FILL_BEFORE, Remap, Segments};
use rayon::prelude::*;

/// Output rows handed to one rayon task (a row is the last axis).
const ROWS_PER_TASK: usize = 64;

/// An axis's offsets: the source offset of each output coordinate, or a
/// fill marker (`FILL_BEFORE`/`FILL_AFTER`, never an offset).
fn offsets(map: &AxisMap, len: usize, n: usize, stride: isize) -> Result<Vec<i64>> {
    let st = stride as i64;
    let scale = |c: i64| if is_fill(c) { c } else { c * st };
    Ok(match map {
        // Read per element instead (`Rows::per_elem`).
        AxisMap::PerElement(_) => vec![0; len],
        AxisMap::Indices { idx, mode } => idx
            .to_vec::<i64>()?
            .into_iter()
            .map(|c| mode.apply(c, n) * st)
            .collect(),
        m => (0..len)
            .map(|c| m.source(c, n).map(scale))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Error::internal("remap: an axis map without a source"))?,
    })
}

fn is_fill(o: i64) -> bool {
    o == FILL_BEFORE || o == FILL_AFTER
}

/// `out[c] = src[map_0(c_0), map_1(c_1), ...]` or the fill of the last axis
/// whose map gives one, as a new contiguous host array of `m.shape`.
pub fn remap(src: &Array, m: &Remap) -> Result<Array> {
    let nd = m.shape.len();
    if src.ndim() != nd || m.axes.len() != nd || m.fill.len() != nd {
        return Err(Error::internal("remap: the maps do not match the source"));
    }
    if nd == 0 {
        return super::copy::contiguous(src);
    }
    // The output first: its allocation checks the size, and the offsets
    // (one per output coordinate of each axis) are no larger.
    let out = crate::with_dtype!(src.dtype(), T => alloc_with::<T>(&m.shape, |_| T::default())?);
    let offs: Vec<Vec<i64>> = (0..nd)
        .map(|d| offsets(&m.axes[d], m.shape[d], src.shape()[d], src.strides()[d]))
        .collect::<Result<_>>()?;
    let per_elem = m.axes.iter().enumerate().find_map(|(d, a)| match a {
        AxisMap::PerElement(idx) => Some((d, idx)),
        _ => None,
    });
    let per_elem = match per_elem {
        Some((d, idx)) => Some((d, idx.to_vec::<i64>()?)),
        None => None,
    };
    let last = m.shape.last().copied().unwrap_or(1);
    let outer = &m.shape[..nd.saturating_sub(1)];
    crate::with_dtype!(src.dtype(), T => {
        let fills: Vec<[T; 2]> = m.fill.iter().map(|f| [f[0].to_elem::<T>(), f[1].to_elem::<T>()]).collect();
        {
            let data = src.host_read()?;
            let s = T::slice(&data).ok_or_else(|| Error::internal("dtype mismatch in remap"))?;
            let mut w = out.host_write()?;
            let o = T::slice_mut(&mut w).ok_or_else(|| Error::internal("dtype mismatch in remap"))?;
            let ctx = Rows { s, offs: &offs, fills: &fills, outer, last, base: src.offset() as i64,
                per_elem: per_elem.as_ref().map(|(d, v)| (v.as_slice(), src.shape()[*d], src.strides()[*d] as i64)) };
            if last > 0 {
                o.par_chunks_mut(last * ROWS_PER_TASK)
                    .enumerate()
                    .for_each(|(k, chunk)| ctx.fill_rows(k * ROWS_PER_TASK, chunk));
            }
        }
        Ok(out)
    })
}

/// What the rows of a remap read.
struct Rows<'a, T> {
    s: &'a [T],
    offs: &'a [Vec<i64>],
    fills: &'a [[T; 2]],
    outer: &'a [usize],
    last: usize,
    base: i64,
    /// A per-element axis: its index entries in output order, the source
    /// length and stride (its `offs` are zeros).
    per_elem: Option<(&'a [i64], usize, i64)>,
}

impl<T: Element> Rows<'_, T> {
    /// Output rows `r0..` into `chunk` (whole rows of `last` elements).
    fn fill_rows(&self, r0: usize, chunk: &mut [T]) {
        let nd = self.outer.len();
        let mut coord = vec![0usize; nd];
        let mut r = r0;
        for d in (0..nd).rev() {
            coord[d] = r % self.outer[d];
            r /= self.outer[d];
        }
        let lastd = nd;
        let side = |o: i64| usize::from(o == FILL_AFTER);
        for (k, row) in chunk.chunks_mut(self.last).enumerate() {
            let mut off = self.base;
            let mut fill: Option<T> = None;
            for (d, &c) in coord.iter().enumerate() {
                let o = self.offs[d][c];
                if is_fill(o) {
                    fill = Some(self.fills[d][side(o)]);
                } else {
                    off += o;
                }
            }
            let lo = &self.offs[lastd];
            let lf = &self.fills[lastd];
            match (fill, self.per_elem) {
                (_, Some((idx, n, st))) => {
                    let flat0 = (r0 + k) * self.last;
                    for (j, v) in row.iter_mut().enumerate() {
                        let t = idx[flat0 + j];
                        let t = if t < 0 { t + n as i64 } else { t };
                        *v = self.s[(off + lo[j] + t * st) as usize];
                    }
                }
                (Some(f), None) => {
                    for (j, v) in row.iter_mut().enumerate() {
                        *v = if is_fill(lo[j]) { lf[side(lo[j])] } else { f };
                    }
                }
                (None, None) => {
                    for (j, v) in row.iter_mut().enumerate() {
                        let o = lo[j];
                        *v = if is_fill(o) {
                            lf[side(o)]
                        } else {
                            self.s[(off + o) as usize]
                        };
                    }
                }
            }
            for d in (0..nd).rev() {
                coord[d] += 1;
                if coord[d] < self.outer[d] {
                    break;
                }
                coord[d] = 0;
            }
        }
    }
}

/// The adjoint of an axis map: `g` (float, any layout) of shape
/// `(.., m, ..)` with axis `axis` summed into `seg.n` coordinates, each the
/// sum of the members of its segment in order, in float64, rounded once to
/// `g`'s dtype.
pub fn axis_sum(g: &Array, axis: usize, seg: &Segments) -> Result<Array> {
    let shape = g.shape();
    let m = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out_shape = shape.to_vec();
    out_shape[axis] = seg.n;
    let gv = g.to_f64_vec()?;
    let out = alloc_with::<f64>(&out_shape, |_| 0.0)?;
    {
        let mut w = out.host_write()?;
        let o = f64::slice_mut(&mut w).ok_or_else(|| Error::internal("axis_sum buffer"))?;
        if inner > 0 && seg.n > 0 {
            o.par_chunks_mut(seg.n * inner)
                .enumerate()
                .for_each(|(b, lane)| {
                    for j in 0..seg.n {
                        let dst = &mut lane[j * inner..(j + 1) * inner];
                        for &i in &seg.members[seg.starts[j] as usize..seg.starts[j + 1] as usize] {
                            let src = &gv[(b * m + i as usize) * inner..][..inner];
                            for (d, s) in dst.iter_mut().zip(src) {
                                *d += s;
                            }
                        }
                    }
                });
        }
    }
    super::copy::cast(&out, g.dtype())
}

/// `put_along_axis`: for each position `p` of the index shape in C order,
/// `arr[coords of p with idx[p] on axis] = vals[p]`. `arr` is a host view
/// broadcast (stride 0) over the index shape on every other axis; `idx`
/// (int64, checked to lie in -n..n) and `vals` (arr's dtype) are contiguous
/// over the index shape.
pub fn put_along(arr: &Array, idx: &Array, vals: &Array, axis: usize) -> Result<()> {
    let shape = idx.shape().to_vec();
    let n_axis = arr.shape()[axis] as i64;
    let iv = idx.to_vec::<i64>()?;
    crate::with_dtype!(arr.dtype(), T => {
        let vv = vals.to_vec::<T>()?;
        let mut w = arr.host_write()?;
        let s = T::slice_mut(&mut w).ok_or_else(|| Error::internal("dtype mismatch in put_along_axis"))?;
        let mut coord = vec![0usize; shape.len()];
        for (&t, &v) in iv.iter().zip(&vv) {
            let mut off = arr.offset() as i64;
            for (d, &c) in coord.iter().enumerate() {
                let k = if d == axis { if t < 0 { t + n_axis } else { t } } else { c as i64 };
                off += k * arr.strides()[d] as i64;
            }
            s[off as usize] = v;
            for d in (0..shape.len()).rev() {
                coord[d] += 1;
                if coord[d] < shape[d] {
                    break;
                }
                coord[d] = 0;
            }
        }
    });
    Ok(())
}
