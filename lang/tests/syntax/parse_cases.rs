//! Golden tests: every `cases/NAME.gcalc` is parsed and rendered (the AST as
//! S-expressions, one line per statement with its byte span, then each
//! diagnostic rendered as a user sees it) and compared with `cases/NAME.expected`.
//!
//! To regenerate the expected files after an intended change, run
//! `UPDATE_EXPECT=1 cargo test -p gcalc-lang --test syntax`, then read
//! the diff: a golden file that enshrines a wrong parse is a bug.

use std::fs;
use std::path::Path;

fn render_case(name: &str, src: &str) -> String {
    let res = gcalc_lang::parse(src);
    let mut out = gcalc_lang::sexpr::program(&res.program);
    if !res.diagnostics.is_empty() {
        out.push_str("---\n");
        for d in &res.diagnostics {
            out.push_str(&gcalc_lang::render(d, name, src, Default::default()));
        }
    }
    out
}

#[test]
fn parse_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let update = std::env::var("UPDATE_EXPECT").is_ok_and(|v| v == "1");
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .expect("tests/cases exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gcalc"))
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "no cases found in {}", dir.display());
    let mut failures = Vec::new();
    for path in &entries {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let src = fs::read_to_string(path).expect("readable case");
        let got = render_case(&name, &src);
        let expected_path = path.with_extension("expected");
        if update {
            fs::write(&expected_path, &got).expect("writable expected file");
            continue;
        }
        let want = fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!("== {name}: got\n{got}\n== expected\n{want}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
