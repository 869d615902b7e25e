//! The typed selection of `x[idx]`, as both backends run it (what
//! `fused::Program` is to elementwise trees): the output's shape, where each
//! output element lies in x's buffer — a strided part from ints, slices and
//! new axes, plus what each index array adds — and the index arrays
//! themselves, left on x's device. `array/index` builds it from an index
//! expression; `cpu/index` walks it on the host, `cuda/index` passes it to
//! the kernels by value, so index arrays are never read by the host.

use super::Array;
use super::layout::fmt_shape;
use crate::error::Error;

/// What one index array adds to an output element's position.
#[derive(Clone, Debug)]
pub enum EntryKind {
    /// Positions along one axis of x (`axis` in errors) of length `len` and
    /// buffer stride `stride`: negative ones count from the end, and each is
    /// checked against `len` when it is used.
    Axis {
        len: usize,
        stride: isize,
        axis: usize,
    },
    /// C-order flat positions over axes of these lengths and strides: the
    /// true elements of a boolean mask (always in range).
    Flat {
        lens: Vec<usize>,
        strides: Vec<isize>,
    },
}

/// One index array of an advanced index.
#[derive(Clone, Debug)]
pub struct Entry {
    /// int32 or int64 values on x's device, any layout.
    pub values: Array,
    /// Per output dimension, the step through `values` (its strides broadcast
    /// to the index block; 0 outside the block).
    pub vstrides: Vec<isize>,
    pub kind: EntryKind,
}

/// Where the elements of `x[idx]` are in x's buffer.
#[derive(Clone, Debug)]
pub struct Select {
    /// The shape of `x[idx]`.
    pub shape: Vec<usize>,
    /// Per output dimension, its buffer stride (0 on the index block's dims
    /// and on new axes).
    pub strides: Vec<isize>,
    /// The buffer position of output element 0 before the entries add
    /// theirs (0 when the selection is empty).
    pub offset: usize,
    /// The output dims of the broadcast index arrays (empty for basic indexing).
    pub block: std::ops::Range<usize>,
    pub entries: Vec<Entry>,
    /// An advanced index (arrays, masks, 0-d bools, 0-d int arrays): reading
    /// it copies, as NumPy's does; otherwise the selection is a view.
    pub advanced: bool,
}

impl Select {
    /// The number of selected elements.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// The number of positions of the index block (NumPy checks index
    /// values only when this is not zero).
    pub fn block_size(&self) -> usize {
        self.shape[self.block.clone()].iter().product()
    }

    /// Whether two selected elements can be the same element of x (an index
    /// array may repeat a position; a mask's positions never repeat).
    pub fn may_repeat(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e.kind, EntryKind::Axis { .. }))
    }

    /// The view of `x`'s buffer a selection without index arrays is.
    pub fn as_view(&self, x: &Array) -> Option<Array> {
        self.entries
            .is_empty()
            .then(|| x.view(self.shape.clone(), self.strides.clone(), self.offset))
    }
}

/// NumPy's message for an index out of range.
pub fn out_of_bounds(i: i64, axis: usize, size: usize) -> Error {
    Error::index(format!(
        "index {i} is out of bounds for axis {axis} with size {size}"
    ))
    .with_help(match size {
        0 => format!("axis {axis} is empty: no index is valid"),
        _ => format!("valid indices are -{size}..{}", size as i64 - 1),
    })
}

/// The lowest and highest buffer positions a view of `shape`/`strides`
/// from `offset` touches (`None` when it is empty).
pub fn span(shape: &[usize], strides: &[isize], offset: usize) -> Option<(usize, usize)> {
    if shape.contains(&0) {
        return None;
    }
    let (mut lo, mut hi) = (offset as isize, offset as isize);
    for (&n, &s) in shape.iter().zip(strides) {
        let reach = (n as isize - 1) * s;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    Some((lo.max(0) as usize, hi.max(0) as usize))
}

/// An error for selections a GPU kernel cannot take (more dims or index
/// arrays than its parameter block holds).
pub fn too_complex(what: &str, n: usize, max: usize, shape: &[usize]) -> Error {
    Error::value(format!(
        "this index gives {n} {what} (shape {}); a GPU index takes at most {max}",
        fmt_shape(shape)
    ))
    .with_help("index in two steps, or reshape first")
}
