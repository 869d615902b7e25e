//! NumPy's rule for the shape `x[idx]` selects, so the generator can make
//! values that broadcast into a selection (and ones that do not). Only a
//! guide for generating: NumPy itself is the oracle, so a wrong guess here
//! costs coverage, never a false mismatch.

use super::Item;
use crate::lit::Scalar;

/// Python's slice length over an axis of `n`.
pub fn slice_len(start: Option<i64>, stop: Option<i64>, step: Option<i64>, n: usize) -> usize {
    let step = step.unwrap_or(1) as i128;
    if step == 0 {
        return 0;
    }
    let n = n as i128;
    let (lower, upper) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let adjust = |v: Option<i64>, default: i128| match v {
        None => default,
        Some(v) if (v as i128) < 0 => (v as i128 + n).max(lower),
        Some(v) => (v as i128).min(upper),
    };
    let b = adjust(start, if step > 0 { lower } else { upper });
    let e = adjust(stop, if step > 0 { upper } else { lower });
    let c = if step > 0 && b < e {
        (e - b - 1) / step + 1
    } else if step < 0 && e < b {
        (b - e - 1) / (-step) + 1
    } else {
        0
    };
    c as usize
}

/// How many dims of the array an item consumes.
pub fn consumes(it: &Item) -> usize {
    match it {
        Item::Int(_) | Item::Slice(..) | Item::Array(_) | Item::List(_) | Item::Float(_) => 1,
        Item::Mask(m) => m.shape.len(),
        Item::NoneAxis | Item::NewAxisName | Item::Ellipsis | Item::Bool(_) => 0,
    }
}

fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let y = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = match (x, y) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

enum Seg {
    Basic(Vec<usize>),
    Adv(Vec<usize>),
}

fn in_range(i: i64, n: usize) -> bool {
    let n = n as i64;
    -n <= i && i < n
}

/// The shape of `x[items]` for `x` of `shape` as NumPy computes it, or
/// `None` when the index is an error.
pub fn selection_shape(shape: &[usize], items: &[Item]) -> Option<Vec<usize>> {
    let nd = shape.len();
    let consumed: usize = items.iter().map(consumes).sum();
    let ellipses = items.iter().filter(|i| **i == Item::Ellipsis).count();
    if ellipses > 1 || consumed > nd {
        return None;
    }
    let any_adv = items.iter().any(|i| {
        matches!(
            i,
            Item::Array(_) | Item::List(_) | Item::Mask(_) | Item::Bool(_)
        )
    });
    let mut segs = Vec::new();
    let mut axis = 0;
    // NumPy checks the values of index arrays as it uses them: none when
    // they broadcast to an empty selection.
    let mut oob = false;
    for it in items {
        match it {
            Item::Int(i) => {
                if !in_range(*i, shape[axis]) {
                    return None;
                }
                segs.push(if any_adv {
                    Seg::Adv(vec![])
                } else {
                    Seg::Basic(vec![])
                });
                axis += 1;
            }
            Item::Slice(a, z, s) => {
                if *s == Some(0) {
                    return None;
                }
                segs.push(Seg::Basic(vec![slice_len(*a, *z, *s, shape[axis])]));
                axis += 1;
            }
            Item::NoneAxis | Item::NewAxisName => segs.push(Seg::Basic(vec![1])),
            Item::Ellipsis => {
                let e = nd - consumed;
                segs.push(Seg::Basic(shape[axis..axis + e].to_vec()));
                axis += e;
            }
            Item::Array(a) => {
                if a.values.iter().any(|v| !matches!(v, Scalar::Int(_))) {
                    return None;
                }
                let ok = a
                    .values
                    .iter()
                    .all(|v| matches!(v, Scalar::Int(i) if in_range(*i, shape[axis])));
                oob |= !ok;
                segs.push(Seg::Adv(a.shape.clone()));
                axis += 1;
            }
            Item::List(v) => {
                oob |= !v.iter().all(|i| in_range(*i, shape[axis]));
                segs.push(Seg::Adv(vec![v.len()]));
                axis += 1;
            }
            Item::Mask(m) => {
                let k = m.shape.len();
                if m.shape[..] != shape[axis..axis + k] {
                    return None;
                }
                let count = m
                    .values
                    .iter()
                    .filter(|v| **v == Scalar::Bool(true))
                    .count();
                segs.push(Seg::Adv(vec![count]));
                axis += k;
            }
            Item::Bool(b) => segs.push(Seg::Adv(vec![*b as usize])),
            Item::Float(_) => return None,
        }
    }
    segs.push(Seg::Basic(shape[axis..].to_vec()));
    let mut b: Vec<usize> = vec![];
    let mut adv_at = vec![];
    for (k, s) in segs.iter().enumerate() {
        if let Seg::Adv(a) = s {
            b = broadcast(&b, a)?;
            adv_at.push(k);
        }
    }
    let basic = |segs: &[Seg]| -> Vec<usize> {
        segs.iter()
            .flat_map(|s| match s {
                Seg::Basic(d) => d.clone(),
                Seg::Adv(_) => vec![],
            })
            .collect()
    };
    if oob && b.iter().product::<usize>() > 0 {
        return None;
    }
    let Some((&first, &last)) = adv_at.first().zip(adv_at.last()) else {
        return Some(basic(&segs));
    };
    let adjacent = last - first + 1 == adv_at.len();
    let mut out = Vec::new();
    if adjacent {
        out.extend(basic(&segs[..first]));
        out.extend(b);
        out.extend(basic(&segs[last + 1..]));
    } else {
        out.extend(b);
        out.extend(basic(&segs));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::{ArrayLit, DType};

    fn arr(shape: &[usize], v: &[i64]) -> Item {
        Item::Array(ArrayLit {
            dtype: DType::Int64,
            shape: shape.to_vec(),
            values: v.iter().map(|&i| Scalar::Int(i)).collect(),
        })
    }

    #[test]
    fn numpy_shapes() {
        let s = |shape: &[usize], items: &[Item]| selection_shape(shape, items);
        let all = Item::Slice(None, None, None);
        assert_eq!(
            s(
                &[2, 3, 4],
                &[Item::Int(0), all.clone(), Item::List(vec![1, 2])]
            ),
            Some(vec![2, 3])
        );
        assert_eq!(
            s(
                &[3, 2, 4],
                &[
                    all.clone(),
                    Item::List(vec![0]),
                    Item::Ellipsis,
                    Item::List(vec![0])
                ]
            ),
            Some(vec![1, 3])
        );
        assert_eq!(
            s(
                &[2, 3],
                &[all.clone(), Item::Bool(true), Item::List(vec![0, 1])]
            ),
            Some(vec![2, 2])
        );
        assert_eq!(
            s(&[5], &[Item::Slice(Some(-1), None, Some(-2))]),
            Some(vec![3])
        );
        assert_eq!(
            s(&[4, 5], &[arr(&[2, 1], &[0, 1]), arr(&[3], &[0, 1, 2])]),
            Some(vec![2, 3])
        );
        assert_eq!(s(&[4], &[Item::Int(4)]), None);
        assert_eq!(s(&[4], &[Item::Int(0), Item::Int(0)]), None);
        assert_eq!(slice_len(Some(10), Some(-10), Some(-3), 5), 2);
    }
}
