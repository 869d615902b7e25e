//! The CUDA backend against float64 references computed on the host: transfers
//! of every dtype, fused elementwise kernels (vector, tail, broadcast, strided),
//! reductions (full, axis, determinism), cuBLAS matmul, Philox bits, custom
//! kernels, the kernel cache, the pool and out-of-memory. Skips visibly without
//! a GPU; fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_kernels::cuda::RedOp;
use gcalc_runtime::backend;
use gcalc_runtime::cuda::ew::{self, Expr};
use gcalc_runtime::cuda::{self, reduce};
use gcalc_runtime::{Array, DType, Device, ErrorKind};

use crate::gpu_util::{data, have_gpu};

const G: Device = Device::Gpu(0);

fn f32s(v: &[f64], shape: &[usize]) -> Array {
    Array::from_vec(v.iter().map(|&x| x as f32).collect(), shape.to_vec())
}

fn rel_err(got: &[f64], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len());
    let num: f64 = got.iter().zip(want).map(|(a, b)| (a - b) * (a - b)).sum();
    let den: f64 = want.iter().map(|b| b * b).sum();
    assert!(got.iter().all(|x| !x.is_nan()), "NaN in result");
    (num / den.max(1e-300)).sqrt()
}

fn op(t: &'static str, d: DType, args: Vec<Expr>) -> Expr {
    Expr::Op {
        template: t.into(),
        compute: d,
        result: d,
        args,
    }
}

#[test]
fn devices_and_transfers_of_every_dtype() {
    if !have_gpu() {
        return;
    }
    let text = cuda::info::devices_text();
    assert!(text.contains("compute capability"), "{text}");
    println!("{text}");
    let v = data(1000, 1, -5.0, 5.0);
    for d in DType::ALL {
        let h = gcalc_runtime::with_dtype!(d, T => Array::from_vec(v.iter().map(|&x| <T as gcalc_runtime::Element>::from_f64(x)).collect::<Vec<T>>(), vec![10, 100]));
        let g = backend::copy_to_device(&h, G).unwrap();
        assert_eq!(g.device(), G);
        assert!(backend::to_device(&g, G).unwrap().same_as(&g));
        let back = g.to_host().unwrap();
        assert_eq!(back.to_f64_vec().unwrap(), h.to_f64_vec().unwrap(), "{d}");
        // A transposed view downloads through the strided copy kernel.
        let t = g.view(vec![100, 10], vec![1, 100], 0);
        let ht = h.view(vec![100, 10], vec![1, 100], 0);
        assert_eq!(
            t.to_f64_vec().unwrap(),
            ht.to_f64_vec().unwrap(),
            "{d} transposed"
        );
        // copyto on the same GPU copies.
        let c = backend::copy_to_device(&g, G).unwrap();
        assert!(!c.shares_buffer(&g));
        assert_eq!(c.to_f64_vec().unwrap(), h.to_f64_vec().unwrap());
    }
}

#[test]
fn fused_elementwise_matches_float64() {
    if !have_gpu() {
        return;
    }
    for n in [1usize, 3, 4, 5, 1023, 1027, 1 << 20] {
        let z = data(n, 2, -2.0, 2.0);
        let y = data(n, 3, -1.0, 1.0);
        let (gz, gy) = (
            backend::copy_to_device(&f32s(&z, &[n]), G).unwrap(),
            backend::copy_to_device(&f32s(&y, &[n]), G).unwrap(),
        );
        let e = op(
            "{0} * {1}",
            DType::Float32,
            vec![
                op(
                    "exp({0})",
                    DType::Float32,
                    vec![op(
                        "{0} + {1}",
                        DType::Float32,
                        vec![Expr::Array(gz.clone()), Expr::Float(2.0, DType::Float32)],
                    )],
                ),
                Expr::Array(gy.clone()),
            ],
        );
        let r = ew::eval(&e, DType::Float32, None, None).unwrap();
        let want: Vec<f64> = z.iter().zip(&y).map(|(a, b)| (a + 2.0).exp() * b).collect();
        let err = rel_err(&r.to_f64_vec().unwrap(), &want);
        assert!(err < 1e-6, "n={n} err={err}");
        // Misaligned start (offset 1): the scalar path.
        if n > 8 {
            let v = gz.view(vec![n - 1], vec![1], 1);
            let r = ew::eval(
                &op("sqrt({0} * {0})", DType::Float32, vec![Expr::Array(v)]),
                DType::Float32,
                None,
                None,
            )
            .unwrap();
            let want: Vec<f64> = z[1..].iter().map(|a| a.abs()).collect();
            assert!(rel_err(&r.to_f64_vec().unwrap(), &want) < 1e-6);
        }
    }
}

