//! Focused tests of elementwise semantics: dtype promotion with weak scalars,
//! integer division by zero, shape and device errors, and fused evaluation
//! agreeing with op-by-op evaluation.

use gcalc_runtime::ErrorKind;
use gcalc_runtime::ops::fuse::{self, EwNode, Operand};
use gcalc_runtime::ops::{self};
use gcalc_runtime::{Array, DType};

const FX: DType = DType::Float32;

fn arr<T: gcalc_runtime::Element>(v: Vec<T>) -> Operand {
    let n = v.len();
    Operand::Array(Array::from_vec(v, vec![n]))
}

fn dt(o: &Operand) -> DType {
    match o {
        Operand::Array(a) => a.dtype(),
        _ => panic!("expected an array"),
    }
}

fn vals(o: &Operand) -> Vec<f64> {
    match o {
        Operand::Array(a) => a.to_f64_vec().unwrap(),
        _ => panic!("expected an array"),
    }
}

fn ap(name: &str, a: Vec<Operand>) -> Operand {
    fuse::apply(name, a, FX).unwrap()
}

#[test]
fn promotion_follows_nep50_with_weak_scalars() {
    assert_eq!(
        dt(&ap(
            "multiply",
            vec![arr(vec![1.0f32, 2.0]), Operand::Float(2.0)]
        )),
        DType::Float32
    );
    assert_eq!(
        dt(&ap("add", vec![arr(vec![1i32, 2]), arr(vec![1i64, 2])])),
        DType::Int64
    );
    assert_eq!(
        dt(&ap("add", vec![arr(vec![1i64, 2]), arr(vec![1.0f32, 2.0])])),
        DType::Float64
    );
    assert_eq!(
        dt(&ap("add", vec![Operand::Int(3), arr(vec![1.0f32, 2.0])])),
        DType::Float32
    );
    assert_eq!(
        dt(&ap("add", vec![arr(vec![1i32, 2]), Operand::Int(3)])),
        DType::Int32
    );
    // A weak float meeting ints gives floatX (gcalc's decision).
    assert_eq!(
        dt(&ap("add", vec![arr(vec![1i64, 2]), Operand::Float(0.5)])),
        FX
    );
    assert_eq!(dt(&ap("exp", vec![arr(vec![1i64, 2])])), FX);
    assert_eq!(
        dt(&ap("divide", vec![arr(vec![1i32, 2]), arr(vec![2i32, 2])])),
        FX
    );
    assert_eq!(
        dt(&ap("less", vec![arr(vec![1.0f32]), Operand::Float(0.5)])),
        DType::Bool
    );
    assert_eq!(
        dt(&ap(
            "add",
            vec![arr(vec![true, false]), arr(vec![true, true])]
        )),
        DType::Bool
    );
    assert_eq!(
        dt(&ap("maximum", vec![arr(vec![true]), arr(vec![false])])),
        DType::Bool
    );
    assert_eq!(
        dt(&ap("exp", vec![arr(vec![half::f16::ONE])])),
        DType::Float16
    );
    assert_eq!(dt(&ap("floor", vec![arr(vec![3i32])])), DType::Int32);
    // int32 wraps like NumPy.
    assert_eq!(
        vals(&ap("add", vec![arr(vec![i32::MAX]), Operand::Int(1)])),
        vec![i32::MIN as f64]
    );
}

#[test]
fn scalar_trees_compute_python_style() {
    let r = fuse::apply("add", vec![Operand::Int(2), Operand::Int(3)], FX).unwrap();
    assert!(matches!(r, Operand::Int(5)));
    let r = fuse::apply("divide", vec![Operand::Int(7), Operand::Int(2)], FX).unwrap();
    assert!(matches!(r, Operand::Float(f) if f == 3.5));
    let r = fuse::apply("floor_divide", vec![Operand::Int(-7), Operand::Int(2)], FX).unwrap();
    assert!(matches!(r, Operand::Int(-4)));
    let r = fuse::apply("mod", vec![Operand::Int(-7), Operand::Int(2)], FX).unwrap();
    assert!(matches!(r, Operand::Int(1)));
    let r = fuse::apply("less", vec![Operand::Int(1), Operand::Float(1.5)], FX).unwrap();
    assert!(matches!(r, Operand::Bool(true)));
}

#[test]
fn python_sign_rules_for_floor_divide_and_mod() {
    let a = arr(vec![7i64, -7, 7, -7]);
    let b = arr(vec![2i64, 2, -2, -2]);
    assert_eq!(
        vals(&ap("floor_divide", vec![a.clone(), b.clone()])),
        vec![3.0, -4.0, -4.0, 3.0]
    );
    assert_eq!(vals(&ap("mod", vec![a, b])), vec![1.0, 1.0, -1.0, -1.0]);
    let a = arr(vec![7.5f64, -7.5]);
    assert_eq!(
        vals(&ap("mod", vec![a, Operand::Float(2.0)])),
        vec![1.5, 0.5]
    );
}

