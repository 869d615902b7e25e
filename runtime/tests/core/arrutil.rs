//! NumPy's callables, in-place helpers, assembly helpers and text files
//! (`ops/arrutil/`) on the CPU: values against hand-computed NumPy results,
//! gradients through apply_along_axis/apply_over_axes/matvec/block against
//! central differences, writes seen through every name, loadtxt/savetxt/
//! genfromtxt against golden files, and the errors (function, file, line).

use crate::grad_util::{Rng, check, run, session};
use gcalc_runtime::{Session, Value};

fn vals(s: &mut Session, code: &str) -> Vec<f64> {
    run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Array(a)) => a.to_f64_vec().unwrap(),
        Some(Value::Float(f)) => vec![f],
        Some(Value::Int(i)) => vec![i as f64],
        _ => panic!("{code}: not an array or number"),
    }
}

fn text(s: &mut Session, code: &str) -> String {
    run(s, &format!("out = repr({code})")).unwrap_or_else(|e| panic!("{code}: {e}"));
    match s.get("out") {
        Some(Value::Str(t)) => t.to_string(),
        _ => panic!("{code}: repr gave no string"),
    }
}

fn err(s: &mut Session, code: &str) -> String {
    match run(s, code) {
        Ok(()) => panic!("{code}: no error"),
        Err(e) => e,
    }
}

const GRAD_CASES: &[(&str, &[usize], &[usize], &[usize])] = &[
    (
        "sum(apply_along_axis(fn(v) { sum(sin(v) * v) }, 1, x) * y)",
        &[3, 4],
        &[3],
        &[0, 1],
    ),
    (
        "sum(sin(apply_along_axis(fn(v, w) { v * w }, 0, x, y)))",
        &[3, 2],
        &[3],
        &[0, 1],
    ),
    (
        "sum(sin(apply_over_axes(sum, x, [0, 2])) * 2.0)",
        &[2, 3, 2],
        &[1],
        &[0],
    ),
    ("sum(sin(matvec(x, y)))", &[2, 3, 4], &[4], &[0, 1]),
    ("sum(sin(vecmat(y, x)))", &[3, 4], &[3], &[0, 1]),
    (
        "sum(sin(block([[x, x], [y, y]])))",
        &[2, 3],
        &[1, 3],
        &[0, 1],
    ),
    (
        "sum(sin(compress([true, false, true], x, axis=1)))",
        &[2, 3],
        &[1],
        &[0],
    ),
    ("sum(sin(extract(x > 0.0, x)) * 3.0)", &[2, 3], &[1], &[0]),
    ("sum(sin(unstack(x, axis=1)[2]))", &[2, 3], &[1], &[0]),
    (
        "sum(sin(fromfunction(fn(i, j) { i * x[0] + j * y[0] }, (2, 3))))",
        &[2],
        &[2],
        &[0, 1],
    ),
];

#[test]
fn gradients_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x2545f4914f6cdd1d);
    for (body, xs, ys, argnums) in GRAD_CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        check(&mut s, body, &args, argnums, 1e-6, 1e-6);
    }
}

