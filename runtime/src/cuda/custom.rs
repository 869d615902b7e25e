//! Custom kernels (PyCUDA's SourceModule), the backend's half: the
//! `extern "C" __global__` kernels of a CUDA C source and their parameter
//! types, the module compiled with NVRTC (errors show NVRTC's message with
//! the user's source line) and loaded on a GPU, and a launch with arguments
//! already converted to kernel parameters (arrays as device pointers). The
//! builtin (`cuda_module`, the objects the user calls, converting values to
//! parameters) is `builtins/cuda_module.rs`.

use super::buffer::array_buffer;
use super::compile::{self, Func};
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use std::ffi::c_void;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    /// A pointer; the element dtype when the C type names one gcalc has.
    Ptr(Option<DType>),
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

#[derive(Clone, Debug)]
pub struct KernelSig {
    pub name: String,
    pub params: Vec<(Param, String)>,
}

fn base_type(words: &[&str]) -> Option<(Param, Option<DType>)> {
    let w: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "__restrict__" | "restrict" | "__restrict" | "signed"
            )
        })
        .collect();
    let t = w.join(" ");
    Some(match t.as_str() {
        "float" => (Param::F32, Some(DType::Float32)),
        "double" => (Param::F64, Some(DType::Float64)),
        "int" | "int32_t" => (Param::I32, Some(DType::Int32)),
        "unsigned" | "unsigned int" | "uint32_t" => (Param::U32, None),
        "long" | "long long" | "long int" | "int64_t" | "ptrdiff_t" => {
            (Param::I64, Some(DType::Int64))
        }
        "unsigned long" | "unsigned long long" | "size_t" | "uint64_t" => (Param::U64, None),
        "bool" => (Param::I32, Some(DType::Bool)),
        "__half" | "half" => (Param::F32, Some(DType::Float16)),
        "char" | "unsigned char" | "uint8_t" | "int8_t" | "void" | "short" | "unsigned short" => {
            (Param::I32, None)
        }
        _ => return None,
    })
}

/// The `extern "C" __global__` kernels of a source and their parameters.
pub fn parse_kernels(src: &str) -> Result<Vec<KernelSig>> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(p) = rest.find("__global__") {
        let after = &rest[p + "__global__".len()..];
        let Some(open) = after.find('(') else { break };
        let Some(close) = after[open..].find(')') else {
            break;
        };
        let head = &after[..open];
        let name = head
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .rfind(|s| !s.is_empty())
            .unwrap_or("")
            .to_string();
        let before = &rest[..p];
        let line_start = before.rfind(['\n', ';', '}']).map(|i| i + 1).unwrap_or(0);
        let externc =
            before[line_start..].contains("extern \"C\"") || head.contains("extern \"C\"");
        let plist = &after[open + 1..open + close];
        rest = &after[open + close..];
        if !externc || name.is_empty() {
            continue;
        }
        let mut params = Vec::new();
        for raw in plist
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "void")
        {
            let ptr = raw.contains('*');
            let cleaned = raw.replace('*', " * ");
            let mut words: Vec<&str> = cleaned.split_whitespace().collect();
            let pname = if words.len() > 1 && words.last() != Some(&"*") {
                words.pop().unwrap_or("").to_string()
            } else {
                String::new()
            };
            words.retain(|w| *w != "*");
            let Some((scalar, elem)) = base_type(&words) else {
                return Err(Error::new(
                    ErrorKind::Kernel,
                    format!("kernel `{name}`: parameter `{raw}` has a type gcalc cannot pass"),
                )
                .with_help("use int, unsigned, long long, float, double or a pointer to them"));
            };
            params.push((if ptr { Param::Ptr(elem) } else { scalar }, pname));
        }
        out.push(KernelSig { name, params });
    }
    Ok(out)
}

/// NVRTC's log with each error's source line shown under it.
fn annotate(log: &str, src: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = String::new();
    for l in log.lines() {
        out.push_str(l);
        out.push('\n');
        if let Some(open) = l.find('(')
            && let Some(close) = l[open..].find(')')
            && let Ok(n) = l[open + 1..open + close].parse::<usize>()
            && let Some(text) = lines.get(n.wrapping_sub(1))
        {
            out.push_str(&format!("  {n:>4} | {text}\n"));
        }
    }
    out
}

/// A source compiled and loaded on one GPU, with its kernels.
pub struct Module {
    gpu: Arc<Gpu>,
    kernels: Vec<(KernelSig, Func)>,
}