#[test]
fn integer_division_by_zero_is_an_error() {
    for op in ["floor_divide", "mod"] {
        let e = fuse::apply(op, vec![arr(vec![1i64, 2]), arr(vec![1i64, 0])], FX).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ZeroDivision);
        // The op is named once: "floor_divide: integer division by zero".
        let text = e.to_string();
        assert!(
            text.contains(&format!("{op}: integer division by zero")),
            "{e}"
        );
        assert_eq!(text.matches(op).count(), 1, "{e}");
    }
    let e = fuse::apply("power", vec![arr(vec![2i64]), Operand::Int(-1)], FX).unwrap_err();
    assert!(
        e.to_string()
            .contains("Integers to negative integer powers are not allowed"),
        "{e}"
    );
    // Floats follow IEEE.
    let r = vals(&ap(
        "floor_divide",
        vec![arr(vec![1.0f64]), Operand::Float(0.0)],
    ));
    assert_eq!(r, vec![f64::INFINITY]);
}

#[test]
fn shape_mismatch_names_op_and_both_shapes() {
    let a = Operand::Array(Array::from_vec(vec![0.0f32; 6], vec![2, 3]));
    let b = Operand::Array(Array::from_vec(vec![0.0f32; 4], vec![4]));
    let e = fuse::apply("add", vec![a, b], FX).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
    let s = e.to_string();
    assert!(
        s.contains("add") && s.contains("(2, 3)") && s.contains("(4,)"),
        "{s}"
    );
    let e = gcalc_runtime::ops::linalg::matmul(
        &Array::from_vec(vec![0.0f32; 6], vec![2, 3]),
        &Array::from_vec(vec![0.0f32; 8], vec![4, 2]),
    )
    .unwrap_err();
    let s = e.to_string();
    assert!(
        s.contains("matmul")
            && s.contains("(2, 3)")
            && s.contains("(4, 2)")
            && s.contains("3 != 4"),
        "{s}"
    );
}

#[test]
fn device_mismatch_names_both_devices() {
    if gcalc_runtime::backend::devices::gpu_count() == 0 {
        eprintln!("skipped: no GPU (device mismatch needs one)");
        return;
    }
    let x = Array::from_vec(vec![1.0f32, 2.0], vec![2]);
    let y = gcalc_runtime::backend::to_device(&x, gcalc_runtime::Device::Gpu(0)).unwrap();
    let e = fuse::apply("add", vec![Operand::Array(x), Operand::Array(y)], FX).unwrap_err();
    assert!(
        e.to_string().contains("operands on cpu(0) and gpu(0)"),
        "{e}"
    );
}

#[test]
fn fused_tree_equals_op_by_op() {
    let n = 100_003; // several blocks, parallel, odd tail
    let z: Vec<f32> = (0..n).map(|i| ((i % 97) as f32) * 0.03 - 1.0).collect();
    let y: Vec<f32> = (0..n).map(|i| ((i % 13) as f32) * 0.5 - 3.0).collect();
    let (z, y) = (arr(z), arr(y));
    let op = |n| ops::lookup(n).unwrap();
    let leaf = |o: &Operand| EwNode::Leaf(o.clone());
    // exp(z + 2) * y, then where(y > 0, that, -z) as a deeper tree with a bool node.
    let tree = EwNode::Op {
        op: op("where"),
        args: vec![
            EwNode::Op {
                op: op("greater"),
                args: vec![leaf(&y), EwNode::Leaf(Operand::Int(0))],
            },
            EwNode::Op {
                op: op("multiply"),
                args: vec![
                    EwNode::Op {
                        op: op("exp"),
                        args: vec![EwNode::Op {
                            op: op("add"),
                            args: vec![leaf(&z), EwNode::Leaf(Operand::Float(2.0))],
                        }],
                    },
                    leaf(&y),
                ],
            },
            EwNode::Op {
                op: op("negative"),
                args: vec![leaf(&z)],
            },
        ],
    };
    let fused = fuse::eval(tree, FX).unwrap();
    let t = ap("add", vec![z.clone(), Operand::Float(2.0)]);
    let t = ap("exp", vec![t]);
    let t = ap("multiply", vec![t, y.clone()]);
    let c = ap("greater", vec![y.clone(), Operand::Int(0)]);
    let nz = ap("negative", vec![z.clone()]);
    let stepwise = ap("where", vec![c, t, nz]);
    assert_eq!(dt(&fused), DType::Float32);
    assert_eq!(vals(&fused), vals(&stepwise));
}
