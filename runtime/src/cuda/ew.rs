//! Fused elementwise evaluation on a GPU: an expression tree of op templates
//! over GPU arrays and scalars becomes one generated kernel (see
//! gcalc_kernels::cuda::codegen), cached per device by the program's shape.
//! Also the strided copy / cast kernel (an empty program) and `full`.

use super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::compile;
use super::driver::{Gpu, gpu};
use crate::array::{Array, Scalar, layout};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use cudarc::driver::result;
use gcalc_kernels::cuda::codegen::{self, Access, Arg, BLOCK, Input, Instr, MAX_DIMS, Program};
use gcalc_kernels::cuda::fused_sum::SUM_BLOCK;
use std::collections::hash_map::DefaultHasher;
use std::ffi::c_void;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// An elementwise expression over GPU arrays and scalars.
pub enum Expr {
    Array(Array),
    /// A scalar taking dtype `.1` (a weak scalar takes its array partner's dtype).
    Float(f64, DType),
    Int(i64, DType),
    Op {
        /// CUDA C expression over `{0}` `{1}` `{2}` (the op table's template).
        template: std::borrow::Cow<'static, str>,
        /// dtype the operands are converted to.
        compute: DType,
        /// dtype of the value (bool for comparisons).
        result: DType,
        args: Vec<Expr>,
    },
}

enum Leaf<'a> {
    Array(&'a Array),
    Float(f64),
    Int(i64),
}

struct Builder<'a> {
    inputs: Vec<Input>,
    leaves: Vec<Leaf<'a>>,
    instrs: Vec<Instr>,
}

impl<'a> Builder<'a> {
    fn walk(&mut self, e: &'a Expr) -> Arg {
        match e {
            Expr::Array(a) => {
                if let Some(i) = self
                    .leaves
                    .iter()
                    .position(|l| matches!(l, Leaf::Array(b) if b.same_as(a)))
                {
                    return Arg::In(i);
                }
                self.leaves.push(Leaf::Array(a));
                self.inputs.push(Input {
                    dtype: a.dtype(),
                    access: Access::Contig,
                });
                Arg::In(self.leaves.len() - 1)
            }
            Expr::Float(v, d) => {
                self.leaves.push(Leaf::Float(*v));
                self.inputs.push(Input {
                    dtype: *d,
                    access: Access::Scalar,
                });
                Arg::In(self.leaves.len() - 1)
            }
            Expr::Int(v, d) => {
                self.leaves.push(Leaf::Int(*v));
                self.inputs.push(Input {
                    dtype: *d,
                    access: Access::Scalar,
                });
                Arg::In(self.leaves.len() - 1)
            }
            Expr::Op {
                template,
                compute,
                result,
                args,
            } => {
                let args = args.iter().map(|a| self.walk(a)).collect();
                self.instrs.push(Instr {
                    template: template.clone(),
                    args,
                    compute: *compute,
                    result: *result,
                });
                Arg::Reg(self.instrs.len() - 1)
            }
        }
    }
}

/// What a generated kernel does with each element of the expression.
#[derive(Clone, Copy)]
enum Mode {
    /// Store it: `out[i] = e(i)`.
    Store,
    /// Sum it into one value divided by `div` (`kernels::cuda::fused_sum`).
    Sum { div: f64 },
}

/// Evaluate `e` into a new contiguous array of dtype `out`. `shape`/`device`
/// are needed only when `e` holds no array (a `full`).
pub fn eval(e: &Expr, out: DType, shape: Option<&[usize]>, device: Option<u32>) -> Result<Array> {
    eval_mode(e, out, shape, device, Mode::Store)
}

/// The sum of every element of `e` (dtype `out`: float32 or float64,
/// accumulated in float64) divided by `div`, as a 0-d array: one launch, no
/// temporary for the elements. `e` must hold an array.
pub fn eval_sum(e: &Expr, out: DType, div: f64) -> Result<Array> {
    eval_mode(e, out, None, None, Mode::Sum { div })
}

