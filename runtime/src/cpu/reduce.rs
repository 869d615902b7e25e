//! Reductions on the CPU: each output position's lane (a contiguous slice
//! or a strided walk) folded in float64 for floats (sum/mean/var/std, as
//! NumPy's pairwise sums are close to it) and in the element type for
//! max/min, in a fixed chunking so results do not depend on the thread
//! count; long contiguous lanes and many outputs run on rayon.

use crate::array::{Array, Element, HostData, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interrupt::{Stop, Until};
use crate::opid::ReduceOp;
use gcalc_kernels::cpu::reduce::{extreme, fold_sum};
use rayon::prelude::*;

/// Contiguous lanes longer than this are summed in parallel chunks of `CHUNK`.
const PAR_LANE: usize = 1 << 20;
const CHUNK: usize = 1 << 16;

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
    let plan = Plan {
        ks,
        kst,
        rs,
        rst,
        offset: a.offset(),
        m,
        stop: Stop::current(),
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
}

/// The reduced elements of one output position.
pub(super) enum Lane<'a, S> {
    Slice(&'a [S]),
    Strided(&'a [S], Until<layout::OffsetIter>),
}

impl<S: Element> Lane<'_, S> {
    pub(super) fn sum_f64(self, f: impl Fn(S) -> f64 + Sync + Send) -> f64 {
        match self {
            Lane::Slice(s) if s.len() >= PAR_LANE => {
                let parts: Vec<f64> = s.par_chunks(CHUNK).map(|c| fold_sum(c, &f)).collect();
                parts.iter().sum()
            }
            Lane::Slice(s) => fold_sum(s, f),
            Lane::Strided(d, it) => it.map(|o| f(d[o])).sum(),
        }
    }
    pub(super) fn for_each(self, mut f: impl FnMut(S)) {
        match self {
            Lane::Slice(s) => s.iter().for_each(|&x| f(x)),
            Lane::Strided(d, it) => it.for_each(|o| f(d[o])),
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
                let it = layout::OffsetIter::new(&self.rs, &self.rst, base);
                Lane::Strided(d, self.stop.until(it))
            }
        };
        let bases = self
            .stop
            .until(layout::OffsetIter::new(&self.ks, &self.kst, self.offset));
        if n_out > 1 && n_out * self.m >= 1 << 16 {
            let bases: Vec<usize> = bases.collect();
            bases.into_par_iter().map(|b| f(lane(b))).collect()
        } else {
            bases.map(|b| f(lane(b))).collect()
        }
    }
}

fn run<S: Element>(op: ReduceOp, d: &[S], p: &Plan, ddof: i64, float_x: DType) -> Result<HostData> {
    let is_float = S::DTYPE.is_float();
    let float_out = if is_float { S::DTYPE } else { float_x };
    let m = p.m as f64;
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
                let (mean, ss) = match l {
                    Lane::Slice(s) => {
                        let mean = Lane::Slice(s).sum_f64(|x| x.to_f64()) / m;
                        (
                            mean,
                            Lane::Slice(s).sum_f64(move |x| (x.to_f64() - mean).powi(2)),
                        )
                    }
                    Lane::Strided(dd, it) => {
                        // Two walks (a lane of a broadcast view may be far
                        // larger than memory: its offsets are not stored).
                        let mean = it.clone().map(|o| dd[o].to_f64()).sum::<f64>() / m;
                        (mean, it.map(|o| (dd[o].to_f64() - mean).powi(2)).sum())
                    }
                };
                let _ = mean;
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
            HostData::Bool(p.lanes(d, |l| {
                let mut r = !any;
                l.for_each(|x| {
                    let nz = if is_float {
                        x.to_f64() != 0.0
                    } else {
                        x.to_i64() != 0
                    };
                    if any { r |= nz } else { r &= nz }
                });
                r
            }))
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
