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

/// `gcalc -e CODE... ARGS...`: the code's last value is shown.
pub fn run_eval(flags: Flags, code: &str, args: Vec<String>) -> u8 {
    run_with_args(flags, code, "<-e>", true, args)
}

fn run_with_args(flags: Flags, code: &str, name: &str, show_value: bool, args: Vec<String>) -> u8 {
    let mut session = Session::new(flags, Box::new(StdOutput::new()));
    session.set_script_args(args);
    session.set_whole_program(true);
    let outcome = session.execute(code, name);
    if let Some(status) = outcome.exit {
        // Python's sys.exit: the status modulo 256, as the shell sees it.
        return (status & 0xff) as u8;
    }
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

/// Scripts longer than this are refused: a script is code, and a device
/// such as `/dev/zero` never ends.
pub const MAX_SCRIPT_BYTES: u64 = 64 << 20;

/// The text of a script read from `r` (at most `MAX_SCRIPT_BYTES`), without
/// a leading UTF-8 byte order mark (Python accepts one too).
fn read_script(r: impl Read, name: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    r.take(MAX_SCRIPT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(format!(
            "{name} is longer than {} MiB: too long for a script (data belongs in a .npy file: load(path))",
            MAX_SCRIPT_BYTES >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name} is not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// What is at a script path that cannot be run as one (a device, a folder),
/// or `None` for a regular file or a pipe (`gcalc <(cmd)`).
fn not_a_script(path: &str) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let ft = std::fs::metadata(path).ok()?.file_type();
    if ft.is_file() || ft.is_fifo() {
        None
    } else if ft.is_dir() {
        Some("a folder")
    } else if ft.is_char_device() || ft.is_block_device() {
        Some("a device")
    } else {
        Some("not a regular file")
    }
}

pub fn run_file(flags: Flags, path: &str, args: Vec<String>) -> u8 {
    if let Some(what) = not_a_script(path) {
        eprintln!("gcalc: cannot run {path}: it is {what}, not a script file");
        return 1;
    }
    let code = match std::fs::File::open(path)
        .map_err(|e| format!("cannot read {path}: {e}"))
        .and_then(|f| read_script(f, path))
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gcalc: {e}");
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
    match read_script(std::io::stdin().lock(), "standard input") {
        Ok(code) => run_code(flags, &code, "<stdin>", false),
        Err(e) => {
            eprintln!("gcalc: {e}");
            1
        }
    }
}
