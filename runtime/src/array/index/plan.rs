//! The second step of indexing: a resolved index laid over an array's
//! layout (shape, strides, offset) gives the `Select` the backends run.
//! Ints and slices move the start and the strides (checked here, on the
//! host: they are the program's own numbers); index arrays and masks become
//! entries whose values stay on the device. NumPy's rule for where the
//! index block goes: where the advanced indices stand when they are
//! adjacent (ints among them count as advanced), else first.

use super::resolve::{Item, Resolved};
use super::slice_range;
use crate::array::layout::{broadcast_shapes, broadcast_strides, fmt_shape};
use crate::array::select::{Entry, EntryKind, Select, out_of_bounds};
use crate::error::{Error, Result};

/// An output dimension before the index block is placed.
enum Slot {
    Dim(usize, isize),
    Adv,
}

/// The selection `r` makes in a view of `shape`/`strides` from `offset`.
pub fn select(shape: &[usize], strides: &[isize], offset: usize, r: &Resolved) -> Result<Select> {
    let has_adv = r
        .items
        .iter()
        .any(|i| matches!(i, Item::Ints(_) | Item::Mask { .. } | Item::Bool(_)));
    let mut slots = Vec::with_capacity(r.items.len());
    let mut off = offset as isize;
    let mut ax = 0;
    // Each advanced item's shape (for the broadcast) and its entry, if it reads values.
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    let mut pending: Vec<(crate::array::Array, EntryKind)> = Vec::new();
    for it in &r.items {
        match it {
            Item::Int(i) => {
                let n = shape[ax];
                let j = if *i < 0 { *i + n as i64 } else { *i };
                if j < 0 || j >= n as i64 {
                    return Err(out_of_bounds(*i, ax, n));
                }
                off += j as isize * strides[ax];
                if has_adv {
                    slots.push(Slot::Adv);
                }
                ax += 1;
            }
            Item::Slice { start, stop, step } => {
                let (b, len, st) = slice_range(*start, *stop, *step, shape[ax])?;
                off += b as isize * strides[ax];
                slots.push(Slot::Dim(len, strides[ax] * st as isize));
                ax += 1;
            }
            Item::NewAxis => slots.push(Slot::Dim(1, 0)),
            Item::Ints(a) => {
                blocks.push(a.shape().to_vec());
                let kind = EntryKind::Axis {
                    len: shape[ax],
                    stride: strides[ax],
                    axis: ax,
                };
                pending.push((a.clone(), kind));
                slots.push(Slot::Adv);
                ax += 1;
            }
            Item::Mask {
                positions,
                shape: ms,
            } => {
                let k = ms.len();
                let (lens, st) = merge(&shape[ax..ax + k], &strides[ax..ax + k]);
                blocks.push(vec![positions.size()]);
                pending.push((positions.clone(), EntryKind::Flat { lens, strides: st }));
                slots.push(Slot::Adv);
                ax += k;
            }
            Item::Bool(b) => {
                blocks.push(vec![*b as usize]);
                slots.push(Slot::Adv);
            }
        }
    }
    let mut bshape: Vec<usize> = Vec::new();
    for b in &blocks {
        bshape = broadcast_shapes(&bshape, b, "index").map_err(|_| {
            Error::index(format!(
                "shape mismatch: indexing arrays could not be broadcast together with shapes {}",
                blocks
                    .iter()
                    .map(|s| fmt_shape(s))
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
            .with_help("index arrays (and masks, by their number of true elements) must broadcast to one shape")
        })?;
    }
    let first = slots.iter().position(|s| matches!(s, Slot::Adv));
    let last = slots.iter().rposition(|s| matches!(s, Slot::Adv));
    let adjacent = match (first, last) {
        (Some(f), Some(l)) => !r.split && slots[f..=l].iter().all(|s| matches!(s, Slot::Adv)),
        _ => true,
    };
    let dims = |ss: &[Slot]| -> Vec<(usize, isize)> {
        ss.iter()
            .filter_map(|s| match s {
                Slot::Dim(n, st) => Some((*n, *st)),
                Slot::Adv => None,
            })
            .collect()
    };
    let (before, after) = match (first, adjacent) {
        (None, _) => (dims(&slots), vec![]),
        (Some(f), true) => (dims(&slots[..f]), dims(&slots[f..])),
        (Some(_), false) => (vec![], dims(&slots)),
    };
    let nb = bshape.len();
    let start = before.len();
    let mut out_shape: Vec<usize> = before.iter().map(|d| d.0).collect();
    let mut out_strides: Vec<isize> = before.iter().map(|d| d.1).collect();
    out_shape.extend(&bshape);
    out_strides.extend(std::iter::repeat_n(0, nb));
    out_shape.extend(after.iter().map(|d| d.0));
    out_strides.extend(after.iter().map(|d| d.1));
    let entries = pending
        .into_iter()
        .map(|(values, kind)| {
            let b = broadcast_strides(values.shape(), values.strides(), &bshape);
            let mut vstrides = vec![0isize; out_shape.len()];
            vstrides[start..start + nb].copy_from_slice(&b);
            Entry {
                values,
                vstrides,
                kind,
            }
        })
        .collect();
    // An empty selection starts at 0: nothing is read, and 0 is always in the buffer.
    let offset = if out_shape.contains(&0) {
        0
    } else {
        off.max(0) as usize
    };
    Ok(Select {
        shape: out_shape,
        strides: out_strides,
        offset,
        block: start..start + nb,
        entries,
        advanced: has_adv,
    })
}

/// A mask's axes merged where C-order positions step evenly through the
/// buffer (axes of length 1 dropped): fewer dims for the flat positions.
fn merge(lens: &[usize], strides: &[isize]) -> (Vec<usize>, Vec<isize>) {
    let (mut l, mut s): (Vec<usize>, Vec<isize>) = (Vec::new(), Vec::new());
    for (&n, &st) in lens.iter().zip(strides) {
        if n == 1 {
            continue;
        }
        match (l.last_mut(), s.last_mut()) {
            (Some(pn), Some(ps)) if *ps == st * n as isize => {
                *pn *= n;
                *ps = st;
            }
            _ => {
                l.push(n);
                s.push(st);
            }
        }
    }
    (l, s)
}
