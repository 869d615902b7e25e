//! Indexing as NumPy does it: ints, slices, `newaxis` and `...` give views of
//! the same buffer; integer arrays and boolean masks gather a copy. `assign`
//! writes through the same rules into the array's own buffer.

use super::layout::{broadcast_shapes, broadcast_strides, contiguous_strides, fmt_shape};
use super::{Array, Element, can_cast_same_kind};
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// One entry of `x[...]`.
#[derive(Clone, Debug)]
pub enum Index {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    Ellipsis,
    Array(Array),
}

impl Index {
    /// `:` (the whole axis).
    pub fn full() -> Index {
        Index::Slice {
            start: None,
            stop: None,
            step: None,
        }
    }
}

/// What an index selects: a view, or scattered elements of `base`'s buffer.
enum Selection {
    View(Array),
    Gather {
        shape: Vec<usize>,
        offsets: Vec<usize>,
    },
}

/// An advanced (array) index on axis `axis` of the intermediate view.
struct Adv {
    axis: usize,
    orig_axis: usize,
    vals: Vec<i64>,
    shape: Vec<usize>,
}

/// start, length and step of a slice over an axis of length `len`, as Python clamps them.
pub fn slice_range(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: usize,
) -> Result<(usize, usize, i64)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(
            Error::value("slice step cannot be zero").with_help("use a step like 1, 2 or -1")
        );
    }
    let (n, st) = (len as i128, step as i128);
    let (lower, upper) = if st > 0 { (0, n) } else { (-1, n - 1) };
    let adjust = |v: Option<i64>, default: i128| match v {
        None => default,
        Some(v) => {
            let v = v as i128;
            if v < 0 {
                (v + n).max(lower)
            } else {
                v.min(upper)
            }
        }
    };
    let b = adjust(start, if st > 0 { lower } else { upper });
    let e = adjust(stop, if st > 0 { upper } else { lower });
    let count = if st > 0 && b < e {
        (e - b - 1) / st + 1
    } else if st < 0 && e < b {
        (b - e - 1) / (-st) + 1
    } else {
        0
    };
    Ok((
        if count == 0 { 0 } else { b as usize },
        count as usize,
        step,
    ))
}

fn out_of_bounds(i: i64, axis: usize, size: usize) -> Error {
    Error::index(format!(
        "index {i} is out of bounds for axis {axis} with size {size}"
    ))
    .with_help(format!("valid indices are -{size}..{}", size as i64 - 1))
}

impl Array {
    /// `x[idx]`: a view for ints/slices/newaxis/ellipsis, a copy when an
    /// integer array or a boolean mask is among the indices.
    pub fn index(&self, idx: &[Index]) -> Result<Array> {
        match self.select(idx)? {
            Selection::View(v) => Ok(v),
            Selection::Gather { shape, offsets } => backend::index::gather(self, &offsets, shape),
        }
    }

    /// `x[idx] = src`: write into this array's own buffer (views see it). `src`
    /// is broadcast to the selected shape and cast to `x`'s dtype with NumPy's
    /// `same_kind` rule (bool->int->float; float->int is an error).
    pub fn assign(&self, idx: &[Index], src: &Array) -> Result<()> {
        let sel = self.select(idx)?;
        let shape = match &sel {
            Selection::View(v) => v.shape().to_vec(),
            Selection::Gather { shape, .. } => shape.clone(),
        };
        if !can_cast_same_kind(src.dtype(), self.dtype()) {
            return Err(Error::dtype(
                "assign",
                format!(
                    "cannot assign {} values into {} array (same_kind casting)",
                    src.dtype(),
                    crate::error::with_article(self.dtype().name())
                ),
            )
            .with_help(format!(
                "convert explicitly first: value.astype({})",
                self.dtype()
            )));
        }
        let src = backend::index::values_for(self, src, "assign")?;
        let src = src.broadcast_to(&shape).map_err(|_| {
            Error::shape(
                "assign",
                format!(
                    "could not broadcast input array from shape {} into shape {}",
                    fmt_shape(src.shape()),
                    fmt_shape(&shape)
                ),
            )
            .with_help("the value's trailing dimensions must equal the selection's, or be 1")
        })?;
        match sel {
            Selection::View(v) => backend::index::store_view(&v, &src),
            Selection::Gather { offsets, .. } => {
                backend::index::store_offsets(self, &offsets, &src)
            }
        }
    }

