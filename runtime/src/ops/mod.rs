//! The op table: one entry per operation, read by the CPU loops, the CUDA code
//! generator, fusion, autodiff, `help()` and completion.
//!
//! Invariant: an operation is defined in exactly one `OpDef`; nothing outside
//! the table switches on op names.

/// A plain builtin entry: `builtin!(name, sig, doc, f)` (not a method, no gradient).
macro_rules! builtin {
    ($name:expr, $sig:expr, $doc:expr, $f:expr) => {
        $crate::ops::OpDef {
            name: $name,
            sig: $sig,
            doc: $doc,
            method: false,
            kind: $crate::ops::OpKind::Func($f),
            grad: None,
        }
    };
}
pub(crate) use builtin;

pub mod arrutil;
pub mod assemble;
pub mod clip_call;
pub mod collective;
pub mod complex;
pub mod complex_ew;
pub mod creation;
pub mod decomp;
pub mod eig;
pub mod einsum;
pub mod elementwise;
pub mod elementwise_math;
pub mod family;
pub mod fft;
pub mod fuse;
pub mod generator;
pub mod histogram;
pub mod index;
pub mod io;
pub mod linalg;
pub mod linalg_args;
pub mod linalg_calls;
pub mod linalg_ns;
pub mod lstsq;
pub mod norms;
pub mod np_alias;
pub mod np_complex;
pub mod np_dtype;
pub mod np_misc;
pub mod nparr;
pub mod npmath;
pub mod npmath_alias;
pub mod npmath_calc;
pub mod npmath_ew;
pub mod npmath_grad;
pub mod npmath_linalg;
pub mod npmath_nanq;
pub mod py_scalar;
pub mod quantile;
pub mod random_draws;
pub mod random_ops;
pub mod random_scalar;
pub mod reduce;
pub mod reduce_where;
pub mod scan;
pub mod search;
pub mod shape;
pub mod shape_order;
pub mod signal;
pub mod softmax;
pub mod sort;
pub mod stat_args;
pub mod stats;
pub mod tensor;
pub mod ufunc_methods;

use crate::error::Result;
use crate::interp::{Args, Interp};
use crate::value::Value;

use std::sync::OnceLock;

pub type BuiltinFn = fn(&mut Interp, Args) -> Result<Value>;

pub struct OpDef {
    pub name: &'static str,
    /// Call signature as shown by help and the REPL hint: `exp(x)`, `sum(x, axis=none, keepdims=false)`.
    pub sig: &'static str,
    /// What it does, in a sentence or a short paragraph.
    pub doc: &'static str,
    /// Also callable as a method: `x.sum(axis=0)` calls `sum(x, axis=0)`.
    pub method: bool,
    pub kind: OpKind,
    /// The gradient rule of a non-elementwise op (elementwise ops carry theirs
    /// in `EwDef::grad`); `None`: no gradient flows through it.
    pub grad: Option<crate::autodiff::GradFn>,
}

pub enum OpKind {
    /// Evaluated by calling the function with the interpreter and the arguments.
    Func(BuiltinFn),
    /// An elementwise op: fused by `fuse::eval`, called through `fuse::call`.
    Elementwise(elementwise::EwDef),
    /// A reduction, called through `reduce::call` (its identity, matched by
    /// each backend: `cpu/reduce.rs`, `cuda/reduce.rs`).
    Reduce(crate::opid::ReduceOp),
}

impl OpDef {
    /// The reduction this entry is, if it is one.
    pub fn reduce_op(&self) -> Option<crate::opid::ReduceOp> {
        match self.kind {
            OpKind::Reduce(r) => Some(r),
            _ => None,
        }
    }
}

