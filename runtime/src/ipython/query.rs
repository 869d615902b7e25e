//! `name?` and `name??` at a prompt: a builtin's help page, what a variable
//! is, a function's source.

use crate::error::{Error, Result, did_you_mean};
use crate::interp::Interp;
use crate::value::Value;

/// `name?`: the help page of a builtin or what a variable is; `name??`: a
/// function's source too.
pub(super) fn help(i: &mut Interp, name: &str, source: bool) -> Result<()> {
    let last = name.rsplit('.').next().unwrap_or(name);
    let value = if name.contains('.') {
        crate::ops::lookup(last)
            .filter(|d| d.method)
            .map(Value::Builtin)
    } else {
        i.lookup_var(name)
            .cloned()
            .or_else(|| crate::ops::lookup(name).map(Value::Builtin))
    };
    let text = match value {
        Some(Value::Builtin(d)) => {
            let mut t = crate::help::page(d, &i.flags);
            if source {
                t.push_str("(a builtin of the op table: it has no gcalc source)\n");
            }
            t
        }
        Some(Value::Func(f)) => {
            let params: Vec<&str> = f.def.params.iter().map(|p| p.name.name.as_str()).collect();
            let mut t = format!(
                "fn {}({}) — defined in {}\n",
                f.name,
                params.join(", "),
                f.source.name
            );
            if source {
                let span = f.def.span;
                let text = f.source.text.get(span.start as usize..span.end as usize);
                t.push_str(&format!("\n{}\n", text.unwrap_or("")));
            }
            t
        }
        Some(v) => crate::complete::describe(name, &v),
        None => {
            let mut e = Error::name(format!("unknown name `{name}`"));
            e.help = did_you_mean(name, crate::ops::all().iter().map(|d| d.name));
            return Err(e);
        }
    };
    i.out.stdout(&text);
    Ok(())
}
