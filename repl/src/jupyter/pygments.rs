//! The Pygments lexer for gcalc (source in jupyter/pygments), which nbconvert
//! uses to highlight gcalc cells in HTML/LaTeX exports (the kernel names it
//! in `language_info.pygments_lexer`). Pygments finds lexers through the
//! `pygments.lexers` entry point of installed packages, so `gcalc jupyter
//! install` builds a wheel (the lexer plus `_names.py`, this binary's
//! keywords and builtins) and installs it with pip into the Python that runs
//! Jupyter.

use super::install::Dest;
use super::labext::Names;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const LEXER_PY: &str = include_str!("../../../jupyter/pygments/gcalc_pygments/__init__.py");
const DIST: &str = "gcalc_pygments";
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `_names.py`: the names the lexer colours, from this binary.
fn names_py(n: &Names) -> String {
    let tuple = |v: &[&str]| {
        let items: Vec<String> = v.iter().map(|s| format!("{s:?}")).collect();
        format!("({},)", items.join(", "))
    };
    format!(
        "# Written by `gcalc jupyter install` (gcalc {VERSION}).\nKEYWORDS = {}\nCONSTANTS = {}\nBUILTINS = {}\n",
        tuple(&n.keywords),
        tuple(&n.constants),
        tuple(&n.builtins)
    )
}

/// The wheel's files: path inside the wheel and contents.
fn wheel_files() -> Vec<(String, Vec<u8>)> {
    let info = format!("{DIST}-{VERSION}.dist-info");
    vec![
        (format!("{DIST}/__init__.py"), LEXER_PY.as_bytes().to_vec()),
        (
            format!("{DIST}/_names.py"),
            names_py(&Names::of_this_gcalc()).into_bytes(),
        ),
        (
            format!("{info}/METADATA"),
            format!(
                "Metadata-Version: 2.1\nName: gcalc-pygments\nVersion: {VERSION}\nSummary: Pygments lexer for gcalc (installed by gcalc jupyter install)\nRequires-Dist: pygments\n"
            )
            .into_bytes(),
        ),
        (
            format!("{info}/WHEEL"),
            b"Wheel-Version: 1.0\nGenerator: gcalc\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
                .to_vec(),
        ),
        (
            format!("{info}/entry_points.txt"),
            format!("[pygments.lexers]\ngcalc = {DIST}:GcalcLexer\n").into_bytes(),
        ),
    ]
}

/// `sha256=<urlsafe base64, no padding>` as a wheel's RECORD wants it.
fn record_hash(bytes: &[u8]) -> String {
    format!(
        "sha256={}",
        super::b64::url_safe_unpadded(&Sha256::digest(bytes))
    )
}

/// Write the wheel into `dir`; its path.
pub fn build_wheel(dir: &Path) -> Result<PathBuf, String> {
    let path = dir.join(format!("{DIST}-{VERSION}-py3-none-any.whl"));
    let f = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut z = zip::ZipWriter::new(f);
    let opts =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let files = wheel_files();
    let mut record = String::new();
    let zerr = |e: zip::result::ZipError| format!("{}: {e}", path.display());
    for (name, bytes) in &files {
        z.start_file(name.as_str(), opts).map_err(zerr)?;
        z.write_all(bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        record.push_str(&format!("{name},{},{}\n", record_hash(bytes), bytes.len()));
    }
    let rec_name = format!("{DIST}-{VERSION}.dist-info/RECORD");
    record.push_str(&format!("{rec_name},,\n"));
    z.start_file(rec_name.as_str(), opts).map_err(zerr)?;
    z.write_all(record.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    z.finish().map_err(zerr)?;
    Ok(path)
}

/// The first line of an executable script, when it is a `#!` naming a Python.
fn shebang_python(script: &Path) -> Option<PathBuf> {
    let text = std::fs::read(script).ok()?;
    let first = text.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(first).ok()?.strip_prefix("#!")?.trim();
    let exe = line.split_whitespace().next()?;
    Path::new(exe)
        .file_name()?
        .to_str()?
        .starts_with("python")
        .then(|| PathBuf::from(exe))
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Which Python gets the lexer: `--python`; for `--prefix DIR`, DIR's own
/// Python (a venv or conda prefix) or none; for `--sys-prefix`, the active
/// environment's; for `--user`, the one that runs `jupyter` on PATH, else `python3`.
pub fn find_python(dest: &Dest, explicit: Option<&str>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(PathBuf::from(p));
    }
    let in_prefix = |p: PathBuf| {
        ["python3", "python"]
            .iter()
            .map(|n| p.join("bin").join(n))
            .find(|p| p.is_file())
    };
    match dest {
        Dest::Prefix(p) => in_prefix(PathBuf::from(p)),
        Dest::SysPrefix => std::env::var_os("VIRTUAL_ENV")
            .or_else(|| std::env::var_os("CONDA_PREFIX"))
            .and_then(|p| in_prefix(PathBuf::from(p))),
        Dest::User => ["jupyter-nbconvert", "jupyter"]
            .iter()
            .find_map(|n| on_path(n).and_then(|s| shebang_python(&s)))
            .or_else(|| on_path("python3")),
    }
}

/// Install the lexer into `python`'s environment with pip; what was done.
pub fn install(python: &Path, dest: &Dest) -> Result<String, String> {
    let tmp = std::env::temp_dir().join(format!("gcalc-wheel-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let result = build_wheel(&tmp).and_then(|wheel| pip_install(python, dest, &wheel));
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn pip_install(python: &Path, dest: &Dest, wheel: &Path) -> Result<String, String> {
    let mut cmd = Command::new(python);
    cmd.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--no-index",
        "--force-reinstall",
    ]);
    // A user install unless the Python is a virtual environment's (where
    // pip refuses --user and the environment is the user's anyway).
    if *dest == Dest::User && !is_venv(python) {
        cmd.arg("--user");
    }
    cmd.arg(wheel);
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if out.status.success() {
        Ok(format!(
            "installed the Pygments lexer `gcalc` (for nbconvert) with {}",
            python.display()
        ))
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "pip could not install the Pygments lexer into {}: {}",
            python.display(),
            err.trim()
        ))
    }
}

fn is_venv(python: &Path) -> bool {
    Command::new(python)
        .args(["-c", "import sys; print(sys.prefix != sys.base_prefix)"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "True")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_hash_is_urlsafe_unpadded_base64_of_sha256() {
        // sha256("") = e3b0c442...; its base64 is 47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU=.
        assert_eq!(
            record_hash(b""),
            "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"
        );
    }

    #[test]
    fn names_py_is_python_tuples() {
        let n = Names {
            keywords: vec!["fn"],
            constants: vec!["true"],
            builtins: vec!["exp", "sum"],
        };
        let s = names_py(&n);
        assert!(s.contains("KEYWORDS = (\"fn\",)"), "{s}");
        assert!(s.contains("BUILTINS = (\"exp\", \"sum\",)"), "{s}");
    }

    #[test]
    fn shebang_names_the_python() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let s = tmp.path().join("jupyter");
        std::fs::write(&s, "#!/opt/env/bin/python3.11\nimport sys\n").expect("write");
        assert_eq!(
            shebang_python(&s),
            Some(PathBuf::from("/opt/env/bin/python3.11"))
        );
        std::fs::write(&s, "#!/bin/sh\nexec foo\n").expect("write");
        assert_eq!(shebang_python(&s), None);
    }
}
