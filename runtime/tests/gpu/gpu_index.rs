//! Indexing of GPU arrays on the device, against the CPU on the same random
//! data: gathers (`x[idx]`, `x[:, idx]`, broadcast and non-adjacent index
//! arrays, masks, empty indices) over every dtype and a transposed view,
//! assignment through slices, ints, index arrays (repeated: the last value
//! wins) and masks, with casting, broadcasting and overlap, and the gradient
//! of indexing (repeated indices add up) and of astype; every result stays
//! on gpu(0).
//! Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::array::index::Index;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Array, DType, Session, backend};

use crate::gpu_util::{G, assert_same, have_gpu, host, pair};

fn ints(v: &[i64], shape: &[usize]) -> Index {
    Index::Array(Array::from_vec(v.to_vec(), shape.to_vec()))
}

fn slice(start: Option<i64>, stop: Option<i64>, step: Option<i64>) -> Index {
    Index::Slice { start, stop, step }
}

/// Indices of an array of shape (6, 5, 4), named as written in gcalc.
fn gathers() -> Vec<(&'static str, Vec<Index>)> {
    let rows: Vec<bool> = vec![true, false, true, true, false, true];
    let mask = host(DType::Bool, &[6, 5, 4], 99);
    vec![
        ("x[[2, -1, 0, 2]]", vec![ints(&[2, -1, 0, 2], &[4])]),
        ("x[idx, :]", vec![ints(&[5, 1], &[2]), Index::full()]),
        ("x[:, idx]", vec![Index::full(), ints(&[4, 0, 0, -2], &[4])]),
        ("x[..., idx]", vec![Index::Ellipsis, ints(&[3, 1], &[2])]),
        ("x[idx2d]", vec![ints(&[0, 5, 1, 1], &[2, 2])]),
        (
            "x[i, j] broadcast",
            vec![ints(&[0, 5], &[2, 1]), ints(&[1, 3, 4], &[3])],
        ),
        (
            "x[i, :, j]",
            vec![
                ints(&[0, 5, 2], &[3]),
                Index::full(),
                ints(&[3, 0, 1], &[3]),
            ],
        ),
        ("x[2, idx]", vec![Index::Int(2), ints(&[1, 1, 4], &[3])]),
        (
            "x[1:5:2, idx]",
            vec![slice(Some(1), Some(5), Some(2)), ints(&[0, 4], &[2])],
        ),
        ("x[newaxis, idx]", vec![Index::NewAxis, ints(&[1], &[1])]),
        ("x[mask]", vec![Index::Array(mask)]),
        (
            "x[rows]",
            vec![Index::Array(Array::from_vec(rows, vec![6]))],
        ),
        ("x[[]]", vec![ints(&[], &[0])]),
    ]
}

/// Views and writes that need no index array.
fn slices() -> Vec<(&'static str, Vec<Index>)> {
    vec![
        ("x[1:3]", vec![slice(Some(1), Some(3), None)]),
        (
            "x[::-2, 1]",
            vec![slice(None, None, Some(-2)), Index::Int(1)],
        ),
        (
            "x[..., 1:]",
            vec![Index::Ellipsis, slice(Some(1), None, None)],
        ),
        ("x[4]", vec![Index::Int(4)]),
        ("x[...]", vec![]),
    ]
}

/// The same indices with their index arrays on gpu(0).
fn on_gpu(idx: &[Index]) -> Vec<Index> {
    idx.iter()
        .map(|i| match i {
            Index::Array(a) => Index::Array(backend::to_device(a, G).unwrap()),
            i => i.clone(),
        })
        .collect()
}

#[test]
fn gathers_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    for d in DType::ALL {
        let (h, g) = pair(d, &[6, 5, 4], 1);
        let hv = h.view(vec![6, 5, 4], vec![1, 6, 30], 0);
        let gv = g.view(vec![6, 5, 4], vec![1, 6, 30], 0);
        for (what, idx) in gathers() {
            let want = h.index(&idx).unwrap();
            for gi in [idx.clone(), on_gpu(&idx)] {
                assert_same(&g.index(&gi).unwrap(), &want, 0.0, &format!("{what} {d}"));
            }
            let want = hv.index(&idx).unwrap();
            let got = gv.index(&on_gpu(&idx)).unwrap();
            assert_same(&got, &want, 0.0, &format!("{what} {d} of a strided view"));
        }
        for idx in [
            vec![ints(&[6], &[1])],
            vec![Index::full(), ints(&[0, -6], &[2])],
        ] {
            // The GPU finds a bad index in its kernel: the error comes at
            // the next sync point (here, the download).
            let (a, b) = (
                h.index(&idx).unwrap_err(),
                g.index(&on_gpu(&idx))
                    .and_then(|r| r.to_host())
                    .unwrap_err(),
            );
            assert_eq!(a.message, b.message, "{d}: out of bounds");
        }
    }
}

