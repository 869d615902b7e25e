//! Walks the whole op table: every elementwise op on every dtype and every
//! device, against the entry's f64 reference, over contiguous, broadcast,
//! transposed, 0-d and weak-scalar operands; then every reduction (every
//! device, empty arrays too) and the linear algebra ops against naive f64
//! references; random draws, astype and indexing on every device against the CPU;
//! every sorting op on every device against a float64 sort and the CPU.

use gcalc_runtime::array::layout;
use gcalc_runtime::dtype::{DType, Kind};
use gcalc_runtime::opid::ReduceOp;
use gcalc_runtime::ops::elementwise::{Domain, EwDef, Rule, ew_def, result_kinds};
use gcalc_runtime::ops::fuse::{self, EwNode, Operand};
use gcalc_runtime::ops::{self, linalg, reduce};
use gcalc_runtime::{Array, Device, HostData};

const FX: DType = DType::Float32;

/// The CPU and every GPU gcalc can use.
fn devices() -> Vec<Device> {
    let mut v = vec![Device::Cpu];
    v.extend((0..gcalc_runtime::backend::devices::gpu_count()).map(|i| Device::Gpu(i as u32)));
    v
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// A value for operand `arg` of an op with domain `dom`, representable in `dt`.
fn sample(r: &mut Rng, dom: Domain, arg: usize, dt: DType) -> f64 {
    let int = !dt.is_float();
    if dt == DType::Bool {
        return match (dom, arg) {
            (Domain::NonZeroDivisor, 1)
            | (Domain::Positive | Domain::AtLeastOne | Domain::NonZero, _) => 1.0,
            _ => (r.next() < 0.5) as u8 as f64,
        };
    }
    let (lo, hi) = match (dom, arg) {
        (Domain::Positive, _) => (0.05, 5.0),
        (Domain::AboveMinusOne, _) => (-0.9, 4.0),
        (Domain::Small, _) => (-1.3, 1.3),
        (Domain::Power, 0) => (if int { -4.0 } else { 0.1 }, 4.0),
        (Domain::Power, _) => (if int { 0.0 } else { -2.0 }, if int { 4.99 } else { 2.0 }),
        (Domain::ShiftCount, 1) => (0.0, 8.99),
        (Domain::Unit, _) => (
            if int { -1.0 } else { -0.98 },
            if int { 1.99 } else { 0.98 },
        ),
        (Domain::AtLeastOne, _) => (1.0, 9.0),
        _ => (-9.0, 9.0),
    };
    loop {
        let v = r.range(lo, hi);
        let v = if int { v.floor() } else { v };
        let v = if dt == DType::Float16 {
            half::f16::from_f64(v).to_f64()
        } else {
            v
        };
        let zero_bad = matches!(dom, Domain::Positive | Domain::NonZero)
            || (dom == Domain::NonZeroDivisor && arg == 1);
        if (v != 0.0 || !zero_bad) && (int || v.abs() > 0.05 || dom == Domain::Power) {
            return v;
        }
    }
}

fn make(r: &mut Rng, dom: Domain, arg: usize, dt: DType, shape: &[usize]) -> Array {
    let n: usize = shape.iter().product();
    let v: Vec<f64> = (0..n).map(|_| sample(r, dom, arg, dt)).collect();
    Array::from_host(HostData::from_f64s(dt, v.into_iter()), shape.to_vec())
}

/// `make`, on device `d`.
fn mk(d: Device, r: &mut Rng, dom: Domain, arg: usize, dt: DType, shape: &[usize]) -> Array {
    gcalc_runtime::backend::to_device(&make(r, dom, arg, dt, shape), d).unwrap()
}

fn kind(o: &Operand) -> Kind {
    o.kind()
}

/// Elements of `o` broadcast to `shape`, as f64 (scalars repeated).
fn values(o: &Operand, shape: &[usize]) -> Vec<f64> {
    let n: usize = shape.iter().product();
    match o {
        Operand::Array(a) => {
            let st = layout::broadcast_strides(a.shape(), a.strides(), shape);
            a.view(shape.to_vec(), st, a.offset()).to_f64_vec().unwrap()
        }
        Operand::Int(i) => vec![*i as f64; n],
        Operand::Float(f) => vec![*f; n],
        Operand::Bool(b) => vec![*b as u8 as f64; n],
        Operand::Complex(..) => panic!("the walk draws real operands only"),
    }
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want.is_infinite() {
        return got == want;
    }
    (got - want).abs() <= tol * want.abs().max(1.0)
}

fn check_ew(name: &str, def: &EwDef, args: Vec<Operand>, what: &str) {
    let kinds: Vec<Kind> = args.iter().map(kind).collect();
    // Bitwise ops and shifts refuse floats, `-` refuses bool arrays (NumPy
    // too): a dtype error, on every path.
    let Ok((_, ok)) = result_kinds(name, def, &kinds, FX) else {
        let bools = kinds
            .iter()
            .all(|k| matches!(k, Kind::WeakBool | Kind::Strong(DType::Bool)));
        assert!(
            matches!(def.rule, Rule::Bitwise | Rule::Shift) || (def.rule == Rule::NoBool && bools),
            "{name} {what}: dtype rule failed"
        );
        let e = fuse::apply(name, args, FX).expect_err(&format!("{name} {what}: floats accepted"));
        assert_eq!(
            e.kind,
            gcalc_runtime::ErrorKind::DType,
            "{name} {what}: {e}"
        );
        return;
    };
    let mut shape: Vec<usize> = vec![];
    for a in &args {
        if let Operand::Array(x) = a {
            shape = layout::broadcast_shapes(&shape, x.shape(), name).unwrap();
        }
    }
    let ins: Vec<Vec<f64>> = args.iter().map(|a| values(a, &shape)).collect();
    let res = fuse::apply(name, args, FX).unwrap_or_else(|e| panic!("{name} {what}: {e}"));
    let (got, dt) = match &res {
        Operand::Array(a) => {
            assert_eq!(a.shape(), shape.as_slice(), "{name} {what}: shape");
            (a.to_f64_vec().unwrap(), a.dtype())
        }
        Operand::Int(i) => (vec![*i as f64], DType::Int64),
        Operand::Float(f) => (vec![*f], DType::Float64),
        Operand::Bool(b) => (vec![*b as u8 as f64], DType::Bool),
        Operand::Complex(..) => panic!("{name} {what}: a complex result from real operands"),
    };
    if let Kind::Strong(d) = ok {
        assert_eq!(dt, d, "{name} {what}: dtype");
    }
    let tol = dt.tolerance().max(1e-15);
    // All-bool operands have their own truth where the op says so (`~` is logical not).
    let all_bool = kinds
        .iter()
        .all(|k| matches!(k, Kind::WeakBool | Kind::Strong(DType::Bool)));
    // (Only where the result is bool: Python's own `True + True` is 2.)
    let reference = match def.bool_reference {
        Some(r) if all_bool && dt == DType::Bool => r,
        _ => def.reference,
    };
    for (i, &g) in got.iter().enumerate() {
        let a: Vec<f64> = ins.iter().map(|v| v[i]).collect();
        let want = match def.int_reference {
            Some(r) if !dt.is_float() && !all_bool => r(&a),
            _ => reference(&a),
        };
        let want = if dt == DType::Int32 {
            want as i64 as i32 as f64
        } else {
            want
        };
        assert!(
            close(g, want, tol),
            "{name} {what} {dt}: at {i} inputs {a:?}: got {g}, want {want}"
        );
    }
}

#[test]
fn every_elementwise_op_on_every_dtype_and_layout() {
    let mut r = Rng(0x9e3779b97f4a7c15);
    let mut count = 0;
    for op in ops::all() {
        let Some(def) = ew_def(op) else { continue };
        let name = op.name;
        let n = def.arity;
        for dev in devices() {
            for dt in DType::ALL {
                // Contiguous, same shape.
                let args = (0..n)
                    .map(|i| Operand::Array(mk(dev, &mut r, def.domain, i, dt, &[5, 7])))
                    .collect();
                check_ew(name, def, args, "contiguous");
                // Broadcast shapes.
                let shapes: [&[usize]; 3] = [&[4, 1, 5], &[3, 1], &[5]];
                let args = (0..n)
                    .map(|i| Operand::Array(mk(dev, &mut r, def.domain, i, dt, shapes[i])))
                    .collect();
                check_ew(name, def, args, "broadcast");
                // A transposed view first, then contiguous/broadcast operands.
                let args = (0..n)
                    .map(|i| {
                        if i == 0 {
                            let base = mk(dev, &mut r, def.domain, 0, dt, &[5, 6]);
                            Operand::Array(base.view(vec![6, 5], vec![1, 6], 0))
                        } else {
                            Operand::Array(mk(
                                dev,
                                &mut r,
                                def.domain,
                                i,
                                dt,
                                if i == 1 { &[6, 5] } else { &[5] },
                            ))
                        }
                    })
                    .collect();
                check_ew(name, def, args, "transposed");
                // A strided (every other element) view.
                let args = (0..n)
                    .map(|i| {
                        let base = mk(dev, &mut r, def.domain, i, dt, &[40]);
                        Operand::Array(base.view(vec![20], vec![2], 1))
                    })
                    .collect();
                check_ew(name, def, args, "strided");
                // 0-d arrays.
                let args = (0..n)
                    .map(|i| Operand::Array(mk(dev, &mut r, def.domain, i, dt, &[])))
                    .collect();
                check_ew(name, def, args, "0-d");
                // Weak scalars in each position, the rest arrays.
                for w in 0..n {
                    for weak in [DType::Int64, DType::Float64, DType::Bool] {
                        let args = (0..n)
                            .map(|i| {
                                if i == w {
                                    let v = sample(
                                        &mut r,
                                        def.domain,
                                        i,
                                        if weak == DType::Float64 { dt } else { weak },
                                    );
                                    match weak {
                                        DType::Int64 => Operand::Int(v as i64),
                                        DType::Bool => Operand::Bool(v != 0.0),
                                        _ => Operand::Float(v),
                                    }
                                } else {
                                    Operand::Array(mk(dev, &mut r, def.domain, i, dt, &[9]))
                                }
                            })
                            .collect();
                        check_ew(name, def, args, &format!("weak {weak} at {w}"));
                    }
                }
                count += 1;
            }
            // Scalars only: Python-style results (ints for the ops that take no floats).
            let args = (0..n)
                .map(|i| match def.rule {
                    Rule::Bitwise | Rule::Shift => {
                        Operand::Int(sample(&mut r, def.domain, i, DType::Int64) as i64)
                    }
                    _ => Operand::Float(sample(&mut r, def.domain, i, DType::Float64)),
                })
                .collect();
            check_ew(name, def, args, "scalars");
            if matches!(def.rule, Rule::Bitwise) {
                let args = (0..n).map(|i| Operand::Bool(i % 2 == 0)).collect();
                check_ew(name, def, args, "bool scalars");
            }
        }
    }
    assert!(count >= 40 * 6, "walked {count} op/dtype pairs");
}

/// Naive reductions over the f64 values of a (contiguous copy of an) array.
fn ref_reduce(op: ReduceOp, v: &[f64], ddof: f64) -> f64 {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - ddof);
    let first = |better: &dyn Fn(f64, f64) -> bool| {
        let mut bi = 0;
        for (i, &x) in v.iter().enumerate() {
            if better(x, v[bi]) {
                bi = i;
            }
        }
        bi as f64
    };
    match op {
        ReduceOp::Sum => v.iter().sum(),
        ReduceOp::Mean => mean,
        ReduceOp::Prod => v.iter().product(),
        ReduceOp::Max => v.iter().cloned().fold(f64::MIN, f64::max),
        ReduceOp::Min => v.iter().cloned().fold(f64::MAX, f64::min),
        ReduceOp::Argmax => first(&|x, b| x > b),
        ReduceOp::Argmin => first(&|x, b| x < b),
        ReduceOp::Var => var,
        ReduceOp::Std => var.sqrt(),
        ReduceOp::Any => v.iter().any(|&x| x != 0.0) as u8 as f64,
        ReduceOp::All => v.iter().all(|&x| x != 0.0) as u8 as f64,
        // The walk's data has no NaN: the nan* ops are the plain ones.
        ReduceOp::Nansum => ref_reduce(ReduceOp::Sum, v, ddof),
        ReduceOp::Nanmean => mean,
        ReduceOp::Nanmax => ref_reduce(ReduceOp::Max, v, ddof),
        ReduceOp::Nanmin => ref_reduce(ReduceOp::Min, v, ddof),
        ReduceOp::Nanstd => var.sqrt(),
        ReduceOp::Nanvar => var,
        ReduceOp::Nanargmax => first(&|x, b| x > b),
        ReduceOp::Nanargmin => first(&|x, b| x < b),
        ReduceOp::Ptp => ref_reduce(ReduceOp::Max, v, ddof) - ref_reduce(ReduceOp::Min, v, ddof),
        ReduceOp::CountNonzero => v.iter().filter(|&&x| x != 0.0).count() as f64,
    }
}

