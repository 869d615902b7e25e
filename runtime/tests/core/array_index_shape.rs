//! Indexing (views, gathers, assignment), shape ops and creation on the host.

use gcalc_runtime::array::create::{Scalar, value_to_array};
use gcalc_runtime::array::index::Index;
use gcalc_runtime::{Array, DType, Device, ErrorKind, Value};

fn ar(n: i64, shape: &[usize]) -> Array {
    Array::from_vec((0..n).collect::<Vec<i64>>(), shape.to_vec())
}
fn s(start: Option<i64>, stop: Option<i64>, step: Option<i64>) -> Index {
    Index::Slice { start, stop, step }
}
fn v(a: &Array) -> Vec<i64> {
    a.to_vec::<i64>().unwrap()
}

#[test]
fn slices_are_views_and_writes_show_through() {
    let x = ar(12, &[3, 4]);
    let y = x
        .index(&[s(Some(1), None, None), s(None, None, Some(2))])
        .unwrap();
    assert_eq!(y.shape(), &[2, 2]);
    assert_eq!(v(&y), vec![4, 6, 8, 10]);
    assert!(y.shares_buffer(&x));
    y.assign(&[], &Array::scalar(-1i64)).unwrap();
    assert_eq!(v(&x), vec![0, 1, 2, 3, -1, 5, -1, 7, -1, 9, -1, 11]);
    let r = ar(5, &[5]).index(&[s(None, None, Some(-2))]).unwrap();
    assert_eq!(v(&r), vec![4, 2, 0]);
    let r = ar(5, &[5])
        .index(&[s(Some(-100), Some(100), None)])
        .unwrap();
    assert_eq!(v(&r), vec![0, 1, 2, 3, 4]);
    let r = ar(5, &[5]).index(&[s(Some(3), Some(1), None)]).unwrap();
    assert_eq!(r.shape(), &[0]);
    let row = x.index(&[Index::Int(-1)]).unwrap();
    assert_eq!(v(&row), vec![-1, 9, -1, 11]);
    let e = x
        .index(&[Index::NewAxis, Index::Ellipsis, Index::Int(0)])
        .unwrap();
    assert_eq!(e.shape(), &[1, 3]);
    assert_eq!(v(&e), vec![0, -1, -1]);
}

#[test]
fn index_errors() {
    let x = ar(3, &[3]);
    let e = x.index(&[Index::Int(5)]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Index);
    assert_eq!(e.message, "index 5 is out of bounds for axis 0 with size 3");
    assert!(
        x.index(&[s(None, None, Some(0))])
            .unwrap_err()
            .message
            .contains("step cannot be zero")
    );
    assert!(
        x.index(&[Index::Int(0), Index::Int(0)])
            .unwrap_err()
            .message
            .contains("too many indices")
    );
    let f = Array::from_vec(vec![0.0f32], vec![1]);
    assert!(x.index(&[Index::Array(f)]).is_err());
}

#[test]
fn gather_with_int_arrays_and_masks() {
    let x = ar(12, &[3, 4]);
    let idx = Array::from_vec(vec![2i64, 0, -1], vec![3]);
    let g = x.index(&[Index::Array(idx.clone())]).unwrap();
    assert_eq!(g.shape(), &[3, 4]);
    assert_eq!(v(&g)[..4], [8, 9, 10, 11]);
    assert!(!g.shares_buffer(&x));
    let g = x
        .index(&[Index::Array(idx), s(Some(1), Some(3), None)])
        .unwrap();
    assert_eq!(
        (g.shape(), v(&g)),
        (&[3usize, 2][..], vec![9, 10, 1, 2, 9, 10])
    );
    let mask = Array::from_vec(
        (0..12).map(|i| i % 5 == 0).collect::<Vec<bool>>(),
        vec![3, 4],
    );
    let m = x.index(&[Index::Array(mask.clone())]).unwrap();
    assert_eq!(v(&m), vec![0, 5, 10]);
    x.assign(&[Index::Array(mask)], &Array::scalar(100i64))
        .unwrap();
    assert_eq!(v(&x)[5], 100);
    // Non-adjacent advanced indices go first (NumPy's rule): shape (2, 3).
    let y = ar(24, &[2, 3, 4]);
    let i01 = Array::from_vec(vec![0i64, 1], vec![2]);
    let g = y
        .index(&[
            Index::Array(i01.clone()),
            s(None, None, None),
            Index::Array(i01),
        ])
        .unwrap();
    assert_eq!(g.shape(), &[2, 3]);
    assert_eq!(v(&g), vec![0, 4, 8, 13, 17, 21]);
    let bad = Array::from_vec(vec![true, false], vec![2]);
    assert!(
        x.index(&[Index::Array(bad)])
            .unwrap_err()
            .message
            .contains("boolean index did not match")
    );
    let oob = Array::from_vec(vec![7i64], vec![1]);
    assert_eq!(
        x.index(&[Index::Array(oob)]).unwrap_err().message,
        "index 7 is out of bounds for axis 0 with size 3"
    );
}