    fn select(&self, idx: &[Index]) -> Result<Selection> {
        let nd = self.ndim();
        let consumes = |i: &Index| match i {
            Index::Int(_) | Index::Slice { .. } => 1,
            Index::Array(a) if a.dtype() == DType::Bool => a.ndim(),
            Index::Array(_) => 1,
            Index::NewAxis | Index::Ellipsis => 0,
        };
        let used: usize = idx.iter().map(consumes).sum();
        let ellipses = idx.iter().filter(|i| matches!(i, Index::Ellipsis)).count();
        if ellipses > 1 {
            return Err(
                Error::index("an index can only have a single ellipsis ('...')")
                    .with_help("remove the extra ..."),
            );
        }
        if used > nd {
            return Err(Error::index(format!(
                "too many indices for array: array is {nd}-dimensional, but {used} were indexed"
            ))
            .with_help(format!("use at most {nd} indices")));
        }
        let mut items: Vec<Index> = Vec::with_capacity(idx.len() + nd);
        for i in idx {
            if matches!(i, Index::Ellipsis) {
                items.extend((0..nd - used).map(|_| Index::full()));
            } else {
                items.push(i.clone());
            }
        }
        if ellipses == 0 {
            items.extend((0..nd - used).map(|_| Index::full()));
        }
        let has_adv = items.iter().any(|i| matches!(i, Index::Array(_)));

        let (mut shape, mut strides) = (Vec::new(), Vec::new());
        let mut offset = self.offset() as isize;
        let mut advs: Vec<Adv> = Vec::new();
        let mut ax = 0usize;
        for it in items {
            match it {
                Index::Int(i) if !has_adv => {
                    let n = self.shape()[ax];
                    let j = if i < 0 { i + n as i64 } else { i };
                    if j < 0 || j >= n as i64 {
                        return Err(out_of_bounds(i, ax, n));
                    }
                    offset += j as isize * self.strides()[ax];
                    ax += 1;
                }
                Index::Int(i) => {
                    advs.push(Adv {
                        axis: shape.len(),
                        orig_axis: ax,
                        vals: vec![i],
                        shape: vec![],
                    });
                    shape.push(self.shape()[ax]);
                    strides.push(self.strides()[ax]);
                    ax += 1;
                }
                Index::Slice { start, stop, step } => {
                    let (b, len, st) = slice_range(start, stop, step, self.shape()[ax])?;
                    offset += b as isize * self.strides()[ax];
                    shape.push(len);
                    strides.push(self.strides()[ax] * st as isize);
                    ax += 1;
                }
                Index::NewAxis => {
                    shape.push(1);
                    strides.push(0);
                }
                Index::Ellipsis => {}
                Index::Array(a) => {
                    let a = a.to_host()?;
                    if a.dtype() == DType::Bool {
                        let k = a.ndim();
                        let dims = &self.shape()[ax..ax + k];
                        if a.shape() != dims {
                            let d = (0..k).find(|&d| a.shape()[d] != dims[d]).unwrap_or(0);
                            return Err(Error::index(format!(
                                "boolean index did not match indexed array along axis {}; size of axis is {} but size of corresponding boolean axis is {}",
                                ax + d,
                                dims[d],
                                a.shape()[d]
                            ))
                            .with_help("a mask must have the shape of the axes it selects from"));
                        }
                        let mask = a.to_vec::<bool>()?;
                        // Sized from the count first: a huge selection is an error, not an abort.
                        let hits = mask.iter().filter(|m| **m).count();
                        super::alloc::check_budget(
                            hits,
                            k * 8 + 2 * self.dtype().size(),
                            "selected elements",
                        )?;
                        let mut coords: Vec<Vec<i64>> = (0..k)
                            .map(|_| super::alloc::try_vec(hits, "selected elements"))
                            .collect::<Result<_>>()?;
                        for (flat, _) in mask.iter().enumerate().filter(|(_, m)| **m) {
                            let mut r = flat;
                            for d in (0..k).rev() {
                                coords[d].push((r % dims[d]) as i64);
                                r /= dims[d].max(1);
                            }
                        }
                        for (d, vals) in coords.into_iter().enumerate() {
                            let n = vals.len();
                            advs.push(Adv {
                                axis: shape.len(),
                                orig_axis: ax,
                                vals,
                                shape: vec![n],
                            });
                            shape.push(self.shape()[ax]);
                            strides.push(self.strides()[ax]);
                            ax += 1;
                            let _ = d;
                        }
                    } else if a.dtype().is_int() {
                        advs.push(Adv {
                            axis: shape.len(),
                            orig_axis: ax,
                            vals: a.to_vec::<i64>()?,
                            shape: a.shape().to_vec(),
                        });
                        shape.push(self.shape()[ax]);
                        strides.push(self.strides()[ax]);
                        ax += 1;
                    } else {
                        return Err(Error::index(format!(
                            "arrays used as indices must be of integer (or boolean) type, not {}",
                            a.dtype()
                        ))
                        .with_help("convert with .astype(int64)"));
                    }
                }
            }
        }
        let base = offset.max(0) as usize;
        if advs.is_empty() {
            return Ok(Selection::View(self.view(shape, strides, base)));
        }
        self.gather_plan(shape, strides, offset, advs)
    }

