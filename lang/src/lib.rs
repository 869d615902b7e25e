//! gcalc syntax: a nom parser from source text to a spanned AST plus
//! diagnostics, the completeness check a prompt needs, and error rendering.
//!
//! Invariant: this crate depends on no other gcalc crate, and nothing here
//! panics on any input.

pub mod ast;
mod complete;
pub mod diagnostic;
mod parser;
pub mod resolve;
pub mod sexpr;
pub mod span;

pub use ast::*;
pub use complete::{Completeness, is_complete};
pub use diagnostic::{Diagnostic, RenderOptions, render};
pub use span::Span;

/// A parsed program and every diagnostic found on the way. The program
/// holds each statement that parsed; those with errors are left out.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseResult {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParseResult {
    /// True when there are no diagnostics.
    pub fn is_ok(&self) -> bool {
        self.diagnostics.is_empty()
    }
}

/// The end (a byte offset) of the string literal whose opening quote is at
/// byte `quote` of `src` (an f-string when an `f` comes right before the
/// quote: its fields may hold quotes of their own); `None` if it is unclosed.
/// For highlighters, which must find where a string ends without parsing.
pub fn string_literal_end(src: &str, quote: usize) -> Option<usize> {
    match parser::any_string(src, quote) {
        parser::StrLex::Ok(rest, _) => Some(src.len() - rest.len()),
        parser::StrLex::Unclosed { .. } => None,
    }
}

/// Parse a program, a REPL input or a notebook cell. Never panics; recovers
/// after each statement with an error and reports them all.
pub fn parse(src: &str) -> ParseResult {
    let (program, diagnostics) = parser::parse_program(src);
    ParseResult {
        program,
        diagnostics,
    }
}
