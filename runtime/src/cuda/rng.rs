//! Random numbers made on the GPU: the Philox 4x32-10 kernel reproduces the
//! CPU generator's stream bit for bit (see runtime/src/random.rs), advancing
//! the session's counter by exactly what the CPU would use: uniform and
//! normal draws of float16/32/64, and randint (int64, cast on the device to
//! another dtype when asked).

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
/// dtype float16/32/64 on GPU `dev`: uniform in [a, b) (`a + (b - a) * u`), or `a + b * z`.
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
        (DType::Float16, false) => ("uniform_f16", 0),
        (DType::Float16, true) => ("normal_f16", 0),
        (DType::Float32, false) => ("uniform_f32", 1),
        (DType::Float64, false) => ("uniform_f64", 2),
        (DType::Float32, true) => ("normal_f32", 1),
        (DType::Float64, true) => ("normal_f64", 2),
        _ => return Err(Error::internal("GPU random draws are float16/32/64")),
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
    let f = philox(&g, kernel)?;
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

/// Every kernel of the Philox module (loaded once per device).
const KERNELS: [&str; 7] = [
    "uniform_f16",
    "uniform_f32",
    "uniform_f64",
    "normal_f16",
    "normal_f32",
    "normal_f64",
    "randint_i64",
];

fn philox(g: &super::driver::Gpu, kernel: &str) -> Result<compile::Func> {
    let k = KERNELS
        .iter()
        .position(|&n| n == kernel)
        .ok_or_else(|| Error::internal(format!("no random kernel {kernel}")))?;
    static LOADED: compile::Loaded<(), { KERNELS.len() }> = compile::Loaded::new();
    let fs = LOADED.get_or_load(g, (), || {
        compile::functions(g, "philox", &KERNELS, gcalc_kernels::cuda::philox_source)
    })?;
    Ok(fs[k])
}

/// `randint(lo, hi, shape)` on GPU `dev` (`lo < hi`), the CPU's values for
/// the same generator state, as `dtype` (made as int64, then cast like the CPU's `from_i64`).
pub fn randint(
    rng: &mut Rng,
    lo: i64,
    hi: i64,
    shape: &[usize],
    dtype: DType,
    dev: u32,
) -> Result<Array> {
    let g = gpu(dev)?;
    let n: usize = shape.iter().product();
    let r = (hi as i128 - lo as i128) as u64;
    let words = if r <= 1 << 32 { n } else { n * 2 };
    let out = DeviceBuffer::alloc(&g, DType::Int64, n)?;
    if n > 0 {
        let f = philox(&g, "randint_i64")?;
        let mut o = out.ptr_at(0);
        let mut nn = n as u64;
        let mut c = rng.counter;
        let mut s = rng.key;
        let mut l = lo;
        let mut rr = r;
        let mut params: Vec<*mut c_void> = vec![
            &mut o as *mut u64 as *mut c_void,
            &mut nn as *mut u64 as *mut c_void,
            &mut c as *mut u64 as *mut c_void,
            &mut s as *mut u64 as *mut c_void,
            &mut l as *mut i64 as *mut c_void,
            &mut rr as *mut u64 as *mut c_void,
        ];
        launch(
            &g,
            f,
            (n.div_ceil(256) as u32, 1, 1),
            (256, 1, 1),
            0,
            &mut params,
            "the random generator",
        )?;
    }
    rng.counter = rng.counter.wrapping_add(words.div_ceil(4) as u64);
    let a = array_of(out, shape.to_vec());
    if dtype == DType::Int64 {
        Ok(a)
    } else {
        super::ew::copy(&a, dtype)
    }
}
