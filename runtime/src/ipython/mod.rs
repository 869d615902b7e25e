//! IPython habits at a prompt (the terminal REPL and Jupyter), through
//! `Session::execute_entry`: `_`, `__`, `___` and `_N` for the values shown;
//! `name?` / `?name` for help and `name??` for a function's source; `%time
//! expr` and `%timeit expr` (also `%%time` / `%%timeit` over a whole cell)
//! timed as IPython times them, waiting for the devices. These lines can
//! never be gcalc (`?`, `%` and `!` cannot start a statement), so the rest of
//! an input runs as written. Other `%magics` and `!shell` lines are errors
//! that say what gcalc has instead. Scripts (`Session::execute`) have none
//! of this.

mod query;
mod timing;

pub use timing::format_time;

use crate::error::{Error, did_you_mean};
use crate::interp::Interp;
use crate::session::{ExecOutcome, Session};
use crate::value::Value;
use gcalc_lang::Completeness;
use query::help;
use timing::{time, timeit};

/// One piece of an input: lines of gcalc, or one IPython-style line.
#[derive(Debug, PartialEq)]
enum Piece {
    Code,
    /// `name?` (false) or `name??` (true).
    Help(String, bool),
    /// `%time` / `%timeit`: the code after the magic word (on this line, or
    /// the rest of the cell for `%%`).
    Time {
        repeat: bool,
    },
    Magic(String),
    Shell,
}