#[test]
fn callables() {
    let (mut s, _) = session("float64");
    run(&mut s, "b = array([[8, 1, 7], [4, 3, 9], [5, 2, 6]])").unwrap();
    // A function giving a number removes the axis; an array keeps its dims there.
    assert_eq!(
        vals(
            &mut s,
            "apply_along_axis(fn(v) { (v[0] + v[-1]) * 0.5 }, 0, b)"
        ),
        vec![6.5, 1.5, 6.5]
    );
    assert_eq!(
        vals(&mut s, "apply_along_axis(sort, 1, b)"),
        vec![1., 7., 8., 3., 4., 9., 2., 5., 6.]
    );
    run(&mut s, "r = apply_along_axis(diag, -1, b)").unwrap();
    assert_eq!(vals(&mut s, "array(r.shape)"), vec![3., 3., 3.]);
    assert_eq!(
        vals(&mut s, "r[1]"),
        vec![4., 0., 0., 0., 3., 0., 0., 0., 9.]
    );
    run(
        &mut s,
        "r = apply_along_axis(fn(v) { stack([v, v]) }, 0, ones((3, 4, 5)))",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "array(r.shape)"), vec![2., 3., 4., 5.]);
    assert_eq!(text(&mut s, "apply_along_axis(sum, 0, b).dtype"), "int64");
    assert_eq!(
        vals(
            &mut s,
            "apply_over_axes(sum, arange(24).reshape(2, 3, 4), [0, 2])"
        ),
        vec![60., 92., 124.]
    );
    assert_eq!(
        vals(
            &mut s,
            "array(apply_over_axes(sum, arange(24).reshape(2, 3, 4), [0, 2]).shape)"
        ),
        vec![1., 3., 1.]
    );
    // vectorize: broadcasting, otypes, a tuple result, excluded.
    run(
        &mut s,
        "fn clip1(a, b) { if a > b { return a - b }\n return a + b }",
    )
    .unwrap();
    run(&mut s, "vf = vectorize(clip1)").unwrap();
    assert_eq!(
        vals(&mut s, "vf(array([1, 2, 3, 4]), 2)"),
        vec![3., 4., 1., 2.]
    );
    assert_eq!(text(&mut s, "vf(array([1, 2, 3, 4]), 2).dtype"), "int64");
    assert_eq!(
        vals(&mut s, "vf(array([[1], [5]]), array([1, 2]))"),
        vec![2., 3., 4., 3.]
    );
    assert_eq!(
        text(
            &mut s,
            "vectorize(clip1, otypes=[float32])(array([1, 2]), 1).dtype"
        ),
        "float32"
    );
    assert_eq!(
        vals(
            &mut s,
            "vectorize(fn(a, b) { (a + b, a - b) })(array([1.0, 2.0]), 1.0)[1]"
        ),
        vec![0., 1.]
    );
    assert_eq!(
        vals(
            &mut s,
            "vectorize(fn(a, p) { a * len(p) }, excluded=[1])(array([1, 2]), [0, 0, 0])"
        ),
        vec![3., 6.]
    );
    assert_eq!(
        vals(
            &mut s,
            "vectorize(fn(a) { a }, otypes=\"d\")(zeros((0, 2)))"
        )
        .len(),
        0
    );
    // fromfunction calls its function once, with index arrays.
    run(
        &mut s,
        "calls = [0]\nfn g(i, j) { calls[0] = calls[0] + 1\n return i * 10 + j }",
    )
    .unwrap();
    assert_eq!(
        vals(&mut s, "fromfunction(g, (2, 3))"),
        vec![0., 1., 2., 10., 11., 12.]
    );
    assert_eq!(vals(&mut s, "calls[0]"), vec![1.]);
    assert_eq!(text(&mut s, "fromfunction(g, (2, 3)).dtype"), "float64");
    assert_eq!(
        text(&mut s, "fromfunction(g, (2, 3), dtype=int64).dtype"),
        "int64"
    );
}

#[test]
fn callable_errors() {
    let (mut s, _) = session("float64");
    let e = err(&mut s, "apply_along_axis(sum, 1, zeros((0, 3)))");
    assert!(e.contains("iteration dimensions are 0"), "{e}");
    let e = err(&mut s, "apply_along_axis(3, 0, ones(3))");
    assert!(e.contains("func1d") && e.contains("function"), "{e}");
    let e = err(&mut s, "apply_along_axis(sum, 2, ones((2, 2)))");
    assert!(e.contains("axis"), "{e}");
    let e = err(&mut s, "vectorize(fn(a) { a })(zeros(0))");
    assert!(e.contains("otypes"), "{e}");
    let e = err(&mut s, "vectorize(fn(a, b) { a })(ones(2), ones(3))");
    assert!(e.contains("broadcast"), "{e}");
}

