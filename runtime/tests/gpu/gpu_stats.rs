//! The scans, statistics and histograms on a GPU against the CPU on the
//! same random data (never zeros): every dtype, axes (negative too),
//! non-contiguous views, empty and size-1 arrays, NaN; results must stay on
//! gpu(0). `nvrtc_sources` gives this family's kernel sources to the NVRTC
//! test. Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_kernels::cuda::histogram::histogram_source;
use gcalc_kernels::cuda::scan::{ScanKind, scan_source};
use gcalc_kernels::cuda::select::select_source;
use gcalc_kernels::cuda::softmax::softmax_source;
use gcalc_runtime::DType;

/// Every kernel source of the scan and statistics families, for gpu_nvrtc.
pub fn nvrtc_sources(out: &mut Vec<(String, String)>) {
    for kind in ScanKind::ALL {
        for d in DType::ALL {
            if kind == ScanKind::SegSumRev && !d.is_float() {
                continue;
            }
            let o = match kind {
                ScanKind::Sum | ScanKind::Prod if !d.is_float() => DType::Int64,
                _ => d,
            };
            out.push((format!("scan {kind:?} {d} -> {o}"), scan_source(kind, d, o)));
        }
    }
    for d in DType::ALL {
        out.push((format!("select {d}"), select_source(d)));
        out.push((format!("histogram {d}"), histogram_source(d)));
        if d.is_float() {
            for mode in 0..3 {
                out.push((format!("softmax {d} mode {mode}"), softmax_source(d, mode)));
            }
        }
    }
}

use crate::gpu_util::{G, assert_same, have_gpu, pair};
use gcalc_runtime::opid::ScanOp;
use gcalc_runtime::{Array, backend};

fn tol(d: DType) -> f64 {
    match d {
        DType::Float16 => 2e-3,
        DType::Float32 => 2e-6,
        DType::Float64 => 1e-12,
        _ => 0.0,
    }
}

/// Shapes whose lanes cover the warp kernel, one tile, several tiles, and
/// middle axes with few and many lanes.
const SCAN_SHAPES: &[&[usize]] = &[
    &[0],
    &[1],
    &[37],
    &[2048],
    &[2049],
    &[3, 9000],
    &[40000],
    &[5, 0, 3],
    &[4, 300, 3],
    &[2, 3, 20000],
    &[3, 6000, 4],
];

#[test]
fn scans_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    for (si, shape) in SCAN_SHAPES.iter().enumerate() {
        for d in DType::ALL {
            let (h, g) = pair(d, shape, 100 + si as u64);
            for &op in ScanOp::ALL {
                // Products of many values overflow: keep them to short lanes.
                if op == ScanOp::Cumprod && shape.iter().product::<usize>() > 4000 {
                    continue;
                }
                for axis in 0..shape.len() {
                    for rev in [false, true] {
                        let what = format!("{op:?} {d} {shape:?} axis {axis} rev {rev}");
                        let want = backend::scan::scan(op, &h, axis, rev).unwrap();
                        let got = backend::scan::scan(op, &g, axis, rev).unwrap();
                        // Sums of floats differ by the order of long chunks.
                        let t = match (op, d) {
                            (ScanOp::Cumsum | ScanOp::Cumprod, DType::Float64) => 1e-9,
                            (ScanOp::Cumsum, _) => tol(d) * 50.0,
                            _ => tol(d),
                        };
                        assert_same(&got, &want, t, &what);
                    }
                }
            }
        }
    }
}

#[test]
fn scans_of_views_and_nan() {
    if !have_gpu() {
        return;
    }
    let (h, g) = pair(DType::Float32, &[40, 30], 7);
    let (hv, gv) = (
        h.view(vec![30, 20], vec![1, 60], 3),
        g.view(vec![30, 20], vec![1, 60], 3),
    );
    for &op in ScanOp::ALL {
        for axis in 0..2 {
            let want = backend::scan::scan(op, &hv, axis, false).unwrap();
            let got = backend::scan::scan(op, &gv, axis, false).unwrap();
            assert_same(&got, &want, 1e-5, &format!("{op:?} of a view, axis {axis}"));
        }
    }
    let v: Vec<f32> = (0..5000)
        .map(|i| {
            if i == 2500 || i == 4000 {
                f32::NAN
            } else {
                (i % 17) as f32 - 8.0
            }
        })
        .collect();
    let h = Array::from_vec(v, vec![5000]);
    let g = backend::to_device(&h, G).unwrap();
    for &op in ScanOp::ALL {
        let want = backend::scan::scan(op, &h, 0, false).unwrap();
        let got = backend::scan::scan(op, &g, 0, false).unwrap();
        assert_same(&got, &want, 1e-5, &format!("{op:?} with NaN"));
    }
}

