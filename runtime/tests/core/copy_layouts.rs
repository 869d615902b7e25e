//! Strided and transposed copies (kernels/src/cpu/tile.rs, cpu/copy.rs, the
//! fused executor's tiled walk): `copy`, `astype` and `v + w` of transposed,
//! permuted, sliced, reversed and offset views, small and past the parallel
//! thresholds, against values read here by index arithmetic.

use gcalc_runtime::ops::fuse::{self, EwNode, Operand};
use gcalc_runtime::{Array, DType};

/// A view (shape, strides, offset) over a buffer of `len` elements.
struct Case {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
    len: usize,
}

fn cases() -> Vec<Case> {
    let c = |shape: &[usize], strides: &[isize], offset: usize, len: usize| Case {
        shape: shape.to_vec(),
        strides: strides.to_vec(),
        offset,
        len,
    };
    vec![
        // Transposed matrices: small, tile edges (33, 65), past the fused tile
        // width (300) and past the parallel copy threshold (700 x 400).
        c(&[45, 33], &[1, 45], 0, 45 * 33),
        c(&[130, 300], &[1, 130], 0, 130 * 300),
        c(&[700, 400], &[1, 700], 0, 700 * 400),
        c(&[65, 64], &[1, 65], 0, 65 * 64),
        // A 3-d permutation (2, 0, 1) of a (5, 6, 70) array, and (2, 1, 0).
        c(&[70, 5, 6], &[1, 420, 70], 0, 2100),
        c(&[70, 6, 5], &[1, 70, 420], 0, 2100),
        // Column slices m[:, ::3] and a transposed slice with an offset.
        c(&[40, 90], &[270, 3], 2, 40 * 270),
        c(&[90, 40], &[3, 270], 5, 40 * 270 + 5),
        // Reversed rows of a transposed view (negative stride), offset at the end.
        c(&[120, 80], &[-1, 120], 119, 120 * 80),
        // A broadcast row (stride 0) read down a transposed column.
        c(&[200, 100], &[0, 1], 0, 100),
    ]
}

/// Distinct values (the index, scaled), so any misplaced element shows.
fn base(len: usize) -> Vec<f64> {
    (0..len).map(|i| i as f64 * 0.5 - 7.25).collect()
}

/// The view's elements in C order, read by index arithmetic.
fn expect(c: &Case, b: &[f64]) -> Vec<f64> {
    let n: usize = c.shape.iter().product();
    (0..n)
        .map(|mut i| {
            let mut o = c.offset as isize;
            for d in (0..c.shape.len()).rev() {
                o += (i % c.shape[d]) as isize * c.strides[d];
                i /= c.shape[d];
            }
            b[o as usize]
        })
        .collect()
}

fn view(c: &Case, dtype: DType) -> Array {
    let b = base(c.len);
    let a = match dtype {
        DType::Float32 => Array::from_vec(b.iter().map(|&v| v as f32).collect(), vec![c.len]),
        _ => Array::from_vec(b, vec![c.len]),
    };
    a.view(c.shape.clone(), c.strides.clone(), c.offset)
}

fn leaf(a: &Array) -> EwNode {
    EwNode::Leaf(Operand::Array(a.clone()))
}

#[test]
fn strided_copies_and_casts_read_every_element() {
    for c in cases() {
        let want = expect(&c, &base(c.len));
        for dtype in [DType::Float32, DType::Float64] {
            let v = view(&c, dtype);
            let what = format!("shape {:?} strides {:?} {dtype}", c.shape, c.strides);
            assert_eq!(v.to_f64_vec().unwrap(), want, "to_vec {what}");
            let copy = v.copy().unwrap();
            assert!(copy.is_contiguous(), "copy {what}");
            assert_eq!(copy.to_f64_vec().unwrap(), want, "copy {what}");
            let cast = v.astype(DType::Float64).unwrap();
            assert_eq!(cast.to_f64_vec().unwrap(), want, "astype {what}");
            let ints = v.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
            let want_i: Vec<i64> = want.iter().map(|&x| x.trunc() as i64).collect();
            assert_eq!(ints, want_i, "astype int64 {what}");
        }
    }
}

#[test]
fn elementwise_over_transposed_views_walks_tiles() {
    for c in cases() {
        let want = expect(&c, &base(c.len));
        let v = view(&c, DType::Float64);
        let n: usize = c.shape.iter().product();
        let w = Array::from_vec(
            (0..n).map(|i| i as f64).collect::<Vec<_>>(),
            c.shape.clone(),
        );
        let t = EwNode::Op {
            op: gcalc_runtime::ops::lookup("add").expect("add"),
            args: vec![leaf(&v), leaf(&w)],
        };
        let r = match fuse::eval(t, DType::Float32).expect("fused eval") {
            Operand::Array(a) => a,
            o => panic!("scalar result {o:?}"),
        };
        assert_eq!(r.shape(), &c.shape[..]);
        let got = r.to_f64_vec().unwrap();
        for (i, (g, x)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                *g,
                x + i as f64,
                "v + w shape {:?} strides {:?} at {i}",
                c.shape,
                c.strides
            );
        }
    }
}

/// float64 -> float16 rounds once to the nearest even (NumPy's and CUDA's
/// `__double2half`), checked against the two neighbouring float16 values
/// for random values of every binade, ties and subnormals.
#[test]
fn float64_to_float16_rounds_once_to_nearest_even() {
    use gcalc_runtime::array::host::f16_of;
    use half::f16;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut values = vec![
        0.0, -0.0, 65504.0, 65519.99, 65520.0, 1e9, 5.96e-8, 2.98e-8, 2.99e-8,
    ];
    for _ in 0..200_000 {
        let r = next();
        // A random float16 neighbourhood: an f16 value plus a fraction of its step,
        // including exact halves (ties).
        let b = ((r & 0x7fff) % 0x7bff) as u16; // below f16's largest finite value
        let h = f16::from_bits(b).to_f64();
        let step = f16::from_bits(b + 1).to_f64() - h;
        let frac = match (r >> 20) % 4 {
            0 => 0.5,
            _ => ((r >> 24) % 1_000_000) as f64 / 1_000_000.0,
        };
        let v = h + frac * step;
        values.push(if r >> 63 == 1 { -v } else { v });
    }
    for v in values {
        let got = f16_of(v);
        // The reference: the nearer of the float16 values around v, ties to even.
        let a = v.abs();
        let mut lo = 0u16;
        let mut hi = 0x7c00u16;
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if f16::from_bits(mid).to_f64() <= a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let (l, h) = (f16::from_bits(lo).to_f64(), f16::from_bits(hi).to_f64());
        let h = if hi == 0x7c00 { 65536.0 } else { h };
        let pick = if a - l < h - a || (a - l == h - a && lo.is_multiple_of(2)) {
            lo
        } else {
            hi
        };
        let want = f16::from_bits(pick | if v.is_sign_negative() { 0x8000 } else { 0 });
        assert_eq!(got.to_bits(), want.to_bits(), "{v:e}: {got} vs {want}");
    }
}