#[test]
fn assign_broadcasts_casts_and_handles_overlap() {
    let x = Array::zeros(&[3, 4], DType::Float32, Device::Cpu).unwrap();
    let row = Array::from_vec(vec![1i64, 2, 3, 4], vec![4]);
    x.assign(&[s(Some(0), Some(2), None)], &row).unwrap();
    assert_eq!(
        x.to_vec::<f32>().unwrap()[..8],
        [1., 2., 3., 4., 1., 2., 3., 4.]
    );
    // NumPy's setitem casts whatever the kinds: a float into ints truncates.
    let xi = ar(4, &[4]);
    xi.assign(&[], &Array::from_vec(vec![-1.5f64], vec![1]))
        .unwrap();
    assert_eq!(v(&xi), vec![-1, -1, -1, -1]);
    let xi = ar(4, &[4]);
    let e = xi.assign(&[], &ar(3, &[3])).unwrap_err();
    assert!(e.message.contains("could not broadcast"), "{}", e.message);
    let src = xi.index(&[s(None, Some(-1), None)]).unwrap();
    xi.assign(&[s(Some(1), None, None)], &src).unwrap();
    assert_eq!(v(&xi), vec![0, 0, 1, 2]);
}

#[test]
fn shape_ops() {
    let x = ar(6, &[2, 3]);
    assert_eq!(x.reshape(&[3, -1]).unwrap().shape(), &[3, 2]);
    assert!(x.reshape(&[3, -1]).unwrap().shares_buffer(&x));
    assert_eq!(
        x.reshape(&[4]).unwrap_err().message,
        "cannot reshape array of size 6 into shape (4,)"
    );
    let t = x.t();
    assert_eq!(
        (t.shape(), v(&t)),
        (&[3usize, 2][..], vec![0, 3, 1, 4, 2, 5])
    );
    assert_eq!(v(&t.reshape(&[-1]).unwrap()), vec![0, 3, 1, 4, 2, 5]);
    assert_eq!(x.transpose(Some(&[1, 0])).unwrap().shape(), &[3, 2]);
    assert!(x.transpose(Some(&[0, 0])).is_err());
    let e = x.expand_dims(0).unwrap().expand_dims(-1).unwrap();
    assert_eq!(e.shape(), &[1, 2, 3, 1]);
    assert_eq!(e.squeeze(None).unwrap().shape(), &[2, 3]);
    assert_eq!(e.squeeze(Some(&[-1])).unwrap().shape(), &[1, 2, 3]);
    assert!(e.squeeze(Some(&[1])).is_err());
    let c = Array::concat(&[x.clone(), x.clone()], 1).unwrap();
    assert_eq!(
        (c.shape(), v(&c)[..6].to_vec()),
        (&[2usize, 6][..], vec![0, 1, 2, 0, 1, 2])
    );
    let st = Array::stack(&[x.clone(), x.clone()], 0).unwrap();
    assert_eq!(st.shape(), &[2, 2, 3]);
    assert!(Array::concat(&[x.clone(), ar(4, &[2, 2])], 0).is_err());
    let b = Array::from_vec(vec![1i64, 2, 3], vec![3])
        .broadcast_to(&[2, 3])
        .unwrap();
    assert_eq!(v(&b), vec![1, 2, 3, 1, 2, 3]);
    assert!(ar(3, &[3]).broadcast_to(&[4]).is_err());
    let f = Array::from_vec(vec![1.7f64, -1.7, f64::NAN, 1e30], vec![4]);
    assert_eq!(
        f.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap(),
        vec![1, -1, 0, i64::MAX]
    );
    assert_eq!(
        f.astype(DType::Bool).unwrap().to_vec::<bool>().unwrap(),
        vec![true, true, true, true]
    );
    let fl = t.flatten().unwrap();
    assert!(!fl.shares_buffer(&x));
}

