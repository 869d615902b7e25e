//! The layering rules of ARCHITECTURE.md ("Layers and the rules `tidy`
//! checks"), checked by reading the sources (rust-analyzer's `tidy.rs` is the
//! model). Each failure names `file:line`, the rule and what to do.
//!
//! - `backend-imports`: `cuda/` and `cpu/` name only the data layer
//!   (`DATA_LAYER`), their own modules, and external crates; never each other.
//! - `data-layer-imports`: the data layer's files name only the data layer.
//! - `one-dispatch`: outside `backend/`, `cpu/` and `cuda/`, no code names
//!   `cuda::`/`cpu::`, matches a `Storage` variant, or branches on
//!   `Device::Cpu`/`Device::Gpu` (`.is_gpu()`, patterns).
//! - `op-names`: op names are not matched as strings (`match`, `matches!`,
//!   `==`): a family's entries carry a typed identity (`opid/`) instead.
//!
//! Exceptions are listed in `ALLOWED`, each with its reason.

mod scan;

use scan::{crate_paths, line_of, strip};
use std::path::{Path, PathBuf};

/// Modules of the data layer, as paths below `crate::` (a path is in the
/// layer when it starts with one of these); `crate::X` root re-exports of
/// data-layer types are listed as well.
const DATA_LAYER: &[&str] = &[
    "array::Array",
    "array::Storage",
    "array::HostData",
    "array::Element",
    "array::Dims",
    "array::Strides",
    "array::Scalar",
    "array::select",
    "array::layout",
    "array::host",
    "array::alloc",
    "host_limits",
    "interrupt",
    "array::convert",
    "array::convert_slice",
    "array::can_cast_same_kind",
    "array::Cf32",
    "array::Cf64",
    "device",
    "dtype",
    "error",
    "source",
    "random",
    "fused",
    "opid",
    "profile::backend",
    "with_dtype",
    "with_real_dtype",
    "Array",
    "Element",
    "HostData",
    "Device",
    "DType",
    "Error",
    "ErrorKind",
    "Result",
];

/// The data layer's files (below runtime/src).
const DATA_FILES: &[&str] = &[
    "array/mod.rs",
    "array/host.rs",
    "array/layout.rs",
    "array/alloc.rs",
    "array/scalar.rs",
    "array/select.rs",
    "device.rs",
    "error.rs",
    "source.rs",
    "random.rs",
    "fused.rs",
    "opid/mod.rs",
    "opid/random.rs",
    "opid/reduce.rs",
];

/// Known exceptions: (file, rule, what the line contains, why).
const ALLOWED: &[(&str, &str, &str, &str)] = &[
    (
        "complete/mod.rs",
        "op-names",
        "line_before == \"set \"",
        "completes flag names after the `set` statement keyword (the `set` flag statement, not the `set(xs)` builtin)",
    ),
    (
        "array/mod.rs",
        "data-layer-imports",
        "crate::cuda::DeviceBuffer",
        "the Storage enum holds the GPU buffer type (a type name only; only backend/ looks inside)",
    ),
    (
        "array/mod.rs",
        "one-dispatch",
        "crate::cuda::DeviceBuffer",
        "the Storage enum holds the GPU buffer type (a type name only; only backend/ looks inside)",
    ),
    (
        "session.rs",
        "one-dispatch",
        "is_gpu()",
        "names the GPU variables lost or held in an out-of-memory or poisoned-GPU note (reporting, no computation)",
    ),
    (
        "device.rs",
        "one-dispatch",
        "Device::",
        "the definition of Device and its methods",
    ),
    (
        "flags.rs",
        "op-names",
        "DeviceFlag::",
        "the values of the `device` flag (`set device = gpu`), not the ops cpu() and gpu()",
    ),
    (
        "flags.rs",
        "op-names",
        "self.profile",
        "the `profile` flag (`set profile = true`), not the op profile()",
    ),
    (
        "ipython/mod.rs",
        "op-names",
        "Piece::Time",
        "the IPython magic words `%time`/`%timeit` at a prompt, not the op timeit()",
    ),
    (
        "cuda/custom.rs",
        "op-names",
        "Param::",
        "C type names in a custom kernel's signature (`float`, `int`), not the ops",
    ),
    (
        "interp/call.rs",
        "op-names",
        "\"shape\" => {",
        "the array attribute x.shape (the op shape(a) is its function form)",
    ),
    (
        "interp/call.rs",
        "op-names",
        "=> return Ok(Value::Int(a.",
        "the array attributes x.size and x.ndim (the ops size(a), ndim(a) are their function forms)",
    ),
    (
        "complete/receiver.rs",
        "op-names",
        "=> return Some(Value::",
        "the types of the array attributes x.shape, x.size, x.ndim for completion, not the ops",
    ),
    (
        "help/examples.rs",
        "op-names",
        "=> vec![",
        "example values of arguments named shape/indices in help pages, not the ops",
    ),
    (
        "plot/figure.rs",
        "op-names",
        "\"size\" => Value::tuple",
        "the figure attribute fig.size, not the op size()",
    ),
    (
        "builtins/python.rs",
        "op-names",
        "matches!(x, Value::",
        "Python's type names given to isinstance (`isinstance(x, int)`): a type, not a call of the op",
    ),
    (
        "ops/creation.rs",
        "op-names",
        "if def.name == ",
        "NumPy's `dtype=float`, `dtype=int`: Python's types as dtypes, not calls of the ops",
    ),
    (
        "ops/norms.rs",
        "op-names",
        "&*s == \"f\"",
        "the matrix norm order \"f\" (Frobenius, NumPy's spelling), not the draw f()",
    ),
    (
        "ops/creation.rs",
        "op-names",
        "=> DType::",
        "NumPy's dtype spellings in strings (`\"float\"`, `\"int\"`), not the ops",
    ),
];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below runtime/src, as (path relative to src, text).
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read runtime/src")
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, base, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).expect("read source")));
            }
        }
    }
    let mut v = Vec::new();
    walk(&src_dir(), &src_dir(), &mut v);
    v
}

