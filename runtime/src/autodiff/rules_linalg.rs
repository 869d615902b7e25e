//! Gradient rules of the linear-algebra primitives (`solve inv det slogdet
//! cholesky pinv`; the spectral ones, `qr svd eigh eigvalsh`, are in
//! `rules_spectral.rs`). The composites (norm, lstsq's x, cond, einsum,
//! tensordot...) call these primitives, matmul and elementwise ops through
//! the interpreter, so their gradients come from the tape. Rules run on any
//! device (matmul, solve, elementwise trees) and never read values back.
//! Conventions (PyTorch's): the gradient of a function of a symmetric
//! matrix (cholesky, eigh) is the symmetric one; det's at a singular matrix
//! is nan (it goes through the inverse).

use super::GradCall;
use super::arrays::sum_to;
use super::ewb::{E, c, e, ge, where_};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::Interp;
use crate::ops::decomp::{inv_array, solve_arrays};
use crate::ops::fuse::{self, EwNode, Operand};
use crate::ops::linalg::matmul;
use crate::value::Value;

pub use super::rules_spectral::{eigh, eigvalsh, qr, svd};

pub(super) type Grads = Result<Vec<Option<Value>>>;

/// Argument `i` by position, else by keyword `name`, as an array (lists made arrays).
pub(super) fn input(i: &Interp, call: &GradCall, k: usize, name: &str) -> Result<Array> {
    let v = call
        .pos
        .get(k)
        .or_else(|| call.kw.iter().find(|(n, _)| n == name).map(|(_, v)| v))
        .ok_or_else(|| Error::internal("gradient rule: argument missing"))?;
    let a = crate::ops::linalg_args::arr(i, v)?.with_node(0);
    let dt = call.out.dtype();
    match a.dtype() == dt {
        true => Ok(a),
        false => a.astype(dt),
    }
}

/// Whether keyword `name` was given as true.
pub(super) fn kw_true(call: &GradCall, name: &str) -> bool {
    call.kw
        .iter()
        .any(|(k, v)| k == name && matches!(v, Value::Bool(true)))
}

pub(super) fn need(call: &GradCall, k: usize) -> bool {
    call.needs.get(k).copied().unwrap_or(false)
}

/// The last two axes swapped (a view).
pub(super) fn mt(a: &Array) -> Result<Array> {
    let nd = a.ndim() as i64;
    let mut p: Vec<i64> = (0..nd).collect();
    p.swap(nd as usize - 2, nd as usize - 1);
    a.transpose(Some(&p))
}

pub(super) fn mm(a: &Array, b: &Array) -> Result<Array> {
    matmul(a, b)
}

pub(super) fn leaf(a: &Array) -> E {
    e(&EwNode::Leaf(Operand::Array(a.clone())))
}

/// Evaluate a built tree into an array.
pub(super) fn ev(fx: DType, t: E) -> Result<Array> {
    let t =
        t.0.ok_or_else(|| Error::internal("gradient rule: op missing"))?;
    match fuse::eval(t, fx)? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("gradient rule: scalar result")),
    }
}

/// `a` with new axes of length 1 at the end (`k` of them): a view.
pub(super) fn unsq(a: &Array, k: usize) -> Result<Array> {
    let mut s: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
    s.extend(std::iter::repeat_n(1, k));
    a.reshape(&s)
}

/// `a` with a new axis of length 1 before the last one: (..., k) -> (..., 1, k).
pub(super) fn row(a: &Array) -> Result<Array> {
    let mut s: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
    s.insert(s.len() - 1, 1);
    a.reshape(&s)
}

/// `(rows, cols)` index grids of an n x m matrix on `like`'s device, for
/// triangle masks (`ge(r, c)`: lower triangle with the diagonal).
pub(super) fn grids(like: &Array, n: usize, m: usize) -> Result<(E, E)> {
    let dev = like.device();
    let r = Array::arange(0.0, n as f64, 1.0, DType::Int64, dev)?.reshape(&[n as i64, 1])?;
    let cc = Array::arange(0.0, m as f64, 1.0, DType::Int64, dev)?.reshape(&[1, m as i64])?;
    Ok((leaf(&r), leaf(&cc)))
}

/// The lower triangle (with the diagonal) of a stack of square matrices.
pub(super) fn tril(fx: DType, a: &Array) -> Result<Array> {
    let n = a.shape()[a.ndim() - 1];
    let (r, cc) = grids(a, n, n)?;
    ev(fx, where_(ge(r, cc), leaf(a), c(0.0)))
}

/// Gradient `ga` (of the broadcast shape) summed back to the input's shape.
pub(super) fn back(fx: DType, ga: &Array, to: &Array) -> Result<Option<Value>> {
    Ok(Some(sum_to(ga, to.shape(), fx)?.into()))
}

