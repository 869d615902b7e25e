//! The Jupyter kernel: `gcalc jupyter install` writes a kernelspec (and the
//! JupyterLab extension and Pygments lexer that highlight gcalc) and
//! `gcalc jupyter kernel CONNECTION_FILE` serves the messaging protocol 5.x
//! over ZeroMQ, driving one `Session`.

mod b64;
mod history;
pub mod install;
mod kernel;
mod labext;
mod pygments;
mod sink;
mod wire;
mod worker;

pub use kernel::run as run_kernel;