#[test]
fn cummax_gradient_matches_the_cpu() {
    if !have_gpu() {
        return;
    }
    for (si, shape) in [
        &[7usize][..],
        &[3, 2500],
        &[9000],
        &[4, 50, 3],
        &[2, 5000, 3],
    ]
    .iter()
    .enumerate()
    {
        for d in [DType::Float32, DType::Float64] {
            let (hx, gx) = pair(d, shape, 300 + si as u64);
            let (hg, gg) = pair(d, shape, 400 + si as u64);
            for axis in 0..shape.len() {
                for op in [ScanOp::Cummax, ScanOp::Cummin] {
                    let hy = backend::scan::scan(op, &hx, axis, false).unwrap();
                    let gy = backend::scan::scan(op, &gx, axis, false).unwrap();
                    let want = backend::scan::extreme_backward(&hx, &hy, &hg, axis).unwrap();
                    let got = backend::scan::extreme_backward(&gx, &gy, &gg, axis).unwrap();
                    assert_same(
                        &got,
                        &want,
                        tol(d) * 50.0,
                        &format!("{op:?} gradient {d} {shape:?} axis {axis}"),
                    );
                }
            }
        }
    }
}

/// Lanes for the selection: a block per lane (many lanes) and several
/// blocks per lane (few long ones), a middle axis, ties and NaN.
const SELECT_SHAPES: &[(&[usize], usize)] = &[
    (&[1], 0),
    (&[2], 0),
    (&[37], 0),
    (&[100_000], 0),
    (&[3, 70_000], 1),
    (&[300, 41], 1),
    (&[300, 41], 0),
    (&[5, 40, 3], 1),
];

#[test]
fn select_matches_the_cpu() {
    if !have_gpu() {
        return;
    }
    for (si, &(shape, axis)) in SELECT_SHAPES.iter().enumerate() {
        for d in DType::ALL {
            let (h, g) = pair(d, shape, 500 + si as u64);
            let n = shape[axis];
            let ranks: Vec<usize> = [0, n / 3, n / 2, n.saturating_sub(1), (n - 1) / 2, n / 7]
                .into_iter()
                .collect();
            let want = backend::select::select(&h, axis, &ranks).unwrap();
            let got = backend::select::select(&g, axis, &ranks).unwrap();
            assert_same(
                &got,
                &want,
                0.0,
                &format!("select {d} {shape:?} axis {axis}"),
            );
        }
    }
    // NaN sorts last, -0.0 and 0.0 tie, infinities in place.
    let mut v: Vec<f64> = crate::gpu_util::data(50_000, 9, -5.0, 5.0);
    for k in (0..v.len()).step_by(997) {
        v[k] = f64::NAN;
    }
    v[3] = f64::INFINITY;
    v[4] = f64::NEG_INFINITY;
    v[5] = -0.0;
    v[6] = 0.0;
    for d in [DType::Float32, DType::Float64, DType::Float16] {
        let h = Array::from_vec(v.clone(), vec![50_000]).astype(d).unwrap();
        let g = backend::to_device(&h, G).unwrap();
        let ranks = [0, 1, 24_000, 49_900, 49_999];
        let want = backend::select::select(&h, 0, &ranks).unwrap();
        let got = backend::select::select(&g, 0, &ranks).unwrap();
        assert_same(&got, &want, 0.0, &format!("select with NaN {d}"));
    }
}

