//! Shape and stride arithmetic: contiguity, broadcasting, C-order offset walks.

use super::{Dims, Strides};
use crate::error::{Error, Result};

pub fn contiguous_strides(shape: &[usize]) -> Vec<isize> {
    contiguous_strides_dims(shape).into_vec()
}

/// `contiguous_strides`, held inline (no allocation up to 4 dims).
pub fn contiguous_strides_dims(shape: &[usize]) -> Strides {
    let fill = |out: &mut [isize]| {
        let mut s = 1isize;
        for (st, &d) in out.iter_mut().zip(shape).rev() {
            *st = s;
            s *= d.max(1) as isize;
        }
    };
    let n = shape.len();
    if n <= 4 {
        let mut buf = [0isize; 4];
        fill(&mut buf[..n]);
        return Strides::from_buf_and_len(buf, n);
    }
    let mut v = vec![0isize; n];
    fill(&mut v);
    Strides::from_vec(v)
}

pub fn is_contiguous(shape: &[usize], strides: &[isize]) -> bool {
    let mut expect = 1isize;
    for i in (0..shape.len()).rev() {
        if shape[i] != 1 && strides[i] != expect {
            return false;
        }
        expect *= shape[i] as isize;
    }
    true
}

/// NumPy broadcasting of two shapes; `op` names the operation for the error.
pub fn broadcast_shapes(a: &[usize], b: &[usize], op: &str) -> Result<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(Error::shape(op, format!(
                "operands could not be broadcast together with shapes {} and {}",
                fmt_shape(a),
                fmt_shape(b)
            ))
            .with_help("trailing dimensions must be equal or 1; use reshape or expand_dims to line them up"));
        };
    }
    Ok(out)
}

/// Strides that view an array of `shape`/`strides` as the broadcast shape `to`
/// (0 stride on broadcast dimensions).
pub fn broadcast_strides(shape: &[usize], strides: &[isize], to: &[usize]) -> Vec<isize> {
    broadcast_strides_dims(shape, strides, to).into_vec()
}

/// `broadcast_strides`, held inline (no allocation up to 4 dims).
pub fn broadcast_strides_dims(shape: &[usize], strides: &[isize], to: &[usize]) -> Strides {
    let n = to.len();
    let k = shape.len();
    (0..n)
        .map(|i| {
            if i + k < n {
                0
            } else {
                let j = i + k - n;
                if shape[j] == 1 && to[i] != 1 {
                    0
                } else {
                    strides[j]
                }
            }
        })
        .collect()
}

/// `(3, 2)` style text of a shape.
pub fn fmt_shape(s: &[usize]) -> String {
    fmt_dims(s)
}

/// `(3, 2)` / `(3,)` / `()` text of a list of dims (sizes, or requested
/// sizes such as `-1`).
pub fn fmt_dims<T: std::fmt::Display>(s: &[T]) -> String {
    match s.len() {
        0 => "()".into(),
        1 => format!("({},)", s[0]),
        _ => format!(
            "({})",
            s.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `3x2` style text of a shape, for the trailer `<3x2 float32 @cpu(0)>`.
pub fn fmt_shape_x(s: &[usize]) -> String {
    if s.is_empty() {
        "scalar".into()
    } else {
        s.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }
}

/// Offset of the element at C-order flat position `i`.
pub fn offset_of_flat(shape: &[usize], strides: &[isize], offset: usize, mut i: usize) -> usize {
    let mut off = offset as isize;
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        off += (i % n) as isize * strides[d];
        i /= n;
    }
    off as usize
}

/// Merge adjacent dimensions that are contiguous with each other (for faster walks).
pub fn merge_dims(shape: &[usize], strides: &[&[isize]]) -> (Vec<usize>, Vec<Vec<isize>>) {
    let mut out_shape: Vec<usize> = Vec::new();
    let mut out_strides: Vec<Vec<isize>> = vec![Vec::new(); strides.len()];
    for d in 0..shape.len() {
        if shape[d] == 1 {
            continue;
        }
        let can_merge = !out_shape.is_empty()
            && strides.iter().enumerate().all(|(k, s)| {
                let last = *out_strides[k].last().unwrap_or(&0);
                last == s[d] * shape[d] as isize
            });
        if can_merge {
            let l = out_shape.len() - 1;
            out_shape[l] *= shape[d];
            for (k, s) in strides.iter().enumerate() {
                out_strides[k][l] = s[d];
            }
        } else {
            out_shape.push(shape[d]);
            for (k, s) in strides.iter().enumerate() {
                out_strides[k].push(s[d]);
            }
        }
    }
    (out_shape, out_strides)
}

/// `merge_dims` of one view, held inline (no allocation up to 4 merged dims).
fn merge_dims1(shape: &[usize], strides: &[isize]) -> (Dims, Strides) {
    let (mut out_shape, mut out_strides) = (Dims::new(), Strides::new());
    for d in 0..shape.len() {
        if shape[d] == 1 {
            continue;
        }
        match (out_shape.last_mut(), out_strides.last_mut()) {
            (Some(n), Some(st)) if *st == strides[d] * shape[d] as isize => {
                *n *= shape[d];
                *st = strides[d];
            }
            _ => {
                out_shape.push(shape[d]);
                out_strides.push(strides[d]);
            }
        }
    }
    (out_shape, out_strides)
}

/// Iterator over the element offsets of a strided view in C order.
#[derive(Clone)]
pub struct OffsetIter {
    shape: Dims,
    strides: Strides,
    idx: Dims,
    cur: isize,
    remaining: usize,
}

impl OffsetIter {
    pub fn new(shape: &[usize], strides: &[isize], offset: usize) -> OffsetIter {
        let (s, st) = merge_dims1(shape, strides);
        let remaining = shape.iter().product();
        OffsetIter {
            idx: smallvec::smallvec![0; s.len()],
            shape: s,
            strides: st,
            cur: offset as isize,
            remaining,
        }
    }
}

impl Iterator for OffsetIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let out = self.cur as usize;
        let mut d = self.shape.len();
        while d > 0 {
            d -= 1;
            self.idx[d] += 1;
            self.cur += self.strides[d];
            if self.idx[d] < self.shape[d] {
                break;
            }
            self.cur -= self.strides[d] * self.shape[d] as isize;
            self.idx[d] = 0;
        }
        Some(out)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

/// How a reduction over the axes marked in `red` of an array of `shape`
/// lays out: the permutation that moves the reduced axes last (kept axes
/// first, each group in order), the number of lanes (kept elements) and of
/// elements per lane, and the result's shape (`keepdims`: reduced axes as 1).
pub struct LanePlan {
    pub perm: Vec<i64>,
    pub lanes: usize,
    pub per_lane: usize,
    pub out_shape: Vec<usize>,
}

pub fn lane_plan(shape: &[usize], red: &[bool], keepdims: bool) -> LanePlan {
    let nd = shape.len();
    let kept = (0..nd).filter(|&d| !red[d]);
    let gone = (0..nd).filter(|&d| red[d]);
    LanePlan {
        perm: kept.clone().chain(gone.clone()).map(|d| d as i64).collect(),
        lanes: kept.map(|d| shape[d]).product(),
        per_lane: gone.map(|d| shape[d]).product(),
        out_shape: (0..nd)
            .filter_map(|d| match (red[d], keepdims) {
                (false, _) => Some(shape[d]),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect(),
    }
}
