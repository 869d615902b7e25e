//! Lines that arrive together — a paste without bracketed paste, `tmux
//! paste-buffer`, keys typed while a statement runs — are never lost and run
//! in order, each as if typed at its prompt.
//!
//! rustyline reads the terminal in blocks; without its `buffer-redux` feature
//! (on in Cargo.toml) the bytes read past the first Enter were dropped when
//! `readline` returned. With it they stay buffered for the next `readline`.
//!
//! This key handler does the rest:
//! - A bracketed paste is taken as typed keys: each pasted newline is an
//!   Enter, so a pasted block runs line by line like typed-ahead lines and
//!   a complete block needs no extra Enter (rustyline would insert the whole
//!   paste into one line and wait). Inside a paste a Tab is a tab character,
//!   not completion.
//! - It notes when each line's keys came. A continuation line (`... `) is
//!   pre-filled with the block's indent for a person typing; lines that came
//!   ahead of their prompt (pasted, or typed while a statement ran) bring
//!   their own indentation, so after such a line the next one is not
//!   pre-filled (else pasted code would be indented twice).

use rustyline::{
    Cmd, ConditionalEventHandler, Event, EventContext, KeyCode, KeyEvent, Modifiers, RepeatCount,
};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A line whose keys all came within this was not typed at its prompt by
/// hand (a person needs about 100 ms a key).
const AT_ONCE: Duration = Duration::from_millis(30);

/// When the keys of the line being read came.
#[derive(Default)]
struct LineKeys {
    first: Option<Instant>,
    count: u32,
}

/// State shared by the prompt loop and the key handler (rustyline wants
/// handlers `Send + Sync`).
#[derive(Default)]
pub struct PasteState {
    /// Between the terminal's paste-start and paste-end sequences.
    in_paste: AtomicBool,
    keys: Mutex<LineKeys>,
}

impl PasteState {
    fn keys(&self) -> std::sync::MutexGuard<'_, LineKeys> {
        self.keys.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A `readline` starts now.
    pub fn arm(&self) {
        *self.keys() = LineKeys::default();
    }

    /// After a `readline` returned: `Some(true)` when its line came all at
    /// once (pasted or typed ahead), `Some(false)` when typed at the prompt,
    /// `None` for a bare Enter (which says neither).
    pub fn came_at_once(&self) -> Option<bool> {
        if self.in_paste.load(Ordering::Relaxed) {
            return Some(true);
        }
        let k = self.keys();
        match k.first {
            Some(first) if k.count >= 2 => Some(first.elapsed() < AT_ONCE),
            _ => None,
        }
    }
}

pub struct PasteHandler(pub std::sync::Arc<PasteState>);

impl ConditionalEventHandler for PasteHandler {
    fn handle(&self, evt: &Event, _: RepeatCount, _: bool, _: &EventContext<'_>) -> Option<Cmd> {
        let Event::KeySeq(keys) = evt else {
            return None;
        };
        let key = *keys.first()?;
        match key.0 {
            KeyCode::BracketedPasteStart => {
                self.0.in_paste.store(true, Ordering::Relaxed);
                return Some(Cmd::Noop);
            }
            KeyCode::BracketedPasteEnd => {
                self.0.in_paste.store(false, Ordering::Relaxed);
                return Some(Cmd::Noop);
            }
            _ => {}
        }
        {
            let mut k = self.0.keys();
            k.first.get_or_insert_with(Instant::now);
            k.count += 1;
        }
        let in_paste = self.0.in_paste.load(Ordering::Relaxed);
        (in_paste && key == KeyEvent(KeyCode::Tab, Modifiers::NONE))
            .then(|| Cmd::Insert(1, "\t".into()))
    }
}
