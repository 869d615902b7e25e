//! Gradient rules of the QR, singular value and symmetric eigenvalue
//! decompositions (the formulas PyTorch and TensorFlow use). Each gets the
//! gradients of the tuple's items it returned (`GradCall::gs`; a missing
//! one is zero). Where a gradient is not defined — Q's extra columns of
//! `mode="complete"` with m > n, U/Vh of `full_matrices=true` when not
//! square — the rule says so; repeated singular values or eigenvalues give
//! inf/nan through the U/V terms, as in PyTorch.

use super::GradCall;
use super::ewb::{c, eq, where_};
use super::rules_linalg::{
    Grads, back, cols, ev, grids, input, kw_true, leaf, mm, mt, row, rows, tril, unsq,
};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::ops::decomp::{eigh_arrays, solve_arrays, svd_arrays};
use crate::value::Value;

/// Item `k`'s gradient, or zeros like item `k` of `outs`.
fn g_or_zero(fx: DType, call: &GradCall, k: usize, like: &Array) -> Result<Array> {
    match call.gs.get(k) {
        Some(Some(g)) => Ok(g.clone()),
        _ => ev(fx, leaf(like) * c(0.0)),
    }
}

/// x r^-T for upper-triangular square r: (r^-1 x^T)^T.
fn times_inv_t(fx: DType, x: &Array, r: &Array) -> Result<Array> {
    mt(&solve_arrays(r, &mt(x)?, fx)?)
}

/// The gradient of a = q r for square-or-tall a (m >= n, reduced), as
/// TensorFlow's QrGrad.
fn qr_tall(fx: DType, q: &Array, r: &Array, dq: &Array, dr: &Array) -> Result<Array> {
    let qdq = mm(&mt(q)?, dq)?;
    let rdr = mm(r, &mt(dr)?)?;
    let skew = ev(
        fx,
        leaf(&qdq) - leaf(&mt(&qdq)?) + leaf(&rdr) - leaf(&mt(&rdr)?),
    )?;
    let low = tril(fx, &skew)?;
    let ga = mm(q, &ev(fx, leaf(dr) + leaf(&times_inv_t(fx, &low, r)?))?)?;
    let gb = times_inv_t(fx, &ev(fx, leaf(dq) - leaf(&mm(q, &qdq)?))?, r)?;
    ev(fx, leaf(&ga) + leaf(&gb))
}

pub fn qr(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let a = input(i, call, 0, "a")?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let mode_r = call.outs.is_empty();
    let complete = call
        .kw
        .iter()
        .chain(
            call.pos
                .get(1)
                .map(|v| ("mode".to_string(), v.clone()))
                .as_slice()
                .iter(),
        )
        .any(|(k, v)| k == "mode" && matches!(v, Value::Str(s) if &**s == "complete"));
    if complete && m > n {
        return Err(Error::value(
            "qr: the gradient of mode=\"complete\" with m > n is not defined (Q's last m - n columns are not unique)",
        )
        .with_op("qr")
        .with_help("use mode=\"reduced\" under grad"));
    }
    // Q and R of the reduced factorization, and their gradients.
    let (q, r, dq, dr) = match mode_r {
        true => {
            let v = crate::ops::decomp::qr_reduced(&a, fx)?;
            let dq = ev(fx, leaf(&v[0]) * c(0.0))?;
            (v[0].clone(), v[1].clone(), dq, call.g.clone())
        }
        false => {
            let (q, r) = match (&call.outs[0], &call.outs[1]) {
                (Some(q), Some(r)) => (q.clone(), r.clone()),
                _ => return Err(Error::internal("qr gradient: outputs")),
            };
            let (dq, dr) = (g_or_zero(fx, call, 0, &q)?, g_or_zero(fx, call, 1, &r)?);
            (q, r, dq, dr)
        }
    };
    if m >= n {
        return Ok(vec![back(fx, &qr_tall(fx, &q, &r, &dq, &dr)?, &a)?]);
    }
    // Wide: a = [x | y], r = [u | v] with x = q u square; y = q v.
    let u = cols(&r, 0, m)?;
    let (du, dv) = (cols(&dr, 0, m)?, cols(&dr, m, n)?);
    let y = cols(&a, m, n)?;
    let gy = mm(&q, &dv)?;
    let dq2 = ev(fx, leaf(&dq) + leaf(&mm(&y, &mt(&dv)?)?))?;
    let gx = qr_tall(fx, &q, &u, &dq2, &du)?;
    let ga = Array::concat(&[gx, gy], -1)?;
    Ok(vec![back(fx, &ga, &a)?])
}