#[test]
fn every_reduction_on_every_dtype_and_axis() {
    let mut r = Rng(12345);
    for &op in ReduceOp::ALL {
        let name = op.name();
        let entry = ops::lookup(name).map(|d| d.reduce_op());
        assert_eq!(entry, Some(Some(op)), "{name} is in the table as {op:?}");
        for dt in DType::ALL {
            if op == ReduceOp::Ptp && dt == DType::Bool {
                continue; // an error, as in NumPy (bools have no subtraction)
            }
            let base = make(&mut r, Domain::Small, 0, dt, &[3, 4, 5]);
            let base = if dt.is_float() {
                base
            } else {
                make(&mut r, Domain::Power, 0, dt, &[3, 4, 5])
            };
            let views = [base.clone(), base.view(vec![5, 4, 3], vec![1, 5, 20], 0)];
            // Every device reduces the same views; the reference reads the host's.
            let on_devices = devices().into_iter().flat_map(|d| {
                let b = gcalc_runtime::backend::to_device(&base, d).unwrap();
                let dv = [b.clone(), b.view(vec![5, 4, 3], vec![1, 5, 20], 0)];
                views.clone().into_iter().zip(dv)
            });
            for (a, on_dev) in on_devices {
                let a = &a;
                let axes_list: Vec<Option<Vec<isize>>> =
                    vec![None, Some(vec![0]), Some(vec![-1]), Some(vec![0, 2])];
                for axes in axes_list {
                    if op.is_arg() && axes.as_ref().is_some_and(|a| a.len() > 1) {
                        continue;
                    }
                    for keep in [false, true] {
                        let got = reduce::reduce(op, &on_dev, axes.as_deref(), keep, FX).unwrap();
                        assert_eq!(got.device(), on_dev.device(), "{name} stays on its device");
                        let nd = a.ndim();
                        let red: Vec<usize> = match &axes {
                            None => (0..nd).collect(),
                            Some(ax) => ax
                                .iter()
                                .map(|&x| {
                                    if x < 0 {
                                        (x + nd as isize) as usize
                                    } else {
                                        x as usize
                                    }
                                })
                                .collect(),
                        };
                        let kept: Vec<usize> = (0..nd).filter(|d| !red.contains(d)).collect();
                        let oshape: Vec<usize> = kept.iter().map(|&d| a.shape()[d]).collect();
                        let want_shape: Vec<usize> = if keep {
                            (0..nd)
                                .map(|d| if red.contains(&d) { 1 } else { a.shape()[d] })
                                .collect()
                        } else {
                            oshape.clone()
                        };
                        assert_eq!(got.shape(), want_shape.as_slice(), "{name} {dt} {axes:?}");
                        let gv = got.to_f64_vec().unwrap();
                        let ko: Vec<usize> = layout::OffsetIter::new(
                            &oshape,
                            &kept.iter().map(|&d| a.strides()[d]).collect::<Vec<_>>(),
                            a.offset(),
                        )
                        .collect();
                        let rshape: Vec<usize> = red.iter().map(|&d| a.shape()[d]).collect();
                        let rst: Vec<isize> = red.iter().map(|&d| a.strides()[d]).collect();
                        let h = a.host_read().unwrap();
                        let tol = got.dtype().tolerance().max(1e-12) * 4.0;
                        for (i, &o) in ko.iter().enumerate() {
                            let v: Vec<f64> = layout::OffsetIter::new(&rshape, &rst, o)
                                .map(|k| h.get_f64(k))
                                .collect();
                            let want = ref_reduce(op, &v, 0.0);
                            let want = if got.dtype() == DType::Bool {
                                (want != 0.0) as u8 as f64
                            } else {
                                want
                            };
                            assert!(
                                close(gv[i], want, tol),
                                "{name} {dt} axes {axes:?}: got {} want {want}",
                                gv[i]
                            );
                        }
                        let want_dt = match op {
                            ReduceOp::Argmax
                            | ReduceOp::Argmin
                            | ReduceOp::Nanargmax
                            | ReduceOp::Nanargmin
                            | ReduceOp::CountNonzero => DType::Int64,
                            ReduceOp::Nansum if !dt.is_float() => DType::Int64,
                            ReduceOp::Nanmean | ReduceOp::Nanstd | ReduceOp::Nanvar
                                if !dt.is_float() =>
                            {
                                FX
                            }
                            ReduceOp::Nansum
                            | ReduceOp::Nanmean
                            | ReduceOp::Nanstd
                            | ReduceOp::Nanvar
                            | ReduceOp::Nanmax
                            | ReduceOp::Nanmin
                            | ReduceOp::Ptp => dt,
                            ReduceOp::Any | ReduceOp::All => DType::Bool,
                            ReduceOp::Sum | ReduceOp::Prod if !dt.is_float() => DType::Int64,
                            ReduceOp::Mean | ReduceOp::Std | ReduceOp::Var if !dt.is_float() => FX,
                            ReduceOp::Sum
                            | ReduceOp::Prod
                            | ReduceOp::Mean
                            | ReduceOp::Std
                            | ReduceOp::Var
                            | ReduceOp::Max
                            | ReduceOp::Min => dt,
                        };
                        assert_eq!(got.dtype(), want_dt, "{name} of {dt}");
                    }
                }
            }
        }
    }
}

