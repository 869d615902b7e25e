//! The interactive terminal REPL (`gcalc` on a terminal): banner, `>>> ` and
//! `... ` prompts over `Session::is_complete`, values and errors shown, history
//! in the XDG data dir, Ctrl-C handling, and the `:commands`. A thin front-end:
//! the Session runs on this (big-stack) thread; a SIGINT handler only flips
//! the session's interrupt flag.

mod commands;
mod helper;
mod lexer;
mod output;
mod paste;

use commands::After;
use gcalc_lang::Completeness;
use gcalc_runtime::device::Device;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{ExecOutcome, Flags, InterruptHandle, Session};
use helper::ReplHelper;
use paste::{PasteHandler, PasteState};
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Editor, Event, EventHandler};
use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

type Rl = Editor<ReplHelper, FileHistory>;

/// Entries kept in the history file.
const HISTORY_SIZE: usize = 10_000;

/// Ctrl-C presses during one statement after which the REPL gives up waiting
/// for it and quits (a statement stuck inside one long operation).
const HARD_EXIT_PRESSES: u32 = 3;

/// Where history lives: `$XDG_DATA_HOME/gcalc/history`, else
/// `~/.local/share/gcalc/history`; `None` when neither can be found.
pub fn history_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?)
            .join(".local")
            .join("share"),
    };
    Some(base.join("gcalc").join("history"))
}

/// `gcalc 0.1.0 — device cpu(0) (no GPU: ...)`.
fn banner(flags: &Flags) -> String {
    let dev = flags.resolved_device();
    let mut s = format!("gcalc {} — device {dev}", env!("CARGO_PKG_VERSION"));
    if dev == Device::Cpu && flags.device == DeviceFlag::Auto {
        let why = gcalc_runtime::cuda::no_gpu().message;
        let why = why.strip_prefix("no usable GPU: ").unwrap_or(&why);
        s.push_str(&format!(" (no GPU: {why})"));
    }
    s.push_str("\nType :help for commands and keys, help(name) for a builtin, Ctrl-D to quit.");
    s
}

/// Show what running an input gave: the value, or the rendered error.
pub fn show_outcome(outcome: ExecOutcome, color: bool) {
    if let Some(err) = outcome.error {
        if err.kind() == Some(gcalc_runtime::ErrorKind::Interrupted) {
            // The terminal echoed `^C` where the cursor was.
            println!();
        }
        let text = if color {
            &err.rendered_color
        } else {
            &err.rendered
        };
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = e.write_all(b"\n");
        }
        let _ = e.flush();
    } else if let Some(v) = outcome.value {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{}", v.text);
        let _ = o.flush();
    }
}

/// One input as read at the prompt.
enum Entry {
    Code(String),
    /// Ctrl-C, or Ctrl-D inside a block: nothing to run.
    Cleared,
    Eof,
}

/// Read one whole entry: a line, and `... ` lines while it is incomplete.
fn read_entry(
    rl: &mut Rl,
    session: &RefCell<Session>,
    paste: &PasteState,
) -> Result<Entry, ReadlineError> {
    let mut buf = String::new();
    let mut indent = String::new();
    // Whether the last line came ahead of its prompt (then the next one
    // brings its own indentation: no pre-filled indent).
    let mut ahead = false;
    loop {
        let prompt = if buf.is_empty() { ">>> " } else { "... " };
        if let Some(h) = rl.helper_mut() {
            h.pending.clone_from(&buf);
        }
        paste.arm();
        let prefill = if ahead { "" } else { indent.as_str() };
        let read = rl.readline_with_initial(prompt, (prefill, ""));
        if let Some(at_once) = paste.came_at_once() {
            ahead = at_once;
        }
        let line = match read {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => return Ok(Entry::Cleared),
            Err(ReadlineError::Eof) if buf.is_empty() => return Ok(Entry::Eof),
            Err(ReadlineError::Eof) => {
                println!();
                return Ok(Entry::Cleared);
            }
            Err(e) => return Err(e),
        };
        if buf.is_empty() && line.trim_start().starts_with(':') {
            return Ok(Entry::Code(line));
        }
        buf.push_str(&line);
        match session.borrow().is_complete(&buf) {
            Completeness::Incomplete { indent: i } => {
                buf.push('\n');
                indent = i;
            }
            Completeness::Complete | Completeness::Invalid => return Ok(Entry::Code(buf)),
        }
    }
}

/// Ctrl-C while a statement runs interrupts it; pressed again and again with
/// no effect (one long operation), the REPL quits.
fn install_sigint(handle: InterruptHandle, running: Arc<AtomicBool>, presses: Arc<AtomicU32>) {
    let r = ctrlc::set_handler(move || {
        handle.interrupt();
        if running.load(Ordering::Relaxed)
            && presses.fetch_add(1, Ordering::Relaxed) + 1 >= HARD_EXIT_PRESSES
        {
            eprintln!("\ngcalc: the statement does not stop; quitting");
            gcalc_runtime::safe_write::end_writes();
            std::process::exit(130);
        }
    });
    if let Err(e) = r {
        eprintln!("gcalc: warning: Ctrl-C cannot interrupt running code ({e})");
    }
}

