//! Scans on the CPU (`cumsum cumprod cummax cummin`) over one axis of a
//! contiguous array seen as (outer, n, inner): floats run in float64 and ints
//! in int64, each output rounded once to its dtype. Lanes along the last
//! axis run in parallel; one long lane is cut into fixed chunks (the chunk
//! totals first, then every chunk from its carry, both passes on rayon), so
//! results depend on the sizes only, never on the thread count. Other axes
//! walk rows of `inner` running values. Also the gradient of cummax/cummin:
//! each element's upstream gradient goes to the element that set its running
//! value.

use crate::array::{Array, Element, alloc};
use crate::error::{Error, Result};
use crate::opid::ScanOp;
use gcalc_kernels::cpu::reduce::fold_sum;
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// A long lane is cut into chunks of this many elements.
const CHUNK: usize = 1 << 16;
/// Work (elements) below which a scan stays on one thread.
const PAR_WORK: usize = 1 << 15;
/// Running values kept at once when scanning an inner axis.
const COLS: usize = 256;

/// The running value's type: float64 for floats, int64 for ints and bools.
trait Acc: Copy + Send + Sync + 'static {
    fn load<S: Element>(x: S) -> Self;
    fn store<O: Element>(self) -> O;
}
impl Acc for f64 {
    #[inline(always)]
    fn load<S: Element>(x: S) -> f64 {
        x.to_f64()
    }
    #[inline(always)]
    fn store<O: Element>(self) -> O {
        O::from_f64(self)
    }
}
impl Acc for i64 {
    #[inline(always)]
    fn load<S: Element>(x: S) -> i64 {
        x.to_i64()
    }
    #[inline(always)]
    fn store<O: Element>(self) -> O {
        O::from_i64(self)
    }
}

/// An associative, commutative combination with its identity.
trait Comb<A: Acc>: Copy + Send + Sync + 'static {
    fn id() -> A;
    fn f(a: A, b: A) -> A;
    /// The combination of a whole slice (a chunk's total).
    fn fold<S: Element>(x: &[S]) -> A {
        x.iter().fold(Self::id(), |a, &v| Self::f(a, A::load(v)))
    }
}

#[derive(Clone, Copy)]
struct Add;
#[derive(Clone, Copy)]
struct Mul;
#[derive(Clone, Copy)]
struct Max;
#[derive(Clone, Copy)]
struct Min;

impl Comb<f64> for Add {
    fn id() -> f64 {
        0.0
    }
    #[inline(always)]
    fn f(a: f64, b: f64) -> f64 {
        a + b
    }
    fn fold<S: Element>(x: &[S]) -> f64 {
        fold_sum(x, |v: S| v.to_f64())
    }
}
impl Comb<i64> for Add {
    fn id() -> i64 {
        0
    }
    #[inline(always)]
    fn f(a: i64, b: i64) -> i64 {
        a.wrapping_add(b)
    }
}
impl Comb<f64> for Mul {
    fn id() -> f64 {
        1.0
    }
    #[inline(always)]
    fn f(a: f64, b: f64) -> f64 {
        a * b
    }
}
impl Comb<i64> for Mul {
    fn id() -> i64 {
        1
    }
    #[inline(always)]
    fn f(a: i64, b: i64) -> i64 {
        a.wrapping_mul(b)
    }
}
impl Comb<f64> for Max {
    fn id() -> f64 {
        f64::NEG_INFINITY
    }
    /// NaN propagates: once the running value is NaN it stays NaN.
    #[inline(always)]
    fn f(a: f64, b: f64) -> f64 {
        if a.is_nan() || a > b { a } else { b }
    }
}
impl Comb<i64> for Max {
    fn id() -> i64 {
        i64::MIN
    }
    #[inline(always)]
    fn f(a: i64, b: i64) -> i64 {
        a.max(b)
    }
}
impl Comb<f64> for Min {
    fn id() -> f64 {
        f64::INFINITY
    }
    #[inline(always)]
    fn f(a: f64, b: f64) -> f64 {
        if a.is_nan() || a < b { a } else { b }
    }
}
impl Comb<i64> for Min {
    fn id() -> i64 {
        i64::MAX
    }
    #[inline(always)]
    fn f(a: i64, b: i64) -> i64 {
        a.min(b)
    }
}

