//! Indexing on host arrays: the buffer positions a `Select` names (every
//! index value checked first, as NumPy does when the index block is not
//! empty), gathers, stores (repeated positions: the last wins), the
//! unbuffered `ufunc.at` updates in index order, the positions of a mask's
//! true elements, and which selected elements a store keeps.

use crate::array::alloc::alloc_with;
use crate::array::layout::{broadcast_strides, contiguous_strides};
use crate::array::select::{EntryKind, Select, out_of_bounds};
use crate::array::{Array, Element, convert};
use crate::error::{Error, Result};
use crate::opid::AtOp;

/// What each value of an entry adds to a position (the entry's values in C
/// order), and its steps through them per output dim.
struct Adds {
    add: Vec<isize>,
    steps: Vec<isize>,
}

fn adds(sel: &Select) -> Result<Vec<Adds>> {
    let check = sel.block_size() > 0;
    let bshape = &sel.shape[sel.block.clone()];
    let mut out = Vec::with_capacity(sel.entries.len());
    for e in &sel.entries {
        let vals = e.values.to_vec::<i64>()?;
        let add = match &e.kind {
            EntryKind::Axis { len, stride, axis } => {
                let n = *len as i64;
                let mut add = Vec::with_capacity(vals.len());
                for &v in &vals {
                    let w = if v < 0 { v + n } else { v };
                    if w < 0 || w >= n {
                        if check {
                            return Err(out_of_bounds(v, *axis, *len));
                        }
                        add.push(0);
                    } else {
                        add.push(w as isize * stride);
                    }
                }
                add
            }
            EntryKind::Flat { lens, strides } => vals
                .iter()
                .map(|&v| {
                    let (mut r, mut off) = (v.max(0) as usize, 0isize);
                    for (&n, &s) in lens.iter().zip(strides).rev() {
                        off += (r % n.max(1)) as isize * s;
                        r /= n.max(1);
                    }
                    off
                })
                .collect(),
        };
        let b = broadcast_strides(
            e.values.shape(),
            &contiguous_strides(e.values.shape()),
            bshape,
        );
        let mut steps = vec![0isize; sel.shape.len()];
        steps[sel.block.clone()].copy_from_slice(&b);
        out.push(Adds { add, steps });
    }
    Ok(out)
}

/// The buffer position of every element of `sel` in C order (int64, host).
/// An index out of bounds is an error before anything is read or written.
pub fn positions(sel: &Select) -> Result<Array> {
    let adds = adds(sel)?;
    let nd = sel.shape.len();
    let mut c = vec![0usize; nd];
    let mut base = sel.offset as isize;
    let mut at = vec![0isize; adds.len()];
    alloc_with::<i64>(&[sel.size()], |_| {
        let mut p = base;
        for (a, &k) in adds.iter().zip(&at) {
            p += a.add[k as usize];
        }
        // The next element in C order.
        for d in (0..nd).rev() {
            c[d] += 1;
            base += sel.strides[d];
            for (a, k) in adds.iter().zip(at.iter_mut()) {
                *k += a.steps[d];
            }
            if c[d] < sel.shape[d] {
                break;
            }
            base -= sel.strides[d] * c[d] as isize;
            for (a, k) in adds.iter().zip(at.iter_mut()) {
                *k -= a.steps[d] * c[d] as isize;
            }
            c[d] = 0;
        }
        p as i64
    })
}

fn with_positions<R>(sel: &Select, f: impl FnOnce(&[i64]) -> Result<R>) -> Result<R> {
    let p = positions(sel)?;
    let d = p.host_read()?;
    let s = i64::slice(&d).ok_or_else(|| Error::internal("index positions"))?;
    f(s)
}

/// `x[sel]` as a new contiguous host array.
pub fn gather(x: &Array, sel: &Select) -> Result<Array> {
    with_positions(sel, |pos| {
        let d = x.host_read()?;
        crate::with_dtype!(x.dtype(), T => {
            let s = T::slice(&d).ok_or_else(|| Error::internal("dtype mismatch in index"))?;
            alloc_with::<T>(&sel.shape, |i| s.get(pos[i] as usize).copied().unwrap_or_default())
        })
    })
}