/// Every table, joined. Each module that defines ops exports `pub static OPS: &[OpDef]`.
fn tables() -> Vec<&'static [OpDef]> {
    vec![
        elementwise::OPS,
        elementwise_math::OPS,
        reduce::OPS,
        scan::OPS,
        softmax::OPS,
        quantile::OPS,
        stats::OPS,
        histogram::OPS,
        linalg::OPS,
        decomp::OPS,
        norms::OPS,
        lstsq::OPS,
        tensor::OPS,
        einsum::OPS,
        crate::builtins::lang::OPS,
        crate::builtins::python::OPS,
        crate::builtins::pyobjects::OPS,
        crate::containers::set::OPS,
        crate::builtins::printing::OPS,
        crate::builtins::device::OPS,
        collective::OPS,
        crate::builtins::help::OPS,
        creation::OPS,
        shape::OPS,
        assemble::OPS,
        index::OPS,
        random_ops::OPS,
        random_draws::OPS,
        io::OPS,
        crate::plot::OPS,
        crate::profile::OPS,
        crate::autodiff::builtins::OPS,
        crate::containers::methods::OPS,
        sort::OPS,
        nparr::CONSTRUCT_OPS,
        nparr::MANIP_OPS,
        nparr::PICK_OPS,
        nparr::SET_OPS,
        nparr::HIST2D_OPS,
        nparr::DRAW_OPS,
        complex::OPS,
        fft::OPS,
        npmath_ew::OPS,
        npmath_alias::OPS,
        npmath_alias::REDUCE_OPS,
        npmath::OPS,
        npmath_calc::OPS,
        npmath_linalg::OPS,
        np_alias::OPS,
        np_alias::SHAPE_OPS,
        np_dtype::OPS,
        np_complex::OPS,
        np_misc::OPS,
        np_misc::EW_OPS,
        signal::CONV_OPS,
        signal::WINDOW_OPS,
        signal::SHAPE_OPS,
        signal::HIST_OPS,
        eig::OPS,
        arrutil::CALLABLE_OPS,
        arrutil::INPLACE_OPS,
        arrutil::SELECT_OPS,
        arrutil::ITERATE_OPS,
        arrutil::TEXT_OPS,
        generator::OPS,
        generator::more_draws::OPS,
    ]
}

/// Fx-hashed: op names are short and trusted, and the interpreter looks one up
/// for every operator it evaluates (SipHash cost more than the lookup's use).
type Index = crate::fxhash::FxHashMap<&'static str, &'static OpDef>;

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        tables()
            .into_iter()
            .flatten()
            .map(|d| (d.name, d))
            .collect()
    })
}

/// Whether calling `def` does more than compute a value from its arguments
/// (output, files, plots, devices and syncs, random draws, the profiler,
/// help, mutating containers, input, `exit`): a loop whose body calls one is
/// never replayed as a CUDA graph (`interp/loop_graph.rs`). Whole tables
/// by where they live, plus the effectful names of the language table.
pub fn has_effects(def: &'static OpDef) -> bool {
    static SET: OnceLock<crate::fxhash::FxHashMap<usize, ()>> = OnceLock::new();
    let set = SET.get_or_init(|| {
        let tables: [&'static [OpDef]; 17] = [
            crate::containers::methods::LIST_METHODS,
            crate::containers::methods::DICT_METHODS,
            crate::builtins::printing::OPS,
            crate::builtins::device::OPS,
            crate::builtins::help::OPS,
            crate::builtins::pyobjects::OPS,
            crate::containers::methods::OPS,
            collective::OPS,
            random_ops::OPS,
            random_draws::OPS,
            io::OPS,
            crate::plot::OPS,
            crate::profile::OPS,
            nparr::DRAW_OPS,
            arrutil::TEXT_OPS,
            generator::OPS,
            generator::more_draws::OPS,
        ];
        const LANG: &[&str] = &[
            "print",
            "eprint",
            "input",
            "display",
            "clear_output",
            "progress",
            "timeit",
            "args",
        ];
        let lang = crate::builtins::lang::OPS
            .iter()
            .filter(|d| LANG.contains(&d.name));
        tables
            .into_iter()
            .flatten()
            .chain(lang)
            .map(|d| (d as *const OpDef as usize, ()))
            .collect()
    });
    set.contains_key(&(def as *const OpDef as usize))
}

pub fn lookup(name: &str) -> Option<&'static OpDef> {
    index().get(name).copied()
}

/// Every op, sorted by name.
pub fn all() -> Vec<&'static OpDef> {
    let mut v: Vec<_> = index().values().copied().collect();
    v.sort_by_key(|d| d.name);
    v
}
