//! Figures: `plot`, `scatter`, `hist`, `imshow`, `bar` and `savefig`, drawn
//! with plotters to PNG and SVG, shown inline in Jupyter and written to files
//! from the REPL and scripts.
//!
//! The parts: `data` turns values into checked numbers, `figure` is the
//! figure value (an `Object`), `render` draws it, `colormap` colours images,
//! `files` writes atomically, `builtins` is the op table.

pub mod builtins;
pub mod colormap;
pub mod data;
pub mod draw;
pub mod figure;
pub mod files;
pub mod groups;
pub mod render;

pub use builtins::OPS;
pub use figure::{Chart, Figure, Mark, Series, Style};
