//! The terminal REPL as people use it (issue 23), in a pseudo-terminal like
//! `repl_pty`: pastes and lines typed ahead are never lost, output fits the
//! terminal's width, IPython's habits, completion lists on the first Tab.

use super::repl_pty::{EDIT_START, next_prompt, quit, run, spawn, spawn_echoing};
use expectrl::Session;

/// Wait until `text` has been printed; what came before it.
fn wait_for(p: &mut Session, text: &str) -> String {
    let m = p
        .expect(text)
        .unwrap_or_else(|e| panic!("{text:?} never came: {e}"));
    String::from_utf8_lossy(m.before()).into_owned()
}

/// After output that ended a run: the next `>>> ` prompt.
fn prompt_again(p: &mut Session, what: &str) {
    p.expect(EDIT_START)
        .unwrap_or_else(|e| panic!("no new prompt after {what:?}: {e}"));
    p.expect(">>> ")
        .unwrap_or_else(|e| panic!("no >>> after {what:?}: {e}"));
}

/// A paste without bracketed paste (what `tmux paste-buffer` sends: the lines
/// in one write, each ended by a carriage return) runs every line in order,
/// a multi-line `fn` block whole, with its own indentation (not doubled by the
/// `... ` prompt's).
#[test]
fn pasted_lines_all_run_in_order() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    p.send("a1 = 1\rb1 = 2\rc1 = 3\rprint(\"sum\", a1 + b1 + c1)\r")
        .expect("send");
    wait_for(&mut p, "sum 6");
    let block = [
        "fn norm(v) {",
        "    s = 0.0",
        "    for x in v {",
        "        s += x * x",
        "    }",
        "    r = sqrt(s)",
        "    # the Euclidean norm",
        "    print(\"norm is\", r)",
        "    r",
        "}",
        "print(\"twice\", 2 * norm([3, 4]))",
    ];
    p.send(format!("{}\r", block.join("\r"))).expect("send");
    wait_for(&mut p, "norm is 5.0");
    wait_for(&mut p, "twice 10.0");
    prompt_again(&mut p, "the pasted block");
    let out = run(&mut p, "print(a1, b1, c1, norm([6, 8]))");
    assert!(out.contains("1 2 3 10.0"), "{out:?}");
    quit(p);
    let history =
        std::fs::read_to_string(home.path().join("data/gcalc/history")).expect("history written");
    assert!(history.contains("    s = 0.0"), "{history:?}");
    assert!(
        !history.contains("        s = 0.0") && history.contains("        s += x * x"),
        "indentation doubled or lost: {history:?}"
    );
}

/// Lines typed while a statement runs wait their turn and all run, in order.
#[test]
fn typed_ahead_lines_run_after_the_running_statement() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn_echoing(home.path());
    p.send_line(
        "print(\"loop\", \"started\"); t = 0; for i in range(300000) { t += i }; print(\"loop\", \"done\")",
    )
    .expect("send");
    wait_for(&mut p, "loop started");
    // tmux send-keys 'a2 = 1' Enter 'b2 = 2' Enter ...: while the loop runs.
    p.send("a2 = 1\r").expect("send");
    p.send("b2 = a2 + 1\r").expect("send");
    p.send("print(\"ahead\", a2, b2, t)\r").expect("send");
    // The terminal echoes typed-ahead keys at once: before the loop ends.
    let before = wait_for(&mut p, "loop done");
    assert!(
        before.contains("a2 = 1"),
        "the lines were not typed while the loop ran: {before:?}"
    );
    wait_for(&mut p, "ahead 1 2 44999850000");
    prompt_again(&mut p, "the typed-ahead lines");
    quit(p);
}

/// A bracketed paste runs like typed lines: a complete block needs no extra
/// Enter; text after the last newline stays at the prompt until Enter.
#[test]
fn bracketed_paste_runs_without_an_extra_enter() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    p.send("\x1b[200~x3 = 3\ry3 = 4\rfn f3(z) {\r\treturn z * x3\r}\rprint(\"product\", f3(y3))\r\x1b[201~")
        .expect("send");
    wait_for(&mut p, "product 12");
    prompt_again(&mut p, "the paste");
    p.send("\x1b[200~x4 = 5\rprint(\"x4 is\", x4)\x1b[201~")
        .expect("send");
    next_prompt(&mut p, ">>> ", "the first pasted line");
    let out = run(&mut p, "");
    assert!(out.contains("x4 is 5"), "{out:?}");
    quit(p);
}