#[test]
fn histograms_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    use gcalc_runtime::opid::BinMode;
    for (si, n) in [0usize, 1, 1000, 300_000].into_iter().enumerate() {
        for d in [DType::Float32, DType::Float64, DType::Int32, DType::Int64] {
            let (h, g) = pair(d, &[n], 700 + si as u64);
            let edges: Vec<f64> = (0..=20).map(|k| -3.0 + 0.3 * k as f64).collect();
            let he = Array::from_vec(edges.clone(), vec![21]);
            let ge = backend::to_device(&he, G).unwrap();
            for mode in [BinMode::Uniform, BinMode::Edges] {
                let want = backend::histogram::histogram(&h, None, Some(&he), 20, mode).unwrap();
                let got = backend::histogram::histogram(&g, None, Some(&ge), 20, mode).unwrap();
                assert_same(&got, &want, 0.0, &format!("histogram {mode:?} {d} {n}"));
                let (hw, gw) = pair(DType::Float64, &[n], 800 + si as u64);
                let want =
                    backend::histogram::histogram(&h, Some(&hw), Some(&he), 20, mode).unwrap();
                let got =
                    backend::histogram::histogram(&g, Some(&gw), Some(&ge), 20, mode).unwrap();
                assert_same(
                    &got,
                    &want,
                    1e-9,
                    &format!("weighted histogram {mode:?} {d} {n}"),
                );
            }
            for (left, dec) in [(false, false), (true, false), (false, true), (true, true)] {
                let want = backend::histogram::digitize(&h, &he, left, dec).unwrap();
                let got = backend::histogram::digitize(&g, &ge, left, dec).unwrap();
                assert_same(&got, &want, 0.0, &format!("digitize {d} {n} {left} {dec}"));
            }
            if !d.is_float() {
                let hi = Array::from_vec(
                    h.to_f64_vec()
                        .unwrap()
                        .iter()
                        .map(|v| (v.abs() as i64) % 9)
                        .collect::<Vec<i64>>(),
                    vec![n],
                );
                let gi = backend::to_device(&hi, G).unwrap();
                let want =
                    backend::histogram::histogram(&hi, None, None, 12, BinMode::Index).unwrap();
                let got =
                    backend::histogram::histogram(&gi, None, None, 12, BinMode::Index).unwrap();
                assert_same(&got, &want, 0.0, &format!("bincount {n}"));
                // Bins beyond shared memory (> 12,288 counters, > 6,144
                // sums): the global-atomics path.
                let hi = Array::from_vec(
                    h.to_f64_vec()
                        .unwrap()
                        .iter()
                        .map(|v| ((v.abs() * 7919.0) as i64) % 20_011)
                        .collect::<Vec<i64>>(),
                    vec![n],
                );
                let gi = backend::to_device(&hi, G).unwrap();
                let want =
                    backend::histogram::histogram(&hi, None, None, 20_011, BinMode::Index).unwrap();
                let got =
                    backend::histogram::histogram(&gi, None, None, 20_011, BinMode::Index).unwrap();
                assert_same(&got, &want, 0.0, &format!("bincount of 20011 bins {n}"));
                let (hw, gw) = pair(DType::Float64, &[n], 900 + si as u64);
                let hi = Array::from_vec(
                    hi.to_f64_vec()
                        .unwrap()
                        .iter()
                        .map(|&v| v as i64 % 8_000)
                        .collect::<Vec<i64>>(),
                    vec![n],
                );
                let gi = backend::to_device(&hi, G).unwrap();
                let want =
                    backend::histogram::histogram(&hi, Some(&hw), None, 8_000, BinMode::Index)
                        .unwrap();
                let got =
                    backend::histogram::histogram(&gi, Some(&gw), None, 8_000, BinMode::Index)
                        .unwrap();
                assert_same(&got, &want, 1e-9, &format!("weighted bincount 8000 {n}"));
            }
        }
    }
}

/// The statistics functions through the session on gpu(0) against cpu(0),
/// and their gradients.
#[test]
fn statistics_and_gradients_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    use gcalc_runtime::{Session, Value};
    let mut s = Session::new(
        Default::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    let setup = "x = normal(0.0, 1.0, (64, 301), dtype=float64, device=cpu())\n\
        w = uniform(0.5, 2.0, (301,), dtype=float64, device=cpu())\n\
        gx = x.to(gpu(0))\ngw = w.to(gpu(0))\n\
        fn fm(v) { sum(median(v, axis=1) * 1.5) }\n\
        fn fp(v) { sum(percentile(v, [10, 60], axis=0)) }\n\
        fn fa(v, u) { sum(average(v, axis=1, weights=u)) }\n\
        fn fc(v) { sum(corrcoef(v[:6]) ** 2) }\n\
        fn fl(v) { sum(log_softmax(v, axis=1)[:, 0]) }\n";
    crate::gpu_session::ok(&mut s, setup);
    let exprs = [
        "median({x}, axis=1)",
        "median({x})",
        "percentile({x}, [5, 50, 99.5], axis=0)",
        "quantile({x}, 0.3, axis=-1, keepdims=true)",
        "quantile({x}, 0.7, axis=1, method=\"nearest\")",
        "average({x}, axis=1, weights={w})",
        "cov({x}[:8])",
        "corrcoef({x}[:8])",
        "histogram({x}, bins=17)[0]",
        "histogram({x}, bins=linspace(-2.0, 2.0, 9))[0]",
        "histogram({x}, bins=5, weights=abs({x}), density=true)[0]",
        "digitize({x}, linspace(-2.0, 2.0, 9))",
        "bincount(abs({x} * 3).astype(int64).ravel())",
        "softmax({x}, axis=1)",
        "log_softmax({x}, axis=0)",
        "logsumexp({x}, axis=1)",
        "nanmean({x}, axis=0)",
        "nanstd({x}, axis=1)",
        "cumsum({x}, axis=1)",
        "grad(fm)({x})",
        "grad(fp)({x})",
        "grad(fa)({x}, {w})",
        "grad(fc)({x})",
        "grad(fl)({x})",
    ];
    for e in exprs {
        let cpu = e.replace("{x}", "x").replace("{w}", "w");
        let gpu = e.replace("{x}", "gx").replace("{w}", "gw");
        crate::gpu_session::ok(&mut s, &format!("rc = {cpu}\nrg = {gpu}\n"));
        let (Some(Value::Array(rc)), Some(Value::Array(rg))) = (s.get("rc"), s.get("rg")) else {
            panic!("{e}: no arrays");
        };
        assert_same(&rg, &rc, 1e-9, e);
    }
}
