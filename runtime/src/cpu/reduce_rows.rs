//! Reductions over outer axes by whole rows: when a kept axis is the one
//! laid out contiguously (`sum(m, axis=0)`, `max(m.T, axis=1)`, `any(b,
//! axis=0)`), each reduced row is folded into a vector of outputs along that
//! axis (SIMD lanes over columns, as NumPy's strided loops do) instead of
//! walking each output's strided column. Columns are cut into blocks whose
//! accumulators stay in L1 and rows into chunks of a size fixed by the shape,
//! folded in order, so results do not depend on the thread count.

use super::reduce_lane::typed;
use crate::array::{Element, HostData, layout};
use crate::dtype::DType;
use crate::opid::ReduceOp;
use gcalc_kernels::cpu::argreduce::arg_rows;
use gcalc_kernels::cpu::reduce::fold_rows;
use rayon::prelude::*;

/// Columns per block (a block's f64 accumulators take 16 KiB).
const BLOCK: usize = 2048;
/// A block's rows are folded in chunks of at least this many rows (and about
/// 64K elements); chunk results are combined in chunk order.
const MIN_ROWS: usize = 256;
const CHUNK_ELEMS: usize = 1 << 16;

/// Where the rows and the output vectors of a row-wise reduction lie.
pub(super) struct RowPlan {
    /// Kept axes other than the vector axis: their input and output strides.
    outer: Vec<usize>,
    outer_in: Vec<isize>,
    outer_out: Vec<isize>,
    /// The vector axis: length, input stride, output stride.
    n: usize,
    vs: usize,
    vos: usize,
    /// Reduced axes (merged, outermost first), and their element count.
    rs: Vec<usize>,
    rst: Vec<isize>,
    m: usize,
    offset: usize,
}

impl RowPlan {
    /// A row plan when some kept axis has a smaller (positive) stride than
    /// every reduced axis and no stride is negative; `None` otherwise.
    pub(super) fn new(
        ks: &[usize],
        kst: &[isize],
        rs: &[usize],
        rst: &[isize],
        offset: usize,
        m: usize,
    ) -> Option<RowPlan> {
        let mut ost = vec![0isize; ks.len()];
        let mut acc = 1isize;
        for d in (0..ks.len()).rev() {
            ost[d] = acc;
            acc *= ks[d] as isize;
        }
        let (mk, mkst) = layout::merge_dims(ks, &[kst, &ost]);
        let (mr, mrst) = layout::merge_dims(rs, &[rst]);
        // Empty outputs or lanes go the lane way (nothing to fold by rows).
        if m == 0 || ks.contains(&0) || mk.is_empty() || mr.is_empty() {
            return None;
        }
        let (kin, kout, rin) = (&mkst[0], &mkst[1], &mrst[0]);
        if kin.iter().chain(rin).any(|&s| s <= 0) {
            return None;
        }
        let v = (0..mk.len()).min_by_key(|&d| kin[d])?;
        // Tiny folds per outer position (shape (10**6, 2, 5), axis 1) cost
        // more in setup than they save: the lanes take them.
        if kin[v] >= *rin.iter().min()? || mk[v] * m < 64 {
            return None;
        }
        let others = (0..mk.len()).filter(|&d| d != v);
        Some(RowPlan {
            outer: others.clone().map(|d| mk[d]).collect(),
            outer_in: others.clone().map(|d| kin[d]).collect(),
            outer_out: others.map(|d| kout[d]).collect(),
            n: mk[v],
            vs: kin[v] as usize,
            vos: kout[v] as usize,
            rs: mr,
            rst: rin.clone(),
            m,
            offset,
        })
    }

