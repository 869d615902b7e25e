//! The sorting family on gpu(0) against the CPU on the same random data
//! (nans, infinities, signed zeros and many ties; every dtype; empty and
//! size-1 inputs; lanes around the GPU's shared-memory sort limit, long
//! single lanes past one block of the radix scan, many long rows): sort,
//! argsort (stable, so positions must be equal), topk, partition (its
//! property), searchsorted, isin, unique with every flag, nonzero, argwhere,
//! flatnonzero, one-argument where; the gradients of sort and topk against
//! the CPU's and central differences on the GPU; NumPy's rows of
//! tests/numpy/src/ops_sort.rs on the GPU. Every result must stay on gpu(0).
//! Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use crate::gpu_util::{G, assert_same, data, have_gpu};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_sort::SORTING;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Array, DType, Error, HostData, Session, Value, backend};
use std::cmp::Ordering;

fn session() -> Session {
    Session::new(Default::default(), Box::new(Captured::default()))
}

fn call(s: &mut Session, name: &str, pos: &[Value], kw: &[(&str, Value)]) -> Result<Value, Error> {
    let f = gcalc_runtime::ops::lookup(name).expect("in the op table");
    let kw = kw.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    s.interp()
        .call_value(Value::Builtin(f), pos.to_vec(), kw, Default::default())
}

/// `v` with an array moved to gpu(0).
fn on_gpu(v: &Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(backend::to_device(a, G).unwrap()),
        v => v.clone(),
    }
}

/// The arrays of a result (one array, or a tuple of them).
fn arrays(v: Value) -> Vec<Array> {
    match v {
        Value::Array(a) => vec![a],
        Value::Tuple(t) => t.iter().flat_map(|v| arrays(v.clone())).collect(),
        v => panic!("not an array or a tuple: {}", v.type_name()),
    }
}

/// `name` on the host arguments and on their GPU copies: equal arrays
/// (values exactly, dtypes, shapes; GPU results on gpu(0)) or one error.
/// Gives the GPU's arrays.
fn same_on_both(
    s: &mut Session,
    name: &str,
    pos: &[Value],
    kw: &[(&str, Value)],
    what: &str,
) -> Vec<Array> {
    let want = call(s, name, pos, kw);
    let gpos: Vec<Value> = pos.iter().map(on_gpu).collect();
    let gkw: Vec<(&str, Value)> = kw.iter().map(|(k, v)| (*k, on_gpu(v))).collect();
    let got = call(s, name, &gpos, &gkw);
    match (got, want) {
        (Ok(got), Ok(want)) => {
            let (got, want) = (arrays(got), arrays(want));
            assert_eq!(got.len(), want.len(), "{name} {what}: result count");
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_same(g, w, 0.0, &format!("{name} {what}: result {k}"));
            }
            got
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.message, b.message, "{name} {what}");
            vec![]
        }
        (a, b) => panic!("{name} {what}: GPU {:?} vs CPU {:?}", a.err(), b.err()),
    }
}

/// Random values of `d` with many ties; floats with nans, infinities and
/// signed zeros; `wide`: few ties (32-bit-wide ints, spread floats).
fn special(d: DType, shape: &[usize], seed: u64, wide: bool) -> Array {
    let n: usize = shape.iter().product();
    let u = data(n, seed, 0.0, 1.0);
    let w = data(n, seed ^ 0x9e37_79b9, -0.5, 0.5);
    let v = u.iter().zip(&w).map(|(&u, &w)| match d {
        DType::Bool => (u < 0.5) as u8 as f64,
        _ if !d.is_float() && wide => (w * 4e9).floor(),
        _ if !d.is_float() => (w * 40.0).floor(),
        _ => match (u * 20.0) as u32 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => -0.0,
            4 => 0.0,
            _ if wide => w * 1e4,
            _ => (w * 24.0).floor() / 4.0,
        },
    });
    Array::from_host(HostData::from_f64s(d, v), shape.to_vec())
}

/// Shapes for every dtype: empty, size 1, short lanes, lanes just past the
/// shared-memory sort (4096 elements of 4-byte keys, 2048 of 8-byte ones),
/// one long lane; `big` adds a lane of more than 256 radix blocks and 300
/// rows of 4500 (two bytes of lane number in the radix passes).
fn shapes(big: bool) -> Vec<Vec<usize>> {
    let mut v = vec![
        vec![0],
        vec![1],
        vec![7],
        vec![3, 0],
        vec![3, 33],
        vec![2, 3, 40],
        vec![2, 4097],
        vec![70_000],
    ];
    if big {
        v.push(vec![600_000]);
        v.push(vec![300, 4500]);
    }
    v
}

fn big(d: DType) -> bool {
    matches!(d, DType::Float32 | DType::Int64)
}

