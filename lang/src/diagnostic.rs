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
        let text = line_text(source, line);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        out.push_str(&format!(
            "{pad}{blue}-->{reset} {source_name}:{line}:{col}\n"
        ));
        out.push_str(&format!("{pad} {blue}|{reset}\n"));
        out.push_str(&format!("{blue}{line}{reset} {blue}|{reset} {text}\n"));
        // caret under the span, clipped to this line
        let (end_line, end_col) = line_col(source, span.end as usize);
        let width = if end_line == line {
            end_col.saturating_sub(col).max(1)
        } else {
            text.chars().count().saturating_sub(col - 1).max(1)
        };
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
