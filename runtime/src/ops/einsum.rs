//! `einsum` (NumPy's subscripts: explicit `->` or implicit output, `...`,
//! repeated subscripts for diagonals and traces, size-1 broadcasting):
//! parsed into labels, each operand's own diagonals and lone sums taken
//! first, then operands contracted two at a time through one batched matmul
//! each, choosing greedily the pair with the smallest intermediate.
//! Every step is a table op called through the interpreter (transpose,
//! reshape, matmul, sum, multiply), so einsum is differentiable through
//! their rules and runs on every device. `optimize=` is accepted (the
//! greedy pairwise order is always used).

use super::creation::op;
use super::linalg_args::arr;
use super::linalg_calls::{Calls, leaf, shape_value};
use super::{OpDef, OpKind};
use crate::array::Array;
use crate::array::layout::fmt_shape;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

pub static OPS: &[OpDef] = &[op!(
    "einsum",
    "einsum(subscripts, *operands, optimize=false)",
    "Einstein summation as NumPy's: einsum(\"ij,jk->ik\", a, b) is a @ b, \"ii\" a trace, \"ij->ji\" a transpose, \"bij,bjk->bik\" a batched product, \"...ij->...ji\" over leading dims. Without \"->\" the output is the subscripts used once, in alphabetical order. Operands are contracted pairwise through matmul, smallest intermediate first.",
    false,
    einsum
)];

/// A dimension label: a letter's code, or 256 + k for the k-th dim an
/// ellipsis covers (right-aligned across operands).
type Label = u32;
const ELL: Label = 256;

fn err(msg: String) -> Error {
    Error::value(format!("einsum: {msg}")).with_op("einsum")
}

/// One side of the subscripts: its letters and where `...` was (if anywhere).
struct Term {
    letters: Vec<Label>,
    ellipsis: Option<usize>,
}

fn parse_term(s: &str, what: &str) -> Result<Term> {
    let mut letters = Vec::new();
    let mut ellipsis = None;
    let mut rest = s;
    while let Some(ch) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("...") {
            if ellipsis.is_some() {
                return Err(err(format!("{what} \"{s}\" has more than one ellipsis")));
            }
            ellipsis = Some(letters.len());
            rest = r;
            continue;
        }
        if !ch.is_ascii_alphabetic() {
            return Err(err(format!("invalid subscript '{ch}' in {what} \"{s}\""))
                .with_help("subscripts are letters a-z, A-Z and '...'"));
        }
        letters.push(ch as Label);
        rest = &rest[1..];
    }
    Ok(Term { letters, ellipsis })
}

/// A parsed call: each operand's labels (one per dim) and the output's.
struct Spec {
    inputs: Vec<Vec<Label>>,
    output: Vec<Label>,
}

