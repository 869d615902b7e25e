//! NumPy 2's array-API linear-algebra names on top of the table's matmul,
//! sum, transpose and norm (every device, taped under `grad`): `vdot
//! vecdot multi_dot matrix_transpose permute_dims vector_norm matrix_norm`.
//! In the linear-algebra family, so `linalg.multi_dot` works as well.
//! `multi_dot` multiplies in the cheapest order (the matrix-chain dynamic
//! program over the shapes, as NumPy's).

use super::creation::op;
use super::npmath_calc::{c, shape_value};
use super::stat_args as sa;
use super::stats::{arr, call_op};
use crate::array::shape_ops::norm_axis;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    op!(
        "vdot",
        "vdot(a, b)",
        "The dot product of a and b flattened (they need the same number of elements), a 0-d array.",
        false,
        vdot
    ),
    op!(
        "vecdot",
        "vecdot(x1, x2, axis=-1)",
        "The dot products of the vectors along axis, the other axes broadcast: sum(x1 * x2, axis) (both need the same length along axis).",
        false,
        vecdot
    ),
    op!(
        "multi_dot",
        "multi_dot(arrays)",
        "The product of a list of matrices, multiplied in the order with the fewest operations; the first may be a 1-d row vector and the last a 1-d column vector, the others must be 2-d.",
        false,
        multi_dot
    ),
    op!(
        "matrix_transpose",
        "matrix_transpose(x)",
        "x with its last two axes swapped (a view); x needs at least 2 dimensions.",
        false,
        matrix_transpose
    ),
    op!(
        "permute_dims",
        "permute_dims(a, axes=none)",
        "The array API's name for transpose: a's axes in the order axes (reversed when none). A view.",
        false,
        permute_dims
    ),
    op!(
        "vector_norm",
        "vector_norm(x, axis=none, keepdims=false, ord=2)",
        "The vector norm of x over axis (an int, a tuple of ints, or none for every element): ord 2, 1, inf, -inf, 0 or any p, as norm's vector orders.",
        false,
        vector_norm
    ),
    op!(
        "matrix_norm",
        "matrix_norm(x, keepdims=false, ord=\"fro\")",
        "The norm of each matrix over x's last two axes: ord \"fro\", \"nuc\", 1, -1, 2, -2, inf, -inf, as norm's matrix orders.",
        false,
        matrix_norm
    ),
];

fn vdot(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "vdot";
    let x = sa::data(i, a.req("a")?, name)?;
    let y = sa::on_device_of(i, a.req("b")?, &x, name, "b")?;
    a.finish()?;
    if x.size() != y.size() {
        return Err(Error::shape(
            name,
            format!(
                "{name}: a has {} elements and b {}; they must match",
                x.size(),
                y.size()
            ),
        )
        .with_help("vdot flattens both: give arrays of the same size"));
    }
    let fx = c(i, "ravel", vec![Value::Array(x)])?;
    let fy = c(i, "ravel", vec![Value::Array(y)])?;
    c(i, "dot", vec![fx, fy])
}

fn vecdot(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "vecdot";
    let x = sa::data(i, a.req("x1")?, name)?;
    let y = sa::on_device_of(i, a.req("x2")?, &x, name, "x2")?;
    let k = match a.opt("axis")? {
        None => -1,
        Some(v) => sa::axis_int(&v, name)?,
    };
    a.finish_with(&["axis"])?;
    if x.ndim() == 0 || y.ndim() == 0 {
        return Err(
            Error::value(format!("{name}: x1 and x2 need at least one dimension")).with_op(name),
        );
    }
    let (ax, ay) = (norm_axis(k, x.ndim(), name)?, norm_axis(k, y.ndim(), name)?);
    if x.shape()[ax] != y.shape()[ay] {
        return Err(Error::shape(
            name,
            format!(
                "{name}: x1 has {} elements along axis {k} and x2 {}; they must match",
                x.shape()[ax],
                y.shape()[ay]
            ),
        ));
    }
    let (x_dt, y_dt) = (x.dtype(), y.dtype());
    // Each input's axis moved last, the other axes broadcast (NumPy's gufunc).
    let last = |i: &mut Interp, v, ax: usize| {
        c(
            i,
            "moveaxis",
            vec![v, Value::Int(ax as i64), Value::Int(-1)],
        )
    };
    let xl = last(i, Value::Array(x), ax)?;
    let yl = last(i, Value::Array(y), ay)?;
    let p = c(i, "multiply", vec![xl, yl])?;
    let r = call_op(i, "sum", vec![p], vec![("axis", Value::Int(-1))])?;
    // NumPy keeps int32 (and bool: or of ands) where sum widens to int64.
    match crate::dtype::promote(x_dt, y_dt) {
        d @ (crate::dtype::DType::Int32 | crate::dtype::DType::Bool) => {
            c(i, "astype", vec![r, Value::str(d.name())])
        }
        _ => Ok(r),
    }
}

