//! The matrix-vector path of matmul (runtime/src/ops/linalg/gemv.rs over
//! kernels/src/cpu/gemv.rs) against a float64 reference on random data:
//! matrix @ vector and vector @ matrix for C-contiguous, transposed, strided,
//! reversed and broadcast views, sizes around the SIMD width and the 4-row
//! grouping, empty dims, batches, f32 and f64, and run-to-run determinism.

use gcalc_runtime::Array;
use gcalc_runtime::ops::linalg::matmul;

/// Deterministic values in [-1, 1) (no zeros in practice).
pub(crate) fn rand(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

/// A strided view of `shape` over a random buffer of `len` elements.
struct View {
    base: Vec<f64>,
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
}

impl View {
    fn at(&self, idx: &[usize]) -> f64 {
        let o = idx
            .iter()
            .zip(&self.strides)
            .fold(self.offset as isize, |o, (&i, &s)| o + i as isize * s);
        self.base[o as usize]
    }
    fn array(&self, f32: bool) -> Array {
        let n = self.base.len();
        let a = if f32 {
            Array::from_vec(self.base.iter().map(|&v| v as f32).collect(), vec![n])
        } else {
            Array::from_vec(self.base.clone(), vec![n])
        };
        a.view(self.shape.clone(), self.strides.clone(), self.offset)
    }
    /// The stored value as the dtype sees it (f32 rounding included).
    fn val(&self, idx: &[usize], f32: bool) -> f64 {
        let v = self.at(idx);
        if f32 { v as f32 as f64 } else { v }
    }
}

/// A view: buffer big enough for `shape`/`strides` from `offset`.
fn view(shape: &[usize], strides: &[isize], seed: u64) -> View {
    let mut lo = 0isize;
    let mut hi = 0isize;
    for (&d, &s) in shape.iter().zip(strides) {
        if d == 0 {
            continue;
        }
        let span = (d as isize - 1) * s;
        if span < 0 { lo += span } else { hi += span }
    }
    let offset = (-lo) as usize;
    let len = (hi - lo + 1) as usize;
    View {
        base: rand(len, seed),
        shape: shape.to_vec(),
        strides: strides.to_vec(),
        offset,
    }
}

fn contiguous(shape: &[usize]) -> Vec<isize> {
    let mut st = vec![1isize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1] * shape[d + 1].max(1) as isize;
    }
    st
}

/// matmul of the two views (2-D/1-D in either order) against the f64 reference.
fn check(a: &View, b: &View, f32: bool) {
    let got_arr = matmul(&a.array(f32), &b.array(f32)).expect("matmul");
    let again = matmul(&a.array(f32), &b.array(f32)).expect("matmul");
    let got = got_arr.to_f64_vec().expect("values");
    assert_eq!(
        got,
        again.to_f64_vec().expect("values"),
        "not deterministic"
    );
    let (m, k) = if a.shape.len() == 2 {
        (a.shape[0], a.shape[1])
    } else {
        (1, a.shape[0])
    };
    let n = if b.shape.len() == 2 { b.shape[1] } else { 1 };
    let mut want_shape = Vec::new();
    if a.shape.len() == 2 {
        want_shape.push(m);
    }
    if b.shape.len() == 2 {
        want_shape.push(n);
    }
    assert_eq!(
        got_arr.shape(),
        &want_shape[..],
        "shape of {:?} @ {:?}",
        a.shape,
        b.shape
    );
    let ai = |i: usize, kk: usize| {
        if a.shape.len() == 2 {
            a.val(&[i, kk], f32)
        } else {
            a.val(&[kk], f32)
        }
    };
    let bi = |kk: usize, j: usize| {
        if b.shape.len() == 2 {
            b.val(&[kk, j], f32)
        } else {
            b.val(&[kk], f32)
        }
    };
    let eps = if f32 { 2e-6 } else { 1e-14 };
    for i in 0..m {
        for j in 0..n {
            let (mut s, mut mag) = (0.0, 0.0);
            for kk in 0..k {
                s += ai(i, kk) * bi(kk, j);
                mag += (ai(i, kk) * bi(kk, j)).abs();
            }
            let g = got[i * n + j];
            assert!(
                (g - s).abs() <= eps * (mag + 1.0),
                "{:?}{:?} @ {:?}{:?} f32={f32} at ({i},{j}): {g} vs {s}",
                a.shape,
                a.strides,
                b.shape,
                b.strides
            );
        }
    }
}

const SIZES: &[usize] = &[0, 1, 3, 4, 5, 15, 16, 17, 33, 67];

