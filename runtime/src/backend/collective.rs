//! The dispatch of the collectives over several GPUs: the devices of a
//! collective must be distinct, existing GPUs (a CPU array or device in a
//! collective is an error naming it), then the CUDA backend runs NCCL.

use crate::array::Array;
use crate::cuda;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::CollectiveOp;

/// The GPU ordinals of `devices` (rank order), or an error naming the
/// device that is not a usable GPU or is listed twice. `what` says where the
/// devices come from (`"xs"`: the arrays' devices, `"devices"`: a list).
pub fn gpu_ordinals(op: &str, what: &str, devices: &[Device]) -> Result<Vec<u32>> {
    let n = cuda::gpu_count();
    let mut out: Vec<u32> = Vec::with_capacity(devices.len());
    for (k, d) in devices.iter().enumerate() {
        let i = match d {
            Device::Gpu(i) => *i,
            Device::Cpu => {
                return Err(Error::device(format!(
                    "{op}: {what}[{k}] is on cpu(0): collectives run between GPUs"
                ))
                .with_op(op)
                .with_help(match n {
                    0 => "this machine has no usable GPU (devices() says why)".to_string(),
                    _ => "put one array on each GPU first: scatter(x, [gpu(0), gpu(1)]) or x.to(gpu(i))".into(),
                }));
            }
        };
        if i as usize >= n {
            return Err(Error::device(format!(
                "{op}: {what}[{k}] is gpu({i}), which does not exist: this machine has {n} GPU{}",
                if n == 1 { "" } else { "s" }
            ))
            .with_op(op));
        }
        if let Some(j) = out.iter().position(|&o| o == i) {
            return Err(Error::device(format!(
                "{op}: {what}[{j}] and {what}[{k}] are both on gpu({i}): a collective takes one array per GPU"
            ))
            .with_op(op)
            .with_help("list each GPU once (sum the arrays of one GPU first)"));
        }
        out.push(i);
    }
    Ok(out)
}

/// Run collective `op` over `devices` (one per rank); `xs` are the ranks'
/// inputs (a broadcast: the root's alone, on its device), every output of
/// `out_shape` and `dtype`, one per device in order.
pub fn run(
    op: CollectiveOp,
    devices: &[Device],
    xs: &[Array],
    dtype: DType,
    out_shape: &[usize],
) -> Result<Vec<Array>> {
    let what = match op {
        CollectiveOp::Broadcast { .. } => "devices",
        _ => "xs",
    };
    let devs = gpu_ordinals(op.name(), what, devices)?;
    cuda::nccl::collective(op, &devs, xs, dtype, out_shape).map_err(|e| e.with_op(op.name()))
}
