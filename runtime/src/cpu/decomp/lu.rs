//! LU with partial pivoting (as LAPACK's getrf): solve, inv, and the
//! determinant as NumPy computes it (sign times exp of the summed log|u_ii|,
//! so det and slogdet agree with NumPy to the last bits).
//!
//! A matrix of at most `SCALAR_LU` rows is factored by a plain scalar loop in
//! the order of OpenBLAS's getf2 (what NumPy's getrf runs on small matrices:
//! left-looking, dot products rounded product by product, the first largest
//! |a| as pivot, the column scaled by the pivot's reciprocal). faer's kernels
//! fuse multiply-adds and update right-looking, so on a textbook singular
//! matrix such as [[1,2,3],[4,5,6],[7,8,9]] they leave a tiny nonzero pivot
//! where NumPy gets an exact zero and reports "Singular matrix". Larger
//! matrices use faer's blocked factorization.

use super::{Field, Mats, Out, batch, re};
use crate::array::{Array, Element};
use crate::error::Result;
use crate::opid::DecompOp;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::{factor, inverse, solve as lu_solve};
use faer::perm::PermRef;
use faer::traits::math_utils::{
    abs, abs1, add, div, from_real, min_positive, mul, one, real, recip, sub, zero,
};
use faer::{Conj, Mat, MatRef, Par};

/// One matrix's LU: the packed factors, the row permutation (forward and
/// inverse) and the number of row swaps.
struct Lu<T> {
    lu: Mat<T>,
    fwd: Vec<usize>,
    bwd: Vec<usize>,
    swaps: usize,
}

impl<T: Field> Lu<T>
where
    T::Real: Element,
{
    fn new(a: MatRef<'_, T>, par: Par) -> Lu<T> {
        let n = a.nrows();
        if n <= SCALAR_LU {
            return Lu::scalar(a);
        }
        let mut lu = a.to_owned();
        let (mut fwd, mut bwd) = (vec![0usize; n], vec![0usize; n]);
        let mut mem = MemBuffer::new(factor::lu_in_place_scratch::<usize, T>(
            n,
            n,
            par,
            Default::default(),
        ));
        let (info, _) = factor::lu_in_place(
            lu.as_mut(),
            &mut fwd,
            &mut bwd,
            par,
            MemStack::new(&mut mem),
            Default::default(),
        );
        Lu {
            lu,
            fwd,
            bwd,
            swaps: info.transposition_count,
        }
    }

    /// OpenBLAS's getf2 (the unblocked LU NumPy's getrf runs on small
    /// matrices) on a copy of `a`: left-looking, column by column. Column j
    /// gets the earlier row swaps, then each entry i loses the dot product
    /// of row i of L (its first min(i, j) entries) with the column's top,
    /// summed in order and subtracted once, every product rounded on its
    /// own (no fused multiply-add); the pivot is the first entry of largest
    /// |b| at or below the diagonal, the entries below it are scaled by its
    /// reciprocal, and rows swap only for a nonzero pivot.
    fn scalar(a: MatRef<'_, T>) -> Lu<T> {
        let n = a.nrows();
        let mut lu = a.to_owned();
        let mut fwd: Vec<usize> = (0..n).collect();
        let mut piv: Vec<usize> = (0..n).collect();
        let mut swaps = 0;
        let sfmin = min_positive::<T::Real>();
        for j in 0..n {
            for (i, &p) in piv.iter().enumerate().take(j) {
                if p != i {
                    let t = lu[(i, j)];
                    lu[(i, j)] = lu[(p, j)];
                    lu[(p, j)] = t;
                }
            }
            for i in 1..n {
                let kk = i.min(j);
                if kk == 0 {
                    continue;
                }
                let mut dot = zero::<T>();
                for k in 0..kk {
                    dot = add(&dot, &mul(&lu[(i, k)], &lu[(k, j)]));
                }
                lu[(i, j)] = sub(&lu[(i, j)], &dot);
            }
            // idamax: the first entry of largest |b| (a NaN is passed over
            // unless it comes first).
            let (mut p, mut max) = (j, abs1(&lu[(j, j)]));
            for i in j + 1..n {
                let m = abs1(&lu[(i, j)]);
                if m > max {
                    (p, max) = (i, m);
                }
            }
            let pivot = lu[(p, j)];
            if pivot == zero::<T>() {
                continue;
            }
            if p != j {
                for k in 0..=j {
                    let t = lu[(j, k)];
                    lu[(j, k)] = lu[(p, k)];
                    lu[(p, k)] = t;
                }
                piv[j] = p;
                fwd.swap(j, p);
                swaps += 1;
            }
            if abs(&pivot) >= sfmin {
                let r = recip(&pivot);
                for i in j + 1..n {
                    lu[(i, j)] = mul(&lu[(i, j)], &r);
                }
            } else {
                for i in j + 1..n {
                    lu[(i, j)] = div(&lu[(i, j)], &pivot);
                }
            }
        }
        let mut bwd = vec![0usize; n];
        for (i, &f) in fwd.iter().enumerate() {
            bwd[f] = i;
        }
        Lu {
            lu,
            fwd,
            bwd,
            swaps,
        }
    }

    fn perm(&self) -> PermRef<'_, usize> {
        PermRef::new_checked(&self.fwd, &self.bwd, self.fwd.len())
    }

    /// An exact zero on U's diagonal: LAPACK's `info > 0`, NumPy's "Singular matrix".
    fn singular(&self) -> bool {
        let d = self.lu.diagonal();
        (0..self.lu.nrows()).any(|i| d[i] == zero::<T>())
    }

    /// (sign, log|det|) from U's diagonal and the swaps: sign 0 and -inf for
    /// a singular matrix (an exact zero pivot, even after a NaN). As NumPy, a
    /// real pivot's sign is its comparison with zero, so an infinite pivot
    /// keeps a sign and a NaN one leaves it (the log is NaN); a complex
    /// pivot's phase is u / |u|.
    fn slogdet(&self) -> (T, T::Real) {
        let mut sign = if self.swaps % 2 == 1 {
            from_real::<T>(&re::<T>(-1.0))
        } else {
            one::<T>()
        };
        let mut log = 0.0f64;
        let d = self.lu.diagonal();
        for i in 0..self.lu.nrows() {
            let u = d[i];
            if u == zero::<T>() {
                return (zero::<T>(), re::<T>(f64::NEG_INFINITY));
            }
            let m = abs(&u);
            if T::IS_REAL {
                if real(&u) < re::<T>(0.0) {
                    sign = mul(&sign, &from_real::<T>(&re::<T>(-1.0)));
                }
            } else {
                sign = mul(&sign, &div(&u, &from_real::<T>(&m)));
            }
            log += m.to_f64().ln();
        }
        (sign, re::<T>(log))
    }
}

