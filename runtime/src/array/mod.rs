//! The n-dimensional array: a shared buffer on some device plus a view
//! (dtype, shape, strides in elements, offset). Slicing, transposing and most
//! reshapes make new views of the same buffer, as in NumPy. Shape and strides
//! are held inline up to 4 dims (`Dims`), so making or cloning a view of such
//! an array does not touch the heap.

pub mod alloc;
pub mod create;
pub mod host;
pub mod index;
pub mod layout;
pub mod print;
pub mod print_options;
mod scalar;
pub mod select;
pub mod shape_ops;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
pub use host::{Cf32, Cf64, Element, HostData};
pub use scalar::Scalar;
use smallvec::SmallVec;
use std::sync::{Arc, RwLock};

/// A view's shape: inline up to 4 dims, on the heap beyond.
pub type Dims = SmallVec<[usize; 4]>;
/// A view's strides (in elements), held like `Dims`.
pub type Strides = SmallVec<[isize; 4]>;

/// Where the elements live. A GPU buffer is the CUDA backend's type (the one
/// name of a backend in the data layer). Only the dispatch layer looks inside:
/// the methods that depend on where the elements are (`Storage::device`,
/// `Array::host_read`, `host_write`, `to_host`, `contiguous`, `buffer_len`)
/// are in `backend/storage.rs`.
pub enum Storage {
    Host(RwLock<HostData>),
    Cuda(crate::cuda::DeviceBuffer),
}

pub struct Array {
    storage: Arc<Storage>,
    dtype: DType,
    shape: Dims,
    strides: Strides,
    offset: usize,
    /// The autodiff tape node that produced this array (0: untracked). Only
    /// meaningful to the tape that wrote it (`autodiff::Tape`); views and op
    /// results start untracked.
    node: u64,
}

/// A copy of inline dims without `SmallVec`'s generic clone (which goes
/// element by element through `extend`) or a `memcpy` call.
#[inline(always)]
fn copy_dims<T: Copy + Default>(s: &SmallVec<[T; 4]>) -> SmallVec<[T; 4]> {
    if s.spilled() {
        return SmallVec::from_slice(s);
    }
    let mut buf = [T::default(); 4];
    for (b, &x) in buf.iter_mut().zip(s.iter()) {
        *b = x;
    }
    SmallVec::from_buf_and_len(buf, s.len())
}

impl Clone for Array {
    #[inline]
    fn clone(&self) -> Array {
        Array {
            storage: self.storage.clone(),
            dtype: self.dtype,
            shape: copy_dims(&self.shape),
            strides: copy_dims(&self.strides),
            offset: self.offset,
            node: self.node,
        }
    }
}

impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Array<{:?} {} @{}>",
            self.shape,
            self.dtype,
            self.device()
        )
    }
}

impl Array {
    /// A contiguous host array owning `data`, of the given shape (a `Vec`,
    /// `Dims` or slice; a `Vec` of up to 4 dims is moved inline and freed).
    pub fn from_host(data: HostData, shape: impl Into<Dims>) -> Array {
        let shape = shape.into();
        debug_assert_eq!(data.len(), shape.iter().product::<usize>());
        let dtype = data.dtype();
        let strides = layout::contiguous_strides_dims(&shape);
        Array {
            storage: Arc::new(Storage::Host(RwLock::new(data))),
            dtype,
            shape,
            strides,
            offset: 0,
            node: 0,
        }
    }
    pub fn from_vec<T: Element>(v: Vec<T>, shape: impl Into<Dims>) -> Array {
        Array::from_host(T::wrap(v), shape)
    }
    /// A 0-d host array.
    pub fn scalar<T: Element>(v: T) -> Array {
        Array::from_vec(vec![v], Dims::new())
    }
    pub fn from_storage(storage: Arc<Storage>, dtype: DType, shape: impl Into<Dims>) -> Array {
        let shape = shape.into();
        let strides = layout::contiguous_strides_dims(&shape);
        Array {
            storage,
            dtype,
            shape,
            strides,
            offset: 0,
            node: 0,
        }
    }
    /// A view of the same buffer with another layout. The caller guarantees the
    /// layout stays inside the buffer.
    pub fn view(
        &self,
        shape: impl Into<Dims>,
        strides: impl Into<Strides>,
        offset: usize,
    ) -> Array {
        Array {
            storage: self.storage.clone(),
            dtype: self.dtype,
            shape: shape.into(),
            strides: strides.into(),
            offset,
            node: 0,
        }
    }

