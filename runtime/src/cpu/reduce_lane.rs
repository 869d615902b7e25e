//! One output position's reduced elements (a `Lane`: a contiguous slice, or
//! runs along the innermost reduced axis) and the folds over it: f64 sums in
//! a fixed order, any/all that stop once decided, max/min and argmax/argmin
//! through the contiguous SIMD kernels. Strided runs reach those kernels as
//! gathered pieces that stay in L1, so no lane walks element by element
//! through a closure.

use crate::array::{Element, layout};
use crate::dtype::DType;
use crate::interrupt::Stop;
use gcalc_kernels::cpu::argext::arg_extreme_fast;
use gcalc_kernels::cpu::argreduce::{arg_extreme_ord, gather, prod_wrapping, sum_wrapping};
use gcalc_kernels::cpu::reduce::{extreme, extreme_ord, fold_prod, fold_sum, test_nonzero};
use rayon::prelude::*;

/// Contiguous lanes longer than this are summed (and searched, by argmax)
/// in parallel chunks of `CHUNK`.
pub(super) const PAR_LANE: usize = 1 << 20;
pub(super) const CHUNK: usize = 1 << 16;
/// The longest piece of a run summed without looking at the interrupt flag.
const RUN_PIECE: usize = 1 << 20;
/// Strided elements are gathered this many at a time (in L1).
const GATHER: usize = 2048;
/// The first gathered piece of a test that may stop early (any/all, bool
/// argmax): pieces then grow 4x up to `GATHER`.
const FIRST_TEST: usize = 16;

/// The offsets where a lane's runs start: one (a strided lane of a single
/// run, the common case: `sum(m[:, ::2], axis=1)`), or an iterator over the
/// outer reduced axes. The single run costs no iterator set-up per lane.
#[derive(Clone)]
pub(super) enum Bases {
    One(std::iter::Once<usize>),
    Many(Box<layout::OffsetIter>),
}

impl Iterator for Bases {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Bases::One(o) => o.next(),
            Bases::Many(it) => it.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Bases::One(o) => o.size_hint(),
            Bases::Many(it) => it.size_hint(),
        }
    }
}

/// The reduced elements of one output position.
#[derive(Clone)]
pub(super) enum Lane<'a, S> {
    Slice(&'a [S]),
    /// Runs of `len` elements `stride` apart, one from each offset of `bases`.
    Runs {
        d: &'a [S],
        bases: Bases,
        len: usize,
        stride: isize,
        /// Looked at before each run: an interrupt ends a long lane early
        /// (the caller then returns the interrupted error).
        stop: &'a Stop,
    },
}

/// `s` as a slice of `T` when `S` is `T` (same dtype), else `None`.
pub(super) fn typed<S: Element, T: Element>(s: &[S]) -> Option<&[T]> {
    (S::DTYPE == T::DTYPE).then(|| {
        // SAFETY: S and T have the same dtype, so they are the same type.
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const T, s.len()) }
    })
}

/// `f` over a strided run: gathered `GATHER` elements at a time into a
/// buffer that stays in L1, each piece through the SIMD kernel (as a
/// contiguous run), the pieces combined in order: the sum, or the product
/// when `MUL`.
fn gathered_fold<S: Element, const MUL: bool>(
    d: &[S],
    b: usize,
    len: usize,
    st: isize,
    f: impl Fn(S) -> f64,
) -> f64 {
    S::with_scratch(len.min(GATHER), |buf| {
        let mut acc = identity::<MUL>();
        let mut k = 0;
        while k < len {
            let n = (len - k).min(GATHER);
            gather(
                d,
                (b as isize + k as isize * st) as usize,
                st,
                &mut buf[..n],
            );
            acc = combine::<MUL>(acc, fold_run::<S, MUL>(&buf[..n], &f));
            k += n;
        }
        acc
    })
}

/// A contiguous piece through the SIMD kernel.
fn fold_run<S: Copy, const MUL: bool>(x: &[S], f: impl Fn(S) -> f64) -> f64 {
    if MUL { fold_prod(x, f) } else { fold_sum(x, f) }
}

