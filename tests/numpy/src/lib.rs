//! NumPy-differential testing for gcalc (NumPy 2 is the oracle for values
//! and dtypes). Generators make cases from a seed — `index` (every kind of
//! indexing, read and write) and `ops` (a table of functions) — each case a
//! gcalc program and the equivalent NumPy program, both leaving their result
//! in `out`. `driver::check` runs a batch: gcalc through a closure the test
//! passes in (a `Session`, on any device), NumPy in one `oracle` process,
//! then compares (`outcome`) and shrinks every mismatch class to a minimal
//! reproduction. This crate does not depend on gcalc, so the runtime's test
//! binaries and the fuzz target can both use it. See ARCHITECTURE.md
//! ("NumPy-differential tests") and tests/numpy/FINDINGS.md.

pub mod driver;
pub mod index;
pub mod lit;
pub mod ops;
pub mod ops_arrutil;
pub mod ops_assemble;
pub mod ops_ew;
pub mod ops_fft;
pub mod ops_linalg;
pub mod ops_np_names;
pub mod ops_nparr;
pub mod ops_npmath;
pub mod ops_random;
pub mod ops_signal;
pub mod ops_sort;
pub mod ops_stats;
pub mod oracle;
pub mod outcome;
pub mod rng;
pub mod suite;

pub use driver::{Case, Report, check};
pub use oracle::Oracle;
pub use outcome::{Mismatch, Outcome, Tol, Values};
pub use rng::{Rng, case_seed};
pub use suite::Settings;
