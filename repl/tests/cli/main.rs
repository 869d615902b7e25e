//! The `gcalc` binary's tests, one binary: flag precedence, golden scripts,
//! the REPL in a pseudo-terminal.

mod files;
mod flags;
mod golden;
mod repl_pty;
