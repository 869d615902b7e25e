//! The matrix-vector case of matmul (one row or one column of output): maps
//! the operands' strides onto the two GEMV loops of `kernels::cpu::gemv`
//! (row dot products, or a sweep of axpys over rows) and splits products
//! over two cores (rayon for large ones, the pair helper for mid-size). Any layout without a unit inner stride is left
//! to gemm.

use super::Mats;
use crate::cpu::pair;
use gcalc_kernels::cpu::gemv::{
    AXPY_HALVES_WORK, GemvFloat, axpy_run_len, fold_parts, rows_axpy, rows_axpy_part, rows_dot,
};
use std::borrow::Cow;

/// Multiply-adds above which a GEMV is split over two threads (each output
/// element is still computed by one thread in a fixed order: deterministic).
const PAR_WORK: usize = 1 << 20;

/// `n` elements of `d` from `off` at `stride`, borrowed when contiguous.
fn vector<T: Copy>(d: &[T], off: usize, stride: isize, n: usize) -> Cow<'_, [T]> {
    if stride == 1 || n <= 1 {
        Cow::Borrowed(&d[off..off + n])
    } else {
        Cow::Owned(
            (0..n)
                .map(|i| d[(off as isize + i as isize * stride) as usize])
                .collect(),
        )
    }
}

/// The matrix operand as rows of unit stride: `rows[r * ld + c]`.
enum Form {
    /// y[i] = row i . x
    Dot(usize),
    /// y = sum_k x[k] * row k
    Axpy(usize),
}

/// Strides of a matrix (outer dim `rs` indexes y in the dot form) as a form.
fn form(y_stride: isize, k_stride: isize) -> Option<Form> {
    if k_stride == 1 && y_stride >= 0 {
        Some(Form::Dot(y_stride as usize))
    } else if y_stride == 1 && k_stride >= 0 {
        Some(Form::Axpy(k_stride as usize))
    } else {
        None
    }
}

/// One matrix-vector product (`p.m == 1` or `p.n == 1`, `p.k > 0`) of the
/// operands at offsets `ao`/`bo` into `dst`; false when the layout does not suit.
pub(super) fn matvec<T: GemvFloat + Send + Sync>(
    a: &[T],
    b: &[T],
    ao: usize,
    bo: usize,
    p: &Mats,
    dst: &mut [T],
) -> bool {
    if p.m == 1 && p.n == 1 {
        let (r, x) = (vector(a, ao, p.a_cs, p.k), vector(b, bo, p.b_rs, p.k));
        rows_dot(&r, 0, &x, dst);
        return true;
    }
    let (mat, mo, f, x) = if p.n == 1 {
        // y (m) = A (m x k) . b[:, 0]
        (a, ao, form(p.a_rs, p.a_cs), vector(b, bo, p.b_rs, p.k))
    } else if p.m == 1 {
        // y (n) = a[0, :] . B (k x n): B's columns index y.
        (b, bo, form(p.b_cs, p.b_rs), vector(a, ao, p.a_cs, p.k))
    } else {
        return false;
    };
    let Some(f) = f else { return false };
    run(&mat[mo..], &f, &x, dst);
    true
}

/// Run the form: above `PAR_WORK` split in two halves of the output on
/// rayon's threads; from `AXPY_HALVES_WORK` on the pair helper, both forms
/// by halves of the matrix's rows, so that each core reads the same half
/// of a matrix used both ways (`X @ w`, then `X.T @ g`) from its own cache.
/// Every output element is computed the same way whoever computes it.
fn run<T: GemvFloat + Send + Sync>(mat: &[T], f: &Form, x: &[T], y: &mut [T]) {
    let work = x.len() * y.len();
    let half = y.len() / 2;
    if work >= PAR_WORK && half > 0 && rayon::current_num_threads() >= 2 {
        let (y0, y1) = y.split_at_mut(half);
        // Rows of the dot form, columns of the axpy form.
        let skip = match *f {
            Form::Dot(ld) => half * ld,
            Form::Axpy(_) => half,
        };
        let rest = &mat[skip.min(mat.len())..];
        rayon::join(|| run_one(mat, f, x, y0), || run_one(rest, f, x, y1));
        return;
    }
    if work < AXPY_HALVES_WORK || half == 0 {
        return run_one(mat, f, x, y);
    }
    match *f {
        Form::Dot(ld) => {
            let (y0, y1) = y.split_at_mut(half);
            let rest = &mat[(half * ld).min(mat.len())..];
            pair::join(|| rows_dot(mat, ld, x, y0), || rows_dot(rest, ld, x, y1));
        }
        Form::Axpy(ld) => {
            let k = x.len();
            let run = axpy_run_len(k, y.len());
            if run >= k {
                return rows_axpy(mat, ld, x, y);
            }
            let (mut first, mut second) =
                (vec![T::default(); y.len()], vec![T::default(); y.len()]);
            let second_ref = &mut second;
            pair::join(
                || rows_axpy_part(mat, ld, x, 0, run, &mut first),
                || rows_axpy_part(mat, ld, x, run, k, second_ref),
            );
            fold_parts(&[&first, &second], y);
        }
    }
}

fn run_one<T: GemvFloat>(mat: &[T], f: &Form, x: &[T], y: &mut [T]) {
    match *f {
        Form::Dot(ld) => rows_dot(mat, ld, x, y),
        Form::Axpy(ld) => rows_axpy(mat, ld, x, y),
    }
}
