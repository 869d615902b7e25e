//! The sorting family on the CPU against float64 references written here
//! (a stable std sort under NumPy's order: nans last, -0.0 equal to 0.0):
//! every dtype (float16 too), lengths around the radix sort's thresholds
//! and past its parallel one, axes, descending, ties and stability; the
//! partition property, topk, unique with every flag, searchsorted with
//! sorter, isin, nonzero; and the errors, after which the session goes on.

use crate::grad_util::{Rng, run, session};
use gcalc_runtime::{Array, DType, Error, HostData, Session, Value};
use std::cmp::Ordering;

const DTYPES: [DType; 6] = DType::ALL;

fn call(
    s: &mut Session,
    name: &str,
    pos: Vec<Value>,
    kw: Vec<(&str, Value)>,
) -> Result<Value, Error> {
    let f = gcalc_runtime::ops::lookup(name).expect("in the op table");
    let kw = kw.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    s.interp()
        .call_value(Value::Builtin(f), pos, kw, Default::default())
}

fn arr(v: &Value) -> Array {
    match v {
        Value::Array(a) => a.clone(),
        v => panic!("not an array: {}", v.type_name()),
    }
}

fn items(v: &Value) -> Vec<Array> {
    match v {
        Value::Tuple(t) => t.iter().map(arr).collect(),
        v => panic!("not a tuple: {}", v.type_name()),
    }
}

/// NumPy's order: numbers ascending (-0.0 = 0.0), nans last.
fn np_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// The descending order: numbers reversed, nans still last.
fn desc_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
        _ => np_cmp(a, b),
    }
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b
}

/// Random values of `dt` with many ties, and for floats nans, infinities and signed zeros.
fn data(r: &mut Rng, dt: DType, n: usize, wide: bool) -> Array {
    let v: Vec<f64> = (0..n)
        .map(|_| {
            let u = r.next();
            match dt {
                DType::Bool => (u < 0.5) as u8 as f64,
                _ if !dt.is_float() => {
                    if wide {
                        ((u - 0.5) * 4e9).floor()
                    } else {
                        ((u - 0.5) * 40.0).floor()
                    }
                }
                _ => match (u * 20.0) as u32 {
                    0 => f64::NAN,
                    1 => f64::INFINITY,
                    2 => f64::NEG_INFINITY,
                    3 => -0.0,
                    4 => 0.0,
                    _ if wide => (r.next() - 0.5) * 1e4,
                    _ => ((r.next() - 0.5) * 24.0).floor() / 4.0,
                },
            }
        })
        .collect();
    Array::from_host(HostData::from_f64s(dt, v.into_iter()), vec![n])
}

/// The lanes of `x` (2-d, C order) along `axis` as vectors.
fn lanes(x: &[f64], shape: &[usize], axis: usize) -> Vec<Vec<f64>> {
    let (r, c) = (shape[0], shape[1]);
    if axis == 1 {
        (0..r).map(|i| x[i * c..(i + 1) * c].to_vec()).collect()
    } else {
        (0..c)
            .map(|j| (0..r).map(|i| x[i * c + j]).collect())
            .collect()
    }
}

/// The stable sort positions of a lane.
fn ref_argsort(l: &[f64], desc: bool) -> Vec<usize> {
    let mut p: Vec<usize> = (0..l.len()).collect();
    p.sort_by(|&a, &b| {
        if desc {
            desc_cmp(l[a], l[b])
        } else {
            np_cmp(l[a], l[b])
        }
    });
    p
}

