//! The source of a `ufunc.at` kernel (`add_at(x, idx, v)` and siblings):
//! one thread per selected element applies `x[p] = x[p] op v[i]` atomically,
//! computing in the value's dtype and storing as x's (NumPy's unsafe cast):
//! a native atomic where one exists (add of int/float/double/long long,
//! max/min of ints), else a compare-and-swap loop on the aligned 32- or
//! 64-bit word holding the element (bool and float16 share a word with
//! their neighbours). Nothing is written while an index fault is pending.

use super::codegen::{ctype, fill, storage_type};
use crate::dtype::DType;

/// Bits of a stored element read from (`{0}`: the word shifted down) and
/// made into (`{0}`: the element) an unsigned word.
fn bits(d: DType) -> (&'static str, &'static str) {
    match d {
        DType::Bool => ("(({0}) & 0xffu) != 0", "(unsigned int)(({0}) ? 1 : 0)"),
        DType::Float16 => (
            "__ushort_as_half((unsigned short)(({0}) & 0xffffu))",
            "(unsigned int)__half_as_ushort({0})",
        ),
        DType::Float32 => ("__uint_as_float({0})", "__float_as_uint({0})"),
        DType::Int32 => ("(int)({0})", "(unsigned int)({0})"),
        DType::Float64 => (
            "__longlong_as_double((long long)({0}))",
            "(u64)__double_as_longlong({0})",
        ),
        DType::Int64 => ("(long long)({0})", "(u64)({0})"),
        // The `ufunc.at` ops refuse complex arrays before any kernel is made
        // (ops/index.rs); these arms keep the match whole.
        DType::Complex64 | DType::Complex128 => ("({0})", "({0})"),
    }
}

/// A stored element of `d` as the compute type `c`.
fn up(d: DType, c: DType) -> String {
    let x = match d {
        DType::Float16 => "__half2float(x)",
        _ => "x",
    };
    format!("({})({x})", ctype(c))
}

/// A computed value as a stored element of `d` (unsafe cast, as astype).
fn down(d: DType) -> &'static str {
    match d {
        DType::Float16 => "gc_to_half(r)",
        DType::Bool => "(r != 0)",
        _ => "(gc_t)(r)",
    }
}

/// The native atomic for storing `t` and computing `c` with `combine`, if any.
fn native(t: DType, c: DType, op: AtNative) -> Option<&'static str> {
    if t != c {
        return None;
    }
    Some(match (op, t) {
        (AtNative::Add, DType::Float32 | DType::Float64 | DType::Int32) => "atomicAdd(p, v);",
        (AtNative::Add, DType::Int64) => "atomicAdd((u64*)p, (u64)v);",
        (AtNative::Subtract, DType::Float32 | DType::Float64) => "atomicAdd(p, -v);",
        (AtNative::Subtract, DType::Int32) => "atomicAdd((unsigned int*)p, 0u - (unsigned int)v);",
        (AtNative::Subtract, DType::Int64) => "atomicAdd((u64*)p, 0ull - (u64)v);",
        (AtNative::Max, DType::Int32 | DType::Int64) => "atomicMax(p, v);",
        (AtNative::Min, DType::Int32 | DType::Int64) => "atomicMin(p, v);",
        _ => return None,
    })
}

/// Which native atomic an update could use (none for the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtNative {
    Add,
    Subtract,
    Max,
    Min,
    None,
}

/// The kernel `gc_at(T* base, const S* src, GcSel s, GcFault* f, GcFault* h)`
/// for x of dtype `t`, values (and computing) in dtype `c`, combining the
/// current element `{0}` and the value `{1}` with the C expression
/// `combine` (the op-table twin's CUDA template, in the compute type).
pub fn at_source(t: DType, c: DType, combine: &str, native_op: AtNative) -> String {
    let (from_bits, to_bits) = bits(t);
    let round = match c {
        DType::Float16 => "__half2float(__float2half_rn(r))",
        _ => "r",
    };
    let src_load = match c {
        DType::Float16 => "__half2float(src[i])",
        _ => "src[i]",
    };
    let body = match native(t, c, native_op) {
        Some(n) => n.to_string(),
        None => match t.size() {
            8 => format!(
                "u64* w = (u64*)p; u64 old = *w, as;\n  do {{ as = old; gc_t cur = {}; gc_t nw = gc_down(gc_comb(gc_up(cur), v)); old = atomicCAS(w, as, {}); }} while (old != as);",
                fill(from_bits, &["as".into()]),
                fill(to_bits, &["nw".into()])
            ),
            4 => format!(
                "unsigned int* w = (unsigned int*)p; unsigned int old = *w, as;\n  do {{ as = old; gc_t cur = {}; gc_t nw = gc_down(gc_comb(gc_up(cur), v)); old = atomicCAS(w, as, {}); }} while (old != as);",
                fill(from_bits, &["as".into()]),
                fill(to_bits, &["nw".into()])
            ),
            k => format!(
                "unsigned int* w = (unsigned int*)((size_t)p & ~(size_t)3); unsigned int sh = (unsigned int)((size_t)p & 3) * 8u; unsigned int mk = {}u << sh; unsigned int old = *w, as;\n  do {{ as = old; gc_t cur = {}; gc_t nw = gc_down(gc_comb(gc_up(cur), v)); old = atomicCAS(w, as, (as & ~mk) | (({} << sh) & mk)); }} while (old != as);",
                if k == 1 { "0xff" } else { "0xffff" },
                fill(from_bits, &["as >> sh".into()]),
                fill(to_bits, &["nw".into()])
            ),
        },
    };
    let comb = fill(combine, &["a".into(), "b".into()]);
    format!(
        "{prelude}\n{sel}\ntypedef {st} gc_t;\ntypedef {sc} gc_s;\ntypedef {cc} gc_c;\n\
__device__ __forceinline__ gc_c gc_up(gc_t x) {{ return {up}; }}\n\
__device__ __forceinline__ gc_t gc_down(gc_c r) {{ return {down}; }}\n\
__device__ __forceinline__ gc_c gc_comb(gc_c a, gc_c b) {{ gc_c r = (gc_c)({comb}); return {round}; }}\n\
extern \"C\" __global__ void gc_at(gc_t* base, const gc_s* src, GcSel s, GcFault* f, GcFault* h) {{\n\
  if (gc_faulted(f)) return;\n\
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;\n\
  if (i >= s.n) return;\n\
  i64 o;\n\
  if (!gc_sel_offset(s, i, &o, f, h)) return;\n\
  gc_c v = (gc_c)({src_load});\n\
  gc_t* p = base + o;\n\
  {body}\n}}\n",
        prelude = super::PRELUDE,
        sel = super::INDEX_SEL,
        st = storage_type(t),
        sc = storage_type(c),
        cc = ctype(c),
        up = up(t, c),
        down = down(t),
    )
}
