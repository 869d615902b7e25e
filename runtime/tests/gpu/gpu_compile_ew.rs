//! Every elementwise op's CUDA template, for every compute dtype it has a CPU
//! kernel for, compiled by NVRTC into a one-op fused kernel for sm_90. This
//! needs NVRTC and the CUDA headers (`LD_LIBRARY_PATH=/path/to/nvrtc/lib
//! CUDA_HOME=/path/to/cuda`), not a GPU, so a machine without one checks
//! the CUDA C it generates; it skips visibly when NVRTC is missing and fails
//! then under GCALC_REQUIRE_GPU=1.

use gcalc_kernels::cuda::codegen::{Access, Arg, Input, Instr, Program};
use gcalc_runtime::dtype::{DType, Kind};
use gcalc_runtime::ops::elementwise::{EwDef, ew_def, result_kinds};
use gcalc_runtime::ops::{self};

fn nvrtc_options() -> Option<Vec<String>> {
    if let Err(e) = gcalc_runtime::cuda::compile::nvrtc_version() {
        if std::env::var("GCALC_REQUIRE_GPU").as_deref() == Ok("1") {
            panic!("GCALC_REQUIRE_GPU=1 but NVRTC is not usable: {e}");
        }
        println!("SKIPPED: NVRTC is not usable ({e})");
        return None;
    }
    let mut o = vec![
        "--gpu-architecture=sm_90".to_string(),
        "--std=c++17".to_string(),
    ];
    for base in [
        std::env::var("CUDA_HOME").ok(),
        Some("/usr/local/cuda".into()),
    ]
    .into_iter()
    .flatten()
    {
        let inc = std::path::Path::new(&base).join("include");
        if inc.join("cuda_fp16.h").exists() {
            o.push(format!("--include-path={}", inc.display()));
            break;
        }
    }
    Some(o)
}

/// The one-op program of `def` computing in `c`, or `None` when the op's
/// dtype rule refuses `c` (bitwise ops on floats).
fn program(name: &str, def: &EwDef, c: DType) -> Option<Program> {
    let kinds = vec![Kind::Strong(c); def.arity];
    let (_, out) = result_kinds(name, def, &kinds, DType::Float32).ok()?;
    let out = match out {
        Kind::Strong(d) => d,
        _ => c,
    };
    let template = if c.is_float() {
        def.cuda
    } else {
        def.cuda_int.unwrap_or(def.cuda)
    };
    let result = if out == DType::Bool { DType::Bool } else { c };
    Some(Program {
        inputs: (0..def.arity)
            .map(|_| Input {
                dtype: c,
                access: Access::Contig,
            })
            .collect(),
        instrs: vec![Instr {
            template: template.into(),
            args: (0..def.arity).map(Arg::In).collect(),
            compute: c,
            result,
        }],
        out,
        ndim: 0,
        vec: 1,
    })
}

#[test]
fn every_elementwise_template_compiles_with_nvrtc() {
    let Some(opts) = nvrtc_options() else { return };
    let mut compiled = 0;
    for op in ops::all() {
        let Some(def) = ew_def(op) else { continue };
        let dtypes = [
            (def.f32.is_some(), DType::Float32),
            (def.f64.is_some(), DType::Float64),
            (def.i64.is_some(), DType::Int64),
            (def.bool.is_some(), DType::Bool),
        ];
        for (has, c) in dtypes {
            let Some(p) = program(op.name, def, c).filter(|_| has) else {
                continue;
            };
            let src = p.source("k");
            if let Err(e) = gcalc_runtime::cuda::compile::nvrtc_cubin(&src, &opts, op.name) {
                panic!("{} in {c}: {e}\n{src}", op.name);
            }
            compiled += 1;
        }
    }
    assert!(compiled >= 60, "compiled {compiled} op/dtype kernels");
}
