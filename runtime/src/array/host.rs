//! Host (CPU) buffers: a typed vector per dtype, and the `Element` trait that
//! lets generic code reach the right variant.

use crate::dtype::DType;
use half::f16;
/// The elements of complex64 and complex128 arrays.
pub type Cf32 = num_complex::Complex<f32>;
pub type Cf64 = num_complex::Complex<f64>;

/// The elements of a host buffer, typed.
#[derive(Clone, Debug)]
pub enum HostData {
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F16(Vec<f16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// complex64: (re, im) float32 pairs, laid out as NumPy's `<c8`.
    C64(Vec<Cf32>),
    /// complex128: (re, im) float64 pairs, NumPy's `<c16`.
    C128(Vec<Cf64>),
}

/// A Rust element type of one of gcalc's dtypes.
pub trait Element: Copy + Send + Sync + PartialEq + std::fmt::Debug + Default + 'static {
    const DTYPE: DType;
    fn to_f64(self) -> f64;
    /// Conversion as NumPy's `astype` does it (float->int truncates, saturating; nan -> 0).
    fn from_f64(v: f64) -> Self;
    fn to_i64(self) -> i64;
    fn from_i64(v: i64) -> Self;
    fn slice(d: &HostData) -> Option<&[Self]>;
    fn slice_mut(d: &mut HostData) -> Option<&mut [Self]>;
    fn wrap(v: Vec<Self>) -> HostData;
    /// (real, imaginary) as f64; a real element's imaginary part is 0.
    fn parts(self) -> (f64, f64);
    /// From (real, imaginary); a real dtype keeps the real part (NumPy's cast).
    fn from_parts(re: f64, im: f64) -> Self;
    /// `f` over a buffer of `n` elements of this thread's scratch (contents
    /// unspecified): gathers of strided reductions allocate nothing per lane.
    /// A nested use on the same thread gets a fresh buffer.
    fn with_scratch<R>(n: usize, f: impl FnOnce(&mut [Self]) -> R) -> R;
}

macro_rules! element {
    ($t:ty, $variant:ident, $dtype:ident, $to:expr, $from:expr, $toi:expr, $fromi:expr) => {
        element!(
            $t,
            $variant,
            $dtype,
            $to,
            $from,
            $toi,
            $fromi,
            |x: $t| (($to)(x), 0.0),
            |re: f64, _im: f64| ($from)(re)
        );
    };
    ($t:ty, $variant:ident, $dtype:ident, $to:expr, $from:expr, $toi:expr, $fromi:expr, $parts:expr, $fromp:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                ($to)(self)
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                ($from)(v)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                ($toi)(self)
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                ($fromi)(v)
            }
            fn slice(d: &HostData) -> Option<&[Self]> {
                match d {
                    HostData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn slice_mut(d: &mut HostData) -> Option<&mut [Self]> {
                match d {
                    HostData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<Self>) -> HostData {
                HostData::$variant(v)
            }
            #[inline(always)]
            fn parts(self) -> (f64, f64) {
                ($parts)(self)
            }
            #[inline(always)]
            fn from_parts(re: f64, im: f64) -> Self {
                ($fromp)(re, im)
            }
            fn with_scratch<R>(n: usize, f: impl FnOnce(&mut [Self]) -> R) -> R {
                thread_local! {
                    static SCRATCH: std::cell::RefCell<Vec<$t>> =
                        const { std::cell::RefCell::new(Vec::new()) };
                }
                SCRATCH.with(|c| match c.try_borrow_mut() {
                    Ok(mut v) => {
                        if v.len() < n {
                            v.resize(n, <$t>::default());
                        }
                        f(&mut v[..n])
                    }
                    Err(_) => f(&mut vec![<$t>::default(); n]),
                })
            }
        }
    };
}

element!(
    bool,
    Bool,
    Bool,
    |x: bool| x as u8 as f64,
    |v: f64| v != 0.0,
    |x: bool| x as i64,
    |v: i64| v != 0
);
element!(
    i32,
    I32,
    Int32,
    |x: i32| x as f64,
    |v: f64| v as i32,
    |x: i32| x as i64,
    |v: i64| v as i32
);
element!(
    i64,
    I64,
    Int64,
    |x: i64| x as f64,
    |v: f64| v as i64,
    |x: i64| x,
    |v: i64| v
);
element!(
    f16,
    F16,
    Float16,
    |x: f16| x.to_f64(),
    f16_of,
    |x: f16| x.to_f64() as i64,
    |v: i64| f16_of(v as f64)
);
element!(
    f32,
    F32,
    Float32,
    |x: f32| x as f64,
    |v: f64| v as f32,
    |x: f32| x as i64,
    |v: i64| v as f32
);
element!(
    f64,
    F64,
    Float64,
    |x: f64| x,
    |v: f64| v,
    |x: f64| x as i64,
    |v: i64| v as f64
);

// A complex element seen as a real number is its real part (NumPy's cast
// to a real dtype, which drops the imaginary part); a real one becomes
// complex with a zero imaginary part.
element!(
    Cf32,
    C64,
    Complex64,
    |x: Cf32| x.re as f64,
    |v: f64| Cf32::new(v as f32, 0.0),
    |x: Cf32| x.re as i64,
    |v: i64| Cf32::new(v as f32, 0.0),
    |x: Cf32| (x.re as f64, x.im as f64),
    |re: f64, im: f64| Cf32::new(re as f32, im as f32)
);
element!(
    Cf64,
    C128,
    Complex128,
    |x: Cf64| x.re,
    |v: f64| Cf64::new(v, 0.0),
    |x: Cf64| x.re as i64,
    |v: i64| Cf64::new(v as f64, 0.0),
    |x: Cf64| (x.re, x.im),
    |re: f64, im: f64| Cf64::new(re, im)
);

/// Run `$body` with `$T` bound to the Rust type of `$dtype`.
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            $crate::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            $crate::dtype::DType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DType::Float16 => {
                type $T = half::f16;
                $body
            }
            $crate::dtype::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::DType::Complex64 => {
                type $T = $crate::array::Cf32;
                $body
            }
            $crate::dtype::DType::Complex128 => {
                type $T = $crate::array::Cf64;
                $body
            }
        }
    };
}

