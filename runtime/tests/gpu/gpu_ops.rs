//! The GPU kernels of the ops that used to run through the host, each against
//! the CPU path on the same random data (never zeros): std/var (ddof),
//! argmax/argmin (ties, NaN), any/all over every dtype, axes, keepdims,
//! non-contiguous views and empty arrays; random draws of every dtype
//! (float16 and randint included) with the CPU's values and generator
//! state; results must stay on gpu(0).
//! Skips visibly without a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::opid::ReduceOp;
use gcalc_runtime::ops::random_ops as random;
use gcalc_runtime::ops::reduce::reduce_ddof;
use gcalc_runtime::random::Rng;
use gcalc_runtime::{Array, DType, Device, backend};

use crate::gpu_util::{G, assert_same, data, have_gpu, host, pair};

const FX: DType = DType::Float32;

fn tol(d: DType) -> f64 {
    match d {
        DType::Float16 => 2e-3,
        DType::Float32 => 2e-6,
        _ => 1e-12,
    }
}

/// Every axis choice of an n-d array: all, each axis, negative last, two axes.
fn axis_choices(nd: usize, arg: bool) -> Vec<Option<Vec<isize>>> {
    let mut v: Vec<Option<Vec<isize>>> = vec![None];
    v.extend((0..nd as isize).map(|a| Some(vec![a])));
    if nd > 0 {
        v.push(Some(vec![-1]));
    }
    if nd > 1 && !arg {
        v.push(Some(vec![0, nd as isize - 1]));
    }
    v
}

/// `op` over every axis choice and keepdims of `h` (host) and `g` (GPU).
fn compare(op: ReduceOp, h: &Array, g: &Array, ddof: i64, what: &str) {
    let (name, arg) = (op.name(), op.is_arg());
    for axes in axis_choices(h.ndim(), arg) {
        for keep in [false, true] {
            let w = format!(
                "{name} {what} {:?} axes {axes:?} keepdims {keep} ddof {ddof}",
                h.dtype()
            );
            let want = reduce_ddof(op, h, axes.as_deref(), keep, ddof, FX);
            let got = reduce_ddof(op, g, axes.as_deref(), keep, ddof, FX);
            match (got, want) {
                (Ok(got), Ok(want)) => {
                    let t = if want.dtype().is_float() {
                        tol(want.dtype())
                    } else {
                        0.0
                    };
                    assert_same(&got, &want, t, &w);
                }
                (Err(a), Err(b)) => assert_eq!(a.message, b.message, "{w}"),
                (a, b) => panic!("{w}: GPU {:?} vs CPU {:?}", a.err(), b.err()),
            }
        }
    }
}

const SHAPES: &[&[usize]] = &[&[], &[1], &[1000], &[7, 130], &[3, 4, 5], &[2, 1, 33, 3]];

/// `ops` with each ddof over every dtype and shape, on data from `make`.
fn walk(ops: &[ReduceOp], ddofs: &[i64], seed: u64, make: fn(DType, &[usize], u64) -> Array) {
    for d in DType::ALL {
        for (k, shape) in SHAPES.iter().enumerate() {
            let h = make(d, shape, seed + k as u64);
            let g = backend::to_device(&h, G).unwrap();
            for &op in ops {
                for &ddof in ddofs {
                    compare(op, &h, &g, ddof, &format!("{shape:?}"));
                }
            }
        }
    }
}

#[test]
fn std_var_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    walk(&[ReduceOp::Var, ReduceOp::Std], &[0, 1, 7], 10, host);
    // Float32 values far from 0: the two-pass variance keeps its digits.
    let v: Vec<f32> = data(4096, 3, 1e4, 1e4 + 1.0)
        .iter()
        .map(|&x| x as f32)
        .collect();
    let h = Array::from_vec(v, vec![64, 64]);
    let g = backend::to_device(&h, G).unwrap();
    compare(ReduceOp::Var, &h, &g, 0, "offset");
}