#[test]
fn broadcast_strided_mixed_dtypes_and_comparisons() {
    if !have_gpu() {
        return;
    }
    let a = data(3 * 5, 4, -3.0, 3.0);
    let b = data(4 * 5, 5, -3.0, 3.0);
    let ga = backend::copy_to_device(&Array::from_vec(a.clone(), vec![3, 1, 5]), G).unwrap();
    let gb = backend::copy_to_device(&f32s(&b, &[4, 5]), G).unwrap();
    // float64 (3,1,5) + float32 (4,5) transposed twice -> (3,4,5) float64
    let e = op(
        "{0} * {1}",
        DType::Float64,
        vec![Expr::Array(ga.clone()), Expr::Array(gb.clone())],
    );
    let r = ew::eval(&e, DType::Float64, None, None).unwrap();
    assert_eq!(r.shape(), &[3, 4, 5]);
    let got = r.to_f64_vec().unwrap();
    for i in 0..3 {
        for j in 0..4 {
            for k in 0..5 {
                let want = a[i * 5 + k] * (b[j * 5 + k] as f32 as f64);
                assert!((got[(i * 4 + j) * 5 + k] - want).abs() < 1e-12);
            }
        }
    }
    // Transposed view operand + comparison giving bool.
    let t = gb.view(vec![5, 4], vec![1, 5], 0);
    let c = Expr::Op {
        template: "{0} < {1}".into(),
        compute: DType::Float32,
        result: DType::Bool,
        args: vec![Expr::Array(t), Expr::Float(0.5, DType::Float32)],
    };
    let r = ew::eval(&c, DType::Bool, None, None).unwrap();
    assert_eq!(r.dtype(), DType::Bool);
    let got = r.to_f64_vec().unwrap();
    for i in 0..5 {
        for j in 0..4 {
            assert_eq!(got[i * 4 + j], ((b[j * 5 + i] as f32) < 0.5) as u8 as f64);
        }
    }
    // float16 in, float16 out; int64 arithmetic; full and zeros; astype.
    let h = backend::copy_to_device(
        &Array::from_vec(
            a.iter().map(|&x| half::f16::from_f64(x)).collect(),
            vec![15],
        ),
        G,
    )
    .unwrap();
    let r = ew::eval(
        &op("{0} * {0}", DType::Float32, vec![Expr::Array(h)]),
        DType::Float16,
        None,
        None,
    )
    .unwrap();
    for (g, x) in r.to_f64_vec().unwrap().iter().zip(&a) {
        let xh = half::f16::from_f64(*x).to_f64();
        assert!((g - xh * xh).abs() <= 1e-2 * (xh * xh).max(1.0));
    }
    let gi =
        backend::copy_to_device(&Array::from_vec((0..100i64).collect(), vec![100]), G).unwrap();
    let r = ew::eval(
        &op(
            "{0} * {1} + 7",
            DType::Int64,
            vec![Expr::Array(gi.clone()), Expr::Int(3, DType::Int64)],
        ),
        DType::Int64,
        None,
        None,
    )
    .unwrap();
    assert_eq!(
        r.to_f64_vec().unwrap(),
        (0..100).map(|i| (i * 3 + 7) as f64).collect::<Vec<_>>()
    );
    let f = ew::full(&[2, 3], 2.5, DType::Float32, 0).unwrap();
    assert_eq!(f.to_f64_vec().unwrap(), vec![2.5; 6]);
    let z = ew::zeros(&[7], DType::Int32, 0).unwrap();
    assert_eq!(z.to_f64_vec().unwrap(), vec![0.0; 7]);
    let c = ew::copy(&gi, DType::Float32).unwrap();
    assert_eq!(c.dtype(), DType::Float32);
    assert_eq!(c.to_f64_vec().unwrap()[99], 99.0);
}