/// What a line is, when it is not gcalc; `rest` is where the timed code
/// starts in the line.
fn classify(line: &str) -> Option<(Piece, usize)> {
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let t = t.trim_end();
    if let Some(r) = t.strip_prefix('!') {
        let _ = r;
        return Some((Piece::Shell, 0));
    }
    if let Some(m) = t.strip_prefix('%') {
        let cell = m.starts_with('%');
        let m = m.trim_start_matches('%');
        let word: String = m
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let body = lead + 1 + usize::from(cell) + word.len();
        return Some(match word.as_str() {
            "time" => (Piece::Time { repeat: false }, body),
            "timeit" => (Piece::Time { repeat: true }, body),
            _ => (
                Piece::Magic(format!("%{}{word}", if cell { "%" } else { "" })),
                0,
            ),
        });
    }
    let q = t.starts_with('?') || t.ends_with('?');
    let name = t.trim_matches('?');
    let is_name = !name.is_empty()
        && name.split('.').all(|p| {
            p.starts_with(|c: char| c.is_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
    (q && is_name).then(|| {
        let source = t.starts_with("??") || t.ends_with("??");
        (Piece::Help(name.to_string(), source), 0)
    })
}

/// `code` with every byte outside `keep` made a space (newlines kept), so
/// spans in it are spans in `code`.
fn only(code: &str, keep: std::ops::Range<usize>) -> String {
    code.char_indices()
        .flat_map(|(i, c)| {
            let n = c.len_utf8();
            let kept = keep.contains(&i) || c == '\n';
            let s = if kept { c.to_string() } else { " ".repeat(n) };
            s.chars().collect::<Vec<_>>()
        })
        .collect()
}

/// The span of a line's text, without its indentation and newline.
fn line_span(code: &str, range: std::ops::Range<usize>) -> gcalc_lang::Span {
    let line = &code[range.clone()];
    let start = range.start + (line.len() - line.trim_start().len());
    let end = range.start + line.trim_end().len();
    gcalc_lang::Span::new(start, end.max(start))
}

/// The input cut into pieces: (what, the byte range it covers, where the
/// timed code starts). A line that continues an open bracket or string is
/// gcalc whatever it looks like.
fn pieces(code: &str) -> Vec<(Piece, std::ops::Range<usize>, usize)> {
    let mut out: Vec<(Piece, std::ops::Range<usize>, usize)> = Vec::new();
    let mut start = 0;
    for line in code.split_inclusive('\n') {
        let end = start + line.len();
        // An open bracket or string in the last piece's gcalc continues it.
        let open = match out.last() {
            Some((Piece::Code, r, _)) => Some(r.start),
            Some((Piece::Time { .. }, _, body)) => Some(*body),
            _ => None,
        }
        .is_some_and(|from| {
            matches!(
                gcalc_lang::is_complete(&code[from..start]),
                Completeness::Incomplete { .. }
            )
        });
        if open && let Some(last) = out.last_mut() {
            last.1.end = end;
            start = end;
            continue;
        }
        match classify(line) {
            Some((Piece::Time { repeat }, body)) if line.trim_start().starts_with("%%") => {
                // A cell magic: the rest of the cell is timed.
                out.push((Piece::Time { repeat }, start..code.len(), start + body));
                return out;
            }
            Some((p, body)) => out.push((p, start..end, start + body)),
            None => match out.last_mut() {
                Some((Piece::Code, r, _)) => r.end = end,
                _ => out.push((Piece::Code, start..end, start)),
            },
        }
        start = end;
    }
    out
}

/// Whether an input is whole, with its IPython lines seen as what they
/// contain: `%time for ... {` continues on the next line; `exp?` is whole.
pub fn completeness(code: &str) -> Completeness {
    let mut gcalc = String::with_capacity(code.len());
    for (piece, range, body) in pieces(code) {
        match piece {
            Piece::Code => gcalc.push_str(&code[range]),
            Piece::Time { .. } => gcalc.push_str(&code[body..range.end]),
            _ => gcalc.push('\n'),
        }
    }
    gcalc_lang::is_complete(&gcalc)
}

impl Session {
    /// Run an input typed at a prompt (the REPL's entry, a Jupyter cell) as
    /// input number `n`: the IPython habits above, then `_`, `__`, `___` and
    /// `_n` name the value shown.
    pub fn execute_entry(&mut self, code: &str, source_name: &str, n: u64) -> ExecOutcome {
        let ps = pieces(code);
        if ps.len() == 1 && ps[0].0 == Piece::Code {
            let (outcome, value) = self.execute_value(code, code, source_name, Interp::run);
            self.remember(n, value);
            return outcome;
        }
        let mut last = ExecOutcome::default();
        let mut last_value = None;
        for (piece, range, body) in ps {
            let (outcome, value) = match piece {
                Piece::Code => {
                    let text = only(code, range);
                    self.execute_value(&text, code, source_name, Interp::run)
                }
                Piece::Time { repeat } => {
                    let text = only(code, body..range.end);
                    let run = if repeat { timeit } else { time };
                    self.execute_value(&text, code, source_name, run)
                }
                Piece::Help(name, source) => {
                    let span = line_span(code, range);
                    self.execute_value(&only(code, 0..0), code, source_name, |i, _, _, _| {
                        help(i, &name, source).map(|()| None).map_err(|e| e.at(span))
                    })
                }
                Piece::Magic(m) => self.fail(code, source_name, range, magic_error(&m)),
                Piece::Shell => self.fail(
                    code,
                    source_name,
                    range,
                    Error::value("gcalc does not run shell commands (`!...`)")
                        .with_help("run them in a terminal; files are read with load() and written with save()"),
                ),
            };
            let failed = outcome.error.is_some() || outcome.exit.is_some();
            last = outcome;
            last_value = value;
            if failed {
                return last;
            }
        }
        self.remember(n, last_value);
        last
    }

    fn remember(&mut self, n: u64, value: Option<Value>) {
        if let Some(v) = value.filter(|v| !matches!(v, Value::None)) {
            self.interp.results.record(n, v);
        }
    }

    /// An error at the line `range` of `code`.
    fn fail(
        &mut self,
        code: &str,
        source_name: &str,
        range: std::ops::Range<usize>,
        e: Error,
    ) -> (ExecOutcome, Option<Value>) {
        let span = line_span(code, range);
        self.execute_value(&only(code, 0..0), code, source_name, |_, _, _, _| {
            Err(e.at(span))
        })
    }
}

fn magic_error(m: &str) -> Error {
    let help = match m {
        "%matplotlib" => "plots need no setup: a figure shows inline in Jupyter and is written to a file at the prompt".to_string(),
        "%pip" | "%conda" => "gcalc has no packages to install".to_string(),
        "%who" | "%whos" => "`:vars` at the prompt lists the variables".to_string(),
        "%reset" => "`:reset` at the prompt forgets every variable".to_string(),
        "%load" | "%run" => "`:load FILE` at the prompt runs a .gcalc file in the session".to_string(),
        _ => {
            let known = ["%time", "%timeit", "%%time", "%%timeit"];
            let mut h = did_you_mean(m, known).map(|s| format!("{s} ")).unwrap_or_default();
            h.push_str("gcalc knows %time, %timeit (and %%time, %%timeit for a whole cell), name? and name??");
            h
        }
    };
    Error::name(format!("`{m}` is an IPython magic gcalc does not have")).with_help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_gcalc() {
        assert_eq!(
            classify("exp?"),
            Some((Piece::Help("exp".into(), false), 0))
        );
        assert_eq!(
            classify("  ??x.sum "),
            Some((Piece::Help("x.sum".into(), true), 0))
        );
        assert_eq!(
            classify("%timeit x @ x"),
            Some((Piece::Time { repeat: true }, 7))
        );
        assert_eq!(classify("%%time"), Some((Piece::Time { repeat: false }, 6)));
        assert_eq!(
            classify("%matplotlib inline"),
            Some((Piece::Magic("%matplotlib".into()), 0))
        );
        assert_eq!(classify("!ls"), Some((Piece::Shell, 0)));
        assert_eq!(classify("x = 1"), None);
        assert_eq!(classify("x ? y"), None);
    }

    #[test]
    fn pieces_keep_offsets() {
        let code = "x = 1\n%timeit x + 1\ny = \"\"\"\n%time\n\"\"\"\nx?\n%time for i in xs {\ni\n}";
        let ps = pieces(code);
        let kinds: Vec<&Piece> = ps.iter().map(|p| &p.0).collect();
        assert_eq!(
            kinds,
            vec![
                &Piece::Code,
                &Piece::Time { repeat: true },
                &Piece::Code,
                &Piece::Help("x".into(), false),
                &Piece::Time { repeat: false }
            ]
        );
        assert_eq!(&code[ps[4].2..ps[4].1.end], " for i in xs {\ni\n}");
        assert_eq!(&code[ps[1].2..ps[1].1.end], " x + 1\n");
        assert_eq!(only("ab\ncd", 3..5), "  \ncd");
    }
}
