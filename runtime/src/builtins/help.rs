//! `help(name)`: a builtin's help page (`crate::help`), or what a value is.

use crate::builtins::index_tricks::IndexTrick;
use crate::error::{Error, Result};
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

/// The help of a builtin or constant called `name`, if there is one.
pub fn name_help(name: &str, flags: &crate::flags::Flags) -> Option<String> {
    if let Some(d) = ops::lookup(name) {
        return Some(crate::help::page(d, flags));
    }
    if let Some(text) = crate::builtins::np_types::help(name) {
        return Some(text);
    }
    crate::builtins::constants::lookup(name).map(|c| {
        format!(
            "{name} = {}\n\n{}\n",
            crate::display::repr(&(c.value)()),
            c.doc
        )
    })
}

/// The syntax summary at the end of `help()`.
const SYNTAX: &str = "
Constants: pi e inf nan newaxis; index tricks r_ c_ mgrid ogrid (and true false none, also spelled True False None)

Syntax:
  x = e   a, b = e   x[i, 1:3] = e   d[\"k\"] = e   x += e (also -= *= /= //= %= **= @= &= |= ^= <<= >>=)
  fn f(a, b=1) = e   fn f(a) { ... }   fn(x) = x * 2   if c { } else if c2 { } else { }   a if c else b
  for x in xs { }   while c { }   break   continue   return e   set flag = value   time { ... }
  operators, loosest first: or  and  not  == != < <= > >= is in not-in  |  ^  &  << >>  + -  * / // % @  -x +x ~x  **
  (x > 0) & (x < 5) combines masks; `&` binds tighter than `>`, so write the parentheses
  f\"loss {l:.4f} at {i}\" (format specs as Python's: .3f e , % >8 x; {x!r}; {x=}; arrays element by element)
  [f(b) for b in batches if b]   {k: v for k, v in d.items()}   x[:, none]   x[..., 0]
  lists: xs.append(x) extend insert pop remove index count reverse sort copy clear, xs[-1], xs[1:3]
  dicts: {\"w\": w}, d[k], k in d, len(d), for k in d, d.keys() values() items() get pop update setdefault copy clear
";

fn help(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.opt("name")?;
    a.finish()?;
    let text = match x {
        None => {
            let mut s = String::from("Builtins (help(name) for one):\n");
            for d in ops::all() {
                s.push_str(&format!("  {:<14} {}\n", d.name, d.sig));
            }
            s.push_str(SYNTAX);
            s
        }
        Some(Value::Builtin(d)) | Some(Value::Method(_, d)) => crate::help::page(d, &i.flags),
        Some(Value::Str(s)) => match name_help(&s, &i.flags) {
            Some(text) => text,
            None => {
                let mut e = Error::name(format!("no builtin named `{s}`"));
                let names: Vec<&str> = ops::all().iter().map(|d| d.name).collect();
                e.help = crate::hints::unknown_name(&s, None, &names);
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
        Some(Value::Object(o)) if o.as_any().is::<IndexTrick>() => {
            let name = o
                .as_any()
                .downcast_ref::<IndexTrick>()
                .map_or("r_", |t| t.0.name());
            name_help(name, &i.flags).unwrap_or_default()
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