/// Matrices of at most this many rows take the scalar getf2 loop
/// (`Lu::scalar`); see the module comment.
const SCALAR_LU: usize = 16;

/// x with a x = b for each matrix of the stack (b: n x k per matrix).
pub(super) fn solve<T: Field>(
    op: DecompOp,
    a: &Mats<T>,
    b: &Mats<T>,
    check: bool,
) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let (n, k) = (b.rows, b.cols);
    let mut x = Out::<T>::new(b.shape.clone(), 2)?;
    let slots = x.slots();
    batch(a.count, n, |i, par| {
        let lu = Lu::new(a.get(i), par);
        if check && lu.singular() {
            return Err(op.singular(i, &a.shape));
        }
        let mut rhs = b.get(i).to_owned();
        let mut mem = MemBuffer::new(lu_solve::solve_in_place_scratch::<usize, T>(n, k, par));
        lu_solve::solve_in_place_with_conj(
            lu.lu.as_ref(),
            lu.lu.as_ref(),
            lu.perm(),
            Conj::No,
            rhs.as_mut(),
            par,
            MemStack::new(&mut mem),
        );
        // SAFETY: index i is this call's alone (see `batch`).
        unsafe { slots.mat(i, n, k) }.copy_from(&rhs);
        Ok(())
    })?;
    Ok(vec![x.into_array()])
}

/// The inverse of each matrix of the stack.
pub(super) fn inv<T: Field>(op: DecompOp, a: &Mats<T>, check: bool) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let n = a.rows;
    let mut x = Out::<T>::new(a.shape.clone(), 2)?;
    let slots = x.slots();
    batch(a.count, n, |i, par| {
        let lu = Lu::new(a.get(i), par);
        if check && lu.singular() {
            return Err(op.singular(i, &a.shape));
        }
        let mut out = Mat::<T>::zeros(n, n);
        let mut mem = MemBuffer::new(inverse::inverse_scratch::<usize, T>(n, par));
        inverse::inverse(
            out.as_mut(),
            lu.lu.as_ref(),
            lu.lu.as_ref(),
            lu.perm(),
            par,
            MemStack::new(&mut mem),
        );
        // SAFETY: index i is this call's alone (see `batch`).
        unsafe { slots.mat(i, n, n) }.copy_from(&out);
        Ok(())
    })?;
    Ok(vec![x.into_array()])
}

/// The determinant (`log`: false) or (sign, log|det|) of each matrix.
pub(super) fn det<T: Field>(a: &Mats<T>, log: bool) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let shape = a.shape_with(&[]);
    let mut sign = Out::<T>::new(shape.clone(), 0)?;
    let mut logabs = Out::<T::Real>::new(shape, 0)?;
    let (s_slots, l_slots) = (sign.slots(), logabs.slots());
    batch(a.count, a.rows, |i, par| {
        let (s, l) = Lu::new(a.get(i), par).slogdet();
        // SAFETY: index i is this call's alone (see `batch`).
        let (sd, ld) = unsafe { (s_slots.chunk(i), l_slots.chunk(i)) };
        if log {
            sd[0] = s;
            ld[0] = l;
        } else {
            // NumPy's det: sign * exp(log|det|).
            sd[0] = mul(&s, &from_real::<T>(&re::<T>(l.to_f64().exp())));
        }
        Ok(())
    })?;
    Ok(match log {
        true => vec![sign.into_array(), logabs.into_array()],
        false => vec![sign.into_array()],
    })
}