fn eval_mode(
    e: &Expr,
    out: DType,
    shape: Option<&[usize]>,
    device: Option<u32>,
    mode: Mode,
) -> Result<Array> {
    let mut b = Builder {
        inputs: Vec::new(),
        leaves: Vec::new(),
        instrs: Vec::new(),
    };
    b.walk(e);
    // Shape and device of the result.
    let mut out_shape: Vec<usize> = shape.map(|s| s.to_vec()).unwrap_or_default();
    let mut dev: Option<u32> = device;
    let mut first_dev: Option<Device> = None;
    for l in &b.leaves {
        if let Leaf::Array(a) = l {
            out_shape = layout::broadcast_shapes(&out_shape, a.shape(), "elementwise")?;
            match (first_dev, a.device()) {
                (None, d) => first_dev = Some(d),
                (Some(f), d) if f != d => {
                    return Err(Error::device_mismatch("elementwise", f, d));
                }
                _ => {}
            }
        }
    }
    match first_dev {
        Some(Device::Gpu(i)) => dev = Some(i),
        Some(Device::Cpu) => return Err(Error::internal("cuda::ew::eval got a CPU array")),
        None => {}
    }
    let dev = dev.ok_or_else(|| Error::internal("cuda::ew::eval without a device"))?;
    let g = gpu(dev)?;
    let n: usize = out_shape.iter().product();
    if let Mode::Sum { div } = mode {
        if n == 0 {
            return full(&[], 0.0 / div, out, dev);
        }
        let buf = DeviceBuffer::alloc(&g, out, 1)?;
        launch_program(&g, b, &out_shape, out, &buf, mode)?;
        return Ok(array_of(buf, vec![]));
    }
    let buf = DeviceBuffer::alloc(&g, out, n)?;
    if n > 0 {
        launch_program(&g, b, &out_shape, out, &buf, mode)?;
    }
    Ok(array_of(buf, out_shape))
}

fn launch_program(
    g: &Arc<Gpu>,
    mut b: Builder<'_>,
    shape: &[usize],
    out: DType,
    buf: &DeviceBuffer,
    mode: Mode,
) -> Result<()> {
    let n: usize = shape.iter().product();
    let contig = layout::contiguous_strides(shape);
    // Strides of every array input in the output's shape; contiguous full-shape inputs read by flat index.
    let mut strides: Vec<Vec<isize>> = Vec::new();
    let mut ptrs: Vec<u64> = Vec::new();
    for (k, l) in b.leaves.iter().enumerate() {
        match l {
            Leaf::Array(a) => {
                let st = layout::broadcast_strides(a.shape(), a.strides(), shape);
                let full = a.shape() == shape && a.is_contiguous();
                if !full {
                    b.inputs[k].access = Access::Strided;
                }
                strides.push(if full { contig.clone() } else { st });
                let src = array_buffer(a)?;
                ptrs.push(src.ptr_at(a.offset()));
            }
            _ => {
                strides.push(vec![0; shape.len()]);
                ptrs.push(0);
            }
        }
    }
    let any_strided = b.inputs.iter().any(|i| i.access == Access::Strided);
    let (mshape, mstrides) = if any_strided {
        let refs: Vec<&[isize]> = strides.iter().map(|s| s.as_slice()).collect();
        let (mut ms, mut mst) = layout::merge_dims(shape, &refs);
        if ms.is_empty() {
            // Every dimension has size 1 (a (1,) with a 0-d, say): one merged
            // dim of 1, so the strides struct the kernel takes by value is
            // filled (an empty one let the launch copy heap garbage as
            // strides: CUDA_ERROR_ILLEGAL_ADDRESS on a later statement).
            ms.push(1);
            mst.iter_mut().for_each(|s| s.push(0));
        }
        (ms, mst)
    } else {
        (vec![n], vec![])
    };
    if any_strided && mshape.len() > MAX_DIMS {
        return Err(Error::value(format!(
            "arrays of more than {MAX_DIMS} non-mergeable dimensions are not supported on the GPU"
        )));
    }
    let ndim = if any_strided { mshape.len().max(1) } else { 0 };
    let mut vec = 1;
    if !any_strided && matches!(mode, Mode::Store) {
        let w = codegen::vector_width(b.inputs.iter().map(|i| i.dtype).chain([out]));
        let aligned = b
            .inputs
            .iter()
            .zip(&ptrs)
            .all(|(i, &p)| i.access == Access::Scalar || p % (w * i.dtype.size()) as u64 == 0);
        if w > 1 && aligned && n >= w {
            vec = w;
        }
    }
    let prog = Program {
        inputs: b.inputs,
        instrs: b.instrs,
        out,
        ndim,
        vec,
    };
    let mut h = DefaultHasher::new();
    prog.hash(&mut h);
    let f = match mode {
        Mode::Store => compile::function(g, h.finish(), "gc_ew", || prog.source("gc_ew"))?,
        Mode::Sum { .. } => {
            "gc_sum".hash(&mut h);
            compile::function(g, h.finish(), "gc_sum", || prog.sum_source("gc_sum"))?
        }
    };

    // Parameters: out, n, each input (pointer or scalar), the strides struct by value.
    let mut out_ptr = buf.ptr_at(0);
    let mut nn = n as i64;
    let mut scalars: Vec<[u8; 8]> = Vec::with_capacity(prog.inputs.len());
    for (k, l) in b.leaves.iter().enumerate() {
        scalars.push(match l {
            Leaf::Array(_) => ptrs[k].to_ne_bytes(),
            Leaf::Float(v) => v.to_ne_bytes(),
            Leaf::Int(v) => v.to_ne_bytes(),
        });
    }
    let mut st: Vec<i64> = Vec::new();
    if ndim > 0 {
        st.extend(mshape.iter().map(|&d| d as i64));
        for (k, inp) in prog.inputs.iter().enumerate() {
            match inp.access {
                Access::Strided => st.extend(mstrides[k].iter().map(|&s| s as i64)),
                _ => st.extend(std::iter::repeat_n(0i64, ndim)),
            }
        }
        if prog.inputs.is_empty() {
            st.extend(std::iter::repeat_n(0i64, ndim));
        }
        // The launch copies the whole `GcStrides` the kernel declares from `st`.
        if st.len() != ndim * (1 + prog.inputs.len().max(1)) {
            return Err(Error::internal(format!(
                "elementwise kernel: {} stride values for {ndim} dims and {} inputs",
                st.len(),
                prog.inputs.len()
            )));
        }
    }
    let mut params: Vec<*mut c_void> = Vec::with_capacity(prog.inputs.len() + 3);
    params.push(&mut out_ptr as *mut u64 as *mut c_void);
    params.push(&mut nn as *mut i64 as *mut c_void);
    for s in scalars.iter_mut() {
        params.push(s.as_mut_ptr() as *mut c_void);
    }
    if ndim > 0 {
        params.push(st.as_mut_ptr() as *mut c_void);
    }
    if let Mode::Sum { div } = mode {
        // The reduction's workspace (partials, ticket) and the grid of
        // `reduce_all`: about 8 elements a thread, at most two blocks per SM.
        let (ws, max_blocks) = super::reduce::workspace(g)?;
        let (mut partial, mut ticket, mut div) = (ws, ws + max_blocks as u64 * 8, div);
        params.push(&mut partial as *mut u64 as *mut c_void);
        params.push(&mut ticket as *mut u64 as *mut c_void);
        params.push(&mut div as *mut f64 as *mut c_void);
        let blocks = (n.div_ceil(SUM_BLOCK as usize * 8) as u32).clamp(1, max_blocks);
        return launch(
            g,
            f,
            (blocks, 1, 1),
            (SUM_BLOCK, 1, 1),
            0,
            &mut params,
            "a fused sum",
        );
    }
    let threads = prog.threads(n);
    let blocks = threads.div_ceil(BLOCK as usize) as u32;
    launch(
        g,
        f,
        (blocks.max(1), 1, 1),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "an elementwise kernel",
    )
}