#[test]
fn sort_argsort_and_topk_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = session();
    for d in DType::ALL {
        for (k, shape) in shapes(big(d)).into_iter().enumerate() {
            let x = Value::Array(special(d, &shape, 10 + k as u64, k % 2 == 1));
            let mut axes = vec![Some(-1), None];
            if shape.len() > 1 {
                axes.push(Some(0));
            }
            for axis in axes {
                for desc in [false, true] {
                    let what = format!("{d} {shape:?} axis {axis:?} descending {desc}");
                    let ax = axis.map_or(Value::None, Value::Int);
                    let kw = [("axis", ax), ("descending", Value::Bool(desc))];
                    same_on_both(&mut s, "sort", std::slice::from_ref(&x), &kw, &what);
                    same_on_both(&mut s, "argsort", std::slice::from_ref(&x), &kw, &what);
                }
            }
            let n = *shape.last().unwrap();
            for kk in [1, n.min(5), n] {
                for largest in [true, false] {
                    let what = format!("{d} {shape:?} k {kk} largest {largest}");
                    let kw = [("largest", Value::Bool(largest))];
                    same_on_both(
                        &mut s,
                        "topk",
                        &[x.clone(), Value::Int(kk as i64)],
                        &kw,
                        &what,
                    );
                }
            }
        }
        // A transposed (non-contiguous) input sorts along its own last axis.
        let t = special(d, &[50, 9], 77, false).transpose(None).unwrap();
        same_on_both(
            &mut s,
            "argsort",
            &[Value::Array(t)],
            &[],
            &format!("{d} transposed"),
        );
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

#[test]
fn partition_and_argpartition_on_the_gpu_are_partitions() {
    if !have_gpu() {
        return;
    }
    let mut s = session();
    for d in DType::ALL {
        for (shape, kth) in [
            (vec![1usize], vec![0i64]),
            (vec![9, 40], vec![0, 17, -1]),
            (vec![3, 5000], vec![2500]),
            (vec![20_000], vec![-3, 100]),
        ] {
            let what = format!("{d} {shape:?} kth {kth:?}");
            let x = special(d, &shape, 3 + shape.len() as u64, false);
            let kv = Value::list(kth.iter().map(|&k| Value::Int(k)).collect());
            let xg = Value::Array(backend::to_device(&x, G).unwrap());
            let p = arrays(call(&mut s, "partition", &[xg.clone(), kv.clone()], &[]).unwrap())
                .remove(0);
            let ip = arrays(call(&mut s, "argpartition", &[xg, kv], &[]).unwrap()).remove(0);
            let sorted =
                arrays(call(&mut s, "sort", &[Value::Array(x.clone())], &[]).unwrap()).remove(0);
            for a in [&p, &ip] {
                assert_eq!(a.device(), G, "{what}");
                assert_eq!(a.shape(), x.shape(), "{what}");
            }
            assert_eq!((p.dtype(), ip.dtype()), (d, DType::Int64), "{what}");
            let n = *shape.last().unwrap();
            let (xv, pv, iv, sv) = (
                x.to_f64_vec().unwrap(),
                p.to_f64_vec().unwrap(),
                ip.to_vec::<i64>().unwrap(),
                sorted.to_f64_vec().unwrap(),
            );
            for r in 0..xv.len() / n {
                let lane = r * n..(r + 1) * n;
                let (pl, il, sl) = (&pv[lane.clone()], &iv[lane.clone()], &sv[lane.clone()]);
                let mut taken: Vec<f64> = il.iter().map(|&i| xv[r * n + i as usize]).collect();
                for &k in &kth {
                    let k = k.rem_euclid(n as i64) as usize;
                    for lv in [pl, &taken[..]] {
                        assert_eq!(
                            np_cmp(lv[k], sl[k]),
                            Ordering::Equal,
                            "{what} row {r}: kth {k}"
                        );
                        assert!(
                            lv[..k]
                                .iter()
                                .all(|&v| np_cmp(v, sl[k]) != Ordering::Greater),
                            "{what} row {r}: before {k}"
                        );
                        assert!(
                            lv[k..].iter().all(|&v| np_cmp(v, sl[k]) != Ordering::Less),
                            "{what} row {r}: after {k}"
                        );
                    }
                }
                taken.sort_by(|a, b| np_cmp(*a, *b));
                let ok = taken
                    .iter()
                    .zip(sl)
                    .all(|(a, b)| np_cmp(*a, *b) == Ordering::Equal);
                assert!(ok, "{what} row {r}: argpartition is not a permutation");
            }
        }
    }
}

#[test]
fn searchsorted_isin_unique_and_nonzero_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut s = session();
    for d in DType::ALL {
        for (k, shape) in shapes(big(d)).into_iter().enumerate() {
            let seed = 40 + k as u64;
            let x = Value::Array(special(d, &shape, seed, k % 2 == 1));
            let w = format!("{d} {shape:?}");
            for equal_nan in [true, false] {
                let flags = [
                    ("return_index", Value::Bool(true)),
                    ("return_inverse", Value::Bool(true)),
                    ("return_counts", Value::Bool(true)),
                    ("equal_nan", Value::Bool(equal_nan)),
                ];
                same_on_both(
                    &mut s,
                    "unique",
                    std::slice::from_ref(&x),
                    &flags,
                    &format!("{w} equal_nan {equal_nan}"),
                );
                same_on_both(&mut s, "unique", std::slice::from_ref(&x), &flags[3..], &w);
                same_on_both(&mut s, "unique", std::slice::from_ref(&x), &flags[1..2], &w);
            }
            for f in ["nonzero", "argwhere", "flatnonzero", "where"] {
                same_on_both(&mut s, f, std::slice::from_ref(&x), &[], &w);
            }
            // Sorted `a` of another draw, and `a` through a sorter.
            let a = special(
                d,
                &[shape.iter().product::<usize>().min(3000)],
                seed + 100,
                false,
            );
            let sa =
                arrays(call(&mut s, "sort", &[Value::Array(a.clone())], &[]).unwrap()).remove(0);
            let order =
                arrays(call(&mut s, "argsort", &[Value::Array(a.clone())], &[]).unwrap()).remove(0);
            for side in ["left", "right"] {
                let ws = format!("{w} side {side}");
                let side = Value::str(side);
                same_on_both(
                    &mut s,
                    "searchsorted",
                    &[Value::Array(sa.clone()), x.clone(), side.clone()],
                    &[],
                    &ws,
                );
                let sorter = [("sorter", Value::Array(order.clone()))];
                same_on_both(
                    &mut s,
                    "searchsorted",
                    &[Value::Array(a.clone()), x.clone(), side],
                    &sorter,
                    &ws,
                );
            }
            for invert in [false, true] {
                let ws = format!("{w} invert {invert}");
                same_on_both(
                    &mut s,
                    "isin",
                    &[x.clone(), Value::Array(a.clone()), Value::Bool(invert)],
                    &[],
                    &ws,
                );
            }
        }
        // Nothing nonzero: an empty result from a non-empty input.
        let zeros = HostData::from_f64s(d, std::iter::repeat_n(0.0, 20));
        let none = Value::Array(Array::from_host(zeros, vec![4, 5]));
        for f in ["nonzero", "argwhere", "flatnonzero"] {
            same_on_both(
                &mut s,
                f,
                std::slice::from_ref(&none),
                &[],
                &format!("{d} all zero"),
            );
        }
        // unique along an axis composes device ops (a stable argsort per column).
        let m = Value::Array(special(d, &[60, 3], 5, false));
        let flags = [
            ("return_index", Value::Bool(true)),
            ("return_inverse", Value::Bool(true)),
            ("return_counts", Value::Bool(true)),
        ];
        for axis in [0, 1, -1] {
            let kw = [&flags[..], &[("axis", Value::Int(axis))]].concat();
            same_on_both(
                &mut s,
                "unique",
                std::slice::from_ref(&m),
                &kw,
                &format!("{d} axis {axis}"),
            );
        }
    }
}

