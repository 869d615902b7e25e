//! Gradients of the "more NumPy math" family (`ops/npmath*.rs`) against
//! central finite differences in float64: the aliases with rules of their
//! own (`amax amin`; `grad_ops`'s walk reads `CASES`), the elementwise
//! entries with gradient trees, and the composed functions (their gradient
//! is their steps'). Data is random with no ties.

use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::Value;

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

/// (ops covered, body of `f(x, y)`, x's shape, y's shape, argnums).
pub const CASES: &[(&[&str], &str, &[usize], &[usize], &[usize])] = &[
    (
        &["amax", "amin"],
        "sum(sin(amax(x, axis=1) * y)) + sum(amin(x, axis=0, keepdims=true) * 2.0)",
        &[4, 3],
        &[4],
        &[0, 1],
    ),
    (
        &["fmax", "fmin"],
        "sum(fmax(x, y) * 2.0 + fmin(x, y * 0.5))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["positive", "fabs", "sinc"],
        "sum(positive(x) * fabs(y) + sinc(x * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["ldexp", "float_power"],
        "sum(ldexp(x, 3) + float_power(y, x))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["modf", "frexp"],
        "sum(modf(x * 3.0)[0] * y + frexp(x * y)[0])",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["trapezoid"],
        "sum(trapezoid(sin(x), x=y, axis=1)) + sum(trapezoid(x, dx=0.3, axis=0))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["gradient"],
        "sum(sin(gradient(x, y, axis=1, edge_order=2))) + sum(gradient(x * x, axis=0))",
        &[4, 5],
        &[5],
        &[0],
    ),
    (
        &["interp"],
        "sum(sin(interp(x, array([-2.0, -0.5, 0.7, 2.5]), y)))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["unwrap"],
        "sum(sin(unwrap(x * 3.0, axis=1)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["ediff1d", "cumulative_sum", "cumulative_prod"],
        "sum(sin(ediff1d(x, to_end=y))) + sum(sin(cumulative_sum(x, axis=1, include_initial=true))) + sum(cumulative_prod(y, include_initial=true))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["nancumsum", "nancumprod", "nanprod"],
        "sum(sin(nancumsum(where(x > 1.2, nan, x), axis=0))) + sum(nancumprod(y)) + sum(nanprod(where(x > 1.2, nan, x), axis=1))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["nanmedian", "nanquantile", "nanpercentile"],
        "sum(sin(nanmedian(where(x > 1.2, nan, x), axis=1)) + nanquantile(where(x < -1.0, nan, x), 0.3, axis=1)) + sum(nanpercentile(x * y, [20, 70], axis=0))",
        &[4, 5],
        &[5],
        &[0, 1],
    ),
    (
        &["vdot", "vecdot"],
        "vdot(x, sin(x)) + sum(sin(vecdot(x, y)))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["multi_dot"],
        "sum(sin(multi_dot([x, transpose(x), x, y])))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["matrix_transpose", "permute_dims"],
        "sum(sin(matrix_transpose(x) * 2.0) + permute_dims(x, (1, 0)))",
        &[3, 4],
        &[4],
        &[0],
    ),
    (
        &["vector_norm", "matrix_norm"],
        "sum(vector_norm(x, axis=1)) + vector_norm(y, ord=3) + matrix_norm(x)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
];

#[test]
fn npmath_gradients_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x6e70_6d61_7468_0017);
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, 0.5, 2.0)),
        ];
        check(&mut s, body, &args, argnums, H, TOL);
    }
}
