//! Norms and what is measured with them: `norm` (NumPy's vector and matrix
//! orders, axis, keepdims), `cond` and `matrix_rank`. `norm` is built from
//! table ops called through the interpreter (abs, sum, max, sqrt, svdvals),
//! so its gradient comes from theirs; `cond` and `matrix_rank` compute
//! directly (no gradient, as their values are piecewise constant or not
//! asked for).

use super::creation::op;
use super::decomp::{inv_array, svd_arrays};
use super::fuse::{self, Operand};
use super::linalg_args::{arr, as_dtype, at_least_2d, bool_arg, lapack_dtype, square};
use super::linalg_calls::{Calls, leaf};
use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::index::Index;
use crate::array::shape_ops::norm_axis;
use crate::autodiff::ewb::{c as k, call, where_};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "norm",
        "norm(x, ord=none, axis=none, keepdims=false)",
        "Vector or matrix norm, as NumPy's linalg.norm. Vectors (one axis): ord none/2 (Euclidean), 1, inf, -inf, 0 (count of non-zeros), any p. Matrices (two axes, or a 2-d x with ord given): none/\"fro\" (Frobenius), \"nuc\" (sum of singular values), 1, -1, 2, -2 (largest/smallest singular value), inf, -inf. ord=none with axis=none: the 2-norm of x flattened.",
        false,
        norm
    ),
    op!(
        "cond",
        "cond(x, p=none)",
        "The condition number of x (..., m, n): by singular values for p none/2/-2, else norm(x, p) * norm(inv(x), p) (square x; inf for a singular matrix).",
        false,
        cond
    ),
    op!(
        "matrix_rank",
        "matrix_rank(A, tol=none, hermitian=false, rtol=none)",
        "The rank of A (..., m, n): the number of singular values above tol (default: the largest times max(m, n) times the dtype's eps, or times rtol). A vector's rank is 1 unless it is all zeros.",
        false,
        matrix_rank
    ),
];

/// A norm order.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Order {
    Default,
    Num(f64),
    Fro,
    Nuc,
}

fn order_arg(v: Option<Value>) -> Result<Order> {
    Ok(match v {
        None | Some(Value::None) => Order::Default,
        Some(Value::Int(i)) => Order::Num(i as f64),
        Some(Value::Float(f)) => Order::Num(f),
        Some(Value::Bool(b)) => Order::Num(b as i64 as f64),
        Some(Value::Str(s)) if &*s == "fro" || &*s == "f" => Order::Fro,
        Some(Value::Str(s)) if &*s == "nuc" => Order::Nuc,
        Some(Value::Array(a)) if a.size() == 1 => Order::Num(a.get_f64(0)?),
        Some(v) => {
            return Err(Error::value(format!(
                "norm: invalid norm order {}",
                crate::display::repr(&v)
            ))
            .with_op("norm")
            .with_help("ord is none, a number (inf and -inf too), \"fro\" or \"nuc\""));
        }
    })
}

fn axes_arg(v: Option<Value>, nd: usize) -> Result<Option<Vec<usize>>> {
    let ints = |t: &[Value]| -> Result<Vec<usize>> {
        t.iter()
            .map(|v| match super::stat_args::index_of(v) {
                Some(i) => norm_axis(i, nd, "norm"),
                None => Err(Error::type_(format!(
                    "norm: axis must hold ints, got {}",
                    v.a_type_name()
                ))
                .with_op("norm")),
            })
            .collect()
    };
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => {
            let t = v.seq_items().unwrap_or_default();
            Ok(Some(ints(&t)?))
        }
        Some(v) if super::stat_args::index_of(&v).is_some() => Ok(Some(ints(&[v])?)),
        Some(v) => Err(Error::type_(format!(
            "norm: 'axis' must be none, an integer or a tuple of integers, got {}",
            v.a_type_name()
        ))
        .with_op("norm")),
    }
}