/// `x[idx] = v` on a copy of `h` and of `g`; the whole arrays must agree.
fn assign_both(h: &Array, g: &Array, idx: &[Index], vh: &Array, vg: &Array, what: &str) {
    let (hc, gc) = (h.copy().unwrap(), g.copy().unwrap());
    // A GPU index error comes at the next sync (the download).
    let on_g = gc
        .assign(&on_gpu(idx), vg)
        .and_then(|_| gc.to_host().map(|_| ()));
    match (hc.assign(idx, vh), on_g) {
        (Ok(()), Ok(())) => assert_same(&gc, &hc, 0.0, what),
        (Err(a), Err(b)) => assert_eq!(a.message, b.message, "{what}"),
        (a, b) => panic!("{what}: CPU {:?} vs GPU {:?}", a.err(), b.err()),
    }
}

#[test]
fn assignments_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    for d in DType::ALL {
        let (h, g) = pair(d, &[6, 5, 4], 2);
        for (what, idx) in gathers().into_iter().chain(slices()) {
            let shape = h.index(&idx).unwrap().shape().to_vec();
            // Values of the selection's shape (distinct where indices repeat),
            // one broadcast row, and a host scalar.
            let (vh, vg) = pair(d, &shape, 3);
            assign_both(&h, &g, &idx, &vh, &vg, &format!("{what} = v {d}"));
            if let Some(&last) = shape.last() {
                let (rh, rg) = pair(d, &[last], 4);
                assign_both(&h, &g, &idx, &rh, &rg, &format!("{what} = row {d}"));
            }
            let s = host(d, &[], 5);
            assign_both(&h, &g, &idx, &s, &s, &format!("{what} = host scalar {d}"));
            // int64 values into every dtype (cast as NumPy's setitem: unsafe).
            let (ih, ig) = pair(DType::Int64, &shape, 6);
            assign_both(&h, &g, &idx, &ih, &ig, &format!("{what} = int64 {d}"));
        }
        // Writes through a transposed view land in the base buffer.
        let (hc, gc) = (h.copy().unwrap(), g.copy().unwrap());
        let ht = hc.view(vec![4, 5, 6], vec![1, 4, 20], 0);
        let gt = gc.view(vec![4, 5, 6], vec![1, 4, 20], 0);
        let (vh, vg) = pair(d, &[4, 2, 6], 7);
        let idx = vec![Index::full(), ints(&[3, 0], &[2])];
        ht.assign(&idx, &vh).unwrap();
        gt.assign(&on_gpu(&idx), &vg).unwrap();
        let idx = vec![slice(None, None, Some(3)), Index::Int(2)];
        ht.assign(&idx, &vh.index(&[Index::Int(0), Index::Int(0)]).unwrap())
            .unwrap();
        gt.assign(&idx, &vg.index(&[Index::Int(0), Index::Int(0)]).unwrap())
            .unwrap();
        assert_same(&gc, &hc, 0.0, &format!("through a transposed view {d}"));
        // Overlap: x[1:] = x[:-1] reads the old values.
        let (hc, gc) = (h.copy().unwrap(), g.copy().unwrap());
        let (to, from) = (slice(Some(1), None, None), slice(None, Some(-1), None));
        hc.assign(
            std::slice::from_ref(&to),
            &hc.index(std::slice::from_ref(&from)).unwrap(),
        )
        .unwrap();
        gc.assign(
            std::slice::from_ref(&to),
            &gc.index(std::slice::from_ref(&from)).unwrap(),
        )
        .unwrap();
        assert_same(&gc, &hc, 0.0, &format!("overlapping x[1:] = x[:-1] {d}"));
    }
}

fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "test.gcalc");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

