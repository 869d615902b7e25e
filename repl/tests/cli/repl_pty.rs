//! The terminal REPL driven as a person would, in a pseudo-terminal: the real
//! `gcalc` binary, with HOME and XDG_DATA_HOME in a temporary folder and
//! NO_COLOR set. Every step waits for the next prompt before typing.
//!
//! rustyline redraws the whole line, prompt included, as keys come, so a
//! `>>> ` alone does not say that an input has finished. It turns bracketed
//! paste on when it starts reading a line and off when it stops: those two
//! sequences mark where an input ends and the next prompt begins.

use expectrl::{Eof, Regex, Session, WaitStatus};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const UP: &str = "\x1b[A";
/// rustyline starts reading a line.
pub(super) const EDIT_START: &str = "\x1b[?2004h";
/// rustyline stops reading a line (Enter, Ctrl-C, Ctrl-D).
const EDIT_END: &str = "\x1b[?2004l";

pub(super) fn spawn(home: &Path) -> Session {
    spawn_cmd(home, Command::new(env!("CARGO_BIN_EXE_gcalc")))
}

/// gcalc on a terminal that echoes input, as a person's does (the pty
/// starts with echo off): keys typed while a statement runs show at once.
pub(super) fn spawn_echoing(home: &Path) -> Session {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "stty echo && exec \"$0\"",
        env!("CARGO_BIN_EXE_gcalc"),
    ]);
    spawn_cmd(home, cmd)
}

pub(super) fn spawn_cmd(home: &Path, mut cmd: Command) -> Session {
    cmd.current_dir(home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env_remove("GCALC_FLAGS");
    let mut p = Session::spawn(cmd).expect("spawn gcalc in a pty");
    p.set_expect_timeout(Some(Duration::from_secs(10)));
    p.expect("gcalc ").expect("banner");
    p.expect(EDIT_START).expect("line editor started");
    p.expect(">>> ").expect("first prompt");
    p
}

/// Wait for the line being edited to end and the next `prompt`; the output between.
pub(super) fn next_prompt(p: &mut Session, prompt: &str, what: &str) -> String {
    p.expect(EDIT_END)
        .unwrap_or_else(|e| panic!("input not accepted after {what:?}: {e}"));
    let out = p
        .expect(EDIT_START)
        .unwrap_or_else(|e| panic!("no new prompt after {what:?}: {e}"));
    p.expect(prompt)
        .unwrap_or_else(|e| panic!("no {prompt:?} after {what:?}: {e}"));
    String::from_utf8_lossy(out.before()).into_owned()
}

/// Type `line` and Enter, then wait for the next `>>> ` prompt; what came between.
pub(super) fn run(p: &mut Session, line: &str) -> String {
    p.send_line(line).expect("send");
    next_prompt(p, ">>> ", line)
}

/// Type `line` and Enter inside a block: the prompt that follows is `... `.
pub(super) fn more(p: &mut Session, line: &str) {
    p.send_line(line).expect("send");
    next_prompt(p, "... ", line);
}

/// Whether `s` has an ANSI colour (SGR) sequence, `ESC [ digits/; m`.
fn has_sgr(s: &str) -> bool {
    s.split("\x1b[").skip(1).any(|rest| {
        let params = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';');
        params.starts_with('m')
    })
}

pub(super) fn quit(mut p: Session) {
    p.send_control('d').expect("send Ctrl-D");
    p.expect(Eof).expect("end of output after Ctrl-D");
    match p.wait() {
        Ok(WaitStatus::Exited(_, 0)) => {}
        other => panic!("gcalc did not exit with status 0: {other:?}"),
    }
}

#[test]
fn ctrl_d_exits_with_status_0() {
    let home = tempfile::tempdir().expect("tempdir");
    let p = spawn(home.path());
    quit(p);
}

#[test]
fn tab_completes_a_variable_and_a_builtin() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    run(&mut p, "myvariable = 4242");
    // `myv` + Tab becomes `myvariable`; Enter shows its value.
    p.send("myv\t").expect("send");
    p.expect("myvariable").expect("completed name echoed");
    let out = run(&mut p, "");
    assert!(out.contains("\r\n4242\r\n"), "value not shown: {out:?}");
    // `prin` + Tab becomes `print`.
    p.send("prin\t").expect("send");
    p.expect("print").expect("completed builtin echoed");
    let out = run(&mut p, "(31337)");
    assert!(out.contains("\r\n31337\r\n"), "print did not run: {out:?}");
    // A method after `.` (by the value's type) and a flag name after `set `.
    p.send("myvariable.copyt\t").expect("send");
    p.expect("copyto").expect("completed method echoed");
    p.send_control('c').expect("send Ctrl-C");
    next_prompt(&mut p, ">>> ", "Ctrl-C");
    p.send("set floa\t").expect("send");
    p.expect("set floatX").expect("completed flag echoed");
    let out = run(&mut p, " = float64");
    assert!(!out.contains("error"), "{out:?}");
    let out = run(&mut p, ":flags");
    assert!(out.contains("float64"), "{out:?}");
    quit(p);
}

