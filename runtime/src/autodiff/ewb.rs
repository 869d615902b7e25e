//! Builders of elementwise trees for the gradient rules in the op table:
//! `e(g) * e(o) * (c(1.0) - e(o))` builds the `EwNode` tree of sigmoid's
//! backward, so every elementwise backward runs fused (CPU, and the GPU's
//! generated kernels) like the forward.

use crate::ops::fuse::{EwNode, Operand};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A tree under construction; `None` once an op was missing from the table
/// (the rule then gives no gradient instead of panicking).
#[derive(Clone)]
pub struct E(pub Option<EwNode>);

/// A node of the forward tree (an operand, the output, the upstream gradient).
pub fn e(n: &EwNode) -> E {
    E(Some(n.clone()))
}

/// A weak float constant: takes the dtype of the arrays it meets.
pub fn c(v: f64) -> E {
    E(Some(EwNode::Leaf(Operand::Float(v))))
}

/// The op `name` of the table applied to `args`.
pub fn call<const N: usize>(name: &str, args: [E; N]) -> E {
    let op = crate::ops::lookup(name);
    let args: Option<Vec<EwNode>> = args.into_iter().map(|a| a.0).collect();
    E(op.zip(args).map(|(op, args)| EwNode::Op { op, args }))
}

pub fn where_(cond: E, x: E, y: E) -> E {
    call("where", [cond, x, y])
}
pub fn gt(a: E, b: E) -> E {
    call("greater", [a, b])
}
pub fn ge(a: E, b: E) -> E {
    call("greater_equal", [a, b])
}
pub fn lt(a: E, b: E) -> E {
    call("less", [a, b])
}
pub fn le(a: E, b: E) -> E {
    call("less_equal", [a, b])
}
pub fn eq(a: E, b: E) -> E {
    call("equal", [a, b])
}

impl Add for E {
    type Output = E;
    fn add(self, r: E) -> E {
        call("add", [self, r])
    }
}
impl Sub for E {
    type Output = E;
    fn sub(self, r: E) -> E {
        call("subtract", [self, r])
    }
}
impl Mul for E {
    type Output = E;
    fn mul(self, r: E) -> E {
        call("multiply", [self, r])
    }
}
impl Div for E {
    type Output = E;
    fn div(self, r: E) -> E {
        call("divide", [self, r])
    }
}
impl Neg for E {
    type Output = E;
    fn neg(self) -> E {
        call("negative", [self])
    }
}
