//! The scans, statistics and histograms on a GPU against the CPU on the
//! same random data (never zeros): every dtype, axes (negative too),
//! non-contiguous views, empty and size-1 arrays, NaN; results must stay on
//! gpu(0). `nvrtc_sources` gives this family's kernel sources to the NVRTC
//! test. Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

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
