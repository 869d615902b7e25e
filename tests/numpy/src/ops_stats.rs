//! Rows of the statistics and scans family (issue 17): scans and
//! differences, order statistics, averages and covariances, the NaN-skipping
//! reductions, histograms. Run by the same differential tests as `ops::FUNCTIONS`.

use crate::lit::{ALL_DTYPES, DType, Data, FLOATS, NUMERIC};
use crate::ops::{Arg, FnSpec};
use crate::outcome::Tol;

const fn arr(dtypes: &'static [DType], lo: usize, hi: usize, data: Data) -> Arg {
    Arg::Array {
        dtypes,
        ndim: (lo, hi),
        data,
    }
}

const fn row(
    name: &'static str,
    gcalc: &'static str,
    numpy: &'static str,
    args: &'static [Arg],
    tol: Tol,
) -> FnSpec {
    FnSpec {
        name,
        gcalc,
        numpy,
        args,
        tol,
    }
}

const AXIS: Arg = Arg::Axis { of: 0, none: true };
const AXIS1: Arg = Arg::Axis { of: 0, none: false };
const NUM: Arg = arr(NUMERIC, 0, 3, Data::Small);
const NUM1: Arg = arr(NUMERIC, 1, 3, Data::Small);
const RAND: Arg = arr(FLOATS, 1, 3, Data::Random);
/// A `where=` mask: bools whose shape broadcasts to argument 0's.
const MASK: Arg = Arg::Broadcast {
    of: 0,
    dtypes: &[DType::Bool],
    data: Data::Small,
};

