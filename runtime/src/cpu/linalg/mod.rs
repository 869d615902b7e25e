//! matmul on the CPU: float types through the `gemm` crate (reading strided
//! views in place), matrix-vector shapes through gcalc's GEMV loops
//! (`gemv.rs`), ints through a plain loop; NumPy's 1-D promotion and
//! broadcast batch dims.

mod gemv;

use crate::array::{Array, Element, HostData, layout};
use crate::dtype::{DType, promote};
use crate::error::{Error, Result};

/// NumPy matmul of host arrays of at least one dimension.
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    let sh = |a: &Array, b: &Array| {
        format!(
            "{} and {}",
            layout::fmt_shape(a.shape()),
            layout::fmt_shape(b.shape())
        )
    };
    if let Some(r) = matvec_direct(a, b)? {
        return Ok(r);
    }
    // 1-D promotion: (k,) -> (1, k) on the left, (k, 1) on the right.
    let a2 = if a.ndim() == 1 {
        a.view(vec![1, a.shape()[0]], vec![0, a.strides()[0]], a.offset())
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        b.view(vec![b.shape()[0], 1], vec![b.strides()[0], 0], b.offset())
    } else {
        b.clone()
    };
    let (na, nb) = (a2.ndim(), b2.ndim());
    let (m, k) = (a2.shape()[na - 2], a2.shape()[na - 1]);
    let (k2, n) = (b2.shape()[nb - 2], b2.shape()[nb - 1]);
    if k != k2 {
        return Err(Error::shape(
            "matmul",
            format!("mismatch in the inner dimension: shapes {} ({k} != {k2})", sh(a, b)),
        )
        .with_help("the last dim of the first operand must equal the second-to-last of the second; transpose with x.T"));
    }
    let batch = layout::broadcast_shapes(&a2.shape()[..na - 2], &b2.shape()[..nb - 2], "matmul")
        .map_err(|_| {
            Error::shape(
                "matmul",
                format!("batch dimensions do not broadcast: shapes {}", sh(a, b)),
            )
            .with_help("leading dims must be equal or 1")
        })?;
    let dt = promote(a.dtype(), b.dtype());
    let (a2, b2) = (as_dtype(&a2, dt)?, as_dtype(&b2, dt)?);
    let ast = layout::broadcast_strides(&a2.shape()[..na - 2], &a2.strides()[..na - 2], &batch);
    let bst = layout::broadcast_strides(&b2.shape()[..nb - 2], &b2.strides()[..nb - 2], &batch);
    let aoffs: Vec<usize> = layout::OffsetIter::new(&batch, &ast, a2.offset()).collect();
    let boffs: Vec<usize> = layout::OffsetIter::new(&batch, &bst, b2.offset()).collect();
    let mats = Mats {
        m,
        n,
        k,
        a_rs: a2.strides()[na - 2],
        a_cs: a2.strides()[na - 1],
        b_rs: b2.strides()[nb - 2],
        b_cs: b2.strides()[nb - 1],
    };
    let (ha, hb) = (a2.host_read()?, b2.host_read()?);
    let host = match dt {
        DType::Float16 => gemm_all::<half::f16>(&ha, &hb, &aoffs, &boffs, &mats)?,
        DType::Float32 => gemm_all::<f32>(&ha, &hb, &aoffs, &boffs, &mats)?,
        DType::Float64 => gemm_all::<f64>(&ha, &hb, &aoffs, &boffs, &mats)?,
        _ => crate::with_dtype!(dt, T => int_all::<T>(&ha, &hb, &aoffs, &boffs, &mats)?),
    };
    let mut shape = batch;
    if a.ndim() > 1 {
        shape.push(m);
    }
    if b.ndim() > 1 {
        shape.push(n);
    }
    Ok(Array::from_host(host, shape))
}

