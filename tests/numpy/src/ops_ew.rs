//! Rows of the function table for NumPy's elementwise functions of issue 17
//! (`runtime/src/ops/elementwise_math.rs`): values, dtypes, and the edge
//! cases NumPy defines (inf, -inf, nan, +-0, out-of-domain inputs, poles),
//! with tolerances in ulps of the result's dtype. `erf`/`erfc` (not in
//! NumPy) are compared with Python's `math.erf` (what `scipy.special.erf`
//! computes, to an ulp). Bool inputs are left out of the float functions:
//! NumPy gives float16 there, gcalc floatX (docs/LANGUAGE-REFERENCE.md).

use crate::lit::{ALL_DTYPES, Data, FLOATS, NUMERIC};
use crate::ops::{Arg, FnSpec, arr, bcast};
use crate::outcome::Tol;

/// A row of the table (also the random draws' rows).
pub(crate) const fn one(
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

const SPECIAL: &[Arg] = &[arr(NUMERIC, 0, 3, Data::Special)];
const UNIT: &[Arg] = &[arr(NUMERIC, 0, 3, Data::Unit)];
const SMALL: &[Arg] = &[arr(NUMERIC, 0, 3, Data::Small)];
const ANY_SPECIAL: &[Arg] = &[arr(ALL_DTYPES, 0, 3, Data::Special)];
const TWO_SPECIAL: &[Arg] = &[
    arr(NUMERIC, 0, 3, Data::Special),
    bcast(0, NUMERIC, Data::Special),
];
const TWO_POSITIVE: &[Arg] = &[
    arr(NUMERIC, 0, 3, Data::Positive),
    bcast(0, NUMERIC, Data::Positive),
];
const TWO_SMALL: &[Arg] = &[
    arr(NUMERIC, 0, 3, Data::Small),
    bcast(0, NUMERIC, Data::Small),
];
/// A float array with a weak float scalar (NEP 50: the array's dtype wins).
const WITH_SCALAR: &[Arg] = &[
    arr(FLOATS, 0, 3, Data::Special),
    Arg::Scalar {
        dtypes: FLOATS,
        data: Data::Random,
    },
];

/// The rows (run by `numpy_diff::ew_functions_match_numpy` and its GPU twin).
pub const EW_FUNCTIONS: &[FnSpec] = &[
    one(
        "log10",
        "log10({0})",
        "np.log10({0})",
        SPECIAL,
        Tol::Ulps(2),
    ),
    one("exp2", "exp2({0})", "np.exp2({0})", SPECIAL, Tol::Ulps(2)),
    one("cbrt", "cbrt({0})", "np.cbrt({0})", SPECIAL, Tol::Ulps(2)),
    one("square", "square({0})", "np.square({0})", SMALL, Tol::Exact),
    one(
        "reciprocal",
        "reciprocal({0})",
        "np.reciprocal({0})",
        SMALL,
        Tol::Exact,
    ),
    one(
        "trunc",
        "trunc({0})",
        "np.trunc({0})",
        ANY_SPECIAL,
        Tol::Exact,
    ),
    one("rint", "rint({0})", "np.rint({0})", SPECIAL, Tol::Exact),
    one("sinh", "sinh({0})", "np.sinh({0})", SPECIAL, Tol::Ulps(3)),
    one("cosh", "cosh({0})", "np.cosh({0})", SPECIAL, Tol::Ulps(3)),
    one(
        "arcsin",
        "arcsin({0})",
        "np.arcsin({0})",
        UNIT,
        Tol::Ulps(2),
    ),
    one(
        "arcsin_edges",
        "arcsin({0})",
        "np.arcsin({0})",
        SPECIAL,
        Tol::Ulps(2),
    ),
    one(
        "arccos",
        "arccos({0})",
        "np.arccos({0})",
        UNIT,
        Tol::Ulps(2),
    ),
    one(
        "arctan",
        "arctan({0})",
        "np.arctan({0})",
        SPECIAL,
        Tol::Ulps(2),
    ),
    one(
        "arcsinh",
        "arcsinh({0})",
        "np.arcsinh({0})",
        SPECIAL,
        Tol::Ulps(3),
    ),
    one(
        "arccosh",
        "arccosh({0})",
        "np.arccosh({0})",
        &[arr(NUMERIC, 0, 3, Data::AboveOne)],
        Tol::Ulps(3),
    ),
    one(
        "arccosh_edges",
        "arccosh({0})",
        "np.arccosh({0})",
        SPECIAL,
        Tol::Ulps(3),
    ),
    one(
        "arctanh",
        "arctanh({0})",
        "np.arctanh({0})",
        UNIT,
        Tol::Ulps(3),
    ),
    one(
        "arctanh_edges",
        "arctanh({0})",
        "np.arctanh({0})",
        SPECIAL,
        Tol::Ulps(3),
    ),
    one(
        "arctan2",
        "arctan2({0}, {1})",
        "np.arctan2({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(2),
    ),
    one(
        "arctan2_scalar",
        "arctan2({0}, {1})",
        "np.arctan2({0}, {1})",
        WITH_SCALAR,
        Tol::Ulps(2),
    ),
    one(
        "hypot",
        "hypot({0}, {1})",
        "np.hypot({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(1),
    ),
    one(
        "logaddexp",
        "logaddexp({0}, {1})",
        "np.logaddexp({0}, {1})",
        TWO_POSITIVE,
        Tol::Ulps(2),
    ),
    // Near a result of 0 (x = -0.02, y = -6) the sum cancels: NumPy's own
    // result is then tens of ulps from the truth (gcalc's a few), so the
    // edge rows check the infinities, nan and dtypes with a loose tolerance.
    one(
        "logaddexp_edges",
        "logaddexp({0}, {1})",
        "np.logaddexp({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(256),
    ),
    one(
        "logaddexp2",
        "logaddexp2({0}, {1})",
        "np.logaddexp2({0}, {1})",
        TWO_POSITIVE,
        Tol::Ulps(2),
    ),
    one(
        "logaddexp2_edges",
        "logaddexp2({0}, {1})",
        "np.logaddexp2({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(256),
    ),
    one(
        "copysign",
        "copysign({0}, {1})",
        "np.copysign({0}, {1})",
        TWO_SPECIAL,
        Tol::Exact,
    ),
    one(
        "fmod",
        "fmod({0}, {1})",
        "np.fmod({0}, {1})",
        TWO_SMALL,
        Tol::Exact,
    ),
    one(
        "fmod_edges",
        "fmod({0}, {1})",
        "np.fmod({0}, {1})",
        &[
            arr(FLOATS, 0, 3, Data::Special),
            bcast(0, FLOATS, Data::Special),
        ],
        Tol::Exact,
    ),
    one(
        "remainder",
        "remainder({0}, {1})",
        "np.remainder({0}, {1})",
        TWO_SMALL,
        Tol::Exact,
    ),
    one(
        "erf",
        "erf({0})",
        "np.vectorize(__import__('math').erf, otypes=[float])({0}).astype({0}.dtype if {0}.dtype.kind == 'f' else np.float64)",
        SPECIAL,
        Tol::Ulps(2),
    ),
    one(
        "erfc",
        "erfc({0})",
        "np.vectorize(__import__('math').erfc, otypes=[float])({0}).astype({0}.dtype if {0}.dtype.kind == 'f' else np.float64)",
        SPECIAL,
        Tol::Ulps(4),
    ),
    one(
        "isinf",
        "isinf({0})",
        "np.isinf({0})",
        ANY_SPECIAL,
        Tol::Exact,
    ),
    one(
        "isposinf",
        "isposinf({0})",
        "np.isposinf({0})",
        ANY_SPECIAL,
        Tol::Exact,
    ),
    one(
        "isneginf",
        "isneginf({0})",
        "np.isneginf({0})",
        ANY_SPECIAL,
        Tol::Exact,
    ),
    one(
        "signbit",
        "signbit({0})",
        "np.signbit({0})",
        ANY_SPECIAL,
        Tol::Exact,
    ),
    one(
        "nan_to_num",
        "nan_to_num({0})",
        "np.nan_to_num({0})",
        ANY_SPECIAL,
        Tol::Exact,
    ),
    one(
        "nan_to_num_keywords",
        "nan_to_num({0}, nan=1.5, posinf=2.0, neginf=-3)",
        "np.nan_to_num({0}, nan=1.5, posinf=2.0, neginf=-3)",
        &[arr(FLOATS, 0, 3, Data::Special)],
        Tol::Exact,
    ),
    one(
        "deg2rad",
        "deg2rad({0})",
        "np.deg2rad({0})",
        SPECIAL,
        Tol::Exact,
    ),
    one(
        "rad2deg",
        "rad2deg({0})",
        "np.rad2deg({0})",
        SPECIAL,
        Tol::Exact,
    ),
    one(
        "heaviside",
        "heaviside({0}, {1})",
        "np.heaviside({0}, {1})",
        TWO_SPECIAL,
        Tol::Exact,
    ),
];
