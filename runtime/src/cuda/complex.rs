//! Complex arrays on a GPU: every `CxOp` as a generated NVRTC kernel over
//! `kernels/src/cuda/complex.cuh` (operands of any dtype broadcast by
//! strides to the output's shape, Python scalars as kernel parameters,
//! computed in complex double as the CPU's `CxOp::apply`, stored once in the
//! output's dtype), the copies and casts of complex arrays, complex fills,
//! and `sum`/`mean`/`prod` over axes (rows moved last, one block a row).

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::gpu;
use super::ew::launch;
use crate::array::{Array, layout};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::{CxArg, CxOp, ReduceOp};
use gcalc_kernels::cuda::codegen::storage_type;
use std::collections::hash_map::DefaultHasher;
use std::ffi::c_void;
use std::hash::{Hash, Hasher};

/// Dimensions of the kernels' stride struct (`GC_CX_DIMS`).
const DIMS: usize = 8;
const BLOCK: u32 = 256;
/// The stride struct as the kernels take it by value: shape, then the
/// strides of three operands.
type Strides = [i64; DIMS * 4];

/// The error of a GPU path without complex kernels given a complex array
/// (the op layer composes these ops of others first; this is the backstop
/// that keeps the real kernels from reading only the real parts).
pub fn refuse(op: &str, d: DType) -> Error {
    Error::dtype(
        op,
        format!("`{op}` of {d} arrays is not supported on the GPU"),
    )
    .with_help("compute it on the CPU: to(x, cpu)")
}

/// The C expression of `op` over the operands `v0 v1 v2` (complex double).
fn expr(op: CxOp) -> &'static str {
    match op {
        CxOp::Add => "gc_cadd(v0, v1)",
        CxOp::Subtract => "gc_csub(v0, v1)",
        CxOp::Multiply => "gc_cmul(v0, v1)",
        CxOp::Divide => "gc_cdiv(v0, v1)",
        CxOp::Power => "gc_cpow(v0, v1)",
        CxOp::Negative => "gc_cx(-v0.x, -v0.y)",
        CxOp::Square => "gc_cmul(v0, v0)",
        CxOp::Reciprocal => "gc_cdiv(gc_cx(1.0, 0.0), v0)",
        CxOp::Exp => "gc_cexp(v0)",
        CxOp::Log => "gc_cln(v0)",
        CxOp::Log10 => "gc_cunscale(gc_cln(v0), 2.30258509299404568401799145468436421)",
        CxOp::Log2 => "gc_cunscale(gc_cln(v0), 0.693147180559945309417232121458176568)",
        CxOp::Sqrt => "gc_csqrt(v0)",
        CxOp::Sin => "gc_csin(v0)",
        CxOp::Cos => "gc_ccos(v0)",
        CxOp::Tan => "gc_ctan(v0)",
        CxOp::Sinh => "gc_csinh(v0)",
        CxOp::Cosh => "gc_ccosh(v0)",
        CxOp::Tanh => "gc_ctanh(v0)",
        CxOp::Conj => "gc_cx(v0.x, -v0.y)",
        CxOp::Where => "(gc_cnz(v0) ? v1 : v2)",
        CxOp::Abs => "gc_cx(hypot(v0.x, v0.y), 0.0)",
        CxOp::Real => "gc_cx(v0.x, 0.0)",
        CxOp::Imag => "gc_cx(v0.y, 0.0)",
        CxOp::Angle => "gc_cx(atan2(v0.y, v0.x), 0.0)",
        CxOp::Equal => "gc_cb(v0.x == v1.x && v0.y == v1.y)",
        CxOp::NotEqual => "gc_cb(!(v0.x == v1.x && v0.y == v1.y))",
        CxOp::Isnan => "gc_cb(isnan(v0.x) || isnan(v0.y))",
        CxOp::Isfinite => "gc_cb(isfinite(v0.x) && isfinite(v0.y))",
        CxOp::Isinf => "gc_cb(isinf(v0.x) || isinf(v0.y))",
    }
}

