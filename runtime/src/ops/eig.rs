//! `eig`, `eigvals` (general square matrices, batched over leading dims,
//! NumPy 2's dtype rule: real results when every eigenvalue is real; the
//! CPU only, through `backend::eig`) and `tensorinv`, `tensorsolve`
//! (reshapes around inv/solve through the interpreter: every device, taped).

use super::creation::op;
use super::linalg_args::{arr, as_dtype, lapack_dtype, square};
use super::linalg_calls::Calls;
use super::nparr::{int, int_list, value_err};
use crate::array::Array;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "eig",
        "eig(a)",
        "The eigenvalues w (..., n) and right eigenvectors v (..., n, n; column v[:, k] for w[k], unit 2-norm) of the square matrices a, as a tuple (w, v): a @ v = v * w. Real dtype when every eigenvalue is real (NumPy 2), complex otherwise; complex a gives complex. CPU only (on a GPU: eig(a.to(cpu))); no gradient.",
        false,
        |i, a| eig(i, a, true)
    ),
    op!(
        "eigvals",
        "eigvals(a)",
        "The eigenvalues (..., n) of the square matrices a, in eig's order and dtype rule (real when all are real). CPU only (on a GPU: eigvals(a.to(cpu))); no gradient.",
        false,
        |i, a| eig(i, a, false)
    ),
    op!(
        "tensorinv",
        "tensorinv(a, ind=2)",
        "The inverse of a as a tensor: with a.shape = S1 + S2 (S1 the first ind dims) and prod(S1) == prod(S2), the array of shape S2 + S1 that tensordot(tensorinv(a), a, ind) is the identity of; inv of a reshaped to a square matrix. Differentiable.",
        false,
        tensorinv
    ),
    op!(
        "tensorsolve",
        "tensorsolve(a, b, axes=none)",
        "x with tensordot(a, x, x.ndim) == b: a's trailing dims (after b.ndim) are x's shape and prod(x.shape) == b.size; axes moves those axes of a to the end first. solve of a reshaped to a square matrix. Differentiable.",
        false,
        tensorsolve
    ),
];

fn eig(i: &mut Interp, mut args: Args, vectors: bool) -> Result<Value> {
    let name = if vectors { "eig" } else { "eigvals" };
    let a = arr(i, &args.req("a")?)?;
    args.finish()?;
    square(name, &a)?;
    let a = if a.dtype().is_complex() {
        a
    } else {
        let dt = lapack_dtype(name, &[&a], i.float_x())?;
        as_dtype(&a, dt)?
    };
    let mut out = crate::backend::eig::eig(&a, vectors, name)?;
    if vectors {
        Ok(Value::named_tuple(
            out.into_iter().map(Value::Array).collect(),
            &["eigenvalues", "eigenvectors"],
        ))
    } else {
        out.pop()
            .map(Value::Array)
            .ok_or_else(|| Error::internal("eigvals gave nothing"))
    }
}

fn prod(s: &[usize]) -> usize {
    s.iter().product()
}

fn tensorinv(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let name = "tensorinv";
    let a = arr(i, &args.req("a")?)?;
    let ind = match args.opt("ind")? {
        None | Some(Value::None) => 2,
        Some(v) => int(&v, name, "ind")?,
    };
    args.finish_with(&["ind"])?;
    if ind <= 0 || ind as usize > a.ndim() {
        return Err(value_err(
            name,
            format!(
                "Invalid ind argument: {ind} for an array of {} dims",
                a.ndim()
            ),
            "give 0 < ind <= a.ndim",
        ));
    }
    let ind = ind as usize;
    let (front, back) = a.shape().split_at(ind);
    let (front, back) = (front.to_vec(), back.to_vec());
    if prod(&front) != prod(&back) {
        return Err(Error::shape(
            name,
            format!(
                "{name}: prod(a.shape[:ind]) must equal prod(a.shape[ind:]), got {front:?} and {back:?}"
            ),
        )
        .with_help("pick ind so that the two groups of dims hold as many elements"));
    }
    let mut c = Calls::new(i, span);
    let m = c.reshape(&a, &[prod(&front), prod(&back)])?;
    let inv = c.arr("inv", vec![m.into()], vec![])?;
    let shape: Vec<usize> = back.iter().chain(front.iter()).copied().collect();
    Ok(Value::Array(c.reshape(&inv, &shape)?))
}

fn tensorsolve(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let name = "tensorsolve";
    let mut a = arr(i, &args.req("a")?)?;
    let b = arr(i, &args.req("b")?)?;
    let axes = match args.opt("axes")? {
        None | Some(Value::None) => None,
        Some(v) => Some(int_list(&v, name, "axes")?),
    };
    args.finish_with(&["axes"])?;
    let an = a.ndim();
    let mut c = Calls::new(i, span);
    if let Some(axes) = axes {
        let mut all: Vec<usize> = (0..an).collect();
        for k in axes {
            let k = super::nparr::norm_axis(k, an, name)?;
            let pos = all.iter().position(|&x| x == k).ok_or_else(|| {
                value_err(name, format!("axis {k} given twice"), "give each axis once")
            })?;
            all.remove(pos);
            all.push(k);
        }
        a = c.permute(&a, &all)?;
    }
    if b.ndim() > an {
        return Err(Error::shape(
            name,
            format!("{name}: b has more dims ({}) than a ({an})", b.ndim()),
        )
        .with_help("a's leading dims are b's shape, its trailing ones x's"));
    }
    let old: Vec<usize> = if an == b.ndim() {
        a.shape().to_vec()
    } else {
        a.shape()[b.ndim()..].to_vec()
    };
    let p = prod(&old);
    if a.size() != p * p {
        return Err(Error::shape(
            name,
            format!(
                "{name}: Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) (a {:?}, b {:?})",
                a.shape(),
                b.shape()
            ),
        )
        .with_help("a's shape must be b.shape + x.shape with b.size == x.size"));
    }
    let m = c.reshape(&a, &[p, p])?;
    let bf = c.reshape(&b, &[b.size()])?;
    let x = c.arr("solve", vec![m.into(), bf.into()], vec![])?;
    let x: Array = c.reshape(&x, &old)?;
    Ok(Value::Array(x))
}
