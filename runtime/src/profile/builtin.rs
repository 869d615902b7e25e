//! The `profile(reset=false, file=none)` builtin: print the report (HTML in
//! Jupyter), write the raw records as JSON, or clear them.

use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::output::DisplayData;
use crate::value::Value;

pub static OPS: &[OpDef] = &[OpDef {
    name: "profile",
    sig: "profile(reset=false, file=none)",
    doc: "Show where the time went since `set profile = true` (or the last reset): wall time, \
          time in the interpreter and in ops, launches, syncs, transfers, compiles, peak memory, \
          and tables by op kind, by kernel and by source line. `file=\"p.json\"` writes the raw \
          records as JSON instead; `reset=true` clears them (after writing the file, if any).",
    method: false,
    kind: OpKind::Func(profile),
    grad: None,
}];

fn profile(i: &mut Interp, mut a: Args) -> Result<Value> {
    let reset = match a.opt("reset")? {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    let file = match a.opt("file")? {
        None | Some(Value::None) => None,
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(other) => {
            return Err(Error::type_(format!(
                "file must be a string, not {}",
                other.a_type_name()
            ))
            .with_help("profile(file=\"p.json\")"));
        }
    };
    a.finish_with(&["reset", "file"])?;
    if i.flags.profile {
        // Device times arrive at sync points: wait for the GPUs so every queued
        // launch's is in. A failure of queued work poisons its GPU, which says so
        // at its next use; the report is still shown.
        let _ = crate::backend::devices::sync_all();
    }
    let prof = i.profiler.clone();
    if let Some(path) = file {
        let (json, n) = {
            let st = prof.lock();
            (super::to_json(&st), st.records.len())
        };
        crate::safe_write::write_file(std::path::Path::new(&path), "profile", &|| false, |w| {
            std::io::Write::write_all(w, json.as_bytes())
        })?;
        i.print(&format!("profile: wrote {n} records to {path}\n"));
    } else if !reset {
        let (text, html) = {
            let st = prof.lock();
            let mut text = super::to_text(&st);
            if !i.flags.profile && st.records.is_empty() {
                text.push_str("\n(profiling is off: `set profile = true` to record)\n");
            }
            let html = i.out.rich().then(|| super::to_html(&st));
            (text, html)
        };
        match html {
            Some(html) => i.out.display(&DisplayData {
                text,
                html: Some(html),
                ..Default::default()
            }),
            None => i.print(&text),
        }
    }
    if reset {
        prof.lock().reset();
    }
    Ok(Value::None)
}