#[test]
fn gradients_of_indexing_and_astype_stay_on_the_gpu() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    run(&mut s, "set device = cpu");
    run(
        &mut s,
        "fn f(x, i) { sum(sin(x[i] * 2.0)) + sum(x[1:4, ::2] * x[1:4, ::2]) + sum(x[x > 0.5]) + sum(x[:, i[:2]] * 3.0) }",
    );
    for dt in ["float64", "float32"] {
        run(
            &mut s,
            &format!(
                "seed(5); xc = randn((6, 5), dtype={dt}); xg = xc.to(gpu()); \
                 i = array([0, 3, 3, 5, -1, 3]); ig = i.to(gpu()); \
                 gc = grad(f)(xc, i); gg = grad(f)(xg, ig)"
            ),
        );
        assert_eq!(run(&mut s, "gg.device"), "gpu(0)", "{dt}");
        assert_eq!(run(&mut s, "gg.dtype == gc.dtype"), "true", "{dt}");
        // The same additions in the same order in float64: equal up to the
        // elementwise math of sin/cos on the two devices.
        assert_eq!(
            run(&mut s, "max(abs(gg.to(cpu()) - gc)).item() < 1e-5"),
            "true",
            "{dt}"
        );
    }
    // Index arrays on the host work with a GPU x too.
    assert_eq!(run(&mut s, "grad(f)(xg, i).device"), "gpu(0)");
    // astype's gradient is cast back on the device.
    run(
        &mut s,
        "fn h(x) { sum(sin(x[::2].astype(float64)) * x[1::2].astype(float16)) }",
    );
    run(
        &mut s,
        "x32 = randn((8, 3), dtype=float32); gh = grad(h)(x32.to(gpu()))",
    );
    assert_eq!(run(&mut s, "(gh.device, gh.dtype)"), "(gpu(0), float32)");
    assert_eq!(
        run(
            &mut s,
            "max(abs(gh.to(cpu()) - grad(h)(x32))).item() < 1e-2"
        ),
        "true"
    );
}

#[test]
fn gradients_flow_through_copies_between_devices() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    run(&mut s, "set device = cpu");
    // The loss is computed partly on the GPU, partly on the host: each
    // argument's gradient comes back on the argument's own device.
    run(
        &mut s,
        "fn f(x, y) { sum(exp(x.to(gpu())) * y).to(cpu()) + sum(x * x) }",
    );
    run(
        &mut s,
        "seed(3); x = randn(7, dtype=float64); y = randn(7, dtype=float64).to(gpu()); \
         gx, gy = grad(f, (0, 1))(x, y)",
    );
    assert_eq!(run(&mut s, "(gx.device, gy.device)"), "(cpu(0), gpu(0))");
    assert_eq!(
        run(
            &mut s,
            "max(abs(gx - (exp(x) * y.to(cpu()) + 2 * x))).item() < 1e-12 and \
             max(abs(gy.to(cpu()) - exp(x))).item() < 1e-12"
        ),
        "true"
    );
}

#[test]
fn concat_and_stack_run_on_the_device() {
    if !have_gpu() {
        return;
    }
    // Parts of different dtypes (the result promotes), lengths (one empty) and
    // layouts (a transposed view), joined along every axis.
    for ax in 0..3usize {
        let mut shapes = [[3usize, 4, 5], [3, 4, 5], [3, 4, 5]];
        shapes[1][ax] = 2;
        shapes[2][ax] = 0;
        let (h0, g0) = pair(DType::Float32, &shapes[0], 1);
        let (h1, g1) = pair(DType::Int64, &shapes[1], 2);
        let (h2, g2) = pair(DType::Float64, &shapes[2], 3);
        let want = Array::concat(&[h0.clone(), h1.clone(), h2], ax as i64).unwrap();
        let got = Array::concat(&[g0.clone(), g1.clone(), g2], ax as i64).unwrap();
        assert_same(&got, &want, 0.0, &format!("concat axis {ax}"));
        let (ht, gt) = (h0.transpose(None).unwrap(), g0.transpose(None).unwrap());
        let want = Array::concat(&[ht.clone(), ht], 0).unwrap();
        let got = Array::concat(&[gt.clone(), gt], 0).unwrap();
        assert_same(&got, &want, 0.0, "concat of transposed views");
        let want = Array::stack(&[h0.clone(), h0.clone()], ax as i64).unwrap();
        let got = Array::stack(&[g0.clone(), g0.clone()], ax as i64).unwrap();
        assert_same(&got, &want, 0.0, &format!("stack axis {ax}"));
    }
    let (h, g) = pair(DType::Bool, &[7], 4);
    let want = Array::concat(&[h.clone(), h], 0).unwrap();
    assert_same(
        &Array::concat(&[g.clone(), g], 0).unwrap(),
        &want,
        0.0,
        "bools",
    );
}
