//! The fused elementwise kernel generator: from a small program (typed inputs
//! with their access kind, an instruction list of op templates, an output
//! dtype) it writes one CUDA C kernel. Contiguous programs get 16-byte vector
//! loads/stores plus a scalar tail; strided/broadcast programs index through
//! shapes and strides passed by value in a parameter struct.

use crate::dtype::DType;
use std::fmt::Write as _;

/// Bumped whenever the generated text changes meaning (part of the cache key).
pub const CODEGEN_VERSION: u32 = 1;
/// Threads per block for elementwise kernels.
pub const BLOCK: u32 = 256;
/// Most dimensions a strided kernel indexes (after merging adjacent dims).
pub const MAX_DIMS: usize = 8;

/// How a kernel reads one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// A pointer read at the flat index (vectorisable).
    Contig,
    /// A pointer read through the strides of the parameter struct.
    Strided,
    /// A scalar kernel parameter (`double` for floats, `long long` for ints/bools).
    Scalar,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Input {
    pub dtype: DType,
    pub access: Access,
}

/// An instruction's operand: an input or an earlier instruction's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    In(usize),
    Reg(usize),
}

/// `out = template(args...)` computed in `compute`, giving `result`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// CUDA C expression with `{0}`, `{1}`, `{2}` placeholders.
    pub template: std::borrow::Cow<'static, str>,
    pub args: Vec<Arg>,
    /// Type the operands are converted to before the expression.
    pub compute: DType,
    /// Type of the expression's value (bool for comparisons).
    pub result: DType,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    pub inputs: Vec<Input>,
    pub instrs: Vec<Instr>,
    pub out: DType,
    /// Dimensions of the strided index (0 when every input is Contig/Scalar).
    pub ndim: usize,
    /// Elements per thread in the vector path (1 = scalar kernel).
    pub vec: usize,
}

/// C type a value of `d` is computed in (float16 computes in float).
pub fn ctype(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::Int32 => "int",
        DType::Int64 => "long long",
        DType::Float16 => "float",
        DType::Float32 => "float",
        DType::Float64 => "double",
        // Interleaved (re, im) pairs, CUDA's vector types.
        DType::Complex64 => "float2",
        DType::Complex128 => "double2",
    }
}

/// C type a value of `d` is stored as in memory.
pub fn storage_type(d: DType) -> &'static str {
    match d {
        DType::Float16 => "__half",
        other => ctype(other),
    }
}

/// C type of a scalar kernel parameter of dtype `d`.
pub fn scalar_param_type(d: DType) -> &'static str {
    if d.is_float() { "double" } else { "long long" }
}

/// Elements per thread for 16-byte accesses when every operand is `dtypes`.
pub fn vector_width(dtypes: impl Iterator<Item = DType>) -> usize {
    let max = dtypes.map(|d| d.size()).max().unwrap_or(4).max(1);
    (16 / max).clamp(1, 8)
}

fn convert(expr: &str, from: DType, to: DType) -> String {
    if from == to {
        return expr.to_string();
    }
    match (from, to) {
        (_, DType::Bool) => format!("(({expr}) != 0)"),
        _ => format!("(({})({expr}))", ctype(to)),
    }
}

fn store(expr: &str, to: DType) -> String {
    match to {
        DType::Float16 => format!("gc_to_half({expr})"),
        _ => expr.to_string(),
    }
}

/// Substitute `{i}` placeholders of an op template.
pub fn fill(template: &str, args: &[String]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let b = template.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' && i + 2 < b.len() && b[i + 2] == b'}' && b[i + 1].is_ascii_digit() {
            let k = (b[i + 1] - b'0') as usize;
            out.push('(');
            out.push_str(args.get(k).map(String::as_str).unwrap_or("0"));
            out.push(')');
            i += 3;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

impl Program {
    /// Type of an operand as computed.
    fn arg_type(&self, a: Arg) -> DType {
        match a {
            Arg::In(i) => self.inputs[i].dtype.compute_or_self(),
            Arg::Reg(r) => self.instrs[r].result,
        }
    }

    /// The body computing `out` from `in0..` (already loaded into locals `a{i}`).
    pub(super) fn body(&self, out: &mut String, lane: &str) {
        for (r, ins) in self.instrs.iter().enumerate() {
            let args: Vec<String> = ins
                .args
                .iter()
                .map(|&a| {
                    let name = match a {
                        Arg::In(i) => format!("a{i}{lane}"),
                        Arg::Reg(k) => format!("r{k}{lane}"),
                    };
                    convert(&name, self.arg_type(a), ins.compute)
                })
                .collect();
            let _ = writeln!(
                out,
                "    {} r{r}{lane} = ({})({});",
                ctype(ins.result),
                ctype(ins.result),
                fill(&ins.template, &args)
            );
        }
    }

