//! The op-table walk for gradients: every elementwise op with a gradient rule
//! is checked against central finite differences in float64 (plain and
//! broadcasting shapes), every op without one must give a zero gradient, and
//! every non-elementwise op whose entry has a rule is covered by a case here
//! (reductions with axis/keepdims, matmul shapes, indexing, shape ops).

use crate::grad_util::{Rng, check, define_elementwise_f, grad_operand, run, session};
use gcalc_runtime::Value;
use gcalc_runtime::ops::elementwise::{Domain, Rule, ew_def};
use gcalc_runtime::ops::{self, OpKind};

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

/// Values for operand `i` of `name` (away from kinks and poles).
fn operand(r: &mut Rng, name: &str, dom: Domain, i: usize, shape: &[usize]) -> Value {
    Value::Array(grad_operand(r, name, dom, i, shape))
}

#[test]
fn elementwise_rules_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x9e3779b97f4a7c15);
    let mut checked = 0;
    for op in ops::all() {
        let Some(def) = ew_def(op) else { continue };
        // Bitwise ops and shifts take no floats: there is nothing to differentiate.
        if matches!(def.rule, Rule::Bitwise | Rule::Shift) {
            assert!(def.grad.is_none(), "{} has a gradient rule", op.name);
            continue;
        }
        let argnums = define_elementwise_f(&mut s, op.name, def.arity);
        let layouts: [&[&[usize]]; 2] = [&[&[3, 4], &[3, 4], &[3, 4]], &[&[3, 4], &[4], &[3, 1]]];
        for shapes in layouts {
            let args: Vec<Value> = (0..def.arity)
                .map(|i| operand(&mut r, op.name, def.domain, i, shapes[i]))
                .collect();
            let what = format!("{} {:?}", op.name, &shapes[..def.arity]);
            if def.grad.is_some() {
                check(&mut s, &what, &args, &argnums, H, TOL);
                checked += 1;
            } else {
                // No rule: no gradient flows (the function is locally constant in x).
                let g = gcalc_runtime::ops::lookup("grad").expect("grad");
                let f = s.get("f").expect("f");
                let nums = Value::tuple(argnums.iter().map(|&k| Value::Int(k as i64)).collect());
                let gf = s
                    .interp()
                    .call_value(Value::Builtin(g), vec![f, nums], vec![], Default::default())
                    .expect("grad(f)");
                let Ok(Value::Tuple(gs)) =
                    s.interp()
                        .call_value(gf, args.clone(), vec![], Default::default())
                else {
                    panic!("{what}: grad failed")
                };
                for gv in gs.iter() {
                    let Value::Array(a) = gv else {
                        panic!("{what}: not an array")
                    };
                    assert!(
                        a.to_f64_vec().expect("read").iter().all(|&v| v == 0.0),
                        "{what}: nonzero gradient"
                    );
                }
            }
        }
    }
    assert!(
        checked >= 2 * 25,
        "only {checked} elementwise cases checked"
    );
}

