//! Rows of the signals-and-polynomials family (`runtime/src/ops/signal/`):
//! convolve and correlate in every mode (sequences of 0 to 4 elements, so
//! the swap of a shorter a, the empty-input errors and 0-d inputs are
//! drawn), the window functions, NumPy's legacy polynomial API and
//! trim_zeros. Run by
//! `core` `signal_matches_numpy` and `gpu` `gpu_signal_matches_numpy`.

use crate::lit::{DType, Data, FLOATS, INTS, NUMERIC};
use crate::ops::{Arg, FnSpec, arr};
use crate::ops_ew::one as row;
use crate::outcome::Tol;

const SEQ: Arg = arr(NUMERIC, 1, 1, Data::Small);
const SEQ01: Arg = arr(NUMERIC, 0, 1, Data::Small);
const RSEQ: Arg = arr(FLOATS, 1, 1, Data::Random);
const MODE: Arg = Arg::Choice(&[
    ("\"full\"", "'full'"),
    ("\"same\"", "'same'"),
    ("\"valid\"", "'valid'"),
]);
const M: Arg = Arg::Choice(&[
    ("-2", "-2"),
    ("0", "0"),
    ("1", "1"),
    ("2", "2"),
    ("5", "5"),
    ("8", "8"),
    ("51", "51"),
]);
const ORDER: Arg = Arg::Choice(&[("0", "0"), ("1", "1"), ("2", "2"), ("3", "3")]);
const F64: &[DType] = &[DType::Float64];
const fn lab(labels: &'static str) -> Arg {
    Arg::Labeled {
        labels,
        dtypes: F64,
        data: Data::Random,
    }
}

