//! `in` / `not in` (items compared as `==` compares them: arrays by
//! identity, since their `==` is elementwise), and the truth that
//! `and`, `or` and `not` need (one value, so an array of several elements is
//! an error that names `&`, `|`, `~` and the `logical_*` functions).

use super::Interp;
use crate::error::{Error, Result};
use crate::ops::fuse::{self, EwNode, Operand};
use crate::value::Value;

impl Interp {
    /// `item in container`.
    pub(crate) fn contains(&mut self, container: &Value, item: &Value) -> Result<bool> {
        match container {
            Value::List(_) | Value::Tuple(_) => Ok(container
                .seq_items()
                .unwrap_or_default()
                .iter()
                .any(|x| self.values_equal(x, item))),
            Value::Dict(d) => d.contains(item),
            Value::Object(o) if o.as_any().is::<crate::containers::set::PySet>() => {
                match crate::containers::set::as_set(container) {
                    Some(s) => s.contains(item),
                    None => Ok(false),
                }
            }
            Value::Str(s) => match item {
                Value::Str(sub) => Ok(s.contains(&**sub)),
                other => Err(Error::type_(format!(
                    "`in <string>` needs a string on the left, not {}",
                    other.a_type_name()
                ))),
            },
            Value::Range(start, stop, step) => Ok(match item {
                Value::Int(i) => {
                    let inside = if *step > 0 {
                        start <= i && i < stop
                    } else {
                        stop < i && i <= start
                    };
                    inside && (i - start) % step == 0
                }
                _ => false,
            }),
            // NumPy's `__contains__`: `(x == item).any()`.
            Value::Array(_) => {
                let eq = crate::interp::eval::op_named("equal")?;
                let node = EwNode::Op {
                    op: eq,
                    args: vec![
                        EwNode::Leaf(fuse::operand(container)?),
                        EwNode::Leaf(fuse::operand(item).map_err(|_| {
                            Error::type_(format!(
                                "`in <array>` compares numbers, not {}",
                                item.a_type_name()
                            ))
                        })?),
                    ],
                };
                match self.eval_tree(node)? {
                    Operand::Bool(b) => Ok(b),
                    Operand::Array(a) => {
                        let any = crate::ops::reduce::reduce(
                            crate::opid::ReduceOp::Any,
                            &a,
                            None,
                            false,
                            self.float_x(),
                        )?;
                        Ok(any.get_f64(0)? != 0.0)
                    }
                    Operand::Int(i) => Ok(i != 0),
                    Operand::Float(f) => Ok(f != 0.0),
                    Operand::Complex(re, im) => Ok(re != 0.0 || im != 0.0),
                }
            }
            other => Err(Error::type_(format!(
                "`in` needs a list, tuple, string, dict, range or array on the right, not {}",
                other.a_type_name()
            ))),
        }
    }

    /// The single truth `and`/`or`/`not` (`word`) takes from `v`.
    pub(crate) fn logic_truth(&self, v: &Value, word: &str) -> Result<bool> {
        if let Value::Array(a) = v
            && a.size() != 1
            && word == "chain"
        {
            return Err(Error::value(format!(
                "a comparison chain `a < x < b` needs one truth value, but got an array of {} elements",
                a.size()
            ))
            .with_help(
                "on arrays compare each side and combine elementwise: (a < x) & (x < b)",
            ));
        }
        if let Value::Array(a) = v
            && a.size() != 1
        {
            let (sym, func) = match word {
                "and" => ("&", "logical_and"),
                "or" => ("|", "logical_or"),
                _ => ("~", "logical_not"),
            };
            let (example, call) = match word {
                "not" => ("~(x > 1)".to_string(), format!("{func}(x)")),
                _ => (format!("(x > 1) {sym} (x < 4)"), format!("{func}(a, b)")),
            };
            return Err(Error::value(format!(
                "`{word}` needs one truth value, but got an array of {} elements",
                a.size()
            ))
            .with_help(format!(
                "for arrays use `{sym}` elementwise, with parentheses: {example}, or {call}; any(x) and all(x) give one truth"
            )));
        }
        self.truthy(v)
    }
}