/// Matrix @ vector and vector @ matrix of one float dtype, straight to the
/// GEMV path (no promoted views, batch offsets or dtype copies); `None`: the
/// general path handles it (other shapes or dtypes, a layout GEMV does not take).
fn matvec_direct(a: &Array, b: &Array) -> Result<Option<Array>> {
    let (dt, na, nb) = (a.dtype(), a.ndim(), b.ndim());
    if dt != b.dtype() || !matches!(dt, DType::Float32 | DType::Float64) {
        return Ok(None);
    }
    let (m, k, n, out) = match (na, nb) {
        (2, 1) => (a.shape()[0], a.shape()[1], 1, a.shape()[0]),
        (1, 2) => (1, a.shape()[0], b.shape()[1], b.shape()[1]),
        _ => return Ok(None),
    };
    let kb = b.shape()[0];
    if k != kb || k == 0 || out == 0 {
        return Ok(None);
    }
    let (ast, bst) = (a.strides(), b.strides());
    let p = Mats {
        m,
        n,
        k,
        a_rs: if na == 2 { ast[0] } else { 0 },
        a_cs: ast[na - 1],
        b_rs: bst[0],
        b_cs: if nb == 2 { bst[1] } else { 0 },
    };
    let (ha, hb) = (a.host_read()?, b.host_read()?);
    fn go<T: Element + num_zero::Zero>(
        ha: &HostData,
        hb: &HostData,
        a: &Array,
        b: &Array,
        p: &Mats,
        out: usize,
    ) -> Option<HostData> {
        let (da, db) = (T::slice(ha)?, T::slice(hb)?);
        let mut host = super::pool::out_host::<T>(out).ok()?;
        let dst = T::slice_mut(&mut host)?;
        T::gemv(da, db, a.offset(), b.offset(), p, dst).then_some(host)
    }
    let host = match dt {
        DType::Float32 => go::<f32>(&ha, &hb, a, b, &p, out),
        _ => go::<f64>(&ha, &hb, a, b, &p, out),
    };
    Ok(host.map(|h| Array::from_host(h, vec![out])))
}

struct Mats {
    m: usize,
    n: usize,
    k: usize,
    a_rs: isize,
    a_cs: isize,
    b_rs: isize,
    b_cs: isize,
}

/// Multiply-adds of one gemm call (a block of rows of a large product).
const BLOCK_WORK: usize = 1 << 28;
/// The shallowest slice of the inner dimension a block takes (see `gemm_all`).
const MIN_INNER: usize = 512;

/// Elements of a matmul output of `batch` matrices, or an error when that
/// count could never be allocated.
fn out_count<T: Element>(batch: usize, p: &Mats) -> Result<usize> {
    crate::array::alloc::checked_numel(&[batch, p.m, p.n], T::DTYPE)
}

fn as_dtype(a: &Array, dt: DType) -> Result<Array> {
    if a.dtype() == dt {
        return Ok(a.clone());
    }
    let data = crate::with_dtype!(dt, T => T::wrap(a.to_vec::<T>()?));
    Ok(Array::from_host(data, a.shape().to_vec()))
}

