//! Every CUDA kernel source gcalc generates or ships, compiled with NVRTC
//! for sm_90, the options the backend uses: every elementwise op of the table
//! on every input dtype through the real lowering (flat, and under another op
//! so the rounding casts appear; contiguous, vectorised, strided; fused sums),
//! copies and casts between every pair of dtypes, fills, the backend's own
//! std/var/mean expressions, the reductions (each op, input and output dtype
//! it can be asked for), argmax/argmin, indexing, Philox, matrix-vector
//! and sorting sources. No GPU or driver is needed, only libnvrtc:
//!
//! `LD_LIBRARY_PATH=/work/nvrtc/lib CUDA_HOME=/work/nvrtc cargo test -p gcalc-runtime --test gpu nvrtc -- --nocapture`
//!
//! Skips visibly without NVRTC; fails instead when GCALC_REQUIRE_NVRTC=1.
//! Sources are compiled in batches (each kernel renamed, in its own
//! namespace, after one copy of the prelude); a batch that fails is
//! compiled kernel by kernel, so a failure names the kernel and NVRTC's log.

use gcalc_kernels::cuda::{self as kc, RedOp};
use gcalc_runtime::cuda::ew::Expr;
use gcalc_runtime::cuda::{self, compile, stats};
use gcalc_runtime::opid::AtOp;
use gcalc_runtime::ops::elementwise::ew_def;
use gcalc_runtime::ops::fuse::{self, EwNode, Operand};
use gcalc_runtime::{Array, DType, Element};
use std::collections::BTreeSet;

const FX: DType = DType::Float32;
/// Merged dims of the strided variants (a few, as most strided views have).
const NDIM: usize = 3;
/// Kernels per translation unit.
const BATCH: usize = 40;

fn nvrtc() -> bool {
    match compile::nvrtc_version() {
        Ok((a, b)) => {
            println!("NVRTC {a}.{b}: compiling for sm_90");
            true
        }
        Err(e) => {
            if std::env::var("GCALC_REQUIRE_NVRTC").as_deref() == Ok("1") {
                panic!("GCALC_REQUIRE_NVRTC=1 but NVRTC is unusable: {}", e.message);
            }
            println!(
                "SKIPPED: NVRTC not found ({}); run with LD_LIBRARY_PATH=<cuda>/lib CUDA_HOME=<cuda>",
                e.message
            );
            false
        }
    }
}

/// A contiguous host array of `d` (the lowering and the generator read only
/// dtypes, shapes and strides; the values never reach a kernel here).
fn leaf(d: DType) -> EwNode {
    let a = gcalc_runtime::with_dtype!(d, T => Array::from_vec((1..=4).map(T::from_i64).collect::<Vec<T>>(), vec![4]));
    EwNode::Leaf(Operand::Array(a))
}

/// The sources of the elementwise table: each op on each input dtype, its
/// operands plain, then with a weak scalar, then with the first under `add`.
fn elementwise(out: &mut Vec<(String, String)>) -> usize {
    let add = gcalc_runtime::ops::lookup("add").expect("add");
    let mut trees = 0;
    for op in gcalc_runtime::ops::all() {
        let Some(def) = ew_def(op) else { continue };
        for d in DType::ALL {
            for variant in 0..3 {
                let args: Vec<EwNode> = (0..def.arity)
                    .map(|i| match (variant, i) {
                        (1, i) if i + 1 == def.arity && def.arity > 1 => {
                            EwNode::Leaf(Operand::Float(0.5))
                        }
                        (2, 0) => EwNode::Op {
                            op: add,
                            args: vec![leaf(d), leaf(d)],
                        },
                        _ => leaf(d),
                    })
                    .collect();
                let tree = EwNode::Op { op, args };
                let Ok(p) = fuse::program(&tree, FX) else {
                    continue;
                };
                let e = cuda::fuse::expr(&p).expect("expression of a program");
                trees += 1;
                for (what, src) in cuda::ew::sources(&e, p.out, NDIM) {
                    out.push((
                        format!("{} of {d} (variant {variant}) {what}", op.name),
                        src,
                    ));
                }
            }
        }
    }
    trees
}

fn gpu_array(d: DType) -> Expr {
    let a = gcalc_runtime::with_dtype!(d, T => Array::from_vec(vec![T::from_i64(1); 4], vec![4]));
    Expr::Array(a)
}