fn parse(subs: &str, ops: &[Array]) -> Result<Spec> {
    let subs: String = subs.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match subs.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (subs.as_str(), None),
    };
    let terms: Vec<Term> = lhs
        .split(',')
        .enumerate()
        .map(|(k, t)| parse_term(t, &format!("the subscripts of operand {k}")))
        .collect::<Result<_>>()?;
    if terms.len() != ops.len() {
        return Err(err(format!(
            "the subscripts \"{subs}\" name {} operand{} but {} were given",
            terms.len(),
            if terms.len() == 1 { "" } else { "s" },
            ops.len()
        )));
    }
    // Expand each ellipsis into the dims it covers.
    let mut ell_dims = 0;
    let mut inputs = Vec::new();
    for (k, (t, a)) in terms.iter().zip(ops).enumerate() {
        let named = t.letters.len();
        let nd = a.ndim();
        let covered = match t.ellipsis {
            None if nd != named => {
                return Err(err(format!(
                    "operand {k} has {nd} dimension{} (shape {}) but its subscripts \"{}\" name {named}",
                    if nd == 1 { "" } else { "s" },
                    fmt_shape(a.shape()),
                    letters_text(&t.letters)
                ))
                .with_help("give one letter per dimension, or '...' for leading ones"));
            }
            None => 0,
            Some(_) if nd < named => {
                return Err(err(format!(
                    "operand {k} has {nd} dimensions (shape {}), fewer than its {named} subscripts",
                    fmt_shape(a.shape())
                )));
            }
            Some(_) => nd - named,
        };
        ell_dims = ell_dims.max(covered);
        inputs.push((t, covered));
    }
    let expand = |t: &Term, covered: usize| -> Vec<Label> {
        let mut v = t.letters.clone();
        if let Some(p) = t.ellipsis {
            let ell: Vec<Label> = (ell_dims - covered..ell_dims)
                .map(|d| ELL + d as Label)
                .collect();
            v.splice(p..p, ell);
        }
        v
    };
    let inputs: Vec<Vec<Label>> = inputs.iter().map(|(t, c)| expand(t, *c)).collect();
    let output = match rhs {
        Some(r) => {
            let t = parse_term(r, "the output subscripts")?;
            for (k, l) in t.letters.iter().enumerate() {
                if t.letters[..k].contains(l) {
                    return Err(err(format!(
                        "the output subscripts include '{}' more than once",
                        *l as u8 as char
                    )));
                }
                if !inputs.iter().any(|v| v.contains(l)) {
                    return Err(err(format!(
                        "the output subscript '{}' never appears in an input",
                        *l as u8 as char
                    )));
                }
            }
            if t.ellipsis.is_none() && ell_dims > 0 {
                return Err(err(
                    "the inputs have '...' dimensions but the output has no '...' to put them in"
                        .into(),
                )
                .with_help("write '...' in the output too, e.g. \"...ij->...i\""));
            }
            expand(&t, ell_dims)
        }
        None => {
            // Implicit: '...' first, then the letters used once, sorted.
            let mut once: Vec<Label> = Vec::new();
            for v in &inputs {
                for &l in v {
                    if l < ELL && inputs.iter().flatten().filter(|&&x| x == l).count() == 1 {
                        once.push(l);
                    }
                }
            }
            once.sort_unstable();
            let mut out: Vec<Label> = (0..ell_dims).map(|d| ELL + d as Label).collect();
            out.extend(once);
            out
        }
    };
    Ok(Spec { inputs, output })
}

fn letters_text(v: &[Label]) -> String {
    v.iter()
        .map(|&l| if l < ELL { l as u8 as char } else { '.' })
        .collect()
}

fn label_name(l: Label) -> String {
    match l < ELL {
        true => format!("'{}'", l as u8 as char),
        false => format!("'...' dimension {}", l - ELL),
    }
}

fn einsum(i: &mut Interp, mut args: Args) -> Result<Value> {
    let span = args.span;
    let subs = match args.req("subscripts")? {
        Value::Str(s) => s,
        v => {
            return Err(err(format!(
                "the first argument must be the subscripts string, got {}",
                v.a_type_name()
            ))
            .with_help("e.g. einsum(\"ij,jk->ik\", a, b)"));
        }
    };
    let _ = args.kw("optimize");
    let ops: Vec<Array> = args
        .rest()
        .iter()
        .map(|v| arr(i, v))
        .collect::<Result<_>>()?;
    args.finish_with(&["optimize"])?;
    if ops.is_empty() {
        return Err(err("no operands given".into()).with_help("e.g. einsum(\"ii\", a)"));
    }
    for o in &ops[1..] {
        super::linalg_args::same_device("einsum", &ops[0], o)?;
    }
    let spec = parse(&subs, &ops)?;
    let sizes = label_sizes(&spec, &ops)?;
    // NumPy's result dtype: the operands' common type (sums of int32 stay int32).
    let dt = ops
        .iter()
        .map(Array::dtype)
        .reduce(crate::dtype::promote)
        .ok_or_else(|| Error::internal("einsum: no operand"))?;
    let mut c = Calls::new(i, span);
    let r = contract(&mut c, spec, ops, &sizes)?;
    Ok(match r.dtype() == dt {
        true => r.into(),
        false => c.call("astype", vec![r.into(), Value::DType(dt)], vec![])?,
    })
}

