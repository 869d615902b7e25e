//! `help(name)`: a builtin's help page (`crate::help`), or what a value is.

use crate::error::{Error, Result, did_you_mean};
use crate::interp::{Args, Interp};
use crate::ops::{self, OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[OpDef {
    name: "help",
    sig: "help(name)",
    doc: "Show how to call a builtin and what it does: help(exp), help(\"sum\"). help() lists every builtin.",
    method: false,
    kind: OpKind::Func(help),
    grad: None,
}];

fn help(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.opt("name")?;
    a.finish()?;
    let text = match x {
        None => {
            let mut s = String::from("Builtins (help(name) for one):\n");
            for d in ops::all() {
                s.push_str(&format!("  {:<14} {}\n", d.name, d.sig));
            }
            s.push_str("\nStatements: x = e, fn f(a) = e, fn f(a) { ... }, for x in xs { }, while c { }, if c { } else { }, set flag = value, time { ... }\n");
            s
        }
        Some(Value::Builtin(d)) | Some(Value::Method(_, d)) => crate::help::page(d, &i.flags),
        Some(Value::Str(s)) => match ops::lookup(&s) {
            Some(d) => crate::help::page(d, &i.flags),
            None => {
                let mut e = Error::name(format!("no builtin named `{s}`"));
                e.help = did_you_mean(&s, ops::all().iter().map(|d| d.name));
                return Err(e);
            }
        },
        Some(Value::Func(f)) => {
            let params: Vec<&str> = f.def.params.iter().map(|p| p.name.name.as_str()).collect();
            format!(
                "fn {}({}) — defined in {}\n",
                f.name,
                params.join(", "),
                f.source.name
            )
        }
        Some(other) => format!(
            "{}: {}\n",
            other.a_type_name(),
            crate::display::repr(&other)
        ),
    };
    i.out.stdout(&text);
    Ok(Value::None)
}
