//! Where a REPL session's output goes: the terminal, with `progress(...)`
//! drawn as one self-overwriting line (bar, rate, ETA) that other output
//! clears and the end of the statement finishes; `input()` reads through the
//! REPL's line editor.

use super::Rl;
use gcalc_runtime::output::Progress;
use gcalc_runtime::{DisplayData, InterruptHandle, Output};
use rustyline::error::ReadlineError;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// The REPL's line editor, for `input()` on the REPL's thread: lines
    /// typed or pasted ahead sit in its buffer, so reading stdin directly
    /// would miss them. (`Output` must be `Send`; the editor is not, so it
    /// is reached through the thread, not held.)
    static EDITOR: RefCell<Option<(Rc<RefCell<Rl>>, InterruptHandle)>> = const { RefCell::new(None) };
}

/// The editor `input()` reads with, and the handle a Ctrl-C there interrupts.
pub fn set_editor(editor: Option<(Rc<RefCell<Rl>>, InterruptHandle)>) {
    EDITOR.with(|e| *e.borrow_mut() = editor);
}

/// Read a line for `input(prompt)` with the editor, plain (no gcalc
/// highlighting or completion); `Some(None)` at Ctrl-D or Ctrl-C (which
/// also interrupts the statement); `None` without an editor.
fn read_with_editor(prompt: &str) -> Option<Option<String>> {
    let (rl, interrupt) = EDITOR.with(|e| e.borrow().clone())?;
    let Ok(mut rl) = rl.try_borrow_mut() else {
        return None;
    };
    if let Some(h) = rl.helper_mut() {
        h.plain = true;
    }
    let line = rl.readline(prompt);
    if let Some(h) = rl.helper_mut() {
        h.plain = false;
    }
    match line {
        Ok(l) => Some(Some(l)),
        Err(ReadlineError::Interrupted) => {
            interrupt.interrupt();
            Some(None)
        }
        Err(_) => Some(None),
    }
}

/// Width of the bar itself; the whole line stays under 80 columns.
const BAR_WIDTH: usize = 24;

pub struct TermOutput {
    /// A progress line is on screen without its newline yet (shared with the
    /// prompt loop, which ends it when a statement stops mid-loop).
    bar_open: Arc<AtomicBool>,
}

impl TermOutput {
    pub fn new(bar_open: Arc<AtomicBool>) -> TermOutput {
        TermOutput { bar_open }
    }

    /// Clear an unfinished progress line before other text.
    fn clear_bar(&self, w: &mut impl Write) {
        if self.bar_open.swap(false, Ordering::Relaxed) {
            let _ = w.write_all(b"\r\x1b[K");
        }
    }
}

/// End an unfinished progress line (a loop interrupted or failed mid-way).
pub fn end_bar(bar_open: &AtomicBool) {
    if bar_open.swap(false, Ordering::Relaxed) {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(b"\n");
        let _ = o.flush();
    }
}

impl Output for TermOutput {
    fn stdout(&mut self, text: &str) {
        let mut o = std::io::stdout().lock();
        self.clear_bar(&mut o);
        let _ = o.write_all(text.as_bytes());
        let _ = o.flush();
    }

    fn stderr(&mut self, text: &str) {
        {
            let mut o = std::io::stdout().lock();
            self.clear_bar(&mut o);
            let _ = o.flush();
        }
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(text.as_bytes());
        let _ = e.flush();
    }

    fn display(&mut self, data: &DisplayData) {
        self.stdout(&format!("{}\n", data.text));
    }

    fn input(&mut self, prompt: &str) -> Option<String> {
        {
            let mut o = std::io::stdout().lock();
            self.clear_bar(&mut o);
            let _ = o.flush();
        }
        match read_with_editor(prompt) {
            Some(line) => line,
            None => {
                self.stdout(prompt);
                crate::script::read_stdin_line()
            }
        }
    }

    fn progress(&mut self, p: &Progress) {
        let mut o = std::io::stdout().lock();
        let line = p.render_line(BAR_WIDTH);
        if p.finished {
            let _ = write!(o, "\r\x1b[K{line}\n");
            self.bar_open.store(false, Ordering::Relaxed);
        } else {
            let _ = write!(o, "\r\x1b[K{line}");
            self.bar_open.store(true, Ordering::Relaxed);
        }
        let _ = o.flush();
    }
}
