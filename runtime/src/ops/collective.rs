//! Several GPUs of one host: the NCCL collectives (`all_reduce`,
//! `broadcast`, `all_gather`, `reduce_scatter`: lists of arrays one per GPU,
//! checked here for shapes and dtypes, run through `backend::collective`)
//! and the copies that split an array over devices and join it back
//! (`scatter(x, devices)`, `gather`: views and `to_device` copies, no NCCL
//! needed). `scatter` shares its name with the plot of points
//! (`scatter(x, y)`, matplotlib's): the plot's entry is the one in the table
//! and hands a call whose second argument is devices to `scatter` here.

use crate::array::Array;
use crate::array::shape_ops::norm_axis;
use crate::backend::{self, collective::gpu_ordinals};
use crate::builtins::device::device_arg;
use crate::builtins::lang::int_arg;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::{CollectiveOp, RedKind};
use crate::ops::OpDef;
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    builtin!(
        "all_reduce",
        "all_reduce(xs, op=\"sum\")",
        "Combine a list of same-shape arrays, one per GPU, with NCCL: every GPU gets the sum (or \"prod\", \"max\", \"min\", \"mean\") of all of them; gives the list of results in the order of xs. Queued on each GPU's stream (sync() waits). The dtype is kept; \"mean\" of integers gives float64 as mean() does; bool arrays are refused (cast them first).",
        all_reduce
    ),
    builtin!(
        "broadcast",
        "broadcast(x, devices)",
        "Copies of x on each of `devices` (a list of GPUs), with NCCL: x is sent from its own GPU when that GPU is listed, else it is first copied to devices[0]. Gives the list of copies in the order of devices.",
        broadcast
    ),
    builtin!(
        "all_gather",
        "all_gather(xs, axis=0)",
        "Join a list of same-shape arrays, one per GPU, with NCCL: every GPU gets their concatenation along `axis` (in the order of xs). Gives the list of results, one per GPU.",
        all_gather
    ),
    builtin!(
        "reduce_scatter",
        "reduce_scatter(xs, op=\"sum\")",
        "Combine a list of same-shape arrays, one per GPU, with NCCL and split the result: GPU r gets the r-th of len(xs) equal parts (along the first axis, whose length must divide evenly) of the sum (or \"prod\", \"max\", \"min\", \"mean\").",
        reduce_scatter
    ),
    builtin!(
        "gather",
        "gather(xs, device, axis=0)",
        "Copy the arrays of xs (on any devices) to `device` and concatenate them along `axis`: the inverse of scatter.",
        gather
    ),
];

/// The arrays of a list argument (a list or tuple of arrays only).
fn arrays_of(op: &str, v: &Value) -> Result<Vec<Array>> {
    let items = match v.seq_items() {
        Some(t) => t,
        None => {
            let other = v;
            return Err(Error::type_(format!(
                "{op} takes a list of arrays (one per GPU), not {}",
                other.a_type_name()
            ))
            .with_help(format!(
                "e.g. {op}([a0, a1]) with a0 on gpu(0), a1 on gpu(1)"
            )));
        }
    };
    if items.is_empty() {
        return Err(Error::value(format!("{op}: the list of arrays is empty"))
            .with_help("give one array per GPU"));
    }
    items
        .iter()
        .enumerate()
        .map(|(k, x)| match x {
            Value::Array(a) => Ok(a.clone()),
            other => Err(Error::type_(format!(
                "{op}: xs[{k}] is {}, not an array",
                other.a_type_name()
            ))),
        })
        .collect()
}

/// The array argument `x` of `op`.
fn array_x(op: &str, v: Value) -> Result<Array> {
    match v {
        Value::Array(x) => Ok(x),
        other => Err(Error::type_(format!(
            "{op} needs an array, not {}",
            other.a_type_name()
        ))),
    }
}

/// The devices of a list argument.
fn devices_of(op: &str, v: &Value) -> Result<Vec<Device>> {
    if let Value::Device(d) = v {
        return Ok(vec![*d]);
    }
    let items = match v.seq_items() {
        Some(t) => t,
        None => {
            let other = v;
            return Err(Error::type_(format!(
                "{op}: devices must be a list of devices, not {}",
                other.a_type_name()
            ))
            .with_help("e.g. [gpu(0), gpu(1)]"));
        }
    };
    if items.is_empty() {
        return Err(Error::value(format!("{op}: the list of devices is empty"))
            .with_help("e.g. [gpu(0), gpu(1)]"));
    }
    items.iter().map(device_arg).collect()
}

