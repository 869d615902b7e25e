//! Lane jobs on the CPU (lanes: rows of the last axis of a contiguous host
//! array): sort and argsort by the stable radix sort of the elements' keys
//! (the values come back from the keys, or by position when positions are
//! sorted), partition and topk by selection (`select_nth_unstable` on
//! (key, position) pairs), and the scatter of a permutation's gradient.
//! Lanes run in parallel; a long lane is parallel inside (the radix passes,
//! the key and value passes).

use super::{Item, Pos, elements, map_into};
use crate::array::Array;
use crate::array::alloc::{buffer, reserve};
use crate::error::{Error, Result};
use gcalc_kernels::cpu::sort::keys::{keys_into, values_from_keys};
use gcalc_kernels::cpu::sort::{radix, simd};
use rayon::prelude::*;

/// The lane length and count of `x` (ndim >= 1, no zero-size dimension).
fn lane_dims(x: &Array) -> Result<(usize, usize)> {
    let n = *x
        .shape()
        .last()
        .ok_or_else(|| Error::internal("a lane job got a 0-d array"))?;
    if n == 0 {
        return Err(Error::internal("a lane job got empty lanes"));
    }
    Ok((n, x.size() / n))
}

/// Sort every lane: the values when `values`, then the positions when `indices`.
pub fn sort(x: &Array, desc: bool, values: bool, indices: bool) -> Result<Vec<Array>> {
    let (n, _) = lane_dims(x)?;
    let d = x.host_read()?;
    crate::with_real_dtype!(x.dtype(), T => {
        let s = elements::<T>(x, &d)?;
        let (vals, idx) = if !indices {
            (Some(sort_values(s, n, desc)?), None)
        } else if n <= u32::MAX as usize {
            sort_pairs::<T, u32>(s, n, desc, values)?
        } else {
            sort_pairs::<T, u64>(s, n, desc, values)?
        };
        let shape = x.shape().to_vec();
        let mut out = Vec::new();
        if let Some(v) = vals {
            out.push(Array::from_vec(v, shape.clone()));
        }
        if let Some(i) = idx {
            out.push(Array::from_vec(i, shape));
        }
        Ok(out)
    },
        complex => Err(crate::error::Error::dtype("sort", format!("sort does not support {} arrays", x.dtype()))))
}

/// Values only: the keys (signed zeros kept apart, so the values come back
/// exactly from them) sorted alone, then turned back into values. 32-bit
/// keys on AVX-512 CPUs: the vectorized quicksort, in the output's memory
/// (not stable, and equal keys are equal values); else the radix sort.
fn sort_values<T: Item>(s: &[T], n: usize, desc: bool) -> Result<Vec<T>> {
    let size = s.len();
    if simd::available::<T>() {
        // Not zero-filled first: every element is written by its lane's sort.
        let mut out = reserve::<T>(&[size])?;
        out.spare_capacity_mut()[..size]
            .par_chunks_mut(n)
            .zip(s.par_chunks(n))
            .for_each(|(o, s)| simd::sort_values(s, o, desc));
        // SAFETY: the lanes above wrote all `size` elements.
        unsafe { out.set_len(size) };
        return Ok(out);
    }
    let mut k = buffer(size, T::K::default())?;
    let mut tk = buffer(size, T::K::default())?;
    let mut out = buffer(size, T::default())?;
    out.par_chunks_mut(n)
        .zip(k.par_chunks_mut(n))
        .zip(tk.par_chunks_mut(n))
        .zip(s.par_chunks(n))
        .for_each(|(((o, k), tk), s)| {
            map_into(s, k, |a, b| keys_into(a, b, desc, false));
            let (mut u, mut tu) = (vec![(); n], vec![(); n]);
            let scratch = radix::sort(k, &mut u, tk, &mut tu);
            let sorted: &[T::K] = if scratch { tk } else { k };
            map_into(sorted, o, |a, b| values_from_keys(a, b, desc));
        });
    Ok(out)
}

type Pairs<T> = (Option<Vec<T>>, Option<Vec<i64>>);