/// Run code; its shown value.
fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "<test>");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

#[test]
fn sort_and_topk_gradients_on_the_gpu() {
    if !have_gpu() {
        return;
    }
    let mut s = session();
    run(
        &mut s,
        "fn f(x) { sum(sin(sort(x * 1.3, axis=0) * w)) + sum(sin(sort(x, descending=true) * 0.7)) \
         + sum(sin(sort(x, axis=none)[::2])) + sum(sin(topk(x, 2, axis=0)[0] * 1.5)) \
         + sum(sin(topk(x, 2, largest=false)[0])) }",
    );
    for dt in ["float64", "float32"] {
        run(
            &mut s,
            &format!(
                "seed(7); xc = randn((5, 4), dtype={dt}); wc = randn((5, 1), dtype={dt}); \
                 w = wc; gc = grad(f)(xc); w = wc.to(gpu()); xg = xc.to(gpu()); gg = grad(f)(xg)"
            ),
        );
        assert_eq!(
            run(&mut s, "(gg.device, gg.dtype == gc.dtype)"),
            "(gpu(0), true)",
            "{dt}"
        );
        assert_eq!(
            run(
                &mut s,
                "max(abs(gg.to(cpu()) - gc.to(cpu()))).item() < 1e-5"
            ),
            "true",
            "{dt}"
        );
    }
    // Central differences of f on the GPU in float64, element by element.
    run(
        &mut s,
        "xg = xc.astype(float64).to(gpu()); w = wc.astype(float64).to(gpu()); gg = grad(f)(xg); \
         h = 1e-6; err = 0.0; \
         for i in range(20) { \
           e = (arange(20) == i).astype(float64).reshape((5, 4)).to(gpu()); \
           fd = (f(xg + h * e) - f(xg - h * e)) / (2.0 * h); \
           d = abs(fd - gg.reshape(20)[i]).item(); \
           if d > err { err = d } }",
    );
    assert_eq!(run(&mut s, "err < 1e-6"), "true", "{}", run(&mut s, "err"));
}

#[test]
fn gpu_sorting_matches_numpy() {
    if !have_gpu() {
        return;
    }
    let s = Settings::from_env(0, 100);
    let rerun = "bin/gpu gpu_sorting_matches_numpy --nocapture";
    for r in assert_fn_suite(
        "gpu_sorting_matches_numpy",
        rerun,
        &s,
        SORTING,
        DeviceFlag::Gpu(0),
    ) {
        r.assert_clean();
    }
}
