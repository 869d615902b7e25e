//! Reductions on the CPU: each output position's lane (a contiguous slice,
//! or runs along its innermost reduced axis) folded in float64 for floats
//! (sum/mean/var/std, as NumPy's pairwise sums are close to it) and in the
//! element type for max/min, in a fixed chunking so results do not depend on
//! the thread count; long lanes and many outputs run on rayon. Reduced axes
//! are walked in memory order; when a kept axis lies inside them, the row
//! path (`reduce_rows.rs`) takes over.

use super::reduce_rows::{RowPlan, run_rows};
use crate::array::{Array, Element, HostData, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interrupt::Stop;
use crate::opid::ReduceOp;
use gcalc_kernels::cpu::reduce::{extreme, extreme_ord, find_first, fold_sum, test_nonzero};
use rayon::prelude::*;

/// Contiguous lanes longer than this are summed in parallel chunks of `CHUNK`.
const PAR_LANE: usize = 1 << 20;
const CHUNK: usize = 1 << 16;
/// Reductions of fewer elements than this run on one thread: rayon's
/// dispatch (tens of microseconds on two cores) cost more than it saved
/// (argmax over 250 lanes of 400 f32 took 47 us in parallel).
pub(super) const PAR_ELEMS: usize = 1 << 19;

/// `op` of host array `a` over the axes marked in `red` (checked by the
/// caller: argmax/argmin take one axis or all, lanes of max/min/argmax/argmin
/// are not empty); `m` is the number of elements a lane reduces.
pub fn reduce(
    op: ReduceOp,
    a: &Array,
    red: &[bool],
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    let m: usize = (0..red.len())
        .filter(|&d| red[d])
        .map(|d| a.shape()[d])
        .product();
    let (mut ks, mut kst, mut rs, mut rst, mut out_shape) =
        (vec![], vec![], vec![], vec![], vec![]);
    for (d, &r) in red.iter().enumerate() {
        if r {
            rs.push(a.shape()[d]);
            rst.push(a.strides()[d]);
            if keepdims {
                out_shape.push(1);
            }
        } else {
            ks.push(a.shape()[d]);
            kst.push(a.strides()[d]);
            out_shape.push(a.shape()[d]);
        }
    }
    // The output, and the lanes' base offsets while it is computed.
    let n_out: usize = out_shape.iter().product();
    crate::array::alloc::host_budget(n_out, DType::Float64, 16)?;
    if !matches!(
        op,
        ReduceOp::Argmax | ReduceOp::Argmin | ReduceOp::Nanargmax | ReduceOp::Nanargmin
    ) {
        // Reduced axes walked in memory order (outermost first): any fixed
        // order sums the same elements; argmax/argmin keep C order for
        // their flat index.
        let mut r: Vec<(usize, isize)> = rs.into_iter().zip(rst).collect();
        r.sort_by_key(|&(_, st)| std::cmp::Reverse(st.unsigned_abs()));
        (rs, rst) = r.into_iter().unzip();
    }
    let rows = RowPlan::new(&ks, &kst, &rs, &rst, a.offset(), m);
    let plan = Plan {
        ks,
        kst,
        rs,
        rst,
        offset: a.offset(),
        m,
        stop: Stop::current(),
        rows,
    };
    let data = a.host_read()?;
    let host = crate::with_dtype!(a.dtype(), S => {
        let d = S::slice(&data).ok_or_else(|| Error::internal("reduce: dtype mismatch"))?;
        run::<S>(op.without_nan_if(!S::DTYPE.is_float()), d, &plan, ddof, float_x)?
    });
    // An interrupt ends strided lanes early: their results are not returned.
    plan.stop.check()?;
    Ok(Array::from_host(host, out_shape))
}

pub(super) struct Plan {
    ks: Vec<usize>,
    kst: Vec<isize>,
    rs: Vec<usize>,
    rst: Vec<isize>,
    offset: usize,
    pub(super) m: usize,
    stop: Stop,
    /// Set when a kept axis lies inside the reduced ones: reduce by rows.
    rows: Option<RowPlan>,
}

/// The reduced elements of one output position.
#[derive(Clone)]
pub(super) enum Lane<'a, S> {
    Slice(&'a [S]),
    /// Runs of `len` elements `stride` apart, one from each offset of `bases`.
    Runs {
        d: &'a [S],
        bases: layout::OffsetIter,
        len: usize,
        stride: isize,
        /// Looked at before each run: an interrupt ends a long lane early
        /// (the caller then returns the interrupted error).
        stop: Stop,
    },
}

/// The longest piece of a run summed without looking at the interrupt flag.
const RUN_PIECE: usize = 1 << 20;

/// Sum of `f` over a strided run, in 8 accumulators (a fixed order).
fn strided_sum<S: Copy>(d: &[S], b: usize, len: usize, st: isize, f: impl Fn(S) -> f64) -> f64 {
    let at = |k: usize| d[(b as isize + k as isize * st) as usize];
    let mut acc = [0f64; 8];
    let full = len / 8 * 8;
    for k in (0..full).step_by(8) {
        for (j, a) in acc.iter_mut().enumerate() {
            *a += f(at(k + j));
        }
    }
    let mut s: f64 = acc.iter().sum();
    for k in full..len {
        s += f(at(k));
    }
    s
}

impl<S: Element> Lane<'_, S> {
    pub(super) fn sum_f64(self, f: impl Fn(S) -> f64 + Sync + Send) -> f64 {
        match self {
            Lane::Slice(s) if s.len() >= PAR_LANE => {
                let parts: Vec<f64> = s.par_chunks(CHUNK).map(|c| fold_sum(c, &f)).collect();
                parts.iter().sum()
            }
            Lane::Slice(s) => fold_sum(s, f),
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
                    let mut sum = 0.0;
                    let mut k0 = 0;
                    while k0 < len && !stop.requested() {
                        let n = (len - k0).min(RUN_PIECE);
                        let at = (b as isize + k0 as isize * stride) as usize;
                        sum += if stride == 1 {
                            fold_sum(&d[at..at + n], &f)
                        } else {
                            strided_sum(d, at, n, stride, &f)
                        };
                        k0 += n;
                    }
                    sum
                };
                if len * bases.size_hint().0 >= PAR_LANE {
                    // Runs in groups of a size fixed by the shape, summed in order.
                    let bs: Vec<usize> = bases.collect();
                    let per = (CHUNK / len).max(1);
                    let parts: Vec<f64> = bs
                        .par_chunks(per)
                        .map(|c| c.iter().map(|&b| run(b)).sum::<f64>())
                        .collect();
                    parts.iter().sum()
                } else {
                    bases.map(run).sum()
                }
            }
        }
    }
    /// `any`: whether some element is nonzero; else whether all are. Stops
    /// at the first deciding piece (NumPy's any/all on random data look at
    /// a few elements), in parallel for long slices.
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
            Lane::Slice(s) if s.len() >= PAR_LANE && any => s.par_chunks(CHUNK).any(test),
            Lane::Slice(s) if s.len() >= PAR_LANE => s.par_chunks(CHUNK).all(test),
            Lane::Slice(s) => test(s),
            Lane::Runs {
                d,
                bases,
                len,
                stride,
                stop,
            } => {
                for b in bases {
                    if stop.requested() {
                        // The caller returns the interrupted error.
                        return !any;
                    }
                    let decided = if stride == 1 {
                        test(&d[b..b + len]) == any
                    } else {
                        (0..len).any(|k| {
                            (d[(b as isize + k as isize * stride) as usize] != zero) == any
                        })
                    };
                    if decided {
                        return any;
                    }
                }
                !any
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
}

