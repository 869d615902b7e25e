//! Flag precedence through the real binary: default < ~/.gcalcrc <
//! GCALC_FLAGS < --flags < `set`, and clear errors for unknown flags and values.

use std::process::Command;

fn gcalc(
    home: &std::path::Path,
    env_flags: Option<&str>,
    cli: Option<&str>,
    code: &str,
) -> (String, String, i32) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gcalc"));
    c.env("HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("GCALC_FLAGS");
    if let Some(f) = env_flags {
        c.env("GCALC_FLAGS", f);
    }
    if let Some(f) = cli {
        c.arg("--flags").arg(f);
    }
    let out = c.arg("-e").arg(code).output().expect("run gcalc");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn each_source_overrides_the_one_before() {
    let home = tempfile::tempdir().expect("tempdir");
    let probe = "(floatX, array([1.5]).dtype)";
    assert_eq!(
        gcalc(home.path(), None, None, probe).0.trim(),
        "(float32, float32)"
    );
    std::fs::write(
        home.path().join(".gcalcrc"),
        "# comment\n[global]\nfloatX = float64\n[other]\nfloatX = nonsense\n",
    )
    .expect("write rc");
    assert_eq!(
        gcalc(home.path(), None, None, probe).0.trim(),
        "(float64, float64)"
    );
    assert_eq!(
        gcalc(home.path(), Some("floatX=float16"), None, probe)
            .0
            .trim(),
        "(float16, float16)"
    );
    assert_eq!(
        gcalc(
            home.path(),
            Some("floatX=float16"),
            Some("floatX=float32"),
            probe
        )
        .0
        .trim(),
        "(float32, float32)"
    );
    let (out, _, _) = gcalc(
        home.path(),
        Some("floatX=float16"),
        Some("floatX=float32"),
        "set floatX = float64; floatX",
    );
    assert_eq!(out.trim(), "float64");
}

#[test]
fn bad_flags_are_clear_errors() {
    let home = tempfile::tempdir().expect("tempdir");
    let (_, err, code) = gcalc(home.path(), Some("floatx=float64,devize=cpu"), None, "1");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown flag `devize`") && err.contains("did you mean `device`"),
        "{err}"
    );
    let (_, err, code) = gcalc(home.path(), None, Some("floatX=int8"), "1");
    assert_eq!(code, 2);
    assert!(
        err.contains("bad value `int8`") && err.contains("float16 float32 float64"),
        "{err}"
    );
    let (_, err, code) = gcalc(home.path(), None, None, "set allow_gc = maybe");
    assert_eq!(code, 1);
    assert!(
        err.contains("bad value `maybe` for flag `allow_gc`") && err.contains("^"),
        "{err}"
    );
    let (out, _, code) = gcalc(home.path(), None, None, "set");
    assert_eq!(code, 0);
    for f in ["device", "floatX", "allow_gc", "launch_blocking", "profile"] {
        assert!(out.contains(f), "{f} missing from `set`: {out}");
    }
}