#[test]
fn writes_in_place_are_seen_through_every_name() {
    let (mut s, _) = session("float64");
    run(&mut s, "a = zeros((3, 3))\nb = a\nfill_diagonal(a, 5)").unwrap();
    assert_eq!(vals(&mut s, "b"), vec![5., 0., 0., 0., 5., 0., 0., 0., 5.]);
    run(
        &mut s,
        "t = zeros((7, 3), dtype=int64)\nfill_diagonal(t, [1, 2], wrap=true)",
    )
    .unwrap();
    assert_eq!(
        vals(&mut s, "t[:, 0]"),
        vec![1., 0., 0., 0., 2., 0., 0.],
        "the wrapped diagonal restarts at row 4"
    );
    run(&mut s, "c = zeros((2, 2, 2))\nfill_diagonal(c, 4.0)").unwrap();
    assert_eq!(vals(&mut s, "c"), vec![4., 0., 0., 0., 0., 0., 0., 4.]);
    // putmask: values repeat by position in a, not among the selected.
    run(&mut s, "x = arange(6)\ny = x\nputmask(x, x > 2, [10, 20])").unwrap();
    assert_eq!(vals(&mut s, "y"), vec![0., 1., 2., 20., 10., 20.]);
    // A view writes through to its base.
    run(
        &mut s,
        "m = zeros((2, 4))\nv = m[1]\nputmask(v, v == 0, 7.0)",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "m[1]"), vec![7.; 4]);
    run(&mut s, "d = zeros(4)\nalias = d\ncopyto(d, array([1.0, 2.0, 3.0, 4.0]), where=array([true, false, true, false]))").unwrap();
    assert_eq!(vals(&mut s, "alias"), vec![1., 0., 3., 0.]);
    run(&mut s, "copyto(d, 9)").unwrap();
    assert_eq!(vals(&mut s, "alias"), vec![9.; 4]);
    let e = err(&mut s, "copyto(zeros(2, dtype=int64), array([1.5, 2.5]))");
    assert!(e.contains("same_kind"), "{e}");
    // copyto with a device keeps its meaning: a copy on the device.
    assert_eq!(
        vals(&mut s, "copyto(array([1.0, 2.0]), cpu())"),
        vec![1., 2.]
    );
    let e = err(&mut s, "fill_diagonal(zeros((2, 3, 2)), 1)");
    assert!(e.contains("equal length"), "{e}");
    let e = err(&mut s, "fill_diagonal(zeros(3), 1)");
    assert!(e.contains("at least 2-d"), "{e}");
}

#[test]
fn selection_and_assembly() {
    let (mut s, _) = session("float64");
    run(&mut s, "a = array([[1, 2], [3, 4], [5, 6]])").unwrap();
    assert_eq!(vals(&mut s, "compress([0, 1], a, axis=0)"), vec![3., 4.]);
    assert_eq!(
        vals(&mut s, "compress([false, true, true], a, axis=0)"),
        vec![3., 4., 5., 6.]
    );
    assert_eq!(
        vals(&mut s, "compress([false, true], a, axis=1)"),
        vec![2., 4., 6.]
    );
    assert_eq!(vals(&mut s, "compress([false, true], a)"), vec![2.]);
    let e = err(&mut s, "compress([false, false, false, true], a, axis=0)");
    assert!(e.contains("out of bounds"), "{e}");
    assert_eq!(vals(&mut s, "extract(a % 2 == 0, a)"), vec![2., 4., 6.]);
    assert_eq!(vals(&mut s, "unstack(a)[2]"), vec![5., 6.]);
    assert_eq!(vals(&mut s, "unstack(a, axis=1)[1]"), vec![2., 4., 6.]);
    assert_eq!(vals(&mut s, "float(len(unstack(a, axis=-1)))"), vec![2.]);
    let e = err(&mut s, "unstack(array(3.0))");
    assert!(e.contains("at least 1-d"), "{e}");
    assert_eq!(
        vals(&mut s, "matvec(a, array([1, -1]))"),
        vec![-1., -1., -1.]
    );
    assert_eq!(vals(&mut s, "vecmat(array([1, 0, 2]), a)"), vec![11., 14.]);
    assert_eq!(
        vals(
            &mut s,
            "array(matvec(ones((4, 1, 3, 2)), ones((5, 2))).shape)"
        ),
        vec![4., 5., 3.]
    );
    let e = err(&mut s, "matvec(ones(3), ones(3))");
    assert!(e.contains("does not have enough dimensions"), "{e}");
    let e = err(&mut s, "matvec(ones((2, 3)), ones(4))");
    assert!(e.contains("mismatch in its core dimension"), "{e}");
    // block: innermost lists along the last axis; scalars and 1-d blocks.
    assert_eq!(
        vals(
            &mut s,
            "block([[eye(2), zeros((2, 1))], [ones((1, 2)), array([[9.0]])]])"
        ),
        vec![1., 0., 0., 0., 1., 0., 1., 1., 9.]
    );
    assert_eq!(
        vals(&mut s, "block([1, 2, array([3, 4])])"),
        vec![1., 2., 3., 4.]
    );
    assert_eq!(
        vals(&mut s, "array(block([[1, 2], [3, 4]]).shape)"),
        vec![2., 2.]
    );
    assert_eq!(
        vals(
            &mut s,
            "array(block([[ones((2, 2, 2))], [zeros((2, 2, 2))]]).shape)"
        ),
        vec![2., 4., 2.]
    );
    let e = err(&mut s, "block([[1, 2], 3])");
    assert!(e.contains("List depths are mismatched"), "{e}");
    let e = err(&mut s, "block([[1, 2], []])");
    assert!(e.contains("cannot be empty"), "{e}");
    let e = err(&mut s, "block((1, 2))");
    assert!(e.contains("is a tuple"), "{e}");
}

