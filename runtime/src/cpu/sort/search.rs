//! Searching on the CPU: `searchsorted` (a binary search of each value's
//! key among the sorted array's keys, through `sorter` when given) and
//! `isin` (each element's key looked up among the test elements' sorted,
//! distinct keys). Keys give -0.0 and 0.0 one key, as they compare equal;
//! a nan sorts after every number and equals nothing in `isin`.

use super::elements;
use crate::array::Array;
use crate::array::alloc::buffer;
use crate::error::{Error, Result};
use gcalc_kernels::cpu::sort::keys::{Radix, SortKey};
use rayon::prelude::*;

/// Values per parallel chunk of the searches.
const SEARCH_CHUNK: usize = 1 << 12;

/// Where each element of `v` goes in 1-d `a` (one dtype), as int64 of v's shape.
pub fn searchsorted(
    a: &Array,
    v: &Array,
    right: bool,
    sorter: Option<&Array>,
) -> Result<Vec<Array>> {
    let a = a.contiguous()?;
    let v = v.contiguous()?;
    let order: Option<Vec<i64>> = sorter.map(|s| s.to_vec::<i64>()).transpose()?;
    let (ad, vd) = (a.host_read()?, v.host_read()?);
    crate::with_real_dtype!(a.dtype(), T => {
        let av = elements::<T>(&a, &ad)?;
        let vv = elements::<T>(&v, &vd)?;
        let out = search_of(av, vv, right, order.as_deref())?;
        Ok(vec![Array::from_vec(out, v.shape().to_vec())])
    },
        complex => Err(crate::error::Error::dtype("searchsorted", format!("searchsorted does not support {} arrays", a.dtype()))))
}

fn search_of<T: SortKey>(a: &[T], v: &[T], right: bool, order: Option<&[i64]>) -> Result<Vec<i64>> {
    let keys: Vec<T::K> = match order {
        Some(o) => o
            .iter()
            .map(|&i| {
                usize::try_from(i)
                    .ok()
                    .and_then(|i| a.get(i))
                    .map(|x| x.key(false, true))
                    .ok_or_else(|| Error::internal("searchsorted: sorter index outside a"))
            })
            .collect::<Result<_>>()?,
        None => a.iter().map(|x| x.key(false, true)).collect(),
    };
    let mut out = buffer(v.len(), 0i64)?;
    out.par_chunks_mut(SEARCH_CHUNK)
        .zip(v.par_chunks(SEARCH_CHUNK))
        .for_each(|(o, vs)| {
            for (o, x) in o.iter_mut().zip(vs) {
                let kx = x.key(false, true);
                *o = if right {
                    keys.partition_point(|&k| k <= kx)
                } else {
                    keys.partition_point(|&k| k < kx)
                } as i64;
            }
        });
    Ok(out)
}

/// Whether each element of `x` is among `test` (one dtype), negated when `invert`.
pub fn isin(x: &Array, test: &Array, invert: bool) -> Result<Vec<Array>> {
    let x = x.contiguous()?;
    let test = test.contiguous()?;
    let (xd, td) = (x.host_read()?, test.host_read()?);
    crate::with_real_dtype!(x.dtype(), T => {
        let out = isin_of(elements::<T>(&x, &xd)?, elements::<T>(&test, &td)?, invert)?;
        Ok(vec![Array::from_vec(out, x.shape().to_vec())])
    },
        complex => Err(crate::error::Error::dtype("searchsorted", format!("searchsorted does not support {} arrays", x.dtype()))))
}

fn isin_of<T: SortKey>(xs: &[T], ts: &[T], invert: bool) -> Result<Vec<bool>> {
    let nan = |k: T::K| T::FLOAT && k == <T::K as Radix>::MAX;
    let mut keys: Vec<T::K> = ts
        .iter()
        .map(|t| t.key(false, true))
        .filter(|&k| !nan(k))
        .collect();
    keys.par_sort_unstable();
    keys.dedup();
    let mut out = buffer(xs.len(), false)?;
    out.par_chunks_mut(SEARCH_CHUNK)
        .zip(xs.par_chunks(SEARCH_CHUNK))
        .for_each(|(o, xs)| {
            for (o, x) in o.iter_mut().zip(xs) {
                let k = x.key(false, true);
                *o = (!nan(k) && keys.binary_search(&k).is_ok()) != invert;
            }
        });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searchsorted_sides_and_nan() {
        let a = Array::from_vec(vec![1.0f64, 2.0, 2.0, f64::NAN], vec![4]);
        let v = Array::from_vec(vec![2.0f64, f64::NAN, -0.0, 9.0], vec![2, 2]);
        let l = searchsorted(&a, &v, false, None).unwrap();
        assert_eq!(l[0].to_vec::<i64>().unwrap(), vec![1, 3, 0, 3]);
        let r = searchsorted(&a, &v, true, None).unwrap();
        assert_eq!(r[0].to_vec::<i64>().unwrap(), vec![3, 4, 0, 3]);
        assert_eq!(r[0].shape(), &[2, 2]);
    }

    #[test]
    fn isin_nan_and_zero() {
        let x = Array::from_vec(vec![0.0f32, -0.0, f32::NAN, 3.0], vec![4]);
        let t = Array::from_vec(vec![f32::NAN, -0.0], vec![2]);
        let r = isin(&x, &t, false).unwrap();
        assert_eq!(
            r[0].to_vec::<bool>().unwrap(),
            vec![true, true, false, false]
        );
        let r = isin(&x, &t, true).unwrap();
        assert_eq!(
            r[0].to_vec::<bool>().unwrap(),
            vec![false, false, true, true]
        );
    }
}