/// Each label's size; equal across operands up to size-1 broadcasting.
fn label_sizes(spec: &Spec, ops: &[Array]) -> Result<Vec<(Label, usize)>> {
    let mut sizes: Vec<(Label, usize, usize)> = Vec::new();
    for (k, (labels, a)) in spec.inputs.iter().zip(ops).enumerate() {
        for (&l, &d) in labels.iter().zip(a.shape()) {
            match sizes.iter_mut().find(|s| s.0 == l) {
                None => sizes.push((l, d, k)),
                Some(s) if s.1 == d || d == 1 => {}
                Some(s) if s.1 == 1 => *s = (l, d, k),
                Some(s) => {
                    return Err(Error::shape(
                        "einsum",
                        format!(
                            "einsum: subscript {} has size {} in operand {} but {d} in operand {k} (shape {})",
                            label_name(l),
                            s.1,
                            s.2,
                            fmt_shape(a.shape())
                        ),
                    )
                    .with_help("the dims a subscript names must have equal sizes (or size 1, which broadcasts)"));
                }
            }
        }
    }
    Ok(sizes.into_iter().map(|(l, d, _)| (l, d)).collect())
}

fn size_of(sizes: &[(Label, usize)], l: Label) -> usize {
    sizes.iter().find(|s| s.0 == l).map_or(1, |s| s.1)
}

/// An operand during the contraction: an array and a label per dim.
struct Op {
    a: Array,
    labels: Vec<Label>,
}

fn contract(c: &mut Calls, spec: Spec, ops: Vec<Array>, sizes: &[(Label, usize)]) -> Result<Array> {
    let out = spec.output.clone();
    let mut live: Vec<Op> = Vec::new();
    for (a, labels) in ops.into_iter().zip(spec.inputs) {
        let op = diagonals(c, Op { a, labels }, sizes)?;
        live.push(broadcast_ones(c, op, sizes)?);
    }
    loop {
        // Sum each operand's labels that no one else needs.
        for k in 0..live.len() {
            let needed: Vec<Label> = needed_by_others(&live, k, &out);
            let op = std::mem::replace(
                &mut live[k],
                Op {
                    a: Array::scalar(0i32),
                    labels: vec![],
                },
            );
            live[k] = sum_unneeded(c, op, &needed)?;
        }
        if live.len() == 1 {
            break;
        }
        let (x, y) = best_pair(&live, &out, sizes);
        let b = live.remove(y);
        let a = live.remove(x);
        let keep: Vec<Label> = live
            .iter()
            .flat_map(|o| o.labels.iter().copied())
            .chain(out.iter().copied())
            .collect();
        live.push(pair(c, a, b, &keep)?);
    }
    let last = live
        .pop()
        .ok_or_else(|| Error::internal("einsum: no operand left"))?;
    let perm: Vec<usize> = out
        .iter()
        .map(|l| {
            last.labels
                .iter()
                .position(|x| x == l)
                .ok_or_else(|| Error::internal("einsum: output label lost"))
        })
        .collect::<Result<_>>()?;
    c.permute(&last.a, &perm)
}

/// Labels of operands other than `k`, and the output's.
fn needed_by_others(live: &[Op], k: usize, out: &[Label]) -> Vec<Label> {
    live.iter()
        .enumerate()
        .filter(|(j, _)| *j != k)
        .flat_map(|(_, o)| o.labels.iter().copied())
        .chain(out.iter().copied())
        .collect()
}

/// A repeated label within one operand: its diagonal (x * eye, summed over
/// the second occurrence), until every label appears once.
fn diagonals(c: &mut Calls, mut op: Op, sizes: &[(Label, usize)]) -> Result<Op> {
    while let Some((p, q)) = (0..op.labels.len()).find_map(|q| {
        op.labels[..q]
            .iter()
            .position(|&l| l == op.labels[q])
            .map(|p| (p, q))
    }) {
        let (dp, dq) = (op.a.shape()[p], op.a.shape()[q]);
        if dp != dq {
            return Err(Error::shape(
                "einsum",
                format!(
                    "einsum: subscript {} is repeated in an operand but its dims have sizes {dp} and {dq}",
                    label_name(op.labels[p])
                ),
            ));
        }
        let _ = sizes;
        let eye = Array::eye(dp, dp, 0, op.a.dtype(), op.a.device())?;
        let mut es = vec![1; op.a.ndim()];
        es[p] = dp;
        es[q] = dp;
        let eye = eye.reshape(&es.iter().map(|&d| d as i64).collect::<Vec<_>>())?;
        let masked = c.tree(leaf(&op.a) * leaf(&eye))?;
        op.a = c.reduce("sum", &masked, &[q], false)?;
        op.labels.remove(q);
    }
    Ok(op)
}