impl Plan {
    pub(super) fn lanes<'a, S: Element, R: Send>(
        &self,
        d: &'a [S],
        f: impl Fn(Lane<'a, S>) -> R + Sync,
    ) -> Vec<R> {
        let n_out: usize = self.ks.iter().product();
        let (ms, mst) = layout::merge_dims(&self.rs, &[&self.rst]);
        let contiguous = ms.is_empty() || (ms.len() == 1 && mst[0][0] == 1);
        let lane = |base: usize| {
            if self.m == 0 {
                // Empty lanes read nothing (their base may lie past the buffer).
                Lane::Slice(&d[..0])
            } else if contiguous {
                Lane::Slice(&d[base..base + self.m])
            } else {
                let (k, st) = (ms.len() - 1, &mst[0]);
                Lane::Runs {
                    d,
                    bases: layout::OffsetIter::new(&ms[..k], &st[..k], base),
                    len: ms[k],
                    stride: st[k],
                    stop: self.stop.clone(),
                }
            }
        };
        let bases = self
            .stop
            .until(layout::OffsetIter::new(&self.ks, &self.kst, self.offset));
        if n_out > 1 && n_out * self.m >= PAR_ELEMS {
            let bases: Vec<usize> = bases.collect();
            bases.into_par_iter().map(|b| f(lane(b))).collect()
        } else {
            bases.map(|b| f(lane(b))).collect()
        }
    }
}