/// Error unless every array of `xs` has the first one's shape and dtype;
/// the message names both arrays and their devices.
fn same_shape_dtype(op: &str, xs: &[Array]) -> Result<()> {
    let a = &xs[0];
    for (k, b) in xs.iter().enumerate().skip(1) {
        if b.shape() != a.shape() {
            return Err(Error::shape(
                op,
                format!(
                    "the arrays differ in shape: xs[0] on {} is {} but xs[{k}] on {} is {}",
                    a.device(),
                    crate::array::layout::fmt_shape(a.shape()),
                    b.device(),
                    crate::array::layout::fmt_shape(b.shape())
                ),
            )
            .with_help("a collective takes arrays of one shape, one per GPU"));
        }
        if b.dtype() != a.dtype() {
            return Err(Error::dtype(
                op,
                format!(
                    "the arrays differ in dtype: xs[0] on {} is {} but xs[{k}] on {} is {}",
                    a.device(),
                    a.dtype(),
                    b.device(),
                    b.dtype()
                ),
            )
            .with_help(format!(
                "cast them to one dtype first: x.astype({})",
                a.dtype()
            )));
        }
    }
    Ok(())
}

fn red_kind(op: &str, v: Option<Value>) -> Result<RedKind> {
    match v {
        None => Ok(RedKind::Sum),
        Some(Value::Str(s)) => RedKind::parse(&s).ok_or_else(|| {
            Error::value(format!("{op}: op={s:?} is not a reduction"))
                .with_help("use op=\"sum\", \"prod\", \"max\", \"min\" or \"mean\"")
        }),
        Some(other) => Err(Error::type_(format!(
            "{op}: op must be a string such as \"sum\", not {}",
            other.a_type_name()
        ))),
    }
}

/// The inputs of a reducing collective, in the dtype it reduces in: bool
/// refused, integers cast to float64 for a mean (as mean() gives).
fn reducing_inputs(op: &str, xs: Vec<Array>, k: RedKind) -> Result<(Vec<Array>, DType)> {
    let dt = xs[0].dtype();
    match (dt, k) {
        (DType::Bool, _) => Err(Error::dtype(
            op,
            format!("op=\"{}\" of bool arrays is not supported", k.name()),
        )
        .with_help("cast them first: x.astype(int32) (sum counts the true values)")),
        (DType::Int32 | DType::Int64, RedKind::Mean) => Ok((
            xs.iter()
                .map(|x| x.astype(DType::Float64))
                .collect::<Result<_>>()?,
            DType::Float64,
        )),
        _ => Ok((xs, dt)),
    }
}

fn devices(xs: &[Array]) -> Vec<Device> {
    xs.iter().map(|x| x.device()).collect()
}

fn list(v: Vec<Array>) -> Value {
    Value::list(v.into_iter().map(Value::Array).collect())
}

fn all_reduce(_: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "all_reduce";
    let xs = arrays_of(op, &a.req("xs")?)?;
    let k = red_kind(op, a.opt("op")?)?;
    a.finish()?;
    same_shape_dtype(op, &xs)?;
    gpu_ordinals(op, "xs", &devices(&xs))?;
    let (xs, dt) = reducing_inputs(op, xs, k)?;
    let shape = xs[0].shape().to_vec();
    let out = backend::collective::run(CollectiveOp::AllReduce(k), &devices(&xs), &xs, dt, &shape)?;
    Ok(list(out))
}

fn reduce_scatter(_: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "reduce_scatter";
    let xs = arrays_of(op, &a.req("xs")?)?;
    let k = red_kind(op, a.opt("op")?)?;
    a.finish()?;
    same_shape_dtype(op, &xs)?;
    gpu_ordinals(op, "xs", &devices(&xs))?;
    let n = xs.len();
    let Some(&len0) = xs[0].shape().first() else {
        return Err(
            Error::shape(op, "the arrays are 0-d: there is no first axis to split")
                .with_help("use all_reduce for scalars"),
        );
    };
    if len0 % n != 0 {
        return Err(Error::shape(
            op,
            format!("the first axis (length {len0}) does not split evenly among {n} GPUs"),
        )
        .with_help(format!(
            "make its length a multiple of {n}, or use all_reduce and slice"
        )));
    }
    let (xs, dt) = reducing_inputs(op, xs, k)?;
    let mut shape = xs[0].shape().to_vec();
    shape[0] = len0 / n;
    let out = backend::collective::run(
        CollectiveOp::ReduceScatter(k),
        &devices(&xs),
        &xs,
        dt,
        &shape,
    )?;
    Ok(list(out))
}

fn broadcast(_: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "broadcast";
    let x = array_x(op, a.req("x")?)?;
    let devs = devices_of(op, &a.req("devices")?)?;
    a.finish()?;
    gpu_ordinals(op, "devices", &devs)?;
    let (x, root) = match devs.iter().position(|&d| d == x.device()) {
        Some(r) => (x, r),
        None => (backend::to_device(&x, devs[0])?, 0),
    };
    let out = backend::collective::run(
        CollectiveOp::Broadcast { root },
        &devs,
        std::slice::from_ref(&x),
        x.dtype(),
        x.shape(),
    )?;
    Ok(list(out))
}