fn matrix_transpose(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "matrix_transpose";
    let x = sa::data(i, a.req("x")?, name)?;
    a.finish()?;
    if x.ndim() < 2 {
        return Err(Error::value(format!(
            "{name}: x has {} dimension(s); it needs at least 2",
            x.ndim()
        ))
        .with_op(name)
        .with_help("for a vector, use x.reshape(1, -1) or x.reshape(-1, 1) first"));
    }
    c(
        i,
        "swapaxes",
        vec![Value::Array(x), Value::Int(-1), Value::Int(-2)],
    )
}

fn permute_dims(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "permute_dims";
    let x = sa::data(i, a.req("a")?, name)?;
    let axes = a.opt("axes")?.unwrap_or(Value::None);
    a.finish_with(&["axes"])?;
    c(i, "transpose", vec![Value::Array(x), axes])
}

fn vector_norm(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "vector_norm";
    let x = sa::data(i, a.req("x")?, name)?;
    let axis = a.opt("axis")?.unwrap_or(Value::None);
    let keepdims = sa::flag(a.opt("keepdims")?, "keepdims", name, false)?;
    let ord = a.opt("ord")?.unwrap_or(Value::Int(2));
    a.finish_with(&["axis", "keepdims", "ord"])?;
    let nd = x.ndim();
    let axes: Vec<usize> = match &axis {
        Value::None => (0..nd).collect(),
        Value::Int(k) => vec![norm_axis(*k, nd, name)?],
        v => match v.seq_items() {
            Some(items) => items
                .iter()
                .map(|v| norm_axis(sa::axis_int(v, name)?, nd, name))
                .collect::<Result<_>>()?,
            None => {
                return Err(Error::type_(format!(
                    "{name}: axis must be an int, a tuple of ints or none, got {}",
                    v.a_type_name()
                ))
                .with_op(name));
            }
        },
    };
    // The axes moved last and joined into one, then norm's vector orders.
    let rest: Vec<usize> = (0..nd).filter(|d| !axes.contains(d)).collect();
    let perm: Vec<usize> = rest.iter().chain(axes.iter()).copied().collect();
    let mut lane: Vec<usize> = rest.iter().map(|&d| x.shape()[d]).collect();
    lane.push(axes.iter().map(|&d| x.shape()[d]).product());
    let kept: Vec<usize> = (0..nd)
        .map(|d| if axes.contains(&d) { 1 } else { x.shape()[d] })
        .collect();
    let xt = c(i, "transpose", vec![Value::Array(x), shape_value(&perm)])?;
    let xl = c(i, "reshape", vec![xt, shape_value(&lane)])?;
    let r = call_op(
        i,
        "norm",
        vec![xl],
        vec![("ord", ord), ("axis", Value::Int(-1))],
    )?;
    if keepdims {
        return c(i, "reshape", vec![r, shape_value(&kept)]);
    }
    Ok(r)
}

fn matrix_norm(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "matrix_norm";
    let x = sa::data(i, a.req("x")?, name)?;
    let keepdims = a.opt("keepdims")?.unwrap_or(Value::Bool(false));
    let ord = a.opt("ord")?.unwrap_or(Value::str("fro"));
    a.finish_with(&["keepdims", "ord"])?;
    if x.ndim() < 2 {
        return Err(Error::value(format!(
            "{name}: x has {} dimension(s); it needs at least 2 (matrices over the last two axes)",
            x.ndim()
        ))
        .with_op(name)
        .with_help("for a vector, use vector_norm"));
    }
    let axes = Value::tuple(vec![Value::Int(-2), Value::Int(-1)]);
    call_op(
        i,
        "norm",
        vec![Value::Array(x)],
        vec![("ord", ord), ("axis", axes), ("keepdims", keepdims)],
    )
}

