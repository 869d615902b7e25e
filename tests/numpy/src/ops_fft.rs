//! Rows of the complex dtypes and the FFT family (issue 18): complex
//! arithmetic, reductions, products and the complex builtins on complex
//! arrays made from random real ones (`{0} + 1j * {1}`), NEP 50 promotion
//! (float32 with 1j is complex64, float64 with complex64 complex128), and
//! every `np.fft` function with `n`/`s`, `axis`/`axes` and `norm`. The
//! harness compares real arrays, so a complex result is compared as
//! `stack([real(z), imag(z)])` — the parts' dtype (float32 or float64)
//! tells complex64 from complex128.

use crate::lit::{self, DType, Data, FLOATS, NUMERIC};
use crate::ops::{Arg, ArgVal, FnSpec};
use crate::outcome::Tol;
use crate::rng::Rng;

/// A random array of one of `dtypes` with `lo..=hi` dims, none of them
/// empty: NumPy's irfft of an empty axis padded to n reads memory it never
/// wrote (found by this table), so the transforms draw non-empty data; an
/// empty axis is an error checked in runtime/tests/core/fft.rs.
fn nonempty(rng: &mut Rng, dtypes: &[DType], lo: usize, hi: usize) -> ArgVal {
    let d = dtypes[rng.below(dtypes.len())];
    let nd = rng.range(lo as i64, hi as i64) as usize;
    let shape: Vec<usize> = (0..nd).map(|_| rng.range(1, 5) as usize).collect();
    ArgVal::Array(lit::array(rng, d, &shape, Data::Random))
}
fn floats13(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    nonempty(rng, FLOATS, 1, 3)
}
fn floats23(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    nonempty(rng, FLOATS, 2, 3)
}
fn numeric13(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    nonempty(rng, NUMERIC, 1, 3)
}
const F13: Arg = Arg::Gen(floats13);
const F23: Arg = Arg::Gen(floats23);
const N13: Arg = Arg::Gen(numeric13);