/// Positions (and the values at them): (key, position) pairs sorted, with
/// -0.0 and 0.0 one key so ties keep their order as NumPy's stable sort does.
fn sort_pairs<T: Item, P: Pos>(s: &[T], n: usize, desc: bool, values: bool) -> Result<Pairs<T>> {
    let size = s.len();
    let mut k = buffer(size, T::K::default())?;
    let mut tk = buffer(size, T::K::default())?;
    let mut p = buffer(size, P::default())?;
    let mut tp = buffer(size, P::default())?;
    let in_scratch: Vec<bool> = k
        .par_chunks_mut(n)
        .zip(tk.par_chunks_mut(n))
        .zip(p.par_chunks_mut(n))
        .zip(tp.par_chunks_mut(n))
        .zip(s.par_chunks(n))
        .map(|((((k, tk), p), tp), s)| {
            map_into(s, k, |a, b| keys_into(a, b, desc, true));
            p.iter_mut().enumerate().for_each(|(i, q)| *q = P::at(i));
            radix::sort(k, p, tk, tp)
        })
        .collect();
    let sorted = |r: usize| -> &[P] {
        let lane = r * n..(r + 1) * n;
        if in_scratch[r] { &tp[lane] } else { &p[lane] }
    };
    let mut idx = buffer(size, 0i64)?;
    idx.par_chunks_mut(n).enumerate().for_each(|(r, o)| {
        map_into(sorted(r), o, |a, b| {
            b.iter_mut().zip(a).for_each(|(o, &q)| *o = q.get() as i64)
        });
    });
    let vals = if values {
        let mut v = buffer(size, T::default())?;
        v.par_chunks_mut(n).enumerate().for_each(|(r, o)| {
            let lane = &s[r * n..(r + 1) * n];
            map_into(sorted(r), o, |a, b| {
                b.iter_mut().zip(a).for_each(|(o, &q)| *o = lane[q.get()])
            });
        });
        Some(v)
    } else {
        None
    };
    Ok((vals, Some(idx)))
}

/// Partition every lane about the (ascending, distinct, in-lane) positions `kth`.
pub fn partition(x: &Array, kth: &[usize], values: bool, indices: bool) -> Result<Vec<Array>> {
    let (n, _) = lane_dims(x)?;
    let d = x.host_read()?;
    let shape = x.shape().to_vec();
    crate::with_real_dtype!(x.dtype(), T => {
        let s = elements::<T>(x, &d)?;
        if indices {
            let (v, i) = partition_pairs(s, n, kth, values)?;
            let mut out: Vec<Array> = v.into_iter().map(|v| Array::from_vec(v, shape.clone())).collect();
            out.push(Array::from_vec(i, shape));
            Ok(out)
        } else {
            Ok(vec![Array::from_vec(partition_values(s, n, kth)?, shape)])
        }
    },
        complex => Err(crate::error::Error::dtype("sort", format!("sort does not support {} arrays", x.dtype()))))
}

/// Values only: the keys (signed zeros apart) selected, then turned back.
fn partition_values<T: Item>(s: &[T], n: usize, kth: &[usize]) -> Result<Vec<T>> {
    let mut k = buffer(s.len(), T::K::default())?;
    let mut v = buffer(s.len(), T::default())?;
    v.par_chunks_mut(n)
        .zip(k.par_chunks_mut(n))
        .zip(s.par_chunks(n))
        .for_each(|((v, k), s)| {
            keys_into(s, k, false, false);
            select_each(k, kth, |a, b| a.cmp(b));
            values_from_keys(k, v, false);
        });
    Ok(v)
}

/// (key, position) pairs selected by key: positions, and the values at them.
fn partition_pairs<T: Item>(
    s: &[T],
    n: usize,
    kth: &[usize],
    values: bool,
) -> Result<(Option<Vec<T>>, Vec<i64>)> {
    let mut pairs = buffer(s.len(), (T::K::default(), 0u64))?;
    pairs
        .par_chunks_mut(n)
        .zip(s.par_chunks(n))
        .for_each(|(pr, s)| {
            for (i, (q, &x)) in pr.iter_mut().zip(s).enumerate() {
                *q = (x.key(false, true), i as u64);
            }
            select_each(pr, kth, |a, b| a.0.cmp(&b.0));
        });
    let vals = if values {
        let mut v = buffer(s.len(), T::default())?;
        v.par_chunks_mut(n)
            .zip(pairs.par_chunks(n))
            .zip(s.par_chunks(n))
            .for_each(|((v, pr), s)| {
                v.iter_mut().zip(pr).for_each(|(o, q)| *o = s[q.1 as usize]);
            });
        Some(v)
    } else {
        None
    };
    let mut idx = buffer(s.len(), 0i64)?;
    idx.par_chunks_mut(n)
        .zip(pairs.par_chunks(n))
        .for_each(|(o, pr)| {
            o.iter_mut().zip(pr).for_each(|(o, q)| *o = q.1 as i64);
        });
    Ok((vals, idx))
}

