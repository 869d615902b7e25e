//! Rows of NumPy's second names and dtype introspection
//! (`runtime/src/ops/np_alias.rs np_dtype.rs np_complex.rs`,
//! `builtins/np_types.rs`): the array-API aliases against NumPy 2's own
//! `np.acos`..., dtype names in `astype`, and `result_type promote_types
//! can_cast issubdtype isdtype finfo iinfo common_type iscomplexobj
//! isrealobj iscomplex isreal real_if_close`. A dtype result is compared
//! through `zeros(1, dtype=...)`, whose dtype the harness reads. Run by
//! `core` `np_names_matches_numpy` and `gpu` `gpu_np_names_matches_numpy`.

use crate::lit::{ALL_DTYPES, Data, FLOATS, INTS, NUMERIC};
use crate::ops::{Arg, FnSpec, arr, bcast};
use crate::ops_ew::one as row;
use crate::outcome::Tol;

const UNIT: &[Arg] = &[arr(NUMERIC, 0, 3, Data::Unit)];
const RANDOM: &[Arg] = &[arr(NUMERIC, 0, 3, Data::Random)];
const SPECIAL: &[Arg] = &[arr(NUMERIC, 0, 3, Data::Special)];
const ABOVE_ONE: &[Arg] = &[arr(NUMERIC, 0, 3, Data::AboveOne)];
const TWO_SPECIAL: &[Arg] = &[
    arr(NUMERIC, 0, 3, Data::Special),
    bcast(0, NUMERIC, Data::Special),
];
const TWO_SMALL: &[Arg] = &[
    arr(NUMERIC, 0, 3, Data::Small),
    bcast(0, NUMERIC, Data::Small),
];
const ANY: Arg = arr(ALL_DTYPES, 0, 2, Data::Small);
const TWO_ANY: &[Arg] = &[ANY, arr(ALL_DTYPES, 0, 2, Data::Small)];
const SHIFT: Arg = Arg::Choice(&[("0", "0"), ("1", "1"), ("5", "5"), ("31", "31")]);
const DTYPE_NAMES: Arg = Arg::Choice(&[
    ("double", "np.double"),
    ("single", "np.single"),
    ("int_", "np.int_"),
    ("intp", "np.intp"),
    ("long", "np.long"),
    ("longlong", "np.longlong"),
    ("intc", "np.intc"),
    ("bool_", "np.bool_"),
    ("\"double\"", "\"double\""),
    ("\"single\"", "\"single\""),
    ("\"intc\"", "\"intc\""),
]);
const CASTING: Arg = Arg::Choice(&[
    ("\"no\"", "\"no\""),
    ("\"equiv\"", "\"equiv\""),
    ("\"safe\"", "\"safe\""),
    ("\"same_kind\"", "\"same_kind\""),
    ("\"unsafe\"", "\"unsafe\""),
]);
const KINDS: Arg = Arg::Choice(&[
    ("generic", "np.generic"),
    ("number", "np.number"),
    ("integer", "np.integer"),
    ("signedinteger", "np.signedinteger"),
    ("unsignedinteger", "np.unsignedinteger"),
    ("inexact", "np.inexact"),
    ("floating", "np.floating"),
    ("complexfloating", "np.complexfloating"),
    ("float64", "np.float64"),
    ("int32", "np.int32"),
    ("bool", "np.bool"),
]);
const ISDTYPE_KINDS: Arg = Arg::Choice(&[
    ("\"bool\"", "\"bool\""),
    ("\"signed integer\"", "\"signed integer\""),
    ("\"unsigned integer\"", "\"unsigned integer\""),
    ("\"integral\"", "\"integral\""),
    ("\"real floating\"", "\"real floating\""),
    ("\"complex floating\"", "\"complex floating\""),
    ("\"numeric\"", "\"numeric\""),
    ("(\"bool\", float32)", "(\"bool\", np.float32)"),
    ("int64", "np.int64"),
]);
const FINFO_ATTRS: Arg = Arg::Choice(&[
    ("eps", "eps"),
    ("max", "max"),
    ("min", "min"),
    ("tiny", "tiny"),
    ("smallest_normal", "smallest_normal"),
    ("smallest_subnormal", "smallest_subnormal"),
    ("resolution", "resolution"),
    ("epsneg", "epsneg"),
    ("bits", "bits"),
    ("precision", "precision"),
    ("nmant", "nmant"),
    ("nexp", "nexp"),
    ("maxexp", "maxexp"),
    ("minexp", "minexp"),
    ("machep", "machep"),
    ("negep", "negep"),
]);
const IINFO_ATTRS: Arg = Arg::Choice(&[("min", "min"), ("max", "max"), ("bits", "bits")]);