fn in_data_layer(path: &str) -> bool {
    DATA_LAYER
        .iter()
        .any(|d| path == *d || path.starts_with(&format!("{d}::")))
}

fn allowed(file: &str, rule: &str, line: &str) -> bool {
    ALLOWED
        .iter()
        .any(|(f, r, what, _)| *f == file && *r == rule && line.contains(what))
}

struct Report(Vec<String>);

impl Report {
    /// A finding at byte `pos` of `code` (a stripped copy of `text`: same lines).
    fn add(&mut self, file: &str, code: &str, text: &str, pos: usize, rule: &str, msg: String) {
        let n = line_of(code, pos);
        let line = text.lines().nth(n - 1).unwrap_or("");
        if !allowed(file, rule, line) {
            self.0.push(format!(
                "runtime/src/{file}:{n}: [{rule}] {msg}\n    {}",
                line.trim()
            ));
        }
    }
}

/// `cuda/` and `cpu/`: only the data layer, their own modules, external crates.
fn backend_imports(file: &str, text: &str, r: &mut Report) {
    let own = file.split('/').next().unwrap_or("");
    let code = strip(text, true);
    for (pos, p) in crate_paths(&code) {
        let ok = in_data_layer(&p) || p.split("::").next() == Some(own);
        if !ok {
            r.add(
                file,
                &code,
                text,
                pos,
                "backend-imports",
                format!(
                    "`crate::{p}`: {own}/ may use only the data layer ({}) and its own modules; pass what it needs as plain values, or move the type into the data layer",
                    "array storage/layout/host data, device, dtype, error, source, random, fused, opid, profile::backend"
                ),
            );
        }
    }
}

/// The data layer's files: only the data layer.
fn data_layer_imports(file: &str, text: &str, r: &mut Report) {
    let code = strip(text, true);
    for (pos, p) in crate_paths(&code) {
        if !in_data_layer(&p) {
            r.add(
                file,
                &code,
                text,
                pos,
                "data-layer-imports",
                format!("`crate::{p}`: the data layer may not name a higher layer or a backend"),
            );
        }
    }
}