fn norm(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let x = arr(i, &args.req("x")?)?;
    let ord = order_arg(args.opt("ord")?)?;
    let axis = axes_arg(args.opt("axis")?, x.ndim())?;
    let keepdims = bool_arg("norm", "keepdims", args.opt("keepdims")?, false)?;
    args.finish_with(&["ord", "axis", "keepdims"])?;
    // Ints and bools are measured in floatX (NumPy: float64).
    let x = match x.dtype().is_float() {
        true => x,
        false => as_dtype(&x, i.float_x())?,
    };
    let mut c = Calls::new(i, span);
    Ok(norm_of(&mut c, &x, ord, axis, keepdims)?.into())
}

fn norm_of(
    c: &mut Calls,
    x: &Array,
    ord: Order,
    axis: Option<Vec<usize>>,
    keepdims: bool,
) -> Result<Array> {
    let nd = x.ndim();
    let axes = match axis {
        Some(a) => a,
        None => {
            let flat = matches!(ord, Order::Default)
                || (ord == Order::Fro && nd == 2)
                || (ord == Order::Num(2.0) && nd == 1);
            if flat {
                let all: Vec<usize> = (0..nd).collect();
                let sq = c.tree(leaf(x) * leaf(x))?;
                let s = c.reduce("sum", &sq, &all, keepdims)?;
                return c.tree(call("sqrt", [leaf(&s)]));
            }
            (0..nd).collect()
        }
    };
    match axes.as_slice() {
        [a] => vector_norm(c, x, ord, *a, keepdims),
        [r, cc] if r == cc => Err(Error::value("norm: duplicate axes given").with_op("norm")),
        [r, cc] => {
            let out = matrix_norm(c, x, ord, *r, *cc)?;
            match keepdims {
                false => Ok(out),
                true => {
                    let mut s = x.shape().to_vec();
                    s[*r] = 1;
                    s[*cc] = 1;
                    c.reshape(&out, &s)
                }
            }
        }
        _ => Err(Error::value(format!(
            "norm: improper number of dimensions to norm ({} axes; a vector norm takes one, a matrix norm two)",
            axes.len()
        ))
        .with_op("norm")
        .with_help("give axis= one axis or two")),
    }
}

/// max over `axes` with NumPy's initial=0: an empty axis gives 0 (the sum does).
fn max0(c: &mut Calls, x: &Array, axes: &[usize], keepdims: bool) -> Result<Array> {
    let empty = axes.iter().any(|&a| x.shape()[a] == 0);
    c.reduce(if empty { "sum" } else { "max" }, x, axes, keepdims)
}

fn vector_norm(c: &mut Calls, x: &Array, ord: Order, ax: usize, keepdims: bool) -> Result<Array> {
    let abs = |c: &mut Calls| c.tree(call("abs", [leaf(x)]));
    match ord {
        Order::Num(p) if p == f64::INFINITY => {
            let a = abs(c)?;
            max0(c, &a, &[ax], keepdims)
        }
        Order::Num(p) if p == f64::NEG_INFINITY => {
            let a = abs(c)?;
            c.reduce("min", &a, &[ax], keepdims)
        }
        Order::Num(0.0) => {
            let nz = c.tree(call("not_equal", [leaf(x), c0()]))?;
            let nz = c.arr("astype", vec![nz.into(), Value::DType(x.dtype())], vec![])?;
            c.reduce("sum", &nz, &[ax], keepdims)
        }
        Order::Num(1.0) => {
            let a = abs(c)?;
            c.reduce("sum", &a, &[ax], keepdims)
        }
        Order::Default | Order::Num(2.0) => {
            let sq = c.tree(leaf(x) * leaf(x))?;
            let s = c.reduce("sum", &sq, &[ax], keepdims)?;
            c.tree(call("sqrt", [leaf(&s)]))
        }
        Order::Fro | Order::Nuc => Err(Error::value(format!(
            "norm: invalid norm order '{}' for vectors",
            if ord == Order::Fro { "fro" } else { "nuc" }
        ))
        .with_op("norm")
        .with_help("vector orders are numbers: 2 (default), 1, inf, -inf, 0 or any p")),
        Order::Num(p) => {
            let pw = c.tree(call("power", [call("abs", [leaf(x)]), k(p)]))?;
            let s = c.reduce("sum", &pw, &[ax], keepdims)?;
            c.tree(call("power", [leaf(&s), k(1.0 / p)]))
        }
    }
}