/// The family's rows.
pub const NP_NAMES: &[FnSpec] = &[
    row("acos", "acos({0})", "np.acos({0})", UNIT, Tol::Ulps(2)),
    row("asin", "asin({0})", "np.asin({0})", UNIT, Tol::Ulps(2)),
    row("atan", "atan({0})", "np.atan({0})", SPECIAL, Tol::Ulps(2)),
    row(
        "atan2",
        "atan2({0}, {1})",
        "np.atan2({0}, {1})",
        TWO_SPECIAL,
        Tol::Ulps(2),
    ),
    row(
        "acosh",
        "acosh({0})",
        "np.acosh({0})",
        ABOVE_ONE,
        Tol::Ulps(3),
    ),
    row("asinh", "asinh({0})", "np.asinh({0})", RANDOM, Tol::Ulps(3)),
    row("atanh", "atanh({0})", "np.atanh({0})", UNIT, Tol::Ulps(3)),
    row(
        "bitwise_invert",
        "bitwise_invert({0})",
        "np.bitwise_invert({0})",
        &[arr(
            &[
                crate::lit::DType::Bool,
                crate::lit::DType::Int32,
                crate::lit::DType::Int64,
            ],
            0,
            3,
            Data::Small,
        )],
        Tol::Exact,
    ),
    row(
        "bitwise_left_shift",
        "bitwise_left_shift({0}, {1})",
        "np.bitwise_left_shift({0}, {1})",
        &[arr(INTS, 0, 3, Data::Small), SHIFT],
        Tol::Exact,
    ),
    row(
        "bitwise_right_shift",
        "bitwise_right_shift({0}, {1})",
        "np.bitwise_right_shift({0}, {1})",
        &[arr(INTS, 0, 3, Data::Small), SHIFT],
        Tol::Exact,
    ),
    row(
        "true_divide",
        "true_divide({0}, {1})",
        "np.true_divide({0}, {1})",
        TWO_SMALL,
        Tol::Ulps(0),
    ),
    row(
        "row_stack",
        "row_stack([{0}, {0} * 2])",
        "np.vstack([{0}, {0} * 2])",
        &[arr(NUMERIC, 1, 3, Data::Small)],
        Tol::Exact,
    ),
    row(
        "astype_names",
        "{0}.astype({1})",
        "{0}.astype({1})",
        &[ANY, DTYPE_NAMES],
        Tol::Exact,
    ),
    row(
        "dtype_kw_names",
        "zeros(2, dtype={0})",
        "np.zeros(2, dtype={0})",
        &[DTYPE_NAMES],
        Tol::Exact,
    ),
    row(
        "result_type",
        "zeros(1, dtype=result_type({0}, {1}))",
        "np.zeros(1, dtype=np.result_type({0}, {1}))",
        TWO_ANY,
        Tol::Exact,
    ),
    row(
        "result_type_weak",
        "zeros(1, dtype=result_type({0}, {1}))",
        "np.zeros(1, dtype=np.result_type({0}, {1}))",
        &[
            ANY,
            Arg::Scalar {
                dtypes: ALL_DTYPES,
                data: Data::Small,
            },
        ],
        Tol::Exact,
    ),
    row(
        "promote_types",
        "zeros(1, dtype=promote_types({0}.dtype, {1}.dtype))",
        "np.zeros(1, dtype=np.promote_types({0}.dtype, {1}.dtype))",
        TWO_ANY,
        Tol::Exact,
    ),
    row(
        "can_cast",
        "can_cast({0}.dtype, {1}.dtype, casting={2})",
        "np.can_cast({0}.dtype, {1}.dtype, casting={2})",
        &[ANY, arr(ALL_DTYPES, 0, 2, Data::Small), CASTING],
        Tol::Exact,
    ),
    row(
        "issubdtype",
        "issubdtype({0}.dtype, {1})",
        "np.issubdtype({0}.dtype, {1})",
        &[ANY, KINDS],
        Tol::Exact,
    ),
    row(
        "isdtype",
        "isdtype({0}.dtype, {1})",
        "np.isdtype({0}.dtype, {1})",
        &[ANY, ISDTYPE_KINDS],
        Tol::Exact,
    ),
    row(
        "finfo",
        "finfo({0}.dtype).{1}",
        "np.finfo({0}.dtype).{1}",
        &[arr(FLOATS, 0, 2, Data::Small), FINFO_ATTRS],
        Tol::Exact,
    ),
    row(
        "iinfo",
        "iinfo({0}.dtype).{1}",
        "np.iinfo({0}.dtype).{1}",
        &[arr(INTS, 0, 2, Data::Small), IINFO_ATTRS],
        Tol::Exact,
    ),
    row(
        "common_type",
        "zeros(1, dtype=common_type({0}, {1}))",
        "np.zeros(1, dtype=np.common_type({0}, {1}))",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            arr(NUMERIC, 0, 2, Data::Small),
        ],
        Tol::Exact,
    ),
    row(
        "iscomplexobj",
        "iscomplexobj({0})",
        "np.iscomplexobj({0})",
        &[ANY],
        Tol::Exact,
    ),
    row(
        "isrealobj",
        "isrealobj({0})",
        "np.isrealobj({0})",
        &[ANY],
        Tol::Exact,
    ),
    row(
        "iscomplex",
        "iscomplex({0})",
        "np.iscomplex({0})",
        &[ANY],
        Tol::Exact,
    ),
    row(
        "isreal",
        "isreal({0})",
        "np.isreal({0})",
        &[ANY],
        Tol::Exact,
    ),
    row(
        "real_if_close_real",
        "real_if_close({0})",
        "np.real_if_close({0})",
        &[ANY],
        Tol::Exact,
    ),
    row(
        "spacing",
        "spacing({0})",
        "np.spacing({0})",
        &[arr(FLOATS, 0, 3, Data::Special)],
        Tol::Exact,
    ),
    row(
        "iterable",
        "iterable({0})",
        "np.iterable({0})",
        &[ANY],
        Tol::Exact,
    ),
    row(
        "ascontiguousarray",
        "ascontiguousarray({0}.T)",
        "np.ascontiguousarray({0}.T)",
        &[arr(NUMERIC, 0, 3, Data::Small)],
        Tol::Exact,
    ),
    row(
        "asfortranarray",
        "asfortranarray({0}, dtype={1})",
        "np.asfortranarray({0}, dtype={1})",
        &[arr(NUMERIC, 0, 3, Data::Small), DTYPE_NAMES],
        Tol::Exact,
    ),
    row(
        "asarray_chkfinite",
        "asarray_chkfinite({0})",
        "np.asarray_chkfinite({0})",
        &[arr(FLOATS, 0, 2, Data::Special)],
        Tol::Exact,
    ),
    row(
        "shares_memory",
        "shares_memory({0}, {0}[::2]) + 2 * may_share_memory({0}[1::2], {0}[::2])",
        "np.shares_memory({0}, {0}[::2]) + 2 * np.may_share_memory({0}[1::2], {0}[::2])",
        &[arr(NUMERIC, 1, 1, Data::Small)],
        Tol::Exact,
    ),
];

