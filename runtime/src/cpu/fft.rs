//! 1-d FFTs along an axis on the host, through rustfft (complex) and
//! realfft (real input, half the work): the axis moved last and made
//! contiguous, each row cut or zero-padded to the transform's length, rows
//! transformed in parallel batches (one plan, a scratch buffer per task),
//! scaled, and the axis moved back. float32 data is transformed in f32
//! (complex64), float64 in f64, as NumPy 2's pocketfft does.

use crate::array::{Array, Element, alloc};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::{FftJob, FftKind};
use num_complex::Complex;
use rayon::prelude::*;
use realfft::RealFftPlanner;
use rustfft::{FftNum, FftPlanner};

/// Rows per parallel task: enough work to amortise a task (at least 64K
/// elements), a single task for small arrays.
fn rows_per_task(rows: usize, len: usize) -> usize {
    (65_536 / len.max(1)).clamp(1, rows.max(1))
}

/// `job` over `x`, giving dtype `out` (complex, or real for `C2r`).
pub fn run(x: &Array, job: FftJob, out: DType) -> Result<Array> {
    match out {
        DType::Complex64 | DType::Float32 => go::<f32>(x, job, out),
        _ => go::<f64>(x, job, out),
    }
}

fn go<T>(x: &Array, job: FftJob, out: DType) -> Result<Array>
where
    T: FftNum + Element,
    Complex<T>: Element,
{
    let nd = x.ndim();
    let mut perm: Vec<i64> = (0..nd as i64).filter(|&d| d as usize != job.axis).collect();
    perm.push(job.axis as i64);
    let moved = x.transpose(Some(&perm))?;
    let len = moved.shape()[nd - 1];
    let rows: usize = moved.shape()[..nd - 1].iter().product();
    let (nin, nout) = (job.len_in(), job.len_out());
    let mut shape: Vec<usize> = moved.shape().to_vec();
    shape[nd - 1] = nout;
    let scale = <T as Element>::from_f64(job.scale());
    let cut = len.min(nin);
    let stop = crate::interrupt::Stop::current();
    let per = rows_per_task(rows, nin.max(nout));
    let data = match job.kind {
        FftKind::C2c { inverse } => {
            let src = moved.to_vec::<Complex<T>>()?;
            let mut buf = alloc::filled::<Complex<T>>(&[rows, job.n])?;
            let plan = if inverse {
                FftPlanner::<T>::new().plan_fft_inverse(job.n)
            } else {
                FftPlanner::<T>::new().plan_fft_forward(job.n)
            };
            buf.par_chunks_mut(per * job.n)
                .enumerate()
                .try_for_each(|(t, chunk)| {
                    stop.check()?;
                    for (r, row) in chunk.chunks_mut(job.n).enumerate() {
                        let s = (t * per + r) * len;
                        row[..cut].copy_from_slice(&src[s..s + cut]);
                    }
                    let mut scratch =
                        vec![Complex::new(T::zero(), T::zero()); plan.get_inplace_scratch_len()];
                    plan.process_with_scratch(chunk, &mut scratch);
                    if job.scale() != 1.0 {
                        chunk.iter_mut().for_each(|v| *v = *v * scale);
                    }
                    Ok::<(), Error>(())
                })?;
            <Complex<T>>::wrap(buf)
        }
        FftKind::R2c => {
            let src = moved.to_vec::<T>()?;
            let mut buf = alloc::filled::<Complex<T>>(&[rows, nout])?;
            let plan = RealFftPlanner::<T>::new().plan_fft_forward(job.n);
            buf.par_chunks_mut(per * nout)
                .enumerate()
                .try_for_each(|(t, chunk)| {
                    stop.check()?;
                    let mut input = plan.make_input_vec();
                    let mut scratch = plan.make_scratch_vec();
                    for (r, row) in chunk.chunks_mut(nout).enumerate() {
                        let s = (t * per + r) * len;
                        input[..cut].copy_from_slice(&src[s..s + cut]);
                        input[cut..].iter_mut().for_each(|v| *v = T::zero());
                        plan.process_with_scratch(&mut input, row, &mut scratch)
                            .map_err(|e| Error::internal(format!("rfft: {e}")))?;
                        if job.scale() != 1.0 {
                            row.iter_mut().for_each(|v| *v = *v * scale);
                        }
                    }
                    Ok::<(), Error>(())
                })?;
            <Complex<T>>::wrap(buf)
        }
        FftKind::C2r => {
            let src = moved.to_vec::<Complex<T>>()?;
            let mut buf = alloc::filled::<T>(&[rows, nout])?;
            let plan = RealFftPlanner::<T>::new().plan_fft_inverse(job.n);
            buf.par_chunks_mut(per * nout)
                .enumerate()
                .try_for_each(|(t, chunk)| {
                    stop.check()?;
                    let mut input = plan.make_input_vec();
                    let mut scratch = plan.make_scratch_vec();
                    for (r, row) in chunk.chunks_mut(nout).enumerate() {
                        let s = (t * per + r) * len;
                        input[..cut].copy_from_slice(&src[s..s + cut]);
                        input[cut..]
                            .iter_mut()
                            .for_each(|v| *v = Complex::new(T::zero(), T::zero()));
                        // NumPy (pocketfft) ignores the imaginary parts of the
                        // zero and Nyquist terms; realfft requires them 0.
                        input[0].im = T::zero();
                        if job.n.is_multiple_of(2) {
                            input[nin - 1].im = T::zero();
                        }
                        plan.process_with_scratch(&mut input, row, &mut scratch)
                            .map_err(|e| Error::internal(format!("irfft: {e}")))?;
                        if job.scale() != 1.0 {
                            row.iter_mut().for_each(|v| *v = *v * scale);
                        }
                    }
                    Ok::<(), Error>(())
                })?;
            T::wrap(buf)
        }
    };
    debug_assert_eq!(data.dtype(), out);
    let res = Array::from_host(data, shape);
    let mut back = vec![0i64; nd];
    for (i, &p) in perm.iter().enumerate() {
        back[p as usize] = i as i64;
    }
    res.transpose(Some(&back))?.contiguous()
}