/// x = a^-1 b: gb = a^-T g, ga = -gb x^T (b a vector: as an n x 1 matrix).
pub fn solve(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let (a, b) = (input(i, call, 0, "a")?, input(i, call, 1, "b")?);
    let vector = b.ndim() == 1;
    let (g, x) = match vector {
        true => (unsq(&call.g, 1)?, unsq(&call.out, 1)?),
        false => (call.g.clone(), call.out.clone()),
    };
    let gb = solve_arrays(&mt(&a)?, &g, fx)?;
    let ga = match need(call, 0) {
        true => {
            let p = mm(&gb, &mt(&x)?)?;
            back(fx, &ev(fx, -leaf(&p))?, &a)?
        }
        false => None,
    };
    let gbv = match (need(call, 1), vector) {
        (false, _) => None,
        (true, true) => {
            let s: Vec<i64> = gb.shape()[..gb.ndim() - 1]
                .iter()
                .map(|&d| d as i64)
                .collect();
            back(fx, &gb.reshape(&s)?, &b)?
        }
        (true, false) => back(fx, &gb, &b)?,
    };
    Ok(vec![ga, gbv])
}

/// y = a^-1: ga = -y^T g y^T.
pub fn inv(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let yt = mt(&call.out)?;
    let p = mm(&mm(&yt, &call.g)?, &yt)?;
    Ok(vec![Some(ev(fx, -leaf(&p))?.into())])
}

/// `k * a^-T` with k (of the batch shape) broadcast over each matrix.
fn scaled_inv_t(fx: DType, a: &Array, k: &Array) -> Result<Array> {
    let it = mt(&inv_array(a, fx, false)?)?;
    ev(fx, leaf(&unsq(k, 2)?) * leaf(&it))
}

/// d det / da = det * a^-T.
pub fn det(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let a = input(i, call, 0, "a")?;
    let k = ev(fx, leaf(&call.g) * leaf(&call.out))?;
    Ok(vec![Some(scaled_inv_t(fx, &a, &k)?.into())])
}

/// d log|det| / da = a^-T (the sign is piecewise constant).
pub fn slogdet(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let Some(Some(g)) = call.gs.get(1) else {
        return Ok(vec![None]);
    };
    let a = input(i, call, 0, "a")?;
    Ok(vec![Some(scaled_inv_t(fx, &a, g)?.into())])
}

/// a = L L^T: ga = L^-T pi*(tril(L^T gL)) L^-1 with pi*(X) = (X + X^T - diag X) / 2
/// (PyTorch's cholesky_backward); `upper`: U = L^T, gU = gL^T.
pub fn cholesky(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let upper = kw_true(call, "upper");
    let (l, gl) = match upper {
        true => (mt(&call.out)?, mt(&call.g)?),
        false => (call.out.clone(), call.g.clone()),
    };
    let n = l.shape()[l.ndim() - 1];
    let x = tril(fx, &mm(&mt(&l)?, &gl)?)?;
    let (r, cc) = grids(&l, n, n)?;
    let xt = mt(&x)?;
    let diag = super::ewb::eq(r, cc);
    let p = ev(
        fx,
        (leaf(&x) + leaf(&xt) - where_(diag, leaf(&x), c(0.0))) * c(0.5),
    )?;
    let linv = inv_array(&l, fx, false)?;
    let ga = mm(&mm(&mt(&linv)?, &p)?, &linv)?;
    Ok(vec![Some(ga.into())])
}

/// x = a^+ (m x n -> n x m): ga = -x^T g x^T + (I - a x) g^T x x^T + x^T x g^T (I - x a)
/// (Golub & Pereyra), valid where the rank is locally constant.
pub fn pinv(i: &mut Interp, call: &GradCall) -> Grads {
    let fx = i.float_x();
    let a = input(i, call, 0, "a")?;
    let (x, g) = (&call.out, &call.g);
    let (xt, gt) = (mt(x)?, mt(g)?);
    let t1 = mm(&mm(&xt, g)?, &xt)?;
    // (I - a x) g^T x x^T = g^T x x^T - a x g^T x x^T
    let gtxxt = mm(&mm(&gt, x)?, &xt)?;
    let t2 = ev(fx, leaf(&gtxxt) - leaf(&mm(&mm(&a, x)?, &gtxxt)?))?;
    // x^T x g^T (I - x a) = x^T x g^T - x^T x g^T x a
    let xtxgt = mm(&mm(&xt, x)?, &gt)?;
    let t3 = ev(fx, leaf(&xtxgt) - leaf(&mm(&mm(&xtxgt, x)?, &a)?))?;
    let ga = ev(fx, leaf(&t2) + leaf(&t3) - leaf(&t1))?;
    Ok(vec![back(fx, &ga, &a)?])
}

/// The first `k` columns of a stack of matrices (a view).
pub(super) fn cols(a: &Array, from: usize, to: usize) -> Result<Array> {
    a.index(&[
        Index::Ellipsis,
        Index::Slice {
            start: Some(from as i64),
            stop: Some(to as i64),
            step: None,
        },
    ])
}

/// Rows `from..to` of a stack of matrices (a view).
pub(super) fn rows(a: &Array, from: usize, to: usize) -> Result<Array> {
    a.index(&[
        Index::Ellipsis,
        Index::Slice {
            start: Some(from as i64),
            stop: Some(to as i64),
            step: None,
        },
        Index::full(),
    ])
}