#[test]
fn iteration_and_bits() {
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "acc = []\nfor i, j in ndindex(2, 3) { acc.append(i * 10 + j) }",
    )
    .unwrap();
    assert_eq!(vals(&mut s, "array(acc)"), vec![0., 1., 2., 10., 11., 12.]);
    assert_eq!(vals(&mut s, "float(len(ndindex((2, 2))))"), vec![4.]);
    assert_eq!(text(&mut s, "ndindex()"), "[()]");
    run(&mut s, "tot = 0.0\nfor idx, v in ndenumerate(array([[1.5, 2.0], [3.0, 4.0]])) { tot = tot + v * (idx[0] + 1) }").unwrap();
    assert_eq!(vals(&mut s, "tot"), vec![1.5 + 2.0 + 6.0 + 8.0]);
    assert_eq!(
        text(&mut s, "ndenumerate(array([7, 8]))"),
        "[((0,), 7), ((1,), 8)]"
    );
    // packbits / unpackbits, both bit orders, an axis, count.
    run(&mut s, "bits = array([[1, 0, 1], [0, 1, 1]])").unwrap();
    assert_eq!(vals(&mut s, "packbits(bits)"), vec![(0b10101100) as f64]);
    assert_eq!(vals(&mut s, "packbits(bits, axis=1)"), vec![160., 96.]);
    assert_eq!(
        vals(&mut s, "packbits(bits, axis=0, bitorder=\"little\")"),
        vec![1., 2., 3.]
    );
    assert_eq!(
        text(&mut s, "packbits(array([true, false])).dtype"),
        "int64"
    );
    assert_eq!(
        vals(&mut s, "unpackbits(array([160, 3]))"),
        vec![
            1., 0., 1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 1.
        ]
    );
    assert_eq!(
        vals(&mut s, "unpackbits(array([[160], [3]]), axis=1, count=3)"),
        vec![1., 0., 1., 0., 0., 0.]
    );
    assert_eq!(
        vals(
            &mut s,
            "unpackbits(array([5]), bitorder=\"little\", count=-5)"
        ),
        vec![1., 0., 1.]
    );
    assert_eq!(
        vals(
            &mut s,
            "unpackbits(packbits(bits, axis=1), axis=1, count=3)"
        ),
        vec![1., 0., 1., 0., 1., 1.]
    );
    let e = err(&mut s, "packbits(array([1.5]))");
    assert!(e.contains("integer or boolean"), "{e}");
    let e = err(&mut s, "unpackbits(array([1.5]))");
    assert!(e.contains("unsigned byte"), "{e}");
}

