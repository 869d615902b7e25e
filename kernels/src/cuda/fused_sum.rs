//! A whole-array sum (or mean) of a fused elementwise expression in one
//! kernel: the generator of `codegen.rs` supplies the element (loads, the op
//! instructions, the value rounded to the expression's dtype), and this file
//! wraps it in the reduction of `reduce.cu`'s `reduce_all` (grid-stride
//! accumulation in float64, warp shuffles, a shared-memory block reduce, the
//! last block combining the per-block partials by an atomic ticket), so
//! `mean(-y * log(p))` costs one launch instead of two and no temporary.

use super::codegen::{Program, ctype, storage_type};
use crate::dtype::DType;
use std::fmt::Write as _;

/// Threads per block of the fused sum (as `reduce.cu`'s `red_all`).
pub const SUM_BLOCK: u32 = 512;

/// The warp + block sum of `v` (all threads of the block take part).
const BLOCK_SUM: &str = "  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
  __syncthreads();
  v = (threadIdx.x < (blockDim.x >> 5)) ? sh[threadIdx.x] : (double)0;
  if ((threadIdx.x >> 5) == 0) for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
";

impl Program {
    /// The translation unit of kernel `name`: `out[0] = sum(expr) / div` for a
    /// float32 or float64 expression (`self.out`), accumulated in float64.
    /// Parameters: the elementwise kernel's (out, n, inputs, strides), then
    /// `double* partial, unsigned* ticket, double div`.
    pub fn sum_source(&self, name: &str) -> String {
        debug_assert!(matches!(self.out, DType::Float32 | DType::Float64));
        let extra = ", double* partial, unsigned* ticket, double div";
        let mut s = self.preamble(name, SUM_BLOCK, extra);
        s.push_str("  __shared__ double sh[32];\n  __shared__ bool last;\n  double v = 0;\n");
        s.push_str("  long long stride = (long long)gridDim.x * blockDim.x;\n");
        s.push_str("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {\n");
        self.loads_at_i(&mut s);
        self.body(&mut s, "");
        // The element as the unfused path stores it (rounded to the
        // expression's dtype), then accumulated in float64.
        let _ = writeln!(
            s,
            "  {t} e = ({t})({});\n  v += (double)e;\n  }}",
            self.result_expr(""),
            t = ctype(self.out)
        );
        s.push_str(BLOCK_SUM);
        s.push_str("  if (threadIdx.x == 0) {\n    partial[blockIdx.x] = v;\n    __threadfence();\n    unsigned k = atomicAdd(ticket, 1u);\n    last = (k == gridDim.x - 1);\n  }\n  __syncthreads();\n  if (!last) return;\n  __threadfence();\n  v = 0;\n");
        s.push_str("  for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) v += ((volatile double*)partial)[b];\n  __syncthreads();\n");
        s.push_str(BLOCK_SUM);
        let _ = writeln!(
            s,
            "  if (threadIdx.x == 0) {{ *out = ({})(div == 1.0 ? v : v / div); *ticket = 0u; }}\n}}",
            storage_type(self.out)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cuda::codegen::{Access, Arg, Input, Instr};

    #[test]
    fn fused_sum_reads_every_input_and_rounds_the_element() {
        let p = Program {
            inputs: vec![
                Input {
                    dtype: DType::Float32,
                    access: Access::Contig,
                },
                Input {
                    dtype: DType::Float32,
                    access: Access::Strided,
                },
            ],
            instrs: vec![Instr {
                template: "{0} * {1}".into(),
                args: vec![Arg::In(0), Arg::In(1)],
                compute: DType::Float32,
                result: DType::Float32,
            }],
            out: DType::Float32,
            ndim: 2,
            vec: 1,
        };
        let src = p.sum_source("gc_sum");
        assert!(src.contains("gc_sum(float* __restrict__ out, long long n, const float* __restrict__ p0, const float* __restrict__ p1, GcStrides st, double* partial, unsigned* ticket, double div)"), "{src}");
        assert!(src.contains("float a1 = p1[o1];"), "{src}");
        assert!(src.contains("float e = (float)(r0);"), "{src}");
        assert!(src.contains("*ticket = 0u;"), "{src}");
    }
}
