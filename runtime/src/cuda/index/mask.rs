//! A mask's true positions on a GPU (`kernels/src/cuda/mask.cu`): count
//! per chunk, scan the counts, read the total (the result's length: the one
//! wait, 8 bytes, which NumPy's and CuPy's `x[mask]` need as well), write
//! the positions. The mask never leaves the device.

use super::super::buffer::{DeviceBuffer, array_buffer, array_of};
use super::super::compile;
use super::super::ew::launch;
use super::{arg, gpu_of};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};

const THREADS: u32 = 256;
const CHUNK: usize = 4096;
const KERNELS: [&str; 3] = ["mask_count", "mask_scan", "mask_positions"];

/// The C-order flat positions of `mask`'s true elements (1-d int64 on its GPU).
pub fn nonzero(mask: &Array) -> Result<Array> {
    let g = gpu_of(mask)?;
    let n = mask.size();
    if n == 0 {
        return Ok(array_of(DeviceBuffer::alloc(&g, DType::Int64, 0)?, vec![0]));
    }
    let m = match mask.is_contiguous() {
        true => mask.clone(),
        false => super::super::ew::copy(mask, DType::Bool)?,
    };
    static LOADED: compile::Loaded<(), 3> = compile::Loaded::new();
    let fs = LOADED.get_or_load(&g, (), || {
        compile::functions(&g, "mask", &KERNELS, || {
            gcalc_kernels::cuda::MASK.to_string()
        })
    })?;
    let nb = n.div_ceil(CHUNK);
    let part = DeviceBuffer::alloc(&g, DType::Int64, nb + 1)?;
    let mut pm = array_buffer(&m)?.ptr_at(m.offset());
    let mut nn = n as i64;
    let mut pp = part.ptr_at(0);
    let mut nbl = nb as i64;
    let grid = (nb as u32, 1, 1);
    let mut params = vec![arg(&mut pm), arg(&mut nn), arg(&mut pp)];
    launch(
        &g,
        fs[0],
        grid,
        (THREADS, 1, 1),
        0,
        &mut params,
        "a mask count",
    )?;
    let mut params = vec![arg(&mut pp), arg(&mut nbl)];
    launch(
        &g,
        fs[1],
        (1, 1, 1),
        (1024, 1, 1),
        0,
        &mut params,
        "a mask scan",
    )?;
    let part = array_of(part, vec![nb + 1]);
    let total = part
        .view(Vec::<usize>::new(), Vec::<isize>::new(), nb)
        .to_host()?;
    let count = total.to_vec::<i64>()?.first().copied().unwrap_or(0);
    if count < 0 || count as usize > n {
        return Err(Error::internal(format!(
            "mask count {count} of {n} elements"
        )));
    }
    let count = count as usize;
    let out = DeviceBuffer::alloc(&g, DType::Int64, count)?;
    if count > 0 {
        let mut pp = array_buffer(&part)?.ptr_at(0);
        let mut po = out.ptr_at(0);
        let mut params = vec![arg(&mut pm), arg(&mut nn), arg(&mut pp), arg(&mut po)];
        launch(
            &g,
            fs[2],
            grid,
            (THREADS, 1, 1),
            0,
            &mut params,
            "a mask's positions",
        )?;
    }
    Ok(array_of(out, vec![count]))
}
