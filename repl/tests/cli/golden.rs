//! Golden scripts: every `tests/golden/*.gcalc` is run by the real `gcalc`
//! binary and its standard output, standard error and exit status are compared
//! with the `.out` file beside it. Regenerate all with `UPDATE_EXPECT=1 cargo test`.
//! A script's first line may be `# args: a b c` (script arguments) or
//! `# flags: floatX=float64` (`--flags`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden")
}

fn run_case(path: &Path) -> String {
    let src = std::fs::read_to_string(path).expect("read golden script");
    let first = src.lines().next().unwrap_or("");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gcalc"));
    cmd.current_dir(golden_dir())
        .env("NO_COLOR", "1")
        .env_remove("GCALC_FLAGS")
        .env("HOME", golden_dir());
    if let Some(flags) = first.strip_prefix("# flags: ") {
        cmd.arg("--flags").arg(flags.trim());
    }
    cmd.arg(path.file_name().expect("file name"));
    if let Some(args) = first.strip_prefix("# args: ") {
        cmd.args(args.split_whitespace());
    }
    let out = cmd.output().expect("run gcalc");
    format!(
        "{}{}--- exit status {}\n",
        String::from_utf8_lossy(&out.stdout),
        if out.stderr.is_empty() {
            String::new()
        } else {
            format!("--- stderr\n{}", String::from_utf8_lossy(&out.stderr))
        },
        out.status.code().unwrap_or(-1)
    )
}

#[test]
fn golden_scripts() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("tests/golden exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gcalc"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no golden scripts found");
    let mut failures = Vec::new();
    for case in &cases {
        let got = run_case(case);
        let expected_path = case.with_extension("out");
        if update {
            std::fs::write(&expected_path, &got).expect("write .out");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!(
                "--- {} expected:\n{expected}\n--- got:\n{got}",
                case.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden script(s) differ (UPDATE_EXPECT=1 to accept):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
