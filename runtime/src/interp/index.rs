//! Indexing expressions: `x[i, 1:3, None, ...]` on arrays (views, gathers,
//! recorded for autodiff); an int or a slice on tuples, lists and strings
//! (negative from the end, slices give new sequences); a key on dicts. And
//! the writes `xs[i] = v`, `xs[1:3] = [...]`, `d[k] = v`.

use super::Interp;
use crate::array::Array;
use crate::array::index::{Index, slice_range};
use crate::builtins::index_tricks::{IndexTrick, Item as TrickItem};
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
                IndexItem::Ellipsis(_) => out.push(Index::Ellipsis),
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
            Value::Object(o) if o.as_any().is::<crate::builtins::pyobjects::PySlice>() => {
                match o
                    .as_any()
                    .downcast_ref::<crate::builtins::pyobjects::PySlice>()
                {
                    Some(s) => Index::Slice {
                        start: s.start,
                        stop: s.stop,
                        step: s.step,
                    },
                    None => Index::full(),
                }
            }
            Value::List(_) | Value::Tuple(_) if v.seq_items().is_some_and(|t| t.is_empty()) => {
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
            Value::Tuple(t) => match self.seq_index(items, ("tuples", "tuple"), t.len())? {
                Pick::One(j) => Ok(t[j].clone()),
                Pick::Many(js, _) => {
                    Ok(Value::tuple(js.into_iter().map(|j| t[j].clone()).collect()))
                }
            },
            Value::List(l) => {
                let t = l.snapshot();
                match self.seq_index(items, ("lists", "list"), t.len())? {
                    Pick::One(j) => Ok(t[j].clone()),
                    Pick::Many(js, _) => {
                        Ok(Value::list(js.into_iter().map(|j| t[j].clone()).collect()))
                    }
                }
            }
            Value::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                match self.seq_index(items, ("strings", "string"), chars.len())? {
                    Pick::One(j) => Ok(Value::str(chars[j].to_string())),
                    Pick::Many(js, _) => Ok(Value::str(
                        js.into_iter().map(|j| chars[j]).collect::<String>(),
                    )),
                }
            }
            Value::Dict(d) => {
                let key = self.dict_key(items)?;
                crate::containers::methods::dict_get(&d, &key)
            }
            Value::Object(o) if o.as_any().is::<IndexTrick>() => {
                let mut its = Vec::with_capacity(items.len());
                for it in items {
                    its.push(match it {
                        IndexItem::Expr(e) => TrickItem::Value(self.eval(e)?),
                        IndexItem::Slice {
                            start, stop, step, ..
                        } => {
                            let mut part = |e: &Option<Expr>| match e {
                                Some(e) => self.eval(e),
                                None => Ok(Value::None),
                            };
                            TrickItem::Slice(Box::new([part(start)?, part(stop)?, part(step)?]))
                        }
                        IndexItem::Ellipsis(_) => {
                            return Err(Error::index("`...` has no meaning in an index trick"));
                        }
                    });
                }
                match o.as_any().downcast_ref::<IndexTrick>() {
                    Some(t) => t.index(self, its),
                    None => Err(Error::internal("index trick")),
                }
            }
            other => Err(Error::type_(format!(
                "{} cannot be indexed",
                other.a_type_name()
            ))),
        }
    }

    /// The key `d[k]` names: one expression, or a tuple for `d[a, b]`.
    fn dict_key(&mut self, items: &[IndexItem]) -> Result<Value> {
        let mut keys = Vec::with_capacity(items.len());
        for it in items {
            match it {
                IndexItem::Expr(e) => keys.push(self.eval(e)?),
                IndexItem::Slice { span, .. } | IndexItem::Ellipsis(span) => {
                    return Err(Error::type_("a dict is indexed by a key, not a slice").at(*span));
                }
            }
        }
        Ok(match keys.len() {
            1 => keys.pop().unwrap_or(Value::None),
            _ => Value::tuple(keys),
        })
    }

    /// The positions `items` pick from a sequence of length `n`: one int
    /// (negative from the end) or one slice. `what`: (plural, singular).
    fn seq_index(&mut self, items: &[IndexItem], what: (&str, &str), n: usize) -> Result<Pick> {
        let (kinds, one) = what;
        match items {
            [
                IndexItem::Slice {
                    start,
                    stop,
                    step,
                    span,
                },
            ] => {
                let first = self.slice_bound(start)?;
                let (stop, step) = (self.slice_bound(stop)?, self.slice_bound(step)?);
                pick_slice(first, stop, step, n).map_err(|e| e.at(*span))
            }
            [IndexItem::Expr(e)] => {
                let v = self.eval(e)?;
                if let Value::Object(o) = &v
                    && let Some(s) = o
                        .as_any()
                        .downcast_ref::<crate::builtins::pyobjects::PySlice>()
                {
                    return pick_slice(s.start, s.stop, s.step, n).map_err(|err| err.at(e.span));
                }
                position_of(v, e.span, (kinds, one, one), n).map(Pick::One)
            }
            _ => Err(Error::index(format!(
                "{kinds} take one index: an int or a slice like 1:3"
            ))
            .with_help(format!(
                "x[i, j] indexes arrays; for nested {kinds} write x[i][j]"
            ))),
        }
    }

    /// `base[items] = v` for a list (an int or a slice) or a dict (a key).
    pub(crate) fn assign_item(&mut self, base: Value, items: &[IndexItem], v: Value) -> Result<()> {
        match base {
            Value::Dict(d) => {
                let key = self.dict_key(items)?;
                d.insert(key, v)
            }
            Value::List(l) => {
                let n = l.len();
                match self.seq_index(items, ("lists", "list"), n)? {
                    Pick::One(j) => {
                        l.modify(|xs| {
                            if let Some(slot) = xs.get_mut(j) {
                                *slot = v;
                            }
                        });
                        Ok(())
                    }
                    Pick::Many(js, run) => {
                        let new = self.collect_items(v)?;
                        if let Some(at) = run {
                            // `xs[a:b] = items` replaces the run (any length).
                            let at = js.first().copied().unwrap_or(at);
                            l.modify(|xs| {
                                let end = (at + js.len()).min(xs.len());
                                xs.splice(at.min(xs.len())..end, new);
                            });
                            return Ok(());
                        }
                        if new.len() != js.len() {
                            return Err(Error::value(format!(
                                "cannot assign {} items to an extended slice of {} items",
                                new.len(),
                                js.len()
                            )));
                        }
                        l.modify(|xs| {
                            for (j, x) in js.into_iter().zip(new) {
                                if let Some(slot) = xs.get_mut(j) {
                                    *slot = x;
                                }
                            }
                        });
                        Ok(())
                    }
                }
            }
            Value::Tuple(_) | Value::Str(_) => Err(Error::type_(format!(
                "{} cannot be changed: it is immutable",
                base.a_type_name()
            ))
            .with_help("build a new one, or use a list")),
            other => Err(Error::type_(format!(
                "cannot assign into {} with [...]",
                other.a_type_name()
            ))),
        }
    }

    /// `del base[items]`: a dict's key, a list's item or slice.
    pub(crate) fn delete_item(&mut self, base: Value, items: &[IndexItem]) -> Result<()> {
        match base {
            Value::Dict(d) => {
                let key = self.dict_key(items)?;
                match d.remove(&key)? {
                    Some(_) => Ok(()),
                    None => Err(crate::containers::methods::key_error(&key, &d)),
                }
            }
            Value::List(l) => {
                let n = l.len();
                let mut js = match self.seq_index(items, ("lists", "list"), n)? {
                    Pick::One(j) => vec![j],
                    Pick::Many(js, _) => js,
                };
                js.sort_unstable();
                l.modify(|xs| {
                    for &j in js.iter().rev() {
                        if j < xs.len() {
                            xs.remove(j);
                        }
                    }
                });
                Ok(())
            }
            Value::Array(_) => Err(Error::type_("an array's elements cannot be deleted")
                .with_help("make a new array without them, e.g. x[mask] with a bool mask")),
            other => Err(Error::type_(format!(
                "{} does not support deleting items",
                other.a_type_name()
            ))),
        }
    }
}