/// `input()` gets the line pasted after the statement that asks for it.
#[test]
fn input_reads_a_line_pasted_ahead() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    p.send("who = input(\"name? \")\rAda\rprint(\"hello\", who)\r")
        .expect("send");
    wait_for(&mut p, "hello Ada");
    prompt_again(&mut p, "the paste");
    quit(p);
}

/// Arrays wrap at the terminal's width (NumPy's 75 columns elsewhere), as
/// it is when the statement runs; `:flags` fits a 120-column terminal with
/// every word whole.
#[test]
fn output_wraps_at_the_terminal_width() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    let widest = |out: &str| out.split("\r\n").map(|l| l.chars().count()).max();
    p.set_window_size(120, 40).expect("resize");
    let out = run(&mut p, "arange(60) * 1.5");
    let w = widest(&out).unwrap_or(0);
    assert!((76..=120).contains(&w), "widest line {w}: {out:?}");
    let out = run(&mut p, ":flags");
    assert!(widest(&out).unwrap_or(0) <= 120, "{out:?}");
    let text = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for (_, values, doc) in gcalc_runtime::flags::FLAG_DOCS {
        let want = format!("{values}: {doc}");
        assert!(
            text.contains(&want),
            "{want:?} not whole in :flags: {out:?}"
        );
    }
    p.set_window_size(60, 40).expect("resize");
    let out = run(&mut p, "arange(60) * 1.5");
    assert!(widest(&out).unwrap_or(99) <= 60, "{out:?}");
    quit(p);
}

/// IPython habits at the terminal prompt: `_`, `_N`, `name?`, `%time`.
#[test]
fn ipython_habits_at_the_prompt() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    let out = run(&mut p, "6 * 7");
    assert!(out.contains("\r\n42\r\n"), "{out:?}");
    let out = run(&mut p, "_ + 1");
    assert!(out.contains("\r\n43\r\n"), "{out:?}");
    let out = run(&mut p, "_1 * 2");
    assert!(out.contains("\r\n84\r\n"), "{out:?}");
    let out = run(&mut p, "sigmoid?");
    assert!(
        out.contains("sigmoid(x)") && out.contains("SciPy:") && out.contains("example:"),
        "{out:?}"
    );
    let out = run(&mut p, "%time sum(arange(10))");
    assert!(
        out.contains("Wall time: ") && out.contains("\r\n45 <scalar int64"),
        "{out:?}"
    );
    quit(p);
}

/// An ambiguous Tab after a call lists the choices at once (IPython's menu
/// opens on the first Tab); a unique one completes.
#[test]
fn first_tab_lists_completions_after_a_call() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut p = spawn(home.path());
    p.send("zeros((2,2)).a\t").expect("send");
    // The menu is in columns, sorted down them (the order on the terminal
    // depends on how many names there are): read it all, from before
    // `astype` (only the menu has it) to the line drawn again after it.
    let head = p.expect("astype").expect("the menu");
    let head = String::from_utf8_lossy(head.before()).into_owned();
    let tail = p
        .expect(">>> zeros((2,2)).a")
        .expect("the line after the menu");
    let menu = format!("{head}astype{}", String::from_utf8_lossy(tail.before()));
    for name in ["all", "any", "argmax", "argmin", "argsort", "astype"] {
        assert!(menu.contains(name), "{name} not listed: {menu:?}");
    }
    p.send_control('c').expect("send Ctrl-C");
    next_prompt(&mut p, ">>> ", "Ctrl-C");
    p.send("ones(3).resh\t").expect("send");
    p.expect("ones(3).reshape").expect("completed");
    let out = run(&mut p, "(3, 1)");
    assert!(out.contains("<3x1 float32 @cpu(0)>"), "{out:?}");
    quit(p);
}
