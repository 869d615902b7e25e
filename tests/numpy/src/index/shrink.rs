//! Smaller variants of an indexing case, for the driver's greedy shrinking
//! to a minimal reproduction: fewer items, no base view, a scalar value,
//! smaller dims, readable values (1, 2, 3...), simpler slices and arrays.

use super::generate::classify;
use super::{IndexCase, Item, Op, Val};
use crate::lit::{ArrayLit, DType, Scalar, readable, reshaped, smaller_arrays};

fn with_op(c: &IndexCase, op: Op) -> IndexCase {
    IndexCase { op, ..c.clone() }
}

fn val_variants(c: &IndexCase, v: &Val) -> Vec<Val> {
    match v {
        Val::Array(a) => {
            let first = a.values.first().copied().unwrap_or(match c.base.dtype {
                DType::Bool => Scalar::Bool(true),
                DType::Int32 | DType::Int64 => Scalar::Int(1),
                _ => Scalar::Float(1.0),
            });
            let mut out = vec![Val::Scalar(first)];
            if a.dtype != c.base.dtype {
                out.push(Val::Array(ArrayLit {
                    dtype: c.base.dtype,
                    ..readable(a)
                }));
            }
            out.extend(smaller_arrays(a).into_iter().map(Val::Array));
            if readable(a) != *a {
                out.push(Val::Array(readable(a)));
            }
            out
        }
        Val::Scalar(_) => vec![],
    }
}

/// Candidates, most promising first.
pub fn candidates(c: &IndexCase) -> Vec<IndexCase> {
    let mut out = Vec::new();
    if c.items.len() > 1 {
        for k in 0..c.items.len() {
            let mut t = c.clone();
            t.items.remove(k);
            out.push(t);
        }
    }
    if c.view.is_some() {
        out.push(IndexCase {
            view: None,
            ..c.clone()
        });
    }
    match &c.op {
        Op::Write(v) => out.extend(
            val_variants(c, v)
                .into_iter()
                .map(|v| with_op(c, Op::Write(v))),
        ),
        Op::Aug(o, v) => out.extend(
            val_variants(c, v)
                .into_iter()
                .map(|v| with_op(c, Op::Aug(*o, v))),
        ),
        Op::AddAt(v) => out.extend(
            val_variants(c, v)
                .into_iter()
                .map(|v| with_op(c, Op::AddAt(v))),
        ),
        Op::View(y) if readable(y) != *y => out.push(with_op(c, Op::View(readable(y)))),
        _ => {}
    }
    for b in smaller_arrays(&c.base) {
        let mut t = IndexCase {
            base: b,
            ..c.clone()
        };
        if let Op::View(y) = &t.op {
            let shape = t.x_shape();
            t.op = Op::View(reshaped(y, shape));
        }
        out.push(t);
    }
    if readable(&c.base) != c.base {
        out.push(IndexCase {
            base: readable(&c.base),
            ..c.clone()
        });
    }
    for k in 0..c.items.len() {
        for it in item_variants(&c.items[k]) {
            let mut t = c.clone();
            t.items[k] = it;
            out.push(t);
        }
    }
    for t in &mut out {
        t.features = classify(t, false);
    }
    out
}

fn item_variants(it: &Item) -> Vec<Item> {
    match it {
        Item::Slice(a, z, s) => {
            let mut v = Vec::new();
            if a.is_some() {
                v.push(Item::Slice(None, *z, *s));
            }
            if z.is_some() {
                v.push(Item::Slice(*a, None, *s));
            }
            if s.is_some() {
                v.push(Item::Slice(*a, *z, None));
            }
            v
        }
        Item::Array(a) if a.size() > 1 || a.shape.len() > 1 => {
            let mut v: Vec<Item> = a
                .values
                .first()
                .map(|&x| {
                    Item::Array(ArrayLit {
                        dtype: a.dtype,
                        shape: vec![1],
                        values: vec![x],
                    })
                })
                .into_iter()
                .collect();
            if a.shape.len() > 1 {
                v.push(Item::Array(ArrayLit {
                    shape: vec![a.size()],
                    ..a.clone()
                }));
            }
            if a.dtype != DType::Int64 {
                v.push(Item::Array(ArrayLit {
                    dtype: DType::Int64,
                    ..a.clone()
                }));
            }
            v
        }
        Item::List(l) if l.len() > 1 => vec![Item::List(vec![l[0]])],
        Item::Int(i) if *i < -1 => vec![Item::Int(-1)],
        Item::Int(i) if *i > 0 => vec![Item::Int(0)],
        _ => vec![],
    }
}