fn run<S: Element>(op: ReduceOp, d: &[S], p: &Plan, ddof: i64, float_x: DType) -> Result<HostData> {
    // max/min of bools are any/all, which stop once decided.
    let op = match op {
        ReduceOp::Max if S::DTYPE == DType::Bool => ReduceOp::Any,
        ReduceOp::Min if S::DTYPE == DType::Bool => ReduceOp::All,
        op => op,
    };
    let is_float = S::DTYPE.is_float();
    let float_out = if is_float { S::DTYPE } else { float_x };
    let m = p.m as f64;
    if let Some(rows) = &p.rows
        && let Some(r) = run_rows(op, d, rows, ddof, float_x)
    {
        p.stop.check()?;
        return Ok(r);
    }
    Ok(match op {
        ReduceOp::Sum | ReduceOp::Mean if is_float => {
            let v = p.lanes(d, |l| l.sum_f64(|x| x.to_f64()));
            let div = if op == ReduceOp::Mean { m } else { 1.0 };
            HostData::from_f64s(float_out, v.into_iter().map(|s| s / div))
        }
        ReduceOp::Sum => HostData::I64(p.lanes(d, |l| {
            let mut s = 0i64;
            l.for_each(|x| s = s.wrapping_add(x.to_i64()));
            s
        })),
        ReduceOp::Mean => {
            let v = p.lanes(d, |l| l.sum_f64(|x| x.to_i64() as f64));
            HostData::from_f64s(float_out, v.into_iter().map(|s| s / m))
        }
        ReduceOp::Prod if is_float => HostData::from_f64s(
            S::DTYPE,
            p.lanes(d, |l| {
                let mut s = 1.0;
                l.for_each(|x| s *= x.to_f64());
                s
            })
            .into_iter(),
        ),
        ReduceOp::Prod => HostData::I64(p.lanes(d, |l| {
            let mut s = 1i64;
            l.for_each(|x| s = s.wrapping_mul(x.to_i64()));
            s
        })),
        ReduceOp::Var | ReduceOp::Std => {
            let v = p.lanes(d, |l| {
                let mean = l.clone().sum_f64(|x| x.to_f64()) / m;
                let ss = l.sum_f64(move |x| (x.to_f64() - mean).powi(2));
                let var = ss / (m - ddof as f64);
                let var = if m - ddof as f64 <= 0.0 {
                    f64::NAN
                } else {
                    var
                };
                if op == ReduceOp::Std { var.sqrt() } else { var }
            });
            HostData::from_f64s(float_out, v.into_iter())
        }
        ReduceOp::Max | ReduceOp::Min => {
            let max = op == ReduceOp::Max;
            let v = p.lanes(d, |l| extreme_lane(l, max));
            crate::with_dtype!(S::DTYPE, T => T::wrap(v.into_iter().map(|x| crate::array::convert::<S, T>(x)).collect()))
        }
        ReduceOp::Argmax | ReduceOp::Argmin => {
            let max = op == ReduceOp::Argmax;
            HostData::I64(p.lanes(d, |l| {
                if let Lane::Slice(s) = &l
                    && let Some(i) = arg_slice(s, max)
                {
                    return i;
                }
                let (mut best, mut bi, mut i) = (None::<S>, 0i64, 0i64);
                l.for_each(|x| {
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
            }))
        }
        ReduceOp::Nansum
        | ReduceOp::Nanmean
        | ReduceOp::Nanmax
        | ReduceOp::Nanmin
        | ReduceOp::Nanstd
        | ReduceOp::Nanvar
        | ReduceOp::Nanargmax
        | ReduceOp::Nanargmin
        | ReduceOp::Ptp
        | ReduceOp::CountNonzero => super::nanreduce::run(op, d, p, ddof)?,
        ReduceOp::Any | ReduceOp::All => {
            let any = op == ReduceOp::Any;
            HostData::Bool(p.lanes(d, |l| l.test_nonzero(any)))
        }
    })
}

/// Max/min of a lane in its own type, nan-propagating (the lane is not empty).
fn extreme_lane<S: Element>(l: Lane<'_, S>, max: bool) -> S {
    macro_rules! fast {
        ($t:ty, $s:expr) => {{
            // SAFETY-free reinterpretation through the Element trait: S is $t here.
            let s: &[$t] = $s;
            let init = s[0];
            let r = if max {
                extreme::<$t, true>(s, init)
            } else {
                extreme::<$t, false>(s, init)
            };
            return S::from_f64(r as f64);
        }};
    }
    if let Lane::Slice(s) = &l {
        if let Some(f) = f32_slice(s) {
            fast!(f32, f)
        }
        if let Some(f) = f64_slice(s) {
            fast!(f64, f)
        }
        macro_rules! fast_int {
            ($t:ty) => {{
                // SAFETY: S is $t (checked through its dtype), so the layouts are identical.
                let x: &[$t] =
                    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const $t, s.len()) };
                let r = if max {
                    extreme_ord::<$t, true>(x, x[0])
                } else {
                    extreme_ord::<$t, false>(x, x[0])
                };
                // Through i64, exactly (an f64 would round int64s past 2^53).
                return S::from_i64(r as i64);
            }};
        }
        match S::DTYPE {
            DType::Int64 => fast_int!(i64),
            DType::Int32 => fast_int!(i32),
            _ => {}
        }
    }
    let mut best: Option<S> = None;
    let is_float = S::DTYPE.is_float();
    l.for_each(|x| {
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

fn f32_slice<S: Element>(s: &[S]) -> Option<&[f32]> {
    (S::DTYPE == DType::Float32).then(|| {
        // SAFETY: S is f32 (checked through its dtype), so the layouts are identical.
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const f32, s.len()) }
    })
}

fn f64_slice<S: Element>(s: &[S]) -> Option<&[f64]> {
    (S::DTYPE == DType::Float64).then(|| {
        // SAFETY: S is f64 (checked through its dtype), so the layouts are identical.
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const f64, s.len()) }
    })
}

