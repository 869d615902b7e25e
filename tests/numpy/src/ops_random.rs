//! Rows of the function table for the random draws of issue 17
//! (`runtime/src/ops/random_draws.rs`). gcalc's numbers are not NumPy's
//! (Philox and its own samplers, not PCG64), so each row compares what is
//! the same whatever the generator: the multiset of rows of a permutation or
//! a full sample without replacement (summed along axis 0, exact on `Small`
//! data), draws of degenerate distributions (p = 0 or 1, zero rates and
//! scales: their values are certain), the shapes and dtypes of all of them
//! (parameter arrays with size-0 and size-1 dims), and NumPy's errors for
//! bad parameters (negative scale or rate, p outside [0, 1], a sample larger
//! than the population without replacement).

use crate::lit::{ALL_DTYPES, DType, Data, FLOATS};
use crate::ops::{Arg, FnSpec, arr};
use crate::ops_ew::one;
use crate::outcome::Tol;

const INTS: &[DType] = &[DType::Int32, DType::Int64];

const fn row(
    name: &'static str,
    gcalc: &'static str,
    numpy: &'static str,
    args: &'static [Arg],
) -> FnSpec {
    one(name, gcalc, numpy, args, Tol::Exact)
}

/// The rows (run by `numpy_diff::random_functions_match_numpy` and its GPU twin).
pub const RANDOM_FUNCTIONS: &[FnSpec] = &[
    row(
        "permutation_rows",
        "sum(permutation({0}), axis=0)",
        "np.sum(np.random.default_rng(1).permutation({0}), axis=0)",
        &[arr(ALL_DTYPES, 1, 3, Data::Small)],
    ),
    row(
        "choice_all_rows",
        "sum(choice({0}, len({0}), replace=false), axis=0)",
        "np.sum(np.random.default_rng(1).choice({0}, len({0}), replace=False), axis=0)",
        &[arr(ALL_DTYPES, 1, 3, Data::Small)],
    ),
    row(
        "choice_too_many",
        "choice({0}, len({0}) + 1, replace=false)",
        "np.random.default_rng(1).choice({0}, len({0}) + 1, replace=False)",
        &[arr(ALL_DTYPES, 1, 2, Data::Small)],
    ),
    row(
        "binomial_certain",
        "binomial({0}, 1.0)",
        "np.random.default_rng(1).binomial({0}, 1.0)",
        &[arr(INTS, 0, 3, Data::Positive)],
    ),
    row(
        "binomial_never",
        "binomial({0}, 0.0)",
        "np.random.default_rng(1).binomial({0}, 0.0)",
        &[arr(INTS, 0, 3, Data::Positive)],
    ),
    row(
        "binomial_bad_p",
        "binomial({0}, 1.5)",
        "np.random.default_rng(1).binomial({0}, 1.5)",
        &[arr(INTS, 1, 3, Data::Positive)],
    ),
    row(
        "poisson_zero",
        "poisson(0.0 * {0})",
        "np.random.default_rng(1).poisson(0.0 * {0})",
        &[arr(FLOATS, 0, 3, Data::Small)],
    ),
    row(
        "poisson_negative",
        "poisson(-abs({0}))",
        "np.random.default_rng(1).poisson(-np.abs({0}))",
        &[arr(FLOATS, 1, 3, Data::Small)],
    ),
    row(
        "exponential_zero",
        "exponential(0.0 * {0})",
        "np.random.default_rng(1).exponential(0.0 * {0})",
        &[arr(FLOATS, 0, 3, Data::Small)],
    ),
    row(
        "exponential_negative",
        "exponential(-abs({0}))",
        "np.random.default_rng(1).exponential(-np.abs({0}))",
        &[arr(FLOATS, 1, 3, Data::Small)],
    ),
    row(
        "gamma_zero_scale",
        "gamma(abs({0}), 0.0)",
        "np.random.default_rng(1).gamma(np.abs({0}), 0.0)",
        &[arr(FLOATS, 0, 3, Data::Small)],
    ),
    row(
        "gamma_negative_shape",
        "gamma(-abs({0}))",
        "np.random.default_rng(1).gamma(-np.abs({0}))",
        &[arr(FLOATS, 1, 3, Data::Small)],
    ),
    row(
        "beta_zero",
        "beta(0.0 * {0}, 1.0)",
        "np.random.default_rng(1).beta(0.0 * {0}, 1.0)",
        &[arr(FLOATS, 1, 3, Data::Small)],
    ),
];
