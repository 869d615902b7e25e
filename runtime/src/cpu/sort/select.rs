//! Selections whose size depends on the data, on the CPU: `unique` (keys
//! sorted by the radix sort, with positions when the first occurrences or
//! the inverse are asked for; a group starts where the key changes) and
//! `nonzero` (coordinates or flat positions of the nonzero elements). Both
//! count per chunk in parallel, add the counts up, then write each chunk's
//! part of the result in parallel.

use super::{Item, Pos, elements};
use crate::array::alloc::buffer;
use crate::array::{Array, Element};
use crate::error::Result;
use gcalc_kernels::cpu::sort::keys::{Radix, keys_into};
use gcalc_kernels::cpu::sort::radix;
use rayon::prelude::*;

/// Elements per chunk of the counting and writing passes.
const PART: usize = 1 << 16;

/// The first element of each part of `0..n` and the part count.
fn parts(n: usize) -> usize {
    n.div_ceil(PART).max(1)
}

/// Exclusive prefix sums of `counts`, and their total.
fn offsets(counts: &[usize]) -> (Vec<usize>, usize) {
    let mut at = 0;
    let offs = counts
        .iter()
        .map(|&c| {
            let o = at;
            at += c;
            o
        })
        .collect();
    (offs, at)
}

/// A raw pointer that parallel parts write through at disjoint places.
#[derive(Clone, Copy)]
struct Out<T>(*mut T);
// SAFETY: every use writes places no other part writes (stated at each use).
unsafe impl<T> Send for Out<T> {}
unsafe impl<T> Sync for Out<T> {}
impl<T> Out<T> {
    /// # Safety
    /// `i` is inside the allocation and no other thread writes it.
    #[inline(always)]
    unsafe fn put(self, i: usize, v: T) {
        // SAFETY: the caller's contract.
        unsafe { *self.0.add(i) = v }
    }
}

/// The distinct elements of `x` (flattened), then as asked: first positions,
/// inverse (x's shape), counts.
pub fn unique(
    x: &Array,
    index: bool,
    inverse: bool,
    counts: bool,
    equal_nan: bool,
) -> Result<Vec<Array>> {
    let d = x.host_read()?;
    crate::with_real_dtype!(x.dtype(), T => {
        let s = elements::<T>(x, &d)?;
        if s.len() <= u32::MAX as usize {
            unique_of::<T, u32>(s, x.shape(), index, inverse, counts, equal_nan)
        } else {
            unique_of::<T, u64>(s, x.shape(), index, inverse, counts, equal_nan)
        }
    },
        complex => Err(crate::error::Error::dtype("partition", format!("partition does not support {} arrays", x.dtype()))))
}

fn unique_of<T: Item, P: Pos>(
    s: &[T],
    shape: &[usize],
    index: bool,
    inverse: bool,
    counts: bool,
    equal_nan: bool,
) -> Result<Vec<Array>> {
    let n = s.len();
    let positions = index || inverse;
    // Keys with -0.0 = 0.0 and one nan key; positions only when needed.
    let mut k = buffer(n, T::K::default())?;
    let mut tk = buffer(n, T::K::default())?;
    super::map_into(s, &mut k, |a, b| keys_into(a, b, false, true));
    let (mut p, mut tp) = if positions {
        let mut p = buffer(n, P::default())?;
        p.par_iter_mut()
            .enumerate()
            .for_each(|(i, q)| *q = P::at(i));
        (p, buffer(n, P::default())?)
    } else {
        (Vec::new(), Vec::new())
    };
    let scratch = if positions {
        radix::sort(&mut k, &mut p, &mut tk, &mut tp)
    } else {
        let (mut u, mut tu) = (vec![(); n], vec![(); n]);
        radix::sort(&mut k, &mut u, &mut tk, &mut tu)
    };
    let (keys, pos): (&[T::K], &[P]) = if scratch { (&tk, &tp) } else { (&k, &p) };
    let nan = <T::K as Radix>::MAX;
    let starts_group =
        |i: usize| i == 0 || keys[i] != keys[i - 1] || (!equal_nan && T::FLOAT && keys[i] == nan);
    let np = parts(n);
    let per: Vec<usize> = (0..np)
        .into_par_iter()
        .map(|c| {
            (c * PART..((c + 1) * PART).min(n))
                .filter(|&i| starts_group(i))
                .count()
        })
        .collect();
    let (goff, m) = offsets(&per);
    let mut vals = buffer(m, T::default())?;
    let mut first = buffer(m, 0usize)?;
    let (vp, fp) = (Out(vals.as_mut_ptr()), Out(first.as_mut_ptr()));
    (0..np).into_par_iter().for_each(|c| {
        let mut g = goff[c];
        for i in c * PART..((c + 1) * PART).min(n) {
            if starts_group(i) {
                let v = if positions {
                    s[pos[i].get()]
                } else {
                    T::from_key(keys[i], false)
                };
                // SAFETY: groups goff[c].. belong to part c alone, g < m.
                unsafe {
                    vp.put(g, v);
                    fp.put(g, i);
                }
                g += 1;
            }
        }
    });
    if T::FLOAT && !positions {
        first_zero_sign(s, &mut vals);
    }
    let mut out = vec![Array::from_vec(vals, vec![m])];
    if index {
        let mut ix = buffer(m, 0i64)?;
        ix.par_iter_mut()
            .zip(&first)
            .for_each(|(o, &i)| *o = pos[i].get() as i64);
        out.push(Array::from_vec(ix, vec![m]));
    }
    if inverse {
        let mut inv = buffer(n, 0i64)?;
        let ip = Out(inv.as_mut_ptr());
        (0..np).into_par_iter().for_each(|c| {
            let mut g = goff[c] as i64 - 1;
            let part = c * PART..((c + 1) * PART).min(n);
            for (i, q) in part.clone().zip(&pos[part]) {
                if starts_group(i) {
                    g += 1;
                }
                // SAFETY: `pos` is a permutation of 0..n: each place is written once.
                unsafe { ip.put(q.get(), g) };
            }
        });
        out.push(Array::from_vec(inv, shape.to_vec()));
    }
    if counts {
        let mut cs = buffer(m, 0i64)?;
        cs.par_iter_mut().enumerate().for_each(|(g, o)| {
            let end = first.get(g + 1).copied().unwrap_or(n);
            *o = (end - first[g]) as i64;
        });
        out.push(Array::from_vec(cs, vec![m]));
    }
    Ok(out)
}