/// `with_dtype!` over the real dtypes, with `$complex` (an early return of an
/// error, typically) for the complex ones: for bodies that order, bin or
/// round elements, which complex numbers cannot.
#[macro_export]
macro_rules! with_real_dtype {
    ($dtype:expr, $T:ident => $body:expr, complex => $complex:expr) => {
        match $dtype {
            $crate::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            $crate::dtype::DType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DType::Float16 => {
                type $T = half::f16;
                $body
            }
            $crate::dtype::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::DType::Complex64 | $crate::dtype::DType::Complex128 => $complex,
        }
    };
}

impl HostData {
    pub fn dtype(&self) -> DType {
        match self {
            HostData::Bool(_) => DType::Bool,
            HostData::I32(_) => DType::Int32,
            HostData::I64(_) => DType::Int64,
            HostData::F16(_) => DType::Float16,
            HostData::F32(_) => DType::Float32,
            HostData::F64(_) => DType::Float64,
            HostData::C64(_) => DType::Complex64,
            HostData::C128(_) => DType::Complex128,
        }
    }
    pub fn len(&self) -> usize {
        with_dtype!(self.dtype(), T => T::slice(self).map_or(0, |s| s.len()))
    }
    /// Keep the first `n` elements (a recycled buffer cut to an output's size).
    pub fn truncate(&mut self, n: usize) {
        match self {
            HostData::Bool(v) => v.truncate(n),
            HostData::I32(v) => v.truncate(n),
            HostData::I64(v) => v.truncate(n),
            HostData::F16(v) => v.truncate(n),
            HostData::F32(v) => v.truncate(n),
            HostData::F64(v) => v.truncate(n),
            HostData::C64(v) => v.truncate(n),
            HostData::C128(v) => v.truncate(n),
        }
    }
    /// Room in elements (at least `len`).
    pub fn capacity(&self) -> usize {
        match self {
            HostData::Bool(v) => v.capacity(),
            HostData::I32(v) => v.capacity(),
            HostData::I64(v) => v.capacity(),
            HostData::F16(v) => v.capacity(),
            HostData::F32(v) => v.capacity(),
            HostData::F64(v) => v.capacity(),
            HostData::C64(v) => v.capacity(),
            HostData::C128(v) => v.capacity(),
        }
    }
    /// Cut to `n` elements, or extend to `n` with zeros within the room the
    /// buffer has (a recycled buffer fitted to an output's size).
    pub fn fit(&mut self, n: usize) {
        match self {
            HostData::Bool(v) => v.resize(n, Default::default()),
            HostData::I32(v) => v.resize(n, Default::default()),
            HostData::I64(v) => v.resize(n, Default::default()),
            HostData::F16(v) => v.resize(n, Default::default()),
            HostData::F32(v) => v.resize(n, Default::default()),
            HostData::F64(v) => v.resize(n, Default::default()),
            HostData::C64(v) => v.resize(n, Default::default()),
            HostData::C128(v) => v.resize(n, Default::default()),
        }
    }
    /// A zero-filled buffer of `n` elements.
    pub fn zeros(dtype: DType, n: usize) -> HostData {
        with_dtype!(dtype, T => T::wrap(vec![T::default(); n]))
    }
    pub fn from_f64s(dtype: DType, v: impl Iterator<Item = f64>) -> HostData {
        with_dtype!(dtype, T => T::wrap(v.map(<T as Element>::from_f64).collect()))
    }
    /// The element at flat position `i` as f64 (for printing and references).
    pub fn get_f64(&self, i: usize) -> f64 {
        with_dtype!(self.dtype(), T => T::slice(self).and_then(|s| s.get(i)).map_or(f64::NAN, |x| x.to_f64()))
    }
    /// The element at flat position `i` as (real, imaginary).
    pub fn get_parts(&self, i: usize) -> (f64, f64) {
        with_dtype!(self.dtype(), T => T::slice(self).and_then(|s| s.get(i)).map_or((f64::NAN, 0.0), |x| x.parts()))
    }
    pub fn get_i64(&self, i: usize) -> i64 {
        with_dtype!(self.dtype(), T => T::slice(self).and_then(|s| s.get(i)).map_or(0, |x| x.to_i64()))
    }
    /// Raw little-endian bytes (for .npy and device uploads).
    pub fn as_bytes(&self) -> &[u8] {
        fn bytes<T>(v: &[T]) -> &[u8] {
            // SAFETY: every element type here is plain old data without padding;
            // bool is one byte holding 0 or 1.
            unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
        }
        match self {
            HostData::Bool(v) => bytes(v),
            HostData::I32(v) => bytes(v),
            HostData::I64(v) => bytes(v),
            HostData::F16(v) => bytes(v),
            HostData::F32(v) => bytes(v),
            HostData::F64(v) => bytes(v),
            HostData::C64(v) => bytes(v),
            HostData::C128(v) => bytes(v),
        }
    }
    /// Build from little-endian bytes; `None` if the length is not a multiple of the element size.
    pub fn from_bytes(dtype: DType, b: &[u8]) -> Option<HostData> {
        let n = dtype.size();
        if !b.len().is_multiple_of(n) {
            return None;
        }
        let count = b.len() / n;
        Some(match dtype {
            DType::Bool => HostData::Bool(b.iter().map(|&x| x != 0).collect()),
            DType::Int32 => HostData::I32(
                (0..count)
                    .map(|i| i32::from_le_bytes(arr(&b[i * 4..])))
                    .collect(),
            ),
            DType::Int64 => HostData::I64(
                (0..count)
                    .map(|i| i64::from_le_bytes(arr(&b[i * 8..])))
                    .collect(),
            ),
            DType::Float16 => HostData::F16(
                (0..count)
                    .map(|i| f16::from_le_bytes(arr(&b[i * 2..])))
                    .collect(),
            ),
            DType::Float32 => HostData::F32(
                (0..count)
                    .map(|i| f32::from_le_bytes(arr(&b[i * 4..])))
                    .collect(),
            ),
            DType::Float64 => HostData::F64(
                (0..count)
                    .map(|i| f64::from_le_bytes(arr(&b[i * 8..])))
                    .collect(),
            ),
            DType::Complex64 => HostData::C64(
                (0..count)
                    .map(|i| {
                        Cf32::new(
                            f32::from_le_bytes(arr(&b[i * 8..])),
                            f32::from_le_bytes(arr(&b[i * 8 + 4..])),
                        )
                    })
                    .collect(),
            ),
            DType::Complex128 => HostData::C128(
                (0..count)
                    .map(|i| {
                        Cf64::new(
                            f64::from_le_bytes(arr(&b[i * 16..])),
                            f64::from_le_bytes(arr(&b[i * 16 + 8..])),
                        )
                    })
                    .collect(),
            ),
        })
    }
}

fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[..N]);
    a
}

/// float64 to float16 in one rounding to nearest even, as NumPy and CUDA's
/// `__double2half`. `half`'s conversions are not: `from_f64` goes through
/// float32 where the CPU has F16C (two roundings), and its software path
/// drops the low 32 mantissa bits before rounding (ties misjudged); each is
/// off by one ulp for about 1 value in 2,000.
pub fn f16_of(v: f64) -> f16 {
    if v.is_nan() {
        return f16::NAN;
    }
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    // 65520 is halfway between f16's largest finite value and 2^16.
    if a >= 65520.0 {
        return f16::from_bits(sign | 0x7C00);
    }
    let bits = if a < 6.103515625e-5 {
        // Below 2^-14: subnormal steps of 2^-24 (1024 rounds up to the
        // smallest normal's bits). Scaling by a power of two is exact.
        (a * 16777216.0).round_ties_even() as u16
    } else {
        let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023; // -14..=15
        let q = (a * 2f64.powi(10 - e)).round_ties_even() as u16; // 1024..=2048
        (((e + 15) as u16) << 10) + (q - 1024)
    };
    f16::from_bits(sign | bits)
}