    /// The autodiff tape node of this array (0: untracked).
    pub fn node(&self) -> u64 {
        self.node
    }
    /// This array tagged with an autodiff tape node (same buffer, same view).
    pub fn with_node(mut self, node: u64) -> Array {
        self.node = node;
        self
    }

    pub fn dtype(&self) -> DType {
        self.dtype
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }
    pub fn offset(&self) -> usize {
        self.offset
    }
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn nbytes(&self) -> usize {
        self.size() * self.dtype.size()
    }
    pub fn device(&self) -> Device {
        self.storage.device()
    }
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }
    /// C-contiguous (row-major, no gaps).
    pub fn is_contiguous(&self) -> bool {
        layout::is_contiguous(&self.shape, &self.strides)
    }
    /// The same buffer and the same view: what `is` compares.
    pub fn same_as(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
            && self.shape == other.shape
            && self.strides == other.strides
            && self.offset == other.offset
            && self.dtype == other.dtype
    }
    /// Whether two arrays share a buffer (writes through one are seen by the other).
    pub fn shares_buffer(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// The element offsets of this view in C order.
    pub fn offsets(&self) -> layout::OffsetIter {
        layout::OffsetIter::new(&self.shape, &self.strides, self.offset)
    }

    /// A contiguous host copy of the elements as `T` (converting dtype if needed).
    /// GPU arrays are copied to the host first (a sync point).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let h = self.to_host()?;
        let d = h.host_read()?;
        let mut out = alloc::try_vec::<T>(h.size(), &format!("{} elements", T::DTYPE))?;
        let stop = crate::interrupt::Stop::current();
        crate::with_dtype!(h.dtype, S => {
            let s = S::slice(&d).ok_or_else(|| Error::internal("dtype mismatch in to_vec"))?;
            if h.size() == 0 {
                // A view of nothing may have an offset past an empty buffer.
            } else if h.is_contiguous() {
                let s = &s[h.offset..h.offset + h.size()];
                for c in s.chunks(1 << 22) {
                    stop.check()?;
                    out.extend(c.iter().map(|&x| convert::<S, T>(x)));
                }
            } else {
                // Tiled over the last two axes (a transposed view reads in L1).
                stop.check()?;
                out.resize(h.size(), T::default());
                gcalc_kernels::cpu::tile::gather(s, &h.shape[..], &h.strides[..], h.offset, &mut out, convert::<S, T>);
            }
        });
        // An interrupt ends the copy early: the partial copy is dropped.
        stop.check()?;
        Ok(out)
    }
    pub fn to_f64_vec(&self) -> Result<Vec<f64>> {
        self.to_vec::<f64>()
    }

    /// Flat element at C-order position `i` as f64 (of a GPU array: that one
    /// element is copied to the host, a sync point).
    pub fn get_f64(&self, i: usize) -> Result<f64> {
        let off = layout::offset_of_flat(&self.shape, &self.strides, self.offset, i);
        // A host array is read where it is; of a GPU array that one element
        // is copied (a sync point).
        let one = self.view(vec![], vec![], off).to_host()?;
        Ok(one.host_read()?.get_f64(one.offset()))
    }
}

#[inline(always)]
pub fn convert<S: Element, T: Element>(x: S) -> T {
    if S::DTYPE.is_complex() || T::DTYPE.is_complex() {
        // NumPy: to a real dtype the imaginary part is dropped; to bool
        // either part nonzero is true.
        let (re, im) = x.parts();
        if T::DTYPE.is_bool() {
            return T::from_i64(i64::from(re != 0.0 || im != 0.0));
        }
        T::from_parts(re, im)
    } else if S::DTYPE.is_float() || T::DTYPE.is_float() {
        T::from_f64(x.to_f64())
    } else {
        T::from_i64(x.to_i64())
    }
}

pub fn convert_slice<S: Element, T: Element>(s: &[S]) -> Vec<T> {
    s.iter().map(|&x| convert::<S, T>(x)).collect()
}

/// NumPy's `same_kind` casting: within a kind or to a larger kind (bool < int < float).
pub fn can_cast_same_kind(from: DType, to: DType) -> bool {
    let rank = |d: DType| {
        if d.is_bool() {
            0
        } else if d.is_int() {
            1
        } else if d.is_complex() {
            3
        } else {
            2
        }
    };
    rank(from) <= rank(to)
}
