//! Running whole programs: a file, `-e` code or standard input. Errors go to
//! standard error with `file:line:col`, the source line and a caret; the exit
//! status is 1 on error.

use gcalc_runtime::{DisplayData, Flags, Output, Session};
use std::io::{BufRead, IsTerminal, Read, Write};

/// Output of a script: straight to the process's stdout and stderr.
pub struct StdOutput {
    stderr_tty: bool,
}

impl StdOutput {
    pub fn new() -> StdOutput {
        StdOutput {
            stderr_tty: std::io::stderr().is_terminal(),
        }
    }
}

impl Output for StdOutput {
    fn stdout(&mut self, text: &str) {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(text.as_bytes());
        let _ = o.flush();
    }
    fn stderr(&mut self, text: &str) {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
    fn display(&mut self, data: &DisplayData) {
        self.stdout(&format!("{}\n", data.text));
    }
    fn input(&mut self, prompt: &str) -> Option<String> {
        self.stdout(prompt);
        read_stdin_line()
    }
    fn progress(&mut self, p: &gcalc_runtime::output::Progress) {
        // In scripts the bar goes to stderr, and only when stderr is a terminal.
        if self.stderr_tty {
            let end = if p.finished { "\n" } else { "" };
            let _ = write!(std::io::stderr(), "\r{}{end}", p.render_line(30));
        }
    }
}

/// One line of standard input for `input()`; `None` at end of input.
pub fn read_stdin_line() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line),
    }
}

fn color_for_stderr() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Run `code` as one program; `show_value` prints the last expression's value (`-e`).
pub fn run_code(flags: Flags, code: &str, name: &str, show_value: bool) -> u8 {
    run_with_args(flags, code, name, show_value, Vec::new())
}

fn run_with_args(flags: Flags, code: &str, name: &str, show_value: bool, args: Vec<String>) -> u8 {
    let mut session = Session::new(flags, Box::new(StdOutput::new()));
    session.set_script_args(args);
    session.set_whole_program(true);
    let outcome = session.execute(code, name);
    if let Some(err) = outcome.error {
        let text = if color_for_stderr() {
            &err.rendered_color
        } else {
            &err.rendered
        };
        eprint!("{text}");
        return 1;
    }
    if let (true, Some(v)) = (show_value, outcome.value) {
        println!("{}", v.text);
    }
    0
}

pub fn run_file(flags: Flags, path: &str, args: Vec<String>) -> u8 {
    let code = match std::fs::read_to_string(path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gcalc: cannot read {path}: {e}");
            return 1;
        }
    };
    // A `#!` first line is allowed (blanked so that line numbers stay right).
    let code = if code.starts_with("#!") {
        let end = code.find('\n').unwrap_or(code.len());
        format!("{}{}", " ".repeat(end), &code[end..])
    } else {
        code
    };
    run_with_args(flags, &code, path, false, args)
}

pub fn run_stdin(flags: Flags) -> u8 {
    let mut code = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut code) {
        eprintln!("gcalc: cannot read standard input: {e}");
        return 1;
    }
    run_code(flags, &code, "<stdin>", false)
}
