//! Custom kernels (PyCUDA's SourceModule): `cuda_module(src)` compiles CUDA C
//! with NVRTC (errors show NVRTC's message with the user's source line) and
//! gives a module whose attributes are its `extern "C" __global__` kernels;
//! `mod.k(args..., block=(x,y,z), grid=(x,y,z), shared=bytes)` launches,
//! scalars typed from the kernel's parsed signature, arrays as device pointers.

use super::buffer::array_buffer;
use super::compile::{self, Func};
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use crate::interp::{Args, Interp};
use crate::value::{Object, Value};
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

pub struct CudaModule {
    gpu: Arc<Gpu>,
    kernels: Vec<(KernelSig, Func)>,
}

pub struct Kernel {
    gpu: Arc<Gpu>,
    sig: KernelSig,
    f: Func,
}

/// `cuda_module(src, device=gpu())`.
pub fn cuda_module(src: &str, dev: Device) -> Result<Value> {
    let Device::Gpu(i) = dev else {
        return Err(
            Error::device("cuda_module needs a GPU: the current device is cpu(0)")
                .with_help("pass device=gpu() or set device = gpu"),
        );
    };
    let g = gpu(i)?;
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
    Ok(Value::Object(Arc::new(CudaModule { gpu: g, kernels })))
}

impl Object for CudaModule {
    fn type_name(&self) -> &'static str {
        "cuda_module"
    }
    fn repr(&self) -> String {
        let names: Vec<&str> = self.kernels.iter().map(|k| k.0.name.as_str()).collect();
        format!(
            "<cuda_module on {}: {}>",
            self.gpu.device(),
            names.join(", ")
        )
    }
    fn attr(&self, name: &str) -> Option<Value> {
        let (sig, f) = self.kernels.iter().find(|k| k.0.name == name)?;
        Some(Value::Object(Arc::new(Kernel {
            gpu: self.gpu.clone(),
            sig: sig.clone(),
            f: *f,
        })))
    }
    fn attr_names(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.0.name.clone()).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn dims(v: Option<Value>, what: &str, k: &str) -> Result<(u32, u32, u32)> {
    let Some(v) = v else {
        return Err(Error::value(format!("kernel `{k}` needs {what}=(x, y, z)"))
            .with_help("e.g. block=(256, 1, 1), grid=(n // 256, 1)"));
    };
    let items: Vec<Value> = match v {
        Value::Tuple(_) | Value::List(_) => v.seq_items().unwrap_or_default().to_vec(),
        Value::Int(_) => vec![v],
        other => {
            return Err(Error::type_(format!(
                "{what} must be a tuple of ints, not {}",
                other.a_type_name()
            )));
        }
    };
    let mut d = [1u32; 3];
    if items.is_empty() || items.len() > 3 {
        return Err(Error::value(format!("{what} takes 1 to 3 sizes")));
    }
    for (i, it) in items.iter().enumerate() {
        match it {
            Value::Int(n) if *n >= 1 && *n <= u32::MAX as i64 => d[i] = *n as u32,
            _ => return Err(Error::value(format!("{what} sizes must be positive ints"))),
        }
    }
    Ok((d[0], d[1], d[2]))
}

impl Object for Kernel {
    fn type_name(&self) -> &'static str {
        "cuda_kernel"
    }
    fn repr(&self) -> String {
        let ps: Vec<String> = self
            .sig
            .params
            .iter()
            .map(|(p, n)| format!("{p:?} {n}"))
            .collect();
        format!("<cuda kernel {}({})>", self.sig.name, ps.join(", "))
    }
    fn call(&self, _interp: &mut Interp, mut a: Args) -> Result<Value> {
        let name = &self.sig.name;
        let block = dims(a.kw("block"), "block", name)?;
        let grid = dims(a.kw("grid"), "grid", name)?;
        let shared = match a.kw("shared") {
            None => 0,
            Some(Value::Int(n)) if n >= 0 => n as u32,
            Some(_) => return Err(Error::value("shared= takes a number of bytes")),
        };
        let args = a.rest();
        a.finish()?;
        if args.len() != self.sig.params.len() {
            return Err(Error::type_(format!(
                "kernel `{name}` takes {} argument{} but {} were given",
                self.sig.params.len(),
                if self.sig.params.len() == 1 { "" } else { "s" },
                args.len()
            ))
            .with_help(self.repr()));
        }
        let mut slots: Vec<[u8; 8]> = Vec::with_capacity(args.len());
        let mut keep = Vec::new();
        for (k, (v, (p, pname))) in args.iter().zip(&self.sig.params).enumerate() {
            let bad = |what: &str| {
                Error::type_(format!(
                    "kernel `{name}` argument {} (`{pname}`) must be {what}, not {}",
                    k + 1,
                    v.a_type_name()
                ))
            };
            let bytes: [u8; 8] = match (p, v) {
                (Param::Ptr(elem), Value::Array(x)) => {
                    if x.device() != self.gpu.device() {
                        return Err(Error::device(format!(
                            "kernel `{name}` argument {} is on {}, the module is on {}",
                            k + 1,
                            x.device(),
                            self.gpu.device()
                        ))
                        .with_help(format!("move it first: x.to({})", self.gpu.device())));
                    }
                    if let Some(d) = elem
                        && *d != x.dtype()
                    {
                        {
                            return Err(bad(&format!(
                                "a {d} array (the kernel's pointer type), got {}",
                                x.dtype()
                            )));
                        }
                    }
                    let b = array_buffer(x)?;
                    keep.push(x.clone());
                    b.ptr_at(x.offset()).to_ne_bytes()
                }
                (Param::Ptr(_), _) => return Err(bad("a GPU array")),
                (Param::F32, Value::Float(f)) => pad(&(*f as f32).to_ne_bytes()),
                (Param::F32, Value::Int(i)) => pad(&(*i as f32).to_ne_bytes()),
                (Param::F64, Value::Float(f)) => f.to_ne_bytes(),
                (Param::F64, Value::Int(i)) => (*i as f64).to_ne_bytes(),
                (Param::I32 | Param::U32, Value::Int(i)) => pad(&(*i as i32).to_ne_bytes()),
                (Param::I32 | Param::U32, Value::Bool(b)) => pad(&(*b as i32).to_ne_bytes()),
                (Param::I64 | Param::U64, Value::Int(i)) => i.to_ne_bytes(),
                (Param::I32 | Param::U32 | Param::I64 | Param::U64, _) => {
                    return Err(bad("an int"));
                }
                (Param::F32 | Param::F64, _) => return Err(bad("a number")),
            };
            slots.push(bytes);
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
        })?;
        drop(keep);
        Ok(Value::None)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn pad(b: &[u8; 4]) -> [u8; 8] {
    [b[0], b[1], b[2], b[3], 0, 0, 0, 0]
}

/// The kernel by that name (tests).
pub fn kernel_names(v: &Value) -> Vec<String> {
    match v {
        Value::Object(o) => o.attr_names(),
        _ => Vec::new(),
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
