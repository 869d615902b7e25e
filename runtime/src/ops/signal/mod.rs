//! Signals and polynomials (issue: the signal-processing breadth): the
//! table entries of `convolve correlate` (`convolve.rs`), the windows
//! `hanning hamming blackman bartlett kaiser` (`windows.rs`), NumPy's legacy
//! polynomial API `polyval polyder polyint polyadd polysub polymul polydiv`
//! (`poly.rs`), `polyfit` (`polyfit.rs`), `roots poly` (`roots.rs`), `trim_zeros` (`trim.rs`), `histogram_bin_edges` (`bin_edges.rs`). Everything but the windows
//! (host float64 formulas) and polydiv (a short host loop) is composed of
//! table ops through the interpreter: every device, gradients from the tape.

pub mod bin_edges;
pub mod convolve;
pub mod poly;
pub mod polyfit;
pub mod roots;
pub mod trim;
pub mod windows;

use crate::ops::creation::op;
use crate::ops::{OpDef, OpKind};
use windows::Window;

/// convolve, correlate and the polynomials (help family: linear algebra).
pub static CONV_OPS: &[OpDef] = &[
    op!(
        "convolve",
        "convolve(a, v, mode=\"full\")",
        "The discrete linear convolution of the 1-d sequences a and v: (a * v)[n] = sum_m a[m] v[n - m]. mode \"full\" (len(a) + len(v) - 1 values), \"same\" (max(len(a), len(v)), centred) or \"valid\" (only where they overlap fully: max - min + 1). The longer sequence slides over the shorter (NumPy swaps them); dtype of a and v promoted. Direct summation, as NumPy; differentiable in a and v.",
        false,
        |i, a| convolve::conv(i, a, false)
    ),
    op!(
        "correlate",
        "correlate(a, v, mode=\"valid\")",
        "The cross-correlation of the 1-d sequences a and v: c[k] = sum_n a[n + k] * conj(v[n]), modes as convolve (default \"valid\"). When v is longer than a the output is reversed, as NumPy's. Differentiable in a and v.",
        false,
        |i, a| convolve::conv(i, a, true)
    ),
    op!(
        "polyval",
        "polyval(p, x)",
        "The polynomial with coefficients p (highest power first) at x, by Horner's rule: y = 0; for c in p: y = y * x + c. The shape of x; dtype of x and p promoted. Differentiable in p and x.",
        false,
        poly::polyval
    ),
    op!(
        "polyfit",
        "polyfit(x, y, deg, rcond=none, full=false, w=none, cov=false)",
        "The least-squares polynomial of degree deg through (x, y): coefficients highest power first, float64 (float32 when x and y are), one column per column of a 2-d y. rcond defaults to len(x) * eps; w weights each point (1/sigma); full=true gives (coef, residuals, rank, singular_values, rcond); cov=true (or \"unscaled\") gives (coef, covariance). Through lstsq on x's device; no gradient.",
        false,
        polyfit::polyfit
    ),
    op!(
        "polyder",
        "polyder(p, m=1)",
        "The m-th derivative of the polynomial p (coefficients highest power first): p[:-1] * arange(n, 0, -1), m times. Differentiable.",
        false,
        poly::polyder
    ),
    op!(
        "polyint",
        "polyint(p, m=1, k=none)",
        "The m-th antiderivative of p (highest power first), float64: each integration divides by the powers and appends the constant k[j] (k: none -> zeros, one number -> it m times, or m numbers). Differentiable.",
        false,
        poly::polyint
    ),
    op!(
        "polyadd",
        "polyadd(a1, a2)",
        "The sum of two polynomials (highest power first): the shorter padded with leading zeros. Differentiable.",
        false,
        |i, a| poly::polyaddsub(i, a, false)
    ),
    op!(
        "polysub",
        "polysub(a1, a2)",
        "a1 - a2 as polynomials (highest power first): the shorter padded with leading zeros. Differentiable.",
        false,
        |i, a| poly::polyaddsub(i, a, true)
    ),
    op!(
        "polymul",
        "polymul(a1, a2)",
        "The product of two polynomials: convolve(a1, a2). Differentiable.",
        false,
        poly::polymul
    ),
    op!(
        "polydiv",
        "polydiv(u, v)",
        "(quotient, remainder) of the polynomial division u / v (highest power first), float64 (float32 when both are); remainder terms of magnitude <= 1e-8 at the front are dropped, as NumPy. Computed on the host; no gradient.",
        false,
        poly::polydiv
    ),
    op!(
        "roots",
        "roots(p)",
        "The roots of the polynomial p (highest power first): the eigenvalues of its companion matrix, leading zeros of p dropped and trailing ones giving zero roots. Real dtype when every root is real, complex otherwise (as NumPy); empty for a constant. CPU only (on a GPU: roots(p.to(cpu))); no gradient.",
        false,
        roots::roots
    ),
    op!(
        "poly",
        "poly(seq_of_zeros)",
        "The coefficients (highest power first, leading 1) of the polynomial with the given roots, or of the characteristic polynomial of a square matrix (its eigenvalues). Ints give float64; complex roots in conjugate pairs give a real result; no roots give 1.0. No gradient.",
        false,
        roots::poly
    ),
];