#[test]
fn argmax_argmin_first_index_and_nan_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    walk(&[ReduceOp::Argmax, ReduceOp::Argmin], &[0], 20, host);
    // Large enough for many blocks in the whole-array kernel; ties everywhere
    // (ints in a small range) and NaNs: the first max and the first NaN win.
    for d in [DType::Int64, DType::Float32, DType::Float64] {
        let n = 3_000_017;
        let mut h = host(d, &[n], 7);
        if d.is_float() {
            let mut v = h.to_f64_vec().unwrap();
            v[2_345_678] = 1e9;
            v[2_999_999] = 1e9;
            h = Array::from_vec(v.clone(), vec![n]).astype(d).unwrap();
            let (hg, g) = (h.clone(), backend::to_device(&h, G).unwrap());
            compare(ReduceOp::Argmax, &hg, &g, 0, "big, two equal maxima");
            v[1_500_000] = f64::NAN;
            v[1_000] = f64::NAN;
            h = Array::from_vec(v, vec![n]).astype(d).unwrap();
        }
        let g = backend::to_device(&h, G).unwrap();
        for op in [ReduceOp::Argmax, ReduceOp::Argmin] {
            compare(op, &h, &g, 0, "big");
        }
        let a = reduce_ddof(ReduceOp::Argmax, &g, None, false, 0, FX).unwrap();
        let b = reduce_ddof(ReduceOp::Argmax, &g, None, false, 0, FX).unwrap();
        assert_eq!(
            a.to_f64_vec().unwrap(),
            b.to_f64_vec().unwrap(),
            "deterministic"
        );
        // A long row and a long column, NaN inside.
        let h2 = h.reshape(&[1, n as i64]).unwrap();
        let g2 = g.reshape(&[1, n as i64]).unwrap();
        compare(ReduceOp::Argmin, &h2, &g2, 0, "one long row");
        let h3 = h.view(vec![n / 7, 7], vec![7, 1], 0);
        let g3 = g.view(vec![n / 7, 7], vec![7, 1], 0);
        compare(ReduceOp::Argmax, &h3, &g3, 0, "rows of 7");
    }
}

/// Every element nonzero (all is true; any of its negation is false).
fn nonzero(d: DType, shape: &[usize], _: u64) -> Array {
    let n: usize = shape.iter().product();
    Array::from_vec(vec![true; n], shape.to_vec())
        .astype(d)
        .unwrap()
}

#[test]
fn any_all_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    walk(&[ReduceOp::Any, ReduceOp::All], &[0], 30, host);
    walk(&[ReduceOp::Any, ReduceOp::All], &[0], 30, nonzero);
}

#[test]
fn reductions_of_views_and_empty_arrays() {
    if !have_gpu() {
        return;
    }
    // Every reduction but prod (products of 120 values overflow) and min
    // (the max kernel's code with the other comparison).
    let ops: Vec<ReduceOp> = ReduceOp::ALL
        .iter()
        .copied()
        .filter(|&op| op != ReduceOp::Prod && op != ReduceOp::Min)
        .collect();
    for d in [DType::Float32, DType::Float64, DType::Int64, DType::Bool] {
        let (h, g) = pair(d, &[6, 5, 4], 40);
        // Transposed, sliced with a step, and broadcast views.
        let views: [(&str, Vec<usize>, Vec<isize>, usize); 4] = [
            ("contiguous from offset 1", vec![29, 4], vec![4, 1], 1),
            ("transposed", vec![4, 5, 6], vec![1, 4, 20], 0),
            ("stepped", vec![3, 5, 2], vec![40, 4, 2], 1),
            ("broadcast", vec![6, 3, 4], vec![20, 0, 1], 0),
        ];
        for (what, shape, strides, off) in views {
            let hv = h.view(shape.clone(), strides.clone(), off);
            let gv = g.view(shape, strides, off);
            for &op in &ops {
                compare(op, &hv, &gv, 0, what);
            }
        }
        for shape in [&[0usize][..], &[0, 3], &[3, 0], &[2, 0, 4]] {
            let (h, g) = pair(d, shape, 41);
            for &op in &ops {
                compare(op, &h, &g, 1, &format!("empty {shape:?}"));
            }
        }
    }
}

/// One draw of `kind` on `dev` from `rng`.
fn draw(rng: &mut Rng, kind: usize, d: DType, shape: &[usize], dev: Device) -> Array {
    match kind {
        0 => random::rand(rng, shape, d, dev),
        1 => random::uniform(rng, -2.5, 7.0, shape, d, dev),
        2 => random::randn(rng, shape, d, dev),
        3 => random::normal(rng, 1.5, 3.0, shape, d, dev),
        4..=6 => {
            // randint's bounds must fit the dtype (NumPy's check): bool and
            // int32 draw over their whole range in the wide kinds.
            let (lo, hi) = match (kind, d) {
                (_, DType::Bool) => (0, 2),
                (4, _) => (-7, 12),
                (_, DType::Int32) => (i32::MIN as i64, i32::MAX as i64 + 1),
                (5, _) => (-(1 << 62), 1 << 62),
                _ => (i64::MIN, i64::MAX),
            };
            random::randint(rng, lo, hi, shape, d, dev)
        }
        _ => unreachable!("draw kinds are 0..=6"),
    }
    .unwrap()
}