fn identity<const MUL: bool>() -> f64 {
    if MUL { 1.0 } else { 0.0 }
}

fn combine<const MUL: bool>(a: f64, b: f64) -> f64 {
    if MUL { a * b } else { a + b }
}

/// The parts' sum (or product) in order.
fn total<const MUL: bool>(parts: impl Iterator<Item = f64>) -> f64 {
    if MUL { parts.product() } else { parts.sum() }
}

impl<S: Element> Lane<'_, S> {
    pub(super) fn sum_f64(self, f: impl Fn(S) -> f64 + Sync + Send) -> f64 {
        self.fold_f64::<false>(f)
    }

    pub(super) fn prod_f64(self, f: impl Fn(S) -> f64 + Sync + Send) -> f64 {
        self.fold_f64::<true>(f)
    }

    /// The sum (or product when `MUL`) of `f` over the lane in float64, in
    /// an order fixed by the shape: 16 accumulators along contiguous pieces,
    /// long lanes in parallel chunks combined in order.
    fn fold_f64<const MUL: bool>(self, f: impl Fn(S) -> f64 + Sync + Send) -> f64 {
        match self {
            Lane::Slice(s) if s.len() >= PAR_LANE => {
                let parts: Vec<f64> = s
                    .par_chunks(CHUNK)
                    .map(|c| fold_run::<S, MUL>(c, &f))
                    .collect();
                total::<MUL>(parts.into_iter())
            }
            Lane::Slice(s) => fold_run::<S, MUL>(s, &f),
            Lane::Runs {
                d,
                bases,
                len,
                stride,
                stop,
            } => {
                // A run in pieces of RUN_PIECE (a fixed order), the
                // interrupt looked at before each.
                let run = |b: usize| {
                    let mut acc = identity::<MUL>();
                    let mut k0 = 0;
                    while k0 < len && !stop.requested() {
                        let n = (len - k0).min(RUN_PIECE);
                        let at = (b as isize + k0 as isize * stride) as usize;
                        let part = if stride == 1 {
                            fold_run::<S, MUL>(&d[at..at + n], &f)
                        } else {
                            gathered_fold::<S, MUL>(d, at, n, stride, &f)
                        };
                        acc = combine::<MUL>(acc, part);
                        k0 += n;
                    }
                    acc
                };
                if len * bases.size_hint().0 >= PAR_LANE {
                    // Runs in groups of a size fixed by the shape, combined in order.
                    let bs: Vec<usize> = bases.collect();
                    let per = (CHUNK / len).max(1);
                    let parts: Vec<f64> = bs
                        .par_chunks(per)
                        .map(|c| total::<MUL>(c.iter().map(|&b| run(b))))
                        .collect();
                    total::<MUL>(parts.into_iter())
                } else {
                    total::<MUL>(bases.map(run))
                }
            }
        }
    }

    /// The lane's elements in order as contiguous pieces: a slice as it
    /// is, long unit-stride runs as they lie, everything else gathered into
    /// a buffer (`first` elements first, then 4x more a piece up to
    /// `GATHER`, so a fold that stops early reads little). `f` returns
    /// true to stop.
    pub(super) fn pieces(self, first: usize, mut f: impl FnMut(&[S]) -> bool) {
        let (d, bases, len, stride, stop) = match self {
            Lane::Slice(s) => {
                f(s);
                return;
            }
            Lane::Runs {
                d,
                bases,
                len,
                stride,
                stop,
            } => (d, bases, len, stride, stop),
        };
        if stride == 1 && len >= GATHER {
            for b in bases {
                if stop.requested() || f(&d[b..b + len]) {
                    return;
                }
            }
            return;
        }
        // Sized to what is read (short lanes that stop early are many).
        let cap = GATHER.min(len.saturating_mul(bases.size_hint().0)).max(1);
        S::with_scratch(cap, |buf| {
            let (mut want, mut fill) = (first.clamp(1, cap), 0);
            for b in bases {
                if stop.requested() {
                    return;
                }
                let mut k = 0;
                while k < len {
                    let n = (len - k).min(want - fill);
                    let at = (b as isize + k as isize * stride) as usize;
                    gather(d, at, stride, &mut buf[fill..fill + n]);
                    (fill, k) = (fill + n, k + n);
                    if fill == want {
                        if f(&buf[..fill]) {
                            return;
                        }
                        (fill, want) = (0, (want * 4).min(cap));
                    }
                }
            }
            if fill > 0 {
                f(&buf[..fill]);
            }
        })
    }

    /// `any`: whether some element is nonzero; else whether all are. Stops
    /// at the first deciding piece (NumPy's any/all on random data look at
    /// a few elements); long slices test their first chunk alone, then the
    /// rest in parallel.
    pub(super) fn test_nonzero(self, any: bool) -> bool {
        let zero = S::default();
        let test = |s: &[S]| {
            if any {
                test_nonzero::<S, true>(s, zero)
            } else {
                test_nonzero::<S, false>(s, zero)
            }
        };
        match self {
            Lane::Slice(s) if s.len() >= PAR_LANE => {
                if test(&s[..CHUNK]) == any {
                    any
                } else if any {
                    s[CHUNK..].par_chunks(CHUNK).any(test)
                } else {
                    s[CHUNK..].par_chunks(CHUNK).all(test)
                }
            }
            l => {
                // Random data decide at the first element: no buffer for it.
                if let Lane::Runs { d, bases, .. } = &l
                    && let Some(b) = bases.clone().next()
                    && test(&d[b..b + 1]) == any
                {
                    return any;
                }
                let mut decided = false;
                l.pieces(FIRST_TEST, |s| {
                    decided = test(s) == any;
                    decided
                });
                if decided { any } else { !any }
            }
        }
    }

    pub(super) fn for_each(self, mut f: impl FnMut(S)) {
        match self {
            Lane::Slice(s) => s.iter().for_each(|&x| f(x)),
            Lane::Runs {
                d,
                bases,
                len,
                stride,
                stop,
            } => {
                for b in bases {
                    if stop.requested() {
                        return;
                    }
                    for k in 0..len {
                        f(d[(b as isize + k as isize * stride) as usize]);
                    }
                }
            }
        }
    }

    /// Wrapping sum (`prod`: product) of the lane's elements as i64.
    pub(super) fn int_fold(self, prod: bool) -> i64 {
        let mut acc = i64::from(prod);
        self.pieces(GATHER, |s| {
            acc = if prod {
                acc.wrapping_mul(prod_wrapping(s, S::to_i64))
            } else {
                acc.wrapping_add(sum_wrapping(s, S::to_i64))
            };
            false
        });
        acc
    }

    /// Max/min of a non-empty lane in its own type, NaN propagating.
    pub(super) fn extreme(self, max: bool) -> S {
        macro_rules! go {
            ($t:ty, $k:ident, $back:expr) => {{
                let mut acc: Option<$t> = None;
                self.pieces(GATHER, |s| {
                    let x: &[$t] = typed(s).unwrap_or_default();
                    if let Some(&x0) = x.first() {
                        let init = acc.unwrap_or(x0);
                        acc = Some(if max {
                            $k::<$t, true>(x, init)
                        } else {
                            $k::<$t, false>(x, init)
                        });
                    }
                    false
                });
                return acc.map($back).unwrap_or_default();
            }};
        }
        match S::DTYPE {
            DType::Float32 => go!(f32, extreme, |r| S::from_f64(r as f64)),
            DType::Float64 => go!(f64, extreme, S::from_f64),
            // Through i64, exactly (an f64 would round int64s past 2^53).
            DType::Int32 => go!(i32, extreme_ord, |r| S::from_i64(r as i64)),
            DType::Int64 => go!(i64, extreme_ord, S::from_i64),
            _ => {}
        }
        let mut best: Option<S> = None;
        let is_float = S::DTYPE.is_float();
        self.for_each(|x| {
            best = Some(match best {
                None => x,
                Some(b) if is_float => {
                    let (xf, bf) = (x.to_f64(), b.to_f64());
                    if bf.is_nan() || (!xf.is_nan() && (if max { bf >= xf } else { bf <= xf })) {
                        b
                    } else {
                        x
                    }
                }
                Some(b) => {
                    if (max && x.to_i64() > b.to_i64()) || (!max && x.to_i64() < b.to_i64()) {
                        x
                    } else {
                        b
                    }
                }
            })
        });
        best.unwrap_or_default()
    }

    /// Argmax (`max`) or argmin of a non-empty lane, its position in the
    /// lane's C order (the first NaN wins, then the first of equal
    /// extremes, as NumPy): f32/f64/i64 by the one-pass kernels per piece
    /// (a contiguous lane of `PAR_LANE` or more in chunks on every core),
    /// i32 by the two-pass one (a NaN ends the search), bools as the first
    /// true (false).
    pub(super) fn arg(self, max: bool) -> i64 {
        macro_rules! go {
            ($t:ty, $k:ident) => {{
                let one = |x: &[$t]| {
                    if max {
                        $k::<$t, true>(x)
                    } else {
                        $k::<$t, false>(x)
                    }
                };
                // A piece's (value, index) folded into the best so far:
                // true once a NaN decided it.
                let mut best = None::<($t, usize)>;
                let mut fold = |(v, i): ($t, usize)| {
                    #[allow(clippy::eq_op)]
                    let nan = v != v;
                    let take = match best {
                        None => true,
                        Some((b, _)) => nan || if max { v > b } else { v < b },
                    };
                    if take {
                        best = Some((v, i));
                    }
                    nan
                };
                // One long contiguous lane (argmax over all of a big
                // array): chunks on every core, folded in order.
                if let Lane::Slice(s) = &self
                    && s.len() >= PAR_LANE
                {
                    let x: &[$t] = typed(s).unwrap_or_default();
                    let parts: Vec<($t, usize)> = x
                        .par_chunks(CHUNK)
                        .enumerate()
                        .map(|(c, p)| {
                            let (v, i) = one(p);
                            (v, c * CHUNK + i)
                        })
                        .collect();
                    for r in parts {
                        if fold(r) {
                            break;
                        }
                    }
                    return best.map_or(0, |b| b.1 as i64);
                }
                let mut seen = 0usize;
                self.pieces(GATHER, |s| {
                    let x: &[$t] = typed(s).unwrap_or_default();
                    if x.is_empty() {
                        return false;
                    }
                    let (v, i) = one(x);
                    let stop = fold((v, seen + i));
                    seen += x.len();
                    stop
                });
                return best.map_or(0, |b| b.1 as i64);
            }};
        }
        match S::DTYPE {
            DType::Float32 => go!(f32, arg_extreme_fast),
            DType::Float64 => go!(f64, arg_extreme_fast),
            DType::Int32 => go!(i32, arg_extreme_ord),
            DType::Int64 => go!(i64, arg_extreme_fast),
            DType::Bool => {
                let (mut at, mut seen) = (None, 0usize);
                self.pieces(FIRST_TEST, |s| {
                    let x: &[bool] = typed(s).unwrap_or_default();
                    at = x.iter().position(|&v| v == max).map(|i| seen + i);
                    seen += x.len();
                    at.is_some()
                });
                return at.unwrap_or(0) as i64;
            }
            _ => {}
        }
        let is_float = S::DTYPE.is_float();
        let (mut best, mut bi, mut i) = (None::<S>, 0i64, 0i64);
        self.for_each(|x| {
            let better = match best {
                None => true,
                Some(b) => {
                    let (xf, bf) = (x.to_f64(), b.to_f64());
                    !bf.is_nan()
                        && (xf.is_nan()
                            || if is_float {
                                if max { xf > bf } else { xf < bf }
                            } else if max {
                                x.to_i64() > b.to_i64()
                            } else {
                                x.to_i64() < b.to_i64()
                            })
                }
            };
            if better {
                best = Some(x);
                bi = i;
            }
            i += 1;
        });
        bi
    }
}