/// Size-1 dims of a label that is larger elsewhere, broadcast to its size.
fn broadcast_ones(c: &mut Calls, op: Op, sizes: &[(Label, usize)]) -> Result<Op> {
    let want: Vec<usize> = op.labels.iter().map(|&l| size_of(sizes, l)).collect();
    if want == op.a.shape() {
        return Ok(op);
    }
    let a = c.arr(
        "broadcast_to",
        vec![op.a.into(), shape_value(&want)],
        vec![],
    )?;
    Ok(Op {
        a,
        labels: op.labels,
    })
}

fn sum_unneeded(c: &mut Calls, op: Op, needed: &[Label]) -> Result<Op> {
    let axes: Vec<usize> = (0..op.labels.len())
        .filter(|&k| !needed.contains(&op.labels[k]))
        .collect();
    if axes.is_empty() {
        return Ok(op);
    }
    let a = c.reduce("sum", &op.a, &axes, false)?;
    let labels = op
        .labels
        .iter()
        .enumerate()
        .filter(|(k, _)| !axes.contains(k))
        .map(|(_, &l)| l)
        .collect();
    Ok(Op { a, labels })
}

/// The pair whose contraction gives the smallest result (ties: the first).
fn best_pair(live: &[Op], out: &[Label], sizes: &[(Label, usize)]) -> (usize, usize) {
    let mut best = (0, 1, usize::MAX);
    for x in 0..live.len() {
        for y in x + 1..live.len() {
            let others: Vec<Label> = live
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != x && *k != y)
                .flat_map(|(_, o)| o.labels.iter().copied())
                .chain(out.iter().copied())
                .collect();
            let mut kept: Vec<Label> = live[x]
                .labels
                .iter()
                .chain(&live[y].labels)
                .copied()
                .filter(|l| others.contains(l))
                .collect();
            kept.sort_unstable();
            kept.dedup();
            let size = kept
                .iter()
                .map(|&l| size_of(sizes, l))
                .fold(1usize, |a, b| a.saturating_mul(b));
            if size < best.2 {
                best = (x, y, size);
            }
        }
    }
    (best.0, best.1)
}

/// a and b contracted into one operand: labels in both that `keep` needs
/// are batch dims, those in both it does not are summed (one matmul).
fn pair(c: &mut Calls, a: Op, b: Op, keep: &[Label]) -> Result<Op> {
    let in_b = |l: &Label| b.labels.contains(l);
    let batch: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| in_b(l) && keep.contains(l))
        .collect();
    let summed: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| in_b(l) && !keep.contains(l))
        .collect();
    let left: Vec<Label> = a.labels.iter().copied().filter(|l| !in_b(l)).collect();
    let right: Vec<Label> = b
        .labels
        .iter()
        .copied()
        .filter(|l| !a.labels.contains(l))
        .collect();
    let pos = |o: &Op, ls: &[Label]| -> Vec<usize> {
        ls.iter()
            .filter_map(|l| o.labels.iter().position(|x| x == l))
            .collect()
    };
    let dims = |o: &Op, ls: &[Label]| -> Vec<usize> {
        pos(o, ls).iter().map(|&k| o.a.shape()[k]).collect()
    };
    let prod = |v: &[usize]| v.iter().product::<usize>();
    let (bd, ld, sd, rd) = (
        dims(&a, &batch),
        dims(&a, &left),
        dims(&a, &summed),
        dims(&b, &right),
    );
    let at = c.permute(
        &a.a,
        &[pos(&a, &batch), pos(&a, &left), pos(&a, &summed)].concat(),
    )?;
    let at = c.reshape(&at, &[prod(&bd), prod(&ld), prod(&sd)])?;
    let bt = c.permute(
        &b.a,
        &[pos(&b, &batch), pos(&b, &summed), pos(&b, &right)].concat(),
    )?;
    let bt = c.reshape(&bt, &[prod(&bd), prod(&sd), prod(&rd)])?;
    let r = c.matmul(&at, &bt)?;
    let r = c.reshape(&r, &[bd, ld, rd].concat())?;
    Ok(Op {
        a: r,
        labels: [batch, left, right].concat(),
    })
}
