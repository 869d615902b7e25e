//! The sorting and searching family's rows (issue 17): sort, argsort,
//! partition, argpartition, topk, searchsorted, unique, nonzero, argwhere,
//! flatnonzero, one-argument where, isin — over random shapes, dtypes and
//! axes (negative ones, none), empty and size-1 dims. Float data go through
//! `SPECIAL` first, which makes nans, infinities, signed zeros and many ties
//! from the small random values (the same expression in both languages);
//! ints get ties and zeros from `// 8`. gcalc's descending order (nans last,
//! stable) is NumPy's stable sort of `-x`; topk is its first k.

use crate::lit::{ALL_DTYPES, DType, Data, FLOATS, INTS, NUMERIC};
use crate::ops::{Arg, FnSpec};
use crate::outcome::Tol;

const fn arr(dtypes: &'static [DType], lo: usize, hi: usize) -> Arg {
    Arg::Array {
        dtypes,
        ndim: (lo, hi),
        data: Data::Small,
    }
}

const AXIS: Arg = Arg::Axis { of: 0, none: true };
const AXIS_ONLY: Arg = Arg::Axis { of: 0, none: false };

/// A float array of 0 to 3 dims with nans, infinities, ±0.0 and ties.
const F: Arg = arr(FLOATS, 0, 3);
/// An int array of 0 to 3 dims (ties and zeros come from `// 8`).
const I: Arg = arr(INTS, 0, 3);

/// `x` with nans (> 9), -infs (< -11), signed zeros (|x| < 2) and ties
/// (floor(x / 3)) — a float expression both languages read alike.
macro_rules! special {
    ($x:literal) => {
        concat!(
            "where(",
            $x,
            " > 9.0, ",
            $x,
            " * 0.0 / 0.0, where(",
            $x,
            " < -11.0, ",
            $x,
            " / 0.0, where(abs(",
            $x,
            ") < 2.0, ",
            $x,
            " * 0.0, floor(",
            $x,
            " / 3.0))))"
        )
    };
}
/// The same for NumPy.
macro_rules! np_special {
    ($x:literal) => {
        concat!(
            "np.where(",
            $x,
            " > 9.0, ",
            $x,
            " * 0.0 / 0.0, np.where(",
            $x,
            " < -11.0, ",
            $x,
            " / 0.0, np.where(np.abs(",
            $x,
            ") < 2.0, ",
            $x,
            " * 0.0, np.floor(",
            $x,
            " / 3.0))))"
        )
    };
}