/// (ops covered, f's body over x and y, shapes of x and y, argnums).
const CASES: &[(&[&str], &str, &[usize], &[usize], &[usize])] = &[
    (&["sum"], "sum(x)", &[3, 4], &[1], &[0]),
    (&["sum"], "sum(sin(sum(x, 0)))", &[3, 4], &[1], &[0]),
    (
        &["sum"],
        "sum(sin(sum(x, axis=1, keepdims=true) * x))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (&["sum"], "sum(sin(x.sum((0, 2))))", &[2, 3, 4], &[1], &[0]),
    (
        &["mean"],
        "sum(sin(mean(x, axis=-1) * 2.0))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (&["mean"], "sin(mean(x))", &[3, 4], &[1], &[0]),
    (&["prod"], "sum(sin(prod(x, 0)))", &[3, 4], &[1], &[0]),
    (
        &["prod"],
        "sin(x.prod(axis=1, keepdims=true).sum())",
        &[3, 4],
        &[1],
        &[0],
    ),
    (&["max"], "sum(sin(max(x, 1)))", &[3, 4], &[1], &[0]),
    (&["max"], "sin(max(x))", &[3, 4], &[1], &[0]),
    (
        &["min"],
        "sum(sin(min(x, axis=0, keepdims=true) * x))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (&["std"], "sum(sin(std(x, 0)))", &[3, 4], &[1], &[0]),
    (&["std"], "sin(std(x, ddof=1))", &[3, 4], &[1], &[0]),
    (
        &["var"],
        "sum(sin(var(x, axis=1, keepdims=true)))",
        &[3, 4],
        &[1],
        &[0],
    ),
    (&["var"], "sin(x.var(ddof=1))", &[3, 4], &[1], &[0]),
    (&["matmul"], "sum(sin(x @ y))", &[3, 4], &[4, 2], &[0, 1]),
    (&["matmul"], "sum(sin(x @ y))", &[4], &[4, 2], &[0, 1]),
    (&["matmul"], "sum(sin(x @ y))", &[3, 4], &[4], &[0, 1]),
    (&["matmul"], "sin(x @ y)", &[4], &[4], &[0, 1]),
    (
        &["matmul"],
        "sum(sin(matmul(x, y)))",
        &[2, 3, 4],
        &[4, 2],
        &[0, 1],
    ),
    (
        &["matmul"],
        "sum(sin(x @ y))",
        &[2, 1, 3, 4],
        &[3, 4, 2],
        &[0, 1],
    ),
    (&["dot"], "sum(sin(dot(x, y)))", &[3, 4], &[4, 2], &[0, 1]),
    (&["dot"], "sin(x.dot(y))", &[4], &[4], &[0, 1]),
    (&["outer"], "sum(sin(outer(x, y)))", &[3], &[2, 2], &[0, 1]),
    (
        &["reshape"],
        "sum(sin(x.reshape(2, 6) * y))",
        &[3, 4],
        &[6],
        &[0, 1],
    ),
    // Leaves broadcast against each other inside one fused reduction: the
    // 0-d seed of sum/mean must count every position a leaf fed.
    (
        &["add", "subtract"],
        "sum(x[:, :, None] + y) - mean(x[:, :, None] * 2.0 - y)",
        &[3, 4],
        &[5],
        &[0, 1],
    ),
    // Lists of tracked arrays where an array is meant: array([...]),
    // reductions of a list, elementwise ops of a list (stacked on the tape).
    (
        &["array", "stack"],
        "sum(array([x[0, 0], x[1, 1] * 2.0, y[0]]) ** 2) + sum(exp([x[0, 1], y[1]])) + mean([sum(x[0]), sum(y)]) + sum([sum(x[k]) ** 2 for k in range(2)])",
        &[2, 3],
        &[4],
        &[0, 1],
    ),
    (
        &["ufunc.outer"],
        "sum(add.outer(x, y)) + sum(sin(multiply.outer(x, y)))",
        &[2, 3],
        &[4],
        &[0, 1],
    ),
    (
        &["clip"],
        "sum(sin(clip(x, 0.2, none) + x.clip(max=-0.3) * y + clip(x * y, a_min=-0.5, a_max=0.5)))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["view"],
        "sum(sin(x.view(2, 6) * y)) + sum(cos(x.view() * 2.0)) + sum(x.flat[1:4] ** 2) + x.flat[5]",
        &[3, 4],
        &[6],
        &[0, 1],
    ),
    (
        &["reshape"],
        "sum(sin(reshape(x, (4, 3)) * y))",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (&["transpose"], "sum(sin(x.T * y))", &[3, 4], &[3], &[0, 1]),
    (
        &["transpose"],
        "sum(sin(transpose(x, (1, 2, 0)) * y))",
        &[2, 3, 4],
        &[2],
        &[0, 1],
    ),
    (
        &["squeeze"],
        "sum(sin(squeeze(x) * y))",
        &[3, 1, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["expand_dims"],
        "sum(sin(expand_dims(x, 1) * y))",
        &[3, 4],
        &[2, 4],
        &[0, 1],
    ),
    (
        &["flatten"],
        "sum(sin(x.flatten() * y))",
        &[3, 4],
        &[12],
        &[0, 1],
    ),
    (
        &["ravel"],
        "sum(sin(x.T.ravel() * y))",
        &[3, 4],
        &[12],
        &[0, 1],
    ),
    (
        &["concat"],
        "sum(sin(concat([x, y * 2.0, x], axis=1)))",
        &[3, 4],
        &[3, 2],
        &[0, 1],
    ),
    (
        &["concat"],
        "sum(sin(concat([x, y])))",
        &[3, 2],
        &[1, 2],
        &[0, 1],
    ),
    (
        &["stack"],
        "sum(sin(stack([x, y], axis=1) * 1.5))",
        &[3, 4],
        &[3, 4],
        &[0, 1],
    ),
    (
        &["broadcast_to"],
        "sum(sin(broadcast_to(x, (2, 3, 4)) * y))",
        &[3, 1],
        &[4],
        &[0, 1],
    ),
    (&["copy"], "sum(sin(x.copy() * y))", &[3, 4], &[4], &[0, 1]),
    (
        &["astype"],
        "sum(sin(x.astype(float64) * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (&["index"], "sum(sin(x[1] * y))", &[3, 4], &[4], &[0, 1]),
    (
        &["to", "copyto"],
        "sum(sin(x.to(cpu())) * y.copyto(x.device).sum())",
        &[3],
        &[4],
        &[0, 1],
    ),
    (
        &["index"],
        "sum(sin(x[:, 1:3] * y + x[::-1, -1:]))",
        &[3, 4],
        &[2],
        &[0, 1],
    ),
    (
        &["index"],
        "sum(sin(x[array([0, 2, 0])] * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["sort"],
        "sum(sin(sort(x * y, axis=0) * array([1.0, 2.0, 3.0]).reshape((3, 1))))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["sort"],
        "sum(sin(sort(x, descending=true) * y)) + sum(sin(sort(x, axis=none)[::2]))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["topk"],
        "sum(sin(topk(x * y, 2, axis=0)[0] * 1.5)) + sum(sin(topk(x, 3, largest=false)[0]))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["index"],
        "sum(sin(x[x > 0] * 2.0)) + y[0, none].sum()",
        &[3, 4],
        &[2],
        &[0, 1],
    ),
    // Linear algebra (issue 18): inputs made well conditioned, symmetric or
    // positive definite from x; losses invariant to the factors' signs.
    (
        &["solve"],
        "sum(sin(solve(x + 5 * eye(3), y)))",
        &[3, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["solve"],
        "sum(sin(solve(x + 5 * eye(3), y.reshape((3, 1)) * y)))",
        &[2, 3, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["inv"],
        "sum(sin(inv(x + 5 * eye(3)) @ y))",
        &[2, 3, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["det"],
        "sum(det(x + 3 * eye(3))) * sum(y)",
        &[2, 3, 3],
        &[2],
        &[0, 1],
    ),
    (
        &["slogdet"],
        "s, l = slogdet(x + 3 * eye(3)); sum(l * y)",
        &[2, 3, 3],
        &[2],
        &[0, 1],
    ),
    (
        &["cholesky"],
        "sum(sin(cholesky(x @ x.T + 3 * eye(3)) @ y))",
        &[3, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["cholesky"],
        "sum(sin(cholesky(x @ x.T + 3 * eye(3), upper=true) @ y))",
        &[3, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["qr"],
        "q, r = qr(x); sum(sin(q * 1.3)) + sum(r @ y)",
        &[4, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["qr"],
        "q, r = qr(x); sum(sin(q * 1.3)) + sum(sin(r @ y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["qr"],
        "sum(sin(qr(x, mode=\"r\") @ y))",
        &[4, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["svd"],
        "u, s, vh = svd(x, full_matrices=false); sum(s * y) + sum(sin(u @ vh))",
        &[4, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["svd"],
        "u, s, vh = svd(x, full_matrices=false); sum(s * y) + sum(sin(u @ vh))",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["add_at"],
        "z = x * 1.0; add_at(z, [0, 2, 0], y); sum(sin(z))",
        &[3, 4],
        &[3, 4],
        &[0, 1],
    ),
    (
        &["subtract_at"],
        "z = x * 1.0; subtract_at(z, (1, [0, 3, 3]), y); sum(sin(z))",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        &["svd", "svdvals"],
        "sum(svdvals(x) * y) + sum(svd(x, compute_uv=false))",
        &[4, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["eigh"],
        "w, v = eigh(x + x.T); sum(w * y) + sum(sin(v * v))",
        &[3, 3],
        &[3],
        &[0, 1],
    ),
    (
        &["eigvalsh"],
        "sum(eigvalsh(x + x.T, UPLO=\"U\") * y)",
        &[3, 3],
        &[3],
        &[0, 1],
    ),
    (&["pinv"], "sum(sin(pinv(x) @ y))", &[3, 4], &[3], &[0, 1]),
];

#[test]
fn other_rules_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x2545f4914f6cdd1d);
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        check(&mut s, body, &args, argnums, H, TOL);
    }
}

#[test]
fn every_rule_in_the_table_is_walked() {
    for op in ops::all() {
        if !matches!(op.kind, OpKind::Elementwise(_)) && op.grad.is_some() {
            assert!(
                CASES
                    .iter()
                    .chain(crate::grad_stats::CASES)
                    .chain(crate::grad_assemble::CASES)
                    .chain(crate::fft::CASES)
                    .chain(crate::grad_npmath::CASES)
                    .chain(crate::np_names::CASES)
                    .any(|(names, ..)| names.contains(&op.name)),
                "{} has a gradient rule but no finite-difference case",
                op.name
            );
        }
    }
}

#[test]
fn astype_casts_the_gradient_back() {
    let (mut s, _) = session("float64");
    let mut r = Rng(7);
    run(
        &mut s,
        "fn f(x, y) { sum(sin(x.astype(float32) * 1.5)) + sum(y) }",
    )
    .expect("define");
    let args = vec![
        Value::Array(r.array(&[3, 4], -2.0, 2.0)),
        Value::Array(r.array(&[2], -1.0, 1.0)),
    ];
    check(&mut s, "astype float32", &args, &[0, 1], 1e-2, 2e-3);
}

#[test]
fn prod_with_zeros_is_exact() {
    let (mut s, log) = session("float64");
    run(
        &mut s,
        "fn f(x) { sum(prod(x, 1)) }\nprint(grad(f)(array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.0, 2.0, 4.0]])))",
    )
    .expect("run");
    let out = log.lock().expect("log").clone();
    assert!(
        out.contains("[[0. 6. 0.]\n [0. 0. 0.]\n [8. 4. 2.]]"),
        "{out}"
    );
}

#[test]
fn ties_split_evenly() {
    let (mut s, log) = session("float64");
    run(
        &mut s,
        "print(grad(fn(x) { max(x) })(array([1.0, 3.0, 3.0])))\n\
         print(grad(fn(x) { sum(maximum(x, 1.0)) })(array([1.0, 2.0])))\n\
         print(grad(fn(x) { sum(relu(x) + abs(x)) })(array([0.0, 2.0])))\n\
         print(grad(fn(x) { sum(clip(x, 0.0, 1.0)) })(array([0.0, 1.0, 2.0])))",
    )
    .expect("run");
    let out = log.lock().expect("log").clone();
    assert_eq!(
        out, "[0.  0.5 0.5]\n[0.5 1. ]\n[0. 2.]\n[1. 1. 0.]\n",
        "{out}"
    );
}
