//! Rows of the "more NumPy math" family (issues 17/18 breadth:
//! `runtime/src/ops/npmath*.rs`): comparisons and tests, the NaN-ignoring
//! and integer elementwise functions, float decompositions, calculus and
//! signal helpers, the NaN-skipping quantiles and the array-API
//! linear-algebra names. Run by `core` `npmath_matches_numpy` and `gpu`
//! `gpu_npmath_matches_numpy`.

use crate::lit::{ALL_DTYPES, DType, Data, FLOATS, INTS, NUMERIC};
use crate::ops::{Arg, FnSpec, arr, bcast};
use crate::ops_ew::one as row;
use crate::outcome::Tol;

const AXIS: Arg = Arg::Axis { of: 0, none: true };
const AXIS1: Arg = Arg::Axis { of: 0, none: false };
const SPECIAL: Arg = arr(NUMERIC, 0, 3, Data::Special);
const FSPECIAL: Arg = arr(FLOATS, 0, 3, Data::Special);
const FSPECIAL1: Arg = arr(FLOATS, 1, 3, Data::Special);
const SMALL: Arg = arr(NUMERIC, 0, 3, Data::Small);
const SMALL1: Arg = arr(NUMERIC, 1, 3, Data::Small);
const RAND1: Arg = arr(FLOATS, 1, 3, Data::Random);
const TWO_SPECIAL: &[Arg] = &[SPECIAL, bcast(0, NUMERIC, Data::Special)];
const TWO_SMALL: &[Arg] = &[SMALL, bcast(0, NUMERIC, Data::Small)];
const TWO_INTS: &[Arg] = &[arr(INTS, 0, 3, Data::Small), bcast(0, INTS, Data::Small)];
const F64: &[DType] = &[DType::Float64];
/// Chains of one dtype only: NumPy's float32 products round in BLAS's order.
const fn lab(labels: &'static str) -> Arg {
    Arg::Labeled {
        labels,
        dtypes: F64,
        data: Data::Random,
    }
}

/// Binary ufuncs for the method rows.
const UFUNCS: &[(&str, &str)] = &[
    ("add", "add"),
    ("multiply", "multiply"),
    ("maximum", "maximum"),
    ("minimum", "minimum"),
    ("subtract", "subtract"),
];

/// Bounds of `clip` as (gcalc, NumPy) texts.
const CLIP_BOUNDS: &[(&str, &str)] = &[
    ("-3, none", "-3, None"),
    ("none, 2", "None, 2"),
    ("-3, 2", "-3, 2"),
    ("a_min=-1.5, a_max=4", "a_min=-1.5, a_max=4"),
    ("min=0", "min=0"),
    ("max=-2", "max=-2"),
    ("none, none", "None, None"),
];
const CLIP_METHOD: &[(&str, &str)] = &[
    ("min=1", "min=1"),
    ("max=1", "max=1"),
    ("0", "0"),
    ("-2, 5", "-2, 5"),
];

