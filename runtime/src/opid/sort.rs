//! The sorting and searching family: `sort argsort partition argpartition
//! topk searchsorted unique nonzero argwhere flatnonzero isin` (and the
//! one-argument `where`, which is `nonzero`). `SortOp` names the table
//! entries; `SortJob` is what a backend computes once the ops layer has
//! checked the arguments and laid the data out (lanes along the last axis
//! of a contiguous array): `cpu/sort` and `cuda/sort` match every job with
//! no wildcard arm.

use crate::array::Array;

/// One list gives the enum, `ALL` and each name (the op-table name).
macro_rules! sort_ops {
    ($($v:ident $n:literal),* $(,)?) => {
        /// An op of the sorting family (`ops/sort.rs` holds the entries).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum SortOp {
            $($v),*
        }

        impl SortOp {
            /// Every op of the family, in table order.
            pub const ALL: &'static [SortOp] = &[$(SortOp::$v),*];

            /// The op-table name (`argsort`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(SortOp::$v => $n),*
                }
            }
        }
    };
}

sort_ops! {
    Sort "sort",
    Argsort "argsort",
    Partition "partition",
    Argpartition "argpartition",
    Topk "topk",
    Searchsorted "searchsorted",
    Unique "unique",
    Nonzero "nonzero",
    Argwhere "argwhere",
    Flatnonzero "flatnonzero",
    Isin "isin",
}

/// What a backend computes. Arrays are on one device; `x` of the lane jobs
/// is C-contiguous (offset 0 or not) with its lanes along the last axis and
/// no zero-size dimension (the ops layer answers empty inputs itself).
/// Results are new contiguous arrays on the same device, in the order the
/// job lists them; indices are int64.
pub enum SortJob<'a> {
    /// Every lane sorted, ascending or descending, nans last either way;
    /// stable (equal elements keep their order). Gives the values (x's
    /// dtype) when `values`, then the lane positions when `indices`.
    Sort {
        x: &'a Array,
        descending: bool,
        values: bool,
        indices: bool,
    },
    /// Every lane arranged so that the element at each position of `kth`
    /// (ascending, distinct, inside the lane) is the one a sort puts there,
    /// smaller ones before it and larger ones after (in any order). Values
    /// and/or positions as for `Sort`.
    Partition {
        x: &'a Array,
        kth: &'a [usize],
        values: bool,
        indices: bool,
    },
    /// The first `k` (1 <= k <= lane) elements of every lane as a stable
    /// sort puts them (descending when `largest`; nans last): values, then
    /// positions; shape (rows..., k).
    Topk {
        x: &'a Array,
        k: usize,
        largest: bool,
    },
    /// For each element of `v` (any shape), where it goes in the 1-d `a`
    /// (sorted ascending, nans last; through `sorter`, int64 positions
    /// checked to lie in `a`, when given) to keep it sorted: before equal
    /// elements, or after them when `right`. `a` and `v` have one dtype;
    /// gives int64 of `v`'s shape.
    Searchsorted {
        a: &'a Array,
        v: &'a Array,
        right: bool,
        sorter: Option<&'a Array>,
    },
    /// The sorted distinct elements of `x` (flattened; -0.0 equals 0.0, and
    /// every nan is one element when `equal_nan`), then as asked: the flat
    /// position of each one's first occurrence, the index into the result
    /// of every element of `x` (x's shape), and each one's count.
    Unique {
        x: &'a Array,
        index: bool,
        inverse: bool,
        counts: bool,
        equal_nan: bool,
    },
    /// The coordinates of the nonzero elements of `x` (ndim >= 1) in C
    /// order, as one (ndim, count) int64 array.
    Nonzero { x: &'a Array },
    /// The flat positions of the nonzero elements of `x`, int64 (count,).
    Flatnonzero { x: &'a Array },
    /// Whether each element of `x` equals some element of `test` (one dtype
    /// with `x`; nan equals nothing); negated when `invert`. Bool, x's shape.
    Isin {
        x: &'a Array,
        test: &'a Array,
        invert: bool,
    },
    /// The gradient of a permutation: zeros of shape (rows..., n) of `g`'s
    /// dtype, with `g[r, j]` stored at lane position `idx[r, j]` (int64,
    /// distinct within a lane; `g` and `idx` contiguous, one shape).
    ScatterLanes {
        g: &'a Array,
        idx: &'a Array,
        n: usize,
    },
}

impl SortJob<'_> {
    /// The op a job serves, for messages.
    pub fn what(&self) -> &'static str {
        match self {
            SortJob::Sort { indices: true, .. } => "argsort",
            SortJob::Sort { .. } => "sort",
            SortJob::Partition { .. } => "partition",
            SortJob::Topk { .. } => "topk",
            SortJob::Searchsorted { .. } => "searchsorted",
            SortJob::Unique { .. } => "unique",
            SortJob::Nonzero { .. } => "nonzero",
            SortJob::Flatnonzero { .. } => "flatnonzero",
            SortJob::Isin { .. } => "isin",
            SortJob::ScatterLanes { .. } => "the gradient of sort",
        }
    }
}
