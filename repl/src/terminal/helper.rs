//! The rustyline helper: tab completion through `Session::complete`, a hint
//! with a builtin's signature after `name(`, and syntax highlighting by the
//! standalone lexer. Completion runs only on Tab; a keystroke's redraw never
//! executes code (the signature hint is a table look-up).

use super::lexer;
use gcalc_runtime::Session;
use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hint, Hinter};
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

pub struct ReplHelper {
    session: Rc<RefCell<Session>>,
    /// Earlier lines of the entry being typed (a multi-line block), newline-terminated.
    pub pending: String,
    color: bool,
    /// Whether the next redraw should mark the bracket pair at the cursor.
    mark_brackets: Cell<bool>,
    /// Reading for `input()`: text, not gcalc (no colours, hints or completion).
    pub plain: bool,
}

impl ReplHelper {
    pub fn new(session: Rc<RefCell<Session>>, color: bool) -> ReplHelper {
        ReplHelper {
            session,
            pending: String::new(),
            color,
            mark_brackets: Cell::new(false),
            plain: false,
        }
    }
}

/// The name of the call whose `(` is just before `pos`, if any (`exp(`, `x.sum(`).
pub fn call_before(line: &str, pos: usize) -> Option<&str> {
    let before = line.get(..pos)?.strip_suffix('(')?;
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
        .last()
        .map(|(i, _)| i)?;
    let name = &before[start..];
    name.starts_with(|c: char| !c.is_ascii_digit())
        .then_some(name)
}

/// A hint that is shown but never inserted (Right arrow does not accept it).
pub struct SigHint(String);

impl Hint for SigHint {
    fn display(&self) -> &str {
        &self.0
    }
    fn completion(&self) -> Option<&str> {
        None
    }
}

impl Hinter for ReplHelper {
    type Hint = SigHint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<SigHint> {
        if pos != line.len() || self.plain {
            return None;
        }
        let name = call_before(line, pos)?;
        // A cheap table look-up; `try_borrow` so a redraw can never wait.
        let session = self.session.try_borrow().ok()?;
        let sig = session.signature(name)?;
        Some(SigHint(format!("   {sig}")))
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let Ok(session) = self.session.try_borrow() else {
            return Ok((pos, Vec::new()));
        };
        if self.plain {
            return Ok((pos, Vec::new()));
        }
        let off = self.pending.len();
        let code = format!("{}{line}", self.pending);
        let c = session.complete(&code, off + pos);
        // Text on earlier lines of a block cannot be replaced any more.
        if c.start < off {
            return Ok((pos, Vec::new()));
        }
        let pairs = c
            .matches
            .into_iter()
            .map(|m| Pair {
                display: m.clone(),
                replacement: m,
            })
            .collect();
        let start = c.start - off;
        Ok((start, pairs))
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        if !self.color || self.plain {
            return Cow::Borrowed(line);
        }
        let cursor = self.mark_brackets.get().then_some(pos);
        Cow::Owned(lexer::highlight(&self.pending, line, cursor))
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        if self.color && !self.plain {
            Cow::Owned(format!("\x1b[32m{prompt}\x1b[0m"))
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, kind: CmdKind) -> bool {
        // The final redraw (on Enter) leaves no bracket marked.
        self.mark_brackets.set(kind != CmdKind::ForcedRefresh);
        self.color && !self.plain
    }
}

/// Lines are accepted as typed; the prompt loop asks `Session::is_complete`
/// and reads continuation lines with a `... ` prompt.
impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::call_before;

    #[test]
    fn finds_the_call() {
        assert_eq!(call_before("exp(", 4), Some("exp"));
        assert_eq!(call_before("y = x.sum(", 10), Some("sum"));
        assert_eq!(call_before("(", 1), None);
        assert_eq!(call_before("3(", 2), None);
        assert_eq!(call_before("exp(1", 5), None);
        assert_eq!(call_before("é(", 3), Some("é"));
        assert_eq!(call_before("é(", 1), None);
    }
}
