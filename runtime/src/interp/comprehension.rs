//! Comprehensions: `[e for x in xs if c for y in ys]`, generator expressions
//! (which give a list too) and `{k: v for ...}`. The clauses nest left to
//! right as Python's do; the variables they bind are local to the
//! comprehension (Python 3): afterwards each name has its value from before,
//! or none at all.

use super::Interp;
use crate::containers::Dict;
use crate::error::Result;
use crate::value::Value;
use gcalc_lang::ast::*;

impl Interp {
    pub(crate) fn eval_list_comp(&mut self, elt: &Expr, clauses: &[CompClause]) -> Result<Value> {
        let mut out = Vec::new();
        self.comprehension(clauses, &mut |s| {
            out.push(s.eval(elt)?);
            Ok(())
        })?;
        Ok(Value::list(out))
    }

    pub(crate) fn eval_dict_comp(
        &mut self,
        key: &Expr,
        value: &Expr,
        clauses: &[CompClause],
    ) -> Result<Value> {
        let d = Dict::new();
        self.comprehension(clauses, &mut |s| {
            let k = s.eval(key)?;
            let v = s.eval(value)?;
            d.insert(k, v).map_err(|e| e.at(key.span))
        })?;
        Ok(Value::Dict(d))
    }

    /// Run `body` for every binding the clauses make, then put back the
    /// names they bound.
    fn comprehension(
        &mut self,
        clauses: &[CompClause],
        body: &mut dyn FnMut(&mut Interp) -> Result<()>,
    ) -> Result<()> {
        let mut names = Vec::new();
        for c in clauses {
            if let CompClause::For { target, .. } = c {
                target_names(target, &mut names);
            }
        }
        let saved: Vec<(String, Option<Value>)> = names
            .into_iter()
            .map(|n| {
                let old = self.scope().get(&n).cloned();
                (n, old)
            })
            .collect();
        let r = self.clauses(clauses, body);
        let scope = self.scope();
        for (n, old) in saved {
            match old {
                Some(v) => {
                    scope.insert(n, v);
                }
                None => {
                    scope.remove(&n);
                }
            }
        }
        r
    }

    fn clauses(
        &mut self,
        clauses: &[CompClause],
        body: &mut dyn FnMut(&mut Interp) -> Result<()>,
    ) -> Result<()> {
        let Some((first, rest)) = clauses.split_first() else {
            return body(self);
        };
        match first {
            CompClause::If(cond) => {
                let c = self.eval(cond)?;
                if self.truthy(&c).map_err(|e| e.at(cond.span))? {
                    self.clauses(rest, body)?;
                }
                Ok(())
            }
            CompClause::For { target, iter } => {
                let it = self.eval(iter)?;
                let mut items = self.iterate(it).map_err(|e| e.at(iter.span))?;
                let r = (|| {
                    while let Some(item) = items.next(self)? {
                        self.check_interrupt().map_err(|e| e.at(iter.span))?;
                        self.assign(target, item)?;
                        self.clauses(rest, body)?;
                    }
                    Ok(())
                })();
                items.finish(self);
                r
            }
        }
    }

    /// The innermost scope: the running function's locals, or the globals.
    fn scope(&mut self) -> &mut crate::fxhash::FxHashMap<String, Value> {
        match self.frames.last_mut() {
            Some(f) => f,
            None => &mut self.globals,
        }
    }
}

fn target_names(t: &Target, out: &mut Vec<String>) {
    match t {
        Target::Name(id) => out.push(id.name.clone()),
        Target::Tuple(items, _) => items.iter().for_each(|t| target_names(t, out)),
        Target::Starred(t, _) => target_names(t, out),
        Target::Index { .. } | Target::Attr { .. } => {}
    }
}
