//! NumPy's print options (`set_printoptions`): precision, threshold,
//! edgeitems, linewidth, suppress, sign and floatmode, read by every array
//! print (`print.rs`). They live in a thread-local that the session running
//! on this thread installs before each input, so every front-end's prints
//! (REPL, print, f-strings, Jupyter) see the session's options.

use std::cell::Cell;

/// NumPy's `floatmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatMode {
    /// Exactly `precision` fraction digits, trailing zeros kept.
    Fixed,
    /// The shortest digits that read back, whatever `precision`.
    Unique,
    /// The shortest digits, at most `precision` (NumPy's default).
    MaxPrec,
    /// As `MaxPrec`, every element with as many digits as the longest.
    MaxPrecEqual,
}

impl FloatMode {
    pub fn name(self) -> &'static str {
        match self {
            FloatMode::Fixed => "fixed",
            FloatMode::Unique => "unique",
            FloatMode::MaxPrec => "maxprec",
            FloatMode::MaxPrecEqual => "maxprec_equal",
        }
    }

    pub fn parse(s: &str) -> Option<FloatMode> {
        [
            FloatMode::Fixed,
            FloatMode::Unique,
            FloatMode::MaxPrec,
            FloatMode::MaxPrecEqual,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
}

/// The options every array print reads (NumPy's defaults by `Default`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrintOptions {
    pub precision: usize,
    /// Arrays of more elements than this are summarised with `...`.
    pub threshold: usize,
    /// Items shown at each end of a summarised axis.
    pub edgeitems: usize,
    /// Columns; `None`: the session's width (75, the terminal's at the REPL).
    pub linewidth: Option<usize>,
    /// Never scientific for small numbers; they round to `precision`.
    pub suppress: bool,
    /// `'-'`, `'+'` (always a sign) or `' '` (a space for positives).
    pub sign: char,
    pub floatmode: FloatMode,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 8,
            threshold: 1000,
            edgeitems: 3,
            linewidth: None,
            suppress: false,
            sign: '-',
            floatmode: FloatMode::MaxPrec,
        }
    }
}

impl PrintOptions {
    /// The cap on fraction digits: none in `unique` mode.
    pub fn digits_cap(&self) -> Option<usize> {
        (self.floatmode != FloatMode::Unique).then_some(self.precision)
    }
}

thread_local! {
    static OPTIONS: Cell<PrintOptions> = Cell::new(PrintOptions::default());
}

/// The options in force on this thread.
pub fn options() -> PrintOptions {
    OPTIONS.with(|o| o.get())
}

/// Install `o` for every print on this thread.
pub fn set_options(o: PrintOptions) {
    OPTIONS.with(|c| c.set(o));
}
