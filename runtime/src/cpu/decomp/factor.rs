//! Cholesky (faer's blocked left-looking LL^T) and Householder QR with the
//! explicit Q NumPy returns.

use super::{Field, Mats, Out, batch};
use crate::array::{Array, Element};
use crate::error::Result;
use crate::opid::{DecompOp, QrMode};
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor as llt;
use faer::linalg::householder;
use faer::linalg::qr::no_pivoting::factor as qrf;
use faer::traits::math_utils::{conj, one, zero};
use faer::{Conj, Mat};

/// L with a = L L^H from the lower triangle of each matrix (`upper`: U with
/// a = U^H U from the upper triangle); an error names the first matrix that
/// is not positive definite.
pub(super) fn cholesky<T: Field>(op: DecompOp, a: &Mats<T>, upper: bool) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let n = a.rows;
    let mut out = Out::<T>::new(a.shape.clone(), 2)?;
    let slots = out.slots();
    batch(a.count, n, |i, par| {
        let src = a.get(i);
        // The Hermitian matrix the chosen triangle stands for (faer reads the lower one).
        let mut l = Mat::<T>::from_fn(n, n, |r, c| match (upper, r >= c) {
            (false, true) => src[(r, c)],
            (false, false) => conj(&src[(c, r)]),
            (true, true) => conj(&src[(c, r)]),
            (true, false) => src[(r, c)],
        });
        let mut mem = MemBuffer::new(llt::cholesky_in_place_scratch::<T>(
            n,
            par,
            Default::default(),
        ));
        let res = llt::cholesky_in_place(
            l.as_mut(),
            Default::default(),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        );
        if let Err(llt::LltError::NonPositivePivot { index }) = res {
            return Err(op.not_positive_definite(i, &a.shape, index + 1));
        }
        // SAFETY: index i is this call's alone (see `batch`).
        let mut dst = unsafe { slots.mat(i, n, n) };
        for r in 0..n {
            for c in 0..n {
                dst[(r, c)] = match upper {
                    false if r >= c => l[(r, c)],
                    true if r <= c => conj(&l[(c, r)]),
                    _ => zero::<T>(),
                };
            }
        }
        Ok(())
    })?;
    Ok(vec![out.into_array()])
}

/// Q and R of each matrix (or R alone), NumPy's modes.
pub(super) fn qr<T: Field>(a: &Mats<T>, mode: QrMode) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let (m, n) = (a.rows, a.cols);
    let k = m.min(n);
    let (qcols, rrows) = match mode {
        QrMode::Complete => (m, m),
        QrMode::Reduced | QrMode::R => (k, k),
    };
    let mut r_out = Out::<T>::new(a.shape_with(&[rrows, n]), 2)?;
    let want_q = mode != QrMode::R;
    let qcols = if want_q { qcols } else { 0 };
    let mut q_out = Out::<T>::new(a.shape_with(&[m, qcols]), 2)?;
    let (r_slots, q_slots) = (r_out.slots(), q_out.slots());
    batch(a.count, m.max(n), |i, par| {
        let mut qr = a.get(i).to_owned();
        // SAFETY: index i is this call's alone (see `batch`).
        let mut r_dst = unsafe { r_slots.mat(i, rrows, n) };
        let mut q_dst = unsafe { q_slots.mat(i, m, qcols) };
        if k == 0 {
            // No reflections: Q is the identity, R is empty or zeros.
            for d in 0..m.min(qcols) {
                q_dst[(d, d)] = one::<T>();
            }
            return Ok(());
        }
        let bs = qrf::recommended_block_size::<T>(m, n);
        let mut coeff = Mat::<T>::zeros(bs, k);
        let mut mem = MemBuffer::new(qrf::qr_in_place_scratch::<T>(
            m,
            n,
            bs,
            par,
            Default::default(),
        ));
        qrf::qr_in_place(
            qr.as_mut(),
            coeff.as_mut(),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        );
        for r in 0..rrows.min(m) {
            for c in r..n {
                r_dst[(r, c)] = qr[(r, c)];
            }
        }
        if !want_q {
            return Ok(());
        }
        // The Householder basis: unit lower trapezoid of the first k columns.
        let basis = Mat::<T>::from_fn(m, k, |r, c| match r.cmp(&c) {
            std::cmp::Ordering::Greater => qr[(r, c)],
            std::cmp::Ordering::Equal => one::<T>(),
            std::cmp::Ordering::Less => zero::<T>(),
        });
        let mut q = Mat::<T>::identity(m, qcols);
        let mut mem = MemBuffer::new(
            householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<T>(
                m, bs, qcols,
            ),
        );
        householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
            basis.as_ref(),
            coeff.as_ref(),
            Conj::No,
            q.as_mut(),
            par,
            MemStack::new(&mut mem),
        );
        q_dst.copy_from(&q);
        Ok(())
    })?;
    Ok(match mode {
        QrMode::R => vec![r_out.into_array()],
        _ => vec![q_out.into_array(), r_out.into_array()],
    })
}
