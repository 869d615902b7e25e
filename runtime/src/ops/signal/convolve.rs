//! `convolve` and `correlate` of two 1-d sequences with NumPy's exact
//! semantics (modes full/same/valid, the longer sequence taken as the
//! signal, correlate's conjugation of v and its reversed output when v is
//! longer), composed of table ops: the signal padded once, then the sum over
//! taps of `tap * shifted view`, eight taps per fused elementwise tree. That
//! is NumPy's direct algorithm (O(len(a) * len(v))), on every device, and
//! every step is on the autodiff tape, so both inputs get gradients.

use super::super::linalg_calls::{Calls, leaf};
use super::super::nparr::{arr, astype, data, data_on, shape_value, value_err};
use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::{DType, promote};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;
use gcalc_lang::Span;

/// Taps summed by one fused tree (each a view of the padded signal).
const TAPS_PER_TREE: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Valid,
    Same,
    Full,
}

/// The modes by name (a table: "full" is also an op's name).
const MODES: [(&str, Mode); 3] = [
    ("valid", Mode::Valid),
    ("same", Mode::Same),
    ("full", Mode::Full),
];

fn mode_arg(v: Option<Value>, name: &str, default: Mode) -> Result<Mode> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(Value::Str(s)) => MODES
            .iter()
            .find(|(n, _)| **n == *s)
            .map(|(_, m)| *m)
            .ok_or_else(|| {
                value_err(
                    name,
                    format!("mode must be one of 'valid', 'same', or 'full' (got '{s}')"),
                    "give mode=\"valid\", \"same\" or \"full\"",
                )
            }),
        Some(v) => Err(Error::type_(format!(
            "{name}: mode must be a string, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("give mode=\"valid\", \"same\" or \"full\"")),
    }
}

/// A 1-d sequence argument (a number is a sequence of one, as NumPy's
/// `array(a, ndmin=1)`).
fn seq(i: &mut Interp, span: Span, x: Array, corr: bool, what: &str) -> Result<Array> {
    let name = if corr { "correlate" } else { "convolve" };
    match x.ndim() {
        // correlate does not take numbers (NumPy: "too small depth").
        0 if corr => Err(value_err(
            name,
            format!("object of too small depth for desired array: `{what}` is 0-d"),
            "give 1-d sequences, e.g. [x]",
        )),
        0 => arr(
            i,
            span,
            "reshape",
            vec![x.into(), shape_value(&[1])],
            vec![],
        ),
        1 => Ok(x),
        _ => Err(value_err(
            name,
            format!(
                "object too deep for desired array: `{what}` must be 1-d, got shape {:?}",
                x.shape()
            ),
            "give 1-d sequences (ravel() a multi-dimensional one, or loop over its rows)",
        )),
    }
}

fn view(c: &mut Calls, x: &Array, start: usize, stop: usize, step: i64) -> Result<Array> {
    let (start, stop) = if step < 0 {
        (Some(start as i64), None)
    } else {
        (Some(start as i64), Some(stop as i64))
    };
    c.index(
        x,
        &[Index::Slice {
            start,
            stop,
            step: Some(step),
        }],
    )
}

/// The raw correlation NumPy's `_pyarray_correlate` computes of `p` (the
/// longer) with `q`: `out[j] = sum_k q[k] * p_padded[off + j + k]`.
fn raw_correlate(i: &mut Interp, span: Span, p: &Array, q: &Array, mode: Mode) -> Result<Array> {
    let (n1, n2) = (p.size(), q.size());
    let (length, off) = match mode {
        Mode::Valid => (n1 - n2 + 1, n2 - 1),
        Mode::Same => (n1, n2 - 1 - n2 / 2),
        Mode::Full => (n1 + n2 - 1, 0),
    };
    let padded = if n2 > 1 {
        arr(
            i,
            span,
            "pad",
            vec![
                p.clone().into(),
                Value::tuple(vec![Value::Int(n2 as i64 - 1), Value::Int(n2 as i64 - 1)]),
            ],
            vec![],
        )?
    } else {
        p.clone()
    };
    let mut c = Calls::new(i, span);
    let mut acc: Option<Array> = None;
    let mut k = 0;
    while k < n2 {
        let mut t = acc.as_ref().map(leaf);
        for kk in k..(k + TAPS_PER_TREE).min(n2) {
            let tap = c.index(q, &[Index::Int(kk as i64)])?;
            let s = view(&mut c, &padded, off + kk, off + kk + length, 1)?;
            let term = leaf(&tap) * leaf(&s);
            t = Some(match t {
                None => term,
                Some(t) => t + term,
            });
        }
        acc = Some(match t {
            Some(t) => c.tree(t)?,
            None => return Err(Error::internal("convolve: no taps")),
        });
        k += TAPS_PER_TREE;
    }
    acc.ok_or_else(|| Error::internal("convolve: no taps"))
}

/// convolve (`corr` false) or correlate of `a` and `v` in `mode`.
pub(crate) fn conv_arrays(
    i: &mut Interp,
    span: Span,
    a: Array,
    v: Array,
    mode: Mode,
    corr: bool,
) -> Result<Array> {
    let name = if corr { "correlate" } else { "convolve" };
    let mut a = seq(i, span, a, corr, "a")?;
    let mut v = seq(i, span, v, corr, "v")?;
    if !corr && v.size() > a.size() {
        std::mem::swap(&mut a, &mut v);
    }
    if a.size() == 0 || v.size() == 0 {
        let which = if a.size() == 0 { "a" } else { "v" };
        return Err(value_err(
            name,
            format!("{which} cannot be empty"),
            "give sequences of at least one element",
        ));
    }
    // Bool sequences: NumPy's bool dot is an OR of ANDs (a nonzero count).
    let out_dt = promote(a.dtype(), v.dtype());
    if out_dt == DType::Bool {
        a = astype(i, span, &a, DType::Int64)?;
        v = astype(i, span, &v, DType::Int64)?;
    }
    let mut c = Calls::new(i, span);
    let out = if corr {
        if v.dtype().is_complex() {
            v = c.arr("conj", vec![v.into()], vec![])?;
        }
        if a.size() >= v.size() {
            raw_correlate(i, span, &a, &v, mode)?
        } else {
            let r = raw_correlate(i, span, &v, &a, mode)?;
            let n = r.size();
            view(&mut Calls::new(i, span), &r, n - 1, 0, -1)?
        }
    } else {
        let n = v.size();
        let rev = view(&mut c, &v, n - 1, 0, -1)?;
        raw_correlate(i, span, &a, &rev, mode)?
    };
    if out_dt == DType::Bool {
        return arr(
            i,
            span,
            "not_equal",
            vec![out.into(), Value::Int(0)],
            vec![],
        );
    }
    astype(i, span, &out, out_dt)
}

pub(crate) fn conv(i: &mut Interp, mut a: Args, corr: bool) -> Result<Value> {
    let span = a.span;
    let name = if corr { "correlate" } else { "convolve" };
    let x = data(i, a.req("a")?, name, "a")?;
    let v = data_on(i, a.req("v")?, x.device(), name, "v")?;
    let default = if corr { Mode::Valid } else { Mode::Full };
    let mode = mode_arg(a.opt("mode")?, name, default)?;
    a.finish_with(&["mode"])?;
    Ok(Value::Array(conv_arrays(i, span, x, v, mode, corr)?))
}
