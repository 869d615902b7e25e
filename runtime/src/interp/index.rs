//! Indexing expressions: `x[i, 1:3, None]` on arrays (views, gathers,
//! recorded for autodiff), and one integer index on tuples, lists and strings.

use super::Interp;
use crate::array::Array;
use crate::array::index::Index;
use crate::error::{Error, Result};
use crate::value::Value;
use gcalc_lang::ast::*;

impl Interp {
    pub(crate) fn eval_index(&mut self, items: &[IndexItem]) -> Result<Vec<Index>> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            match it {
                IndexItem::Expr(e) => {
                    let v = self.eval(e)?;
                    match v {
                        // `x[t]` with a tuple `t` is `x[t[0], t[1], ...]` (NumPy's rule).
                        Value::Tuple(t) => {
                            for v in t.iter() {
                                out.push(self.index_of_value(v).map_err(|err| err.at(e.span))?);
                            }
                        }
                        v => out.push(self.index_of_value(&v).map_err(|err| err.at(e.span))?),
                    }
                }
                IndexItem::Slice {
                    start, stop, step, ..
                } => out.push(Index::Slice {
                    start: self.slice_bound(start)?,
                    stop: self.slice_bound(stop)?,
                    step: self.slice_bound(step)?,
                }),
            }
        }
        Ok(out)
    }

    /// One item of an index given as a value: an int, a bool (a 0-d mask),
    /// `none` (a new axis), an int or bool array (0-d too), a list (an
    /// array). Anything else is NumPy's error.
    pub(crate) fn index_of_value(&self, v: &Value) -> Result<Index> {
        Ok(match v {
            Value::Int(i) => Index::Int(*i),
            Value::Bool(b) => Index::Array(Array::scalar(*b)),
            Value::None => Index::NewAxis,
            Value::Array(a) => Index::Array(a.clone()),
            Value::List(items) | Value::Tuple(items) if items.is_empty() => {
                Index::Array(Array::from_vec(Vec::<i64>::new(), vec![0]))
            }
            Value::List(_) | Value::Tuple(_) => Index::Array(crate::array::create::value_to_array(
                v,
                None,
                self.float_x(),
            )?),
            other => {
                return Err(Error::index(format!(
                    "only integers, slices (`:`), ellipsis (`...`), newaxis (`none`) and integer or boolean arrays are valid indices, not {}",
                    other.a_type_name()
                ))
                .with_help(match other {
                    Value::Float(_) => "a float cannot index: convert it with int(i) or round it first",
                    _ => "index with ints, slices like 1:3, or int/bool arrays",
                }));
            }
        })
    }

    /// `a[idx]`, recorded for autodiff: a view or a copy as NumPy gives.
    pub(crate) fn index_array(&mut self, a: &Array, idx: &[Index]) -> Result<Array> {
        let a = self.refresh(a)?;
        let r = a.resolve_index(idx)?;
        let out = a.index_resolved(&r)?;
        Ok(self.record_index(&a, &r, out))
    }

    fn slice_bound(&mut self, e: &Option<Expr>) -> Result<Option<i64>> {
        let Some(e) = e else { return Ok(None) };
        match self.eval(e)? {
            Value::Int(i) => Ok(Some(i)),
            Value::None => Ok(None),
            // A 0-d int array (on a GPU too: read once, it is the slice's shape).
            Value::Array(a) if a.ndim() == 0 && a.dtype().is_int() => {
                Ok(a.to_vec::<i64>()?.first().copied())
            }
            other => Err(Error::index(format!(
                "slice bounds must be ints, not {}",
                other.a_type_name()
            ))
            .at(e.span)),
        }
    }

    pub(super) fn index_value(&mut self, base: Value, items: &[IndexItem]) -> Result<Value> {
        match base {
            Value::Array(a) => {
                let idx = self.eval_index(items)?;
                Ok(Value::Array(self.index_array(&a, &idx)?))
            }
            Value::Tuple(t) | Value::List(t) => {
                let j = self.position(items, ("tuples and lists", "list", "sequence"), t.len())?;
                Ok(t[j].clone())
            }
            Value::Str(s) => {
                let n = s.chars().count();
                let j = self.position(items, ("strings", "string", "string"), n)?;
                let c = s.chars().nth(j).unwrap_or_default();
                Ok(Value::str(c.to_string()))
            }
            other => Err(Error::type_(format!(
                "{} cannot be indexed",
                other.a_type_name()
            ))),
        }
    }

    /// The position `items` name in a tuple, list or string of length `n`:
    /// one integer, negative from the end. `what`: (the kinds taking it, the
    /// one a wrong index cannot index, the one out-of-range names).
    fn position(
        &mut self,
        items: &[IndexItem],
        what: (&str, &str, &str),
        n: usize,
    ) -> Result<usize> {
        let (kinds, one, range) = what;
        let [IndexItem::Expr(e)] = items else {
            return Err(Error::index(format!("{kinds} take one integer index")));
        };
        let i = match self.eval(e)? {
            Value::Int(i) => i,
            other => {
                return Err(Error::index(format!(
                    "{} cannot index {}",
                    other.a_type_name(),
                    crate::error::with_article(one)
                ))
                .at(e.span));
            }
        };
        let n = n as i64;
        let j = if i < 0 { i + n } else { i };
        if j < 0 || j >= n {
            return Err(Error::index(format!(
                "index {i} is out of range for {} of length {n}",
                crate::error::with_article(range)
            ))
            .at(e.span));
        }
        Ok(j as usize)
    }
}