#[test]
fn reductions_of_empty_arrays_on_every_device() {
    for shape in [vec![0usize], vec![3, 0], vec![0, 3], vec![2, 0, 4]] {
        let h = Array::from_vec(Vec::<f32>::new(), shape.clone());
        for &op in ReduceOp::ALL {
            let name = op.name();
            for axes in [None, Some(vec![0isize]), Some(vec![-1])] {
                let want = reduce::reduce(op, &h, axes.as_deref(), false, FX);
                for dev in devices() {
                    let a = gcalc_runtime::backend::to_device(&h, dev).unwrap();
                    let got = reduce::reduce(op, &a, axes.as_deref(), false, FX);
                    let what = format!("{name} of {shape:?} axes {axes:?} on {dev}");
                    match (&got, &want) {
                        (Ok(g), Ok(w)) => {
                            assert_eq!(g.device(), dev, "{what}");
                            assert_eq!(g.shape(), w.shape(), "{what}");
                            let (gv, wv) = (g.to_f64_vec().unwrap(), w.to_f64_vec().unwrap());
                            let same = gv
                                .iter()
                                .zip(&wv)
                                .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()));
                            assert!(same, "{what}: {gv:?} vs {wv:?}");
                        }
                        (Err(g), Err(w)) => assert_eq!(g.message, w.message, "{what}"),
                        _ => panic!("{what}: {:?} vs {:?}", got.err(), want.err()),
                    }
                }
            }
        }
    }
}

