//! Assembly kernels on a GPU (`kernels/src/cuda/assemble.cu`): the remap
//! gather behind `pad roll tile repeat take take_along_axis`, the adjoint of
//! an axis map (gradients) and `put_along_axis`'s writes. The maps go up as
//! one small int64 buffer per call (a few fields per axis, then the axis
//! tables: their size is the sum of the axes' lengths, not the number of
//! elements); index arrays already on the GPU are read where they are.

use super::buffer::{DeviceBuffer, array_buffer, array_of, upload};
use super::compile;
use super::driver::{Gpu, gpu};
use super::ew::launch;
use crate::array::{Array, Scalar};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::assemble::{AxisMap, IndexMode, PadMode, Remap, Segments};
use std::ffi::c_void;
use std::sync::Arc;

const BLOCK: u32 = 256;
/// Fields per axis of a remap's meta (`GC_RM_FIELDS`) and the most axes.
const FIELDS: usize = 7;
const MAX_DIMS: usize = 64;

/// Every kernel of `assemble.cu` (one module, loaded once per device).
const KERNELS: [&str; 13] = [
    "remap_1",
    "remap_2",
    "remap_4",
    "remap_8",
    "remap_16",
    "put_along_1",
    "put_along_2",
    "put_along_4",
    "put_along_8",
    "put_along_16",
    "axis_sum_f16",
    "axis_sum_f32",
    "axis_sum_f64",
];

fn function(g: &Gpu, name: &str) -> Result<compile::Func> {
    let k = KERNELS
        .iter()
        .position(|&n| n == name)
        .ok_or_else(|| Error::internal(format!("no assembly kernel {name}")))?;
    static LOADED: compile::Loaded<(), { KERNELS.len() }> = compile::Loaded::new();
    let fs = LOADED.get_or_load(g, (), || {
        compile::functions(g, "assemble", &KERNELS, || {
            gcalc_kernels::cuda::ASSEMBLE.to_string()
        })
    })?;
    Ok(fs[k])
}

fn gpu_of(a: &Array) -> Result<Arc<Gpu>> {
    match a.device() {
        Device::Gpu(i) => gpu(i),
        Device::Cpu => Err(Error::internal("cuda assembly on a CPU array")),
    }
}

fn blocks(n: usize) -> (u32, u32, u32) {
    ((n.div_ceil(BLOCK as usize) as u32).max(1), 1, 1)
}

/// The bits of `s` as an element of `d`, zero-extended (what the kernels
/// store for a fill). A complex64 fill is its two float32 words; a
/// complex128 fill carries only its real part (the kernels' 16-byte element
/// takes a 64-bit fill as its low word), so a non-zero imaginary part is refused.
fn fill_bits(s: Scalar, d: DType) -> Result<i64> {
    let bits: u64 = match d {
        DType::Bool => s.to_elem::<bool>() as u64,
        DType::Int32 => s.to_elem::<i32>() as u32 as u64,
        DType::Int64 => s.to_elem::<i64>() as u64,
        DType::Float16 => s.to_elem::<half::f16>().to_bits() as u64,
        DType::Float32 => s.to_elem::<f32>().to_bits() as u64,
        DType::Float64 => s.to_elem::<f64>().to_bits(),
        DType::Complex64 => {
            let z = s.to_elem::<crate::array::Cf32>();
            u64::from(z.re.to_bits()) | (u64::from(z.im.to_bits()) << 32)
        }
        DType::Complex128 => {
            let z = s.to_elem::<crate::array::Cf64>();
            if z.im != 0.0 {
                return Err(Error::value(
                    "a complex128 fill with an imaginary part is not supported on the GPU",
                )
                .with_help("compute it on the CPU: to(x, cpu)"));
            }
            z.re.to_bits()
        }
    };
    Ok(bits as i64)
}

fn too_many_dims(nd: usize, op: &str) -> Error {
    Error::value(format!(
        "{op} of an array of {nd} dimensions is not supported on the GPU (at most {MAX_DIMS})"
    ))
    .with_help("reshape to fewer dimensions first")
}