/// The gradient of the singular value decomposition (PyTorch's svd_backward).
pub fn svd(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let a = input(i, call, 0, "a")?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    // u (m x k), s (k), vh (k x n) and the gradients that reached them.
    let (u, s, vh, gu, gs, gvh) = match call.outs.len() {
        3 => {
            let (Some(u), Some(s), Some(vh)) = (&call.outs[0], &call.outs[1], &call.outs[2]) else {
                return Err(Error::internal("svd gradient: outputs"));
            };
            let full = (u.shape()[nd - 1] != k || vh.shape()[nd - 2] != k) && m != n;
            let (gu, gvh) = (call.gs[0].clone(), call.gs[2].clone());
            if full && (gu.is_some() || gvh.is_some()) {
                return Err(Error::value(
                    "svd: the gradient through U or Vh of full_matrices=true is not defined for a non-square matrix (their extra columns are not unique)",
                )
                .with_op("svd")
                .with_help("use svd(a, full_matrices=false) under grad"));
            }
            let (u, vh) = (cols(u, 0, k)?, rows(vh, 0, k)?);
            let gs = g_or_zero(fx, call, 1, s)?;
            (u, s.clone(), vh, gu, gs, gvh)
        }
        _ => {
            // svdvals / compute_uv=false: only s, whose gradient needs u and vh.
            let v = svd_arrays(&a, false, true, fx)?;
            (
                v[0].clone(),
                v[1].clone(),
                v[2].clone(),
                None,
                call.g.clone(),
                None,
            )
        }
    };
    // Only s: ga = u diag(gs) vh.
    let gs_row = row(&gs)?;
    if gu.is_none() && gvh.is_none() {
        let ga = mm(&ev(fx, leaf(&u) * leaf(&gs_row))?, &vh)?;
        return Ok(vec![back(fx, &ga, &a)?]);
    }
    let v = mt(&vh)?;
    let (s_row, s_col) = (row(&s)?, unsq(&s, 1)?);
    let (r, cc) = grids(&s, k, k)?;
    let diag = eq(r, cc);
    // E_jk = s_k^2 - s_j^2 off the diagonal, 1 on it.
    let e = ev(
        fx,
        where_(
            diag.clone(),
            c(1.0),
            leaf(&s_row) * leaf(&s_row) - leaf(&s_col) * leaf(&s_col),
        ),
    )?;
    let mut inner = ev(fx, where_(diag.clone(), leaf(&gs_row), c(0.0)))?;
    let mut extra: Option<Array> = None;
    if let Some(gu) = &gu {
        let gu = cols(gu, 0, k)?;
        let utgu = mm(&mt(&u)?, &gu)?;
        let sk = ev(fx, leaf(&utgu) - leaf(&mt(&utgu)?))?;
        inner = ev(
            fx,
            leaf(&inner) + where_(diag.clone(), c(0.0), leaf(&sk) * leaf(&s_row) / leaf(&e)),
        )?;
        if m > k {
            // (I - u u^T) gu s^-1 vh
            let p = ev(fx, (leaf(&gu) - leaf(&mm(&u, &utgu)?)) / leaf(&s_row))?;
            extra = Some(mm(&p, &vh)?);
        }
    }
    if let Some(gvh) = &gvh {
        let gv = mt(&rows(gvh, 0, k)?)?;
        let vtgv = mm(&mt(&v)?, &gv)?;
        let sk = ev(fx, leaf(&vtgv) - leaf(&mt(&vtgv)?))?;
        inner = ev(
            fx,
            leaf(&inner) + where_(diag.clone(), c(0.0), leaf(&s_col) * leaf(&sk) / leaf(&e)),
        )?;
        if n > k {
            // u s^-1 gv^T (I - v v^T)
            let p = ev(fx, (leaf(&gv) - leaf(&mm(&v, &vtgv)?)) / leaf(&s_row))?;
            let t = mm(&u, &mt(&p)?)?;
            extra = Some(match extra {
                Some(x) => ev(fx, leaf(&x) + leaf(&t))?,
                None => t,
            });
        }
    }
    let mut ga = mm(&mm(&u, &inner)?, &vh)?;
    if let Some(x) = extra {
        ga = ev(fx, leaf(&ga) + leaf(&x))?;
    }
    Ok(vec![back(fx, &ga, &a)?])
}

/// a = v diag(w) v^T: ga = v (diag(gw) + F o (X - X^T) / 2) v^T with
/// X = v^T gv and F_ij = 1 / (w_j - w_i) off the diagonal.
pub fn eigh(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let (Some(w), Some(v)) = (
        call.outs.first().cloned().flatten(),
        call.outs.get(1).cloned().flatten(),
    ) else {
        return Err(Error::internal("eigh gradient: outputs"));
    };
    let a = input(i, call, 0, "a")?;
    let gw = g_or_zero(fx, call, 0, &w)?;
    let n = w.shape()[w.ndim() - 1];
    let (r, cc) = grids(&w, n, n)?;
    let diag = eq(r, cc);
    let mut inner = ev(fx, where_(diag.clone(), leaf(&row(&gw)?), c(0.0)))?;
    if let Some(Some(gv)) = call.gs.get(1) {
        let x = mm(&mt(&v)?, gv)?;
        let f = where_(
            diag.clone(),
            c(0.0),
            c(0.5) / (leaf(&row(&w)?) - leaf(&unsq(&w, 1)?)),
        );
        inner = ev(fx, leaf(&inner) + f * (leaf(&x) - leaf(&mt(&x)?)))?;
    }
    let ga = mm(&mm(&v, &inner)?, &mt(&v)?)?;
    Ok(vec![back(fx, &ga, &a)?])
}

/// d w / d a = v diag(gw) v^T.
pub fn eigvalsh(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let a = input(i, call, 0, "a")?;
    let upper = kw_true(call, "upper")
        || call
            .kw
            .iter()
            .chain(
                call.pos
                    .get(1)
                    .map(|v| ("UPLO".to_string(), v.clone()))
                    .as_slice()
                    .iter(),
            )
            .any(|(k, v)| k == "UPLO" && matches!(v, Value::Str(s) if s.eq_ignore_ascii_case("u")));
    let out = eigh_arrays(&a, upper, true, fx)?;
    let v = &out[1];
    let ga = mm(&ev(fx, leaf(v) * leaf(&row(&call.g)?))?, &mt(v)?)?;
    Ok(vec![back(fx, &ga, &a)?])
}
