//! How the fused CPU program reads its leaves (ops/fuse.rs, ops/fuse_exec):
//! a broadcast single element (all strides 0) taken as a constant, contiguous
//! leaves of another dtype converted as one run, strided leaves gathered, and
//! empty broadcasts, each against values computed here.

use gcalc_runtime::Array;
use gcalc_runtime::dtype::DType;
use gcalc_runtime::ops::fuse::{self, EwNode, Operand};

fn op(name: &str, args: Vec<EwNode>) -> EwNode {
    EwNode::Op {
        op: gcalc_runtime::ops::lookup(name).expect("op in the table"),
        args,
    }
}

fn leaf(a: &Array) -> EwNode {
    EwNode::Leaf(Operand::Array(a.clone()))
}

fn eval(t: EwNode) -> Array {
    match fuse::eval(t, DType::Float32).expect("fused eval") {
        Operand::Array(a) => a,
        o => panic!("scalar result {o:?}"),
    }
}

#[test]
fn broadcast_element_is_a_constant() {
    let base = Array::from_vec(vec![1.5f32, -2.0, 4.0], vec![3]);
    // Element 1 broadcast to (2, 3) and to (5,).
    let b23 = base.view(vec![2, 3], vec![0, 0], 1);
    let y = Array::from_vec((0..6).map(|i| i as f32).collect::<Vec<_>>(), vec![2, 3]);
    let r = eval(op(
        "multiply",
        vec![op("add", vec![leaf(&b23), leaf(&y)]), leaf(&b23)],
    ));
    assert_eq!(r.shape(), &[2, 3]);
    let want: Vec<f64> = (0..6).map(|i| (-2.0 + i as f64) * -2.0).collect();
    assert_eq!(r.to_f64_vec().expect("values"), want);
    let b5 = base.view(vec![5], vec![0], 2);
    let r = eval(op("negative", vec![leaf(&b5)]));
    assert_eq!(r.shape(), &[5]);
    assert_eq!(r.to_f64_vec().expect("values"), vec![-4.0; 5]);
}

#[test]
fn empty_broadcast_gives_empty() {
    let empty = Array::from_vec(Vec::<f32>::new(), vec![0]);
    let b = empty.view(vec![0], vec![0], 0);
    let r = eval(op("add", vec![leaf(&b), EwNode::Leaf(Operand::Float(1.0))]));
    assert_eq!(r.shape(), &[0]);
    let b2 = empty.view(vec![3, 0], vec![0, 0], 0);
    let r = eval(op("exp", vec![leaf(&b2)]));
    assert_eq!(r.shape(), &[3, 0]);
}

#[test]
fn converted_and_gathered_leaves() {
    // f32 + f64 computes in f64: the contiguous f32 leaf is converted as one run,
    // the transposed f64 leaf is gathered.
    let x = Array::from_vec(
        (0..12).map(|i| i as f32 * 0.5).collect::<Vec<_>>(),
        vec![3, 4],
    );
    let y = Array::from_vec((0..12).map(|i| i as f64).collect::<Vec<_>>(), vec![4, 3]);
    let yt = y.transpose(None).expect("transpose");
    let r = eval(op(
        "subtract",
        vec![op("multiply", vec![leaf(&x), leaf(&yt)]), leaf(&x)],
    ));
    assert_eq!(r.dtype(), DType::Float64);
    let got = r.to_f64_vec().expect("values");
    for i in 0..3 {
        for j in 0..4 {
            let xv = (i * 4 + j) as f64 * 0.5;
            let yv = (j * 3 + i) as f64;
            assert_eq!(got[i * 4 + j], xv * yv - xv, "({i}, {j})");
        }
    }
}