#[test]
fn linear_algebra_ops_against_naive_products() {
    let mut r = Rng(777);
    for name in ["matmul", "dot", "outer"] {
        assert!(ops::lookup(name).is_some(), "{name} is in the table");
    }
    let cases: [(&[usize], &[usize]); 6] = [
        (&[3, 4], &[4, 5]),
        (&[4], &[4, 5]),
        (&[3, 4], &[4]),
        (&[4], &[4]),
        (&[2, 1, 3, 4], &[5, 4, 2]),
        (&[70, 65], &[65, 80]),
    ];
    for dt in [
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Int32,
        DType::Int64,
    ] {
        for (sa, sb) in cases {
            let a = make(&mut r, Domain::Small, 0, dt, sa);
            let b = make(&mut r, Domain::Small, 0, dt, sb);
            let got = linalg::matmul(&a, &b).unwrap();
            assert_eq!(got.dtype(), dt);
            // Reference through explicit 2-D promotion and batch broadcasting.
            let a2 = if sa.len() == 1 {
                vec![1, sa[0]]
            } else {
                sa.to_vec()
            };
            let b2 = if sb.len() == 1 {
                vec![sb[0], 1]
            } else {
                sb.to_vec()
            };
            let (m, k, n) = (a2[a2.len() - 2], a2[a2.len() - 1], b2[b2.len() - 1]);
            let batch =
                layout::broadcast_shapes(&a2[..a2.len() - 2], &b2[..b2.len() - 2], "t").unwrap();
            let mut full_a = batch.clone();
            full_a.extend([m, k]);
            let mut full_b = batch.clone();
            full_b.extend([k, n]);
            let av = values(
                &Operand::Array(a.view(a2.clone(), layout::contiguous_strides(&a2), 0)),
                &full_a,
            );
            let bv = values(
                &Operand::Array(b.view(b2.clone(), layout::contiguous_strides(&b2), 0)),
                &full_b,
            );
            let gv = got.to_f64_vec().unwrap();
            let nb: usize = batch.iter().product();
            assert_eq!(gv.len(), nb * m * n);
            for bi in 0..nb {
                for i in 0..m {
                    for j in 0..n {
                        let (mut s, mut mag) = (0.0, 0.0);
                        for kk in 0..k {
                            let p = av[bi * m * k + i * k + kk] * bv[bi * k * n + kk * n + j];
                            s += p;
                            mag += p.abs();
                        }
                        let g = gv[bi * m * n + i * n + j];
                        let tol = dt.tolerance() * 4.0 * mag.max(1.0);
                        assert!(
                            (g - s).abs() <= tol,
                            "matmul {dt} {sa:?}@{sb:?}: got {g} want {s}"
                        );
                    }
                }
            }
        }
    }
    // A transposed operand is read in place.
    let a = make(&mut r, Domain::Small, 0, DType::Float64, &[4, 3]);
    let at = a.view(vec![3, 4], vec![1, 3], 0);
    let b = make(&mut r, Domain::Small, 0, DType::Float64, &[4, 2]);
    let got = linalg::matmul(&at, &b).unwrap().to_f64_vec().unwrap();
    let (av, bv) = (at.to_f64_vec().unwrap(), b.to_f64_vec().unwrap());
    for i in 0..3 {
        for j in 0..2 {
            let s: f64 = (0..4).map(|k| av[i * 4 + k] * bv[k * 2 + j]).sum();
            assert!((got[i * 2 + j] - s).abs() < 1e-12);
        }
    }
    // outer and dot
    let x = Array::from_vec(vec![1.0f32, 2.0, 3.0], vec![3]);
    let y = Array::from_vec(vec![4.0f32, 5.0], vec![2]);
    let o = linalg::outer(&x, &y, FX).unwrap();
    assert_eq!(o.shape(), &[3, 2]);
    assert_eq!(
        o.to_f64_vec().unwrap(),
        vec![4.0, 5.0, 8.0, 10.0, 12.0, 15.0]
    );
    let d = linalg::dot(Operand::Array(x.clone()), Operand::Array(x.clone()), FX).unwrap();
    let Operand::Array(d) = d else {
        panic!("dot gives an array")
    };
    assert_eq!(d.shape(), &[] as &[usize]);
    assert_eq!(d.to_f64_vec().unwrap(), vec![14.0]);
    let _ = EwNode::Leaf(Operand::Int(0));
}

