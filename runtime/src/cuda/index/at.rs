//! `add_at` and its siblings on a GPU: one generated kernel per (x's
//! dtype, compute dtype, op) (`kernels::cuda::index_at`), compiled once and
//! cached; the index values checked first (a bad one writes nothing), then
//! one thread per selected element updates its position atomically. Repeats
//! of one position are combined in no fixed order: float sums with repeats
//! can differ from the CPU's in-order sums in the last bits.

use super::super::buffer::array_buffer;
use super::super::compile;
use super::{begin_write, run};
use crate::array::Array;
use crate::array::select::Select;
use crate::dtype::DType;
use crate::error::Result;
use crate::opid::AtOp;
use gcalc_kernels::cuda::index_at::{AtNative, at_source};

/// The C expression of `op` on the current element `{0}` and the value
/// `{1}` in compute dtype `c`: the arithmetic of the op-table twin (`add`,
/// ..., `maximum` where nan wins); integers wrap.
fn combine(op: AtOp, c: DType) -> (&'static str, AtNative) {
    let float = c.is_float();
    match op {
        AtOp::Add if float => ("({0} + {1})", AtNative::Add),
        AtOp::Add => ("((u64)({0}) + (u64)({1}))", AtNative::Add),
        AtOp::Subtract if float => ("({0} - {1})", AtNative::Subtract),
        AtOp::Subtract => ("((u64)({0}) - (u64)({1}))", AtNative::Subtract),
        AtOp::Multiply if float => ("({0} * {1})", AtNative::None),
        AtOp::Multiply => ("((u64)({0}) * (u64)({1}))", AtNative::None),
        AtOp::Maximum if float => ("(({0} > {1} || {0} != {0}) ? {0} : {1})", AtNative::None),
        AtOp::Maximum => ("(({0} > {1}) ? {0} : {1})", AtNative::Max),
        AtOp::Minimum if float => ("(({0} < {1} || {0} != {0}) ? {0} : {1})", AtNative::None),
        AtOp::Minimum => ("(({0} < {1}) ? {0} : {1})", AtNative::Min),
    }
}

/// The source of the kernel for x of dtype `t`, values of dtype `c`.
pub fn source(t: DType, c: DType, op: AtOp) -> String {
    let (comb, native) = combine(op, c);
    at_source(t, c, comb, native)
}

/// `x[p] = x[p] op src[i]` for every element of `sel` (`src`: the
/// selection's shape, on x's GPU, of the compute dtype).
pub fn at(x: &Array, sel: &Select, src: &Array, op: AtOp) -> Result<()> {
    if let Some(d) = [x.dtype(), src.dtype()]
        .into_iter()
        .find(|d| d.is_complex())
    {
        return Err(super::super::complex::refuse(op.name(), d));
    }
    let Some((g, mut l)) = begin_write(x, sel)? else {
        return Ok(());
    };
    let n = sel.size();
    let vals = super::super::ew::copy(src, src.dtype())?;
    let (t, c) = (x.dtype(), src.dtype());
    static LOADED: compile::Loaded<(DType, DType, AtOp), 1> = compile::Loaded::new();
    let [f] = LOADED.get_or_load(&g, (t, c, op), || {
        let key = format!("at {t} {c} {}", op.name());
        let f = compile::function(&g, compile::key_of(&key, "gc_at"), "gc_at", || {
            source(t, c, op)
        })?;
        Ok(vec![f])
    })?;
    let lead = vec![
        array_buffer(x)?.ptr_at(0),
        array_buffer(&vals)?.ptr_at(vals.offset()),
    ];
    run(&g, f, n, lead, &mut l, vec![], op.name())
}
