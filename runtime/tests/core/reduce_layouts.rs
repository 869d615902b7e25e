//! CPU reductions over every axis set and layout (C-contiguous, transposed,
//! sliced, 3-d with axes (0, 2)) against a float64 reference on random data,
//! for f32/f64/int64/bool and every reduce op, crossing the row path's
//! column blocks and row chunks (runtime/src/cpu/reduce_rows.rs); and
//! results bit-identical in rayon pools of 1 and 2 threads.

use gcalc_runtime::opid::ReduceOp;

use crate::linalg_gemv::rand;
use gcalc_runtime::ops::reduce::reduce_ddof;
use gcalc_runtime::{Array, DType};

const OPS: [ReduceOp; 11] = [
    ReduceOp::Sum,
    ReduceOp::Mean,
    ReduceOp::Prod,
    ReduceOp::Max,
    ReduceOp::Min,
    ReduceOp::Argmax,
    ReduceOp::Argmin,
    ReduceOp::Any,
    ReduceOp::All,
    ReduceOp::Var,
    ReduceOp::Std,
];

/// A buffer of `n` random values of `dtype` (ints in -4..=4 with zeros, bools mixed).
fn buffer(dtype: DType, n: usize, seed: u64) -> Array {
    let r = rand(n, seed);
    match dtype {
        DType::Float32 => Array::from_vec(r.iter().map(|&v| v as f32).collect(), vec![n]),
        DType::Float64 => Array::from_vec(r, vec![n]),
        DType::Int64 => Array::from_vec(
            r.iter().map(|&v| (v * 4.5).round() as i64).collect(),
            vec![n],
        ),
        _ => Array::from_vec(r.iter().map(|&v| v > -0.6).collect(), vec![n]),
    }
}

/// The cases: (logical shape, view strides, offset, buffer length, axes).
fn cases() -> Vec<(Vec<usize>, Vec<isize>, usize, usize, Option<Vec<isize>>)> {
    let mut v = vec![];
    for &(r, c) in &[(37usize, 45usize), (300, 2100), (5000, 3), (1, 7), (6, 1)] {
        let n = r * c;
        for axes in [Some(vec![0]), Some(vec![1]), Some(vec![-1]), None] {
            v.push((vec![r, c], vec![c as isize, 1], 0, n, axes.clone()));
            v.push((vec![r, c], vec![1, r as isize], 0, n, axes.clone()));
            v.push((
                vec![r, c],
                vec![4 * c as isize, 2],
                3,
                4 * n + 3,
                axes.clone(),
            ));
        }
    }
    for axes in [vec![0, 2], vec![0, 1], vec![1], vec![2]] {
        let (a, b, c) = (9usize, 7usize, 33usize);
        v.push((
            vec![a, b, c],
            vec![(b * c) as isize, c as isize, 1],
            0,
            a * b * c,
            Some(axes.clone()),
        ));
        v.push((
            vec![a, b, c],
            vec![1, a as isize, (a * b) as isize],
            0,
            a * b * c,
            Some(axes.clone()),
        ));
    }
    v
}

/// The float64 reference of `op` over the logical C-order values `x` of `shape`.
fn reference(op: ReduceOp, x: &[f64], shape: &[usize], red: &[bool], int: bool) -> Vec<f64> {
    let kept: Vec<usize> = (0..shape.len()).filter(|&d| !red[d]).collect();
    let n_out: usize = kept.iter().map(|&d| shape[d]).product();
    let mut lanes = vec![vec![]; n_out];
    for (i, &val) in x.iter().enumerate() {
        let (mut rem, mut idx) = (i, vec![0; shape.len()]);
        for d in (0..shape.len()).rev() {
            idx[d] = rem % shape[d];
            rem /= shape[d];
        }
        let o = kept.iter().fold(0, |o, &d| o * shape[d] + idx[d]);
        lanes[o].push(val);
    }
    lanes
        .iter()
        .map(|l| {
            let m = l.len() as f64;
            let mean = l.iter().sum::<f64>() / m;
            let arg = |max: bool| {
                // NumPy: the first NaN wins.
                if let Some(i) = l.iter().position(|v| v.is_nan()) {
                    return i as f64;
                }
                let mut bi = 0;
                for (i, &v) in l.iter().enumerate() {
                    if (max && v > l[bi]) || (!max && v < l[bi]) {
                        bi = i;
                    }
                }
                bi as f64
            };
            match op {
                ReduceOp::Sum => l.iter().sum(),
                ReduceOp::Mean => mean,
                ReduceOp::Prod if int => {
                    l.iter().fold(1i64, |a, &v| a.wrapping_mul(v as i64)) as f64
                }
                ReduceOp::Prod => l.iter().product(),
                _ if l.iter().any(|v| v.is_nan())
                    && matches!(op, ReduceOp::Max | ReduceOp::Min) =>
                {
                    f64::NAN
                }
                ReduceOp::Max => l.iter().cloned().fold(f64::MIN, f64::max),
                ReduceOp::Min => l.iter().cloned().fold(f64::MAX, f64::min),
                ReduceOp::Argmax => arg(true),
                ReduceOp::Argmin => arg(false),
                ReduceOp::Any => l.iter().any(|&v| v != 0.0) as u8 as f64,
                ReduceOp::All => l.iter().all(|&v| v != 0.0) as u8 as f64,
                ReduceOp::Var => l.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / m,
                ReduceOp::Std => (l.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / m).sqrt(),
                other => unreachable!("{other:?} is not among OPS"),
            }
        })
        .collect()
}

