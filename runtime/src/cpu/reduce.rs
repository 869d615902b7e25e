//! Reductions on the CPU: each output position's lane (a contiguous slice,
//! or runs along its innermost reduced axis) folded in float64 for floats
//! (sum/mean/var/std, as NumPy's pairwise sums are close to it) and in the
//! element type for max/min, in a fixed chunking so results do not depend on
//! the thread count; long lanes and many outputs run on rayon. Reduced axes
//! are walked in memory order; when a kept axis lies inside them, the row
//! path (`reduce_rows.rs`) takes over.

use super::pair;
use super::reduce_lane::{Bases, Lane};
use super::reduce_rows::{RowPlan, run_rows};
use crate::array::{Array, Element, HostData, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interrupt::Stop;
use crate::opid::ReduceOp;
use rayon::prelude::*;

/// Reductions of fewer elements than this run on one thread: rayon's
/// dispatch (tens of microseconds on two cores) cost more than it saved
/// (argmax over 250 lanes of 400 f32 took 47 us in parallel).
pub(super) const PAR_ELEMS: usize = 1 << 19;
/// From this many elements up to `PAR_ELEMS`, the lanes are split in two
/// halves between this core and the pair helper (`cpu/pair.rs`), which
/// answers within a microsecond where rayon's wake-up did not pay.
pub(super) const PAIR_ELEMS: usize = 1 << 14;

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

impl Plan {
    pub(super) fn lanes<'a, S: Element, R: Send>(
        &'a self,
        d: &'a [S],
        f: impl Fn(Lane<'a, S>) -> R + Sync,
    ) -> Vec<R> {
        self.lanes_on(d, true, f)
    }

    /// `lanes` on this thread: for the folds of bools that stop at the
    /// first element deciding them (`any`, `all`, argmax), whose lanes
    /// mostly read one element: rayon's dispatch cost more than the whole
    /// work (argmin of 2500 x 4000 bools along rows: 4.7x NumPy's time in
    /// parallel, 2.8x here), and even the pair helper's hand-off did
    /// (argmax along rows of 250 x 400 bools: 5.8 -> 8.2 us).
    pub(super) fn lanes_here<'a, S: Element, R: Send>(
        &'a self,
        d: &'a [S],
        f: impl Fn(Lane<'a, S>) -> R + Sync,
    ) -> Vec<R> {
        self.lanes_on(d, false, f)
    }

    fn lanes_on<'a, S: Element, R: Send>(
        &'a self,
        d: &'a [S],
        parallel: bool,
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
                    bases: match k {
                        0 => Bases::One(std::iter::once(base)),
                        _ => {
                            Bases::Many(Box::new(layout::OffsetIter::new(&ms[..k], &st[..k], base)))
                        }
                    },
                    len: ms[k],
                    stride: st[k],
                    stop: &self.stop,
                }
            }
        };
        let bases = self
            .stop
            .until(layout::OffsetIter::new(&self.ks, &self.kst, self.offset));
        let work = n_out * self.m;
        if parallel && n_out > 1 && work >= PAR_ELEMS {
            let bases: Vec<usize> = bases.collect();
            bases.into_par_iter().map(|b| f(lane(b))).collect()
        } else if parallel && n_out > 1 && work >= PAIR_ELEMS {
            // Halves of the lanes on this core and the pair helper's.
            let bases: Vec<usize> = bases.collect();
            let (first, second) = bases.split_at(n_out / 2);
            let mut tail = Vec::new();
            let mut out = Vec::with_capacity(n_out);
            let (lane, f) = (&lane, &f);
            pair::join(
                || out.extend(first.iter().map(|&b| f(lane(b)))),
                || tail.extend(second.iter().map(|&b| f(lane(b)))),
            );
            out.append(&mut tail);
            out
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
        ReduceOp::Sum => HostData::I64(p.lanes(d, |l| l.int_fold(false))),
        ReduceOp::Mean => {
            let v = p.lanes(d, |l| l.sum_f64(|x| x.to_i64() as f64));
            HostData::from_f64s(float_out, v.into_iter().map(|s| s / m))
        }
        ReduceOp::Prod if is_float => HostData::from_f64s(
            S::DTYPE,
            p.lanes(d, |l| l.prod_f64(|x| x.to_f64())).into_iter(),
        ),
        ReduceOp::Prod => HostData::I64(p.lanes(d, |l| l.int_fold(true))),
        ReduceOp::Var | ReduceOp::Std => {
            let v = p.lanes(d, |l| {
                let mean = l.clone().sum_f64(|x| x.to_f64()) / m;
                let ss = l.sum_f64(move |x| (x.to_f64() - mean).powi(2));
                // NumPy's max(n - ddof, 0): ss / 0 is inf, or nan for a zero ss.
                let var = ss / (m - ddof as f64).max(0.0);
                if op == ReduceOp::Std { var.sqrt() } else { var }
            });
            HostData::from_f64s(float_out, v.into_iter())
        }
        ReduceOp::Max | ReduceOp::Min => {
            let max = op == ReduceOp::Max;
            let v = p.lanes(d, |l| l.extreme(max));
            crate::with_dtype!(S::DTYPE, T => T::wrap(v.into_iter().map(|x| crate::array::convert::<S, T>(x)).collect()))
        }
        ReduceOp::Argmax | ReduceOp::Argmin => {
            let max = op == ReduceOp::Argmax;
            if S::DTYPE == DType::Bool {
                HostData::I64(p.lanes_here(d, |l| l.arg(max)))
            } else {
                HostData::I64(p.lanes(d, |l| l.arg(max)))
            }
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
            // Bools mostly decide at the first element; other dtypes are
            // read whole where every element is nonzero (`all(x > -1)`).
            let v = if S::DTYPE == DType::Bool {
                p.lanes_here(d, |l| l.test_nonzero(any))
            } else {
                p.lanes(d, |l| l.test_nonzero(any))
            };
            HostData::Bool(v)
        }
    })
}