/// Copies and casts (an expression of one array), fills (of one scalar),
/// and the backend's own float64 expressions (std/var, mean).
fn copies_fills_stats(out: &mut Vec<(String, String)>) {
    for from in DType::ALL {
        for to in DType::ALL {
            for (what, src) in cuda::ew::sources(&gpu_array(from), to, NDIM) {
                out.push((format!("copy {from} -> {to} {what}"), src));
            }
        }
    }
    for d in DType::ALL {
        for e in [Expr::Float(2.5, d), Expr::Int(3, d)] {
            for (what, src) in cuda::ew::sources(&e, d, NDIM) {
                out.push((format!("fill {d} {what}"), src));
            }
        }
    }
    let f64_op = |t: &'static str, args: Vec<Expr>| Expr::Op {
        template: t.into(),
        compute: DType::Float64,
        result: DType::Float64,
        args,
    };
    let n = || Expr::Float(7.0, DType::Float64);
    let x = || gpu_array(DType::Float64);
    let exprs = [
        (
            "squared deviation",
            f64_op(stats::SQUARED_DEVIATION, vec![x(), x(), n()]),
        ),
        ("divide", f64_op(stats::DIVIDE, vec![x(), n()])),
        ("sqrt divide", f64_op(stats::SQRT_DIVIDE, vec![x(), n()])),
    ];
    for (name, e) in exprs {
        for out_dt in DType::ALL.into_iter().filter(|d| d.is_float()) {
            for (what, src) in cuda::ew::sources(&e, out_dt, NDIM) {
                out.push((format!("{name} to {out_dt} {what}"), src));
            }
        }
    }
}

/// Reductions (every op, input dtype, and output dtype the backend asks
/// for), argmax/argmin, and the fixed modules.
fn shipped(out: &mut Vec<(String, String)>) {
    for op in [RedOp::Sum, RedOp::Prod, RedOp::Max, RedOp::Min] {
        for d in DType::ALL {
            let outs: BTreeSet<DType> = [
                cuda::reduce::default_out(op, d),
                kc::reduce_acc(op, d),
                DType::Float64,
                DType::Int64,
                d,
            ]
            .into_iter()
            .collect();
            for o in outs {
                out.push((
                    format!("reduce {op:?} {d} -> {o}"),
                    kc::reduce_source(op, d, o),
                ));
            }
        }
    }
    for max in [true, false] {
        for d in DType::ALL {
            out.push((
                format!("argreduce max={max} {d}"),
                kc::argreduce_source(max, d),
            ));
        }
    }
    out.push(("index".into(), kc::INDEX.to_string()));
    out.push(("mask".into(), kc::MASK.to_string()));
    for t in DType::ALL {
        for c in DType::ALL {
            for &op in AtOp::ALL {
                out.push((
                    format!("{} {t} in {c}", op.name()),
                    cuda::index::at_source(t, c, op),
                ));
            }
        }
    }
    out.push(("philox".into(), kc::philox_source()));
    out.push(("random draws".into(), kc::draws_source()));
    out.push(("gemv".into(), kc::GEMV.to_string()));
    crate::gpu_stats::nvrtc_sources(out);
    out.extend(kc::sort::sources());
    out.push(("assemble".into(), kc::ASSEMBLE.to_string()));
    out.push(("linalg".into(), kc::LINALG.to_string()));
    complex_sources(out);
}

/// The complex kernels: every `CxOp` on complex64 and complex128 operands
/// (and real, bool and scalar ones beside them), the copies and casts, the
/// reductions, and the FFT's gather for every input and compute dtype.
fn complex_sources(out: &mut Vec<(String, String)>) {
    use gcalc_runtime::opid::{CxOp, CxOut};
    for &op in CxOp::ALL {
        for d in DType::COMPLEX {
            let o = match op.out() {
                CxOut::Complex => d,
                CxOut::Real => d.real_part(),
                CxOut::Bool => DType::Bool,
            };
            let k = op.arity();
            let mixes: [Vec<Option<DType>>; 3] = [
                vec![Some(d); k],
                (0..k).map(|j| (j > 0).then_some(d)).collect(),
                (0..k)
                    .map(|j| Some(if j == 0 { DType::Bool } else { DType::Float32 }))
                    .collect(),
            ];
            for ins in mixes {
                out.push((
                    format!("complex {} {ins:?} -> {o}", op.name()),
                    cuda::complex::op_source(op, &ins, o),
                ));
            }
        }
    }
    for a in DType::ALL {
        for b in DType::COMPLEX {
            out.push((
                format!("complex copy {a} -> {b}"),
                cuda::complex::op_source(CxOp::Real, &[Some(a)], b),
            ));
            out.push((
                format!("complex copy {b} -> {a}"),
                cuda::complex::op_source(CxOp::Conj, &[Some(b)], a),
            ));
            out.push((
                format!("fft gather {a} -> {b}"),
                cuda::fft::pad_source(a, b),
            ));
            out.push((
                format!("fft gather {a} -> {}", b.real_part()),
                cuda::fft::pad_source(a, b.real_part()),
            ));
        }
    }
    for d in DType::COMPLEX {
        out.push((
            format!("complex rows {d}"),
            cuda::complex::rows_source(d, d),
        ));
    }
}