/// Every kernel source `e` (evaluated into dtype `out`) can generate, with
/// what each is: contiguous (vectorised when its dtypes allow, and scalar),
/// strided over `ndim` merged dims, and for float32/float64 `out` the fused
/// sum of both. No GPU needed: the NVRTC test compiles each of them.
pub fn sources(e: &Expr, out: DType, ndim: usize) -> Vec<(String, String)> {
    let mut b = Builder {
        inputs: Vec::new(),
        leaves: Vec::new(),
        instrs: Vec::new(),
    };
    b.walk(e);
    let program = |strided: bool, vec: usize| {
        let mut inputs = b.inputs.clone();
        for i in &mut inputs {
            if strided && i.access == Access::Contig {
                i.access = Access::Strided;
            }
        }
        Program {
            inputs,
            instrs: b.instrs.clone(),
            out,
            ndim: if strided { ndim.clamp(1, MAX_DIMS) } else { 0 },
            vec,
        }
    };
    let w = codegen::vector_width(b.inputs.iter().map(|i| i.dtype).chain([out]));
    let mut v = vec![("scalar".to_string(), program(false, 1).source("gc_ew"))];
    if w > 1 {
        v.push((format!("vector {w}"), program(false, w).source("gc_ew")));
    }
    if b.inputs.iter().any(|i| i.access == Access::Contig) {
        v.push((format!("strided {ndim}"), program(true, 1).source("gc_ew")));
    }
    let any_array = b.leaves.iter().any(|l| matches!(l, Leaf::Array(_)));
    if matches!(out, DType::Float32 | DType::Float64) && any_array {
        v.push(("sum".to_string(), program(false, 1).sum_source("gc_sum")));
        v.push((
            format!("sum strided {ndim}"),
            program(true, 1).sum_source("gc_sum"),
        ));
    }
    v
}

