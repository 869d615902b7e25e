//! Finite-difference cases of the statistics and scans family (issue 17):
//! every op of it with a gradient rule (`grad_ops`'s walk reads `CASES`)
//! and the composed ones (average, cov, corrcoef: their gradients are their
//! steps'). Data is random with no ties, so order statistics are smooth.

use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::Value;

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

/// (ops covered, body of `f(x, y)`, x's shape, y's shape, argnums).
pub const CASES: &[(&[&str], &str, &[usize], &[usize], &[usize])] = &[
    (
        &["cumsum"],
        "sum(sin(cumsum(x, axis=1)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (&["cumsum"], "sum(sin(cumsum(x)))", &[3, 4], &[1], &[0]),
    (
        &["cumprod"],
        "sum(sin(cumprod(x, axis=0)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["cummax", "cummin"],
        "sum(sin(cummax(x, axis=1) + cummin(x, axis=0)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["diff"],
        "sum(sin(diff(x, n=2, axis=1)) * y)",
        &[3, 5],
        &[3],
        &[0, 1],
    ),
    (
        &["nansum", "nanmean"],
        "sum(sin(nansum(x, axis=0) + nanmean(x, axis=0)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["nanmax", "nanmin"],
        "sum(sin(nanmax(x, axis=1) * nanmin(x, axis=1)) * y)",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["nanstd", "nanvar"],
        "sum(sin(nanstd(x, axis=1) + nanvar(x, axis=0, ddof=1).sum()) * y)",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    // NumPy's where= and initial= (composed of taped where/sum/maximum).
    (
        &["sum", "mean"],
        "sum(sin(sum(x * x, axis=1, where=x > 0) + mean(x, axis=1, where=x < 0)) * y)",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["std", "var"],
        "sum(sin(std(x, axis=0, where=x > 0) + var(x * y, axis=0, where=x < 0, ddof=1)) * y)",
        &[9, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["max", "min", "prod"],
        "sum(sin(max(x, axis=1, initial=0.3) * min(x * y, axis=1, where=x > 0, initial=2.0)) + prod(x, axis=1, where=x > 0, initial=1.5))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["ptp"],
        "sum(sin(ptp(x, axis=0)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["softmax"],
        "sum(sin(softmax(x, axis=1)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["log_softmax"],
        "sum(sin(log_softmax(x, axis=0)) * y)",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["logsumexp"],
        "sum(sin(logsumexp(x, axis=1)) * y)",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["logsumexp"],
        "sin(logsumexp(x * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["median"],
        "sum(sin(median(x, axis=1)) * y)",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["median"],
        "sum(sin(median(x, axis=0, keepdims=true)) * y)",
        &[5, 4],
        &[4],
        &[0, 1],
    ),
    (&["median"], "sin(median(x * y))", &[3, 5], &[5], &[0, 1]),
    (
        &["percentile"],
        "sum(sin(percentile(x, [10, 50, 95], axis=1)) * y)",
        &[3, 6],
        &[3],
        &[0, 1],
    ),
    (
        &["quantile"],
        "sum(sin(quantile(x, 0.3, axis=(0, 1))) * y)",
        &[3, 4, 2],
        &[2],
        &[0, 1],
    ),
    (
        &["average"],
        "sum(sin(average(x, axis=1, weights=y)))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (&["average"], "sin(average(x * y))", &[3, 4], &[4], &[0, 1]),
    (
        &["cov"],
        "sum(sin(cov(x) * 2.0)) + sum(y)",
        &[3, 5],
        &[1],
        &[0],
    ),
    (
        &["cov"],
        "sum(sin(cov(x, y, rowvar=false)))",
        &[5, 2],
        &[5],
        &[0, 1],
    ),
    (
        &["corrcoef"],
        "sum(sin(corrcoef(x) * 2.0)) + sum(y)",
        &[3, 6],
        &[1],
        &[0],
    ),
];

#[test]
fn statistics_rules_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x51ed_2701_9e37_79b9);
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, 0.5, 2.0)),
        ];
        check(&mut s, body, &args, argnums, H, TOL);
    }
}
