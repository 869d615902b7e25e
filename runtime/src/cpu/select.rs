//! Order statistics on the CPU: for each lane along an axis, the elements
//! of given ranks in NumPy's sort order (NaN last, as `np.partition` puts
//! them), the base of median, percentile and quantile. Each lane is copied
//! once and partitioned in place (`select_nth_unstable`, introselect: O(n)),
//! the largest rank first so each smaller one only partitions what lies
//! below; the top rank n-1 (the NaN check) is a linear scan. Lanes run in
//! parallel.

use crate::array::{Array, Element, alloc};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::cmp::Ordering;

/// NumPy's sort order: NaN after every number (two NaNs equal).
#[inline(always)]
fn total<S: PartialOrd>(a: &S, b: &S) -> Ordering {
    #[allow(clippy::eq_op)]
    let nan = |x: &S| x != x;
    a.partial_cmp(b).unwrap_or_else(|| nan(a).cmp(&nan(b)))
}

/// Puts lane `v`'s elements of `ranks` (sorted descending, each below
/// v.len()) where a full sort would put them.
fn partition<S: PartialOrd + Copy>(v: &mut [S], ranks: &[usize]) {
    let mut end = v.len();
    for &r in ranks {
        let part = &mut v[..end];
        if r + 1 == part.len() {
            // The largest of what is left: one linear scan.
            let mut best = 0;
            for k in 1..part.len() {
                if total(&part[k], &part[best]) != Ordering::Less {
                    best = k;
                }
            }
            part.swap(best, r);
        } else {
            part.select_nth_unstable_by(r, total);
        }
        end = r;
    }
}

/// The elements of ranks `ranks` (each below the axis length) of every lane
/// of `a` along `axis`: shape `[ranks.len()] + a's shape without axis`,
/// a's dtype.
pub fn select(a: &Array, axis: usize, ranks: &[usize]) -> Result<Array> {
    let nd = a.ndim();
    let n = a.shape()[axis];
    let mut out_shape = vec![ranks.len()];
    out_shape.extend(a.shape()[..axis].iter().chain(&a.shape()[axis + 1..]));
    if let Some(&r) = ranks.iter().find(|&&r| r >= n) {
        return Err(Error::internal(format!(
            "select: rank {r} of a lane of {n}"
        )));
    }
    // Lanes contiguous: the axis moved last.
    let perm: Vec<i64> = (0..nd)
        .filter(|&d| d != axis)
        .chain([axis])
        .map(|d| d as i64)
        .collect();
    let x = a.transpose(Some(&perm))?.contiguous()?;
    let lanes = x.size().checked_div(n).unwrap_or(0);
    let mut desc: Vec<usize> = ranks.to_vec();
    desc.sort_unstable_by(|p, q| q.cmp(p));
    desc.dedup();
    let data = x.host_read()?;
    crate::with_real_dtype!(a.dtype(), S => {
        let xs = S::slice(&data).ok_or_else(|| Error::internal("select: dtype mismatch"))?;
        let picked: Vec<Vec<S>> = (0..lanes)
            .into_par_iter()
            .map(|l| {
                let mut v = alloc::reserve::<S>(&[n])?;
                v.extend_from_slice(&xs[l * n..(l + 1) * n]);
                partition(&mut v, &desc);
                Ok(ranks.iter().map(|&r| v[r]).collect())
            })
            .collect::<Result<_>>()?;
        let mut out = alloc::reserve::<S>(&out_shape)?;
        for t in 0..ranks.len() {
            out.extend(picked.iter().map(|p| p[t]));
        }
        Ok(Array::from_vec(out, out_shape))
    },
        complex => Err(crate::error::Error::dtype("select", format!("select does not support {} arrays", a.dtype()))))
}
