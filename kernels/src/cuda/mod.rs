//! CUDA C device code: the prelude every generated kernel includes, the
//! reduction, Philox, indexing and matrix-vector sources, and the fused
//! elementwise code generator.
//! Compiled at run time with NVRTC by the runtime's CUDA backend.

pub mod codegen;
pub mod fused_sum;
pub mod histogram;
pub mod index_at;
#[cfg(test)]
mod samplers_twin;
pub mod scan;
pub mod select;
pub mod softmax;
pub mod sort;

/// Included at the top of every generated elementwise kernel.
pub const PRELUDE: &str = concat!(
    include_str!("prelude.cuh"),
    include_str!("ew_math.cuh"),
    include_str!("npmath.cuh")
);
/// Reduction templates (full and axis), instantiated by `reduce_source`.
pub const REDUCE: &str = include_str!("reduce.cu");
/// Philox 4x32-10 matching the CPU generator bit for bit.
pub const PHILOX: &str = include_str!("philox.cu");
/// argmax/argmin templates (full and axis), instantiated by `argreduce_source`.
pub const ARGREDUCE: &str = include_str!("argreduce.cu");
/// What every indexing kernel shares: the selection passed by value, the
/// position of a selected element, the index fault record.
pub const INDEX_SEL: &str = include_str!("index_sel.cuh");
/// Indexing kernels: view stores, gathers and stores through a selection,
/// the bounds check, last-wins for repeated positions.
pub const INDEX: &str = concat!(include_str!("index_sel.cuh"), include_str!("index.cu"));
/// The positions of a mask's true elements (count, scan, write).
pub const MASK: &str = include_str!("mask.cu");
/// Matrix-vector products (`gemv_dot_f32`, `gemv_axpy_f32`, and `_f64`).
pub const GEMV: &str = include_str!("gemv.cu");
/// Assembly: the remap gather (pad, roll, tile, repeat, take), its adjoint
/// along an axis, and put_along_axis's writes.
pub const ASSEMBLE: &str = include_str!("assemble.cu");
/// Complex arithmetic in double2 (num-complex's formulas), loads and stores
/// of every dtype as complex, the per-row sum/prod/mean and the FFT's input
/// kernel (`runtime::cuda::complex`, `runtime::cuda::fft` generate their
/// entry points over it).
pub const COMPLEX: &str = include_str!("complex.cuh");
/// Linear-algebra helpers around cuSOLVER (`tri_copy_f32`, `lu_slogdet_f32`, and `_f64`).
pub const LINALG: &str = include_str!("linalg.cu");
/// The random variates (the twin of `cpu::samplers`), plain C++ apart from a macro.
pub const SAMPLERS: &str = include_str!("samplers.cuh");
/// The kernels of the random draws over `SAMPLERS`.
pub const DRAWS: &str = include_str!("samplers.cu");
/// NVRTC options of the draws' module: no FMA contraction, so that every
/// value is the CPU's bit for bit.
pub const DRAWS_OPTIONS: &[&str] = &["--fmad=false"];

/// Storage types of the draws' output dtypes, with their kernel suffix.
const DRAW_TYPES: [(&str, &str); 6] = [
    ("bool", "b"),
    ("int", "i32"),
    ("long long", "i64"),
    ("__half", "f16"),
    ("float", "f32"),
    ("double", "f64"),
];

/// Kernel suffix of a draw's output dtype.
pub fn draw_suffix(d: DType) -> &'static str {
    match d {
        DType::Bool => "b",
        DType::Int32 => "i32",
        DType::Int64 => "i64",
        DType::Float16 => "f16",
        DType::Float32 => "f32",
        DType::Float64 => "f64",
        DType::Complex64 => "c64",
        DType::Complex128 => "c128",
    }
}

/// The draws' translation unit: `draw_<dist>_<suffix>` for every
/// distribution (its `GC_` id is its place in `Dist::ALL`) and every dtype,
/// then `perm_index`, `choice_cdf` and `take_rows_{1,2,4,8}`.
pub fn draws_source() -> String {
    let mut s = format!("#include <cuda_fp16.h>\n{SAMPLERS}\n{DRAWS}\n");
    for (id, d) in crate::cpu::samplers::Dist::ALL.iter().enumerate() {
        let name = d.name();
        for (t, suf) in DRAW_TYPES {
            s += &format!(
                "extern \"C\" __global__ void draw_{name}_{suf}({t}* o, gc_u64 n, gc_u64 c, gc_u64 k, const double* pa, double a, const double* pb, double b) {{ gc_draw_kernel<{t}>({id}, o, n, c, k, pa, a, pb, b); }}\n"
            );
        }
    }
    s
}

use crate::dtype::DType;

/// Reduction operations with a GPU kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedOp {
    Sum,
    Prod,
    Max,
    Min,
}

impl RedOp {
    fn functor(self) -> &'static str {
        match self {
            RedOp::Sum => "OpSum",
            RedOp::Prod => "OpProd",
            RedOp::Max => "OpMax",
            RedOp::Min => "OpMin",
        }
    }
}

