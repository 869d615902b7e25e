//! The tree-walking interpreter: scopes, functions and closures, control flow,
//! and the dispatch of expressions to the op table (with elementwise fusion).

pub mod args;
mod assign;
mod call;
mod comprehension;
pub(crate) mod eval;
mod exec;
mod fstring;
mod index;
pub mod loop_graph;
mod membership;
pub mod results;

pub use args::Args;
pub(crate) use call::Iter;
pub(crate) use call::special_name;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::flags::Flags;
use crate::fxhash::FxHashMap;
use crate::output::Output;
use crate::random::Rng;
use crate::value::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::source::Source;

pub struct Interp {
    pub globals: FxHashMap<String, Value>,
    /// Local scopes of the functions being called, innermost last.
    pub(crate) frames: Vec<FxHashMap<String, Value>>,
    pub flags: Flags,
    pub rng: Rng,
    pub out: Box<dyn Output>,
    pub(crate) interrupt: Arc<AtomicBool>,
    /// `args()` of a script.
    pub script_args: Vec<String>,
    /// The source being executed (for errors inside functions defined elsewhere).
    pub(crate) source: Arc<Source>,
    /// Expression nesting (guards the native stack).
    pub(crate) depth: usize,
    /// Loops enclosing the current statement in the current function.
    pub(crate) loop_depth: usize,
    /// A `return` met inside a block used as an expression (`if c { return x }`).
    pub(crate) pending_return: Option<Value>,
    /// A `break` (true) or `continue` (false) met likewise.
    pub(crate) pending_break: Option<bool>,
    /// The statement being executed (its span names it in deferred errors).
    pub current_stmt: gcalc_lang::Span,
    /// The session's recorder (records only while `flags.profile`).
    pub profiler: crate::profile::Profiler,
    /// The autodiff tape while a gradient function runs (see `autodiff`).
    pub(crate) tape: Option<Box<crate::autodiff::Tape>>,
    /// What the prompt showed: `_`, `__`, `___`, `_N`.
    pub results: results::Results,
    /// The status `exit(n)` asked for; its `Exit` error carries it to the front-end.
    pub exit_status: Option<i32>,
    /// `set_printoptions`'s options, installed for every input's prints.
    pub print_options: crate::array::print_options::PrintOptions,
    /// Set while a loop body is watched for a CUDA graph (`loop_graph.rs`).
    pub(crate) watch: Option<Box<loop_graph::Watch>>,
}

/// How a statement ended.
pub(crate) enum Flow {
    Normal(Option<Value>),
    Break,
    Continue,
    Return(Value),
}

impl Interp {
    pub fn new(flags: Flags, out: Box<dyn Output>) -> Interp {
        crate::backend::devices::configure(flags.backend_config());
        crate::host_limits::set_budget(flags.host_memory);
        crate::backend::devices::set_warm_sources(crate::ops::fuse::warm_sources);
        Interp {
            globals: FxHashMap::default(),
            frames: Vec::new(),
            rng: Rng::default(),
            out,
            interrupt: Arc::new(AtomicBool::new(false)),
            script_args: Vec::new(),
            source: Arc::new(Source {
                name: "<input>".into(),
                text: String::new(),
            }),
            depth: 0,
            loop_depth: 0,
            pending_return: None,
            pending_break: None,
            current_stmt: gcalc_lang::Span::default(),
            tape: None,
            results: results::Results::default(),
            exit_status: None,
            print_options: Default::default(),
            watch: None,
            profiler: crate::profile::Profiler::new(flags.profile),
            flags,
        }
    }

    /// The dtype of float literals and creation functions.
    pub fn float_x(&self) -> DType {
        self.flags.float_x
    }

    /// Where new arrays go when no `device=` is given.
    pub fn default_device(&self) -> Device {
        self.flags.resolved_device()
    }

    /// Stop with `Interrupted` if an interrupt was requested (checked between
    /// statements, loop iterations and launches).
    pub fn check_interrupt(&self) -> Result<()> {
        // A plain load first: the swap (a locked instruction) only when set.
        if self.interrupt.load(Ordering::Relaxed) && self.interrupt.swap(false, Ordering::Relaxed) {
            Err(Error::interrupted())
        } else {
            Ok(())
        }
    }

    pub fn print(&mut self, text: &str) {
        self.out.stdout(text);
    }
}

impl Interp {
    /// Run a parsed program from `source`; the value of its last statement when
    /// that is an expression (what a prompt shows).
    pub fn run(
        &mut self,
        prog: &gcalc_lang::Program,
        name: &str,
        text: &str,
    ) -> Result<Option<Value>> {
        self.set_source(name, text);
        self.frames.clear();
        self.depth = 0;
        self.loop_depth = 0;
        self.pending_return = None;
        self.pending_break = None;
        let _prof = crate::profile::enter(&self.profiler);
        crate::interrupt::install(&self.interrupt);
        let r = self.exec_block(&prog.stmts);
        self.frames.clear();
        if r.as_ref()
            .is_err_and(|e| e.kind == crate::error::ErrorKind::Interrupted)
        {
            // A long op stopped by the flag leaves it set for its workers.
            self.interrupt.store(false, Ordering::Relaxed);
        }
        match r? {
            Flow::Normal(v) => Ok(v),
            _ => Ok(None),
        }
    }

    /// The interrupt flag shared with front-ends.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    /// Called after `set` changed a flag.
    pub(crate) fn flags_changed(&mut self) {
        self.profiler.set_on(self.flags.profile);
        crate::backend::devices::configure(self.flags.backend_config());
        crate::host_limits::set_budget(self.flags.host_memory);
    }

    pub fn source(&self) -> &Source {
        &self.source
    }
}