fn run(op: ReduceOp, a: &Array, axes: &Option<Vec<isize>>) -> Array {
    reduce_ddof(op, a, axes.as_deref(), false, 0, DType::Float64).unwrap()
}

#[test]
fn reductions_agree_with_float64_over_layouts_and_dtypes() {
    let mut seed = 1;
    for (shape, strides, offset, len, axes) in cases() {
        for dtype in [DType::Float32, DType::Float64, DType::Int64, DType::Bool] {
            seed += 1;
            let a = buffer(dtype, len, seed).view(shape.clone(), strides.clone(), offset);
            let x = a.to_f64_vec().unwrap();
            let mut red = vec![axes.is_none(); shape.len()];
            for &ax in axes.iter().flatten() {
                red[ax.rem_euclid(shape.len() as isize) as usize] = true;
            }
            // The large shapes (several column blocks and row chunks) for a
            // few ops and dtypes only: the reference is slow in a debug build.
            let big = x.len() > 100_000;
            if big && matches!(dtype, DType::Float64 | DType::Bool) {
                continue;
            }
            for op in OPS {
                let arg = matches!(op, ReduceOp::Argmax | ReduceOp::Argmin);
                let big_op = matches!(
                    op,
                    ReduceOp::Sum | ReduceOp::Max | ReduceOp::Argmin | ReduceOp::Var
                );
                if (arg && axes.as_ref().is_some_and(|a| a.len() > 1)) || (big && !big_op) {
                    continue;
                }
                let want = reference(op, &x, &shape, &red, dtype == DType::Int64);
                let got = run(op, &a, &axes).to_f64_vec().unwrap();
                let tol = if dtype == DType::Float32 { 2e-6 } else { 1e-11 };
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    let ok = (g - w).abs() <= tol * (1.0 + w.abs()) || (g.is_nan() && w.is_nan());
                    assert!(
                        ok,
                        "{op:?} {dtype} shape {shape:?} strides {strides:?} axes {axes:?} [{i}]: {g} vs {w}"
                    );
                }
            }
        }
    }
}

/// max/min/argmax/argmin over every layout with ties (few distinct
/// values) and a few NaNs: NaN propagates, argmax gives the first NaN,
/// else the first of equal extremes, across the one-pass kernel's lanes,
/// gathered pieces of strided runs and the row path's chunks.
#[test]
fn extremes_with_ties_and_nans_over_layouts() {
    let mut seed = 500;
    for (shape, strides, offset, len, axes) in cases() {
        if axes.as_ref().is_some_and(|a| a.len() > 1) {
            continue;
        }
        for dtype in [DType::Float32, DType::Float64, DType::Int64] {
            seed += 1;
            let r = rand(len, seed);
            let v: Vec<f64> = r
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let nan =
                        dtype != DType::Int64 && (i * 7919 + seed as usize).is_multiple_of(4001);
                    if nan { f64::NAN } else { (v * 2.0).round() }
                })
                .collect();
            let a = Array::from_vec(v, vec![len]).astype(dtype).unwrap().view(
                shape.clone(),
                strides.clone(),
                offset,
            );
            let x = a.to_f64_vec().unwrap();
            let mut red = vec![axes.is_none(); shape.len()];
            for &ax in axes.iter().flatten() {
                red[ax.rem_euclid(shape.len() as isize) as usize] = true;
            }
            for op in [
                ReduceOp::Max,
                ReduceOp::Min,
                ReduceOp::Argmax,
                ReduceOp::Argmin,
            ] {
                let want = reference(op, &x, &shape, &red, dtype == DType::Int64);
                let got = run(op, &a, &axes).to_f64_vec().unwrap();
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        g == w || (g.is_nan() && w.is_nan()),
                        "{op:?} {dtype} shape {shape:?} strides {strides:?} axes {axes:?} [{i}]: {g} vs {w}"
                    );
                }
            }
        }
    }
}