/// Argmax (`max`) or argmin of a contiguous lane: f32/f64/i32/i64 in two
/// vectorised passes (the extreme, then its first position; the first NaN
/// when there is one, as NumPy), bools as the first true (false); `None`
/// for other dtypes or an empty lane.
fn arg_slice<S: Element>(s: &[S], max: bool) -> Option<i64> {
    macro_rules! go {
        ($t:ty, $ext:ident) => {{
            // SAFETY: S is $t (checked through its dtype), so the layouts are identical.
            let x: &[$t] = unsafe { std::slice::from_raw_parts(s.as_ptr() as *const $t, s.len()) };
            let e = if max {
                $ext::<$t, true>(x, x[0])
            } else {
                $ext::<$t, false>(x, x[0])
            };
            #[allow(clippy::eq_op)]
            let i = if e != e {
                find_first(x, |v| v != v)
            } else {
                find_first(x, |v| v == e)
            };
            i.map(|i| i as i64)
        }};
    }
    if s.is_empty() {
        return None;
    }
    match S::DTYPE {
        DType::Float32 => go!(f32, extreme),
        DType::Float64 => go!(f64, extreme),
        DType::Int32 => go!(i32, extreme_ord),
        DType::Int64 => go!(i64, extreme_ord),
        DType::Bool => {
            // SAFETY: S is bool (checked through its dtype), so the layouts are identical.
            let x: &[bool] =
                unsafe { std::slice::from_raw_parts(s.as_ptr() as *const bool, s.len()) };
            Some(x.iter().position(|&v| v == max).unwrap_or(0) as i64)
        }
        _ => None,
    }
}