/// The family's rows.
pub const STATS: &[FnSpec] = &[
    // NumPy's `dtype=` of the reductions: cast first, give that dtype.
    row(
        "sum_dtype_f64",
        "sum({0}, axis={1}, dtype=float64)",
        "np.sum({0}, axis={1}, dtype=np.float64)",
        &[NUM, AXIS],
        Tol::Ulps(4),
    ),
    row(
        "sum_dtype_i32",
        "sum({0}, axis={1}, dtype=int32)",
        "np.sum({0}, axis={1}, dtype=np.int32)",
        &[
            arr(
                &[DType::Bool, DType::Int32, DType::Int64],
                0,
                3,
                Data::Small,
            ),
            AXIS,
        ],
        Tol::Exact,
    ),
    row(
        "mean_dtype_f64",
        "mean({0}, axis={1}, dtype=float64)",
        "np.mean({0}, axis={1}, dtype=np.float64)",
        &[NUM1, AXIS],
        Tol::Ulps(4),
    ),
    row(
        "prod_dtype_f64",
        "prod({0}, axis={1}, dtype=float64)",
        "np.prod({0}, axis={1}, dtype=np.float64)",
        &[NUM1, AXIS],
        Tol::Ulps(4),
    ),
    row(
        "var_dtype_f64",
        "var({0}, axis={1}, ddof=1, dtype=float64)",
        "np.var({0}, axis={1}, ddof=1, dtype=np.float64)",
        &[RAND, AXIS1],
        Tol::Ulps(64),
    ),
    // NumPy's `where=` and `initial=` (ops/reduce_where.rs): a bool mask
    // broadcasting to the data, lanes with nothing selected included.
    row(
        "sum_where",
        "sum({0}, axis={1}, where={2})",
        "np.sum({0}, axis={1}, where={2})",
        &[NUM, AXIS, MASK],
        Tol::Exact,
    ),
    row(
        "sum_initial",
        "sum({0}, axis={1}, initial=3)",
        "np.sum({0}, axis={1}, initial=3)",
        &[NUM, AXIS],
        Tol::Exact,
    ),
    row(
        "prod_where",
        "prod({0}, axis={1}, where={2})",
        "np.prod({0}, axis={1}, where={2})",
        &[RAND, AXIS, MASK],
        Tol::Ulps(8),
    ),
    row(
        "mean_where",
        "mean({0}, axis={1}, where={2})",
        "np.mean({0}, axis={1}, where={2})",
        &[NUM1, AXIS, MASK],
        Tol::Ulps(4),
    ),
    row(
        "var_where",
        "var({0}, axis={1}, where={2}, ddof={3})",
        "np.var({0}, axis={1}, where={2}, ddof={3})",
        &[RAND, AXIS, MASK, Arg::Choice(&[("0", "0"), ("1", "1")])],
        Tol::Ulps(64),
    ),
    row(
        "std_where",
        "std({0}, axis={1}, where={2})",
        "np.std({0}, axis={1}, where={2})",
        &[RAND, AXIS, MASK],
        Tol::Ulps(64),
    ),
    row(
        "max_where_initial",
        "max({0}, axis={1}, where={2}, initial=-100)",
        "np.max({0}, axis={1}, where={2}, initial=-100)",
        &[NUM, AXIS, MASK],
        Tol::Exact,
    ),
    row(
        "min_initial",
        "min({0}, axis={1}, initial=5)",
        "np.min({0}, axis={1}, initial=5)",
        &[NUM, AXIS],
        Tol::Exact,
    ),
    row(
        "any_all_where",
        "{3}({0}, axis={1}, where={2})",
        "np.{3}({0}, axis={1}, where={2})",
        &[
            arr(ALL_DTYPES, 0, 3, Data::Small),
            AXIS,
            MASK,
            Arg::Choice(&[("any", "any"), ("all", "all")]),
        ],
        Tol::Exact,
    ),
    row(
        "nanmean_where",
        "nanmean({0}, axis={1}, where={2})",
        "np.nanmean({0}, axis={1}, where={2})",
        &[arr(FLOATS, 1, 3, Data::Special), AXIS, MASK],
        Tol::Ulps(4),
    ),
    row(
        "cumsum",
        "cumsum({0}, axis={1})",
        "np.cumsum({0}, axis={1})",
        &[arr(ALL_DTYPES, 0, 3, Data::Small), AXIS],
        Tol::Exact,
    ),
    row(
        "cumprod",
        "cumprod({0}, axis={1})",
        "np.cumprod({0}, axis={1})",
        &[arr(NUMERIC, 1, 2, Data::Small), AXIS1],
        Tol::Ulps(4),
    ),
    row(
        "cummax",
        "cummax({0}, axis={1})",
        "np.maximum.accumulate({0}, axis={1})",
        &[NUM1, AXIS1],
        Tol::Exact,
    ),
    row(
        "cummin",
        "cummin({0}, axis={1})",
        "np.minimum.accumulate({0}, axis={1})",
        &[NUM1, AXIS1],
        Tol::Exact,
    ),
    row(
        "diff",
        "diff({0}, axis={1})",
        "np.diff({0}, axis={1})",
        &[NUM1, AXIS1],
        Tol::Exact,
    ),
    row(
        "diff_n2",
        "diff({0}, n=2, axis={1})",
        "np.diff({0}, n=2, axis={1})",
        &[NUM1, AXIS1],
        Tol::Exact,
    ),
    row(
        "median",
        "median({0}, axis={1}, keepdims={2})",
        "np.median({0}, axis={1}, keepdims={2})",
        &[NUM, AXIS, Arg::Bool],
        Tol::Ulps(1),
    ),
    row(
        "median_random",
        "median({0}, axis={1})",
        "np.median({0}, axis={1})",
        &[RAND, AXIS],
        Tol::Ulps(1),
    ),
    row(
        "percentile",
        "percentile({0}, 30, axis={1}, keepdims={2})",
        "np.percentile({0}, 30, axis={1}, keepdims={2})",
        &[NUM1, AXIS, Arg::Bool],
        Tol::Ulps(2),
    ),
    row(
        "percentile_random",
        "percentile({0}, 73.5, axis={1})",
        "np.percentile({0}, 73.5, axis={1})",
        &[RAND, AXIS],
        Tol::Ulps(8),
    ),
    row(
        "quantile_list",
        "quantile({0}, [0.0, 0.25, 0.5, 0.9, 1.0], axis={1})",
        "np.quantile({0}, [0.0, 0.25, 0.5, 0.9, 1.0], axis={1})",
        &[NUM1, AXIS],
        Tol::Ulps(2),
    ),
    row(
        "quantile_lower",
        "quantile({0}, 0.4, axis={1}, method=\"lower\")",
        "np.quantile({0}, 0.4, axis={1}, method='lower')",
        &[NUM1, AXIS],
        Tol::Exact,
    ),
    row(
        "quantile_nearest",
        "quantile({0}, [0.1, 0.5, 0.7], axis={1}, method=\"nearest\")",
        "np.quantile({0}, [0.1, 0.5, 0.7], axis={1}, method='nearest')",
        &[NUM1, AXIS],
        Tol::Exact,
    ),
    row(
        "quantile_midpoint",
        "quantile({0}, 0.35, axis={1}, method=\"midpoint\")",
        "np.quantile({0}, 0.35, axis={1}, method='midpoint')",
        &[NUM1, AXIS],
        Tol::Ulps(2),
    ),
    row(
        "average",
        "average({0}, axis={1}, keepdims={2})",
        "np.average({0}, axis={1}, keepdims={2})",
        &[NUM, AXIS, Arg::Bool],
        Tol::Ulps(1),
    ),
    row(
        "average_weights",
        "average({0}, weights={1})",
        "np.average({0}, weights={1})",
        &[
            NUM,
            Arg::Broadcast {
                of: 0,
                dtypes: NUMERIC,
                data: Data::Positive,
            },
        ],
        Tol::Ulps(2),
    ),
    row(
        "ptp",
        "ptp({0}, axis={1})",
        "np.ptp({0}, axis={1})",
        &[NUM1, AXIS],
        Tol::Exact,
    ),
    row(
        "count_nonzero",
        "count_nonzero({0}, axis={1})",
        "np.count_nonzero({0}, axis={1})",
        &[arr(ALL_DTYPES, 0, 3, Data::Small), AXIS],
        Tol::Exact,
    ),
    row(
        "nansum",
        "nansum({0}, axis={1})",
        "np.nansum({0}, axis={1})",
        &[NUM, AXIS],
        Tol::Ulps(1),
    ),
    row(
        "nanmean",
        "nanmean({0}, axis={1})",
        "np.nanmean({0}, axis={1})",
        &[NUM1, AXIS],
        Tol::Ulps(1),
    ),
    row(
        "nanmax",
        "nanmax({0}, axis={1})",
        "np.nanmax({0}, axis={1})",
        &[NUM1, AXIS],
        Tol::Exact,
    ),
    row(
        "nanstd",
        "nanstd({0}, axis={1})",
        "np.nanstd({0}, axis={1})",
        &[RAND, AXIS],
        Tol::Ulps(4),
    ),
    row(
        "nanargmin",
        "nanargmin({0}, axis={1})",
        "np.nanargmin({0}, axis={1})",
        &[NUM1, AXIS],
        Tol::Exact,
    ),
    row(
        "cov",
        "cov({0})",
        "np.cov({0})",
        &[arr(NUMERIC, 1, 2, Data::Small)],
        Tol::Ulps(64),
    ),
    row(
        "cov_rowvar",
        "cov({0}, rowvar=false, bias=true)",
        "np.cov({0}, rowvar=False, bias=True)",
        &[arr(FLOATS, 2, 2, Data::Small)],
        Tol::Ulps(64),
    ),
    row(
        "corrcoef",
        "corrcoef({0})",
        "np.corrcoef({0})",
        &[arr(FLOATS, 2, 2, Data::Random)],
        Tol::Ulps(64),
    ),
    // NumPy has no softmax: its formula, shifted by the lane's max
    // (initial=-inf so an empty lane is no error, as gcalc's). No
    // log_softmax row: near 0 its value is log(sum) with sum near 1, and
    // sums one ulp apart (gcalc adds in float64) differ by many ulps of it.
    row(
        "softmax",
        "softmax({0})",
        "(lambda e: e / np.sum(e, axis=-1, keepdims=True))(np.exp({0} - np.max({0}, axis=-1, keepdims=True, initial=-np.inf)))",
        &[RAND],
        Tol::Ulps(16),
    ),
    row(
        "logsumexp",
        "logsumexp({0})",
        "(lambda m: m + np.log(np.sum(np.exp({0} - m))))(np.max({0}, initial=-np.inf))",
        &[arr(FLOATS, 0, 3, Data::Random)],
        Tol::Ulps(16),
    ),
];