/// The family's rows. Sums of products of `Small` data are exact in every
/// dtype (Ulps(0)); random data are compared norm-wise (NumPy's float dot
/// is BLAS's, in another order).
pub const SIGNAL: &[FnSpec] = &[
    row(
        "convolve",
        "convolve({0}, {1}, mode={2})",
        "np.convolve({0}, {1}, mode={2})",
        &[SEQ01, SEQ01, MODE],
        Tol::Ulps(0),
    ),
    row(
        "convolve_random",
        "convolve({0}, {1}, {2})",
        "np.convolve({0}, {1}, {2})",
        &[RSEQ, RSEQ, MODE],
        Tol::Norm(8),
    ),
    row(
        "correlate",
        "correlate({0}, {1}, mode={2})",
        "np.correlate({0}, {1}, mode={2})",
        &[SEQ01, SEQ01, MODE],
        Tol::Ulps(0),
    ),
    row(
        "correlate_default",
        "correlate({0}, {1})",
        "np.correlate({0}, {1})",
        &[RSEQ, RSEQ],
        Tol::Norm(8),
    ),
    row(
        "hanning",
        "hanning({0})",
        "np.hanning({0})",
        &[M],
        Tol::Ulps(4),
    ),
    row(
        "hamming",
        "hamming({0})",
        "np.hamming({0})",
        &[M],
        Tol::Ulps(4),
    ),
    row(
        "blackman",
        "blackman({0})",
        "np.blackman({0})",
        &[M],
        Tol::Norm(8),
    ),
    row(
        "bartlett",
        "bartlett({0})",
        "np.bartlett({0})",
        &[M],
        Tol::Ulps(1),
    ),
    row(
        "kaiser",
        "kaiser({0}, {1})",
        "np.kaiser({0}, {1})",
        &[
            M,
            Arg::Choice(&[("0", "0"), ("5.0", "5.0"), ("14", "14"), ("-3.5", "-3.5")]),
        ],
        Tol::Ulps(8),
    ),
    row(
        "polyval",
        "polyval({0}, {1})",
        "np.polyval({0}, {1})",
        &[SEQ, arr(NUMERIC, 0, 2, Data::Random)],
        Tol::Norm(8),
    ),
    row(
        "polyder",
        "polyder({0}, {1})",
        "np.polyder({0}, {1})",
        &[SEQ, ORDER],
        Tol::Ulps(0),
    ),
    row(
        "polyint",
        "polyint({0}, {1})",
        "np.polyint({0}, {1})",
        &[SEQ, ORDER],
        Tol::Ulps(1),
    ),
    row(
        "polyint_k",
        "polyint({0}, 2, k=[0.5, -1.25])",
        "np.polyint({0}, 2, k=[0.5, -1.25])",
        &[SEQ],
        Tol::Ulps(1),
    ),
    row(
        "polyadd",
        "polyadd({0}, {1})",
        "np.polyadd({0}, {1})",
        &[SEQ, SEQ],
        Tol::Ulps(0),
    ),
    row(
        "polysub",
        "polysub({0}, {1})",
        "np.polysub({0}, {1})",
        &[SEQ, SEQ],
        Tol::Ulps(0),
    ),
    row(
        "polymul",
        "polymul({0}, {1})",
        "np.polymul({0}, {1})",
        &[SEQ, SEQ],
        Tol::Ulps(0),
    ),
    row(
        "polydiv_q",
        "polydiv({0}, {1})[0]",
        "np.polydiv({0}, {1})[0]",
        &[lab("a"), lab("b")],
        Tol::Norm(64),
    ),
    row(
        "polydiv_r",
        "polydiv({0}, {1})[1]",
        "np.polydiv({0}, {1})[1]",
        &[lab("a"), lab("b")],
        Tol::Norm(64),
    ),
    // Four random points and degree 3 make an exactly determined, often
    // ill-conditioned Vandermonde system (x values 0.15 apart: condition
    // numbers past 1e6): LAPACK and faer then agree to ~1e-11, not 1e-12.
    row(
        "polyfit",
        "polyfit({0}, {1}, {2})",
        "np.polyfit({0}, {1}, {2})",
        &[lab("n"), lab("n"), ORDER],
        Tol::Norm(POLYFIT_ULPS),
    ),
    row(
        "polyfit_2d",
        "polyfit({0}, {1}, {2})",
        "np.polyfit({0}, {1}, {2})",
        &[lab("n"), lab("nk"), ORDER],
        Tol::Norm(POLYFIT_ULPS),
    ),
    row(
        "polyfit_full_s",
        "polyfit({0}, {1}, {2}, full=true)[3]",
        "np.polyfit({0}, {1}, {2}, full=True)[3]",
        &[lab("n"), lab("n"), ORDER],
        Tol::Norm(64),
    ),
    row(
        "polyfit_w",
        "polyfit({0}, {1}, {2}, w={3})",
        "np.polyfit({0}, {1}, {2}, w={3})",
        &[lab("n"), lab("n"), ORDER, lab("n")],
        Tol::Norm(POLYFIT_ULPS),
    ),
    row("poly", "poly({0})", "np.poly({0})", &[RSEQ], Tol::Norm(8)),
    row(
        "trim_zeros",
        "trim_zeros({0}, {1})",
        "np.trim_zeros({0}, {1})",
        &[
            arr(INTS, 1, 2, Data::Unit),
            Arg::Choice(&[("\"fb\"", "'fb'"), ("\"f\"", "'f'"), ("\"b\"", "'b'")]),
        ],
        Tol::Exact,
    ),
    row(
        "histogram_bin_edges",
        "histogram_bin_edges({0}, {1})",
        "np.histogram_bin_edges({0}, {1})",
        &[
            arr(NUMERIC, 1, 2, Data::Small),
            Arg::Choice(&[
                ("\"auto\"", "'auto'"),
                ("\"fd\"", "'fd'"),
                ("\"sturges\"", "'sturges'"),
                ("\"doane\"", "'doane'"),
                ("\"scott\"", "'scott'"),
                ("\"stone\"", "'stone'"),
                ("\"rice\"", "'rice'"),
                ("\"sqrt\"", "'sqrt'"),
                ("3", "3"),
            ]),
        ],
        Tol::Ulps(2),
    ),
];

/// Ulps (of the result's norm) for polyfit's rows: see the comment there.
const POLYFIT_ULPS: u32 = 1 << 16;
