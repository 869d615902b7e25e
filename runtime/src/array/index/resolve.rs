//! The first step of indexing: an index expression checked against the
//! array and put in NumPy's normal form — `...` and the implicit trailing
//! `:` expanded, index arrays and masks on the array's device, a mask
//! turned into the positions of its true elements (the one step that waits
//! for a GPU: how many there are is the result's shape), a 0-d boolean into
//! an index block of length 1 or 0 — plus the facts NumPy's special cases
//! turn on (an element taken by integers; one mask over every axis).

use super::Index;
use crate::array::Array;
use crate::backend;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// One item of a resolved index.
#[derive(Clone, Debug)]
pub enum Item {
    Int(i64),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    /// An integer array (any shape, 0-d too) on x's device.
    Ints(Array),
    /// A boolean mask over `shape` (that many axes of x): the C-order flat
    /// positions of its true elements, int64 on x's device.
    Mask {
        positions: Array,
        shape: Vec<usize>,
    },
    /// A 0-d boolean: an index block of length 1 (true) or 0 (false) that
    /// takes no axis.
    Bool(bool),
}

/// An index in normal form.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub items: Vec<Item>,
    /// Advanced indices with a `...` between them: NumPy puts their block
    /// first even when the `...` stands for no axis.
    pub split: bool,
    /// Every axis taken by an integer or a 0-d integer array and nothing
    /// else: NumPy's `x[i, j]` gives (and sets) one element, a copy.
    pub scalar: bool,
    /// One boolean array over every axis: NumPy's `x[mask] = v` takes a
    /// scalar or a 1-d value only.
    pub whole_mask: bool,
}

impl Resolved {
    /// The index arrays it holds (the positions of masks too).
    pub fn arrays(&self) -> impl Iterator<Item = &Array> {
        self.items.iter().filter_map(|i| match i {
            Item::Ints(a) | Item::Mask { positions: a, .. } => Some(a),
            _ => None,
        })
    }

    /// The same index with its arrays replaced by `f`'s (moved or copied).
    pub fn map_arrays(&self, mut f: impl FnMut(&Array) -> Array) -> Resolved {
        let items = self
            .items
            .iter()
            .map(|i| match i {
                Item::Ints(a) => Item::Ints(f(a)),
                Item::Mask { positions, shape } => Item::Mask {
                    positions: f(positions),
                    shape: shape.clone(),
                },
                other => other.clone(),
            })
            .collect();
        Resolved {
            items,
            split: self.split,
            scalar: self.scalar,
            whole_mask: self.whole_mask,
        }
    }
}

fn is_bool(i: &Index) -> bool {
    matches!(i, Index::Array(a) if a.dtype() == DType::Bool)
}

/// How many axes of x an item takes.
fn takes(i: &Index) -> usize {
    match i {
        Index::Int(_) | Index::Slice { .. } => 1,
        Index::Array(a) if a.dtype() == DType::Bool => a.ndim(),
        Index::Array(_) => 1,
        Index::NewAxis | Index::Ellipsis => 0,
    }
}

/// `idx` checked against `x` and put in normal form.
pub fn resolve(x: &Array, idx: &[Index]) -> Result<Resolved> {
    let nd = x.ndim();
    for i in idx {
        if let Index::Array(a) = i
            && a.dtype().is_float()
        {
            return Err(Error::index(format!(
                "arrays used as indices must be of integer (or boolean) type, not {}",
                a.dtype()
            ))
            .with_help("convert with .astype(int64), or compare to make a mask"));
        }
    }
    let used: usize = idx.iter().map(takes).sum();
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
        .with_help(format!(
            "use at most {nd} indices (a mask counts one per axis it covers)"
        )));
    }
    let has_adv = idx.iter().any(|i| matches!(i, Index::Array(_)));
    let is_adv =
        |i: &Index| matches!(i, Index::Array(_)) || (has_adv && matches!(i, Index::Int(_)));
    let split = match (idx.iter().position(is_adv), idx.iter().rposition(is_adv)) {
        (Some(f), Some(l)) => idx[f..l].iter().any(|i| matches!(i, Index::Ellipsis)),
        _ => false,
    };
    let scalar = !idx.is_empty()
        && used == nd
        && idx.iter().all(|i| match i {
            Index::Int(_) => true,
            Index::Array(a) => a.ndim() == 0 && a.dtype().is_int(),
            _ => false,
        });
    let whole_mask = idx.len() == 1 && is_bool(&idx[0]) && takes(&idx[0]) == nd;
    let mut items = Vec::with_capacity(idx.len() + nd - used);
    let mut ax = 0;
    for i in idx {
        match i {
            Index::Ellipsis => {
                for _ in 0..nd - used {
                    items.push(full());
                    ax += 1;
                }
            }
            Index::Int(v) => {
                items.push(Item::Int(*v));
                ax += 1;
            }
            Index::Slice { start, stop, step } => {
                items.push(Item::Slice {
                    start: *start,
                    stop: *stop,
                    step: *step,
                });
                ax += 1;
            }
            Index::NewAxis => items.push(Item::NewAxis),
            Index::Array(a) if a.dtype() == DType::Bool => {
                items.push(mask(x, a, ax)?);
                ax += a.ndim();
            }
            Index::Array(a) => {
                items.push(Item::Ints(backend::index::index_values(x, a)?));
                ax += 1;
            }
        }
    }
    if ellipses == 0 {
        items.extend((0..nd - used).map(|_| full()));
    }
    Ok(Resolved {
        items,
        split,
        scalar,
        whole_mask,
    })
}

fn full() -> Item {
    Item::Slice {
        start: None,
        stop: None,
        step: None,
    }
}

/// A boolean index `m` over the axes of `x` from `ax`.
fn mask(x: &Array, m: &Array, ax: usize) -> Result<Item> {
    if m.ndim() == 0 {
        // A 0-d mask's value decides the result's shape: read it (a wait on a GPU).
        let v = m.to_host()?.to_vec::<bool>()?;
        return Ok(Item::Bool(v.first().copied().unwrap_or(false)));
    }
    let dims = &x.shape()[ax..ax + m.ndim()];
    if m.shape() != dims {
        let d = (0..m.ndim())
            .find(|&d| m.shape()[d] != dims[d])
            .unwrap_or(0);
        return Err(Error::index(format!(
            "boolean index did not match indexed array along axis {}; size of axis is {} but size of corresponding boolean axis is {}",
            ax + d,
            dims[d],
            m.shape()[d]
        ))
        .with_help("a mask must have the shape of the axes it selects from"));
    }
    backend::index::check_index_device(x, m)?;
    let positions = backend::index::nonzero(m)?;
    Ok(Item::Mask {
        positions: backend::index::index_values(x, &positions)?,
        shape: m.shape().to_vec(),
    })
}