    pub(super) fn result_expr(&self, lane: &str) -> String {
        let (name, from) = match self.instrs.len() {
            0 => {
                let t = self.inputs.first().map(|i| i.dtype.compute_or_self());
                (format!("a0{lane}"), t.unwrap_or(self.out))
            }
            n => (format!("r{}{lane}", n - 1), self.instrs[n - 1].result),
        };
        if (from, self.out) == (DType::Float64, DType::Float16) {
            // `store` rounds a double to half once (`__double2half`);
            // converting to float first would round twice (NumPy rounds once).
            return name;
        }
        convert(&name, from, self.out)
    }

    pub(super) fn load(&self, i: usize, idx: &str) -> String {
        let inp = self.inputs[i];
        match inp.access {
            Access::Scalar => convert(
                &format!("s{i}"),
                scalar_dtype(inp.dtype),
                inp.dtype.compute_or_self(),
            ),
            _ => match inp.dtype {
                DType::Float16 => format!("__half2float(p{i}[{idx}])"),
                _ => format!("p{i}[{idx}]"),
            },
        }
    }

    /// The kernel's parameter list (also the order the host pushes arguments).
    pub(super) fn params(&self) -> String {
        let mut p = format!("{}* __restrict__ out, long long n", storage_type(self.out));
        for (i, inp) in self.inputs.iter().enumerate() {
            match inp.access {
                Access::Scalar => {
                    let _ = write!(p, ", {} s{i}", scalar_param_type(inp.dtype));
                }
                _ => {
                    let _ = write!(p, ", const {}* __restrict__ p{i}", storage_type(inp.dtype));
                }
            }
        }
        if self.ndim > 0 {
            p.push_str(", GcStrides st");
        }
        p
    }

    /// The whole translation unit; the kernel is named `name`.
    pub fn source(&self, name: &str) -> String {
        let mut s = self.preamble(name, BLOCK, "");
        if self.vec > 1 {
            self.vector_body(&mut s);
        } else {
            self.scalar_body(&mut s);
        }
        s.push_str("}\n");
        s
    }

    /// The prelude, the strides struct (strided programs) and the kernel's
    /// opening line: `name` with `block` threads at most, the elementwise
    /// parameters then `extra` (", double* partial, ..." or "").
    pub(super) fn preamble(&self, name: &str, block: u32, extra: &str) -> String {
        let mut s = String::with_capacity(3072);
        s.push_str(super::PRELUDE);
        let nin = self.inputs.len().max(1);
        if self.ndim > 0 {
            let _ = writeln!(
                s,
                "struct GcStrides {{ long long shape[{nd}]; long long st[{nin}][{nd}]; }};",
                nd = self.ndim
            );
        }
        let _ = writeln!(
            s,
            "extern \"C\" __global__ void __launch_bounds__({block}) {name}({}{extra}) {{",
            self.params()
        );
        s
    }

    fn scalar_body(&self, s: &mut String) {
        s.push_str("  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n");
        self.loads_at_i(s);
        self.body(s, "");
        let _ = writeln!(s, "  out[i] = {};", store(&self.result_expr(""), self.out));
    }

    /// Locals `a{k}` holding every input at flat index `i` (strided inputs
    /// through offsets computed from `i` and the shapes/strides struct).
    pub(super) fn loads_at_i(&self, s: &mut String) {
        if self.ndim > 0 {
            // Offsets of each strided input from the flat index.
            for (k, inp) in self.inputs.iter().enumerate() {
                if inp.access == Access::Strided {
                    let _ = writeln!(s, "  long long o{k} = 0;");
                }
            }
            s.push_str("  { long long r = i;\n");
            let _ = writeln!(
                s,
                "#pragma unroll\n    for (int d = {} - 1; d >= 0; d--) {{",
                self.ndim
            );
            s.push_str("      long long c = r % st.shape[d]; r /= st.shape[d];\n");
            for (k, inp) in self.inputs.iter().enumerate() {
                if inp.access == Access::Strided {
                    let _ = writeln!(s, "      o{k} += c * st.st[{k}][d];");
                }
            }
            s.push_str("    } }\n");
        }
        for (k, inp) in self.inputs.iter().enumerate() {
            let idx = if inp.access == Access::Strided {
                format!("o{k}")
            } else {
                "i".to_string()
            };
            let _ = writeln!(
                s,
                "  {} a{k} = {};",
                ctype(inp.dtype.compute_or_self()),
                self.load(k, &idx)
            );
        }
    }