    /// Outputs (C order over the kept axes) of folding each output's reduced
    /// elements: `first` maps the first one, `f` folds the rest in row
    /// order, `combine` joins chunk results in chunk order; `aux` is a
    /// per-output parameter (a mean) handed to `first` and `f`.
    fn fold<S: Element, A: Copy + Send + Sync>(
        &self,
        d: &[S],
        aux: Option<&[f64]>,
        first: impl Fn(S, f64) -> A + Sync,
        f: impl Fn(A, S, f64) -> A + Sync,
        combine: impl Fn(A, A) -> A + Sync,
    ) -> Vec<A> {
        let inner = |acc: &mut [A], aux: &[f64], rows: &[usize]| {
            fold_rows(acc, aux, d, rows, self.vs, &f);
        };
        self.fold_with(d, aux, first, inner, combine)
    }

    /// `fold` with the rest of a chunk's rows folded by `inner(acc, aux,
    /// row offsets)` (a kernel of its own, such as argmax's).
    fn fold_with<S: Element, A: Copy + Send + Sync>(
        &self,
        d: &[S],
        aux: Option<&[f64]>,
        first: impl Fn(S, f64) -> A + Sync,
        inner: impl Fn(&mut [A], &[f64], &[usize]) + Sync,
        combine: impl Fn(A, A) -> A + Sync,
    ) -> Vec<A> {
        let outer: Vec<(usize, usize)> =
            layout::OffsetIter::new(&self.outer, &self.outer_in, self.offset)
                .zip(layout::OffsetIter::new(&self.outer, &self.outer_out, 0))
                .collect();
        let (nb, blen) = (self.n.div_ceil(BLOCK), self.n.min(BLOCK));
        let cr = (CHUNK_ELEMS / blen).max(MIN_ROWS);
        let nc = self.m.div_ceil(cr);
        let work = |item: usize| -> Vec<A> {
            let (o, b, c) = (item / (nb * nc), item / nc % nb, item % nc);
            let (ib, ob) = outer[o];
            let j0 = b * BLOCK;
            let len = BLOCK.min(self.n - j0);
            let r0 = c * cr;
            let rows = row_offsets(
                &self.rs,
                &self.rst,
                r0,
                cr.min(self.m - r0),
                ib + j0 * self.vs,
            );
            let auxv: Vec<f64> = match aux {
                Some(a) => (0..len).map(|j| a[ob + (j0 + j) * self.vos]).collect(),
                None => vec![0.0; len],
            };
            let mut acc: Vec<A> = (0..len)
                .map(|j| first(d[rows[0] + j * self.vs], auxv[j]))
                .collect();
            inner(&mut acc, &auxv, &rows[1..]);
            acc
        };
        let items = outer.len() * nb * nc;
        let parts: Vec<Vec<A>> =
            if items > 1 && outer.len() * self.n * self.m >= super::reduce::PAR_ELEMS {
                (0..items).into_par_iter().map(work).collect()
            } else {
                (0..items).map(work).collect()
            };
        let mut out = vec![parts[0][0]; outer.len() * self.n];
        for (o, &(_, ob)) in outer.iter().enumerate() {
            for b in 0..nb {
                let base = (o * nb + b) * nc;
                let mut acc = parts[base].clone();
                for part in &parts[base + 1..base + nc] {
                    for (a, &x) in acc.iter_mut().zip(part) {
                        *a = combine(*a, x);
                    }
                }
                for (j, a) in acc.into_iter().enumerate() {
                    out[ob + (b * BLOCK + j) * self.vos] = a;
                }
            }
        }
        out
    }
}

/// Offsets `base + ..` of elements `start..start + count` (C order) of a strided view.
fn row_offsets(
    shape: &[usize],
    st: &[isize],
    start: usize,
    count: usize,
    base: usize,
) -> Vec<usize> {
    let nd = shape.len();
    let mut idx = vec![0usize; nd];
    let (mut rem, mut cur) = (start, base);
    for d in (0..nd).rev() {
        idx[d] = rem % shape[d];
        rem /= shape[d];
        cur += idx[d] * st[d] as usize;
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(cur);
        let mut d = nd;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            cur += st[d] as usize;
            if idx[d] < shape[d] {
                break;
            }
            cur -= st[d] as usize * shape[d];
            idx[d] = 0;
        }
    }
    out
}

