//! Histograms on the CPU: bincount, histogram (uniform bins by NumPy's
//! formula corrected against the edges, other edges by binary search) and
//! digitize, with the same bin rules as `kernels/src/cuda/histogram.cu`.
//! Fixed chunks of the input count into their own bins on rayon, then the
//! chunks' bins are added in order: results depend on sizes, not threads.

use crate::array::{Array, Element, alloc};
use crate::error::{Error, Result};
use crate::opid::BinMode;
use rayon::prelude::*;

const CHUNK: usize = 1 << 16;

/// How many of increasing `e` come before `v` in NumPy's sort order (NaN
/// last): those <= v (`left` false, searchsorted side='right') or < v.
fn bound(e: &[f64], v: f64, left: bool) -> usize {
    if left {
        e.partition_point(|&x| {
            if v.is_nan() {
                !x.is_nan()
            } else {
                !x.is_nan() && x < v
            }
        })
    } else {
        e.partition_point(|&x| v.is_nan() || (!x.is_nan() && x <= v))
    }
}

/// The bin of `v` among the bins of edges `e` (the last one closed).
#[inline]
fn bin(e: &[f64], v: f64, uniform: bool) -> Option<usize> {
    let nb = e.len() - 1;
    let (first, last) = (e[0], e[nb]);
    if !(v >= first && v <= last) {
        return None;
    }
    if !uniform {
        return Some((bound(e, v, false) - 1).min(nb - 1));
    }
    let mut k = (((v - first) / (last - first)) * nb as f64) as usize;
    k = k.min(nb - 1);
    if v < e[k] {
        k = k.saturating_sub(1);
    } else if k != nb - 1 && v >= e[k + 1] {
        k += 1;
    }
    Some(k)
}

fn floats(a: &Array) -> Result<Vec<f64>> {
    a.to_f64_vec()
}

/// Counts (int64, `w` None) or sums of `w` (float64) of the elements of `x`
/// per bin: `nb` bins by `mode` (`edges`: nb + 1 increasing float64 edges
/// for Uniform and Edges).
pub fn histogram(
    x: &Array,
    w: Option<&Array>,
    edges: Option<&Array>,
    nb: usize,
    mode: BinMode,
) -> Result<Array> {
    let e = match edges {
        Some(e) => floats(e)?,
        None => vec![],
    };
    if mode != BinMode::Index && e.len() != nb + 1 {
        return Err(Error::internal("histogram: edges and bins disagree"));
    }
    let x = x.contiguous()?;
    let w = w.map(|w| w.contiguous()).transpose()?;
    let wd = match &w {
        Some(w) => Some(w.host_read()?),
        None => None,
    };
    let wv: Option<&[f64]> = match &wd {
        Some(d) => Some(f64::slice(d).ok_or_else(|| Error::internal("histogram: weights"))?),
        None => None,
    };
    let data = x.host_read()?;
    let parts: Vec<Vec<f64>> = crate::with_dtype!(x.dtype(), S => {
        let xs = S::slice(&data).ok_or_else(|| Error::internal("histogram: dtype"))?;
        // Chunks of at least 4 elements per bin: the chunks' bins take at
        // most twice x's bytes.
        let chunk = CHUNK.max(nb.saturating_mul(4));
        xs.par_chunks(chunk)
            .enumerate()
            .map(|(c, xs)| -> Result<Vec<f64>> {
                let mut h = alloc::reserve::<f64>(&[nb])?;
                h.resize(nb, 0.0);
                for (j, &v) in xs.iter().enumerate() {
                    let k = match mode {
                        BinMode::Index => Some(v.to_i64() as usize).filter(|&k| k < nb),
                        BinMode::Uniform => bin(&e, v.to_f64(), true),
                        BinMode::Edges => bin(&e, v.to_f64(), false),
                    };
                    if let Some(k) = k {
                        h[k] += wv.map_or(1.0, |w| w[c * chunk + j]);
                    }
                }
                Ok(h)
            })
            .collect::<Result<_>>()
    })?;
    let mut total = alloc::reserve::<f64>(&[nb])?;
    total.resize(nb, 0.0);
    for p in &parts {
        for (t, v) in total.iter_mut().zip(p) {
            *t += v;
        }
    }
    if w.is_some() {
        Ok(Array::from_vec(total, vec![nb]))
    } else {
        let mut v = alloc::reserve::<i64>(&[nb])?;
        v.extend(total.iter().map(|&c| c as i64));
        Ok(Array::from_vec(v, vec![nb]))
    }
}

/// NumPy's digitize of `x` by edges `e` (float64, increasing; given reversed
/// when `decreasing`): int64 of x's shape.
pub fn digitize(x: &Array, e: &Array, left: bool, decreasing: bool) -> Result<Array> {
    let e = floats(e)?;
    let m = e.len();
    let x = x.contiguous()?;
    let data = x.host_read()?;
    crate::with_dtype!(x.dtype(), S => {
        let xs = S::slice(&data).ok_or_else(|| Error::internal("digitize: dtype"))?;
        let mut out = alloc::reserve::<i64>(x.shape())?;
        out.par_extend(xs.par_iter().map(|&v| {
            let k = bound(&e, v.to_f64(), left);
            (if decreasing { m - k } else { k }) as i64
        }));
        Ok(Array::from_vec(out, x.shape().to_vec()))
    })
}