#[test]
fn creation() {
    let z = Array::zeros(&[2, 3], DType::Float32, Device::Cpu).unwrap();
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![0.0; 6]);
    let e = Array::eye(2, 3, 1, DType::Int64, Device::Cpu).unwrap();
    assert_eq!(v(&e), vec![0, 1, 0, 0, 0, 1]);
    let a = Array::arange(0.0, 1.0, 0.25, DType::Float64, Device::Cpu).unwrap();
    assert_eq!(a.to_vec::<f64>().unwrap(), vec![0.0, 0.25, 0.5, 0.75]);
    let l = Array::linspace(0.0, 1.0, 5, true, DType::Float64, Device::Cpu).unwrap();
    assert_eq!(l.to_vec::<f64>().unwrap(), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    let f = Array::full(&[2], Scalar::Int(7), DType::Int32, Device::Cpu).unwrap();
    assert_eq!(f.to_vec::<i32>().unwrap(), vec![7, 7]);
    let huge = Array::zeros(&[1 << 40, 1 << 40], DType::Float32, Device::Cpu).unwrap_err();
    assert_eq!(huge.kind, ErrorKind::OutOfMemory);
    let huge = Array::zeros(&[1 << 31, 1 << 31], DType::Float64, Device::Cpu).unwrap_err();
    assert_eq!(huge.kind, ErrorKind::OutOfMemory);
    assert!(Array::zeros(&[2], DType::Float32, Device::Gpu(0)).is_err());
}

#[test]
fn lists_to_arrays_and_back() {
    let l = |v: Vec<Value>| Value::list(v);
    let nested = l(vec![
        l(vec![Value::Int(1), Value::Int(2)]),
        l(vec![Value::Int(3), Value::Float(4.5)]),
    ]);
    let a = value_to_array(&nested, None, DType::Float32).unwrap();
    assert_eq!((a.shape(), a.dtype()), (&[2usize, 2][..], DType::Float32));
    let ints =
        value_to_array(&l(vec![Value::Int(1), Value::Int(2)]), None, DType::Float32).unwrap();
    assert_eq!(ints.dtype(), DType::Int64);
    let bools = value_to_array(&l(vec![Value::Bool(true)]), None, DType::Float32).unwrap();
    assert_eq!(bools.dtype(), DType::Bool);
    let ragged = l(vec![
        l(vec![Value::Int(1), Value::Int(2)]),
        l(vec![Value::Int(3)]),
    ]);
    let e = value_to_array(&ragged, None, DType::Float32).unwrap_err();
    assert!(
        e.message.contains("ragged") && e.message.contains("x[1]"),
        "{}",
        e.message
    );
    let of_arrays = l(vec![Value::Array(ar(2, &[2])), Value::Array(ar(2, &[2]))]);
    assert_eq!(
        value_to_array(&of_arrays, None, DType::Float32)
            .unwrap()
            .shape(),
        &[2, 2]
    );
    assert!(value_to_array(&Value::str("x"), None, DType::Float32).is_err());
    let empty = value_to_array(&l(vec![]), None, DType::Float32).unwrap();
    assert_eq!(
        (empty.shape(), empty.dtype()),
        (&[0usize][..], DType::Float32)
    );
    assert!(matches!(Array::scalar(2.5f32).item().unwrap(), Value::Float(f) if f == 2.5));
    assert!(matches!(ar(1, &[1, 1]).item().unwrap(), Value::Int(0)));
    assert!(ar(2, &[2]).item().is_err());
    match ar(4, &[2, 2]).t().tolist().unwrap() {
        Value::List(rows) => match &rows.snapshot()[0] {
            Value::List(r) => {
                let r = r.snapshot();
                assert!(matches!((&r[0], &r[1]), (Value::Int(0), Value::Int(2))))
            }
            _ => panic!("not nested"),
        },
        _ => panic!("not a list"),
    }
}