/// The family's rows. `fmax fmin` compare with -0.0 == 0.0 (Ulps(0)): which
/// zero C's fmax gives for (-0.0, 0.0) is unspecified (CUDA's may differ).
pub const NPMATH: &[FnSpec] = &[
    // clip's optional bounds (`ops/clip_call.rs`): positional none, NumPy's
    // a_min/a_max and min/max, the method with one bound.
    row(
        "clip_bounds",
        "clip({0}, {1})",
        "np.clip({0}, {1})",
        &[SPECIAL, Arg::Choice(CLIP_BOUNDS)],
        Tol::Exact,
    ),
    // ufunc methods (`ops/ufunc_methods.rs`): the op's reduction or scan
    // where gcalc has one, a fold with the op itself otherwise.
    row(
        "ufunc_reduce",
        "{1}.reduce({0}, axis={2})",
        "np.{1}.reduce({0}, axis={2})",
        &[SMALL1, Arg::Choice(UFUNCS), AXIS],
        Tol::Ulps(4),
    ),
    row(
        "ufunc_accumulate",
        "{1}.accumulate({0}, axis={2})",
        "np.{1}.accumulate({0}, axis={2})",
        &[SMALL1, Arg::Choice(UFUNCS), AXIS1],
        Tol::Ulps(4),
    ),
    row(
        "ufunc_outer",
        "{1}.outer({0}, {2})",
        "np.{1}.outer({0}, {2})",
        &[SMALL, Arg::Choice(UFUNCS), SMALL],
        Tol::Ulps(4),
    ),
    row(
        "clip_method",
        "({0}).clip({1})",
        "({0}).clip({1})",
        &[SMALL, Arg::Choice(CLIP_METHOD)],
        Tol::Exact,
    ),
    row(
        "isclose",
        "isclose({0}, {1})",
        "np.isclose({0}, {1})",
        TWO_SPECIAL,
        Tol::Exact,
    ),
    row(
        "isclose_kw",
        "isclose({0}, {1}, rtol=0.25, atol=0.5, equal_nan=true)",
        "np.isclose({0}, {1}, rtol=0.25, atol=0.5, equal_nan=True)",
        TWO_SPECIAL,
        Tol::Exact,
    ),
    row(
        "array_equal",
        "array_equal({0}, {1})",
        "np.array_equal({0}, {1})",
        &[SMALL, bcast(0, NUMERIC, Data::Small)],
        Tol::Exact,
    ),
    row(
        "array_equal_self",
        "array_equal({0}, {0} + 0, equal_nan={1})",
        "np.array_equal({0}, {0} + 0, equal_nan={1})",
        &[FSPECIAL, Arg::Bool],
        Tol::Exact,
    ),
    row(
        "array_equiv",
        "array_equiv({0}, {1})",
        "np.array_equiv({0}, {1})",
        &[arr(INTS, 0, 3, Data::Unit), bcast(0, INTS, Data::Unit)],
        Tol::Exact,
    ),
    row(
        "isscalar",
        "isscalar({0})",
        "np.isscalar({0})",
        &[SMALL],
        Tol::Exact,
    ),
    row(
        "isscalar_number",
        "isscalar({0})",
        "np.isscalar({0})",
        &[Arg::Scalar {
            dtypes: NUMERIC,
            data: Data::Small,
        }],
        Tol::Exact,
    ),
    row(
        "logical_xor",
        "logical_xor({0}, {1})",
        "np.logical_xor({0}, {1})",
        &[
            arr(ALL_DTYPES, 0, 3, Data::Unit),
            bcast(0, ALL_DTYPES, Data::Unit),
        ],
        Tol::Exact,
    ),
    row(
        "fmax",
        "fmax({0}, {1})",
        "np.fmax({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(0),
    ),
    row(
        "fmin",
        "fmin({0}, {1})",
        "np.fmin({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(0),
    ),
    row(
        "positive",
        "positive({0})",
        "np.positive({0})",
        &[SPECIAL],
        Tol::Exact,
    ),
    row(
        "absolute",
        "absolute({0})",
        "np.absolute({0})",
        &[SPECIAL],
        Tol::Exact,
    ),
    row("fabs", "fabs({0})", "np.fabs({0})", &[SPECIAL], Tol::Exact),
    row(
        "amax",
        "amax({0}, axis={1}, keepdims={2})",
        "np.amax({0}, axis={1}, keepdims={2})",
        &[SMALL1, AXIS, Arg::Bool],
        Tol::Exact,
    ),
    row(
        "amin",
        "amin({0}, axis={1})",
        "np.amin({0}, axis={1})",
        &[SMALL1, AXIS],
        Tol::Exact,
    ),
    row(
        "around",
        "around({0}, {1})",
        "np.around({0}, {1})",
        &[
            arr(NUMERIC, 0, 3, Data::Random),
            Arg::Choice(&[("0", "0"), ("1", "1"), ("2", "2"), ("-1", "-1")]),
        ],
        Tol::Exact,
    ),
    row(
        "round_decimals",
        "round({0} * 7, decimals=2)",
        "np.round({0} * 7, decimals=2)",
        &[arr(FLOATS, 0, 3, Data::Random)],
        Tol::Exact,
    ),
    row("fix", "fix({0})", "np.fix({0})", &[SPECIAL], Tol::Exact),
    row(
        "degrees",
        "degrees({0})",
        "np.degrees({0})",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "radians",
        "radians({0})",
        "np.radians({0})",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "sinc",
        "sinc({0})",
        "np.sinc({0})",
        &[arr(FLOATS, 0, 3, Data::Random)],
        Tol::Ulps(8),
    ),
    row(
        "float_power",
        "float_power({0}, {1})",
        "np.float_power({0}, {1})",
        &[
            arr(NUMERIC, 0, 3, Data::Positive),
            bcast(0, NUMERIC, Data::Unit),
        ],
        Tol::Ulps(2),
    ),
    row(
        "bitwise_not",
        "bitwise_not({0})",
        "np.bitwise_not({0})",
        &[arr(
            &[DType::Bool, DType::Int32, DType::Int64],
            0,
            3,
            Data::Small,
        )],
        Tol::Exact,
    ),
    row(
        "gcd",
        "gcd({0}, {1})",
        "np.gcd({0}, {1})",
        TWO_INTS,
        Tol::Exact,
    ),
    row(
        "lcm",
        "lcm({0}, {1})",
        "np.lcm({0}, {1})",
        TWO_INTS,
        Tol::Exact,
    ),
    row(
        "divmod_q",
        "divmod({0}, {1})[0]",
        "np.divmod({0}, {1})[0]",
        TWO_SMALL,
        Tol::Exact,
    ),
    row(
        "divmod_r",
        "divmod({0}, {1})[1]",
        "np.divmod({0}, {1})[1]",
        TWO_SMALL,
        Tol::Exact,
    ),
    row(
        "modf_frac",
        "modf({0})[0]",
        "np.modf({0})[0]",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "modf_int",
        "modf({0})[1]",
        "np.modf({0})[1]",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "frexp_m",
        "frexp({0})[0]",
        "np.frexp({0})[0]",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "frexp_e",
        "frexp({0})[1]",
        "np.frexp({0})[1]",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "ldexp",
        "ldexp({0}, -7)",
        "np.ldexp({0}, -7)",
        &[FSPECIAL],
        Tol::Exact,
    ),
    row(
        "ldexp_arrays",
        "ldexp({0}, {1})",
        "np.ldexp({0}, {1})",
        &[arr(F64, 0, 3, Data::Special), bcast(0, INTS, Data::Small)],
        Tol::Exact,
    ),
    row(
        "nextafter",
        "nextafter({0}, {1})",
        "np.nextafter({0}, {1})",
        &[FSPECIAL, bcast(0, FLOATS, Data::Special)],
        Tol::Exact,
    ),
    row(
        "trapezoid",
        "trapezoid({0}, axis={1})",
        "np.trapezoid({0}, axis={1})",
        &[RAND1, AXIS1],
        Tol::Norm(8),
    ),
    row(
        "trapezoid_dx",
        "trapezoid({0}, dx=0.5, axis={1})",
        "np.trapezoid({0}, dx=0.5, axis={1})",
        &[RAND1, AXIS1],
        Tol::Norm(8),
    ),
    row(
        "ediff1d",
        "ediff1d({0}, to_begin=[1, 2], to_end=3)",
        "np.ediff1d({0}, to_begin=[1, 2], to_end=3)",
        &[SMALL],
        Tol::Exact,
    ),
    row(
        "cumulative_sum",
        "cumulative_sum({0}, axis={1}, include_initial={2})",
        "np.cumulative_sum({0}, axis={1}, include_initial={2})",
        &[SMALL1, AXIS1, Arg::Bool],
        Tol::Exact,
    ),
    row(
        "cumulative_prod",
        "cumulative_prod({0}, axis={1}, include_initial={2})",
        "np.cumulative_prod({0}, axis={1}, include_initial={2})",
        &[arr(NUMERIC, 1, 2, Data::Small), AXIS1, Arg::Bool],
        Tol::Ulps(4),
    ),
    row(
        "nancumsum",
        "nancumsum({0}, axis={1})",
        "np.nancumsum({0}, axis={1})",
        &[FSPECIAL, AXIS],
        Tol::Ulps(4),
    ),
    row(
        "nancumprod",
        "nancumprod({0}, axis={1})",
        "np.nancumprod({0}, axis={1})",
        &[arr(FLOATS, 1, 2, Data::Special), AXIS1],
        Tol::Ulps(8),
    ),
    row(
        "nanprod",
        "nanprod({0}, axis={1}, keepdims={2})",
        "np.nanprod({0}, axis={1}, keepdims={2})",
        &[arr(FLOATS, 0, 2, Data::Special), AXIS, Arg::Bool],
        Tol::Ulps(16),
    ),
    row(
        "unwrap",
        "unwrap({0} * 3, axis={1})",
        "np.unwrap({0} * 3, axis={1})",
        &[arr(FLOATS, 1, 2, Data::Random), AXIS1],
        Tol::Norm(16),
    ),
    row(
        "gradient",
        "gradient({0}, axis={1})",
        "np.gradient({0}, axis={1})",
        &[RAND1, AXIS1],
        Tol::Ulps(4),
    ),
    row(
        "gradient_order2",
        "gradient({0}, 0.5, axis={1}, edge_order=2)",
        "np.gradient({0}, 0.5, axis={1}, edge_order=2)",
        &[RAND1, AXIS1],
        Tol::Norm(8),
    ),
    row(
        "interp",
        "interp({0}, array([-3.0, -1.5, -0.25, 0.5, 2.0, 3.5]), array([1.0, -2.0, 0.5, 3.0, 0.0, 2.5]), left={1})",
        "np.interp({0}, np.array([-3.0, -1.5, -0.25, 0.5, 2.0, 3.5]), np.array([1.0, -2.0, 0.5, 3.0, 0.0, 2.5]), left={1})",
        &[
            arr(FLOATS, 0, 2, Data::Random),
            Arg::Choice(&[("none", "None"), ("-7.0", "-7.0")]),
        ],
        Tol::Ulps(4),
    ),
    row(
        "nanmedian",
        "nanmedian({0}, axis={1})",
        "np.nanmedian({0}, axis={1})",
        &[FSPECIAL1, AXIS],
        Tol::Ulps(2),
    ),
    row(
        "nanquantile",
        "nanquantile({0}, 0.3, axis={1}, keepdims={2})",
        "np.nanquantile({0}, 0.3, axis={1}, keepdims={2})",
        &[FSPECIAL1, AXIS, Arg::Bool],
        Tol::Ulps(4),
    ),
    row(
        "nanquantile_methods",
        "nanquantile({0}, 0.45, axis={1}, method={2})",
        "np.nanquantile({0}, 0.45, axis={1}, method={2})",
        &[
            FSPECIAL1,
            AXIS,
            Arg::Choice(&[
                ("\"lower\"", "'lower'"),
                ("\"higher\"", "'higher'"),
                ("\"nearest\"", "'nearest'"),
                ("\"midpoint\"", "'midpoint'"),
            ]),
        ],
        Tol::Ulps(4),
    ),
    row(
        "nanpercentile",
        "nanpercentile({0}, [10, 50, 95], axis={1})",
        "np.nanpercentile({0}, [10, 50, 95], axis={1})",
        &[FSPECIAL1, AXIS],
        Tol::Ulps(4),
    ),
    row(
        "vdot",
        "vdot({0}, {0})",
        "np.vdot({0}, {0})",
        &[SMALL],
        Tol::Exact,
    ),
    row(
        "vecdot",
        "vecdot({0}, {1})",
        "np.vecdot({0}, {1})",
        &[SMALL1, bcast(0, NUMERIC, Data::Small)],
        Tol::Exact,
    ),
    row(
        "multi_dot",
        "multi_dot([{0}, {1}, {2}, {3}])",
        "np.linalg.multi_dot([{0}, {1}, {2}, {3}])",
        &[lab("ij"), lab("jk"), lab("kl"), lab("lm")],
        Tol::Norm(16),
    ),
    row(
        "matrix_transpose",
        "matrix_transpose({0})",
        "np.matrix_transpose({0})",
        &[arr(ALL_DTYPES, 2, 4, Data::Small)],
        Tol::Exact,
    ),
    row(
        "permute_dims",
        "permute_dims({0})",
        "np.permute_dims({0})",
        &[SMALL],
        Tol::Exact,
    ),
    row(
        "vector_norm",
        "vector_norm({0}, axis={1}, keepdims={2})",
        "np.linalg.vector_norm({0}, axis={1}, keepdims={2})",
        &[RAND1, AXIS, Arg::Bool],
        Tol::Norm(8),
    ),
    row(
        "matrix_norm",
        "matrix_norm({0})",
        "np.linalg.matrix_norm({0})",
        &[arr(FLOATS, 2, 3, Data::Random)],
        Tol::Norm(8),
    ),
];
