//! `Session`: the one API every front-end drives (terminal REPL, scripts,
//! Jupyter kernel): execute, complete, inspect, is_complete, interrupt.

use crate::display;
use crate::error::{Error, ErrorKind};
use crate::flags::Flags;
use crate::interp::Interp;
use crate::output::{DisplayData, Output};
use crate::value::Value;
use gcalc_lang::Completeness;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What running one input gave.
#[derive(Debug, Default)]
pub struct ExecOutcome {
    /// The value of the last statement when it is an expression (not `none`).
    pub value: Option<DisplayData>,
    /// The first error, if the input failed (parse errors: all of them, rendered together).
    pub error: Option<ExecError>,
    /// `exit(n)`/`quit()` ran: the status asked for. A script ends with it,
    /// the REPL leaves, Jupyter stops the cell and keeps the kernel.
    pub exit: Option<i32>,
}

#[derive(Debug, Clone)]
pub struct ExecError {
    pub errors: Vec<Error>,
    /// Rendered with source lines and carets, without colour.
    pub rendered: String,
    /// The same with ANSI colour.
    pub rendered_color: String,
}

impl ExecError {
    /// Jupyter's `ename`.
    pub fn ename(&self) -> &'static str {
        self.errors.first().map_or("Error", |e| e.kind.class_name())
    }
    /// Jupyter's `evalue`.
    pub fn evalue(&self) -> String {
        self.errors
            .first()
            .map_or(String::new(), |e| e.full_message())
    }
    pub fn kind(&self) -> Option<ErrorKind> {
        self.errors.first().map(|e| e.kind)
    }
}

/// Stops the running statement from another thread (Ctrl-C, a Jupyter interrupt).
#[derive(Clone)]
pub struct InterruptHandle(Arc<AtomicBool>);

impl InterruptHandle {
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A variable as `:vars` and inspection show it.
#[derive(Debug, Clone, PartialEq)]
pub struct VarInfo {
    pub name: String,
    pub type_name: String,
    pub shape: Option<Vec<usize>>,
    pub dtype: Option<String>,
    pub device: Option<String>,
    pub bytes: Option<usize>,
}

pub struct Session {
    pub(crate) interp: Interp,
    /// Whether inputs are whole programs (scripts, `-e`) or cells, for the
    /// names checked before a run (`gcalc_lang::resolve`).
    scope: gcalc_lang::resolve::Scope,
    /// Every name an earlier input that ran could bind, run or not: a cell
    /// may read what an earlier cell assigns in a branch that did not run
    /// (`if has_gpu { y = ... }`), guarded the same way.
    bindable: std::collections::HashSet<String>,
    /// Where shown arrays and listings wrap (`set_line_width`).
    line_width: usize,
}

impl Session {
    pub fn new(flags: Flags, out: Box<dyn Output>) -> Session {
        Session {
            interp: Interp::new(flags, out),
            scope: gcalc_lang::resolve::Scope::Cell,
            bindable: Default::default(),
            line_width: crate::array::print::DEFAULT_LINE_WIDTH,
        }
    }

    /// Treat each input as a whole program (a script or `-e`): names read
    /// inside functions are checked before the run too, since no later input
    /// can define them. Prompts and notebooks keep the default (cells).
    pub fn set_whole_program(&mut self, whole: bool) {
        self.scope = if whole {
            gcalc_lang::resolve::Scope::WholeProgram
        } else {
            gcalc_lang::resolve::Scope::Cell
        };
    }

    /// Wrap shown arrays and listings at `width` columns from the next
    /// `execute` on: NumPy's 75 by default (scripts, Jupyter); the terminal
    /// REPL passes its terminal's width before each input.
    pub fn set_line_width(&mut self, width: usize) {
        self.line_width = width;
    }

    pub fn line_width(&self) -> usize {
        self.line_width
    }

    /// Parse and run `code`, shown in errors as `source_name` (a file name, `<stdin>`, `In [3]`).
    pub fn execute(&mut self, code: &str, source_name: &str) -> ExecOutcome {
        self.execute_value(code, code, source_name, Interp::run).0
    }

