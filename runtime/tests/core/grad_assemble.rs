//! Gradients of the shape and assembly family (issue 17) against central
//! finite differences in float64: each case's body uses the op in a way
//! that moves data (repeated and dropped elements, negative axes, tuple
//! results used one part at a time). `grad_ops::every_rule_in_the_table_is_walked`
//! reads `CASES` here too.

use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::Value;

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

/// (ops covered, f's body over x and y, shapes of x and y, argnums).
pub const CASES: &[(&[&str], &str, &[usize], &[usize], &[usize])] = &[
    (
        &["hstack"],
        "sum(sin(hstack([x, y, x * 2.0])))",
        &[3, 2],
        &[3, 4],
        &[0, 1],
    ),
    (&["hstack"], "sum(sin(hstack([x, y])))", &[3], &[2], &[0, 1]),
    (
        &["vstack"],
        "sum(sin(vstack([x, y]) * 1.3))",
        &[4],
        &[2, 4],
        &[0, 1],
    ),
    (
        &["dstack"],
        "sum(sin(dstack([x, y]) * 1.3))",
        &[2, 3],
        &[2, 3, 2],
        &[0, 1],
    ),
    (
        &["column_stack"],
        "sum(sin(column_stack([x, y]) * 1.3))",
        &[3],
        &[3, 2],
        &[0, 1],
    ),
    (
        &["concatenate"],
        "sum(sin(concatenate([y, x], axis=-1)))",
        &[2, 3],
        &[2, 1],
        &[0, 1],
    ),
    (
        &["split"],
        "sum(sin(split(x, 3, axis=1)[1] * y))",
        &[2, 6],
        &[2],
        &[0, 1],
    ),
    (
        &["split"],
        "sum(sin(split(x, [1, -1])[2])) + sum(split(x, [1, -1])[0] * y)",
        &[5, 2],
        &[2],
        &[0, 1],
    ),
    (
        &["array_split"],
        "sum(sin(array_split(x, 3)[0] * 2.0)) + sum(cos(array_split(x, 3)[2]))",
        &[7],
        &[1],
        &[0],
    ),
    (
        &["meshgrid"],
        "sum(sin(meshgrid(x, y)[0] * meshgrid(x, y)[1]))",
        &[3],
        &[4],
        &[0, 1],
    ),
    (
        &["meshgrid"],
        "sum(sin(meshgrid(x, y, x, indexing=\"ij\")[2] * 1.5 + meshgrid(x, y, x, indexing=\"ij\")[1]))",
        &[2],
        &[3],
        &[0, 1],
    ),
    (
        &["flip"],
        "sum(sin(flip(x, axis=(0, -1)) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (&["flip"], "sum(sin(flip(x) * y))", &[3, 4], &[4], &[0, 1]),
    (
        &["fliplr"],
        "sum(sin(fliplr(x) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["flipud"],
        "sum(sin(flipud(x) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (&["rot90"], "sum(sin(rot90(x) * y))", &[3, 4], &[3], &[0, 1]),
    (
        &["rot90"],
        "sum(sin(rot90(x, -3, axes=(2, 0)) * y))",
        &[2, 3, 4],
        &[2],
        &[0, 1],
    ),
    (
        &["swapaxes"],
        "sum(sin(swapaxes(x, 0, -1) * y))",
        &[2, 3, 4],
        &[2],
        &[0, 1],
    ),
    (
        &["moveaxis"],
        "sum(sin(moveaxis(x, (0, 1), (-1, 0)) * y))",
        &[2, 3, 4],
        &[2],
        &[0, 1],
    ),
    (
        &["diagonal"],
        "sum(sin(diagonal(x, 1) * y))",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["diagonal"],
        "sum(sin(x.diagonal(-1, 2, 0) * y))",
        &[3, 4, 3],
        &[2],
        &[0, 1],
    ),
    (
        &["atleast_1d"],
        "sum(sin(atleast_1d(x) * y))",
        &[],
        &[3],
        &[0, 1],
    ),
    (
        &["atleast_2d"],
        "sum(sin(atleast_2d(x) * y))",
        &[3],
        &[2, 1],
        &[0, 1],
    ),
    (
        &["atleast_3d"],
        "sum(sin(atleast_3d(x, y)[1] * 2.0 + atleast_3d(x)))",
        &[3, 2],
        &[3, 2],
        &[0, 1],
    ),
    (
        &["roll"],
        "sum(sin(roll(x, 2) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["roll"],
        "sum(sin(roll(x, (1, -5), axis=(0, 1)) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["tile"],
        "sum(sin(tile(x, (2, 1, 3)) * 1.3))",
        &[3, 2],
        &[1],
        &[0],
    ),
    (
        &["tile"],
        "sum(sin(tile(x, 2) * 1.3)) + sum(y)",
        &[3],
        &[2],
        &[0, 1],
    ),
    (
        &["repeat"],
        "sum(sin(repeat(x, 3) * 1.3))",
        &[2, 2],
        &[1],
        &[0],
    ),
    (
        &["repeat"],
        "sum(sin(x.repeat([2, 0, 1], axis=0) * y))",
        &[3, 2],
        &[2],
        &[0, 1],
    ),
    (
        &["pad"],
        "sum(sin(pad(x, ((1, 2), (0, 3)), constant_values=y[0]) * 1.3))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (
        &["pad"],
        "sum(sin(pad(x, 2, mode=\"edge\") * 1.3))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (
        &["pad"],
        "sum(sin(pad(x, (3, 2), mode=\"reflect\") * 1.3))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (
        &["pad"],
        "sum(sin(pad(x, (1, 4), mode=\"symmetric\") * 1.3))",
        &[3, 2],
        &[1],
        &[0],
    ),
    (
        &["pad"],
        "sum(sin(pad(x, ((0, 5), (2, 1)), mode=\"wrap\") * 1.3))",
        &[3, 2],
        &[1],
        &[0],
    ),
    (
        &["triu"],
        "sum(sin(triu(x, -1) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["tril"],
        "sum(sin(tril(x, 1) * y))",
        &[2, 3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["diag"],
        "sum(sin(diag(x, 1) * 1.3)) + sum(diag(y) * 2.0)",
        &[3],
        &[3, 3],
        &[0, 1],
    ),
    (
        &["diag"],
        "sum(sin(diag(x, -1) * y))",
        &[3, 4],
        &[2],
        &[0, 1],
    ),
    (
        &["trace"],
        "sin(trace(x) * 1.3) + trace(y, 1, 1, 2).sum()",
        &[3, 3],
        &[2, 3, 4],
        &[0, 1],
    ),
    (
        &["take"],
        "sum(sin(take(x, array([2, 0, 2, -1])) * 1.3))",
        &[2, 3],
        &[1],
        &[0],
    ),
    (
        &["take"],
        "sum(sin(x.take(array([[1, 1], [0, 2]]), axis=1) * y))",
        &[2, 3],
        &[2],
        &[0, 1],
    ),
    (
        &["take"],
        "sum(sin(take(x, array([4, -1, 1]), axis=0, mode=\"wrap\") * y))",
        &[3, 2],
        &[2],
        &[0, 1],
    ),
    (
        &["take_along_axis"],
        "sum(sin(take_along_axis(x, array([[3, 0, 1, 1], [2, 2, 0, -1], [0, 0, 0, 0]]), axis=1) * 1.3))",
        &[3, 4],
        &[3, 4],
        &[0],
    ),
    (
        &["take_along_axis"],
        "sum(sin(take_along_axis(x, array([[0], [2], [2]]), 0) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
];

#[test]
fn assembly_rules_match_finite_differences() {
    let (mut s, _) = session("float64");
    // Host arrays throughout (the GPU test binary runs this file too, where
    // the default device is the GPU; gpu_assemble.rs covers that).
    run(&mut s, "set device = cpu").unwrap();
    let mut r = Rng(0x51ed_2701_a3c5_9e17);
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        check(&mut s, body, &args, argnums, H, TOL);
    }
}