    fn gather_plan(
        &self,
        vshape: Vec<usize>,
        vstrides: Vec<isize>,
        offset: isize,
        mut advs: Vec<Adv>,
    ) -> Result<Selection> {
        let mut b: Vec<usize> = Vec::new();
        for a in &advs {
            b = broadcast_shapes(&b, &a.shape, "index").map_err(|_| {
                Error::index(format!(
                    "shape mismatch: indexing arrays could not be broadcast together with shapes {}",
                    advs.iter().map(|a| fmt_shape(&a.shape)).collect::<Vec<_>>().join(" ")
                ))
                .with_help("index arrays must broadcast to one shape")
            })?;
        }
        for a in &mut advs {
            let n = vshape[a.axis];
            for v in &mut a.vals {
                let j = if *v < 0 { *v + n as i64 } else { *v };
                if j < 0 || j >= n as i64 {
                    return Err(out_of_bounds(*v, a.orig_axis, n));
                }
                *v = j;
            }
        }
        let adv_axes: Vec<usize> = advs.iter().map(|a| a.axis).collect();
        let rest: Vec<usize> = (0..vshape.len())
            .filter(|d| !adv_axes.contains(d))
            .collect();
        let adjacent = adv_axes.windows(2).all(|w| w[1] == w[0] + 1);
        let first = adv_axes.first().copied().unwrap_or(0);
        // Output axes: Some(rest axis) or None for the broadcast index block.
        let mut slots: Vec<Option<usize>> = Vec::new();
        if adjacent {
            slots.extend(rest.iter().filter(|&&d| d < first).map(|&d| Some(d)));
            slots.push(None);
            slots.extend(rest.iter().filter(|&&d| d > first).map(|&d| Some(d)));
        } else {
            slots.push(None);
            slots.extend(rest.iter().map(|&d| Some(d)));
        }
        let mut out_shape = Vec::new();
        for s in &slots {
            match s {
                Some(d) => out_shape.push(vshape[*d]),
                None => out_shape.extend_from_slice(&b),
            }
        }
        let total = super::create::checked_numel(&out_shape, self.dtype())?;
        let idx_strides: Vec<Vec<isize>> = advs
            .iter()
            .map(|a| broadcast_strides(&a.shape, &contiguous_strides(&a.shape), &b))
            .collect();
        // The offsets and the gathered output are alive together.
        super::alloc::host_budget(total, self.dtype(), std::mem::size_of::<usize>())?;
        let mut offsets = super::alloc::try_vec(total, "index offsets")?;
        let mut pos = vec![0usize; out_shape.len()];
        for _ in 0..total {
            let mut off = offset;
            let mut k = 0;
            for s in &slots {
                match s {
                    Some(d) => {
                        off += pos[k] as isize * vstrides[*d];
                        k += 1;
                    }
                    None => {
                        for (a, st) in advs.iter().zip(&idx_strides) {
                            let flat: isize =
                                (0..b.len()).map(|j| pos[k + j] as isize * st[j]).sum();
                            off += a.vals[flat as usize] as isize * vstrides[a.axis];
                        }
                        k += b.len();
                    }
                }
            }
            offsets.push(off.max(0) as usize);
            for d in (0..pos.len()).rev() {
                pos[d] += 1;
                if pos[d] < out_shape[d] {
                    break;
                }
                pos[d] = 0;
            }
        }
        Ok(Selection::Gather {
            shape: out_shape,
            offsets,
        })
    }
}

/// Write `v` into every element of `a` (in place, its own buffer).
pub fn fill<T: Element>(a: &Array, v: T) -> Result<()> {
    a.assign(&[], &Array::scalar(v))
}