fn c0() -> crate::autodiff::ewb::E {
    k(0.0)
}

fn matrix_norm(c: &mut Calls, x: &Array, ord: Order, r: usize, cc: usize) -> Result<Array> {
    let abs = |c: &mut Calls| c.tree(call("abs", [leaf(x)]));
    // The axis left of `b` after `a` is reduced.
    let after = |a: usize, b: usize| if b > a { b - 1 } else { b };
    match ord {
        Order::Num(p) if p == 2.0 || p == -2.0 => {
            let s = svd_values(c, x, r, cc)?;
            match p > 0.0 {
                true => max0(c, &s, &[s.ndim() - 1], false),
                false => c.reduce("min", &s, &[s.ndim() - 1], false),
            }
        }
        Order::Nuc => {
            let s = svd_values(c, x, r, cc)?;
            c.reduce("sum", &s, &[s.ndim() - 1], false)
        }
        Order::Num(p) if p == 1.0 || p == -1.0 => {
            let a = abs(c)?;
            let cs = c.reduce("sum", &a, &[r], false)?;
            match p > 0.0 {
                true => max0(c, &cs, &[after(r, cc)], false),
                false => c.reduce("min", &cs, &[after(r, cc)], false),
            }
        }
        Order::Num(p) if p.is_infinite() => {
            let a = abs(c)?;
            let rs = c.reduce("sum", &a, &[cc], false)?;
            match p > 0.0 {
                true => max0(c, &rs, &[after(cc, r)], false),
                false => c.reduce("min", &rs, &[after(cc, r)], false),
            }
        }
        Order::Default | Order::Fro => {
            let sq = c.tree(leaf(x) * leaf(x))?;
            let s = c.reduce("sum", &sq, &[r, cc], false)?;
            c.tree(call("sqrt", [leaf(&s)]))
        }
        Order::Num(p) => Err(
            Error::value(format!("norm: invalid norm order {p} for matrices"))
                .with_op("norm")
                .with_help("matrix orders: \"fro\" (default), \"nuc\", 1, -1, 2, -2, inf, -inf"),
        ),
    }
}

/// The singular values of x's matrices over axes (r, c), moved last.
fn svd_values(c: &mut Calls, x: &Array, r: usize, cc: usize) -> Result<Array> {
    let mut perm: Vec<usize> = (0..x.ndim()).filter(|&d| d != r && d != cc).collect();
    perm.extend([r, cc]);
    let y = c.permute(x, &perm)?;
    c.arr("svdvals", vec![y.into()], vec![])
}

fn cond(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let x = arr(i, &args.req("x")?)?;
    let p = order_arg(args.opt("p")?)?;
    args.finish_with(&["p"])?;
    at_least_2d("cond", &x)?;
    let nd = x.ndim();
    if x.shape()[nd - 2] * x.shape()[nd - 1] == 0 {
        return Err(
            Error::value("cond: the condition number is not defined on empty matrices")
                .with_op("cond"),
        );
    }
    let fx = i.float_x();
    let dt = lapack_dtype("cond", &[&x], fx)?;
    let x = as_dtype(&x, dt)?;
    let mut c = Calls::new(i, span);
    let r = match p {
        Order::Default | Order::Num(2.0) | Order::Num(-2.0) => {
            let s = svd_arrays(&x, false, false, fx)?.remove(0);
            let k = s.shape()[s.ndim() - 1] as i64;
            let first = s.index(&[Index::Ellipsis, Index::Int(0)])?;
            let last = s.index(&[Index::Ellipsis, Index::Int(k - 1)])?;
            match p == Order::Num(-2.0) {
                true => c.tree(leaf(&last) / leaf(&first))?,
                false => c.tree(leaf(&first) / leaf(&last))?,
            }
        }
        _ => {
            square("cond", &x)?;
            let inv = inv_array(&x, fx, false)?;
            let ax = Some(vec![nd - 2, nd - 1]);
            let a = norm_of(&mut c, &x, p, ax.clone(), false)?;
            let b = norm_of(&mut c, &inv, p, ax, false)?;
            c.tree(leaf(&a) * leaf(&b))?
        }
    };
    // NaN from a singular matrix is inf (NumPy), unless x itself holds NaN.
    let xnan = c.tree(call("isnan", [leaf(&x)]))?;
    let any = super::reduce::reduce(ReduceOp::Any, &xnan, Some(&[-2, -1]), false, fx)?;
    let t = where_(
        call(
            "logical_and",
            [call("isnan", [leaf(&r)]), call("logical_not", [leaf(&any)])],
        ),
        k(f64::INFINITY),
        leaf(&r),
    );
    Ok(c.tree(t)?.into())
}

