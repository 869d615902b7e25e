//! `roots(p)` (the eigenvalues of p's companion matrix, through
//! `backend::eig`: real dtype when every root is real, complex otherwise,
//! with p's trailing zeros as zero roots) and `poly(seq_of_zeros)` (the
//! coefficients of the monic polynomial with those roots, or of a square
//! matrix's characteristic polynomial), NumPy's algorithms, on the host.

use super::super::nparr::{data, value_err};
use crate::array::{Array, Cf32, Cf64, alloc};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

fn values(a: &Array) -> Result<Vec<Cf64>> {
    if a.dtype().is_complex() {
        a.to_vec::<Cf64>()
    } else {
        Ok(a.to_vec::<f64>()?
            .into_iter()
            .map(|x| Cf64::new(x, 0.0))
            .collect())
    }
}

/// A 1-d array of `v` as dtype `real` (parts dropped) or its complex twin.
fn vector(v: Vec<Cf64>, real: bool, single: bool) -> Array {
    let n = v.len();
    match (real, single) {
        (true, false) => {
            Array::from_vec(v.into_iter().map(|z| z.re).collect::<Vec<f64>>(), vec![n])
        }
        (true, true) => Array::from_vec(
            v.into_iter().map(|z| z.re as f32).collect::<Vec<f32>>(),
            vec![n],
        ),
        (false, false) => Array::from_vec(v, vec![n]),
        (false, true) => Array::from_vec(
            v.into_iter()
                .map(|z| Cf32::new(z.re as f32, z.im as f32))
                .collect::<Vec<Cf32>>(),
            vec![n],
        ),
    }
}

fn on_cpu(a: &Array, name: &str) -> Result<()> {
    crate::backend::eig::require_cpu(a, name, &format!("{name}(p.to(cpu))"))
}

pub(crate) fn roots(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "roots";
    let p = data(i, a.req("p")?, name, "p")?;
    a.finish()?;
    if p.ndim() > 1 {
        return Err(value_err(
            name,
            format!("Input must be a rank-1 array, got shape {:?}", p.shape()),
            "give the coefficients as a 1-d sequence (highest power first)",
        ));
    }
    on_cpu(&p, name)?;
    let single = matches!(p.dtype(), DType::Float32 | DType::Complex64);
    let complex_in = p.dtype().is_complex();
    let v = values(&p)?;
    let nz: Vec<usize> = (0..v.len())
        .filter(|&k| v[k] != Cf64::new(0.0, 0.0))
        .collect();
    let (Some(&first), Some(&last)) = (nz.first(), nz.last()) else {
        return Ok(Value::Array(Array::from_vec(Vec::<f64>::new(), vec![0])));
    };
    let trailing = v.len() - last - 1;
    let q = &v[first..=last];
    let n = q.len();
    let mut r: Vec<Cf64> = Vec::new();
    let mut real = !complex_in;
    if n > 1 {
        // The companion matrix: ones below the diagonal, -q[1:] / q[0] on top.
        let m = n - 1;
        let mut comp = alloc::vec_with(m * m, |_| Cf64::new(0.0, 0.0))?;
        for c in 0..m {
            comp[c] = -q[c + 1] / q[0];
        }
        for d in 1..m {
            comp[d * m + d - 1] = Cf64::new(1.0, 0.0);
        }
        let comp = if complex_in {
            Array::from_vec(comp, vec![m, m])
        } else {
            Array::from_vec(
                comp.into_iter().map(|z| z.re).collect::<Vec<f64>>(),
                vec![m, m],
            )
        };
        let w = crate::backend::eig::eig(&comp, false, name)?;
        let w = w
            .into_iter()
            .next()
            .ok_or_else(|| Error::internal("roots: no eigenvalues"))?;
        real = real && !w.dtype().is_complex();
        r = values(&w)?;
    }
    r.extend(std::iter::repeat_n(Cf64::new(0.0, 0.0), trailing));
    Ok(Value::Array(vector(r, real, single)))
}

pub(crate) fn poly(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "poly";
    let s = data(i, a.req("seq_of_zeros")?, name, "seq_of_zeros")?;
    a.finish()?;
    let dev = s.device();
    let sh = s.shape().to_vec();
    let (zeros, complex, single) = if sh.len() == 2 && sh[0] == sh[1] && sh[0] != 0 {
        on_cpu(&s, name)?;
        let dt = super::super::linalg_args::lapack_dtype(name, &[&s], i.float_x());
        let s = if s.dtype().is_complex() {
            s
        } else {
            super::super::linalg_args::as_dtype(&s, dt?)?
        };
        let w = crate::backend::eig::eig(&s, false, name)?;
        let w = w
            .into_iter()
            .next()
            .ok_or_else(|| Error::internal("poly: no eigenvalues"))?;
        let single = matches!(w.dtype(), DType::Float32 | DType::Complex64);
        (values(&w)?, w.dtype().is_complex(), single)
    } else if sh.len() <= 1 {
        let single = matches!(s.dtype(), DType::Float32 | DType::Complex64);
        (values(&s)?, s.dtype().is_complex(), single)
    } else {
        return Err(value_err(
            name,
            format!("input must be 1d or non-empty square 2d array, got shape {sh:?}"),
            "give the roots as a 1-d sequence, or a square matrix",
        ));
    };
    if zeros.is_empty() {
        return Ok(Value::Float(1.0));
    }
    // a = [1]; for z in zeros: a = convolve(a, [1, -z])
    let mut c = vec![Cf64::new(1.0, 0.0)];
    for z in &zeros {
        let mut next = c.clone();
        next.push(Cf64::new(0.0, 0.0));
        for (k, ck) in c.iter().enumerate() {
            next[k + 1] -= ck * z;
        }
        c = next;
    }
    let mut real = !complex;
    if complex {
        // Roots that come in conjugate pairs give a real polynomial.
        // NumPy's order: by real part, then imaginary (-0.0 == 0.0).
        let key = |a: &Cf64, b: &Cf64| {
            let eq = std::cmp::Ordering::Equal;
            (a.re.partial_cmp(&b.re).unwrap_or(eq)).then(a.im.partial_cmp(&b.im).unwrap_or(eq))
        };
        let mut r = zeros.clone();
        let mut rc: Vec<Cf64> = zeros.iter().map(|z| z.conj()).collect();
        r.sort_by(key);
        rc.sort_by(key);
        real = r == rc;
    }
    let out = vector(c, real, single);
    let out = if real {
        crate::backend::to_device(&out, dev)?
    } else {
        out
    };
    Ok(Value::Array(out))
}
