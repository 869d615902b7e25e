//! Matrix decompositions on the CPU through faer (the pure-Rust dense linear
//! algebra crate, built on the `gemm` crate that matmul uses): LU for solve,
//! inv, det and slogdet (`lu.rs`), Cholesky and QR (`factor.rs`), SVD and the
//! self-adjoint eigendecomposition (`spectral.rs`). Each works on a stack of
//! matrices (the last two dims of a contiguous host array): a stack of small
//! matrices runs one matrix per rayon task, a large matrix gets faer's own
//! parallelism over every core (`Par::rayon(0)`).
//!
//! The code is generic over faer's `ComplexField` (values like singular
//! values and eigenvalues are its `Real`), so complex dtypes add arms to
//! `run`, not new algorithms.

mod factor;
mod lu;
mod spectral;

use crate::array::{Array, Element};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::opid::DecompOp;
use faer::traits::ComplexField;
use faer::{MatMut, MatRef, Par};
use rayon::prelude::*;

/// A scalar faer computes with that is also a gcalc element (float32 and
/// float64 today; complex64/complex128 when they are dtypes).
pub(crate) trait Field: ComplexField + Element
where
    Self::Real: Element,
{
}
impl<T: ComplexField + Element> Field for T where T::Real: Element {}

/// `v` as `T`'s real type.
fn re<T: Field>(v: f64) -> T::Real
where
    T::Real: Element,
{
    <T::Real as Element>::from_f64(v)
}

/// `op` on host arrays of one float dtype whose last two dims are the
/// matrices (shapes checked by the caller; batch dims already equal).
pub fn run(op: DecompOp, inputs: &[Array]) -> Result<Vec<Array>> {
    let a = inputs
        .first()
        .ok_or_else(|| Error::internal("decomposition without an input"))?;
    match a.dtype() {
        DType::Float32 => run_t::<f32>(op, inputs),
        DType::Float64 => run_t::<f64>(op, inputs),
        d => Err(Error::internal(format!(
            "{}: dtype {d} reached the CPU backend",
            op.name()
        ))),
    }
}

fn run_t<T: Field>(op: DecompOp, inputs: &[Array]) -> Result<Vec<Array>>
where
    T::Real: Element,
{
    let arrays: Vec<Array> = inputs
        .iter()
        .map(Array::contiguous)
        .collect::<Result<_>>()?;
    let guards = arrays
        .iter()
        .map(Array::host_read)
        .collect::<Result<Vec<_>>>()?;
    let mats: Vec<Mats<T>> = arrays
        .iter()
        .zip(&guards)
        .map(|(a, g)| {
            let data = T::slice(g).ok_or_else(|| Error::internal("decomposition: input dtype"))?;
            Mats::new(a, data)
        })
        .collect::<Result<_>>()?;
    match op {
        DecompOp::Solve { check } => lu::solve(op, &mats[0], &mats[1], check),
        DecompOp::Inv { check } => lu::inv(op, &mats[0], check),
        DecompOp::Det => lu::det(&mats[0], false),
        DecompOp::Slogdet => lu::det(&mats[0], true),
        DecompOp::Cholesky { upper } => factor::cholesky(op, &mats[0], upper),
        DecompOp::Qr { mode } => factor::qr(&mats[0], mode),
        DecompOp::Svd { full, uv } => spectral::svd(op, &mats[0], full, uv),
        DecompOp::Eigh { upper, vectors } => spectral::eigh(op, &mats[0], upper, vectors),
    }
}

/// A stack of row-major matrices: a contiguous host array's elements.
pub(crate) struct Mats<'a, T> {
    data: &'a [T],
    /// The array's shape (batch dims, rows, cols).
    pub shape: Vec<usize>,
    pub rows: usize,
    pub cols: usize,
    pub count: usize,
}