#[test]
fn random_ops_astype_and_indexing_on_every_device() {
    use gcalc_runtime::array::index::Index;
    use gcalc_runtime::ops::random_ops as random;
    use gcalc_runtime::random::Rng as PhiloxRng;
    for name in ["rand", "randn", "uniform", "normal", "randint", "astype"] {
        assert!(ops::lookup(name).is_some(), "{name} is in the table");
    }
    // The same seed gives the CPU's numbers and generator state on every device.
    for dev in devices() {
        for dt in DType::ALL {
            let (mut rc, mut rd) = (PhiloxRng::default(), PhiloxRng::default());
            let draws: [&dyn Fn(&mut PhiloxRng, Device) -> Option<Array>; 4] = [
                &|r, d| random::uniform(r, -1.0, 3.0, &[5, 7], dt, d).ok(),
                &|r, d| random::normal(r, 0.5, 2.0, &[9], dt, d).ok(),
                &|r, d| random::randint(r, -5, 9, &[4, 3], dt, d).ok(),
                &|r, d| random::randint(r, i64::MIN, i64::MAX, &[6], dt, d).ok(),
            ];
            for (k, f) in draws.iter().enumerate() {
                let (want, got) = (f(&mut rc, Device::Cpu), f(&mut rd, dev));
                assert_eq!(want.is_some(), got.is_some(), "draw {k} of {dt} on {dev}");
                let (Some(want), Some(got)) = (want, got) else {
                    continue;
                };
                assert_eq!(got.device(), dev, "draw {k} of {dt}");
                let (gv, wv) = (got.to_f64_vec().unwrap(), want.to_f64_vec().unwrap());
                let tol = if k == 1 { dt.tolerance() } else { 0.0 };
                for (g, w) in gv.iter().zip(&wv) {
                    assert!(close(*g, *w, tol), "draw {k} of {dt} on {dev}: {g} vs {w}");
                }
                assert_eq!(rd, rc, "draw {k} of {dt} on {dev}: generator state");
            }
        }
    }
    let mut r = Rng(777);
    for dt in DType::ALL {
        let h = make(&mut r, Domain::Small, 0, dt, &[4, 5]);
        let idx = [
            Index::Array(Array::from_vec(vec![3i64, 0, 3, -1], vec![4])),
            Index::Slice {
                start: Some(1),
                stop: None,
                step: None,
            },
        ];
        let v = make(&mut r, Domain::Small, 0, dt, &[4]);
        let want_gather = h.index(&idx).unwrap().to_f64_vec().unwrap();
        let hc = h.copy().unwrap();
        hc.assign(&idx, &v).unwrap();
        for dev in devices() {
            let a = gcalc_runtime::backend::to_device(&h, dev).unwrap();
            let g = a.index(&idx).unwrap();
            assert_eq!(g.device(), dev, "x[idx, 1:] of {dt}");
            assert_eq!(
                g.to_f64_vec().unwrap(),
                want_gather,
                "x[idx, 1:] of {dt} on {dev}"
            );
            let ac = a.copy().unwrap();
            ac.assign(&idx, &gcalc_runtime::backend::to_device(&v, dev).unwrap())
                .unwrap();
            assert_eq!(ac.device(), dev);
            let (gv, wv) = (ac.to_f64_vec().unwrap(), hc.to_f64_vec().unwrap());
            assert_eq!(gv, wv, "x[idx, 1:] = v of {dt} on {dev}");
            for to in DType::ALL {
                let (got, want) = (a.astype(to).unwrap(), h.astype(to).unwrap());
                assert_eq!(got.device(), dev);
                let (gv, wv) = (got.to_f64_vec().unwrap(), want.to_f64_vec().unwrap());
                assert_eq!(gv, wv, "astype {dt} -> {to} on {dev}");
            }
        }
    }
}

