//! Complex elementwise ops on the host: each operand broadcast to the
//! output's shape and read as complex f64, the op applied in chunks (rayon),
//! the result rounded to the output dtype (complex, real or bool).

use crate::array::{Array, Cf64, Element, alloc};
use crate::dtype::DType;
use crate::error::Result;
use crate::opid::{CxArg, CxOp, ReduceOp};
use rayon::prelude::*;

const CHUNK: usize = 1 << 16;

/// `op` over `args` broadcast to `shape`, as an array of dtype `out`.
pub fn apply(op: CxOp, args: &[CxArg], shape: &[usize], out: DType) -> Result<Array> {
    let n = alloc::checked_numel(shape, out)?;
    alloc::host_budget(n, DType::Complex128, 16 * args.len())?;
    let mut ins: Vec<Vec<Cf64>> = Vec::with_capacity(args.len());
    let mut consts: Vec<Option<Cf64>> = Vec::with_capacity(args.len());
    for a in args {
        match a {
            CxArg::Scalar(re, im) => {
                ins.push(Vec::new());
                consts.push(Some(Cf64::new(*re, *im)));
            }
            CxArg::Array(x) => {
                ins.push(x.broadcast_to(shape)?.to_vec::<Cf64>()?);
                consts.push(None);
            }
        }
    }
    let mut res = alloc::filled::<Cf64>(shape)?;
    let stop = crate::interrupt::Stop::current();
    res.par_chunks_mut(CHUNK)
        .enumerate()
        .try_for_each(|(c, chunk)| {
            stop.check()?;
            let base = c * CHUNK;
            let mut v = [Cf64::new(0.0, 0.0); 3];
            for (j, o) in chunk.iter_mut().enumerate() {
                for (k, slot) in v.iter_mut().enumerate().take(ins.len()) {
                    *slot = consts[k].unwrap_or_else(|| ins[k][base + j]);
                }
                *o = op.apply(&v[..ins.len()]);
            }
            Ok::<(), crate::error::Error>(())
        })?;
    drop(ins);
    crate::with_dtype!(out, T => {
        let v: Vec<T> = alloc::vec_with(n, |i| T::from_parts(res[i].re, res[i].im))?;
        Ok(Array::from_vec(v, shape))
    })
}

/// `sum`, `mean` or `prod` over the axes marked in `red` (complex f64
/// accumulation, rounded to the array's dtype); an empty sum is 0, an empty
/// product 1, an empty mean nan as NumPy's.
pub fn reduce(op: ReduceOp, a: &Array, red: &[bool], keepdims: bool) -> Result<Array> {
    let plan = crate::array::layout::lane_plan(a.shape(), red, keepdims);
    let moved = a.transpose(Some(&plan.perm))?;
    let (m, lanes) = (plan.per_lane, plan.lanes);
    let v = moved.to_vec::<Cf64>()?;
    let stop = crate::interrupt::Stop::current();
    stop.check()?;
    let fold = |l: usize| -> Cf64 {
        let lane = &v[l * m..(l + 1) * m];
        match op {
            ReduceOp::Prod => lane.iter().fold(Cf64::new(1.0, 0.0), |p, &x| p * x),
            ReduceOp::Mean => {
                let s: Cf64 = lane.iter().sum();
                s / m as f64
            }
            _ => lane.iter().sum(),
        }
    };
    let out: Vec<Cf64> = if m == 0 {
        (0..lanes).map(|_| fold(0)).collect()
    } else {
        (0..lanes).into_par_iter().map(fold).collect()
    };
    crate::with_dtype!(a.dtype(), T => {
        let w: Vec<T> = alloc::vec_with(out.len(), |i| T::from_parts(out[i].re, out[i].im))?;
        Ok(Array::from_vec(w, plan.out_shape))
    })
}