/// `out[c] = src[map_0(c_0), ...]` or the fill of the last axis whose map
/// gives one, as a new contiguous GPU array of `m.shape` on `src`'s GPU.
pub fn remap(src: &Array, m: &Remap) -> Result<Array> {
    let g = gpu_of(src)?;
    let nd = m.shape.len();
    if src.ndim() != nd || m.axes.len() != nd || m.fill.len() != nd {
        return Err(Error::internal("remap: the maps do not match the source"));
    }
    if nd > MAX_DIMS {
        return Err(too_many_dims(nd, "this assembly"));
    }
    let n: usize = m.shape.iter().product();
    let out = DeviceBuffer::alloc(&g, src.dtype(), n)?;
    if n == 0 {
        return Ok(array_of(out, m.shape.clone()));
    }
    let mut meta: Vec<i64> = vec![0; FIELDS * nd];
    let mut ext: Option<&Array> = None;
    for d in 0..nd {
        let (kind, arg) = match &m.axes[d] {
            AxisMap::Same => (0, 0),
            AxisMap::Table(t) => {
                let at = meta.len() as i64;
                meta.extend_from_slice(t);
                (1, at)
            }
            AxisMap::Indices { idx, mode } => {
                ext = Some(external(ext, idx)?);
                let kind = match mode {
                    IndexMode::Raise => 2,
                    IndexMode::Wrap => 3,
                    IndexMode::Clip => 4,
                };
                (kind, 0)
            }
            AxisMap::PerElement(idx) => {
                ext = Some(external(ext, idx)?);
                (5, 0)
            }
            AxisMap::Roll { shift } => (6, *shift),
            AxisMap::Div { by } => (7, *by),
            AxisMap::Pad { before, mode } => {
                let kind = match mode {
                    PadMode::Constant => 8,
                    PadMode::Edge => 9,
                    PadMode::Reflect => 10,
                    PadMode::Symmetric => 11,
                };
                (kind, *before)
            }
        };
        let f = &mut meta[FIELDS * d..FIELDS * (d + 1)];
        f[0] = m.shape[d] as i64;
        f[1] = src.strides()[d] as i64;
        f[2] = kind;
        f[3] = arg;
        f[4] = src.shape()[d] as i64;
        f[5] = fill_bits(m.fill[d][0], src.dtype())?;
        f[6] = fill_bits(m.fill[d][1], src.dtype())?;
    }
    let len = meta.len();
    let meta = upload(&Array::from_vec(meta, vec![len]), g.ordinal)?;
    let f = function(&g, &format!("remap_{}", src.dtype().size()))?;
    let mut po = out.ptr_at(0);
    let mut nn = n as i64;
    let mut ps = array_buffer(src)?.ptr_at(src.offset());
    let mut nd32 = nd as i32;
    let mut pm = array_buffer(&meta)?.ptr_at(0);
    let mut pe = match ext {
        Some(e) => array_buffer(e)?.ptr_at(e.offset()),
        None => 0,
    };
    let mut params: Vec<*mut c_void> = vec![
        &mut po as *mut u64 as *mut c_void,
        &mut nn as *mut i64 as *mut c_void,
        &mut ps as *mut u64 as *mut c_void,
        &mut nd32 as *mut i32 as *mut c_void,
        &mut pm as *mut u64 as *mut c_void,
        &mut pe as *mut u64 as *mut c_void,
    ];
    launch(&g, f, blocks(n), (BLOCK, 1, 1), 0, &mut params, "a remap")?;
    Ok(array_of(out, m.shape.clone()))
}

/// The one index array a remap reads on the device: contiguous int64.
fn external<'a>(prev: Option<&Array>, idx: &'a Array) -> Result<&'a Array> {
    if prev.is_some() {
        return Err(Error::internal("remap: more than one index array"));
    }
    if idx.dtype() != DType::Int64 || !idx.is_contiguous() {
        return Err(Error::internal(
            "remap: the index array is not contiguous int64",
        ));
    }
    Ok(idx)
}

