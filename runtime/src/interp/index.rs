//! Indexing expressions: `x[i, 1:3, None]` on arrays (views, gathers,
//! recorded for autodiff), and one integer index on tuples, lists and strings.

use super::Interp;
use crate::array::index::Index;
use crate::error::{Error, Result};
use crate::value::Value;
use gcalc_lang::ast::*;

impl Interp {
    pub(crate) fn eval_index(&mut self, items: &[IndexItem]) -> Result<Vec<Index>> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            out.push(match it {
                IndexItem::Expr(e) => {
                    let v = self.eval(e)?;
                    match v {
                        Value::Int(i) => Index::Int(i),
                        Value::Bool(_) => {
                            return Err(Error::index("a bool cannot be an index")
                                .at(e.span)
                                .with_help("use an int, a slice or a bool array"));
                        }
                        Value::None => Index::NewAxis,
                        Value::Array(a) if a.ndim() == 0 && a.dtype().is_int() => {
                            Index::Int(a.get_f64(0)? as i64)
                        }
                        Value::Array(a) => Index::Array(a),
                        Value::List(_) => Index::Array(
                            crate::array::create::value_to_array(&v, None, self.float_x())
                                .map_err(|err| err.at(e.span))?,
                        ),
                        other => {
                            return Err(Error::index(format!(
                                "{} cannot be an index",
                                other.a_type_name()
                            ))
                            .at(e.span)
                            .with_help("indices are ints, slices like 1:3, or int/bool arrays"));
                        }
                    }
                }
                IndexItem::Slice {
                    start, stop, step, ..
                } => Index::Slice {
                    start: self.slice_bound(start)?,
                    stop: self.slice_bound(stop)?,
                    step: self.slice_bound(step)?,
                },
            });
        }
        Ok(out)
    }

    fn slice_bound(&mut self, e: &Option<Expr>) -> Result<Option<i64>> {
        let Some(e) = e else { return Ok(None) };
        match self.eval(e)? {
            Value::Int(i) => Ok(Some(i)),
            Value::None => Ok(None),
            Value::Array(a) if a.ndim() == 0 && a.dtype().is_int() => {
                Ok(Some(a.get_f64(0)? as i64))
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
                let r = a.index(&idx)?;
                Ok(Value::Array(self.record_index(&a, &idx, r)))
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
