//! The `gcalc` binary: scripts (`gcalc file.gcalc`, `-e`, standard input), the
//! terminal REPL (no arguments on a terminal) and the Jupyter kernel
//! (`gcalc jupyter ...`). The only crate that knows rustyline or Jupyter.

mod alloc;
mod cli;
mod jupyter;
mod script;
mod signals;
mod terminal;

use std::process::ExitCode;

/// mimalloc for small blocks, the C library for array data (`alloc.rs`).
#[global_allocator]
static GLOBAL: alloc::Split = alloc::Split;

/// Interpreter threads get a large stack: deep user recursion and deeply
/// nested expressions end in a clear error long before this runs out.
pub const STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cmd = match cli::parse(&args) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("gcalc: {msg}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    // Run on a thread with a big stack; the main thread only waits.
    let h = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .name("gcalc".into())
        .spawn(move || cli::run(cmd));
    match h.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("gcalc: internal error: the interpreter thread stopped unexpectedly");
            ExitCode::from(70)
        }
    }
}