/// The zero among sorted distinct `vals` (made from canonical keys: +0.0)
/// takes the sign of the first zero of `s`, as NumPy's unique keeps the first
/// of equal elements (`unique([-0.0, 0.0])` is `[-0.]`).
fn first_zero_sign<T: Item>(s: &[T], vals: &mut [T]) {
    let zero = T::default();
    if let Some(g) = vals.iter().position(|v| *v == zero)
        && let Some(first) = s.par_iter().find_first(|v| **v == zero)
    {
        vals[g] = *first;
    }
}

/// The nonzero elements of `x` (ndim >= 1): their coordinates as one
/// (ndim, count) int64 array, or their flat positions (count,) when `flat`.
pub fn nonzero(x: &Array, flat: bool) -> Result<Vec<Array>> {
    let d = x.host_read()?;
    crate::with_dtype!(x.dtype(), T => {
        let s = elements::<T>(x, &d)?;
        Ok(vec![nonzero_of(s, x.shape(), flat)?])
    })
}

fn nonzero_of<T: Element>(s: &[T], shape: &[usize], flat: bool) -> Result<Array> {
    let n = s.len();
    let zero = T::default();
    let np = parts(n);
    let per: Vec<usize> = s
        .par_chunks(PART)
        .map(|c| c.iter().filter(|&&x| x != zero).count())
        .collect();
    let (offs, count) = offsets(&per);
    let nd = if flat { 1 } else { shape.len() };
    let mut out = buffer(nd * count, 0i64)?;
    let op = Out(out.as_mut_ptr());
    (0..np).into_par_iter().for_each(|c| {
        let start = c * PART;
        // The coordinates of `start`, then counted up element by element.
        let mut coord = vec![0usize; shape.len()];
        let mut rest = start;
        for (d, &len) in shape.iter().enumerate().rev() {
            coord[d] = rest % len.max(1);
            rest /= len.max(1);
        }
        let mut j = offs[c];
        let part = start..(start + PART).min(n);
        for (i, &x) in part.clone().zip(&s[part]) {
            if x != zero {
                // SAFETY: places j of every dimension's row belong to part c alone (j < count).
                unsafe {
                    if flat {
                        op.put(j, i as i64);
                    } else {
                        for (d, &cd) in coord.iter().enumerate() {
                            op.put(d * count + j, cd as i64);
                        }
                    }
                }
                j += 1;
            }
            for d in (0..shape.len()).rev() {
                coord[d] += 1;
                if coord[d] < shape[d] {
                    break;
                }
                coord[d] = 0;
            }
        }
    });
    Ok(Array::from_vec(
        out,
        if flat { vec![count] } else { vec![nd, count] },
    ))
}