fn gemm_all<T: Element + num_zero::Zero>(
    ha: &HostData,
    hb: &HostData,
    aoffs: &[usize],
    boffs: &[usize],
    p: &Mats,
) -> Result<HostData> {
    let (da, db) = (T::slice(ha), T::slice(hb));
    let (Some(da), Some(db)) = (da, db) else {
        return Err(Error::internal("matmul: dtype mismatch"));
    };
    // A recycled buffer: the GEMV path writes every element, the others zero it first.
    let total = out_count::<T>(aoffs.len(), p)?;
    let mut host = super::pool::out_host::<T>(total)?;
    let out = T::slice_mut(&mut host).ok_or_else(|| Error::internal("matmul: output type"))?;
    let work = p.m * p.n * p.k;
    let stop = crate::interrupt::Stop::current();
    let par = if work >= 48 * 48 * 48 {
        gemm::Parallelism::Rayon(rayon::current_num_threads())
    } else {
        gemm::Parallelism::None
    };
    for (i, (&ao, &bo)) in aoffs.iter().zip(boffs).enumerate() {
        if p.m * p.n == 0 {
            break;
        }
        let dst = &mut out[i * p.m * p.n..(i + 1) * p.m * p.n];
        if p.k > 0 && T::gemv(da, db, ao, bo, p, dst) {
            continue;
        }
        dst.fill(T::default());
        if p.k == 0 {
            continue;
        }
        // Blocks of about BLOCK_WORK multiply-adds (slices of the inner
        // dimension, later ones adding to what is there; rows of the output
        // when one slice of the whole output is more): an interrupt is seen
        // between them. A slice is at least MIN_INNER deep: gemm's kernels
        // load and store their output tile once per slice (4096 @ 4096 in
        // slices of 16 ran at 0.36-0.55x NumPy's rate).
        let inner = (BLOCK_WORK / (p.m * p.n).max(1)).clamp(MIN_INNER.min(p.k), p.k);
        let rows = (BLOCK_WORK / (p.n * inner).max(1)).clamp(1, p.m);
        for r0 in (0..p.m).step_by(rows) {
            let mb = rows.min(p.m - r0);
            for k0 in (0..p.k).step_by(inner) {
                stop.check()?;
                let kb = inner.min(p.k - k0);
                let (la, lb) = (
                    ao as isize + r0 as isize * p.a_rs + k0 as isize * p.a_cs,
                    bo as isize + k0 as isize * p.b_rs,
                );
                // SAFETY: the views lie inside their buffers (Array's invariant), the
                // offsets come from them; rows r0..r0+mb and columns k0..k0+kb of
                // the left operand, rows k0..k0+kb of the right one and rows
                // r0..r0+mb of dst (m*n elements with the strides given) lie inside
                // them, and nothing else touches these buffers during the call.
                unsafe {
                    gemm::gemm(
                        mb,
                        p.n,
                        kb,
                        dst.as_mut_ptr().add(r0 * p.n),
                        1,
                        p.n as isize,
                        k0 > 0,
                        da.as_ptr().offset(la),
                        p.a_cs,
                        p.a_rs,
                        db.as_ptr().offset(lb),
                        p.b_cs,
                        p.b_rs,
                        T::one(),
                        T::one(),
                        false,
                        false,
                        false,
                        par,
                    );
                }
            }
        }
    }
    stop.check()?;
    Ok(host)
}

/// Zero, one and the GEMV path for the gemm element types.
mod num_zero {
    use super::Mats;
    pub trait Zero: Sized {
        fn one() -> Self;
        /// One product of a matrix-vector shape (m or n is 1) into `dst`, when
        /// the layout suits `gemv`; false: left for gemm.
        fn gemv(
            _a: &[Self],
            _b: &[Self],
            _ao: usize,
            _bo: usize,
            _p: &Mats,
            _dst: &mut [Self],
        ) -> bool {
            false
        }
    }
    macro_rules! float_zero {
        ($($t:ty),*) => {$(
            impl Zero for $t {
                fn one() -> $t {
                    1.0
                }
                fn gemv(a: &[$t], b: &[$t], ao: usize, bo: usize, p: &Mats, dst: &mut [$t]) -> bool {
                    super::gemv::matvec(a, b, ao, bo, p, dst)
                }
            }
        )*};
    }
    float_zero!(f32, f64);
    impl Zero for half::f16 {
        fn one() -> half::f16 {
            half::f16::ONE
        }
    }
}

fn int_all<T: Element>(
    ha: &HostData,
    hb: &HostData,
    aoffs: &[usize],
    boffs: &[usize],
    p: &Mats,
) -> Result<HostData> {
    let (Some(da), Some(db)) = (T::slice(ha), T::slice(hb)) else {
        return Err(Error::internal("matmul: dtype mismatch"));
    };
    let mut out = crate::array::alloc::try_vec(
        out_count::<T>(aoffs.len(), p)?,
        &format!("{} elements", T::DTYPE),
    )?;
    let mut row = vec![0i64; p.n];
    let stop = crate::interrupt::Stop::current();
    for (&ao, &bo) in aoffs.iter().zip(boffs) {
        for i in 0..p.m {
            stop.check()?;
            row.iter_mut().for_each(|r| *r = 0);
            for kk in 0..p.k {
                let av = da[(ao as isize + i as isize * p.a_rs + kk as isize * p.a_cs) as usize]
                    .to_i64();
                for (j, r) in row.iter_mut().enumerate() {
                    let bv = db
                        [(bo as isize + kk as isize * p.b_rs + j as isize * p.b_cs) as usize]
                        .to_i64();
                    *r = r.wrapping_add(av.wrapping_mul(bv));
                }
            }
            out.extend(row.iter().map(|&r| T::from_i64(r)));
        }
    }
    Ok(T::wrap(out))
}