/// Write `vals` at `pos` in order (the last of repeated positions wins).
fn put<T: Element>(x: &Array, pos: impl Iterator<Item = usize>, vals: Vec<T>) -> Result<()> {
    let mut d = x.host_write()?;
    let s = T::slice_mut(&mut d).ok_or_else(|| Error::internal("dtype mismatch in assign"))?;
    for (o, v) in pos.zip(vals) {
        if let Some(slot) = s.get_mut(o) {
            *slot = v;
        }
    }
    Ok(())
}

/// `x[sel] = src` (`src` host values of the selection's shape, cast to x's
/// dtype and read completely first: they may share x's buffer).
pub fn store(x: &Array, sel: &Select, src: &Array) -> Result<()> {
    with_positions(sel, |pos| {
        crate::with_dtype!(x.dtype(), T => {
            let vals = src.to_vec::<T>()?;
            put(x, pos.iter().map(|&p| p as usize), vals)
        })
    })
}

/// `view[...] = src`: every element of the view (a view of a host buffer).
pub fn store_view(view: &Array, src: &Array) -> Result<()> {
    crate::with_dtype!(view.dtype(), T => {
        let vals = src.to_vec::<T>()?;
        put(view, view.offsets(), vals)
    })
}

/// `op` on one element, in a float compute dtype (add, subtract, multiply
/// round as the compute dtype's own arithmetic: f64 holds their exact sums).
fn combine_f(op: AtOp, a: f64, b: f64) -> f64 {
    match op {
        AtOp::Add => a + b,
        AtOp::Subtract => a - b,
        AtOp::Multiply => a * b,
        AtOp::Maximum => {
            if a > b || a.is_nan() {
                a
            } else {
                b
            }
        }
        AtOp::Minimum => {
            if a < b || a.is_nan() {
                a
            } else {
                b
            }
        }
    }
}

/// `op` on one element, in an integer or bool compute dtype (wrapping).
fn combine_i(op: AtOp, a: i64, b: i64) -> i64 {
    match op {
        AtOp::Add => a.wrapping_add(b),
        AtOp::Subtract => a.wrapping_sub(b),
        AtOp::Multiply => a.wrapping_mul(b),
        AtOp::Maximum => a.max(b),
        AtOp::Minimum => a.min(b),
    }
}

/// `x[p] = x[p] op src[i]` for every selected position in order, computed
/// in src's dtype `C` and cast to x's `T` (as NumPy's `ufunc.at`).
pub fn at(x: &Array, sel: &Select, src: &Array, op: AtOp) -> Result<()> {
    with_positions(sel, |pos| {
        crate::with_dtype!(src.dtype(), C => {
            let vals = src.to_vec::<C>()?;
            crate::with_dtype!(x.dtype(), T => {
                let mut d = x.host_write()?;
                let s = T::slice_mut(&mut d).ok_or_else(|| Error::internal("dtype mismatch in at"))?;
                for (&p, v) in pos.iter().zip(vals) {
                    if let Some(slot) = s.get_mut(p as usize) {
                        let cur: C = convert::<T, C>(*slot);
                        let r: C = if C::DTYPE.is_float() {
                            C::from_f64(combine_f(op, cur.to_f64(), v.to_f64()))
                        } else {
                            C::from_i64(combine_i(op, cur.to_i64(), v.to_i64()))
                        };
                        *slot = convert::<C, T>(r);
                    }
                }
                Ok(())
            })
        })
    })
}

/// The C-order flat positions of `mask`'s true elements (1-d int64).
pub fn nonzero(mask: &Array) -> Result<Array> {
    let m = mask.to_vec::<bool>()?;
    let n = m.iter().filter(|&&b| b).count();
    let mut it = m
        .iter()
        .enumerate()
        .filter(|(_, b)| **b)
        .map(|(i, _)| i as i64);
    alloc_with::<i64>(&[n], |_| it.next().unwrap_or(0))
}

/// Whether a store through `sel` keeps each selected element (no later one
/// goes to the same position).
pub fn kept(_x: &Array, sel: &Select) -> Result<Array> {
    with_positions(sel, |pos| {
        let mut last: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
        for (i, &p) in pos.iter().enumerate() {
            last.insert(p, i);
        }
        alloc_with::<bool>(&sel.shape, |i| last.get(&pos[i]) == Some(&i))
    })
}