/// Put the element of each position of `kth` (ascending) in its sorted place,
/// smaller ones before and larger ones after, as NumPy's introselect does:
/// each selection only looks right of the previous one.
fn select_each<E>(
    lane: &mut [E],
    kth: &[usize],
    cmp: impl Fn(&E, &E) -> std::cmp::Ordering + Copy,
) {
    let mut lo = 0;
    for &k in kth {
        if k >= lo && k < lane.len() {
            lane[lo..].select_nth_unstable_by(k - lo, cmp);
            lo = k + 1;
        }
    }
}

/// The first `k` of every lane in stable sorted order (descending when
/// `largest`, nans last): values then positions, shape (rows..., k).
pub fn topk(x: &Array, k: usize, largest: bool) -> Result<Vec<Array>> {
    let (n, _) = lane_dims(x)?;
    if k == 0 || k > n {
        return Err(Error::internal("topk: k outside the lane"));
    }
    let d = x.host_read()?;
    let mut shape = x.shape().to_vec();
    if let Some(last) = shape.last_mut() {
        *last = k;
    }
    crate::with_real_dtype!(x.dtype(), T => {
        let (v, i) = topk_of(elements::<T>(x, &d)?, n, k, largest)?;
        Ok(vec![Array::from_vec(v, shape.clone()), Array::from_vec(i, shape)])
    },
        complex => Err(crate::error::Error::dtype("sort", format!("sort does not support {} arrays", x.dtype()))))
}

fn topk_of<T: Item>(s: &[T], n: usize, k: usize, largest: bool) -> Result<(Vec<T>, Vec<i64>)> {
    let rows = s.len() / n;
    let mut pairs = buffer(s.len(), (T::K::default(), 0u64))?;
    let mut vals = buffer(rows * k, T::default())?;
    let mut idx = buffer(rows * k, 0i64)?;
    pairs
        .par_chunks_mut(n)
        .zip(s.par_chunks(n))
        .zip(vals.par_chunks_mut(k))
        .zip(idx.par_chunks_mut(k))
        .for_each(|(((pr, s), v), ix)| {
            for (i, (q, &x)) in pr.iter_mut().zip(s).enumerate() {
                *q = (x.key(largest, true), i as u64);
            }
            // (key, position) pairs are all distinct: the k smallest are the
            // first k of the stable sort, ties to the lower position.
            if k < n {
                pr.select_nth_unstable(k - 1);
            }
            pr[..k].sort_unstable();
            for ((o, oi), q) in v.iter_mut().zip(ix.iter_mut()).zip(&pr[..k]) {
                *o = s[q.1 as usize];
                *oi = q.1 as i64;
            }
        });
    Ok((vals, idx))
}

/// Zeros of (rows..., n) with `g[r, j]` stored at lane position `idx[r, j]`.
pub fn scatter(g: &Array, idx: &Array, n: usize) -> Result<Vec<Array>> {
    let (k, _) = lane_dims(g)?;
    let id = idx.host_read()?;
    let ix = elements::<i64>(idx, &id)?;
    let gd = g.host_read()?;
    crate::with_dtype!(g.dtype(), T => {
        let gs = elements::<T>(g, &gd)?;
        let rows = gs.len() / k;
        let mut out = buffer(rows * n, T::default())?;
        out.par_chunks_mut(n.max(1))
            .zip(gs.par_chunks(k))
            .zip(ix.par_chunks(k))
            .for_each(|((o, g), ix)| {
                for (&v, &i) in g.iter().zip(ix) {
                    if let Some(slot) = usize::try_from(i).ok().and_then(|i| o.get_mut(i)) {
                        *slot = v;
                    }
                }
            });
        let mut shape = g.shape().to_vec();
        if let Some(last) = shape.last_mut() {
            *last = n;
        }
        Ok(vec![Array::from_vec(out, shape)])
    })
}