/// NumPy's order: numbers ascending, nans last.
fn np_order(a: &f64, b: &f64) -> std::cmp::Ordering {
    a.is_nan()
        .cmp(&b.is_nan())
        .then(a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))
}

#[test]
fn every_sorting_op_on_every_device() {
    use gcalc_runtime::opid::SortOp;
    use gcalc_runtime::output::Captured;
    use gcalc_runtime::{Session, Value};
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    let mut call = |name: &str, args: Vec<Value>| {
        let f = ops::lookup(name).expect("in the op table");
        let v = s
            .interp()
            .call_value(Value::Builtin(f), args, vec![], Default::default());
        match v.unwrap_or_else(|e| panic!("{name}: {}", e.message)) {
            Value::Array(a) => vec![a],
            Value::Tuple(t) => t.iter().filter_map(|v| v.as_array().cloned()).collect(),
            v => panic!("{name}: gave {}", v.type_name()),
        }
    };
    // Rows of 30 float64 with ties, zeros of both signs and nans.
    let mut r = Rng(0x5027);
    let v: Vec<f64> = (0..600)
        .map(|i| match i % 53 {
            7 => f64::NAN,
            11 => -0.0,
            _ => (r.range(-4.0, 4.0) * 2.0).floor() / 2.0,
        })
        .collect();
    let x = Array::from_vec(v.clone(), vec![20, 30]);
    // The float64 reference: each row sorted in NumPy's order.
    let rows: Vec<Vec<f64>> = v
        .chunks(30)
        .map(|c| {
            let mut c = c.to_vec();
            c.sort_by(np_order);
            c
        })
        .collect();
    let sorted: Vec<f64> = rows.concat();
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(p, q)| p == q || (p.is_nan() && q.is_nan()))
    };
    let mut want: Vec<Vec<Vec<f64>>> = vec![];
    for dev in devices() {
        let xd = Value::Array(gcalc_runtime::backend::to_device(&x, dev).unwrap());
        let row0 = Value::Array(
            gcalc_runtime::backend::to_device(&Array::from_vec(rows[0].clone(), vec![30]), dev)
                .unwrap(),
        );
        for (k, &op) in SortOp::ALL.iter().enumerate() {
            let args = match op {
                SortOp::Partition | SortOp::Argpartition => vec![xd.clone(), Value::Int(7)],
                SortOp::Topk => vec![xd.clone(), Value::Int(4)],
                SortOp::Searchsorted => vec![row0.clone(), xd.clone()],
                SortOp::Isin => vec![xd.clone(), row0.clone()],
                _ => vec![xd.clone()],
            };
            let got = call(op.name(), args);
            let mut vals: Vec<Vec<f64>> = got
                .iter()
                .map(|a| {
                    assert_eq!(a.device(), dev, "{} on {dev}", op.name());
                    a.to_f64_vec().unwrap()
                })
                .collect();
            match op {
                SortOp::Sort => assert!(same(&vals[0], &sorted), "sort on {dev}"),
                SortOp::Argsort => {
                    let picked: Vec<f64> = vals[0]
                        .iter()
                        .enumerate()
                        .map(|(i, &p)| v[i / 30 * 30 + p as usize])
                        .collect();
                    assert!(same(&picked, &sorted), "argsort on {dev}");
                }
                // Only the kth elements are defined (the sides' order is not).
                SortOp::Partition => {
                    let kth: Vec<f64> = vals[0].iter().skip(7).step_by(30).copied().collect();
                    let want: Vec<f64> = rows.iter().map(|r| r[7]).collect();
                    assert!(same(&kth, &want), "partition on {dev}");
                    vals[0] = kth;
                }
                SortOp::Argpartition => {
                    let kth: Vec<f64> = vals[0]
                        .iter()
                        .skip(7)
                        .step_by(30)
                        .enumerate()
                        .map(|(r, &p)| v[r * 30 + p as usize])
                        .collect();
                    let want: Vec<f64> = rows.iter().map(|r| r[7]).collect();
                    assert!(same(&kth, &want), "argpartition on {dev}");
                    vals[0] = kth;
                }
                _ => {}
            }
            // Every device gives the CPU's results (devices() starts with the CPU).
            if dev == Device::Cpu {
                want.push(vals);
            } else {
                assert_eq!(vals.len(), want[k].len(), "{} on {dev}", op.name());
                for (g, w) in vals.iter().zip(&want[k]) {
                    assert!(same(g, w), "{} on {dev}: {g:?} vs {w:?}", op.name());
                }
            }
        }
    }
}