/// The kernel `gc_cxop` of `body` over operands of dtypes `ins` (None: a
/// scalar parameter) stored as `out`. Its parameters are the same for every
/// body: out, n, nd, the strides, then three (pointer, re, im) slots.
pub fn map_source(body: &str, ins: &[Option<DType>], out: DType) -> String {
    let mut s = with_helpers("");
    s.push_str(&format!(
        "extern \"C\" __global__ void gc_cxop({}* out, i64 n, int nd, GcCxStrides p",
        storage_type(out)
    ));
    for k in 0..3 {
        let t = ins.get(k).copied().flatten().map_or("char", storage_type);
        s.push_str(&format!(", const {t}* a{k}, double s{k}r, double s{k}i"));
    }
    s.push_str(") {\n  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {\n");
    s.push_str("    i64 r = i, o0 = 0, o1 = 0, o2 = 0;\n    for (int d = nd - 1; d >= 0; --d) {\n      i64 c = r % p.shape[d];\n      r /= p.shape[d];\n      o0 += c * p.st[0][d]; o1 += c * p.st[1][d]; o2 += c * p.st[2][d];\n    }\n");
    for k in 0..3 {
        match ins.get(k) {
            Some(Some(_)) => s.push_str(&format!("    cx v{k} = gc_cld(a{k}[o{k}]);\n")),
            _ => s.push_str(&format!("    cx v{k} = gc_cx(s{k}r, s{k}i);\n")),
        }
    }
    s.push_str(&format!(
        "    (void)v0; (void)v1; (void)v2; (void)o0; (void)o1; (void)o2;\n    gc_cst(out + i, {body});\n  }}\n}}\n"
    ));
    s
}

/// The kernel source of `op` over operands of dtypes `ins` (None: a
/// Python scalar), stored as `out` (what `apply` compiles; the NVRTC test
/// compiles each).
pub fn op_source(op: CxOp, ins: &[Option<DType>], out: DType) -> String {
    map_source(expr(op), ins, out)
}

/// `body` over `args` broadcast to `shape` into a new array of dtype `out`
/// on GPU `ordinal`.
fn map(ordinal: u32, body: &str, args: &[CxArg], shape: &[usize], out: DType) -> Result<Array> {
    let g = gpu(ordinal)?;
    let n: usize = shape.iter().product();
    let buf = DeviceBuffer::alloc(&g, out, n)?;
    if n == 0 {
        return Ok(array_of(buf, shape.to_vec()));
    }
    let mut ins: Vec<Option<DType>> = Vec::new();
    let mut strides: Vec<Vec<isize>> = Vec::new();
    let mut slots = [(0u64, 0f64, 0f64); 3];
    for (k, a) in args.iter().enumerate() {
        match a {
            CxArg::Array(x) => {
                if x.device() != Device::Gpu(ordinal) {
                    return Err(Error::device_mismatch(
                        "complex op",
                        Device::Gpu(ordinal),
                        x.device(),
                    ));
                }
                ins.push(Some(x.dtype()));
                strides.push(layout::broadcast_strides(x.shape(), x.strides(), shape));
                slots[k].0 = array_buffer(x)?.ptr_at(x.offset());
            }
            CxArg::Scalar(re, im) => {
                ins.push(None);
                strides.push(vec![0; shape.len()]);
                slots[k] = (0, *re, *im);
            }
        }
    }
    let refs: Vec<&[isize]> = strides.iter().map(|s| s.as_slice()).collect();
    let (mut ms, mut mst) = layout::merge_dims(shape, &refs);
    if ms.is_empty() {
        ms.push(1);
        mst.iter_mut().for_each(|s| s.push(0));
    }
    if ms.len() > DIMS {
        return Err(Error::value(format!(
            "complex arrays of more than {DIMS} non-mergeable dimensions are not supported on the GPU"
        ))
        .with_help("make the operands contiguous (copy) or reshape to fewer dimensions first"));
    }
    let mut st: Strides = [0; DIMS * 4];
    for (d, &e) in ms.iter().enumerate() {
        st[d] = e as i64;
    }
    for (k, s) in mst.iter().enumerate() {
        for (d, &v) in s.iter().enumerate() {
            st[DIMS * (k + 1) + d] = v as i64;
        }
    }
    let mut h = DefaultHasher::new();
    ("gc_cxop", body, &ins, out).hash(&mut h);
    let f = compile::function(&g, h.finish(), "gc_cxop", || map_source(body, &ins, out))?;
    let (mut po, mut nn, mut nd) = (buf.ptr_at(0), n as i64, ms.len() as i32);
    let mut params: Vec<*mut c_void> = vec![
        &mut po as *mut u64 as *mut c_void,
        &mut nn as *mut i64 as *mut c_void,
        &mut nd as *mut i32 as *mut c_void,
        st.as_mut_ptr() as *mut c_void,
    ];
    for s in slots.iter_mut() {
        params.push(&mut s.0 as *mut u64 as *mut c_void);
        params.push(&mut s.1 as *mut f64 as *mut c_void);
        params.push(&mut s.2 as *mut f64 as *mut c_void);
    }
    let blocks = (n.div_ceil(BLOCK as usize)).clamp(1, 1 << 20) as u32;
    launch(
        &g,
        f,
        (blocks, 1, 1),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "a complex kernel",
    )?;
    Ok(array_of(buf, shape.to_vec()))
}

