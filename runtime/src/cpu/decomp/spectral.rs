//! The singular value decomposition and the self-adjoint eigendecomposition
//! (faer: bidiagonalization + divide and conquer; tridiagonalization +
//! divide and conquer), in NumPy's layouts: s descending, w ascending,
//! vh = V^H, eigenvectors as columns.

use super::{Field, Mats, Out, batch};
use crate::array::{Array, Element};
use crate::error::Result;
use crate::opid::DecompOp;
use faer::Mat;
use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{self, ComputeEigenvectors};
use faer::linalg::svd::{self, ComputeSvdVectors};
use faer::traits::math_utils::{conj, one, real};

/// u, s, vh (or s alone) of each matrix.
pub(super) fn svd<T: Field>(op: DecompOp, a: &Mats<T>, full: bool, uv: bool) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let (m, n) = (a.rows, a.cols);
    let k = m.min(n);
    let (ucols, vrows) = match (uv, full) {
        (false, _) => (0, 0),
        (true, true) => (m, n),
        (true, false) => (k, k),
    };
    let urows = if uv { m } else { 0 };
    let vcols = if uv { n } else { 0 };
    let mut s_out = Out::<T::Real>::new(a.shape_with(&[k]), 1)?;
    let mut u_out = Out::<T>::new(a.shape_with(&[urows, ucols]), 2)?;
    let mut v_out = Out::<T>::new(a.shape_with(&[vrows, vcols]), 2)?;
    let (s_slots, u_slots, v_slots) = (s_out.slots(), u_out.slots(), v_out.slots());
    let compute = match (uv, full) {
        (false, _) => ComputeSvdVectors::No,
        (true, true) => ComputeSvdVectors::Full,
        (true, false) => ComputeSvdVectors::Thin,
    };
    batch(a.count, m.max(n), |i, par| {
        // SAFETY: index i is this call's alone (see `batch`).
        let (sd, mut ud, mut vd) = unsafe {
            (
                s_slots.chunk(i),
                u_slots.mat(i, urows, ucols),
                v_slots.mat(i, vrows, vcols),
            )
        };
        if k == 0 {
            // No singular values: the full factors are identities.
            for d in 0..urows.min(ucols) {
                ud[(d, d)] = one::<T>();
            }
            for d in 0..vrows.min(vcols) {
                vd[(d, d)] = one::<T>();
            }
            return Ok(());
        }
        let mut s = Diag::<T>::zeros(k);
        let mut u = Mat::<T>::zeros(m, ucols);
        let mut v = Mat::<T>::zeros(n, vrows);
        let mut mem = MemBuffer::new(svd::svd_scratch::<T>(
            m,
            n,
            compute,
            compute,
            par,
            Default::default(),
        ));
        svd::svd(
            a.get(i),
            s.as_mut(),
            uv.then(|| u.as_mut()),
            uv.then(|| v.as_mut()),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        )
        .map_err(|_| op.no_convergence(i, &a.shape))?;
        let sc = s.column_vector();
        for (d, x) in sd.iter_mut().enumerate() {
            *x = real(&sc[d]);
        }
        if uv {
            ud.copy_from(&u);
            vd.copy_from(v.adjoint());
        }
        Ok(())
    })?;
    Ok(match uv {
        true => vec![u_out.into_array(), s_out.into_array(), v_out.into_array()],
        false => vec![s_out.into_array()],
    })
}

/// w (ascending) and the eigenvectors (or w alone) of each self-adjoint
/// matrix, read from its lower (`upper`: upper) triangle.
pub(super) fn eigh<T: Field>(
    op: DecompOp,
    a: &Mats<T>,
    upper: bool,
    vectors: bool,
) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let n = a.rows;
    let vn = if vectors { n } else { 0 };
    let mut w_out = Out::<T::Real>::new(a.shape_with(&[n]), 1)?;
    let mut v_out = Out::<T>::new(a.shape_with(&[vn, vn]), 2)?;
    let (w_slots, v_slots) = (w_out.slots(), v_out.slots());
    let compute = match vectors {
        true => ComputeEigenvectors::Yes,
        false => ComputeEigenvectors::No,
    };
    batch(a.count, n, |i, par| {
        if n == 0 {
            return Ok(());
        }
        let src = a.get(i);
        // The lower triangle faer reads: the matrix's own, or the upper one mirrored.
        let low = match upper {
            false => src.to_owned(),
            true => Mat::<T>::from_fn(n, n, |r, c| match r >= c {
                true => conj(&src[(c, r)]),
                false => src[(r, c)],
            }),
        };
        let mut w = Diag::<T>::zeros(n);
        let mut u = Mat::<T>::zeros(n, vn);
        let mut mem = MemBuffer::new(evd::self_adjoint_evd_scratch::<T>(
            n,
            compute,
            par,
            Default::default(),
        ));
        evd::self_adjoint_evd(
            low.as_ref(),
            w.as_mut(),
            vectors.then(|| u.as_mut()),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        )
        .map_err(|_| op.no_convergence(i, &a.shape))?;
        // SAFETY: index i is this call's alone (see `batch`).
        let (wd, mut vd) = unsafe { (w_slots.chunk(i), v_slots.mat(i, vn, vn)) };
        let wc = w.column_vector();
        for (d, x) in wd.iter_mut().enumerate() {
            *x = real(&wc[d]);
        }
        if vectors {
            vd.copy_from(&u);
        }
        Ok(())
    })?;
    Ok(match vectors {
        true => vec![w_out.into_array(), v_out.into_array()],
        false => vec![w_out.into_array()],
    })
}
