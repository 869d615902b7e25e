//! NumPy's functions that take a callable, its in-place helpers and its
//! small assembly helpers (the `arrutil` family): `callables.rs`
//! (apply_along_axis, apply_over_axes, vectorize, fromfunction),
//! `inplace.rs` (fill_diagonal, putmask, copyto), `select.rs` (compress,
//! extract, unstack, matvec, vecmat, block), `iterate.rs` (ndindex,
//! ndenumerate, packbits, unpackbits), `textio.rs` (loadtxt, genfromtxt,
//! savetxt, savez_compressed: host files).
//!
//! Like `nparr`, every function is composed of other table ops called
//! through the interpreter, so it runs on every device and, under `grad`,
//! each step is on the tape (a gradient through apply_along_axis is the
//! composition's: the slices, the function's own ops and the stack).

pub mod callables;
pub mod inplace;
pub mod iterate;
pub mod select;
pub mod textio;

use crate::ops::OpDef;

/// apply_along_axis, apply_over_axes, vectorize, fromfunction (help family: language).
pub static CALLABLE_OPS: &[OpDef] = callables::OPS;
/// fill_diagonal, putmask (help family: indexing).
pub static INPLACE_OPS: &[OpDef] = inplace::OPS;
/// compress, extract, unstack, matvec, vecmat, block (help family: shape).
pub static SELECT_OPS: &[OpDef] = select::OPS;
/// ndindex, ndenumerate, packbits, unpackbits (help family: indexing).
pub static ITERATE_OPS: &[OpDef] = iterate::OPS;
/// loadtxt, genfromtxt, savetxt, savez_compressed (help family: files).
pub static TEXT_OPS: &[OpDef] = textio::OPS;