#[test]
fn random_draws_of_every_dtype_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    let shapes: [&[usize]; 5] = [&[], &[0], &[1], &[7], &[33, 31]];
    for kind in 0..7 {
        let dtypes: &[DType] = if kind < 4 {
            &[DType::Float16, DType::Float32, DType::Float64]
        } else {
            &DType::ALL
        };
        for &d in dtypes {
            // The same seed on both; the counters must agree after every draw.
            let (mut rc, mut rg) = (Rng::default(), Rng::default());
            rc.seed(11 + kind as u64);
            rg.seed(11 + kind as u64);
            for shape in shapes {
                let want = draw(&mut rc, kind, d, shape, Device::Cpu);
                let got = draw(&mut rg, kind, d, shape, G);
                let what = format!("draw {kind} of {d} {shape:?}");
                // Normal draws: the GPU's log/sin/cos may differ by an ulp of float64.
                let t = if matches!(kind, 2 | 3) { tol(d) } else { 0.0 };
                assert_same(&got, &want, t, &what);
                assert_eq!(rg, rc, "{what}: generator state");
            }
        }
    }
    // float16 uniforms are exact: (w >> 21) / 2048 bit for bit.
    let (mut rc, mut rg) = (Rng::default(), Rng::default());
    let want = random::rand(&mut rc, &[4096], DType::Float16, Device::Cpu).unwrap();
    let got = random::rand(&mut rg, &[4096], DType::Float16, G).unwrap();
    assert_same(&got, &want, 0.0, "rand float16 bits");
}

/// `f` applied to `base` on the host and to a GPU copy of `base`: the same
/// view (strides, offset) over each device's buffer.
fn both(base: &Array, f: impl Fn(&Array) -> Array) -> (Array, Array) {
    (f(base), f(&backend::to_device(base, G).unwrap()))
}

#[test]
fn matrix_vector_products_in_every_layout_match_the_cpu() {
    if !have_gpu() {
        return;
    }
    use gcalc_runtime::array::index::Index;
    use gcalc_runtime::ops::linalg::matmul;
    let step = |start: Option<i64>, stop: Option<i64>, step: Option<i64>| Index::Slice {
        start,
        stop,
        step,
    };
    for d in [DType::Float32, DType::Float64] {
        let t = if d == DType::Float32 { 2e-3 } else { 1e-11 };
        // Row-major and transposed (column-major) matrices; contiguous and
        // strided vectors, 2-d columns and rows, and k = 1.
        let (a, at) = (host(d, &[37, 53], 31), host(d, &[53, 37], 32));
        let (v, u) = (host(d, &[106], 33), host(d, &[37], 34));
        let mats = [
            ("A", both(&a, |x| x.clone())),
            ("B.T", both(&at, |x| x.transpose(None).unwrap())),
        ];
        for (name, m) in &mats {
            let cases = [
                (
                    format!("{name} @ v[::2]"),
                    m.clone(),
                    both(&v, |x| x.index(&[step(None, None, Some(2))]).unwrap()),
                ),
                (
                    format!("{name} @ v[:53]"),
                    m.clone(),
                    both(&v, |x| x.index(&[step(None, Some(53), None)]).unwrap()),
                ),
                (
                    format!("{name} @ col"),
                    m.clone(),
                    both(&v, |x| {
                        x.index(&[step(Some(1), None, Some(2))])
                            .unwrap()
                            .reshape(&[53, 1])
                            .unwrap()
                    }),
                ),
                (format!("u @ {name}"), both(&u, |x| x.clone()), m.clone()),
                (
                    format!("row @ {name}"),
                    both(&u, |x| x.reshape(&[1, 37]).unwrap()),
                    m.clone(),
                ),
                (
                    format!("{name}.T @ u"),
                    (m.0.transpose(None).unwrap(), m.1.transpose(None).unwrap()),
                    both(&u, |x| x.clone()),
                ),
                (
                    format!("{name}[:, :1] @ w"),
                    (
                        m.0.index(&[Index::full(), step(None, Some(1), None)])
                            .unwrap(),
                        m.1.index(&[Index::full(), step(None, Some(1), None)])
                            .unwrap(),
                    ),
                    both(&v, |x| x.index(&[step(Some(5), Some(6), None)]).unwrap()),
                ),
            ];
            for (what, (hx, gx), (hy, gy)) in cases {
                let want = matmul(&hx, &hy).unwrap();
                let got = matmul(&gx, &gy).unwrap();
                assert_same(&got, &want, t, &format!("{what} {d:?}"));
            }
        }
        // A long reduction over few outputs (left to cuBLAS), and over many.
        for (sm, sv) in [([3, 9000], 9000), ([2000, 9000], 9000)] {
            let (hm, gm) = both(&host(d, &sm, 36), |x| x.clone());
            let (hv, gv) = both(&host(d, &[sv], 37), |x| x.clone());
            let t = if d == DType::Float32 { 1e-2 } else { 1e-10 };
            let what = format!("{sm:?} @ v and v @ m.T {d:?}");
            assert_same(
                &matmul(&gm, &gv).unwrap(),
                &matmul(&hm, &hv).unwrap(),
                t,
                &what,
            );
            let (hmt, gmt) = (hm.transpose(None).unwrap(), gm.transpose(None).unwrap());
            assert_same(
                &matmul(&gv, &gmt).unwrap(),
                &matmul(&hv, &hmt).unwrap(),
                t,
                &what,
            );
        }
    }
}