/// One kernel of a module.
#[derive(Clone)]
pub struct Kernel {
    gpu: Arc<Gpu>,
    sig: KernelSig,
    f: Func,
}

/// A kernel argument: an array (passed as the device address of its first
/// element) or a scalar's bytes, padded to 8.
pub enum KernelArg<'a> {
    Array(&'a Array),
    Bytes([u8; 8]),
}

impl Module {
    /// Compile `src` with NVRTC and load it on GPU `ordinal`.
    pub fn load(src: &str, ordinal: u32) -> Result<Module> {
        let g = gpu(ordinal)?;
        let sigs = parse_kernels(src)?;
        if sigs.is_empty() {
            return Err(Error::new(ErrorKind::Kernel, "no `extern \"C\" __global__` kernel found in the source")
                .with_help("declare kernels as extern \"C\" __global__ void name(...) so gcalc can find them by name"));
        }
        let bin = compile::cubin(&g, src, &[], "cuda_module").map_err(|mut e| {
            if e.kind == ErrorKind::Kernel {
                e.message = annotate(&e.message, src).trim_end().to_string();
            }
            e
        })?;
        let m = compile::load_module(&g, &bin)?;
        let mut kernels = Vec::new();
        for s in sigs {
            // SAFETY: m was just loaded on g.
            let f = unsafe { compile::get_function(&g, m, &s.name) }?;
            kernels.push((s, f));
        }
        Ok(Module { gpu: g, kernels })
    }

    pub fn device(&self) -> Device {
        self.gpu.device()
    }

    /// The kernels' names, in source order.
    pub fn names(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.0.name.clone()).collect()
    }

    /// The kernel called `name`.
    pub fn kernel(&self, name: &str) -> Option<Kernel> {
        let (sig, f) = self.kernels.iter().find(|k| k.0.name == name)?;
        Some(Kernel {
            gpu: self.gpu.clone(),
            sig: sig.clone(),
            f: *f,
        })
    }
}

impl Kernel {
    pub fn sig(&self) -> &KernelSig {
        &self.sig
    }

    pub fn device(&self) -> Device {
        self.gpu.device()
    }

    /// Launch with `args` matching the signature (the caller converted and
    /// checked them: arrays on this kernel's GPU). A launch failure that
    /// leaves the GPU usable is a Kernel error naming the kernel.
    pub fn launch(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: u32,
        args: &[KernelArg<'_>],
    ) -> Result<()> {
        let name = &self.sig.name;
        let mut slots: Vec<[u8; 8]> = Vec::with_capacity(args.len());
        for a in args {
            slots.push(match a {
                KernelArg::Array(x) => array_buffer(x)?.ptr_at(x.offset()).to_ne_bytes(),
                KernelArg::Bytes(b) => *b,
            });
        }
        let mut params: Vec<*mut c_void> = slots
            .iter_mut()
            .map(|s| s.as_mut_ptr() as *mut c_void)
            .collect();
        self.gpu.bind()?;
        launch(
            &self.gpu,
            self.f,
            grid,
            block,
            shared,
            &mut params,
            &format!("kernel `{name}`"),
        )
        .map_err(|e| {
            if e.kind == ErrorKind::Device && !self.gpu.is_poisoned() {
                Error::new(ErrorKind::Kernel, e.message).with_op(name.clone())
            } else {
                e
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_signatures() {
        let k = parse_kernels("extern \"C\" __global__ void multiply_them(float *dest, const float* __restrict__ a, int n, double s) {}\n__global__ void mangled(int x) {}").unwrap();
        assert_eq!(k.len(), 1);
        assert_eq!(k[0].name, "multiply_them");
        assert_eq!(
            k[0].params[0],
            (Param::Ptr(Some(DType::Float32)), "dest".to_string())
        );
        assert_eq!(k[0].params[1].0, Param::Ptr(Some(DType::Float32)));
        assert_eq!(k[0].params[2].0, Param::I32);
        assert_eq!(k[0].params[3].0, Param::F64);
    }
    #[test]
    fn annotates_errors_with_the_line() {
        let s = annotate(
            "cuda_module.cu(2): error: identifier \"x\" is undefined",
            "a\n  dest[i] = x;\n",
        );
        assert!(s.contains("2 |   dest[i] = x;"), "{s}");
    }
}
