//! Device builtins: cpu(), gpu(i), devices(), sync(), x.to(d), x.copyto(d), mem().

use super::lang::int_arg;
use crate::backend::{self, devices};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    OpDef {
        name: "cpu",
        sig: "cpu()",
        doc: "The CPU device.",
        method: false,
        kind: OpKind::Func(cpu),
        grad: None,
    },
    OpDef {
        name: "gpu",
        sig: "gpu(i=0)",
        doc: "GPU number i. An error when no such GPU is usable (devices() lists them).",
        method: false,
        kind: OpKind::Func(gpu),
        grad: None,
    },
    OpDef {
        name: "devices",
        sig: "devices()",
        doc: "The devices gcalc can use, with name, memory used/total, compute capability and driver (like nvidia-smi).",
        method: false,
        kind: OpKind::Func(devices),
        grad: None,
    },
    OpDef {
        name: "sync",
        sig: "sync() | x.sync()",
        doc: "Wait for queued GPU work: all devices, or the device of x. Errors from queued work are reported here.",
        method: true,
        kind: OpKind::Func(sync),
        grad: None,
    },
    OpDef {
        name: "to",
        sig: "x.to(device, dtype=none)",
        doc: "x on `device`: x itself when it is already there (`x.to(x.device) is x`), else a copy. As PyTorch's, a dtype converts too: `x.to(float64)`, `x.to(gpu(), float16)`.",
        method: true,
        kind: OpKind::Func(to),
        grad: Some(crate::autodiff::rules::to_device),
    },
    OpDef {
        name: "copyto",
        sig: "x.copyto(device) | copyto(dst, src, casting=\"same_kind\", where=true)",
        doc: "With a device: a new copy of x on `device`, even when x is already there. With an array or number src (NumPy's copyto): in place, dst's elements (where `where` is true) become src broadcast to dst's shape, cast under `casting`; gives none.",
        method: true,
        kind: OpKind::Func(copyto),
        grad: Some(crate::autodiff::rules::to_device),
    },
    OpDef {
        name: "mem",
        sig: "mem()",
        doc: "GPU memory: in use, pooled (reserved), peak, and the device's free/total.",
        method: false,
        kind: OpKind::Func(mem),
        grad: None,
    },
    OpDef {
        name: "cuda_module",
        sig: "cuda_module(src, device=gpu())",
        doc: "Compile CUDA C source (PyCUDA's SourceModule) with NVRTC; its `extern \"C\" __global__` kernels become attributes: `mod.k(args..., block=(x,y,z), grid=(x,y,z), shared=bytes)` launches one.",
        method: false,
        kind: OpKind::Func(cuda_module),
        grad: None,
    },
];

/// Error unless GPU `i` is usable.
pub fn check_gpu(i: u32) -> Result<()> {
    let n = devices::gpu_count();
    if n == 0 {
        return Err(devices::why_no_gpu());
    }
    if i as usize >= n {
        return Err(Error::device(format!(
            "gpu({i}) does not exist: this machine has {n} GPU{}",
            if n == 1 { "" } else { "s" }
        ))
        .with_help(format!("use gpu(0) .. gpu({})", n - 1)));
    }
    Ok(())
}

/// Wait for every device's queued work (a no-op on the CPU).
pub fn sync_all() -> Result<()> {
    devices::sync_all()
}

pub fn device_arg(v: &Value) -> Result<Device> {
    match v {
        Value::Device(d) => Ok(*d),
        Value::Str(s) => match crate::flags::parse_device(s) {
            Some(crate::flags::DeviceFlag::Cpu) => Ok(Device::Cpu),
            Some(crate::flags::DeviceFlag::Gpu(i)) => {
                check_gpu(i)?;
                Ok(Device::Gpu(i))
            }
            _ => {
                Err(Error::value(format!("{s:?} is not a device")).with_help("use cpu() or gpu(i)"))
            }
        },
        other => Err(
            Error::type_(format!("expected a device, not {}", other.a_type_name()))
                .with_help("use cpu() or gpu(i)"),
        ),
    }
}

