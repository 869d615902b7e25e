//! `trim_zeros(filt, trim="fb", axis=none)`: NumPy 2's, for any number of
//! dims: the positions of the nonzero elements (`argwhere`, read once: the
//! output's size depends on the data), then one basic slice per trimmed
//! axis, so the result is a view and gradients flow through it.

use super::super::linalg_calls::Calls;
use super::super::nparr::{data, int_list, norm_axis, value_err};
use crate::array::index::Index;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

pub(crate) fn trim_zeros(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "trim_zeros";
    let x = data(i, a.req("filt")?, name, "filt")?;
    let trim = match a.opt("trim")? {
        None | Some(Value::None) => "fb".to_string(),
        Some(Value::Str(s)) => s.to_lowercase(),
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}: trim must be a string, got {}",
                v.a_type_name()
            ))
            .with_op(name)
            .with_help("give trim=\"fb\", \"f\" or \"b\""));
        }
    };
    let axis = a.opt("axis")?;
    a.finish_with(&["trim", "axis"])?;
    if !["fb", "bf", "f", "b"].contains(&trim.as_str()) {
        return Err(value_err(
            name,
            format!("unexpected character(s) in `trim`: '{trim}'"),
            "give trim=\"fb\" (both ends), \"f\" (front) or \"b\" (back)",
        ));
    }
    let nd = x.ndim();
    let axes: Vec<usize> = match axis {
        None | Some(Value::None) => (0..nd).collect(),
        Some(v) => int_list(&v, name, "axis")?
            .into_iter()
            .map(|k| norm_axis(k, nd, name))
            .collect::<Result<_>>()?,
    };
    if axes.is_empty() {
        return Ok(Value::Array(x));
    }
    let mut c = Calls::new(i, span);
    let nz = c.arr("argwhere", vec![x.clone().into()], vec![])?;
    let pos = nz.to_vec::<i64>()?;
    let count = pos.len().checked_div(nd).unwrap_or(0);
    let (mut start, mut stop) = (vec![i64::MAX; nd], vec![i64::MIN; nd]);
    for row in pos.chunks(nd.max(1)).take(count) {
        for (d, &p) in row.iter().enumerate() {
            start[d] = start[d].min(p);
            stop[d] = stop[d].max(p + 1);
        }
    }
    let idx: Vec<Index> = (0..nd)
        .map(|d| {
            let (lo, hi) = if count == 0 {
                (Some(0), Some(0))
            } else {
                (
                    trim.contains('f').then_some(start[d]),
                    trim.contains('b').then_some(stop[d]),
                )
            };
            if axes.contains(&d) {
                Index::Slice {
                    start: lo,
                    stop: hi,
                    step: None,
                }
            } else {
                Index::Slice {
                    start: None,
                    stop: None,
                    step: None,
                }
            }
        })
        .collect();
    Ok(Value::Array(c.index(&x, &idx)?))
}