/// The rows; `functions_match_numpy`'s sorting suite runs them on each device.
pub const SORTING: &[FnSpec] = &[
    FnSpec {
        name: "sort",
        gcalc: concat!("sort(", special!("{0}"), ", axis={1})"),
        numpy: concat!("np.sort(", np_special!("{0}"), ", axis={1})"),
        args: &[F, AXIS],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "sort_int_bool",
        gcalc: "sort({0} // 8, axis={1})",
        numpy: "np.sort({0} // 8, axis={1})",
        args: &[arr(ALL_DTYPES, 0, 3), AXIS],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "sort_bool",
        gcalc: "sort({0} > 0, axis={1})",
        numpy: "np.sort({0} > 0, axis={1})",
        args: &[arr(NUMERIC, 1, 3), AXIS],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "sort_descending",
        gcalc: concat!("sort(", special!("{0}"), ", axis={1}, descending=true)"),
        numpy: concat!("-np.sort(-", np_special!("{0}"), ", axis={1})"),
        args: &[F, AXIS],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "argsort",
        gcalc: concat!("argsort(", special!("{0}"), ", axis={1})"),
        numpy: concat!(
            "np.argsort(",
            np_special!("{0}"),
            ", axis={1}, kind='stable')"
        ),
        args: &[F, AXIS],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "argsort_int",
        gcalc: "argsort({0} // 8, axis={1}, stable=true)",
        numpy: "np.argsort({0} // 8, axis={1}, kind='stable')",
        args: &[arr(ALL_DTYPES, 0, 3), AXIS],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "argsort_descending",
        gcalc: concat!("argsort(", special!("{0}"), ", axis={1}, descending=true)"),
        numpy: concat!(
            "np.argsort(-",
            np_special!("{0}"),
            ", axis={1}, kind='stable')"
        ),
        args: &[F, AXIS],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "argsort_descending_int",
        gcalc: "argsort({0} // 8, axis={1}, descending=true)",
        numpy: "np.argsort(-({0} // 8), axis={1}, kind='stable')",
        args: &[I, AXIS],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "partition_kth_value",
        gcalc: concat!(
            "partition(",
            special!("{0}"),
            ", len({0}) // 2)[len({0}) // 2]"
        ),
        numpy: concat!(
            "np.partition(",
            np_special!("{0}"),
            ", len({0}) // 2)[len({0}) // 2]"
        ),
        args: &[arr(FLOATS, 1, 1)],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "partition_rows",
        gcalc: "partition({0} // 8, ({0}.shape[-1] - 1) // 2, axis=-1)[:, ({0}.shape[-1] - 1) // 2]",
        numpy: "np.partition({0} // 8, ({0}.shape[-1] - 1) // 2, axis=-1)[:, ({0}.shape[-1] - 1) // 2]",
        args: &[arr(NUMERIC, 2, 2)],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "partition_sorted_lanes",
        gcalc: "sort(partition({0} // 8, (0, -1), axis=0), axis=0)",
        numpy: "np.sort(np.partition({0} // 8, (0, -1), axis=0), axis=0)",
        args: &[arr(NUMERIC, 1, 3)],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "argpartition_kth_value",
        gcalc: "({0} // 8)[argpartition({0} // 8, len({0}) // 2)][len({0}) // 2]",
        numpy: "({0} // 8)[np.argpartition({0} // 8, len({0}) // 2)][len({0}) // 2]",
        args: &[arr(NUMERIC, 1, 1)],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "topk_values",
        gcalc: concat!(
            "topk(",
            special!("{0}"),
            ", {0}.shape[{1}] // 2, axis={1})[0]"
        ),
        numpy: concat!(
            "np.take(-np.sort(-",
            np_special!("{0}"),
            ", axis={1}), np.arange({0}.shape[{1}] // 2), axis={1})"
        ),
        args: &[arr(FLOATS, 1, 3), AXIS_ONLY],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "topk_indices",
        gcalc: concat!(
            "topk(",
            special!("{0}"),
            ", {0}.shape[{1}] - {0}.shape[{1}] // 3, axis={1})[1]"
        ),
        numpy: concat!(
            "np.take(np.argsort(-",
            np_special!("{0}"),
            ", axis={1}, kind='stable'), np.arange({0}.shape[{1}] - {0}.shape[{1}] // 3), axis={1})"
        ),
        args: &[arr(FLOATS, 1, 3), AXIS_ONLY],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "topk_smallest_int",
        gcalc: "topk({0} // 8, {0}.shape[-1] // 2, largest=false)[1]",
        numpy: "np.argsort({0} // 8, axis=-1, kind='stable')[..., :{0}.shape[-1] // 2]",
        args: &[arr(INTS, 1, 3)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "searchsorted",
        gcalc: "searchsorted(sort({0} // 8, axis=none), {1} // 8, side=if {2} { \"right\" } else { \"left\" })",
        numpy: "np.searchsorted(np.sort({0} // 8, axis=None), {1} // 8, side='right' if {2} else 'left')",
        args: &[
            arr(NUMERIC, 0, 3),
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (0, 2),
                data: Data::Small,
            },
            Arg::Bool,
        ],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "searchsorted_nan_sorter",
        gcalc: concat!(
            "searchsorted(",
            special!("{0}"),
            ", ",
            special!("{1}"),
            ", side=if {2} { \"right\" } else { \"left\" }, sorter=argsort(",
            special!("{0}"),
            "))"
        ),
        numpy: concat!(
            "np.searchsorted(",
            np_special!("{0}"),
            ", ",
            np_special!("{1}"),
            ", side='right' if {2} else 'left', sorter=np.argsort(",
            np_special!("{0}"),
            ", kind='stable'))"
        ),
        args: &[
            arr(FLOATS, 1, 1),
            Arg::Array {
                dtypes: FLOATS,
                ndim: (0, 2),
                data: Data::Small,
            },
            Arg::Bool,
        ],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique",
        gcalc: concat!("unique(", special!("{0}"), ")"),
        numpy: concat!("np.unique(", np_special!("{0}"), ")"),
        args: &[F],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "unique_int",
        gcalc: "unique({0} // 8)",
        numpy: "np.unique({0} // 8)",
        args: &[arr(ALL_DTYPES, 0, 3)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique_index",
        gcalc: concat!("unique(", special!("{0}"), ", return_index=true)[1]"),
        numpy: concat!("np.unique(", np_special!("{0}"), ", return_index=True)[1]"),
        args: &[F],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique_inverse",
        gcalc: concat!("unique(", special!("{0}"), ", return_inverse=true)[1]"),
        numpy: concat!(
            "np.unique(",
            np_special!("{0}"),
            ", return_inverse=True)[1]"
        ),
        args: &[F],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique_counts",
        gcalc: "unique({0} // 8, return_counts=true, return_index=true)[2]",
        numpy: "np.unique({0} // 8, return_counts=True, return_index=True)[2]",
        args: &[arr(ALL_DTYPES, 0, 3)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique_values_with_index",
        gcalc: concat!("unique(", special!("{0}"), ", return_index=true)[0]"),
        numpy: concat!("np.unique(", np_special!("{0}"), ", return_index=True)[0]"),
        args: &[F],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique_axis",
        gcalc: "unique({0} // 8, axis={1})",
        numpy: "np.unique({0} // 8, axis={1})",
        args: &[arr(NUMERIC, 1, 3), AXIS],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "unique_axis_inverse",
        gcalc: "unique({0} // 8, axis={1}, return_inverse=true)[1]",
        numpy: "np.unique({0} // 8, axis={1}, return_inverse=True)[1]",
        args: &[arr(NUMERIC, 1, 3), AXIS_ONLY],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "unique_axis_counts",
        gcalc: "unique({0} // 8, axis={1}, return_counts=true, return_index=true)[2]",
        numpy: "np.unique({0} // 8, axis={1}, return_counts=True, return_index=True)[2]",
        args: &[arr(NUMERIC, 1, 3), AXIS_ONLY],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "nonzero",
        gcalc: "nonzero({0} // 8)[{1}]",
        numpy: "np.nonzero({0} // 8)[{1}]",
        args: &[arr(ALL_DTYPES, 0, 3), AXIS_ONLY],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "nonzero_float",
        gcalc: concat!("nonzero(", special!("{0}"), ")[0]"),
        numpy: concat!("np.nonzero(", np_special!("{0}"), ")[0]"),
        args: &[F],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "argwhere",
        gcalc: "argwhere({0} // 8)",
        numpy: "np.argwhere({0} // 8)",
        args: &[arr(ALL_DTYPES, 0, 3)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "flatnonzero",
        gcalc: concat!("flatnonzero(", special!("{0}"), ")"),
        numpy: concat!("np.flatnonzero(", np_special!("{0}"), ")"),
        args: &[F],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "where_one_argument",
        gcalc: "where({0} // 8)[{1}]",
        numpy: "np.where({0} // 8)[{1}]",
        args: &[arr(ALL_DTYPES, 1, 3), AXIS_ONLY],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "isin",
        gcalc: concat!(
            "isin(",
            special!("{0}"),
            ", ",
            special!("{1}"),
            ", invert={2})"
        ),
        numpy: concat!(
            "np.isin(",
            np_special!("{0}"),
            ", ",
            np_special!("{1}"),
            ", invert={2})"
        ),
        args: &[
            F,
            Arg::Array {
                dtypes: FLOATS,
                ndim: (0, 2),
                data: Data::Small,
            },
            Arg::Bool,
        ],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "isin_mixed",
        gcalc: "isin({0} // 8, {1} // 8)",
        numpy: "np.isin({0} // 8, {1} // 8)",
        args: &[
            arr(NUMERIC, 0, 3),
            Arg::Array {
                dtypes: NUMERIC,
                ndim: (0, 2),
                data: Data::Small,
            },
        ],
        tol: Tol::Exact,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Case;
    use crate::ops::generate_for;
    use crate::rng::Rng;

    #[test]
    fn every_sorting_row_renders() {
        let mut rng = Rng::seeded(3);
        for spec in SORTING {
            for _ in 0..20 {
                let c = generate_for(&mut rng, spec);
                for p in [c.gcalc(), c.numpy()] {
                    assert!(
                        !p.contains("{0}") && !p.contains("{1}"),
                        "{}: {p}",
                        spec.name
                    );
                }
            }
        }
    }
}
