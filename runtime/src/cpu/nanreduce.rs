//! The NaN-skipping reductions, `ptp` and `count_nonzero` on the CPU, on the
//! lanes of `reduce.rs`'s plan (so they share its layout handling, its
//! parallel split and whatever makes its loops faster). NaN-skipping ops
//! reach here for floats only (ints and bools take the plain ones). As NumPy:
//! an all-NaN lane gives NaN to nanmax/nanmin/nanmean/nanstd/nanvar and 0 to
//! nansum; nanargmax/nanargmin read NaN as -inf/+inf and refuse an all-NaN
//! lane.

use super::reduce::Plan;
use super::reduce_lane::Lane;
use crate::array::{Element, HostData};
use crate::error::{Error, Result};
use crate::opid::ReduceOp;
use gcalc_kernels::cpu::reduce::fold_sum;

/// `f` of a lane's elements as one slice (a strided lane is gathered first).
fn with_slice<S: Element, R>(l: Lane<'_, S>, f: impl FnOnce(&[S]) -> R) -> R {
    match l {
        Lane::Slice(s) => f(s),
        Lane::Runs {
            d,
            bases,
            len,
            stride,
            ..
        } => {
            let mut v: Vec<S> = Vec::new();
            for b in bases {
                v.extend((0..len).map(|k| d[(b as isize + k as isize * stride) as usize]));
            }
            f(&v)
        }
    }
}

/// The sum and count of a lane's non-NaN elements.
fn sum_count<S: Element>(s: &[S]) -> (f64, f64) {
    let sum = fold_sum(s, |x: S| {
        let v = x.to_f64();
        if v.is_nan() { 0.0 } else { v }
    });
    let count = fold_sum(s, |x: S| if x.to_f64().is_nan() { 0.0 } else { 1.0 });
    (sum, count)
}

/// The variance of a lane's non-NaN elements, dividing by count - ddof (NaN
/// when that is not positive).
fn nan_var<S: Element>(s: &[S], ddof: i64) -> f64 {
    let (sum, count) = sum_count(s);
    let mean = sum / count;
    let ss = fold_sum(s, |x: S| {
        let v = x.to_f64();
        if v.is_nan() {
            0.0
        } else {
            (v - mean) * (v - mean)
        }
    });
    let dof = count - ddof as f64;
    if dof <= 0.0 { f64::NAN } else { ss / dof }
}

/// The largest (`max`) or smallest non-NaN element; NaN when there is none.
fn nan_extreme<S: Element>(s: &[S], max: bool) -> f64 {
    let (init, inf) = if max {
        (f64::NEG_INFINITY, f64::NEG_INFINITY)
    } else {
        (f64::INFINITY, f64::INFINITY)
    };
    let m = s.iter().fold(init, |a, &x| {
        let v = x.to_f64();
        if (max && v > a) || (!max && v < a) {
            v
        } else {
            a
        }
    });
    if m == inf && !s.iter().any(|&x| x.to_f64() == inf) {
        f64::NAN
    } else {
        m
    }
}

/// NumPy's nanargmax (`max`) / nanargmin: NaN read as -inf / +inf, the first
/// best index; None when every element is NaN.
fn nan_arg<S: Element>(s: &[S], max: bool) -> Option<i64> {
    let fill = if max {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    let (mut best, mut bi, mut any) = (0.0, 0i64, false);
    for (i, &x) in s.iter().enumerate() {
        let raw = x.to_f64();
        any |= !raw.is_nan();
        let v = if raw.is_nan() { fill } else { raw };
        if i == 0 || (max && v > best) || (!max && v < best) {
            best = v;
            bi = i as i64;
        }
    }
    any.then_some(bi)
}

/// `op` (a NaN-skipping reduction of floats, ptp or count_nonzero) of every
/// lane of `p` over `d`.
pub(super) fn run<S: Element>(op: ReduceOp, d: &[S], p: &Plan, ddof: i64) -> Result<HostData> {
    let dt = S::DTYPE;
    let floats = |v: Vec<f64>| HostData::from_f64s(dt, v.into_iter());
    Ok(match op {
        ReduceOp::Nansum => floats(p.lanes(d, |l| with_slice(l, |s| sum_count(s).0))),
        ReduceOp::Nanmean => floats(p.lanes(d, |l| {
            with_slice(l, |s| {
                let (sum, count) = sum_count(s);
                sum / count
            })
        })),
        ReduceOp::Nanvar => floats(p.lanes(d, |l| with_slice(l, |s| nan_var(s, ddof)))),
        ReduceOp::Nanstd => floats(p.lanes(d, |l| with_slice(l, |s| nan_var(s, ddof).sqrt()))),
        ReduceOp::Nanmax | ReduceOp::Nanmin => {
            let max = op == ReduceOp::Nanmax;
            floats(p.lanes(d, |l| with_slice(l, |s| nan_extreme(s, max))))
        }
        ReduceOp::Nanargmax | ReduceOp::Nanargmin => {
            let max = op == ReduceOp::Nanargmax;
            let v = p.lanes(d, |l| with_slice(l, |s| nan_arg(s, max)));
            let v: Option<Vec<i64>> = v.into_iter().collect();
            HostData::I64(v.ok_or_else(|| {
                Error::value("All-NaN slice encountered")
                    .with_op(op.name())
                    .with_help("every element of a lane is NaN: there is no index to give; check with isnan(x).all(axis)")
            })?)
        }
        ReduceOp::Ptp => {
            let is_float = dt.is_float();
            let v = p.lanes(d, |l| {
                with_slice(l, |s| {
                    if is_float {
                        let hi = s
                            .iter()
                            .fold(f64::NEG_INFINITY, |a, &x| pick(a, x.to_f64(), true));
                        let lo = s
                            .iter()
                            .fold(f64::INFINITY, |a, &x| pick(a, x.to_f64(), false));
                        S::from_f64(hi - lo)
                    } else {
                        let hi = s.iter().map(|x| x.to_i64()).max().unwrap_or(0);
                        let lo = s.iter().map(|x| x.to_i64()).min().unwrap_or(0);
                        S::from_i64(hi.wrapping_sub(lo))
                    }
                })
            });
            S::wrap(v)
        }
        ReduceOp::CountNonzero => HostData::I64(p.lanes(d, |l| {
            let mut n = 0i64;
            l.for_each(|x| n += (x.to_f64() != 0.0) as i64);
            n
        })),
        ReduceOp::Sum
        | ReduceOp::Mean
        | ReduceOp::Prod
        | ReduceOp::Max
        | ReduceOp::Min
        | ReduceOp::Argmax
        | ReduceOp::Argmin
        | ReduceOp::Std
        | ReduceOp::Var
        | ReduceOp::Any
        | ReduceOp::All => {
            return Err(Error::internal(format!("nanreduce: {op:?} is reduce.rs's")));
        }
    })
}

/// Max (`max`) or min of a running value and `v`, NaN propagating.
fn pick(a: f64, v: f64, max: bool) -> f64 {
    if a.is_nan() || v.is_nan() {
        f64::NAN
    } else if max {
        a.max(v)
    } else {
        a.min(v)
    }
}
