//! NumPy 2's other names for ops gcalc has: the array-API spellings of the
//! inverse trigonometric functions (`acos asin atan atan2 acosh asinh
//! atanh`), `bitwise_invert bitwise_left_shift bitwise_right_shift`,
//! `true_divide` and `row_stack` (vstack). Each is the original entry with
//! its own name, sig and doc ("alias of X"), so fusion, both backends,
//! gradients, complex forms (`complex_ew::cx_op` reads `ALIASES`) and help
//! read one definition.

use super::OpDef;
use super::assemble::VSTACK;
use super::elementwise::{DIVIDE, INVERT, LEFT_SHIFT, RIGHT_SHIFT};
use super::elementwise_math::{ARCCOS, ARCCOSH, ARCSIN, ARCSINH, ARCTAN, ARCTAN2, ARCTANH};

/// (alias, original) for every entry of this file and of `npmath_alias.rs`
/// whose original has a complex form, so a complex operand works under
/// either name.
pub const ALIASES: &[(&str, &str)] = &[
    ("true_divide", "divide"),
    ("absolute", "abs"),
    ("acos", "arccos"),
    ("asin", "arcsin"),
    ("atan", "arctan"),
    ("atan2", "arctan2"),
    ("acosh", "arccosh"),
    ("asinh", "arcsinh"),
    ("atanh", "arctanh"),
];

pub static OPS: &[OpDef] = &[
    OpDef {
        name: "acos",
        sig: "acos(x)",
        doc: "Alias of arccos (NumPy 2's array-API name): inverse cosine, in [0, pi] (nan outside [-1, 1]).",
        ..ARCCOS
    },
    OpDef {
        name: "asin",
        sig: "asin(x)",
        doc: "Alias of arcsin (NumPy 2's array-API name): inverse sine, in [-pi/2, pi/2] (nan outside [-1, 1]).",
        ..ARCSIN
    },
    OpDef {
        name: "atan",
        sig: "atan(x)",
        doc: "Alias of arctan (NumPy 2's array-API name): inverse tangent, in (-pi/2, pi/2).",
        ..ARCTAN
    },
    OpDef {
        name: "atan2",
        sig: "atan2(y, x)",
        doc: "Alias of arctan2 (NumPy 2's array-API name): the angle of the point (x, y) in (-pi, pi], y first.",
        ..ARCTAN2
    },
    OpDef {
        name: "acosh",
        sig: "acosh(x)",
        doc: "Alias of arccosh (NumPy 2's array-API name): inverse hyperbolic cosine (nan below 1).",
        ..ARCCOSH
    },
    OpDef {
        name: "asinh",
        sig: "asinh(x)",
        doc: "Alias of arcsinh (NumPy 2's array-API name): inverse hyperbolic sine.",
        ..ARCSINH
    },
    OpDef {
        name: "atanh",
        sig: "atanh(x)",
        doc: "Alias of arctanh (NumPy 2's array-API name): inverse hyperbolic tangent (+-inf at +-1, nan outside).",
        ..ARCTANH
    },
    OpDef {
        name: "bitwise_invert",
        sig: "bitwise_invert(x)",
        doc: "Alias of invert (NumPy 2's array-API name): bitwise not of ints (~x == -x - 1), logical not of bools.",
        ..INVERT
    },
    OpDef {
        name: "bitwise_left_shift",
        sig: "bitwise_left_shift(x, y)",
        doc: "Alias of left_shift (NumPy 2's array-API name): x shifted left by y bits (the `<<` operator).",
        ..LEFT_SHIFT
    },
    OpDef {
        name: "bitwise_right_shift",
        sig: "bitwise_right_shift(x, y)",
        doc: "Alias of right_shift (NumPy 2's array-API name): x shifted right by y bits, keeping the sign (the `>>` operator).",
        ..RIGHT_SHIFT
    },
    OpDef {
        name: "true_divide",
        sig: "true_divide(x, y)",
        doc: "Alias of divide: true division x / y; integer inputs give floatX (the `/` operator).",
        ..DIVIDE
    },
];

/// `row_stack`, in a table of its own (help's shape family).
pub static SHAPE_OPS: &[OpDef] = &[OpDef {
    name: "row_stack",
    sig: "row_stack(arrays)",
    doc: "Alias of vstack (NumPy's older name): 1-d arrays become rows (1, n), then everything joins along axis 0. A copy.",
    ..VSTACK
}];