/// One translation unit of several generated kernels: the prelude once,
/// each kernel (prelude removed, renamed) in its own namespace.
fn batch_source(items: &[&(String, String)], k0: usize) -> Option<String> {
    let mut s = String::from(kc::PRELUDE);
    for (k, (_, src)) in items.iter().enumerate() {
        let body = src.strip_prefix(kc::PRELUDE)?;
        let id = k0 + k;
        let body = body
            .replace(" gc_ew(", &format!(" gc_ew_{id}("))
            .replace(" gc_sum(", &format!(" gc_sum_{id}("))
            .replace(" gc_at(", &format!(" gc_at_{id}("))
            .replace(" gc_cxop(", &format!(" gc_cxop_{id}("))
            .replace(" gc_cxrows(", &format!(" gc_cxrows_{id}("))
            .replace(" gc_fftpad(", &format!(" gc_fftpad_{id}("));
        s.push_str(&format!("namespace k{id} {{\n{body}\n}}\n"));
    }
    Some(s)
}

/// NVRTC's log of each source that does not compile (empty: all do).
fn compile_all(sources: &[(String, String)]) -> Vec<String> {
    let opts = compile::options_for((9, 0));
    let one = |what: &str, src: &str| -> Option<String> {
        compile::nvrtc_cubin(src, &opts, "nvrtc_test")
            .err()
            .map(|e| format!("{what}:\n{}", e.message))
    };
    // Generated elementwise kernels batch; shipped modules compile alone.
    let (generated, fixed): (Vec<_>, Vec<_>) = sources
        .iter()
        .partition(|(_, s)| s.starts_with(kc::PRELUDE) && s.contains(" gc_"));
    let chunks: Vec<(usize, Vec<&(String, String)>)> = generated
        .chunks(BATCH)
        .enumerate()
        .map(|(i, c)| (i * BATCH, c.to_vec()))
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let mut found = Vec::new();
                    if let Some((k0, items)) = chunks.get(i) {
                        let ok =
                            batch_source(items, *k0).is_some_and(|s| one("batch", &s).is_none());
                        if !ok {
                            found.extend(items.iter().filter_map(|(w, s)| one(w, s)));
                        }
                    } else if let Some((w, s)) = fixed.get(i - chunks.len()) {
                        found.extend(one(w, s));
                    } else {
                        break;
                    }
                    failures.lock().unwrap().extend(found);
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
fn every_kernel_source_compiles_for_sm_90() {
    if !nvrtc() {
        return;
    }
    let mut sources = Vec::new();
    let trees = elementwise(&mut sources);
    let ops = gcalc_runtime::ops::all()
        .into_iter()
        .filter(|d| ew_def(d).is_some())
        .count();
    assert!(
        trees >= ops * DType::ALL.len(),
        "{trees} elementwise trees of {ops} ops"
    );
    copies_fills_stats(&mut sources);
    shipped(&mut sources);
    // GCALC_NVRTC_ONLY=text: only the sources whose description contains it.
    if let Ok(only) = std::env::var("GCALC_NVRTC_ONLY") {
        sources.retain(|(w, _)| w.contains(&only));
    }
    // The same text from different routes compiles once.
    let mut seen = BTreeSet::new();
    sources.retain(|(_, s)| seen.insert(s.clone()));
    let t0 = std::time::Instant::now();
    let failures = compile_all(&sources);
    println!(
        "compiled {} distinct kernel sources ({trees} elementwise trees) in {:.1} s",
        sources.len(),
        t0.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} source(s) do not compile:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The start-up warm-up's set (what a GPU's first opening compiles into
/// the cache): generated quickly (every process that opens a GPU makes the
/// list to find its marker), of a few hundred sources, each of them a source
/// the backend really generates (all within the full set above, which the
/// other test compiles), and compiling one takes tens of milliseconds here.
#[test]
fn the_warm_up_set_is_small_and_within_the_generated_kernels() {
    gcalc_runtime::backend::devices::set_warm_sources(gcalc_runtime::ops::fuse::warm_sources);
    let t0 = std::time::Instant::now();
    let warm = cuda::warm::sources();
    let made = t0.elapsed();
    println!(
        "warm-up set: {} sources made in {:.1} ms",
        warm.len(),
        made.as_secs_f64() * 1e3
    );
    assert!(
        (100..1000).contains(&warm.len()),
        "{} sources in the warm-up set",
        warm.len()
    );
    let mut all = Vec::new();
    elementwise(&mut all);
    copies_fills_stats(&mut all);
    shipped(&mut all);
    let all: BTreeSet<String> = all.into_iter().map(|(_, s)| s).collect();
    let outside: Vec<&String> = warm.iter().filter(|s| !all.contains(*s)).collect();
    assert!(
        outside.is_empty(),
        "{} warm-up sources the backend does not generate, the first:\n{}",
        outside.len(),
        outside[0]
    );
    if !nvrtc() {
        return;
    }
    let t0 = std::time::Instant::now();
    let opts = compile::options_for((9, 0));
    for s in warm.iter().take(8) {
        compile::nvrtc_cubin(s, &opts, "warm").expect("a warm-up source compiles");
    }
    println!(
        "NVRTC: {:.1} ms a source (8 compiled one after another)",
        t0.elapsed().as_secs_f64() * 1e3 / 8.0
    );
}