/// Whether `x` should replace `a` as the running max (`MAX`) or min, NaN winning.
#[inline(always)]
fn better<S: Element, const MAX: bool>(a: S, x: S) -> bool {
    if S::DTYPE.is_float() {
        let (xf, af) = (x.to_f64(), a.to_f64());
        #[allow(clippy::eq_op)]
        let nan = xf != xf;
        nan || if MAX { xf > af } else { xf < af }
    } else if MAX {
        x.to_i64() > a.to_i64()
    } else {
        x.to_i64() < a.to_i64()
    }
}

fn extreme<S: Element, const MAX: bool>(p: &RowPlan, d: &[S]) -> Vec<S> {
    let pick = |a: S, x: S| if better::<S, MAX>(a, x) { x } else { a };
    p.fold(d, None, |x, _| x, |a, x, _| pick(a, x), pick)
}

/// Argmax (`MAX`) or argmin by rows: each column carries (best, its row,
/// rows seen); the first NaN wins, then the first of equal values, as NumPy.
/// f32/f64/i32/i64 fold their rows in the SIMD kernel `arg_rows`.
fn arg<S: Element, const MAX: bool>(p: &RowPlan, d: &[S]) -> Vec<i64> {
    macro_rules! fast {
        ($t:ty) => {
            if let Some(x) = typed::<S, $t>(d) {
                let inner = |acc: &mut [($t, i64, i64)], _: &[f64], rows: &[usize]| {
                    let mut best: Vec<$t> = acc.iter().map(|a| a.0).collect();
                    let mut idx = vec![0u32; acc.len()];
                    arg_rows::<$t, MAX>(&mut best, &mut idx, x, rows, p.vs);
                    for ((a, b), i) in acc.iter_mut().zip(best).zip(idx) {
                        let at = if i > 0 { a.2 + i as i64 } else { a.1 };
                        *a = (b, at, a.2 + rows.len() as i64);
                    }
                };
                return arg_join::<$t, MAX>(p, x, inner);
            }
        };
    }
    fast!(f32);
    fast!(f64);
    fast!(i32);
    fast!(i64);
    // bools only along contiguous rows: through a stride the byte loads
    // ran 3-5x slower than the generic fold (sliced views, axis 0).
    if p.vs == 1 {
        fast!(bool);
    }
    let step = |a: (S, i64, i64), x: S| {
        let c = a.2 + 1;
        if arg_better::<S, MAX>(a.0, x) {
            (x, c, c)
        } else {
            (a.0, a.1, c)
        }
    };
    let inner = |acc: &mut [(S, i64, i64)], aux: &[f64], rows: &[usize]| {
        fold_rows(acc, aux, d, rows, p.vs, |a, x, _| step(a, x));
    };
    arg_join::<S, MAX>(p, d, inner)
}

/// Whether `x` replaces `a` as argmax's (`MAX`) or argmin's running
/// extreme: better, or NaN over a non-NaN.
fn arg_better<S: Element, const MAX: bool>(a: S, x: S) -> bool {
    if S::DTYPE.is_float() {
        let (a, x) = (a.to_f64(), x.to_f64());
        !a.is_nan() && (x.is_nan() || if MAX { x > a } else { x < a })
    } else {
        better::<S, MAX>(a, x)
    }
}

/// The rows fold of argmax with `inner` folding a chunk's rows; chunk
/// results joined in order (a later chunk's rows count from its start).
fn arg_join<S: Element, const MAX: bool>(
    p: &RowPlan,
    d: &[S],
    inner: impl Fn(&mut [(S, i64, i64)], &[f64], &[usize]) + Sync,
) -> Vec<i64> {
    let join = |a: (S, i64, i64), b: (S, i64, i64)| {
        let off = a.2 + 1;
        if arg_better::<S, MAX>(a.0, b.0) {
            (b.0, b.1 + off, b.2 + off)
        } else {
            (a.0, a.1, b.2 + off)
        }
    };
    p.fold_with(d, None, |x, _| (x, 0, 0), inner, join)
        .into_iter()
        .map(|a| a.1)
        .collect()
}