/// A pointer to an output buffer that tasks write at disjoint positions.
#[derive(Clone, Copy)]
struct OutPtr<O>(*mut MaybeUninit<O>);
// SAFETY: every task writes its own disjoint set of positions, and the
// buffer outlives the parallel section that writes it.
unsafe impl<O> Send for OutPtr<O> {}
unsafe impl<O> Sync for OutPtr<O> {}
impl<O> OutPtr<O> {
    /// SAFETY: `i` is inside the buffer and no other task writes it.
    #[inline(always)]
    unsafe fn write(self, i: usize, v: O) {
        unsafe { (*self.0.add(i)).write(v) };
    }
}

/// The shape (outer, n, inner) of a contiguous array around `axis`.
pub(crate) fn split_axis(shape: &[usize], axis: usize) -> (usize, usize, usize) {
    let outer = shape[..axis].iter().product();
    let inner = shape[axis + 1..].iter().product();
    (outer, shape[axis], inner)
}

/// `op` along `axis` of host array `a` (`reverse`: from the end of the axis
/// back, as the gradient of a forward scan needs), in `op`'s output dtype.
pub fn scan(op: ScanOp, a: &Array, axis: usize, reverse: bool) -> Result<Array> {
    let a = a.contiguous()?;
    let dims = split_axis(a.shape(), axis);
    let out_dt = op.out_dtype(a.dtype());
    let data = a.host_read()?;
    crate::with_dtype!(a.dtype(), S => {
        let x = S::slice(&data).ok_or_else(|| Error::internal("scan: dtype mismatch"))?;
        crate::with_dtype!(out_dt, O => {
            let mut v = alloc::reserve::<O>(a.shape())?;
            let out = OutPtr(v.spare_capacity_mut().as_mut_ptr());
            let float = a.dtype().is_float();
            match (op, float) {
                (ScanOp::Cumsum, true) => run::<S, O, f64, Add>(x, out, dims, reverse),
                (ScanOp::Cumsum, false) => run::<S, O, i64, Add>(x, out, dims, reverse),
                (ScanOp::Cumprod, true) => run::<S, O, f64, Mul>(x, out, dims, reverse),
                (ScanOp::Cumprod, false) => run::<S, O, i64, Mul>(x, out, dims, reverse),
                (ScanOp::Cummax, true) => run::<S, O, f64, Max>(x, out, dims, reverse),
                (ScanOp::Cummax, false) => run::<S, O, i64, Max>(x, out, dims, reverse),
                (ScanOp::Cummin, true) => run::<S, O, f64, Min>(x, out, dims, reverse),
                (ScanOp::Cummin, false) => run::<S, O, i64, Min>(x, out, dims, reverse),
            }
            // SAFETY: `run` wrote every one of the `size` elements.
            unsafe { v.set_len(x.len()) };
            Ok(Array::from_vec(v, a.shape()))
        })
    })
}

/// Scan each lane of contiguous `x` of shape `(outer, n, inner)` into `out`.
fn run<S: Element, O: Element, A: Acc, C: Comb<A>>(
    x: &[S],
    out: OutPtr<O>,
    (outer, n, inner): (usize, usize, usize),
    reverse: bool,
) {
    if x.is_empty() {
        return;
    }
    if inner > 1 {
        return run_cols::<S, O, A, C>(x, out, (outer, n, inner), reverse);
    }
    if n >= 2 * CHUNK && outer < 2 * rayon::current_num_threads() {
        for lane in 0..outer {
            long_lane::<S, O, A, C>(&x[lane * n..(lane + 1) * n], out, lane * n, reverse);
        }
        return;
    }
    let lane = |l: usize| {
        let xs = &x[l * n..(l + 1) * n];
        serial::<S, O, A, C>(xs, out, l * n, C::id(), reverse);
    };
    if x.len() < PAR_WORK {
        (0..outer).for_each(lane);
    } else {
        let per_task = (PAR_WORK / n).max(1);
        (0..outer.div_ceil(per_task)).into_par_iter().for_each(|t| {
            (t * per_task..((t + 1) * per_task).min(outer)).for_each(lane);
        });
    }
}