#[test]
fn reductions_full_axis_deterministic() {
    if !have_gpu() {
        return;
    }
    let n = 10_000_000 + 3;
    let x = data(n, 6, -1.0, 1.0);
    let gx = backend::copy_to_device(&f32s(&x, &[n]), G).unwrap();
    let s1 = reduce::reduce(
        &gx,
        RedOp::Sum,
        None,
        false,
        reduce::default_out(RedOp::Sum, gx.dtype()),
    )
    .unwrap()
    .to_f64_vec()
    .unwrap()[0];
    let s2 = reduce::reduce(
        &gx,
        RedOp::Sum,
        None,
        false,
        reduce::default_out(RedOp::Sum, gx.dtype()),
    )
    .unwrap()
    .to_f64_vec()
    .unwrap()[0];
    let want: f64 = x.iter().map(|&v| v as f32 as f64).sum();
    assert_eq!(s1.to_bits(), s2.to_bits(), "sum must be deterministic");
    assert!(
        (s1 - want).abs() < 1e-3 * (n as f64).sqrt(),
        "sum {s1} want {want}"
    );
    let mx = reduce::reduce(
        &gx,
        RedOp::Max,
        None,
        false,
        reduce::default_out(RedOp::Max, gx.dtype()),
    )
    .unwrap()
    .to_f64_vec()
    .unwrap()[0];
    let wmx = x.iter().map(|&v| v as f32 as f64).fold(f64::MIN, f64::max);
    assert_eq!(mx, wmx);
    // Axis reductions of a (37, 1029) float64 matrix.
    let (r, c) = (37, 1029);
    let m = data(r * c, 7, -2.0, 2.0);
    let gm = backend::copy_to_device(&Array::from_vec(m.clone(), vec![r, c]), G).unwrap();
    let s0 = reduce::reduce(
        &gm,
        RedOp::Sum,
        Some(&[0]),
        false,
        reduce::default_out(RedOp::Sum, gm.dtype()),
    )
    .unwrap();
    assert_eq!(s0.shape(), &[c]);
    let w0: Vec<f64> = (0..c).map(|j| (0..r).map(|i| m[i * c + j]).sum()).collect();
    assert!(rel_err(&s0.to_f64_vec().unwrap(), &w0) < 1e-12);
    let s1 = reduce::reduce(
        &gm,
        RedOp::Min,
        Some(&[1]),
        true,
        reduce::default_out(RedOp::Min, gm.dtype()),
    )
    .unwrap();
    assert_eq!(s1.shape(), &[r, 1]);
    let w1: Vec<f64> = (0..r)
        .map(|i| {
            m[i * c..(i + 1) * c]
                .iter()
                .cloned()
                .fold(f64::MAX, f64::min)
        })
        .collect();
    assert_eq!(s1.to_f64_vec().unwrap(), w1);
    // Transposed view, and an int sum.
    let t = gm.view(vec![c, r], vec![1, c as isize], 0);
    let st = reduce::reduce(
        &t,
        RedOp::Sum,
        Some(&[1]),
        false,
        reduce::default_out(RedOp::Sum, t.dtype()),
    )
    .unwrap();
    assert!(rel_err(&st.to_f64_vec().unwrap(), &w0) < 1e-12);
    let gi =
        backend::copy_to_device(&Array::from_vec((0..1000i32).collect(), vec![1000]), G).unwrap();
    let si = reduce::reduce(
        &gi,
        RedOp::Sum,
        None,
        false,
        reduce::default_out(RedOp::Sum, gi.dtype()),
    )
    .unwrap();
    assert_eq!(si.dtype(), DType::Int64);
    assert_eq!(si.to_f64_vec().unwrap(), vec![499500.0]);
}

