//! The gcalc parser: turns source text into a spanned [`Program`] plus
//! diagnostics, recovering after each statement that fails so that one run
//! reports every error it can.
//!
//! Layout: `lexical` (tokens, via nom), `expr` (precedence climbing),
//! `stmt` (statements, blocks, assignment targets, error recovery).
//! Every parse function takes the rest of the input (a suffix of the
//! source) and returns the rest after what it consumed; a byte offset is
//! `src.len() - rest.len()`.

mod collections;
mod compound;
mod expr;
mod fstring;
mod habits;
mod lexical;
mod stmt;

use crate::ast::Program;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

pub(crate) use lexical::{StrLex, any_string};

/// How deeply brackets, blocks and prefix operators may nest before the
/// parser gives up (keeps the stack bounded on hostile input).
const MAX_DEPTH: usize = 64;

/// How many binary operators one chain (`a + b + ...`) may hold: the tree
/// it builds is that deep, and dropping or walking it recurses.
const MAX_CHAIN: usize = 1000;

/// A syntax error that stops the current statement.
#[derive(Debug)]
pub(crate) struct PErr {
    pub msg: String,
    pub span: Span,
    pub help: Option<String>,
    /// Where recovery starts looking for the next statement boundary.
    pub resume: usize,
    /// Set when the error is "expected an expression" at `span.start`, so an
    /// operator can say which operand is missing.
    pub expected_expr: bool,
}

impl PErr {
    fn help(mut self: Box<Self>, h: impl Into<String>) -> Box<Self> {
        self.help = Some(h.into());
        self
    }
}

pub(crate) type PResult<'a, T> = Result<(&'a str, T), Box<PErr>>;

pub(crate) struct Parser<'a> {
    src: &'a str,
    diags: Vec<Diagnostic>,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        Parser {
            src,
            diags: Vec::new(),
            depth: 0,
        }
    }

    /// Byte offset of `rest` in the source.
    fn pos(&self, rest: &str) -> usize {
        self.src.len().saturating_sub(rest.len())
    }

    fn span_from(&self, start: usize, rest: &str) -> Span {
        Span::new(start, self.pos(rest))
    }

    /// The span of the token at the start of `rest`.
    fn tok_span(&self, rest: &str) -> Span {
        let p = self.pos(rest);
        Span::new(p, p + lexical::token_len(rest))
    }

    /// An error pointing at the token at the start of `rest`.
    fn err_at(&self, rest: &str, msg: impl Into<String>) -> Box<PErr> {
        Box::new(PErr {
            msg: msg.into(),
            span: self.tok_span(rest),
            help: None,
            resume: self.pos(rest),
            expected_expr: false,
        })
    }

    /// "expected WHAT, found TOKEN" at the token at the start of `rest`.
    fn expected(&self, rest: &str, what: &str) -> Box<PErr> {
        self.err_at(
            rest,
            format!("expected {what}, found {}", lexical::describe(rest)),
        )
    }

    /// "unclosed `(`" pointing at the opening bracket at byte `open`.
    fn unclosed(&self, open: usize, bracket: char, resume: usize) -> Box<PErr> {
        let close = match bracket {
            '(' => ')',
            '[' => ']',
            _ => '}',
        };
        Box::new(PErr {
            msg: format!("unclosed `{bracket}`"),
            span: Span::new(open, open + 1),
            help: Some(format!("add a `{close}` to close it")),
            resume,
            expected_expr: false,
        })
    }

    fn push_err(&mut self, e: PErr) {
        let PErr {
            msg, span, help, ..
        } = e;
        let mut d = Diagnostic::syntax(msg, span);
        d.help = help;
        self.diags.push(d);
    }

    /// Enter one nesting level; fails past [`MAX_DEPTH`].
    fn enter(&mut self, rest: &str) -> Result<(), Box<PErr>> {
        if self.depth >= MAX_DEPTH {
            return Err(self
                .err_at(rest, "this is nested too deeply")
                .help("split it into several statements"));
        }
        self.depth += 1;
        Ok(())
    }

    /// Count one more operator of a chain; fails past [`MAX_CHAIN`].
    fn chain(&self, count: &mut usize, rest: &str) -> Result<(), Box<PErr>> {
        *count += 1;
        if *count > MAX_CHAIN {
            return Err(self
                .err_at(rest, "this expression is too long")
                .help("split it into several statements"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// Parse a whole program, collecting every diagnostic.
pub(crate) fn parse_program(src: &str) -> (Program, Vec<Diagnostic>) {
    let mut p = Parser::new(src);
    let (_, stmts) = p.stmts(src, false);
    (Program { stmts }, p.diags)
}