    /// Parse `text` and run it with `run`; errors are shown against `shown`
    /// (the same text, or the input `text` was cut from with the same byte
    /// offsets). The outcome and the value itself.
    pub(crate) fn execute_value(
        &mut self,
        text: &str,
        shown: &str,
        source_name: &str,
        run: impl FnOnce(&mut Interp, &gcalc_lang::Program, &str, &str) -> crate::Result<Option<Value>>,
    ) -> (ExecOutcome, Option<Value>) {
        crate::array::print::set_line_width(self.line_width);
        crate::array::print_options::set_options(self.interp.print_options);
        let parsed = gcalc_lang::parse(text);
        if !parsed.diagnostics.is_empty() {
            let errors: Vec<Error> = parsed
                .diagnostics
                .iter()
                .map(|d| {
                    let mut e = Error::new(ErrorKind::Syntax, d.message.clone());
                    e.span = d.span;
                    e.help = d.help.clone();
                    e
                })
                .collect();
            let outcome = ExecOutcome {
                value: None,
                error: Some(self.render(errors, source_name, shown)),
                exit: None,
            };
            return (outcome, None);
        }
        let unknown = self.unknown_names(&parsed.program);
        if !unknown.is_empty() {
            let outcome = ExecOutcome {
                value: None,
                error: Some(self.render(unknown, source_name, shown)),
                exit: None,
            };
            return (outcome, None);
        }
        self.bindable
            .extend(gcalc_lang::resolve::bound_names(&parsed.program));
        // A stale interrupt (pressed while idle) must not stop the next input.
        self.interp.interrupt_flag().store(false, Ordering::Relaxed);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let r = run(&mut self.interp, &parsed.program, source_name, text);
            // The GPU work this input queued is finished before its outcome
            // is told: an index error a kernel found belongs to this input.
            match (r, crate::backend::devices::settle()) {
                (r, Ok(())) => r,
                (Ok(_), Err(e)) => Err(e),
                (Err(e), Err(q)) => {
                    Err(e.with_note(format!("the GPU also reported: {}", q.message)))
                }
            }
        }));
        match r {
            Ok(Ok(v)) => {
                // IPython's habit: a trailing `;` hides the value (and keeps
                // it out of `_`); a figure still shows, as matplotlib's does.
                let v = v.filter(|v| !quiet(&parsed.program, text) || is_figure(v));
                let outcome = ExecOutcome {
                    value: v.as_ref().and_then(display::display_data),
                    error: None,
                    exit: None,
                };
                (outcome, v)
            }
            Ok(Err(e)) if e.kind == ErrorKind::Exit => {
                let outcome = ExecOutcome {
                    exit: Some(self.interp.exit_status.take().unwrap_or(0)),
                    ..Default::default()
                };
                (outcome, None)
            }
            Ok(Err(e)) => {
                let e = self.annotate_gpu_error(e);
                let outcome = ExecOutcome {
                    value: None,
                    error: Some(self.render(vec![e], source_name, shown)),
                    exit: None,
                };
                (outcome, None)
            }
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                let e =
                    Error::internal(format!("gcalc panicked: {msg}")).at(self.interp.current_stmt);
                let outcome = ExecOutcome {
                    value: None,
                    error: Some(self.render(vec![e], source_name, shown)),
                    exit: None,
                };
                (outcome, None)
            }
        }
    }

    /// Every name the program reads that nothing can bind, as name errors
    /// (found before the first statement runs, like pyflakes).
    fn unknown_names(&self, program: &gcalc_lang::Program) -> Vec<Error> {
        let interp = &self.interp;
        let bindable = &self.bindable;
        let known = |n: &str| interp.knows(n) || bindable.contains(n);
        let found = gcalc_lang::resolve::unresolved(program, &known, self.scope);
        let n = found.len();
        let bound = if n > 0 {
            gcalc_lang::resolve::bound_names(program)
        } else {
            Vec::new()
        };
        found
            .into_iter()
            .enumerate()
            .map(|(k, u)| {
                let mut e = Error::name(format!("unknown name `{}`", u.name)).at(u.span);
                e.help = interp.unknown_name_help(&u.name, u.dotted.as_deref(), &bound);
                if u.reads > 1 {
                    e = e.with_note(format!(
                        "`{}` is read {} times; this is the first",
                        u.name, u.reads
                    ));
                }
                if k + 1 == n {
                    e = e.with_note("found before running: no statement ran");
                }
                e
            })
            .collect()
    }

    /// GPU failures name the variables they concern: a poisoned GPU lists the
    /// arrays lost on it; out of memory lists the largest GPU variables (the
    /// largest host variables when the host ran out).
    fn annotate_gpu_error(&self, mut e: Error) -> Error {
        let poisoned =
            e.kind == ErrorKind::Device && e.message.contains("poisons the CUDA context");
        if !(poisoned || e.kind == ErrorKind::OutOfMemory) {
            return e;
        }
        // The host's out-of-memory errors list the largest host variables.
        let host = e.message.starts_with(crate::array::alloc::HOST_OOM);
        let mut gpu_vars: Vec<(String, usize, String)> = self
            .interp
            .globals
            .iter()
            .map(|(k, v)| (k.clone(), v))
            .chain(
                self.interp
                    .results
                    .numbered()
                    .map(|(n, v)| (format!("_{n}"), v)),
            )
            .filter_map(|(k, v)| match v {
                Value::Array(a) if a.device().is_gpu() != host => {
                    Some((k, a.nbytes(), a.device().to_string()))
                }
                _ => None,
            })
            .collect();
        gpu_vars.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        if poisoned {
            let names: Vec<String> = gpu_vars
                .iter()
                .map(|v| format!("{} ({})", v.0, v.2))
                .collect();
            e = e.with_note(if names.is_empty() {
                "no GPU variables were lost".to_string()
            } else {
                format!("GPU variables lost: {}", names.join(", "))
            });
        } else if !gpu_vars.is_empty() {
            let top: Vec<String> = gpu_vars
                .iter()
                .take(5)
                .map(|v| format!("{} {}", v.0, crate::device::fmt_bytes(v.1)))
                .collect();
            let place = if host { "host" } else { "GPU" };
            e = e.with_note(format!("largest {place} variables: {}", top.join(", ")));
        }
        e
    }

    fn render(&self, errors: Vec<Error>, source_name: &str, code: &str) -> ExecError {
        let rendered = errors
            .iter()
            .map(|e| e.render(source_name, code, false))
            .collect::<Vec<_>>()
            .join("\n");
        let rendered_color = errors
            .iter()
            .map(|e| e.render(source_name, code, true))
            .collect::<Vec<_>>()
            .join("\n");
        ExecError {
            errors,
            rendered,
            rendered_color,
        }
    }

    /// Whether `code` is a whole input, needs more lines, or cannot parse
    /// (a prompt's input: `%time` and `name?` lines count as what they hold).
    pub fn is_complete(&self, code: &str) -> Completeness {
        crate::ipython::completeness(code)
    }

    pub fn interrupt_handle(&self) -> InterruptHandle {
        InterruptHandle(self.interp.interrupt_flag())
    }

    /// Replace where output goes; gives back the old sink.
    pub fn set_output(&mut self, out: Box<dyn Output>) -> Box<dyn Output> {
        std::mem::replace(&mut self.interp.out, out)
    }

    pub fn set_script_args(&mut self, args: Vec<String>) {
        self.interp.script_args = args;
    }

    pub fn flags(&self) -> &Flags {
        &self.interp.flags
    }

    /// The session's variables, sorted by name.
    pub fn vars(&self) -> Vec<VarInfo> {
        let mut v: Vec<VarInfo> = self
            .interp
            .globals
            .iter()
            .map(|(k, v)| var_info(k, v))
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// A variable's value.
    pub fn get(&self, name: &str) -> Option<Value> {
        self.interp.globals.get(name).cloned()
    }

    /// Forget every variable and the values `_`, `_N` keep (flags stay).
    pub fn reset(&mut self) {
        self.interp.globals.clear();
        self.bindable.clear();
        self.interp.results.clear();
    }

    /// The signature of a builtin, for a prompt's hint (`exp(x)`).
    pub fn signature(&self, name: &str) -> Option<&'static str> {
        if self.interp.globals.contains_key(name) {
            return None;
        }
        crate::ops::lookup(name).map(|d| d.sig)
    }

    pub fn interp(&mut self) -> &mut Interp {
        &mut self.interp
    }
}

pub(crate) fn var_info(name: &str, v: &Value) -> VarInfo {
    match v {
        Value::Array(a) => VarInfo {
            name: name.into(),
            type_name: "array".into(),
            shape: Some(a.shape().to_vec()),
            dtype: Some(a.dtype().name().into()),
            device: Some(a.device().to_string()),
            bytes: Some(a.nbytes()),
        },
        other => VarInfo {
            name: name.into(),
            type_name: other.type_name().into(),
            shape: None,
            dtype: None,
            device: None,
            bytes: None,
        },
    }
}

/// Whether the input ends with `;` after its last statement (`x.sum();`).
fn quiet(prog: &gcalc_lang::Program, text: &str) -> bool {
    prog.stmts.last().is_some_and(|st| {
        text.get(st.span.end as usize..)
            .is_some_and(|rest| rest.trim_start().starts_with(';'))
    })
}

/// Whether `v` is a figure (shown even after a trailing `;`).
fn is_figure(v: &Value) -> bool {
    matches!(v, Value::Object(o) if o.as_any().downcast_ref::<crate::plot::Figure>().is_some())
}