#[test]
fn multi_line_block_shows_continuation_then_runs() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    more(&mut p, "fn f(x) {");
    more(&mut p, "print(\"in f\", x)");
    more(&mut p, "x");
    run(&mut p, "}");
    let out = run(&mut p, "f(77)");
    assert!(out.contains("in f 77"), "{out:?}");
    assert!(out.contains("\r\n77\r\n"), "{out:?}");
    quit(p);
}

#[test]
fn history_is_kept_across_sessions_with_blocks_whole() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    run(&mut p, "histvalue = 8080");
    more(&mut p, "fn g() {");
    more(&mut p, "9090");
    run(&mut p, "}");
    quit(p);
    let file = home.path().join("data/gcalc/history");
    let text = std::fs::read_to_string(&file).expect("history file written");
    assert!(text.contains("histvalue = 8080"), "{text:?}");

    let mut p = spawn(home.path());
    // Up recalls the whole block from the first session; Enter defines g.
    p.send(UP).expect("send Up");
    p.expect("9090").expect("block recalled");
    run(&mut p, "");
    let out = run(&mut p, "g()");
    assert!(out.contains("\r\n9090\r\n"), "{out:?}");
    // Further back, by Ctrl-R reverse search: the first session's first entry.
    p.send_control('r').expect("send Ctrl-R");
    p.send("histval").expect("send");
    p.expect("histvalue = 8080").expect("entry found");
    run(&mut p, "");
    let out = run(&mut p, "histvalue");
    assert!(out.contains("\r\n8080\r\n"), "{out:?}");
    quit(p);
}

#[test]
fn ctrl_c_stops_a_loop_and_keeps_variables() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    run(&mut p, "k = 0");
    // "started" is printed from inside the loop once k has counted, so the
    // Ctrl-C cannot land before the first increment (it did on a loaded
    // machine when "started" came before the loop: k stayed 0).
    p.send_line("while true { k += 1; if k == 1000 { print(\"started\") } }")
        .expect("send");
    // Running (the terminal is back in cooked mode): Ctrl-C sends SIGINT.
    p.expect(Regex("\r\nstarted\r\n")).expect("loop started");
    p.send_control('c').expect("send Ctrl-C");
    p.expect("interrupted").expect("interrupt reported");
    p.expect(EDIT_START).expect("prompt after the interrupt");
    p.expect(">>> ").expect("prompt after the interrupt");
    let out = run(&mut p, "k > 0");
    assert!(
        out.contains("\r\ntrue\r\n"),
        "k lost or not counted: {out:?}"
    );
    // Ctrl-C at the prompt clears the line; nothing runs.
    p.send("nosuchname").expect("send");
    p.send_control('c').expect("send Ctrl-C");
    next_prompt(&mut p, ">>> ", "Ctrl-C");
    let out = run(&mut p, "print(6)");
    assert!(!out.contains("nosuchname` is not defined"), "{out:?}");
    assert!(out.contains("\r\n6\r\n"), "{out:?}");
    quit(p);
}

#[test]
fn an_error_then_more_work() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    let out = run(&mut p, "y = nosuch + 1");
    assert!(out.contains("nosuch"), "{out:?}");
    assert!(out.contains('^'), "no caret: {out:?}");
    assert!(!has_sgr(&out), "colour despite NO_COLOR: {out:?}");
    let out = run(&mut p, "print(5)");
    assert!(out.contains("\r\n5\r\n"), "{out:?}");
    quit(p);
}

#[test]
fn commands() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    run(&mut p, "greeting = \"hello\"");
    let out = run(&mut p, ":vars");
    for col in [
        "name", "type", "shape", "dtype", "device", "bytes", "greeting",
    ] {
        assert!(out.contains(col), "{col} missing from :vars: {out:?}");
    }
    let out = run(&mut p, ":flags");
    assert!(out.contains("floatX"), "{out:?}");
    let out = run(&mut p, ":nosuch");
    assert!(
        out.contains("unknown command") && out.contains(":vars"),
        "{out:?}"
    );
    std::fs::write(
        home.path().join("a.gcalc"),
        "loaded = 123\nprint(\"from file\")\n",
    )
    .expect("write script");
    let out = run(&mut p, ":load a.gcalc");
    assert!(out.contains("from file"), "{out:?}");
    let out = run(&mut p, "loaded");
    assert!(out.contains("\r\n123\r\n"), "{out:?}");
    run(&mut p, ":reset");
    let out = run(&mut p, ":vars");
    assert!(out.contains("no variables"), "{out:?}");
    p.send_line(":quit").expect("send");
    p.expect(Eof).expect("end after :quit");
    assert!(matches!(p.wait(), Ok(WaitStatus::Exited(_, 0))));
}