fn axis_of(a: &mut Args) -> Result<i64> {
    Ok(a.opt("axis")?
        .map(|v| int_arg(&v, "axis"))
        .transpose()?
        .unwrap_or(0))
}

fn all_gather(_: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "all_gather";
    let xs = arrays_of(op, &a.req("xs")?)?;
    let axis = axis_of(&mut a)?;
    a.finish()?;
    same_shape_dtype(op, &xs)?;
    gpu_ordinals(op, "xs", &devices(&xs))?;
    let s = xs[0].shape().to_vec();
    if s.is_empty() {
        return Err(
            Error::shape(op, "the arrays are 0-d: there is no axis to join along")
                .with_help("reshape them to 1-d first (x.reshape(1))"),
        );
    }
    let ax = norm_axis(axis, s.len(), op)?;
    let n = xs.len();
    // NCCL lays the ranks' arrays one after another: a new first axis.
    let mut stacked = vec![n];
    stacked.extend(&s);
    let out = backend::collective::run(
        CollectiveOp::AllGather,
        &devices(&xs),
        &xs,
        xs[0].dtype(),
        &stacked,
    )?;
    let mut joined = s.clone();
    joined[ax] *= n;
    let joined: Vec<i64> = joined.iter().map(|&d| d as i64).collect();
    let out = out
        .into_iter()
        .map(|g| {
            if ax == 0 {
                return g.reshape(&joined);
            }
            // Move the rank axis next to `ax`, then merge the two.
            let mut perm: Vec<i64> = (1..=ax as i64).collect();
            perm.push(0);
            perm.extend(ax as i64 + 1..=s.len() as i64);
            g.transpose(Some(perm.as_slice()))?
                .contiguous()?
                .reshape(&joined)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(list(out))
}

/// Devices listed twice are an error (one part per device).
fn distinct(op: &str, devs: &[Device]) -> Result<()> {
    for (k, d) in devs.iter().enumerate() {
        if let Some(j) = devs[..k].iter().position(|e| e == d) {
            return Err(Error::device(format!(
                "{op}: devices[{j}] and devices[{k}] are both {d}: one part per device"
            ))
            .with_help("list each device once"));
        }
    }
    Ok(())
}

/// Whether a `scatter` call splits over devices (its second argument, or
/// `devices=`, is a device or a list of them) rather than plotting points.
pub fn splits_over_devices(a: &Args) -> bool {
    let is_dev = |v: &Value| match v {
        Value::Device(_) => true,
        other => other
            .seq_items()
            .is_some_and(|t| t.first().is_some_and(|x| matches!(x, Value::Device(_)))),
    };
    // No keyword of the plot takes a device: any one holding devices is `devices=`.
    a.pos.get(1).is_some_and(is_dev) || a.kw.iter().any(|(_, v)| is_dev(v))
}

/// `scatter(x, devices, axis=0)`: x split as array_split, part i copied to devices[i].
pub fn scatter(_: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "scatter";
    let x = array_x(op, a.req("x")?)?;
    let devs = devices_of(op, &a.req("devices")?)?;
    let axis = axis_of(&mut a)?;
    a.finish()?;
    distinct(op, &devs)?;
    if x.ndim() == 0 {
        return Err(Error::shape(op, "x is 0-d: there is no axis to split")
            .with_help("use broadcast to copy one value to every GPU"));
    }
    let ax = norm_axis(axis, x.ndim(), op)?;
    let (len, k) = (x.shape()[ax], devs.len());
    let (base, extra) = (len / k, len % k);
    let mut start = 0usize;
    let mut parts = Vec::with_capacity(k);
    for (i, &d) in devs.iter().enumerate() {
        let m = base + usize::from(i < extra);
        let mut shape = x.shape().to_vec();
        shape[ax] = m;
        let off = x.offset() as isize + start as isize * x.strides()[ax];
        let part = match m {
            // An empty part: no element is read, any offset in the buffer does.
            0 => x.view(shape, x.strides().to_vec(), x.offset()),
            _ => x.view(shape, x.strides().to_vec(), off as usize),
        };
        parts.push(backend::copy_to_device(&part, d)?);
        start += m;
    }
    Ok(list(parts))
}

fn gather(_: &mut Interp, mut a: Args) -> Result<Value> {
    let op = "gather";
    let xs = arrays_of(op, &a.req("xs")?)?;
    let d = device_arg(&a.req("device")?)?;
    let axis = axis_of(&mut a)?;
    a.finish()?;
    let on_d = xs
        .iter()
        .map(|x| backend::to_device(x, d))
        .collect::<Result<Vec<_>>>()?;
    Ok(Array::concat(&on_d, axis)
        .map_err(|e| e.with_op(op))?
        .into())
}