/// The positions `xs[start:stop:step]` picks from a sequence of length `n`.
fn pick_slice(first: Option<i64>, stop: Option<i64>, step: Option<i64>, n: usize) -> Result<Pick> {
    let (b, count, st) = slice_range(first, stop, step, n)?;
    // Where `xs[a:b] = ...` writes when a:b picks nothing.
    let at = match first {
        None => 0,
        Some(i) if i < 0 => (n as i64 + i).max(0) as usize,
        Some(i) => (i as usize).min(n),
    };
    let js = (0..count)
        .map(|k| (b as i64 + k as i64 * st) as usize)
        .collect();
    Ok(Pick::Many(js, if st == 1 { Some(at) } else { None }))
}

/// The position an int `v` names in a sequence of length `n` (negative from the end).
fn position_of(
    v: Value,
    span: gcalc_lang::Span,
    what: (&str, &str, &str),
    n: usize,
) -> Result<usize> {
    let (_, one, range) = what;
    let i = match v.as_py_index() {
        Some(i) => i,
        None => {
            let fix = match &v {
                Value::Array(a) if a.ndim() == 0 => "a 0-d float array: convert it with int(i)",
                Value::Array(_) => {
                    "only one position at a time: loop, or make an array first with array(...)"
                }
                Value::Float(_) => "convert it with int(i)",
                _ => "use an int (negative counts from the end) or a slice like 1:3",
            };
            return Err(Error::index(format!(
                "{} cannot index {}",
                v.a_type_name(),
                crate::error::with_article(one)
            ))
            .with_help(fix)
            .at(span));
        }
    };
    let n = n as i64;
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(Error::index(format!(
            "index {i} is out of range for {} of length {n}",
            crate::error::with_article(range)
        ))
        .at(span));
    }
    Ok(j as usize)
}

/// What an index picks from a sequence: one position, or a slice's
/// positions and, for a slice of step 1, where its run starts (an
/// assignment there replaces the run, even an empty one).
enum Pick {
    One(usize),
    Many(Vec<usize>, Option<usize>),
}
