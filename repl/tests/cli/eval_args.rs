//! `gcalc -e`: several `-e` are the lines of one program, run in order, and
//! the words after the last one are the program's `args()`.

use std::process::Command;

fn gcalc(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcalc"))
        .env("NO_COLOR", "1")
        .env_remove("GCALC_FLAGS")
        .arg("--flags")
        .arg("device=cpu")
        .args(args)
        .output()
        .expect("run gcalc");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn several_e_run_in_order_as_one_program() {
    let (out, err, code) = gcalc(&["-e", "x = 2", "-e", "print(x + 1)", "-e", "x * 10"]);
    assert_eq!((out.as_str(), err.as_str(), code), ("3\n20\n", "", 0));
}

#[test]
fn words_after_the_last_e_are_args() {
    let (out, _, code) = gcalc(&["-e", "a = args()", "-e", "len(a), a[0]", "one", "two"]);
    assert_eq!((out.as_str(), code), ("(2, \"one\")\n", 0));
}

#[test]
fn an_error_names_the_line_of_its_e() {
    let (out, err, code) = gcalc(&["-e", "x = 1", "-e", "y = x +* 2"]);
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(err.contains("<-e>:2:"), "{err}");
}

#[test]
fn flags_after_e_are_refused_with_the_fix() {
    let (_, err, code) = gcalc(&["-e", "1", "--flags", "floatX=float64"]);
    assert_eq!(code, 2);
    assert!(err.contains("put it before -e"), "{err}");
}

#[test]
fn e_without_code_is_a_usage_error() {
    let (_, err, code) = gcalc(&["-e", "1", "-e"]);
    assert_eq!(code, 2);
    assert!(err.contains("-e needs the code to run"), "{err}");
}