/// Outside backend/, cpu/, cuda/: no backend names, no Storage variants, no
/// branch on the device.
fn one_dispatch(file: &str, text: &str, r: &mut Report) {
    let code = strip(text, true);
    let mut flag = |pos: usize, what: &str| {
        r.add(
            file,
            &code,
            text,
            pos,
            "one-dispatch",
            format!("{what}: only backend/ asks \"CPU or GPU?\"; call (or add) a function of the op family's file in backend/"),
        )
    };
    for (pos, p) in crate_paths(&code) {
        if p.starts_with("cuda") || p.starts_with("cpu") {
            flag(pos, &format!("`crate::{p}` names a backend"));
        }
    }
    for word in ["cuda::", "cpu::"] {
        for (pos, _) in code.match_indices(word) {
            let before = code[..pos].chars().next_back();
            let path_start = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
            if path_start {
                flag(pos, &format!("`{word}` names a backend"));
            }
        }
    }
    for (pos, _) in code.match_indices(".is_gpu()") {
        flag(pos, "`.is_gpu()` branches on the device");
    }
    // `Device::Cpu`, `Device::Gpu(..)`, `Storage::Host(..)`, `Storage::Cuda(..)`
    // as a pattern (making a value is fine).
    for (ty, variants) in [
        ("Device::", ["Cpu", "Gpu"]),
        ("Storage::", ["Host", "Cuda"]),
    ] {
        for (pos, _) in code.match_indices(ty) {
            let before = code[..pos].chars().next_back();
            let rest = &code[pos + ty.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || !variants.iter().any(|v| rest.starts_with(v))
            {
                continue;
            }
            if is_pattern(&code, pos) {
                flag(
                    pos,
                    &format!(
                        "a pattern on `{ty}{}`/`{ty}{}` branches on where the elements live",
                        variants[0], variants[1]
                    ),
                );
            }
        }
    }
}

/// Whether the path at `pos` is in a pattern: before `=>` on its line, after
/// `let` and before `=` (if let, let-else), or inside `matches!(`.
fn is_pattern(code: &str, pos: usize) -> bool {
    let start = code[..pos].rfind('\n').map_or(0, |k| k + 1);
    let end = code[pos..].find('\n').map_or(code.len(), |k| pos + k);
    let (head, tail) = (&code[start..pos], &code[pos..end]);
    tail.contains("=>") && !head.contains("=>")
        || head.contains("let ") && tail.contains('=') && !head.contains('=')
        || head.contains("matches!(")
}

/// String literals that are op names, matched (`match`, `matches!`, `==`, `!=`).
fn op_names(file: &str, text: &str, names: &[&str], r: &mut Report) {
    let code = strip(text, false);
    for name in names {
        let lit = format!("\"{name}\"");
        for (pos, _) in code.match_indices(&lit) {
            let end = pos + lit.len();
            let after = code[end..].trim_start();
            let before = code[..pos].trim_end();
            let arm = after.starts_with("=>") || after.starts_with('|') || before.ends_with('|');
            let cmp = before.ends_with("==")
                || before.ends_with("!=")
                || after.starts_with("==")
                || after.starts_with("!=");
            let line_start = code[..pos].rfind('\n').map_or(0, |k| k + 1);
            let in_matches = code[line_start..pos].contains("matches!(");
            if arm || cmp || in_matches {
                r.add(
                    file,
                    &code,
                    text,
                    pos,
                    "op-names",
                    format!(
                        "the op name {lit} is matched as a string: give the family a typed identity in opid/ (carried by its table entries, e.g. `OpKind::Reduce(ReduceOp::Sum)`) and match that"
                    ),
                );
            }
        }
    }
}

#[test]
fn layering_rules_hold() {
    let names: Vec<&str> = gcalc_runtime::ops::all().iter().map(|d| d.name).collect();
    let mut r = Report(Vec::new());
    let files = sources();
    assert!(
        files.iter().any(|(f, _)| f == "cuda/mod.rs") && files.len() > 50,
        "tidy found {} files under {}",
        files.len(),
        src_dir().display()
    );
    for (file, text) in &files {
        let top = file.split('/').next().unwrap_or("");
        match top {
            "cuda" | "cpu" => backend_imports(file, text, &mut r),
            "backend" => {}
            _ => one_dispatch(file, text, &mut r),
        }
        if DATA_FILES.contains(&file.as_str()) {
            data_layer_imports(file, text, &mut r);
        }
        op_names(file, text, &names, &mut r);
    }
    assert!(
        r.0.is_empty(),
        "{} layering rule(s) broken (ARCHITECTURE.md, \"Layers and the rules tidy checks\"):\n{}",
        r.0.len(),
        r.0.join("\n")
    );
}

/// The checks themselves find what they are meant to find.
#[test]
fn tidy_finds_what_it_should() {
    let mut r = Report(Vec::new());
    let bad_backend = "use crate::interp::Interp;\nuse crate::array::{Array, create::Scalar};\nfn f() { crate::ops::fuse::eval(); }\n";
    backend_imports("cuda/x.rs", bad_backend, &mut r);
    assert_eq!(r.0.len(), 3, "{:#?}", r.0);
    assert!(
        r.0[0].starts_with("runtime/src/cuda/x.rs:1: [backend-imports]"),
        "{}",
        r.0[0]
    );
    let mut r = Report(Vec::new());
    let good = "use crate::array::{Array, layout};\nuse crate::profile::backend::{self as p, Direction};\n// crate::interp in a comment\nconst S: &str = \"crate::ops\";\n";
    backend_imports("cpu/x.rs", good, &mut r);
    assert!(r.0.is_empty(), "{:#?}", r.0);
    let mut r = Report(Vec::new());
    let branchy = "fn f(a: &Array) {\n    if a.device().is_gpu() {}\n    match d { Device::Gpu(i) => g(i), Device::Cpu => c() }\n    let x = crate::cuda::gpu_count();\n    ok(Device::Gpu(0));\n    DeviceFlag::Gpu(i) => Device::Gpu(i),\n}\n";
    one_dispatch("ops/x.rs", branchy, &mut r);
    let lines: Vec<&str> = r.0.iter().map(|m| m.split(": [").next().unwrap()).collect();
    assert_eq!(
        lines,
        [
            "runtime/src/ops/x.rs:4",
            "runtime/src/ops/x.rs:2",
            "runtime/src/ops/x.rs:3"
        ],
        "{:#?}",
        r.0
    );
    let mut r = Report(Vec::new());
    let names = "if matches!(def.name, \"sum\" | \"mean\") {}\nmatch op { \"max\" => 1, _ => 0 }\nlet m = def.name == \"mean\";\nlookup(\"sum\");\n";
    op_names("interp/x.rs", names, &["sum", "mean", "max"], &mut r);
    assert_eq!(r.0.len(), 4, "{:#?}", r.0);
    assert_eq!(
        scan::expand("array::{Array, layout::{fmt_shape, x}}, y"),
        [
            "array::Array",
            "array::layout::fmt_shape",
            "array::layout::x"
        ]
    );
}
