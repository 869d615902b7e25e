//! The eigendecomposition of general square matrices on the CPU (faer:
//! Hessenberg reduction + implicit double-shift QR, real or complex), in
//! NumPy's form: eigenvalues `w` (..., n) and eigenvectors as the columns of
//! `v` (..., n, n), each of unit 2-norm with its largest component real, as
//! LAPACK's geev gives them. Real input gives real `w` and `v` when every
//! eigenvalue of the whole stack is real (NumPy 2's rule), complex ones
//! otherwise; complex input always complex.

use crate::array::{Array, Cf32, Cf64, alloc};
use crate::dtype::DType;
use crate::error::{Error, Result};
use faer::Mat;

/// `[w, v]` (or `[w]`) of every matrix of `a` (dtype float32, float64,
/// complex64 or complex128; the last two axes square).
pub fn eig(a: &Array, vectors: bool, name: &str) -> Result<Vec<Array>> {
    let shape = a.shape().to_vec();
    let nd = shape.len();
    let n = shape[nd - 1];
    let count: usize = shape[..nd - 2].iter().product();
    let complex_in = a.dtype().is_complex();
    let single = matches!(a.dtype(), DType::Float32 | DType::Complex64);
    let data: Vec<Cf64> = if complex_in {
        a.to_vec::<Cf64>()?
    } else {
        a.to_vec::<f64>()?
            .into_iter()
            .map(|x| Cf64::new(x, 0.0))
            .collect()
    };
    if data.iter().any(|z| !z.re.is_finite() || !z.im.is_finite()) {
        return Err(
            Error::value(format!("{name}: Array must not contain infs or NaNs"))
                .with_op(name)
                .with_help("replace them first, e.g. nan_to_num(a)"),
        );
    }
    let mut w = alloc::vec_with(count * n, |_| Cf64::new(0.0, 0.0))?;
    let mut v = alloc::vec_with(if vectors { count * n * n } else { 0 }, |_| {
        Cf64::new(0.0, 0.0)
    })?;
    for b in 0..count {
        let m = &data[b * n * n..(b + 1) * n * n];
        let e = if complex_in {
            Mat::<Cf64>::from_fn(n, n, |r, c| m[r * n + c]).eigen()
        } else {
            Mat::<f64>::from_fn(n, n, |r, c| m[r * n + c].re).eigen()
        }
        .map_err(|_| {
            Error::value(format!(
                "{name}: the eigenvalue iteration did not converge (matrix {b})"
            ))
            .with_op(name)
            .with_help("check the matrix for huge or tiny values (scale it)")
        })?;
        let (s, u) = (e.S().column_vector(), e.U());
        for k in 0..n {
            w[b * n + k] = s[k];
            if vectors {
                write_column(&mut v[b * n * n..(b + 1) * n * n], n, k, |r| u[(r, k)]);
            }
        }
    }
    let real_out = !complex_in && w.iter().all(|z| z.im == 0.0);
    let wshape = shape[..nd - 1].to_vec();
    let mut out = vec![finish(w, wshape, real_out, single)];
    if vectors {
        out.push(finish(v, shape, real_out, single));
    }
    Ok(out)
}

/// Column k of an n x n row-major matrix: `col(r)` scaled to unit 2-norm
/// and rotated so that its largest component is real and positive
/// (LAPACK's normalisation; real vectors keep their sign).
fn write_column(dst: &mut [Cf64], n: usize, k: usize, col: impl Fn(usize) -> Cf64) {
    let vals: Vec<Cf64> = (0..n).map(col).collect();
    let norm = vals.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
    let mut big = 0;
    for (r, z) in vals.iter().enumerate() {
        if z.norm() > vals[big].norm() {
            big = r;
        }
    }
    let top = vals.get(big).copied().unwrap_or(Cf64::new(0.0, 0.0));
    let rot = if top.im != 0.0 {
        top.conj() / top.norm()
    } else {
        Cf64::new(1.0, 0.0)
    };
    let scale = if norm > 0.0 { 1.0 / norm } else { 1.0 };
    for (r, z) in vals.into_iter().enumerate() {
        let mut t = z * rot * scale;
        if r == big && rot.im != 0.0 {
            t.im = 0.0;
        }
        dst[r * n + k] = t;
    }
}

fn finish(v: Vec<Cf64>, shape: Vec<usize>, real: bool, single: bool) -> Array {
    match (real, single) {
        (true, false) => Array::from_vec(v.into_iter().map(|z| z.re).collect::<Vec<f64>>(), shape),
        (true, true) => Array::from_vec(
            v.into_iter().map(|z| z.re as f32).collect::<Vec<f32>>(),
            shape,
        ),
        (false, false) => Array::from_vec(v, shape),
        (false, true) => Array::from_vec(
            v.into_iter()
                .map(|z| Cf32::new(z.re as f32, z.im as f32))
                .collect::<Vec<Cf32>>(),
            shape,
        ),
    }
}