#[test]
fn text_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let (mut s, _) = session("float64");
    std::fs::write(
        dir.path().join("a.txt"),
        "# x y z\n1 2 3\n\n4.5 -5e1 nan  # tail\n7 8 inf\n",
    )
    .unwrap();
    run(&mut s, &format!("d = \"{d}\"")).unwrap();
    let got = vals(&mut s, "loadtxt(d + \"/a.txt\")");
    assert_eq!(got.len(), 9);
    assert_eq!(&got[..5], &[1., 2., 3., 4.5, -50.]);
    assert!(got[5].is_nan() && got[8] == f64::INFINITY);
    let u = vals(
        &mut s,
        "loadtxt(d + \"/a.txt\", usecols=[0, -1], max_rows=2)",
    );
    assert_eq!(&u[..3], &[1., 3., 4.5]);
    assert!(u[3].is_nan());
    assert_eq!(
        vals(&mut s, "array(loadtxt(d + \"/a.txt\", usecols=1).shape)"),
        vec![3.]
    );
    assert_eq!(
        vals(
            &mut s,
            "array(loadtxt(d + \"/a.txt\", usecols=1, ndmin=2).shape)"
        ),
        vec![3., 1.]
    );
    assert_eq!(
        vals(&mut s, "loadtxt(d + \"/a.txt\", unpack=true, max_rows=1)"),
        vec![1., 2., 3.]
    );
    assert_eq!(
        vals(
            &mut s,
            "loadtxt(d + \"/a.txt\", unpack=true, usecols=[0, 1], skiprows=2, max_rows=2)"
        ),
        vec![4.5, 7., -50., 8.]
    );
    std::fs::write(dir.path().join("c.csv"), "a,b\n1,2\n3,x\n").unwrap();
    let e = err(
        &mut s,
        "loadtxt(d + \"/c.csv\", delimiter=\",\", skiprows=1)",
    );
    assert!(
        e.contains("c.csv line 3, column 2") && e.contains("\"x\""),
        "{e}"
    );
    assert_eq!(
        vals(
            &mut s,
            "loadtxt(d + \"/c.csv\", delimiter=\",\", skiprows=1, max_rows=1, dtype=int64)"
        ),
        vec![1., 2.]
    );
    assert_eq!(
        text(
            &mut s,
            "loadtxt(d + \"/c.csv\", delimiter=\",\", skiprows=1, max_rows=1, dtype=int64).dtype"
        ),
        "int64"
    );
    std::fs::write(dir.path().join("r.txt"), "1 2\n3\n").unwrap();
    let e = err(&mut s, "loadtxt(d + \"/r.txt\")");
    assert!(
        e.contains("r.txt line 2") && e.contains("from 2 to 1"),
        "{e}"
    );
    // genfromtxt: empty and bad fields become nan (or filling_values).
    std::fs::write(
        dir.path().join("g.csv"),
        "h1,h2,h3\n1,,3\n4,x,6\n7,8,9\nend\n",
    )
    .unwrap();
    let g = vals(
        &mut s,
        "genfromtxt(d + \"/g.csv\", delimiter=\",\", skip_header=1, skip_footer=1)",
    );
    assert_eq!(g.len(), 9);
    assert!(g[1].is_nan() && g[4].is_nan() && g[8] == 9.0);
    assert_eq!(
        vals(
            &mut s,
            "genfromtxt(d + \"/g.csv\", delimiter=\",\", skip_header=1, skip_footer=1, filling_values=-1)[:, 1]"
        ),
        vec![-1., -1., 8.]
    );
    // savetxt: NumPy's default format, fmt per column, header/footer.
    run(
        &mut s,
        "savetxt(d + \"/o.txt\", array([[1.0, 2.5], [3.0, -4.0]]))",
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("o.txt")).unwrap(),
        "1.000000000000000000e+00 2.500000000000000000e+00\n3.000000000000000000e+00 -4.000000000000000000e+00\n"
    );
    run(&mut s, "savetxt(d + \"/p.csv\", array([[1, 2], [3, 4]]), fmt=[\"%d\", \"%.2f\"], delimiter=\",\", header=\"a,b\\nc\", footer=\"end\")").unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("p.csv")).unwrap(),
        "# a,b\n# c\n1,2.00\n3,4.00\n# end\n"
    );
    run(
        &mut s,
        "savetxt(d + \"/q.txt\", array([1.5, 2.0]), fmt=\"%g\")",
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("q.txt")).unwrap(),
        "1.5\n2\n"
    );
    assert_eq!(
        vals(&mut s, "loadtxt(d + \"/p.csv\", delimiter=\",\")"),
        vec![1., 2., 3., 4.]
    );
    let e = err(&mut s, "savetxt(d + \"/z.txt\", zeros((2, 2, 2)))");
    assert!(e.contains("Expected 1D or 2D array, got 3D"), "{e}");
    let e = err(
        &mut s,
        "savetxt(d + \"/z.txt\", zeros((2, 3)), fmt=\"%d %d\")",
    );
    assert!(e.contains("wrong number"), "{e}");
    // savez_compressed reads back with load.
    run(
        &mut s,
        "savez_compressed(d + \"/z.npz\", arange(1000) % 7, w=ones(3))",
    )
    .unwrap();
    assert_eq!(
        vals(&mut s, "load(d + \"/z.npz\")[\"w\"]"),
        vec![1., 1., 1.]
    );
    assert_eq!(
        vals(&mut s, "sum(load(d + \"/z.npz\")[\"arr_0\"])"),
        vec![(0..1000).map(|k| (k % 7) as f64).sum::<f64>()]
    );
    let size = std::fs::metadata(dir.path().join("z.npz")).unwrap().len();
    assert!(size < 2000, "deflated: {size} bytes");
    let e = err(&mut s, "loadtxt(d + \"/missing.txt\")");
    assert!(e.contains("missing.txt"), "{e}");
}
