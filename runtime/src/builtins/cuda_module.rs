//! `cuda_module(src)` (PyCUDA's SourceModule): a module object whose
//! attributes are the source's `extern "C" __global__` kernels, and kernel
//! objects that launch: `mod.k(args..., block=(x,y,z), grid=(x,y,z),
//! shared=bytes)`, scalars typed from the kernel's parsed signature, arrays
//! passed as device pointers. Compiling, loading and launching are the CUDA
//! backend's (`cuda/custom.rs`, reached through `backend::custom`).

use crate::backend::custom::{self, Kernel, KernelArg, Module, Param};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::{Object, Value};
use std::sync::Arc;

/// `cuda_module(src, device=gpu())`: the module compiled and loaded on `dev`.
pub fn cuda_module(src: &str, dev: Device) -> Result<Value> {
    let m = custom::load(src, dev)?;
    Ok(Value::Object(Arc::new(CudaModule(m))))
}

struct CudaModule(Module);

struct KernelObject(Kernel);

impl Object for CudaModule {
    fn type_name(&self) -> &'static str {
        "cuda_module"
    }
    fn repr(&self) -> String {
        format!(
            "<cuda_module on {}: {}>",
            self.0.device(),
            self.0.names().join(", ")
        )
    }
    fn attr(&self, name: &str) -> Option<Value> {
        let k = self.0.kernel(name)?;
        Some(Value::Object(Arc::new(KernelObject(k))))
    }
    fn attr_names(&self) -> Vec<String> {
        self.0.names()
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

impl Object for KernelObject {
    fn replayable_call(&self) -> bool {
        true
    }
    fn type_name(&self) -> &'static str {
        "cuda_kernel"
    }
    fn repr(&self) -> String {
        let sig = self.0.sig();
        let ps: Vec<String> = sig
            .params
            .iter()
            .map(|(p, n)| format!("{p:?} {n}"))
            .collect();
        format!("<cuda kernel {}({})>", sig.name, ps.join(", "))
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, _interp: &mut Interp, mut a: Args) -> Result<Value> {
        let sig = self.0.sig();
        let name = &sig.name;
        let block = dims(a.kw("block"), "block", name)?;
        let grid = dims(a.kw("grid"), "grid", name)?;
        let shared = match a.kw("shared") {
            None => 0,
            Some(Value::Int(n)) if n >= 0 => n as u32,
            Some(_) => return Err(Error::value("shared= takes a number of bytes")),
        };
        let args = a.rest();
        a.finish()?;
        if args.len() != sig.params.len() {
            return Err(Error::type_(format!(
                "kernel `{name}` takes {} argument{} but {} were given",
                sig.params.len(),
                if sig.params.len() == 1 { "" } else { "s" },
                args.len()
            ))
            .with_help(self.repr()));
        }
        let device = self.0.device();
        let mut params: Vec<KernelArg<'_>> = Vec::with_capacity(args.len());
        for (k, (v, (p, pname))) in args.iter().zip(&sig.params).enumerate() {
            let bad = |what: &str| {
                Error::type_(format!(
                    "kernel `{name}` argument {} (`{pname}`) must be {what}, not {}",
                    k + 1,
                    v.a_type_name()
                ))
            };
            params.push(match (p, v) {
                (Param::Ptr(elem), Value::Array(x)) => {
                    if x.device() != device {
                        return Err(Error::device(format!(
                            "kernel `{name}` argument {} is on {}, the module is on {device}",
                            k + 1,
                            x.device(),
                        ))
                        .with_help(format!("move it first: x.to({device})")));
                    }
                    if let Some(d) = elem
                        && *d != x.dtype()
                    {
                        return Err(bad(&format!(
                            "{} array (the kernel's pointer type), got {}",
                            crate::error::with_article(d.name()),
                            x.dtype()
                        )));
                    }
                    KernelArg::Array(x)
                }
                (Param::Ptr(_), _) => return Err(bad("a GPU array")),
                (Param::F32, Value::Float(f)) => KernelArg::Bytes(pad(&(*f as f32).to_ne_bytes())),
                (Param::F32, Value::Int(i)) => KernelArg::Bytes(pad(&(*i as f32).to_ne_bytes())),
                (Param::F64, Value::Float(f)) => KernelArg::Bytes(f.to_ne_bytes()),
                (Param::F64, Value::Int(i)) => KernelArg::Bytes((*i as f64).to_ne_bytes()),
                (Param::I32 | Param::U32, Value::Int(i)) => {
                    KernelArg::Bytes(pad(&(*i as i32).to_ne_bytes()))
                }
                (Param::I32 | Param::U32, Value::Bool(b)) => {
                    KernelArg::Bytes(pad(&(*b as i32).to_ne_bytes()))
                }
                (Param::I64 | Param::U64, Value::Int(i)) => KernelArg::Bytes(i.to_ne_bytes()),
                (Param::I32 | Param::U32 | Param::I64 | Param::U64, _) => {
                    return Err(bad("an int"));
                }
                (Param::F32 | Param::F64, _) => return Err(bad("a number")),
            });
        }
        self.0.launch(grid, block, shared, &params)?;
        Ok(Value::None)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn pad(b: &[u8; 4]) -> [u8; 8] {
    [b[0], b[1], b[2], b[3], 0, 0, 0, 0]
}