/// The adjoint of an axis map (see `cpu::assemble::axis_sum`): float `g`'s
/// axis `axis` summed into `seg.n` coordinates, in float64 per output
/// element, in a fixed order, rounded once to `g`'s dtype.
pub fn axis_sum(g: &Array, axis: usize, seg: &Segments) -> Result<Array> {
    let gp = gpu_of(g)?;
    let name = match g.dtype() {
        DType::Float16 => "axis_sum_f16",
        DType::Float32 => "axis_sum_f32",
        DType::Float64 => "axis_sum_f64",
        d => return Err(Error::internal(format!("axis_sum of {d}"))),
    };
    let g = if g.is_contiguous() {
        g.clone()
    } else {
        super::ew::copy(g, g.dtype())?
    };
    let shape = g.shape();
    let m = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out_shape = shape.to_vec();
    out_shape[axis] = seg.n;
    let n_out: usize = out_shape.iter().product();
    let out = DeviceBuffer::alloc(&gp, g.dtype(), n_out)?;
    if n_out == 0 {
        return Ok(array_of(out, out_shape));
    }
    let mut lists = seg.starts.clone();
    lists.extend_from_slice(&seg.members);
    let len = lists.len();
    let lists = upload(&Array::from_vec(lists, vec![len]), gp.ordinal)?;
    let f = function(&gp, name)?;
    let lb = array_buffer(&lists)?;
    let mut po = out.ptr_at(0);
    let mut nn = n_out as i64;
    let mut pg = array_buffer(&g)?.ptr_at(g.offset());
    let (mut mm, mut n, mut inn) = (m as i64, seg.n as i64, inner as i64);
    let mut pst = lb.ptr_at(0);
    let mut pme = lb.ptr_at(seg.starts.len());
    let mut params: Vec<*mut c_void> = vec![
        &mut po as *mut u64 as *mut c_void,
        &mut nn as *mut i64 as *mut c_void,
        &mut pg as *mut u64 as *mut c_void,
        &mut mm as *mut i64 as *mut c_void,
        &mut n as *mut i64 as *mut c_void,
        &mut inn as *mut i64 as *mut c_void,
        &mut pst as *mut u64 as *mut c_void,
        &mut pme as *mut u64 as *mut c_void,
    ];
    launch(
        &gp,
        f,
        blocks(n_out),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "an axis sum",
    )?;
    Ok(array_of(out, out_shape))
}

/// `put_along_axis` on a GPU view (see `cpu::assemble::put_along`): one
/// thread per combination of the coordinates that never share a target,
/// each writing its others in C order (the last write wins, as on the CPU).
pub fn put_along(arr: &Array, idx: &Array, vals: &Array, axis: usize) -> Result<()> {
    let g = gpu_of(arr)?;
    let shape = idx.shape();
    let nd = shape.len();
    let total: usize = shape.iter().product();
    if total == 0 {
        return Ok(());
    }
    if idx.dtype() != DType::Int64 || !idx.is_contiguous() || !vals.is_contiguous() {
        return Err(Error::internal(
            "put_along: indices or values not contiguous",
        ));
    }
    let sst = crate::array::layout::contiguous_strides(shape);
    let mut meta: Vec<i64> = Vec::with_capacity(4 * nd);
    let (mut nfree, mut nserial) = (1usize, 1usize);
    for d in 0..nd {
        let st = arr.strides()[d];
        let serial = d == axis || (st == 0 && shape[d] > 1);
        if serial {
            nserial *= shape[d];
        } else {
            nfree *= shape[d];
        }
        meta.extend_from_slice(&[shape[d] as i64, st as i64, sst[d] as i64, serial as i64]);
    }
    let meta = upload(&Array::from_vec(meta, vec![4 * nd]), g.ordinal)?;
    let f = function(&g, &format!("put_along_{}", arr.dtype().size()))?;
    let mut pa = array_buffer(arr)?.ptr_at(arr.offset());
    let mut nf = nfree as i64;
    let mut pv = array_buffer(vals)?.ptr_at(vals.offset());
    let mut pi = array_buffer(idx)?.ptr_at(idx.offset());
    let mut nd32 = nd as i32;
    let mut pm = array_buffer(&meta)?.ptr_at(0);
    let mut ax = axis as i32;
    let mut na = arr.shape()[axis] as i64;
    let mut ns = nserial as i64;
    let mut params: Vec<*mut c_void> = vec![
        &mut pa as *mut u64 as *mut c_void,
        &mut nf as *mut i64 as *mut c_void,
        &mut pv as *mut u64 as *mut c_void,
        &mut pi as *mut u64 as *mut c_void,
        &mut nd32 as *mut i32 as *mut c_void,
        &mut pm as *mut u64 as *mut c_void,
        &mut ax as *mut i32 as *mut c_void,
        &mut na as *mut i64 as *mut c_void,
        &mut ns as *mut i64 as *mut c_void,
    ];
    launch(
        &g,
        f,
        blocks(nfree),
        (BLOCK, 1, 1),
        0,
        &mut params,
        "put_along_axis",
    )
}
