//! LU with partial pivoting (faer, as LAPACK's getrf): solve, inv, and the
//! determinant as NumPy computes it (sign times exp of the summed log|u_ii|,
//! so det and slogdet agree with NumPy to the last bits).

use super::{Field, Mats, Out, batch, re};
use crate::array::{Array, Element};
use crate::error::Result;
use crate::opid::DecompOp;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::{factor, inverse, solve as lu_solve};
use faer::perm::PermRef;
use faer::traits::math_utils::{abs, div, from_real, is_nan, mul, one, zero};
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

    fn perm(&self) -> PermRef<'_, usize> {
        PermRef::new_checked(&self.fwd, &self.bwd, self.fwd.len())
    }

    /// An exact zero on U's diagonal: LAPACK's `info > 0`, NumPy's "Singular matrix".
    fn singular(&self) -> bool {
        let d = self.lu.diagonal();
        (0..self.lu.nrows()).any(|i| d[i] == zero::<T>())
    }

    /// (sign, log|det|) from U's diagonal and the swaps: sign 0 and -inf for
    /// a singular matrix; nan's propagate as in LAPACK.
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
            let m = abs(&u);
            if is_nan(&u) {
                return (u, re::<T>(f64::NAN));
            }
            if m == re::<T>(0.0) {
                return (zero::<T>(), re::<T>(f64::NEG_INFINITY));
            }
            sign = mul(&sign, &div(&u, &from_real::<T>(&m)));
            log += m.to_f64().ln();
        }
        (sign, re::<T>(log))
    }
}

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