#[test]
fn sort_and_argsort_match_a_stable_reference() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x5eed_0001);
    let shapes: &[&[usize]] = &[
        &[1, 1],
        &[1, 5],
        &[3, 47],
        &[2, 48],
        &[2, 49],
        &[5, 300],
        &[700, 3],
        &[1, 100_003],
        &[2, 70_000],
    ];
    for dt in DTYPES {
        for (k, shape) in shapes.iter().enumerate() {
            let n: usize = shape.iter().product();
            let x = data(&mut r, dt, n, k % 2 == 0)
                .reshape(&[shape[0] as i64, shape[1] as i64])
                .unwrap();
            let xv = x.to_f64_vec().unwrap();
            for axis in [0i64, -1] {
                let ax = if axis == 0 { 0 } else { 1 };
                for desc in [false, true] {
                    let what = format!("{dt} {shape:?} axis {axis} desc {desc}");
                    let kw = || {
                        vec![
                            ("axis", Value::Int(axis)),
                            ("descending", Value::Bool(desc)),
                        ]
                    };
                    let sv = arr(&call(&mut s, "sort", vec![x.clone().into()], kw()).unwrap());
                    let iv = arr(&call(&mut s, "argsort", vec![x.clone().into()], kw()).unwrap());
                    assert_eq!(sv.dtype(), dt, "{what}");
                    assert_eq!(iv.dtype(), DType::Int64, "{what}");
                    assert_eq!(sv.shape(), x.shape(), "{what}");
                    let got_v = lanes(&sv.to_f64_vec().unwrap(), shape, ax);
                    let got_i = lanes(&iv.to_f64_vec().unwrap(), shape, ax);
                    for ((l, gv), gi) in lanes(&xv, shape, ax).iter().zip(&got_v).zip(&got_i) {
                        let p = ref_argsort(l, desc);
                        for j in 0..l.len() {
                            assert!(
                                same(gv[j], l[p[j]]),
                                "{what}: value {j}: {} vs {}",
                                gv[j],
                                l[p[j]]
                            );
                            assert_eq!(gi[j] as usize, p[j], "{what}: index {j}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn sort_flattens_with_axis_none_and_keeps_the_multiset() {
    let (mut s, _) = session("float64");
    run(&mut s, "x = array([[3.0, -0.0, 1.0], [0.0, -2.0, 3.0]])").unwrap();
    run(&mut s, "a = sort(x, axis=none); b = argsort(x, axis=none)").unwrap();
    let a = arr(&s.get("a").unwrap()).to_f64_vec().unwrap();
    assert_eq!(a, vec![-2.0, 0.0, 0.0, 1.0, 3.0, 3.0]);
    // The two zeros keep their signs (one each), whatever their order.
    assert_eq!(
        a.iter()
            .filter(|z| **z == 0.0 && z.is_sign_negative())
            .count(),
        1
    );
    // Stable: the zeros (flat 1 and 3) and the threes (0 and 5) keep their order.
    let b = arr(&s.get("b").unwrap()).to_vec::<i64>().unwrap();
    assert_eq!(b, vec![4, 1, 3, 2, 0, 5]);
    // 3-d, a middle axis, stable=false and NumPy's kind= accepted.
    run(&mut s, "y = arange(24).reshape((2, 3, 4)) % 5; c = argsort(y, axis=1, stable=false, kind=\"mergesort\")").unwrap();
    let c = arr(&s.get("c").unwrap());
    assert_eq!(c.shape(), &[2, 3, 4]);
    let y: Vec<i64> = (0..24).map(|i| i % 5).collect();
    let cv = c.to_vec::<i64>().unwrap();
    for a in 0..2 {
        for k in 0..4 {
            let lane: Vec<f64> = (0..3).map(|j| y[a * 12 + j * 4 + k] as f64).collect();
            let p = ref_argsort(&lane, false);
            for j in 0..3 {
                assert_eq!(cv[a * 12 + j * 4 + k] as usize, p[j]);
            }
        }
    }
    run(
        &mut s,
        "z = argsort(array(5)); w = sort(array(5), axis=none)",
    )
    .unwrap();
    assert_eq!(arr(&s.get("z").unwrap()).shape(), &[1]);
    assert_eq!(arr(&s.get("w").unwrap()).shape(), &[1]);
}

#[test]
fn topk_is_the_head_of_the_stable_descending_sort() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x5eed_0002);
    for dt in DTYPES {
        for &(rows, n) in &[(1usize, 1usize), (3, 10), (4, 1000), (1, 70_000)] {
            let x = data(&mut r, dt, rows * n, false)
                .reshape(&[rows as i64, n as i64])
                .unwrap();
            let xv = x.to_f64_vec().unwrap();
            for k in [0, 1, n / 2, n] {
                for largest in [true, false] {
                    let out = call(
                        &mut s,
                        "topk",
                        vec![x.clone().into(), Value::Int(k as i64)],
                        vec![("largest", Value::Bool(largest))],
                    )
                    .unwrap();
                    let [v, i] = <[Array; 2]>::try_from(items(&out)).unwrap();
                    assert_eq!(v.shape(), &[rows, k]);
                    assert_eq!((v.dtype(), i.dtype()), (dt, DType::Int64));
                    let (vv, iv) = (v.to_f64_vec().unwrap(), i.to_vec::<i64>().unwrap());
                    for (ri, l) in lanes(&xv, &[rows, n], 1).iter().enumerate() {
                        let p = ref_argsort(l, largest);
                        for j in 0..k {
                            assert_eq!(iv[ri * k + j] as usize, p[j], "{dt} {rows}x{n} k {k}");
                            assert!(same(vv[ri * k + j], l[p[j]]));
                        }
                    }
                }
            }
        }
    }
    // Along axis 0, and ties to the lower position.
    run(
        &mut s,
        "v, i = topk(array([[1, 5], [5, 5], [5, 2]]), 2, axis=0)",
    )
    .unwrap();
    assert_eq!(
        arr(&s.get("i").unwrap()).to_vec::<i64>().unwrap(),
        vec![1, 0, 2, 1]
    );
    assert_eq!(
        arr(&s.get("v").unwrap()).to_vec::<i64>().unwrap(),
        vec![5, 5, 5, 5]
    );
}

#[test]
fn partition_puts_kth_in_place() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x5eed_0003);
    for dt in DTYPES {
        for &(rows, n) in &[(1usize, 1usize), (5, 9), (3, 1001)] {
            let x = data(&mut r, dt, rows * n, n > 100)
                .reshape(&[rows as i64, n as i64])
                .unwrap();
            let xv = x.to_f64_vec().unwrap();
            let kths: Vec<Vec<i64>> =
                vec![vec![0], vec![n as i64 - 1], vec![(n / 2) as i64, -1, 0]];
            for kth in kths {
                let kv = Value::list(kth.iter().map(|&k| Value::Int(k)).collect());
                let p = arr(&call(
                    &mut s,
                    "partition",
                    vec![x.clone().into(), kv.clone()],
                    vec![],
                )
                .unwrap());
                let ip =
                    arr(&call(&mut s, "argpartition", vec![x.clone().into(), kv], vec![]).unwrap());
                let pv = p.to_f64_vec().unwrap();
                let iv = ip.to_vec::<i64>().unwrap();
                for (ri, l) in lanes(&xv, &[rows, n], 1).iter().enumerate() {
                    let mut sorted = l.clone();
                    sorted.sort_by(|a, b| np_cmp(*a, *b));
                    let got = &pv[ri * n..(ri + 1) * n];
                    let via_idx: Vec<f64> = iv[ri * n..(ri + 1) * n]
                        .iter()
                        .map(|&j| l[j as usize])
                        .collect();
                    let mut perm: Vec<i64> = iv[ri * n..(ri + 1) * n].to_vec();
                    perm.sort();
                    assert_eq!(
                        perm,
                        (0..n as i64).collect::<Vec<_>>(),
                        "argpartition is a permutation"
                    );
                    for lane in [got, &via_idx[..]] {
                        for &k in &kth {
                            let k = if k < 0 {
                                (k + n as i64) as usize
                            } else {
                                k as usize
                            };
                            assert!(
                                same(lane[k], sorted[k]),
                                "{dt}: kth {k}: {} vs {}",
                                lane[k],
                                sorted[k]
                            );
                            assert!(
                                lane[..k]
                                    .iter()
                                    .all(|&a| np_cmp(a, lane[k]) != Ordering::Greater)
                            );
                            assert!(
                                lane[k + 1..]
                                    .iter()
                                    .all(|&a| np_cmp(a, lane[k]) != Ordering::Less)
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Reference unique: groups of the stable sort by NumPy's order.
fn ref_unique(x: &[f64], equal_nan: bool) -> (Vec<f64>, Vec<i64>, Vec<i64>, Vec<i64>) {
    let p = ref_argsort(x, false);
    let (mut vals, mut first, mut counts) = (vec![], vec![], vec![]);
    let mut inv = vec![0i64; x.len()];
    for (j, &i) in p.iter().enumerate() {
        let new = j == 0 || !(same(x[i], x[p[j - 1]])) || (!equal_nan && x[i].is_nan());
        if new {
            vals.push(x[i]);
            first.push(i as i64);
            counts.push(0);
        }
        *counts.last_mut().unwrap() += 1;
        inv[i] = vals.len() as i64 - 1;
    }
    (vals, first, inv, counts)
}

#[test]
fn unique_with_every_flag() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x5eed_0004);
    for dt in DTYPES {
        for &n in &[1usize, 40, 3000, 150_000] {
            let x = data(&mut r, dt, n, false);
            let xv = x.to_f64_vec().unwrap();
            for equal_nan in [true, false] {
                let out = call(
                    &mut s,
                    "unique",
                    vec![
                        x.clone().into(),
                        Value::Bool(true),
                        Value::Bool(true),
                        Value::Bool(true),
                    ],
                    vec![("equal_nan", Value::Bool(equal_nan))],
                )
                .unwrap();
                let [v, f, i, c] = <[Array; 4]>::try_from(items(&out)).unwrap();
                let (rv, rf, ri, rc) = ref_unique(&xv, equal_nan);
                let what = format!("{dt} n {n} equal_nan {equal_nan}");
                let vv = v.to_f64_vec().unwrap();
                assert_eq!(vv.len(), rv.len(), "{what}");
                assert!(vv.iter().zip(&rv).all(|(a, b)| same(*a, *b)), "{what}");
                assert_eq!(f.to_vec::<i64>().unwrap(), rf, "{what}");
                assert_eq!(i.to_vec::<i64>().unwrap(), ri, "{what}");
                assert_eq!(c.to_vec::<i64>().unwrap(), rc, "{what}");
                let plain = arr(&call(
                    &mut s,
                    "unique",
                    vec![x.clone().into()],
                    vec![("equal_nan", Value::Bool(equal_nan))],
                )
                .unwrap());
                let pv = plain.to_f64_vec().unwrap();
                assert!(
                    pv.len() == rv.len() && pv.iter().zip(&rv).all(|(a, b)| same(*a, *b)),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn searchsorted_and_isin_match_references() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x5eed_0005);
    for dt in DTYPES {
        let a = data(&mut r, dt, 500, false);
        let v = data(&mut r, dt, 3000, false).reshape(&[60, 50]).unwrap();
        let av = a.to_f64_vec().unwrap();
        let vv = v.to_f64_vec().unwrap();
        let order = arr(&call(&mut s, "argsort", vec![a.clone().into()], vec![]).unwrap());
        let sorted: Vec<f64> = order
            .to_vec::<i64>()
            .unwrap()
            .iter()
            .map(|&i| av[i as usize])
            .collect();
        for right in [false, true] {
            let side = Value::str(if right { "right" } else { "left" });
            let got = arr(&call(
                &mut s,
                "searchsorted",
                vec![a.clone().into(), v.clone().into(), side],
                vec![("sorter", order.clone().into())],
            )
            .unwrap());
            assert_eq!(got.shape(), &[60, 50]);
            let g = got.to_vec::<i64>().unwrap();
            for (j, &x) in vv.iter().enumerate() {
                let want = sorted
                    .iter()
                    .filter(|&&y| {
                        let c = np_cmp(y, x);
                        c == Ordering::Less || (right && c == Ordering::Equal)
                    })
                    .count();
                assert_eq!(g[j] as usize, want, "{dt} right {right}: {x}");
            }
        }
        for invert in [false, true] {
            let got = arr(&call(
                &mut s,
                "isin",
                vec![v.clone().into(), a.clone().into(), Value::Bool(invert)],
                vec![],
            )
            .unwrap());
            assert_eq!(got.dtype(), DType::Bool);
            let g = got.to_vec::<bool>().unwrap();
            for (j, &x) in vv.iter().enumerate() {
                let want = av.contains(&x);
                assert_eq!(g[j], want != invert, "{dt}: isin {x}");
            }
        }
    }
}

#[test]
fn nonzero_argwhere_flatnonzero_and_where() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x5eed_0006);
    let x = data(&mut r, DType::Float32, 3 * 50 * 700, false)
        .reshape(&[3, 50, 700])
        .unwrap();
    let xv = x.to_f64_vec().unwrap();
    let want: Vec<usize> = (0..xv.len()).filter(|&i| xv[i] != 0.0).collect();
    let nz = items(&call(&mut s, "nonzero", vec![x.clone().into()], vec![]).unwrap());
    assert_eq!(nz.len(), 3);
    let coords: Vec<Vec<i64>> = nz.iter().map(|a| a.to_vec::<i64>().unwrap()).collect();
    for (j, &i) in want.iter().enumerate() {
        assert_eq!(
            [coords[0][j], coords[1][j], coords[2][j]],
            [(i / 35_000) as i64, (i / 700 % 50) as i64, (i % 700) as i64]
        );
    }
    let aw = arr(&call(&mut s, "argwhere", vec![x.clone().into()], vec![]).unwrap());
    assert_eq!(aw.shape(), &[want.len(), 3]);
    let flat = arr(&call(&mut s, "flatnonzero", vec![x.clone().into()], vec![]).unwrap());
    assert_eq!(
        flat.to_vec::<i64>().unwrap(),
        want.iter().map(|&i| i as i64).collect::<Vec<_>>()
    );
    // where with one argument is nonzero; with three it stays elementwise.
    run(
        &mut s,
        "m = array([[0, 3], [4, 0]]); r1 = where(m); r3 = where(m > 0, m * 2, -1)",
    )
    .unwrap();
    let r1 = items(&s.get("r1").unwrap());
    assert_eq!(r1[0].to_vec::<i64>().unwrap(), vec![0, 1]);
    assert_eq!(r1[1].to_vec::<i64>().unwrap(), vec![1, 0]);
    assert_eq!(
        arr(&s.get("r3").unwrap()).to_vec::<i64>().unwrap(),
        vec![-1, 6, 8, -1]
    );
    run(&mut s, "e = argwhere(array(0)); f = argwhere(array(2.5))").unwrap();
    assert_eq!(arr(&s.get("e").unwrap()).shape(), &[0, 0]);
    assert_eq!(arr(&s.get("f").unwrap()).shape(), &[1, 0]);
}

#[test]
fn unique_along_an_axis() {
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "x = array([[1, 0, 1], [2, 2, 2], [1, 0, 1], [0, 9, 9]]); u, i, inv, c = unique(x, axis=0, return_index=true, return_inverse=true, return_counts=true); uc = unique(x, axis=1)",
    )
    .unwrap();
    assert_eq!(
        arr(&s.get("u").unwrap()).to_vec::<i64>().unwrap(),
        vec![0, 9, 9, 1, 0, 1, 2, 2, 2]
    );
    assert_eq!(
        arr(&s.get("i").unwrap()).to_vec::<i64>().unwrap(),
        vec![3, 0, 1]
    );
    assert_eq!(
        arr(&s.get("inv").unwrap()).to_vec::<i64>().unwrap(),
        vec![1, 2, 1, 0]
    );
    assert_eq!(
        arr(&s.get("c").unwrap()).to_vec::<i64>().unwrap(),
        vec![1, 2, 1]
    );
    let uc = arr(&s.get("uc").unwrap());
    // Columns [1 2 1 0], [0 2 0 9], [1 2 1 9]: distinct, in lexicographic order.
    assert_eq!(uc.shape(), &[4, 3]);
    assert_eq!(
        uc.to_vec::<i64>().unwrap(),
        vec![0, 1, 1, 2, 2, 2, 0, 1, 1, 9, 0, 9]
    );
}

#[test]
fn bad_arguments_are_clear_errors_and_the_session_goes_on() {
    let (mut s, _) = session("float64");
    run(&mut s, "x = array([[3.0, 1.0, 2.0]]); keep = 7").unwrap();
    let cases: &[(&str, &str)] = &[
        ("topk(x, 4)", "k=4 is out of range for an axis of length 3"),
        ("topk(x, -1)", "k=-1 is out of range"),
        ("topk(x, 1.5)", "k must be an integer"),
        (
            "sort(x, axis=2)",
            "axis 2 is out of bounds for array of dimension 2",
        ),
        ("argsort(x, axis=-3)", "axis -3 is out of bounds"),
        (
            "sort(array(5))",
            "axis -1 is out of bounds for array of dimension 0",
        ),
        (
            "sort(x, descending=2.5)",
            "descending must be true or false",
        ),
        ("sort(x, kind=\"bogo\")", "kind must be one of"),
        ("sort(x, order=1)", "unexpected keyword argument `order`"),
        (
            "partition(x, 3)",
            "kth=3 is out of bounds for an axis of length 3",
        ),
        ("partition(x, -4)", "kth=-4 is out of bounds"),
        (
            "argpartition(x, 1.5)",
            "kth must be an int or a sequence of ints",
        ),
        (
            "searchsorted(array([1, 2]), 1, side=\"middle\")",
            "side must be \"left\" or \"right\"",
        ),
        ("searchsorted(x, 1.0)", "searchsorted needs a 1-d array a"),
        (
            "searchsorted(array([1, 2]), 1, sorter=array([0]))",
            "sorter must be 1-d with one position per element",
        ),
        (
            "searchsorted(array([1, 2]), 1, sorter=array([0, 5]))",
            "sorter holds position 5 outside a of length 2",
        ),
        (
            "searchsorted(array([1, 2]), 1, sorter=array([0.0, 1.0]))",
            "sorter must hold ints",
        ),
        ("nonzero(array(3))", "nonzero of a 0-d array is not allowed"),
        ("where(array(3))", "nonzero of a 0-d array is not allowed"),
        ("where(x, x)", "where() takes 3 arguments but 2 were given"),
        ("unique(x, axis=2)", "axis 2 is out of bounds"),
        (
            "unique(x, return_counts=2.5)",
            "return_counts must be true or false",
        ),
        ("isin(x)", "missing required argument `test_elements`"),
    ];
    for (code, want) in cases {
        let e = run(&mut s, code).expect_err(code);
        assert!(e.contains(want), "{code}: {e}");
    }
    run(&mut s, "keep = keep + 1").unwrap();
    assert!(matches!(s.get("keep"), Some(Value::Int(8))));
}