/// One stretch of a lane, from running value `carry`, written at `base`
/// onwards in `out`; gives the running value after it.
#[inline(always)]
fn serial<S: Element, O: Element, A: Acc, C: Comb<A>>(
    x: &[S],
    out: OutPtr<O>,
    base: usize,
    carry: A,
    reverse: bool,
) -> A {
    let mut acc = carry;
    if reverse {
        for i in (0..x.len()).rev() {
            acc = C::f(acc, A::load(x[i]));
            // SAFETY: position `base + i` belongs to this stretch only.
            unsafe { out.write(base + i, acc.store()) };
        }
    } else {
        for (i, &v) in x.iter().enumerate() {
            acc = C::f(acc, A::load(v));
            // SAFETY: position `base + i` belongs to this stretch only.
            unsafe { out.write(base + i, acc.store()) };
        }
    }
    acc
}

/// A long lane in fixed chunks: the chunks' totals in parallel, their
/// running carries in order, then every chunk from its carry in parallel.
fn long_lane<S: Element, O: Element, A: Acc, C: Comb<A>>(
    x: &[S],
    out: OutPtr<O>,
    base: usize,
    reverse: bool,
) {
    let totals: Vec<A> = x.par_chunks(CHUNK).map(|c| C::fold(c)).collect();
    let mut carries = vec![C::id(); totals.len()];
    let mut acc = C::id();
    let order: Box<dyn Iterator<Item = usize>> = if reverse {
        Box::new((0..totals.len()).rev())
    } else {
        Box::new(0..totals.len())
    };
    for c in order {
        carries[c] = acc;
        acc = C::f(acc, totals[c]);
    }
    x.par_chunks(CHUNK).enumerate().for_each(|(c, xs)| {
        serial::<S, O, A, C>(xs, out, base + c * CHUNK, carries[c], reverse);
    });
}

/// Scan along a middle axis: rows of up to `COLS` running values, one task
/// per (outer block, column block).
fn run_cols<S: Element, O: Element, A: Acc, C: Comb<A>>(
    x: &[S],
    out: OutPtr<O>,
    (outer, n, inner): (usize, usize, usize),
    reverse: bool,
) {
    let col_blocks = inner.div_ceil(COLS);
    let task = |t: usize| {
        let (o, cb) = (t / col_blocks, t % col_blocks);
        let k0 = cb * COLS;
        let w = COLS.min(inner - k0);
        let mut acc = [C::id(); COLS];
        for s in 0..n {
            let j = if reverse { n - 1 - s } else { s };
            let row = o * n * inner + j * inner + k0;
            for k in 0..w {
                acc[k] = C::f(acc[k], A::load(x[row + k]));
                // SAFETY: (o, j, k0 + k) belongs to this task only.
                unsafe { out.write(row + k, acc[k].store()) };
            }
        }
    };
    if x.len() < PAR_WORK {
        (0..outer * col_blocks).for_each(task);
    } else {
        (0..outer * col_blocks).into_par_iter().for_each(task);
    }
}

/// The gradient of `out = cummax(x)` (or cummin) along `axis` for upstream
/// `g`: each `g[j]` goes to the last position `i <= j` where the running
/// value was set (`x[i] == out[i]`, or `x[i]` is NaN), so ties send it to the
/// later element, as PyTorch's cummax indices do. In `x`'s dtype.
pub fn extreme_backward(x: &Array, out: &Array, g: &Array, axis: usize) -> Result<Array> {
    let (_, n, inner) = split_axis(x.shape(), axis);
    let (x, out, g) = (x.contiguous()?, out.contiguous()?, g.contiguous()?);
    let (xd, od, gd) = (x.host_read()?, out.host_read()?, g.host_read()?);
    crate::with_dtype!(x.dtype(), T => {
        crate::with_dtype!(g.dtype(), G => {
            let bad = || Error::internal("cummax gradient: dtype mismatch");
            let xs = T::slice(&xd).ok_or_else(bad)?;
            let os = T::slice(&od).ok_or_else(bad)?;
            let gs = G::slice(&gd).ok_or_else(bad)?;
            let mut v = alloc::reserve::<T>(x.shape())?;
            v.resize(xs.len(), T::default());
            if n * inner > 0 {
                v.par_chunks_mut(n * inner).enumerate().for_each(|(block, gr)| {
                    let base = block * n * inner;
                    for k in 0..inner {
                        let mut acc = 0.0;
                        for j in (0..n).rev() {
                            let i = base + j * inner + k;
                            acc += gs[i].to_f64();
                            let xi = xs[i].to_f64();
                            if xi == os[i].to_f64() || xi.is_nan() {
                                gr[j * inner + k] = T::from_f64(acc);
                                acc = 0.0;
                            }
                        }
                    }
                });
            }
            Ok(Array::from_vec(v, x.shape()))
        })
    })
}
