//! Diagnostics (a message, a span, an optional hint) and their rendering with a
//! source line and caret. This is the one place errors become text: the
//! runtime's errors are turned into a `Diagnostic` and rendered here.

use crate::span::{Span, line_col, line_text};

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// A short name of the kind of problem: "syntax error", "name error", "shape error"...
    pub kind: String,
    pub message: String,
    pub span: Option<Span>,
    /// How to fix it, when we know.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(kind: impl Into<String>, message: impl Into<String>, span: Option<Span>) -> Self {
        Diagnostic {
            kind: kind.into(),
            message: message.into(),
            span,
            help: None,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn syntax(message: impl Into<String>, span: Span) -> Self {
        Diagnostic::new("syntax error", message, Some(span))
    }
}

/// Options for rendering.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderOptions {
    /// ANSI colours (callers respect NO_COLOR and whether the output is a terminal).
    pub color: bool,
}

/// Render a diagnostic as
/// ```text
/// error: name error: unknown name `fo`
///  --> script.gcalc:3:5
///   |
/// 3 | x = fo + 1
///   |     ^^ did you mean `foo`?
/// ```
pub fn render(d: &Diagnostic, source_name: &str, source: &str, opts: RenderOptions) -> String {
    let (red, blue, bold, reset) = if opts.color {
        ("\x1b[31;1m", "\x1b[34;1m", "\x1b[1m", "\x1b[0m")
    } else {
        ("", "", "", "")
    };
    let mut out = format!(
        "{red}error{reset}{bold}: {}: {}{reset}\n",
        d.kind, d.message
    );
    if let Some(span) = d.span.filter(|s| (s.start as usize) <= source.len()) {
        let (line, col) = line_col(source, span.start as usize);
        let full = line_text(source, line);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        out.push_str(&format!(
            "{pad}{blue}-->{reset} {source_name}:{line}:{col}\n"
        ));
        out.push_str(&format!("{pad} {blue}|{reset}\n"));
        // caret under the span, clipped to this line
        let (end_line, end_col) = line_col(source, span.end as usize);
        let width = if end_line == line {
            end_col.saturating_sub(col).max(1)
        } else {
            full.chars().count().saturating_sub(col - 1).max(1)
        };
        let (text, col, width) = excerpt(full, col, width);
        out.push_str(&format!("{blue}{line}{reset} {blue}|{reset} {text}\n"));
        let lead: String = text
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!(
            "{pad} {blue}|{reset} {lead}{red}{}{reset}",
            "^".repeat(width)
        ));
        if let Some(h) = &d.help {
            out.push_str(&format!(" {bold}{h}{reset}"));
        }
        out.push('\n');
    } else if let Some(h) = &d.help {
        out.push_str(&format!("  = help: {h}\n"));
    }
    out
}

/// Characters of a source line shown at most; a longer line is shown as an
/// excerpt around the caret, cut with `...` (a 4 MB line of data would
/// otherwise be echoed whole).
const MAX_SHOWN: usize = 160;
/// Characters of context kept before the caret in an excerpt.
const BEFORE: usize = 60;

/// The part of `line` to show for a caret at column `col` (1-based) of
/// `width` characters: the text, the caret's column in it and its width.
fn excerpt(line: &str, col: usize, width: usize) -> (String, usize, usize) {
    let n = line.chars().count();
    if n <= MAX_SHOWN {
        return (line.to_string(), col, width);
    }
    // Characters first..last (0-based) are shown: columns first + 1 ..= last.
    let first = (col - 1)
        .saturating_sub(BEFORE)
        .min(n.saturating_sub(MAX_SHOWN));
    let last = (first + MAX_SHOWN).min(n);
    let width = (col + width).min(last + 1).saturating_sub(col).max(1);
    let mut text: String = line.chars().skip(first).take(last - first).collect();
    let mut shown_col = col - first;
    if first > 0 {
        text.insert_str(0, "...");
        shown_col += 3;
    }
    if last < n {
        text.push_str("...");
    }
    (text, shown_col, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_the_caret() {
        let line = format!("x = [{}] + y", "1, ".repeat(1_000_000));
        let src = format!("a = 1\n{line}\n");
        let at = src.rfind('y').unwrap();
        let d = Diagnostic::new(
            "name error",
            "unknown name `y`",
            Some(Span::new(at, at + 1)),
        );
        let text = render(&d, "big.gcalc", &src, RenderOptions::default());
        assert!(text.len() < 1000, "{} bytes", text.len());
        let col = line.chars().count();
        assert!(text.contains(&format!("big.gcalc:2:{col}")), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let (shown, caret) = (lines[3], lines[4]);
        assert!(
            shown.starts_with("2 | ...") && shown.ends_with("1, ] + y"),
            "{shown}"
        );
        // The caret sits under the `y`.
        let y = shown.rfind('y').unwrap();
        assert_eq!(caret.find('^'), Some(y), "{shown}\n{caret}");
        // Near the start of a long line: cut at the end only.
        let at = src.find('[').unwrap();
        let d = Diagnostic::new("syntax error", "here", Some(Span::new(at, at + 1)));
        let text = render(&d, "big.gcalc", &src, RenderOptions::default());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[3].starts_with("2 | x = [1, ") && lines[3].ends_with("..."));
        assert_eq!(lines[4].find('^'), lines[3].find('['));
        // Short lines are shown whole.
        let d = Diagnostic::new("syntax error", "here", Some(Span::new(4, 5)));
        let text = render(&d, "big.gcalc", "a = 1\n", RenderOptions::default());
        assert!(
            text.contains("1 | a = 1\n") && text.contains("  |     ^"),
            "{text}"
        );
    }
}