/// Accumulator dtype of a reduction over `d`: float sums and products in
/// float64 (as the CPU path), ints and bools in int64; max/min in the type itself.
pub fn reduce_acc(op: RedOp, d: DType) -> DType {
    match (op, d) {
        (RedOp::Sum | RedOp::Prod, DType::Float16 | DType::Float32) => DType::Float64,
        (_, DType::Float16) => DType::Float32,
        (RedOp::Sum | RedOp::Prod, DType::Bool | DType::Int32) => DType::Int64,
        (RedOp::Max | RedOp::Min, DType::Bool) => DType::Int32,
        (_, d) => d,
    }
}

/// The reduction translation unit with three kernels: `red_all`, `red_rows`,
/// `red_cols`, reading `d`, accumulating in `reduce_acc(op, d)`, writing `out`.
pub fn reduce_source(op: RedOp, d: DType, out: DType) -> String {
    let t = codegen::storage_type(d);
    let a = codegen::ctype(reduce_acc(op, d));
    let o = codegen::storage_type(out);
    let f = op.functor();
    let vec = codegen::vector_width([d].into_iter());
    format!(
        "{REDUCE}\nextern \"C\" __global__ void __launch_bounds__(512) red_all(const {t}* x, long long n, {a}* partial, unsigned* ticket, {o}* out, double div) {{ reduce_all<{t}, {a}, {f}, {vec}, {o}>(x, n, partial, ticket, out, div); }}\n\
extern \"C\" __global__ void red_rows(const {t}* x, long long outer, long long r, {o}* out) {{ reduce_rows<{t}, {a}, {f}, {o}>(x, outer, r, out); }}\n\
extern \"C\" __global__ void red_cols(const {t}* x, long long outer, long long r, long long inner, {o}* out) {{ reduce_cols<{t}, {a}, {f}, {o}>(x, outer, r, inner, out); }}\n"
    )
}

/// Type argmax/argmin compare elements of `d` in (float16 as float, bool as int).
pub fn arg_compare_type(d: DType) -> &'static str {
    match d {
        DType::Bool => "int",
        d => codegen::ctype(d),
    }
}

/// The argmax (`max`) or argmin translation unit over elements of `d`, with
/// three kernels: `arg_all` (flat index), `arg_rows` and `arg_cols` (along an axis).
pub fn argreduce_source(max: bool, d: DType) -> String {
    let t = codegen::storage_type(d);
    let a = arg_compare_type(d);
    let m = if max { "true" } else { "false" };
    format!(
        "{ARGREDUCE}\nextern \"C\" __global__ void __launch_bounds__(512) arg_all(const {t}* x, long long n, {a}* pv, long long* pi, unsigned* ticket, long long* out) {{ arg_all<{t}, {a}, {m}>(x, n, pv, pi, ticket, out); }}\n\
extern \"C\" __global__ void arg_rows(const {t}* x, long long outer, long long r, long long* out) {{ arg_rows<{t}, {a}, {m}>(x, outer, r, out); }}\n\
extern \"C\" __global__ void arg_cols(const {t}* x, long long outer, long long r, long long inner, long long* out) {{ arg_cols<{t}, {a}, {m}>(x, outer, r, inner, out); }}\n"
    )
}

/// The Philox translation unit: uniform and normal draws of float16, float32
/// and float64, and int64 randint.
pub fn philox_source() -> String {
    format!(
        "{PHILOX}\nextern \"C\" __global__ void uniform_f16(__half* o, u64 n, u64 c, u64 s, int dt, double lo, double hi) {{ rng_uniform<__half>(o, n, c, s, dt, lo, hi); }}\n\
extern \"C\" __global__ void uniform_f32(float* o, u64 n, u64 c, u64 s, int dt, double lo, double hi) {{ rng_uniform<float>(o, n, c, s, dt, lo, hi); }}\n\
extern \"C\" __global__ void uniform_f64(double* o, u64 n, u64 c, u64 s, int dt, double lo, double hi) {{ rng_uniform<double>(o, n, c, s, dt, lo, hi); }}\n\
extern \"C\" __global__ void normal_f16(__half* o, u64 n, u64 c, u64 s, int dt, double mu, double sg) {{ rng_normal<__half>(o, n, c, s, dt, mu, sg); }}\n\
extern \"C\" __global__ void normal_f32(float* o, u64 n, u64 c, u64 s, int dt, double mu, double sg) {{ rng_normal<float>(o, n, c, s, dt, mu, sg); }}\n\
extern \"C\" __global__ void normal_f64(double* o, u64 n, u64 c, u64 s, int dt, double mu, double sg) {{ rng_normal<double>(o, n, c, s, dt, mu, sg); }}\n\
extern \"C\" __global__ void randint_i64(long long* o, u64 n, u64 c, u64 s, long long lo, u64 r) {{ rng_randint(o, n, c, s, lo, r); }}\n"
    )
}