    fn vector_body(&self, s: &mut String) {
        let v = self.vec;
        let _ = writeln!(
            s,
            "  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  long long nv = n / {v};\n  if (t < nv) {{"
        );
        for (k, inp) in self.inputs.iter().enumerate() {
            if inp.access == Access::Contig {
                let _ = writeln!(
                    s,
                    "    gvec<{st}, {v}> g{k} = ((const gvec<{st}, {v}>*)p{k})[t];",
                    st = storage_type(inp.dtype)
                );
            }
        }
        let _ = writeln!(s, "    gvec<{}, {v}> go;", storage_type(self.out));
        let _ = writeln!(s, "#pragma unroll\n    for (int l = 0; l < {v}; l++) {{");
        for (k, inp) in self.inputs.iter().enumerate() {
            let load = match (inp.access, inp.dtype) {
                (Access::Scalar, _) => self.load(k, ""),
                (_, DType::Float16) => format!("__half2float(g{k}.v[l])"),
                _ => format!("g{k}.v[l]"),
            };
            let _ = writeln!(
                s,
                "    {} a{k} = {load};",
                ctype(inp.dtype.compute_or_self())
            );
        }
        self.body(s, "");
        let _ = writeln!(
            s,
            "    go.v[l] = {};\n    }}",
            store(&self.result_expr(""), self.out)
        );
        let _ = writeln!(
            s,
            "    ((gvec<{}, {v}>*)out)[t] = go;\n    return;\n  }}",
            storage_type(self.out)
        );
        // Scalar tail: threads nv .. nv + n % v.
        s.push_str("  long long i = nv * ");
        let _ = writeln!(s, "{v} + (t - nv);\n  if (i >= n) return;");
        for (k, inp) in self.inputs.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {} a{k} = {};",
                ctype(inp.dtype.compute_or_self()),
                self.load(k, "i")
            );
        }
        self.body(s, "");
        let _ = writeln!(s, "  out[i] = {};", store(&self.result_expr(""), self.out));
    }

    /// Threads to launch for `n` elements.
    pub fn threads(&self, n: usize) -> usize {
        if self.vec > 1 {
            n / self.vec + n % self.vec
        } else {
            n
        }
    }
}

/// The dtype a scalar parameter holds.
fn scalar_dtype(d: DType) -> DType {
    if d.is_float() {
        DType::Float64
    } else {
        DType::Int64
    }
}

trait ComputeOrSelf {
    fn compute_or_self(self) -> DType;
}
impl ComputeOrSelf for DType {
    /// float16 values are read into float registers.
    fn compute_or_self(self) -> DType {
        if self == DType::Float16 {
            DType::Float32
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp_prog(vec: usize, ndim: usize) -> Program {
        let access = if ndim > 0 {
            Access::Strided
        } else {
            Access::Contig
        };
        Program {
            inputs: vec![
                Input {
                    dtype: DType::Float32,
                    access,
                },
                Input {
                    dtype: DType::Float64,
                    access: Access::Scalar,
                },
            ],
            instrs: vec![
                Instr {
                    template: "{0} + {1}".into(),
                    args: vec![Arg::In(0), Arg::In(1)],
                    compute: DType::Float32,
                    result: DType::Float32,
                },
                Instr {
                    template: "exp({0})".into(),
                    args: vec![Arg::Reg(0)],
                    compute: DType::Float32,
                    result: DType::Float32,
                },
            ],
            out: DType::Float32,
            ndim,
            vec,
        }
    }

    #[test]
    fn vector_kernel_uses_16_byte_loads_and_a_tail() {
        let s = exp_prog(4, 0).source("k");
        assert!(s.contains("gvec<float, 4> g0"), "{s}");
        assert!(s.contains("exp((r0))"), "{s}");
        assert!(s.contains("nv * 4 + (t - nv)"), "{s}");
        assert_eq!(exp_prog(4, 0).threads(10), 2 + 2);
    }

    #[test]
    fn strided_kernel_takes_strides_by_value() {
        let s = exp_prog(1, 2).source("k");
        assert!(
            s.contains("struct GcStrides { long long shape[2]; long long st[2][2]; };"),
            "{s}"
        );
        assert!(s.contains("GcStrides st)"), "{s}");
        assert!(s.contains("o0 += c * st.st[0][d]"), "{s}");
    }

    #[test]
    fn fill_and_width() {
        assert_eq!(
            fill("max({0}, {1})", &["a".into(), "b".into()]),
            "max((a), (b))"
        );
        assert_eq!(vector_width([DType::Float32].into_iter()), 4);
        assert_eq!(vector_width([DType::Float16].into_iter()), 8);
        assert_eq!(
            vector_width([DType::Float64, DType::Float32].into_iter()),
            2
        );
    }
}