/// The cheapest parenthesisation of a chain with dims p[0] x p[1] x ... x p[n]:
/// `split[i][j]` is where the product of matrices i..=j splits.
fn chain_order(p: &[usize]) -> Vec<Vec<usize>> {
    let n = p.len() - 1;
    let mut cost = vec![vec![0u128; n]; n];
    let mut split = vec![vec![0usize; n]; n];
    for len in 1..n {
        for i in 0..n - len {
            let j = i + len;
            cost[i][j] = u128::MAX;
            for k in i..j {
                let c = cost[i][k] + cost[k + 1][j] + (p[i] * p[k + 1] * p[j + 1]) as u128;
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = k;
                }
            }
        }
    }
    split
}

fn chain(
    i: &mut Interp,
    ms: &[Value],
    split: &[Vec<usize>],
    lo: usize,
    hi: usize,
) -> Result<Value> {
    if lo == hi {
        return Ok(ms[lo].clone());
    }
    let k = split[lo][hi];
    let l = chain(i, ms, split, lo, k)?;
    let r = chain(i, ms, split, k + 1, hi)?;
    c(i, "matmul", vec![l, r])
}

fn multi_dot(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "multi_dot";
    let v = a.req("arrays")?;
    a.finish()?;
    let items = v.seq_items().ok_or_else(|| {
        Error::type_(format!(
            "{name}: arrays must be a list of arrays, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("e.g. multi_dot([a, b, c])")
    })?;
    if items.len() < 2 {
        return Err(Error::value(format!(
            "{name}: expecting at least two arrays, got {}",
            items.len()
        ))
        .with_op(name));
    }
    let first = sa::data(i, items[0].clone(), name)?;
    let n = items.len();
    let mut ms = Vec::with_capacity(n);
    for (k, it) in items.iter().enumerate() {
        let m = sa::on_device_of(i, it.clone(), &first, name, "arrays")?;
        let end = k == 0 || k == n - 1;
        if m.ndim() != 2 && !(end && m.ndim() == 1) {
            return Err(Error::value(format!(
                "{name}: array {k} has {} dimension(s); it must be 2-d{}",
                m.ndim(),
                if end { " (or 1-d at either end)" } else { "" }
            ))
            .with_op(name));
        }
        ms.push(m);
    }
    let (row, col) = (ms[0].ndim() == 1, ms[n - 1].ndim() == 1);
    let mut vals = Vec::with_capacity(n);
    for (k, m) in ms.into_iter().enumerate() {
        let v = Value::Array(m.clone());
        vals.push(if k == 0 && row {
            c(i, "reshape", vec![v, shape_value(&[1, m.size()])])?
        } else if k == n - 1 && col {
            c(i, "reshape", vec![v, shape_value(&[m.size(), 1])])?
        } else {
            v
        });
    }
    let mut p = Vec::with_capacity(n + 1);
    for (k, v) in vals.iter().enumerate() {
        let s = arr(v.clone(), name)?.shape().to_vec();
        if k > 0 && p[k] != s[0] {
            return Err(Error::shape(
                name,
                format!(
                    "{name}: array {} has {} columns but array {k} has {} rows",
                    k - 1,
                    p[k],
                    s[0]
                ),
            )
            .with_help("consecutive arrays must chain: (a, b) then (b, c)"));
        }
        if k == 0 {
            p.push(s[0]);
        }
        p.push(s[1]);
    }
    let split = chain_order(&p);
    let r = chain(i, &vals, &split, 0, n - 1)?;
    match (row, col) {
        (true, true) => c(i, "reshape", vec![r, shape_value(&[])]),
        (true, false) | (false, true) => c(i, "ravel", vec![r]),
        _ => Ok(r),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn chain_order_picks_the_cheap_side() {
        // (10x1000)(1000x10)(10x1000): left first costs 10*1000*10 + 10*10*1000.
        let s = super::chain_order(&[10, 1000, 10, 1000]);
        assert_eq!(s[0][2], 1);
        // (1000x10)(10x1000)(1000x10): right first.
        let s = super::chain_order(&[1000, 10, 1000, 10]);
        assert_eq!(s[0][2], 0);
    }
}