fn cpu(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Device(Device::Cpu))
}

fn gpu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let i = a
        .opt("i")?
        .map(|v| int_arg(&v, "gpu index"))
        .transpose()?
        .unwrap_or(0);
    a.finish()?;
    if i < 0 {
        return Err(Error::value(format!(
            "gpu({i}): the index must be 0 or more"
        )));
    }
    check_gpu(i as u32)?;
    Ok(Value::Device(Device::Gpu(i as u32)))
}

fn devices(i: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let mut list = vec![Value::Device(Device::Cpu)];
    let mut text = format!("cpu(0): {} threads\n", rayon::current_num_threads());
    let n = devices::gpu_count();
    for g in 0..n {
        list.push(Value::Device(Device::Gpu(g as u32)));
    }
    if n == 0 {
        text.push_str(&format!("no GPU: {}\n", devices::why_no_gpu().message));
    } else {
        text.push_str(&devices::gpus_text());
    }
    i.out.stdout(&text);
    Ok(Value::list(list))
}

fn sync(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.opt("x")?;
    a.finish()?;
    match &x {
        Some(Value::Array(arr)) => devices::sync(arr.device())?,
        _ => sync_all()?,
    }
    Ok(x.unwrap_or(Value::None))
}

fn array_arg(v: Value, op: &str) -> Result<crate::array::Array> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(Error::type_(format!(
            "{op}() needs an array, not {}",
            other.a_type_name()
        ))),
    }
}

fn to(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_arg(a.req("x")?, "to")?;
    let target = a.req("device")?;
    // PyTorch's `x.to(torch.float64)` and `x.to(device, dtype)`: a dtype
    // (by position or dtype=) converts as astype.
    let dtype = match a.opt("dtype")? {
        None | Some(Value::None) => None,
        Some(Value::DType(t)) => Some(t),
        Some(v) => {
            return Err(Error::type_(format!(
                "to: dtype must be a dtype, not {}",
                v.a_type_name()
            )));
        }
    };
    a.finish_with(&["dtype"])?;
    let (d, dtype) = match target {
        Value::DType(t) => (x.device(), Some(t)),
        v => (device_arg(&v)?, dtype),
    };
    let x = match dtype {
        Some(t) => x.astype(t)?,
        None => x,
    };
    Ok(Value::Array(backend::to_device(&x, d)?))
}

fn copyto(i: &mut Interp, mut a: Args) -> Result<Value> {
    // NumPy's copyto(dst, src, where=) when the second argument is not a device.
    if crate::ops::arrutil::inplace::numpy_form(&a) {
        return crate::ops::arrutil::inplace::copyto_numpy(i, a);
    }
    let x = array_arg(a.req("x")?, "copyto")?;
    let d = device_arg(&a.req("device")?)?;
    a.finish()?;
    Ok(Value::Array(backend::copy_to_device(&x, d)?))
}

fn mem(i: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    if devices::gpu_count() == 0 {
        i.out
            .stdout("no GPU: nothing is allocated on a device (CPU arrays use ordinary memory)\n");
    } else {
        let t = devices::mem_text()?;
        i.out.stdout(&t);
    }
    Ok(Value::None)
}

fn cuda_module(i: &mut Interp, mut a: Args) -> Result<Value> {
    let src = match a.req("src")? {
        Value::Str(s) => s,
        other => {
            return Err(Error::type_(format!(
                "cuda_module() needs CUDA C source as a string, not {}",
                other.a_type_name()
            )));
        }
    };
    let dev = match a.opt("device")? {
        Some(v) => device_arg(&v)?,
        None => backend::custom::default_device(i.default_device()),
    };
    a.finish()?;
    super::cuda_module::cuda_module(&src, dev)
}