/// Run the REPL until Ctrl-D or `:quit`; the exit status.
pub fn run(flags: Flags) -> u8 {
    let color = std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    println!("{}", banner(&flags));
    let bar_open = Arc::new(AtomicBool::new(false));
    let session = Session::new(flags, Box::new(output::TermOutput::new(bar_open.clone())));
    let running = Arc::new(AtomicBool::new(false));
    let presses = Arc::new(AtomicU32::new(0));
    let interrupt = session.interrupt_handle();
    let session = Rc::new(RefCell::new(session));

    let paste = Arc::new(PasteState::default());
    let mut rl: Rl = match editor(&paste) {
        Ok(rl) => rl,
        Err(e) => {
            eprintln!("gcalc: cannot start the line editor: {e}");
            return 1;
        }
    };
    // After the editor: rustyline puts its own SIGINT handler in place when
    // it is made (while it reads, Ctrl-C is a key, not a signal).
    install_sigint(interrupt, running.clone(), presses.clone());
    rl.set_helper(Some(ReplHelper::new(session.clone(), color)));
    let history = history_path();
    if let Some(p) = history.as_deref().filter(|p| p.exists())
        && let Err(e) = rl.load_history(p)
    {
        eprintln!("gcalc: warning: cannot read history {}: {e}", p.display());
    }

    // `input()` reads through the same editor, so lines typed ahead for it
    // (buffered by rustyline) reach it.
    let rl = Rc::new(RefCell::new(rl));
    output::set_editor(Some((rl.clone(), session.borrow().interrupt_handle())));
    let status = repl_loop(&rl, &session, &paste, &running, &presses, &bar_open, color);
    output::set_editor(None);
    status
}

fn repl_loop(
    rl: &RefCell<Rl>,
    session: &RefCell<Session>,
    paste: &PasteState,
    running: &AtomicBool,
    presses: &AtomicU32,
    bar_open: &AtomicBool,
    color: bool,
) -> u8 {
    let history = history_path();
    let mut count = 0u64;
    loop {
        let entry = read_entry(&mut rl.borrow_mut(), session, paste);
        let code = match entry {
            Ok(Entry::Code(c)) => c,
            Ok(Entry::Cleared) => continue,
            Ok(Entry::Eof) => break,
            Err(e) => {
                eprintln!("gcalc: cannot read the terminal: {e}");
                return 1;
            }
        };
        if let Some(h) = rl.borrow_mut().helper_mut() {
            h.pending.clear();
        }
        if code.trim().is_empty() {
            continue;
        }
        save_history(&mut rl.borrow_mut(), history.as_deref(), &code);
        // Arrays and listings wrap at the terminal's width as it is now.
        if let Some((cols, _)) = rl.borrow_mut().dimensions() {
            session.borrow_mut().set_line_width(usize::from(cols));
        }
        if code.trim_start().starts_with(':') {
            match commands::run(&mut session.borrow_mut(), &code, color) {
                After::Quit => break,
                After::Continue => continue,
            }
        }
        count += 1;
        presses.store(0, Ordering::Relaxed);
        running.store(true, Ordering::Relaxed);
        let outcome = session
            .borrow_mut()
            .execute_entry(&code, &format!("In[{count}]"), count);
        running.store(false, Ordering::Relaxed);
        output::end_bar(bar_open);
        // `exit()`/`quit()` leave the REPL as `:quit` does.
        if outcome.exit.is_some() {
            break;
        }
        show_outcome(outcome, color);
    }
    0
}

/// The line editor: completions listed on the first Tab when ambiguous (as
/// IPython's menu opens), a long history kept by hand (entries are added
/// whole, after their `... ` lines), pastes and typed-ahead lines run line by
/// line (`paste`).
fn editor(paste: &Arc<PasteState>) -> rustyline::Result<Rl> {
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .history_ignore_dups(true)?
        .max_history_size(HISTORY_SIZE)?
        .completion_type(CompletionType::List)
        .completion_show_all_if_ambiguous(true)
        .build();
    let mut rl = Editor::with_config(config)?;
    rl.bind_sequence(
        Event::Any,
        EventHandler::Conditional(Box::new(PasteHandler(paste.clone()))),
    );
    Ok(rl)
}

fn save_history(rl: &mut Rl, path: Option<&std::path::Path>, code: &str) {
    if rl.add_history_entry(code).is_err() {
        return;
    }
    let Some(p) = path else { return };
    if let Some(dir) = p.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // Appended after every entry, so a killed session keeps its history.
    if let Err(e) = rl.append_history(p) {
        eprintln!("gcalc: warning: cannot write history {}: {e}", p.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banner_names_version_and_device() {
        let b = banner(&Flags::default());
        assert!(b.starts_with(&format!("gcalc {} — device ", env!("CARGO_PKG_VERSION"))));
        assert!(b.lines().count() <= 2);
    }
}