/// Rows with complex arrays (both devices: `np_names_match_numpy` and
/// `gpu_np_names_matches_numpy`).
pub const NP_NAMES_COMPLEX: &[FnSpec] = &[
    row(
        "iscomplexobj_complex",
        "iscomplexobj({0} + 1j * {0})",
        "np.iscomplexobj({0} + 1j * {0})",
        &[arr(NUMERIC, 0, 2, Data::Small)],
        Tol::Exact,
    ),
    row(
        "real_if_close",
        "real_if_close({0} + 1j * ({0} * 1e-20))",
        "np.real_if_close({0} + 1j * ({0} * 1e-20))",
        &[arr(FLOATS, 0, 2, Data::Random)],
        Tol::Exact,
    ),
    row(
        "sort_complex_real",
        "real(sort_complex({0} + 1j * {1}))",
        "np.real(np.sort_complex({0} + 1j * {1}))",
        &[
            arr(NUMERIC, 1, 3, Data::Small),
            bcast(0, NUMERIC, Data::Small),
        ],
        Tol::Exact,
    ),
    row(
        "sort_complex_imag",
        "imag(sort_complex({0} * 0 + 1j * {1}))",
        "np.imag(np.sort_complex({0} * 0 + 1j * {1}))",
        &[
            arr(NUMERIC, 1, 3, Data::Small),
            bcast(0, NUMERIC, Data::Special),
        ],
        Tol::Exact,
    ),
    row(
        "sort_complex_of_real",
        "real(sort_complex({0}))",
        "np.real(np.sort_complex({0}))",
        &[arr(ALL_DTYPES, 1, 3, Data::Special)],
        Tol::Exact,
    ),
    row(
        "complex_divide_real",
        "real(({0} + 1j * {1}) / ({1} + 1j * {0}))",
        "np.real(({0} + 1j * {1}) / ({1} + 1j * {0}))",
        &[
            arr(FLOATS, 0, 3, Data::Special),
            bcast(0, FLOATS, Data::Special),
        ],
        Tol::Ulps(4),
    ),
    row(
        "complex_divide_imag",
        "imag(({0} + 1j * {1}) / ({1} + 1j * {0}))",
        "np.imag(({0} + 1j * {1}) / ({1} + 1j * {0}))",
        &[
            arr(FLOATS, 0, 3, Data::Special),
            bcast(0, FLOATS, Data::Special),
        ],
        Tol::Ulps(4),
    ),
    row(
        "complex_divide_by_zero",
        "imag(({0} + 1j * {1}) / ({0} * 0 + 0j)) + real(({0} + 1j * {1}) / ({0} * 0 + 0j))",
        "np.imag(({0} + 1j * {1}) / ({0} * 0 + 0j)) + np.real(({0} + 1j * {1}) / ({0} * 0 + 0j))",
        &[
            arr(FLOATS, 0, 3, Data::Small),
            bcast(0, FLOATS, Data::Special),
        ],
        Tol::Exact,
    ),
];