const fn arr(dtypes: &'static [DType], lo: usize, hi: usize) -> Arg {
    Arg::Array {
        dtypes,
        ndim: (lo, hi),
        data: Data::Random,
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

const AXIS: Arg = Arg::Axis { of: 0, none: false };
const BCAST: Arg = Arg::Broadcast {
    of: 0,
    dtypes: FLOATS,
    data: Data::Random,
};
const NORM: Arg = Arg::Choice(&[
    ("none", "None"),
    ("\"backward\"", "'backward'"),
    ("\"ortho\"", "'ortho'"),
    ("\"forward\"", "'forward'"),
]);
const LEN: Arg = Arg::Choice(&[("1", "1"), ("3", "3"), ("4", "4"), ("7", "7"), ("8", "8")]);
/// FFTs are accurate norm-wise: within c * log2(n) * eps of the largest term.
const FFT_TOL: Tol = Tol::Norm(64);

/// The family's rows.
pub const FFT: &[FnSpec] = &[
    // Complex arithmetic and builtins on `z = {0} + 1j * {1}`.
    row(
        "complex_mul_div",
        "stack([real(({0} + 1j * {1}) * ({1} - 2j) / ({0} + 3.5j)), imag(({0} + 1j * {1}) * ({1} - 2j) / ({0} + 3.5j))])",
        "np.stack([(({0} + 1j * {1}) * ({1} - 2j) / ({0} + 3.5j)).real, (({0} + 1j * {1}) * ({1} - 2j) / ({0} + 3.5j)).imag])",
        &[arr(FLOATS, 0, 3), BCAST],
        Tol::Norm(16),
    ),
    row(
        "complex_abs_angle",
        "stack([abs({0} + 1j * {1}), angle({0} + 1j * {1})])",
        "np.stack([np.abs({0} + 1j * {1}), np.angle({0} + 1j * {1})])",
        &[arr(FLOATS, 0, 3), BCAST],
        Tol::Ulps(4),
    ),
    row(
        "complex_exp_sqrt",
        "stack([real(exp({0} + 1j * {1})), imag(sqrt({0} + 1j * {1})), real(log({0} + 1j * {1} + 5j))])",
        "np.stack([np.exp({0} + 1j * {1}).real, np.sqrt({0} + 1j * {1}).imag, np.log({0} + 1j * {1} + 5j).real])",
        &[arr(FLOATS, 0, 3), BCAST],
        Tol::Ulps(16),
    ),
    row(
        "complex_conj_eq",
        "stack([conj({0} + 1j * {1}) == ({0} - 1j * {1}), ({0} + 1j * {1}) != {0}])",
        "np.stack([np.conj({0} + 1j * {1}) == ({0} - 1j * {1}), ({0} + 1j * {1}) != {0}])",
        &[arr(FLOATS, 0, 3), BCAST],
        Tol::Exact,
    ),
    row(
        "complex_sum_prod",
        "stack([real(sum({0} + 1j * {0}, axis={1})), imag(mean({0} - 2j * {0}, axis={1})), real(prod(1 + 0.1j * {0}, axis={1}))])",
        "np.stack([np.sum({0} + 1j * {0}, axis={1}).real, np.mean({0} - 2j * {0}, axis={1}).imag, np.prod(1 + 0.1j * {0}, axis={1}).real])",
        &[arr(FLOATS, 1, 3), AXIS],
        Tol::Norm(16),
    ),
    row(
        "complex_matmul",
        "stack([real(({0} + 1j * {0}) @ ({0}.T - 0.5j)), imag(({0} + 1j * {0}) @ ({0}.T - 0.5j))])",
        "np.stack([(({0} + 1j * {0}) @ ({0}.T - 0.5j)).real, (({0} + 1j * {0}) @ ({0}.T - 0.5j)).imag])",
        &[arr(FLOATS, 2, 2)],
        Tol::Norm(16),
    ),
    row(
        "complex_promotion",
        "stack([real({0} + ({1} * 1j).astype(complex64)), imag({0}.astype(float32) * 1j + {1})])",
        "np.stack([({0} + ({1} * 1j).astype(np.complex64)).real, ({0}.astype(np.float32) * 1j + {1}).imag])",
        &[arr(NUMERIC, 0, 3), BCAST],
        Tol::Ulps(2),
    ),
    // The FFT family (non-empty data, see `nonempty`).
    row(
        "fft",
        "stack([real(fft({0}, axis={1}, norm={2})), imag(fft({0}, axis={1}, norm={2}))])",
        "np.stack([np.fft.fft({0}, axis={1}, norm={2}).real, np.fft.fft({0}, axis={1}, norm={2}).imag])",
        &[N13, AXIS, NORM],
        FFT_TOL,
    ),
    row(
        "fft_n",
        "stack([real(fft({0}, n={2}, axis={1})), imag(fft({0}, n={2}, axis={1}))])",
        "np.stack([np.fft.fft({0}, n={2}, axis={1}).real, np.fft.fft({0}, n={2}, axis={1}).imag])",
        &[F13, AXIS, LEN],
        FFT_TOL,
    ),
    row(
        "ifft_complex",
        "stack([real(ifft({0} + 1j * {1}, axis=-1, norm={2})), imag(ifft({0} + 1j * {1}, axis=-1, norm={2}))])",
        "np.stack([np.fft.ifft({0} + 1j * {1}, axis=-1, norm={2}).real, np.fft.ifft({0} + 1j * {1}, axis=-1, norm={2}).imag])",
        &[F13, BCAST, NORM],
        FFT_TOL,
    ),
    row(
        "rfft",
        "stack([real(rfft({0}, n={2}, axis={1}, norm={3})), imag(rfft({0}, n={2}, axis={1}, norm={3}))])",
        "np.stack([np.fft.rfft({0}, n={2}, axis={1}, norm={3}).real, np.fft.rfft({0}, n={2}, axis={1}, norm={3}).imag])",
        &[N13, AXIS, LEN, NORM],
        FFT_TOL,
    ),
    row(
        "irfft",
        "irfft({0} + 1j * {0} ** 2, axis={1}, norm={2})",
        "np.fft.irfft({0} + 1j * {0} ** 2, axis={1}, norm={2})",
        &[F13, AXIS, NORM],
        FFT_TOL,
    ),
    row(
        "irfft_n",
        "irfft({0} - 0.5j * {0}, n={2}, axis={1})",
        "np.fft.irfft({0} - 0.5j * {0}, n={2}, axis={1})",
        &[F13, AXIS, LEN],
        FFT_TOL,
    ),
    row(
        "fft2_ifft2",
        "stack([real(fft2({0}, norm={1})), imag(ifft2({0} + 1j, norm={1}))])",
        "np.stack([np.fft.fft2({0}, norm={1}).real, np.fft.ifft2({0} + 1j, norm={1}).imag])",
        &[F23, NORM],
        FFT_TOL,
    ),
    row(
        "rfft2",
        "stack([real(rfft2({0})), imag(rfft2({0}))])",
        "np.stack([np.fft.rfft2({0}).real, np.fft.rfft2({0}).imag])",
        &[F23],
        FFT_TOL,
    ),
    row(
        "irfft2",
        "irfft2({0} + 0.5j * {0}, s=({1}, {1}))",
        "np.fft.irfft2({0} + 0.5j * {0}, s=({1}, {1}))",
        &[F23, LEN],
        FFT_TOL,
    ),
    row(
        "fftn_ifftn",
        "stack([real(fftn({0})), imag(ifftn({0} * (1 - 1j), axes=(0,)))])",
        "np.stack([np.fft.fftn({0}).real, np.fft.ifftn({0} * (1 - 1j), axes=(0,)).imag])",
        &[F13],
        FFT_TOL,
    ),
    row(
        "rfftn_irfftn",
        "irfftn(rfftn({0}, norm={1}), s={0}.shape, norm={1})",
        "np.fft.irfftn(np.fft.rfftn({0}, norm={1}), s={0}.shape, norm={1})",
        &[F13, NORM],
        FFT_TOL,
    ),
    row(
        "fftfreq",
        "fftfreq({0}, d={1})",
        "np.fft.fftfreq({0}, d={1})",
        &[
            LEN,
            Arg::Choice(&[("1.0", "1.0"), ("0.25", "0.25"), ("3", "3")]),
        ],
        Tol::Ulps(2),
    ),
    row(
        "rfftfreq",
        "rfftfreq({0}, d={1})",
        "np.fft.rfftfreq({0}, d={1})",
        &[LEN, Arg::Choice(&[("1.0", "1.0"), ("0.1", "0.1")])],
        Tol::Ulps(2),
    ),
    row(
        "fftshift",
        "stack([fftshift({0}), ifftshift({0}, axes={1})])",
        "np.stack([np.fft.fftshift({0}), np.fft.ifftshift({0}, axes={1})])",
        &[N13, AXIS],
        Tol::Exact,
    ),
];
