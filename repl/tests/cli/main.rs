//! The `gcalc` binary's tests, one binary: flag precedence, golden scripts,
//! the REPL in a pseudo-terminal (and as issue 23 drives it).

mod eval_args;
mod files;
mod flags;
mod golden;
mod memory;
mod repl_frontends;
mod repl_pty;
