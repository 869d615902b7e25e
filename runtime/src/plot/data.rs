//! Turning the values given to the plotting builtins (arrays, lists, tuples,
//! ranges of numbers) into checked `f64` data, with errors that say what is
//! wrong and how to fix it.

use crate::array::Array;
use crate::error::{Error, Result};
use crate::value::Value;

/// Shape as users write it: `(3,)`, `(2, 3)`.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn scalar(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Array(a) if a.size() == 1 && a.ndim() <= 1 => {
            a.to_f64_vec().ok().and_then(|v| v.first().copied())
        }
        _ => None,
    }
}

/// The numbers of a 1-D array, a list or tuple of numbers, or a range.
/// GPU arrays are copied to the host.
pub fn numbers(f: &str, what: &str, v: &Value) -> Result<Vec<f64>> {
    match v {
        Value::Array(a) => {
            if a.ndim() > 1 {
                return Err(Error::shape(
                    f,
                    format!(
                        "{what} must be 1-D, but has shape {}",
                        shape_text(a.shape())
                    ),
                )
                .with_help("flatten it first (x.reshape(-1)) or pass one row or column"));
            }
            a.to_f64_vec()
        }
        Value::List(_) | Value::Tuple(_) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, item)| {
                scalar(item).ok_or_else(|| {
                    Error::type_(format!(
                        "{f}(): {what}[{i}] is {}, not a number",
                        item.a_type_name()
                    ))
                    .with_help(format!("{what} must be an array or a list of numbers"))
                })
            })
            .collect(),
        Value::Range(a, b, s) => {
            let mut out = Vec::new();
            let mut i = *a;
            while (*s > 0 && i < *b) || (*s < 0 && i > *b) {
                out.push(i as f64);
                i += s;
            }
            Ok(out)
        }
        Value::Int(_) | Value::Float(_) => Ok(vec![scalar(v).unwrap_or(0.0)]),
        other => Err(Error::type_(format!(
            "{f}(): {what} must be an array or a list of numbers, not {}",
            other.a_type_name()
        ))),
    }
}

/// Check data is not empty and every value is finite.
pub fn check(f: &str, what: &str, v: &[f64]) -> Result<()> {
    check_at(f, what, v, &|i| i.to_string())
}

/// Like `check`, naming the first bad value's position with `pos` (e.g. `(row, col)`).
pub fn check_at(f: &str, what: &str, v: &[f64], pos: &dyn Fn(usize) -> String) -> Result<()> {
    if v.is_empty() {
        return Err(Error::value(format!("{f}(): {what} is empty"))
            .with_help("a figure needs at least one value"));
    }
    let nan = v.iter().filter(|x| x.is_nan()).count();
    let inf = v.iter().filter(|x| x.is_infinite()).count();
    if nan + inf > 0 {
        let first = pos(v.iter().position(|x| !x.is_finite()).unwrap_or(0));
        let mut parts = Vec::new();
        if nan > 0 {
            parts.push(format!("{nan} NaN"));
        }
        if inf > 0 {
            parts.push(format!("{inf} infinite"));
        }
        return Err(Error::value(format!(
            "{f}(): {what} has {} value{} of {} (first at index {first})",
            parts.join(" and "),
            if nan + inf == 1 { "" } else { "s" },
            v.len()
        ))
        .with_help("plots need finite numbers: filter those values out (or replace them) first"));
    }
    Ok(())
}

/// Whether a value holds several series (a list of sequences, a 2-D array).
fn is_multi(v: &Value) -> bool {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            v.seq_items().unwrap_or_default().first().is_some_and(|i| {
                matches!(i, Value::List(_) | Value::Tuple(_) | Value::Range(..))
                    || i.as_array().is_some_and(|a| a.ndim() >= 1 && a.size() != 1)
            })
        }
        Value::Array(a) => a.ndim() == 2,
        _ => false,
    }
}

/// The columns of a 2-D array, each a series.
fn columns(a: &Array) -> Result<Vec<Vec<f64>>> {
    let (n, k) = (a.shape()[0], a.shape()[1]);
    let flat = a.to_f64_vec()?;
    Ok((0..k)
        .map(|j| (0..n).map(|i| flat[i * k + j]).collect())
        .collect())
}

/// The y data of `plot`/`scatter`: one series, a list of series, or the
/// columns of a 2-D array (as matplotlib draws them).
pub fn series_values(f: &str, v: &Value) -> Result<Vec<Vec<f64>>> {
    if !is_multi(v) {
        return Ok(vec![numbers(f, "y", v)?]);
    }
    match v {
        Value::Array(a) => columns(a),
        Value::List(_) | Value::Tuple(_) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, item)| numbers(f, &format!("y[{i}]"), item))
            .collect(),
        _ => Ok(vec![numbers(f, "y", v)?]),
    }
}

/// A matrix for `imshow`: a 2-D array or a list of equal-length rows.
pub fn matrix(f: &str, v: &Value) -> Result<(usize, usize, Vec<f64>)> {
    match v {
        Value::Array(a) => {
            if a.ndim() != 2 {
                return Err(Error::shape(
                    f,
                    format!(
                        "{f}() needs a 2-D array, but got shape {}",
                        shape_text(a.shape())
                    ),
                )
                .with_help("reshape it to (rows, cols) first, e.g. m.reshape((rows, cols))"));
            }
            Ok((a.shape()[0], a.shape()[1], a.to_f64_vec()?))
        }
        Value::List(_) | Value::Tuple(_) if is_multi(v) => {
            let rows = v.seq_items().unwrap_or_default();
            let mut data = Vec::new();
            let mut cols = None;
            for (i, r) in rows.iter().enumerate() {
                let row = numbers(f, &format!("row {i}"), r)?;
                match cols {
                    None => cols = Some(row.len()),
                    Some(c) if c != row.len() => {
                        return Err(Error::shape(
                            f,
                            format!("row 0 has {c} values but row {i} has {}", row.len()),
                        )
                        .with_help("every row of an image must have the same length"));
                    }
                    _ => {}
                }
                data.extend(row);
            }
            Ok((rows.len(), cols.unwrap_or(0), data))
        }
        other => Err(Error::shape(
            f,
            format!(
                "{f}() needs a 2-D array or a list of rows, but got {}{}",
                other.a_type_name(),
                match other {
                    Value::List(_) | Value::Tuple(_) => format!(
                        " of shape ({},)",
                        other.seq_items().unwrap_or_default().len()
                    ),
                    _ => String::new(),
                }
            ),
        )
        .with_help("give a matrix, e.g. imshow([[1, 2], [3, 4]])")),
    }
}

/// Text labels (`labels=`, the categories of `bar`): strings, or numbers shown as text.
pub fn labels(f: &str, what: &str, v: &Value) -> Result<Vec<String>> {
    match v {
        Value::List(_) | Value::Tuple(_) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|i| match i {
                Value::Str(s) => Ok(s.to_string()),
                Value::Int(_) | Value::Float(_) | Value::Bool(_) => Ok(crate::display::to_text(i)),
                other => Err(Error::type_(format!(
                    "{f}(): {what} must be strings, not {}",
                    other.a_type_name()
                ))),
            })
            .collect(),
        Value::Str(s) => Ok(vec![s.to_string()]),
        other => Err(Error::type_(format!(
            "{f}(): {what} must be a list of strings, not {}",
            other.a_type_name()
        ))
        .with_help(format!("e.g. {what}=[\"a\", \"b\"]"))),
    }
}