/// Rayon pools of 1 and 2 threads.
fn pools() -> (rayon::ThreadPool, rayon::ThreadPool) {
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    (pool(1), pool(2))
}

#[test]
fn reductions_bit_identical_across_thread_counts() {
    let (p1, p2) = pools();
    let mut seed = 100;
    for (shape, strides, offset, len, axes) in cases() {
        if shape.iter().product::<usize>() < 10_000 {
            continue;
        }
        for dtype in [DType::Float32, DType::Float64] {
            seed += 1;
            let a = buffer(dtype, len, seed).view(shape.clone(), strides.clone(), offset);
            for op in [
                ReduceOp::Sum,
                ReduceOp::Mean,
                ReduceOp::Prod,
                ReduceOp::Var,
                ReduceOp::Max,
                ReduceOp::Argmax,
            ] {
                let one = p1.install(|| run(op, &a, &axes)).to_f64_vec().unwrap();
                let two = p2.install(|| run(op, &a, &axes)).to_f64_vec().unwrap();
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&one),
                    bits(&two),
                    "{op:?} {dtype} {shape:?} {strides:?} {axes:?}"
                );
            }
        }
    }
}

/// Float products fold in 16 accumulators and, on lanes of over 2^20
/// elements, in parallel chunks: values near 1 keep the product finite and
/// nonzero, so the bits compare something; contiguous, strided and
/// per-row lanes, against exp(sum(log)) in float64 and across pools of 1
/// and 2 threads.
#[test]
fn long_float_products_are_exact_enough_and_thread_independent() {
    let (p1, p2) = pools();
    let n = (1 << 21) + 37;
    let r = rand(2 * n, 7);
    let near_one: Vec<f64> = r.iter().map(|v| 1.0 + v * 1e-3).collect();
    for (shape, strides, axes) in [
        (vec![n], vec![1isize], None),
        (vec![n], vec![2], None),
        (vec![2, n], vec![n as isize, 1], Some(vec![1isize])),
        (vec![n, 2], vec![1, n as isize], Some(vec![0])),
    ] {
        let a =
            Array::from_vec(near_one.clone(), vec![2 * n]).view(shape.clone(), strides.clone(), 0);
        let x = a.to_f64_vec().unwrap();
        let one = p1
            .install(|| run(ReduceOp::Prod, &a, &axes))
            .to_f64_vec()
            .unwrap();
        let two = p2
            .install(|| run(ReduceOp::Prod, &a, &axes))
            .to_f64_vec()
            .unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&one), bits(&two), "prod {shape:?} {strides:?}");
        // The reference: each output's elements (C order of the kept axis).
        let lanes = one.len();
        for (k, got) in one.iter().enumerate() {
            let lane: Vec<f64> = match (&axes, shape.len()) {
                (None, _) => x.clone(),
                (Some(ax), 2) if ax[0] == 1 => x[k * n..(k + 1) * n].to_vec(),
                _ => x.iter().skip(k).step_by(lanes).copied().collect(),
            };
            let want = lane.iter().map(|v| v.ln()).sum::<f64>().exp();
            assert!(
                (got - want).abs() <= 1e-9 * want,
                "prod {shape:?} {strides:?} [{k}]: {got} vs {want}"
            );
        }
    }
}

#[test]
fn outer_axis_reductions_of_empty_arrays() {
    for (shape, axis, out) in [
        (vec![4, 0], 0, vec![0]),
        (vec![0, 4], 0, vec![4]),
        (vec![3, 0, 5], 1, vec![3, 5]),
    ] {
        let a = Array::from_vec(Vec::<f32>::new(), shape.clone());
        for op in [
            ReduceOp::Sum,
            ReduceOp::Mean,
            ReduceOp::Any,
            ReduceOp::All,
            ReduceOp::Prod,
        ] {
            let r = run(op, &a, &Some(vec![axis]));
            assert_eq!(r.shape(), &out[..], "{op:?} {shape:?} axis {axis}");
            let want = match op {
                ReduceOp::Sum | ReduceOp::Any => 0.0,
                ReduceOp::Mean => f64::NAN,
                _ => 1.0,
            };
            for v in r.to_f64_vec().unwrap() {
                assert!(
                    v == want || (v.is_nan() && want.is_nan()),
                    "{op:?} {shape:?}: {v}"
                );
            }
        }
    }
}

