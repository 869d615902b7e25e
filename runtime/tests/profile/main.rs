//! The profiler's tests, one binary apart from the others: some compare times with the wall clock, so they do not share a process with heavy tests.

mod profile_arrays;
mod profile_backend;
mod profile_grad;
mod profile_records;
mod profile_util;