impl<'a, T: Element> Mats<'a, T> {
    fn new(a: &Array, data: &'a [T]) -> Result<Mats<'a, T>> {
        let nd = a.ndim();
        if nd < 2 {
            return Err(Error::internal(
                "decomposition of an array of fewer than 2 dims",
            ));
        }
        let shape = a.shape().to_vec();
        let (rows, cols) = (shape[nd - 2], shape[nd - 1]);
        Ok(Mats {
            data,
            count: shape[..nd - 2].iter().product(),
            shape,
            rows,
            cols,
        })
    }

    /// Matrix `i` as a faer view (row-major).
    pub fn get(&self, i: usize) -> MatRef<'_, T> {
        let n = self.rows * self.cols;
        MatRef::from_row_major_slice(&self.data[i * n..(i + 1) * n], self.rows, self.cols)
    }

    /// The batch dims followed by `tail` (an output's shape).
    pub fn shape_with(&self, tail: &[usize]) -> Vec<usize> {
        let mut s = self.shape[..self.shape.len() - 2].to_vec();
        s.extend_from_slice(tail);
        s
    }
}

/// An output of a batch: one buffer in equal chunks, one per matrix, which
/// tasks fill in parallel (each chunk handed to one task only).
pub(crate) struct Out<U> {
    buf: Vec<U>,
    shape: Vec<usize>,
    chunk: usize,
}

impl<U: Element> Out<U> {
    /// A zeroed output of `shape` whose last `tail_dims` dims are one matrix's part.
    pub fn new(shape: Vec<usize>, tail_dims: usize) -> Result<Out<U>> {
        let n = crate::array::alloc::checked_numel(&shape, U::DTYPE)?;
        let chunk = shape[shape.len() - tail_dims..].iter().product();
        let mut buf = Vec::new();
        buf.try_reserve_exact(n).map_err(|_| {
            Error::new(
                crate::error::ErrorKind::OutOfMemory,
                format!(
                    "the result of shape {} needs more memory than the host can give",
                    crate::array::layout::fmt_shape(&shape)
                ),
            )
        })?;
        buf.resize(n, U::default());
        Ok(Out { buf, shape, chunk })
    }

    pub fn into_array(self) -> Array {
        Array::from_vec(self.buf, self.shape)
    }

    fn slots(&mut self) -> Slots<U> {
        Slots {
            ptr: self.buf.as_mut_ptr(),
            chunk: self.chunk,
        }
    }
}

/// Raw access to an `Out`'s chunks from parallel tasks.
pub(crate) struct Slots<U> {
    ptr: *mut U,
    chunk: usize,
}
// SAFETY: tasks receive distinct chunk indices (`batch` hands each index to
// one call), so no two threads touch the same elements.
unsafe impl<U: Send> Send for Slots<U> {}
unsafe impl<U: Send> Sync for Slots<U> {}

impl<U> Slots<U> {
    /// Chunk `i`. SAFETY: the caller is the only user of index `i`, and `i`
    /// is below the output's chunk count.
    #[allow(clippy::mut_from_ref)]
    unsafe fn chunk(&self, i: usize) -> &mut [U] {
        // SAFETY: in bounds and exclusive by the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(i * self.chunk), self.chunk) }
    }

    /// Chunk `i` as a row-major `rows` x `cols` matrix.
    /// SAFETY: as `chunk`; rows * cols is the chunk size.
    unsafe fn mat(&self, i: usize, rows: usize, cols: usize) -> MatMut<'_, U> {
        // SAFETY: as `chunk`.
        let c = unsafe { self.chunk(i) };
        MatMut::from_row_major_slice_mut(c, rows, cols)
    }
}

/// Above this many rows a matrix is factored with every core; at or below,
/// a stack runs one matrix per task.
const SMALL: usize = 96;

/// Run `f(i, par)` for each of `count` matrices of `dim` rows or columns;
/// the first failing matrix's error (in batch order) is returned.
fn batch(count: usize, dim: usize, f: impl Fn(usize, Par) -> Result<()> + Sync) -> Result<()> {
    if count > 1 && dim <= SMALL {
        let errs: Vec<Error> = (0..count)
            .into_par_iter()
            .filter_map(|i| f(i, Par::Seq).err())
            .collect();
        return errs.into_iter().next().map_or(Ok(()), Err);
    }
    (0..count).try_for_each(|i| f(i, Par::rayon(0)))
}
