//! NumPy's second names for ops gcalc has under another name: `absolute`
//! (abs), `bitwise_not` (invert), `degrees` (rad2deg), `radians` (deg2rad),
//! `amax` and `amin` (max, min with axis/keepdims). Each is the original
//! entry with its own name, sig and doc (as `remainder` is `mod`), so
//! fusion, both backends, gradients and help read one definition.

use super::elementwise::{ABS, INVERT};
use super::elementwise_math::{DEG2RAD, RAD2DEG};
use super::{OpDef, OpKind};
use crate::opid::ReduceOp;

pub static OPS: &[OpDef] = &[
    OpDef {
        name: "absolute",
        sig: "absolute(x)",
        doc: "NumPy's name for abs: the absolute value (ints stay ints).",
        ..ABS
    },
    OpDef {
        name: "bitwise_not",
        sig: "bitwise_not(x)",
        doc: "NumPy's name for invert: bitwise not of ints (~x == -x - 1), logical not of bools (the `~` operator).",
        ..INVERT
    },
    OpDef {
        name: "degrees",
        sig: "degrees(x)",
        doc: "NumPy's name for rad2deg: radians to degrees, x * (180 / pi).",
        ..RAD2DEG
    },
    OpDef {
        name: "radians",
        sig: "radians(x)",
        doc: "NumPy's name for deg2rad: degrees to radians, x * (pi / 180).",
        ..DEG2RAD
    },
];

/// The reductions' second names (a table of their own: help's family).
pub static REDUCE_OPS: &[OpDef] = &[
    OpDef {
        name: "amax",
        sig: "amax(x, axis=none, keepdims=false)",
        doc: "NumPy's name for max: the largest element over axis (nan if any is nan).",
        method: false,
        kind: OpKind::Reduce(ReduceOp::Max),
        grad: Some(crate::autodiff::rules::max_grad),
    },
    OpDef {
        name: "amin",
        sig: "amin(x, axis=none, keepdims=false)",
        doc: "NumPy's name for min: the smallest element over axis (nan if any is nan).",
        method: false,
        kind: OpKind::Reduce(ReduceOp::Min),
        grad: Some(crate::autodiff::rules::min_grad),
    },
];