fn matrix_rank(i: &mut Interp, mut args: Args) -> Result<Value> {
    let a = arr(i, &args.req("A")?)?;
    let tol = args.opt("tol")?.filter(|v| !matches!(v, Value::None));
    bool_arg("matrix_rank", "hermitian", args.opt("hermitian")?, false)?;
    let rtol = args.opt("rtol")?.filter(|v| !matches!(v, Value::None));
    args.finish_with(&["tol", "hermitian", "rtol"])?;
    if tol.is_some() && rtol.is_some() {
        return Err(
            Error::value("matrix_rank: `tol` and `rtol` can't be both set").with_op("matrix_rank"),
        );
    }
    let fx = i.float_x();
    if a.ndim() < 2 {
        let nz = fuse::apply("not_equal", vec![Operand::Array(a), Operand::Int(0)], fx)?;
        let any = match nz {
            Operand::Array(nz) => super::reduce::reduce(ReduceOp::Any, &nz, None, false, fx)?,
            _ => return Err(Error::internal("matrix_rank: scalar")),
        };
        return Ok(Value::Int(matches!(any.item()?, Value::Bool(true)) as i64));
    }
    let s = svd_arrays(&a, false, false, fx)?.remove(0);
    let nd = a.ndim();
    let dt = s.dtype();
    let eps = if dt == DType::Float32 {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    };
    let tol = match (tol, rtol) {
        (Some(t), _) => with_last_axis(i, &t, dt)?,
        (None, r) => {
            let rtol = match r {
                Some(r) => with_last_axis(i, &r, dt)?,
                None => Array::scalar(a.shape()[nd - 2].max(a.shape()[nd - 1]) as f64 * eps)
                    .astype(dt)?,
            };
            let k = s.shape()[s.ndim() - 1];
            let smax = match k {
                0 => super::reduce::reduce(ReduceOp::Sum, &s, Some(&[-1]), true, fx)?,
                _ => super::reduce::reduce(ReduceOp::Max, &s, Some(&[-1]), true, fx)?,
            };
            let rtol = crate::backend::to_device(&rtol, s.device())?;
            ev(fx, leaf(&smax) * leaf(&rtol))?
        }
    };
    let tol = crate::backend::to_device(&tol, s.device())?;
    let big = ev(fx, call("greater", [leaf(&s), leaf(&tol)]))?;
    Ok(super::reduce::reduce(ReduceOp::Sum, &big, Some(&[-1]), false, fx)?.into())
}

/// A tolerance argument (a number or an array of the batch shape) with a
/// new last axis, in dtype `dt`.
fn with_last_axis(i: &Interp, v: &Value, dt: DType) -> Result<Array> {
    let t = as_dtype(&arr(i, v)?, dt)?;
    let mut s: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    s.push(1);
    t.reshape(&s)
}

fn ev(fx: DType, t: crate::autodiff::ewb::E) -> Result<Array> {
    let t =
        t.0.ok_or_else(|| Error::internal("matrix_rank: op missing"))?;
    match fuse::eval(t, fx)? {
        Operand::Array(a) => Ok(a),
        _ => Err(Error::internal("matrix_rank: scalar")),
    }
}