/// `op` over `args` broadcast to `shape` on GPU `ordinal`.
pub fn apply(ordinal: u32, op: CxOp, args: &[CxArg], shape: &[usize], out: DType) -> Result<Array> {
    map(ordinal, expr(op), args, shape, out)
}

/// A contiguous copy of GPU array `a` (any view) as `dtype`, where either
/// is complex (a real array becomes complex with 0 imaginary parts; a
/// complex one stored as real keeps its real part, as on the CPU).
pub fn convert(a: &Array, dtype: DType) -> Result<Array> {
    let Device::Gpu(i) = a.device() else {
        return Err(Error::internal("cuda::complex::convert of a CPU array"));
    };
    map(i, "v0", &[CxArg::Array(a.clone())], a.shape(), dtype)
}

/// `shape` filled with `re + im*j` as `dtype` on GPU `dev`.
pub fn fill(shape: &[usize], re: f64, im: f64, dtype: DType, dev: u32) -> Result<Array> {
    map(dev, "v0", &[CxArg::Scalar(re, im)], shape, dtype)
}

/// The per-row reduction's source: sum, prod or mean of contiguous rows.
pub fn rows_source(input: DType, out: DType) -> String {
    with_helpers(&format!(
        "extern \"C\" __global__ void gc_cxrows({o}* out, const {i}* src, i64 lanes, i64 m, int op) {{ gc_cx_rows<{i}, {o}>(out, src, lanes, m, op); }}\n",
        o = storage_type(out),
        i = storage_type(input),
    ))
}

/// `entry` (kernels over `complex.cuh`) after the prelude and the complex helpers.
pub fn with_helpers(entry: &str) -> String {
    [
        gcalc_kernels::cuda::PRELUDE,
        gcalc_kernels::cuda::COMPLEX,
        entry,
    ]
    .concat()
}

/// `sum`, `mean` or `prod` of complex GPU array `a` over the axes marked in
/// `red` (complex double accumulation, rounded to `a`'s dtype); an empty sum
/// is 0, an empty product 1, an empty mean nan, as on the CPU.
pub fn reduce(op: ReduceOp, a: &Array, red: &[bool], keepdims: bool) -> Result<Array> {
    let Device::Gpu(ordinal) = a.device() else {
        return Err(Error::internal("cuda::complex::reduce of a CPU array"));
    };
    let code = match op {
        ReduceOp::Sum => 0,
        ReduceOp::Prod => 1,
        ReduceOp::Mean => 2,
        other => {
            return Err(Error::dtype(
                other.name(),
                format!("`{}` does not support {} arrays", other.name(), a.dtype()),
            ));
        }
    };
    let plan = layout::lane_plan(a.shape(), red, keepdims);
    let moved = a.transpose(Some(&plan.perm))?;
    let moved = if moved.is_contiguous() {
        moved
    } else {
        convert(&moved, a.dtype())?
    };
    let (m, lanes, shape) = (plan.per_lane, plan.lanes, plan.out_shape);
    let g = gpu(ordinal)?;
    let buf = DeviceBuffer::alloc(&g, a.dtype(), lanes)?;
    if lanes == 0 {
        return Ok(array_of(buf, shape));
    }
    let (din, dout) = (moved.dtype(), a.dtype());
    let mut h = DefaultHasher::new();
    ("gc_cxrows", din, dout).hash(&mut h);
    let f = compile::function(&g, h.finish(), "gc_cxrows", || rows_source(din, dout))?;
    let mut po = buf.ptr_at(0);
    let mut ps = if m == 0 {
        // No element is read; any valid address will do.
        po
    } else {
        array_buffer(&moved)?.ptr_at(moved.offset())
    };
    let (mut l, mut mm, mut c) = (lanes as i64, m as i64, code);
    let mut params: Vec<*mut c_void> = vec![
        &mut po as *mut u64 as *mut c_void,
        &mut ps as *mut u64 as *mut c_void,
        &mut l as *mut i64 as *mut c_void,
        &mut mm as *mut i64 as *mut c_void,
        &mut c as *mut i32 as *mut c_void,
    ];
    let blocks = lanes.clamp(1, 1 << 20) as u32;
    launch(
        &g,
        f,
        (blocks, 1, 1),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "a complex reduction",
    )?;
    Ok(array_of(buf, shape))
}
