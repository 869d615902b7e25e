//! Named constants: `pi e inf nan` (weak floats, like Python's `math.pi`)
//! and `newaxis` (none, as `np.newaxis`: `x[:, newaxis]`). A variable of
//! the same name hides one (`e = edges[0]` is fine). `stdout` and `stderr`
//! are the streams `print(..., file=)` writes to. `r_ c_ mgrid ogrid` are
//! NumPy's index tricks (`index_tricks.rs`).

use crate::builtins::index_tricks::{IndexTrick, Trick};
use crate::value::Value;

pub struct Constant {
    pub name: &'static str,
    pub value: fn() -> Value,
    pub doc: &'static str,
}

pub static CONSTANTS: &[Constant] = &[
    Constant {
        name: "pi",
        value: || Value::Float(std::f64::consts::PI),
        doc: "The ratio of a circle's circumference to its diameter (a Python float: it takes the dtype of the array it meets).",
    },
    Constant {
        name: "e",
        value: || Value::Float(std::f64::consts::E),
        doc: "Euler's number, the base of natural logarithms (a Python float).",
    },
    Constant {
        name: "inf",
        value: || Value::Float(f64::INFINITY),
        doc: "Positive infinity (a Python float); -inf is negative infinity.",
    },
    Constant {
        name: "nan",
        value: || Value::Float(f64::NAN),
        doc: "Not a number (a Python float); test with isnan(x), since nan != nan.",
    },
    Constant {
        name: "euler_gamma",
        value: || Value::Float(0.577_215_664_901_532_9),
        doc: "The Euler-Mascheroni constant 0.5772156649015329 (a Python float, as np.euler_gamma).",
    },
    Constant {
        name: "newaxis",
        value: || Value::None,
        doc: "none, for indexing: x[:, newaxis] adds an axis of length 1 (as NumPy's np.newaxis).",
    },
    Constant {
        name: "r_",
        value: || trick(Trick::R),
        doc: "NumPy's r_: r_[a, b, 0:3, 5] joins arrays, numbers and slices (start:stop:step as arange, start:stop:nj as n points with stop included) along the first axis.",
    },
    Constant {
        name: "c_",
        value: || trick(Trick::C),
        doc: "NumPy's c_: c_[x, y] joins along the last axis, 1-d pieces as columns (c_[array([1, 2]), array([3, 4])] is [[1, 3], [2, 4]]).",
    },
    Constant {
        name: "mgrid",
        value: || trick(Trick::Mgrid),
        doc: "NumPy's mgrid: mgrid[0:3, -1:1:5j] is the dense grid of the slices' points, stacked: shape (2, 3, 5) (meshgrid with indexing=\"ij\"); one slice gives its points.",
    },
    Constant {
        name: "ogrid",
        value: || trick(Trick::Ogrid),
        doc: "NumPy's ogrid: ogrid[0:3, 0:4] is the open grid, a tuple of arrays shaped (3, 1) and (1, 4) that broadcast to the dense one; one slice gives its points.",
    },
    Constant {
        name: "stdout",
        value: || {
            Value::Object(std::sync::Arc::new(crate::builtins::pyobjects::Stream {
                to_stderr: false,
            }))
        },
        doc: "Standard output, for print(x, file=stdout) (Python's sys.stdout).",
    },
    Constant {
        name: "stderr",
        value: || {
            Value::Object(std::sync::Arc::new(crate::builtins::pyobjects::Stream {
                to_stderr: true,
            }))
        },
        doc: "Standard error, for print(x, file=stderr) (Python's sys.stderr).",
    },
];

fn trick(t: Trick) -> Value {
    Value::Object(std::sync::Arc::new(IndexTrick(t)))
}

/// The constant called `name`, if there is one.
pub fn lookup(name: &str) -> Option<&'static Constant> {
    CONSTANTS.iter().find(|c| c.name == name)
}
