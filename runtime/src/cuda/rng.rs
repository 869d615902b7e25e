//! Random numbers made on the GPU: the Philox 4x32-10 kernel reproduces the
//! CPU generator's stream bit for bit (see runtime/src/random.rs), advancing
//! the session's counter by exactly what the CPU would use.

use super::buffer::{DeviceBuffer, array_of};
use super::compile;
use super::driver::gpu;
use super::ew::launch;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::random::Rng;
use std::ffi::c_void;

/// Uniform draws (`rand`, `uniform`) or normal draws (`randn`, `normal`) of
/// dtype float32/float64 on GPU `dev`: uniform in [a, b) (`a + (b - a) * u`), or `a + b * z`.
pub fn draw(
    rng: &mut Rng,
    shape: &[usize],
    dtype: DType,
    normal: bool,
    a: f64,
    b: f64,
    dev: u32,
) -> Result<Array> {
    let (kernel, dt) = match (dtype, normal) {
        (DType::Float32, false) => ("uniform_f32", 1),
        (DType::Float64, false) => ("uniform_f64", 2),
        (DType::Float32, true) => ("normal_f32", 1),
        (DType::Float64, true) => ("normal_f64", 2),
        _ => return Err(Error::internal("GPU random draws are float32/float64")),
    };
    let g = gpu(dev)?;
    let n: usize = shape.iter().product();
    // Words the CPU generator would use for this draw.
    let per = if dt == 2 { 2 } else { 1 };
    let words = if normal {
        n.div_ceil(2) * 2 * per
    } else {
        n * per
    };
    let f = compile::functions(&g, "philox", &[kernel], gcalc_kernels::cuda::philox_source)?[0];
    let out = DeviceBuffer::alloc(&g, dtype, n)?;
    if n > 0 {
        let mut o = out.ptr_at(0);
        let mut nn = n as u64;
        let mut c = rng.counter;
        let mut s = rng.key;
        let mut dti: i32 = dt;
        let (mut lo, mut hi) = (a, b);
        let mut params: Vec<*mut c_void> = vec![
            &mut o as *mut u64 as *mut c_void,
            &mut nn as *mut u64 as *mut c_void,
            &mut c as *mut u64 as *mut c_void,
            &mut s as *mut u64 as *mut c_void,
            &mut dti as *mut i32 as *mut c_void,
            &mut lo as *mut f64 as *mut c_void,
            &mut hi as *mut f64 as *mut c_void,
        ];
        let threads = if normal { n.div_ceil(2) } else { n };
        launch(
            &g,
            f,
            (threads.div_ceil(256) as u32, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "the random generator",
        )?;
    }
    rng.counter = rng.counter.wrapping_add(words.div_ceil(4) as u64);
    Ok(array_of(out, shape.to_vec()))
}