/// any/all stop at the first piece that decides (`test_nonzero`): a single
/// deciding element at the start, at and around piece (1024) and parallel
/// chunk (65536) boundaries and at the end, in contiguous lanes, strided
/// lanes, runs of several blocks and the row path, must be found wherever it
/// is; NaN counts as nonzero and -0.0 as zero, as in NumPy.
#[test]
fn any_all_find_one_deciding_element_anywhere() {
    let n = (1usize << 20) + 3000; // past the parallel-lane size; even
    let rows = n / 8;
    for at in [0, 1023, 1024, 1025, 65535, 65536, 700_001, n - 1] {
        for (dtype, zero, nonzero) in [
            (DType::Float32, 0.0f64, 1.0f64),
            (DType::Float64, -0.0, f64::NAN),
            (DType::Int64, 0.0, -3.0),
            (DType::Bool, 0.0, 1.0),
        ] {
            let make = |fill: f64, one: f64| {
                let mut v = vec![fill; n];
                v[at] = one;
                Array::from_vec(v, vec![n]).astype(dtype).unwrap()
            };
            // (op, data, whether the element at `at` decides, the answer of
            // a lane holding it).
            for (op, a, decides, want) in [
                (ReduceOp::Any, make(zero, nonzero), true, 1.0),
                (ReduceOp::All, make(nonzero, zero), true, 0.0),
                (ReduceOp::Any, make(zero, zero), false, 0.0),
                (ReduceOp::All, make(nonzero, nonzero), false, 1.0),
            ] {
                let lane = |holds: bool| if holds || !decides { want } else { 1.0 - want };
                let what = format!("{op:?} {dtype} at {at}");
                let flat = run(op, &a, &None).to_f64_vec().unwrap();
                assert_eq!(flat, vec![want], "{what}: flat");
                // Every other element, from `at`'s parity: one strided lane.
                let s = a.view(vec![n / 2], vec![2], at % 2);
                let got = run(op, &s, &None).to_f64_vec().unwrap();
                assert_eq!(got, vec![want], "{what}: step 2");
                // Two blocks of `n / 4` with a gap: runs of stride 1.
                let b = a.view(vec![2, n / 4], vec![(n / 2) as isize, 1], 0);
                let holds = at % (n / 2) < n / 4;
                let got = run(op, &b, &None).to_f64_vec().unwrap();
                assert_eq!(got, vec![lane(holds)], "{what}: two blocks");
                if at >= rows * 8 {
                    continue;
                }
                // Columns of a (rows, 8) view: the row path.
                let m = a.view(vec![rows, 8], vec![8, 1], 0);
                let want_cols: Vec<f64> = (0..8).map(|j| lane(j == at % 8)).collect();
                let got = run(op, &m, &Some(vec![0])).to_f64_vec().unwrap();
                assert_eq!(got, want_cols, "{what}: axis 0");
                // The rows of the same view: 8-element contiguous lanes.
                let got = run(op, &m, &Some(vec![1])).to_f64_vec().unwrap();
                assert_eq!(got[at / 8], lane(true), "{what}: axis 1 at its row");
                if at / 8 != 0 {
                    assert_eq!(got[0], lane(false), "{what}: axis 1 row 0");
                }
            }
        }
    }
}

/// int64 max/min of contiguous lanes stay exact past 2^53 (the vectorised
/// path must not go through f64), and bool max/min are any/all.
#[test]
fn int64_extremes_exact_and_bool_extremes_are_any_all() {
    let big = (1i64 << 62) + 3;
    let v = vec![(1i64 << 62) + 1, big, i64::MIN, 5, big - 1];
    let a = Array::from_vec(v.clone(), vec![5]);
    let one = |op| vec![run(op, &a, &None).host_read().unwrap().get_i64(0)];
    assert_eq!(one(ReduceOp::Max), vec![big]);
    assert_eq!(one(ReduceOp::Min), vec![i64::MIN]);
    let b = Array::from_vec(vec![false, false, true, false, false, false], vec![2, 3]);
    let got = |op, axes: Option<Vec<isize>>| {
        let r = run(op, &b, &axes);
        assert_eq!(r.dtype(), DType::Bool, "{op:?} {axes:?}");
        r.to_f64_vec().unwrap()
    };
    assert_eq!(got(ReduceOp::Max, None), vec![1.0]);
    assert_eq!(got(ReduceOp::Min, None), vec![0.0]);
    assert_eq!(got(ReduceOp::Max, Some(vec![1])), vec![1.0, 0.0]);
    assert_eq!(got(ReduceOp::Max, Some(vec![0])), vec![0.0, 0.0, 1.0]);
    assert_eq!(got(ReduceOp::Min, Some(vec![0])), vec![0.0, 0.0, 0.0]);
}