/// `op` by rows (see the module doc).
pub(super) fn run_rows<S: Element>(
    op: ReduceOp,
    d: &[S],
    p: &RowPlan,
    ddof: i64,
    float_x: DType,
) -> Option<HostData> {
    let is_float = S::DTYPE.is_float();
    let float_out = if is_float { S::DTYPE } else { float_x };
    let m = p.m as f64;
    let sum = || {
        if is_float {
            p.fold(
                d,
                None,
                |x, _| x.to_f64(),
                |a, x, _| a + x.to_f64(),
                |a, b| a + b,
            )
        } else {
            p.fold(
                d,
                None,
                |x, _| x.to_i64() as f64,
                |a, x, _| a + x.to_i64() as f64,
                |a, b| a + b,
            )
        }
    };
    // Nonzero as NumPy reads it: NaN is, -0.0 is not; a complex element
    // is when either part is.
    let nz = |x: S| x != S::default();
    Some(match op {
        ReduceOp::Sum if is_float => HostData::from_f64s(float_out, sum().into_iter()),
        ReduceOp::Mean => HostData::from_f64s(float_out, sum().into_iter().map(|s| s / m)),
        ReduceOp::Sum => HostData::I64(p.fold(
            d,
            None,
            |x, _| x.to_i64(),
            |a, x, _| a.wrapping_add(x.to_i64()),
            i64::wrapping_add,
        )),
        ReduceOp::Prod if is_float => HostData::from_f64s(
            S::DTYPE,
            p.fold(
                d,
                None,
                |x, _| x.to_f64(),
                |a, x, _| a * x.to_f64(),
                |a, b| a * b,
            )
            .into_iter(),
        ),
        ReduceOp::Prod => HostData::I64(p.fold(
            d,
            None,
            |x, _| x.to_i64(),
            |a, x, _| a.wrapping_mul(x.to_i64()),
            i64::wrapping_mul,
        )),
        ReduceOp::Var | ReduceOp::Std => {
            let mean: Vec<f64> = sum().into_iter().map(|s| s / m).collect();
            let dev = |x: S, mu: f64| (x.to_f64() - mu) * (x.to_f64() - mu);
            let ss = p.fold(d, Some(&mean), dev, |a, x, mu| a + dev(x, mu), |a, b| a + b);
            let den = m - ddof as f64;
            HostData::from_f64s(
                float_out,
                ss.into_iter().map(|s| {
                    // NumPy's max(n - ddof, 0): s / 0 is inf, or nan for s = 0.
                    let var = s / den.max(0.0);
                    if op == ReduceOp::Std { var.sqrt() } else { var }
                }),
            )
        }
        ReduceOp::Max | ReduceOp::Min => {
            let v = if op == ReduceOp::Max {
                extreme::<S, true>(p, d)
            } else {
                extreme::<S, false>(p, d)
            };
            crate::with_dtype!(S::DTYPE, T => T::wrap(v.into_iter().map(|x| crate::array::convert::<S, T>(x)).collect()))
        }
        ReduceOp::Any => {
            HostData::Bool(p.fold(d, None, |x, _| nz(x), |a, x, _| a | nz(x), |a, b| a | b))
        }
        ReduceOp::All => {
            HostData::Bool(p.fold(d, None, |x, _| nz(x), |a, x, _| a & nz(x), |a, b| a & b))
        }
        ReduceOp::Argmax => HostData::I64(arg::<S, true>(p, d)),
        ReduceOp::Argmin => HostData::I64(arg::<S, false>(p, d)),
        // The NaN-skipping ops take the lane path (`nanreduce.rs`).
        _ => return None,
    })
}