/// The window functions (help family: creation).
pub static WINDOW_OPS: &[OpDef] = &[
    op!(
        "hanning",
        "hanning(M, device=none)",
        "The Hann window of M points, float64: 0.5 + 0.5 cos(pi n / (M - 1)), n = 1-M, 3-M, ..., M-1. M < 1 gives an empty array, M = 1 gives [1.].",
        false,
        |i, a| windows::window(i, a, Window::Hanning)
    ),
    op!(
        "hamming",
        "hamming(M, device=none)",
        "The Hamming window of M points, float64: 0.54 + 0.46 cos(pi n / (M - 1)), n = 1-M, 3-M, ..., M-1. M < 1 gives an empty array, M = 1 gives [1.].",
        false,
        |i, a| windows::window(i, a, Window::Hamming)
    ),
    op!(
        "blackman",
        "blackman(M, device=none)",
        "The Blackman window of M points, float64: 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1)), n = 1-M, 3-M, ..., M-1. M < 1 gives an empty array, M = 1 gives [1.].",
        false,
        |i, a| windows::window(i, a, Window::Blackman)
    ),
    op!(
        "bartlett",
        "bartlett(M, device=none)",
        "The Bartlett (triangular) window of M points, float64: 1 - |n| / (M - 1), n = 1-M, 3-M, ..., M-1. M < 1 gives an empty array, M = 1 gives [1.].",
        false,
        |i, a| windows::window(i, a, Window::Bartlett)
    ),
    op!(
        "kaiser",
        "kaiser(M, beta, device=none)",
        "The Kaiser window of M points, float64: i0(beta sqrt(1 - ((n - alpha) / alpha)^2)) / i0(beta), n = 0..M-1, alpha = (M - 1) / 2, i0 the modified Bessel function (NumPy's Chebyshev tables). M < 1 gives an empty array, M = 1 gives [1.].",
        false,
        |i, a| windows::window(i, a, Window::Kaiser)
    ),
];

/// trim_zeros (help family: shape).
pub static SHAPE_OPS: &[OpDef] = &[op!(
    "trim_zeros",
    "trim_zeros(filt, trim=\"fb\", axis=none)",
    "filt without its leading (\"f\") and/or trailing (\"b\") zeros (\"fb\": both), along every axis or those of axis: the slice holding every nonzero element (a view; an all-zero filt gives an empty one). An array, also for a list filt.",
    false,
    trim::trim_zeros
)];

/// histogram_bin_edges (help family: reduction, with histogram).
pub static HIST_OPS: &[OpDef] = &[op!(
    "histogram_bin_edges",
    "histogram_bin_edges(a, bins=10, range=none, weights=none)",
    "The bin edges histogram(a, bins, range, weights) uses: bins an int, increasing edges, or a width estimator's name (\"auto\", \"fd\", \"sturges\", \"doane\", \"scott\", \"stone\", \"rice\", \"sqrt\"; NumPy's formulas, not with weights). Equal-width edges in a's float dtype (float64 for ints).",
    false,
    bin_edges::histogram_bin_edges
)];