/// The source `e` runs as on contiguous arrays of at least a vector's
/// elements (vectorised when its dtypes allow, else scalar): the one the
/// start-up warm-up compiles (`warm.rs`).
pub fn contiguous_source(e: &Expr, out: DType) -> Option<String> {
    let all = sources(e, out, 1);
    let pick = |p: &str| {
        all.iter()
            .find(|(w, _)| w.starts_with(p))
            .map(|(_, s)| s.clone())
    };
    pick("vector").or_else(|| pick("scalar"))
}

/// Launch `f` on `g`'s stream and check the launch (and, with launch_blocking, its completion).
pub fn launch(
    g: &Gpu,
    f: compile::Func,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u32,
    params: &mut [*mut c_void],
    what: &str,
) -> Result<()> {
    // SAFETY: params point at values of the types the kernel's signature names,
    // alive until this call returns (the driver copies them at launch).
    g.before_launch();
    unsafe { result::launch_kernel(f.f, grid, block, shared, g.stream, params) }
        .map_err(|e| g.err(e, &format!("launching {what}")))?;
    g.after_launch()
}

/// A contiguous copy of `a` (any view) converted to `dtype`, on its GPU.
pub fn copy(a: &Array, dtype: DType) -> Result<Array> {
    if a.dtype().is_complex() || dtype.is_complex() {
        return super::complex::convert(a, dtype);
    }
    eval(&Expr::Array(a.clone()), dtype, None, None)
}

/// `full(shape, v)` on GPU `dev`.
pub fn full(shape: &[usize], v: f64, dtype: DType, dev: u32) -> Result<Array> {
    if dtype.is_complex() {
        return super::complex::fill(shape, v, 0.0, dtype, dev);
    }
    let e = if dtype.is_float() {
        Expr::Float(v, dtype)
    } else {
        Expr::Int(v as i64, dtype)
    };
    eval(&e, dtype, Some(shape), Some(dev))
}

/// `shape` filled with `value` as `dtype` on GPU `dev` (a kernel that
/// stores the scalar, converted as the CPU converts it).
pub fn fill(shape: &[usize], value: Scalar, dtype: DType, dev: u32) -> Result<Array> {
    // The kernel's scalar parameter has the dtype's kind (a double for
    // floats, a 64-bit int otherwise): the value is converted to it here, as
    // the CPU converts (a float to an int truncates, to bool is `!= 0`).
    // Complex fills (and complex values stored as real: the real part, as
    // the CPU's `from_parts`) go to the complex kernels.
    if dtype.is_complex() || matches!(value, Scalar::Complex(..)) {
        let (re, im) = match value {
            Scalar::Complex(re, im) => (re, im),
            other => (other.as_f64(), 0.0),
        };
        return super::complex::fill(shape, re, im, dtype, dev);
    }
    let e = match (value, dtype.is_float()) {
        (Scalar::Float(f), true) => Expr::Float(f, dtype),
        (Scalar::Int(n), true) => Expr::Float(n as f64, dtype),
        (Scalar::Bool(b), true) => Expr::Float(b as i64 as f64, dtype),
        (Scalar::Float(f), false) if dtype.is_bool() => Expr::Int((f != 0.0) as i64, dtype),
        (Scalar::Float(f), false) => Expr::Int(f as i64, dtype),
        (Scalar::Int(n), false) if dtype.is_bool() => Expr::Int((n != 0) as i64, dtype),
        (Scalar::Int(n), false) => Expr::Int(n, dtype),
        (Scalar::Bool(b), false) => Expr::Int(b as i64, dtype),
        (Scalar::Complex(..), _) => {
            return Err(Error::internal("a complex fill reached the real kernel"));
        }
    };
    eval(&e, dtype, Some(shape), Some(dev))
}

/// Zero-filled array on GPU `dev` (a memset).
pub fn zeros(shape: &[usize], dtype: DType, dev: u32) -> Result<Array> {
    let g = gpu(dev)?;
    let n: usize = shape.iter().product();
    let buf = DeviceBuffer::alloc(&g, dtype, n)?;
    if n > 0 {
        g.before_launch();
        unsafe { result::memset_d8_async(buf.ptr_at(0), 0, n * dtype.size(), g.stream) }
            .map_err(|e| g.err(e, "filling zeros"))?;
        g.after_launch()?;
    }
    Ok(array_of(buf, shape.to_vec()))
}