#[test]
fn matmul_through_cublas() {
    if !have_gpu() {
        return;
    }
    let (m, k, n) = (65, 130, 33);
    let a = data(m * k, 8, -1.0, 1.0);
    let b = data(k * n, 9, -1.0, 1.0);
    let want: Vec<f64> = (0..m)
        .flat_map(|i| {
            let (a, b) = (&a, &b);
            (0..n).map(move |j| (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum())
        })
        .collect();
    for d in [DType::Float32, DType::Float64] {
        let ha = gcalc_runtime::with_dtype!(d, T => Array::from_vec(a.iter().map(|&x| <T as gcalc_runtime::Element>::from_f64(x)).collect::<Vec<T>>(), vec![m, k]));
        let hb = gcalc_runtime::with_dtype!(d, T => Array::from_vec(b.iter().map(|&x| <T as gcalc_runtime::Element>::from_f64(x)).collect::<Vec<T>>(), vec![k, n]));
        let (ga, gb) = (
            backend::copy_to_device(&ha, G).unwrap(),
            backend::copy_to_device(&hb, G).unwrap(),
        );
        let c = cuda::blas::matmul(&ga, &gb).unwrap();
        assert_eq!(c.shape(), &[m, n]);
        let err = rel_err(&c.to_f64_vec().unwrap(), &want);
        assert!(
            err < if d == DType::Float32 { 1e-5 } else { 1e-13 },
            "{d} err {err}"
        );
        // (A^T)^T through transpose flags: at = view of a^T stored as (k, m)?
        let hat = gcalc_runtime::with_dtype!(d, T => Array::from_vec((0..k * m).map(|idx| { let (p, i) = (idx / m, idx % m); <T as gcalc_runtime::Element>::from_f64(a[i * k + p]) }).collect::<Vec<T>>(), vec![k, m]));
        let gat = backend::copy_to_device(&hat, G).unwrap();
        let at_t = gat.view(vec![m, k], vec![1, m as isize], 0);
        let c2 = cuda::blas::matmul(&at_t, &gb).unwrap();
        assert!(rel_err(&c2.to_f64_vec().unwrap(), &want) < 1e-5);
    }
    // Batched with a broadcast operand: (4, m, k) @ (k, n).
    let ab: Vec<f64> = (0..4).flat_map(|_| a.clone()).collect();
    let ga = backend::copy_to_device(&f32s(&ab, &[4, m, k]), G).unwrap();
    let gb = backend::copy_to_device(&f32s(&b, &[k, n]), G).unwrap();
    let c = cuda::blas::matmul(&ga, &gb).unwrap();
    assert_eq!(c.shape(), &[4, m, n]);
    let wb: Vec<f64> = (0..4).flat_map(|_| want.clone()).collect();
    assert!(rel_err(&c.to_f64_vec().unwrap(), &wb) < 1e-5);
}

/// Philox 4x32-10 as runtime/src/random.rs documents it (the CPU stream).
fn philox(mut ctr: [u32; 4], mut key: [u32; 2]) -> [u32; 4] {
    for round in 0..10 {
        if round > 0 {
            key = [
                key[0].wrapping_add(0x9E37_79B9),
                key[1].wrapping_add(0xBB67_AE85),
            ];
        }
        let p0 = 0xD251_1F53u64 * ctr[0] as u64;
        let p1 = 0xCD9E_8D57u64 * ctr[2] as u64;
        ctr = [
            ((p1 >> 32) as u32) ^ ctr[1] ^ key[0],
            p1 as u32,
            ((p0 >> 32) as u32) ^ ctr[3] ^ key[1],
            p0 as u32,
        ];
    }
    ctr
}

#[test]
fn philox_on_the_gpu_gives_the_cpu_bits() {
    if !have_gpu() {
        return;
    }
    let mut rng = gcalc_runtime::random::Rng {
        key: 22,
        counter: 5,
    };
    let n = 1001;
    let r = cuda::rng::draw(&mut rng, &[n], DType::Float32, false, 0.0, 1.0, 0).unwrap();
    assert_eq!(rng.counter, 5 + (n as u64).div_ceil(4));
    let got = r.to_f64_vec().unwrap();
    for (i, g) in got.iter().enumerate() {
        let c = 5 + (i / 4) as u64;
        let w = philox([c as u32, (c >> 32) as u32, 0, 0], [22, 0])[i % 4];
        let want = (w >> 8) as f64 / 16_777_216.0;
        assert_eq!(*g, want as f32 as f64, "element {i}");
    }
    let mut rng = gcalc_runtime::random::Rng { key: 7, counter: 0 };
    let z = cuda::rng::draw(&mut rng, &[100_001], DType::Float64, true, 0.0, 1.0, 0).unwrap();
    let v = z.to_f64_vec().unwrap();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
    assert!(
        mean.abs() < 0.02 && (var - 1.0).abs() < 0.02,
        "mean {mean} var {var}"
    );
    assert_eq!(rng.counter, 100_001u64.div_ceil(2) * 4 / 4);
}

#[test]
fn custom_kernels_compile_launch_and_check_arguments() {
    if !have_gpu() {
        return;
    }
    let src = "extern \"C\" __global__ void multiply_them(float *dest, float *a, float *b, float s) {\n  const int i = threadIdx.x;\n  dest[i] = a[i] * b[i] * s;\n}\n";
    let m = gcalc_runtime::builtins::cuda_module::cuda_module(src, G).unwrap();
    let gcalc_runtime::Value::Object(o) = &m else {
        panic!("not an object")
    };
    let k = o.attr("multiply_them").expect("kernel attribute");
    let a = data(400, 10, -1.0, 1.0);
    let b = data(400, 11, -1.0, 1.0);
    let (ga, gb) = (
        backend::copy_to_device(&f32s(&a, &[400]), G).unwrap(),
        backend::copy_to_device(&f32s(&b, &[400]), G).unwrap(),
    );
    let dest = ew::zeros(&[400], DType::Float32, 0).unwrap();
    let mut interp = gcalc_runtime::interp::Interp::new(
        Default::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    let span = Default::default();
    let call = |args: Vec<gcalc_runtime::Value>, interp: &mut gcalc_runtime::interp::Interp| {
        let kw = vec![
            (
                "block".to_string(),
                gcalc_runtime::Value::tuple(vec![
                    gcalc_runtime::Value::Int(400),
                    gcalc_runtime::Value::Int(1),
                    gcalc_runtime::Value::Int(1),
                ]),
            ),
            (
                "grid".to_string(),
                gcalc_runtime::Value::tuple(vec![
                    gcalc_runtime::Value::Int(1),
                    gcalc_runtime::Value::Int(1),
                ]),
            ),
        ];
        let gcalc_runtime::Value::Object(ko) = &k else {
            panic!()
        };
        ko.call(
            interp,
            gcalc_runtime::interp::Args::new("kernel", args, kw, span),
        )
    };
    use gcalc_runtime::Value as V;
    assert!(
        call(
            vec![
                V::Array(dest.clone()),
                V::Array(ga.clone()),
                V::Array(gb.clone()),
                V::Float(2.0)
            ],
            &mut interp
        )
        .is_ok()
    );
    let want: Vec<f64> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (*x as f32 as f64) * (*y as f32 as f64) * 2.0)
        .collect();
    assert!(rel_err(&dest.to_f64_vec().unwrap(), &want) < 1e-6);
    // Wrong count and wrong dtype: errors before launch.
    let e = call(vec![V::Array(dest.clone())], &mut interp)
        .err()
        .expect("count error");
    assert!(
        e.message.contains("takes 4 arguments but 1 were given"),
        "{}",
        e.message
    );
    let g64 = backend::copy_to_device(&Array::from_vec(a.clone(), vec![400]), G).unwrap();
    let e = call(
        vec![
            V::Array(dest.clone()),
            V::Array(g64),
            V::Array(gb.clone()),
            V::Float(2.0),
        ],
        &mut interp,
    )
    .err()
    .expect("dtype error");
    assert!(e.message.contains("float32"), "{}", e.message);
    // A compile error shows NVRTC's message and the source line.
    let e = gcalc_runtime::builtins::cuda_module::cuda_module(
        "extern \"C\" __global__ void k(float *d) {\n  d[0] = undefined_name;\n}\n",
        G,
    )
    .err()
    .expect("compile error");
    assert_eq!(e.kind, ErrorKind::Kernel);
    assert!(
        e.message.contains("undefined_name") && e.message.contains("2 |"),
        "{}",
        e.message
    );
}

#[test]
fn kernel_cache_on_disk_is_checked() {
    if !have_gpu() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gcalc-cache-test-{}", std::process::id()));
    // SAFETY: set before any other test reads XDG_CACHE_HOME in this process? Others use the same
    // cache root harmlessly; this test only looks at its own source's file.
    unsafe { std::env::set_var("XDG_CACHE_HOME", &dir) };
    let g = cuda::gpu(0).unwrap();
    let src = format!(
        "extern \"C\" __global__ void cache_probe_{}(float* x) {{ x[0] = 1.0f; }}",
        std::process::id()
    );
    let t0 = std::time::Instant::now();
    let a = cuda::compile::cubin(&g, &src, &[], "probe").unwrap();
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let files: Vec<_> = std::fs::read_dir(dir.join("gcalc/kernels"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cubin"))
        .collect();
    assert!(!files.is_empty());
    let t1 = std::time::Instant::now();
    let b = cuda::compile::cubin(&g, &src, &[], "probe").unwrap();
    let load_ms = t1.elapsed().as_secs_f64() * 1e3;
    assert_eq!(a, b);
    let t2 = std::time::Instant::now();
    let m = cuda::compile::load_module(&g, &b).unwrap();
    let module_ms = t2.elapsed().as_secs_f64() * 1e3;
    let _ = m;
    println!(
        "kernel cache: NVRTC compile {compile_ms:.1} ms, cached read+check {load_ms:.3} ms, module load {module_ms:.3} ms"
    );
    // Corrupt every cached file: the next request recompiles and still works.
    for f in &files {
        std::fs::write(f, b"garbage that fails the checksum").unwrap();
    }
    let c = cuda::compile::cubin(&g, &src, &[], "probe").unwrap();
    assert_eq!(c, a);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pool_follows_allow_gc_and_out_of_memory_is_an_error() {
    if !have_gpu() {
        return;
    }
    let g = cuda::gpu(0).unwrap();
    // Asking for far more than any GPU has: an OutOfMemory error, and the session goes on.
    let e = cuda::DeviceBuffer::alloc(&g, DType::Float64, 1usize << 46)
        .err()
        .expect("oom");
    assert_eq!(e.kind, ErrorKind::OutOfMemory, "{}", e.message);
    assert!(e.message.contains("free of"), "{}", e.message);
    let ok = ew::full(&[1000], 1.0, DType::Float32, 0).unwrap();
    assert_eq!(ok.to_f64_vec().unwrap()[999], 1.0);
    let text = cuda::info::mem_text().unwrap();
    assert!(text.contains("in use") && text.contains("peak"), "{text}");
    println!("{text}");
}

/// float64 -> float16 on the GPU rounds once, to nearest even (NumPy's
/// rule, and the CPU's): values just off a float16 tie would come out one
/// step wrong if the kernel went through float32 first. Compared bit for
/// bit with the CPU cast, for plain copies and for a fused expression.
#[test]
fn float64_to_float16_cast_rounds_once_like_the_cpu() {
    if !have_gpu() {
        return;
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut values = Vec::new();
    for _ in 0..100_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let b = ((state & 0x7fff) % 0x7bff) as u16;
        let h = half::f16::from_bits(b).to_f64();
        let step = half::f16::from_bits(b + 1).to_f64() - h;
        // Just above a tie: float32 rounds it onto the tie, float16 then to even.
        let v = h + step * (0.5 + 2f64.powi(-30));
        values.push(if state >> 63 == 1 { -v } else { v });
    }
    let n = values.len();
    let h = Array::from_vec(values, vec![n]);
    let want = backend::copy::cast(&h, DType::Float16).unwrap();
    let g = backend::copy_to_device(&h, G).unwrap();
    let got = backend::copy::cast(&g, DType::Float16).unwrap();
    let (w, gv) = (want.to_f64_vec().unwrap(), got.to_f64_vec().unwrap());
    let bad = w
        .iter()
        .zip(&gv)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    assert_eq!(
        bad, 0,
        "{bad} of {n} float16 values differ from the CPU's cast"
    );
}