#[test]
fn matrix_times_vector_every_layout() {
    let mut seed = 1;
    for f32 in [true, false] {
        for &m in SIZES {
            for &k in SIZES {
                seed += 1;
                let x = view(&[k], &[1], seed);
                // C-contiguous, transposed (A.T of a k x m buffer), padded rows.
                check(&view(&[m, k], &contiguous(&[m, k]), seed), &x, f32);
                check(&view(&[m, k], &[1, m.max(1) as isize], seed + 7), &x, f32);
                check(&view(&[m, k], &[k as isize + 3, 1], seed + 11), &x, f32);
                // Strided vector (copied), broadcast rows, non-unit inner stride, reversed rows.
                check(
                    &view(&[m, k], &contiguous(&[m, k]), seed),
                    &view(&[k], &[3], seed + 5),
                    f32,
                );
                check(&view(&[m, k], &[0, 1], seed + 13), &x, f32);
                check(&view(&[m, k], &[2 * k as isize, 2], seed + 17), &x, f32);
                check(&view(&[m, k], &[-(k as isize), 1], seed + 19), &x, f32);
            }
        }
    }
}

#[test]
fn vector_times_matrix_every_layout() {
    let mut seed = 1000;
    for f32 in [true, false] {
        for &k in SIZES {
            for &n in SIZES {
                seed += 1;
                let x = view(&[k], &[1], seed);
                check(&x, &view(&[k, n], &contiguous(&[k, n]), seed + 1), f32);
                check(&x, &view(&[k, n], &[1, k.max(1) as isize], seed + 2), f32);
                check(&x, &view(&[k, n], &[n as isize + 5, 1], seed + 3), f32);
                check(
                    &view(&[k], &[-2], seed + 4),
                    &view(&[k, n], &contiguous(&[k, n]), seed + 5),
                    f32,
                );
                check(&x, &view(&[k, n], &[1, 0], seed + 6), f32);
            }
        }
        // 1 x k @ k x 1 and the vector dot product.
        for &k in SIZES {
            seed += 1;
            check(
                &view(&[1, k], &[0, 1], seed),
                &view(&[k], &[1], seed + 1),
                f32,
            );
            check(
                &view(&[k], &[1], seed + 2),
                &view(&[k], &[1], seed + 3),
                f32,
            );
        }
    }
}

#[test]
fn large_products_split_over_threads() {
    // Above the two-thread threshold (2^20 multiply-adds): both forms and both orders.
    for (m, k) in [(1100, 1000), (3, 400_000), (400_000, 3)] {
        for f32 in [true, false] {
            let x = view(&[k], &[1], 77);
            check(&view(&[m, k], &contiguous(&[m, k]), 78), &x, f32);
            check(&view(&[m, k], &[1, m as isize], 79), &x, f32);
            let y = view(&[m], &[1], 80);
            check(&y, &view(&[m, k], &contiguous(&[m, k]), 81), f32);
        }
    }
}

#[test]
fn batched_matrix_vector() {
    // (2, 5, 19) @ (19,) and (19,) @ (2, 19, 6): each batch item through the GEMV path.
    for f32 in [true, false] {
        let a = view(&[2, 5, 19], &contiguous(&[2, 5, 19]), 5);
        let x = view(&[19], &[1], 6);
        let got = matmul(&a.array(f32), &x.array(f32)).expect("matmul");
        assert_eq!(got.shape(), &[2, 5]);
        let got = got.to_f64_vec().expect("values");
        for bi in 0..2 {
            for i in 0..5 {
                let s: f64 = (0..19)
                    .map(|k| a.val(&[bi, i, k], f32) * x.val(&[k], f32))
                    .sum();
                assert!((got[bi * 5 + i] - s).abs() < 1e-5, "{bi} {i}");
            }
        }
        let b = view(&[2, 19, 6], &[114, 1, 19], 7);
        let got = matmul(&x.array(f32), &b.array(f32)).expect("matmul");
        assert_eq!(got.shape(), &[2, 6]);
        let got = got.to_f64_vec().expect("values");
        for bi in 0..2 {
            for j in 0..6 {
                let s: f64 = (0..19)
                    .map(|k| x.val(&[k], f32) * b.val(&[bi, k, j], f32))
                    .sum();
                assert!((got[bi * 6 + j] - s).abs() < 1e-5, "{bi} {j}");
            }
        }
    }
}

#[test]
fn float32_products_count_past_2_pow_24_terms() {
    // vector @ matrix with 2^24 + 12288 rows: each output once summed its
    // ones in one float32 chain and stopped at 2^24 (issue 24). The matrix
    // is a broadcast row (stride 0), so only the vector takes memory.
    let n = (1usize << 24) + 12288;
    let x = Array::from_vec(vec![1f32; n], vec![n]);
    let m = Array::from_vec(vec![1f32, -2.0], vec![1, 2])
        .broadcast_to(&[n, 2])
        .expect("broadcast");
    let got = matmul(&x, &m)
        .expect("matmul")
        .to_f64_vec()
        .expect("values");
    assert_eq!(got, vec![n as f64, -2.0 * n as f64]);
}
