//! Making arrays: `zeros ones full eye arange linspace` on any device,
//! nested lists to arrays (`value_to_array`), and back (`item`, `tolist`).

pub use super::alloc::{alloc_with, checked_numel, from_host_checked};
use super::layout::fmt_shape;
pub use super::scalar::Scalar;
use super::{Array, Element};
use crate::backend;
use crate::device::Device;
use crate::dtype::{DType, Kind, promote_kinds};
use crate::error::{Error, Result};
use crate::value::Value;

/// Put a freshly made host array on `device`.
fn place(a: Array, device: Device) -> Result<Array> {
    backend::to_device(&a, device)
}

impl Scalar {
    /// A language value that is a scalar (bool, int, float; a size-1 array is not one).
    pub fn from_value(v: &Value) -> Option<Scalar> {
        match v {
            Value::Bool(b) => Some(Scalar::Bool(*b)),
            Value::Int(i) => Some(Scalar::Int(*i)),
            Value::Float(f) => Some(Scalar::Float(*f)),
            Value::Complex(re, im) => Some(Scalar::Complex(*re, *im)),
            _ => None,
        }
    }
}

impl Array {
    pub fn full(shape: &[usize], value: Scalar, dtype: DType, device: Device) -> Result<Array> {
        backend::create::full(shape, value, dtype, device)
    }
    pub fn zeros(shape: &[usize], dtype: DType, device: Device) -> Result<Array> {
        Array::full(shape, Scalar::Int(0), dtype, device)
    }
    pub fn ones(shape: &[usize], dtype: DType, device: Device) -> Result<Array> {
        Array::full(shape, Scalar::Int(1), dtype, device)
    }
    /// `n x m` with ones on diagonal `k` (positive: above the main diagonal).
    pub fn eye(n: usize, m: usize, k: i64, dtype: DType, device: Device) -> Result<Array> {
        let a = crate::with_dtype!(dtype, T => alloc_with::<T>(&[n, m], |i| {
            let (r, c) = (i / m.max(1), i % m.max(1));
            T::from_i64((c as i64 - r as i64 == k) as i64)
        })?);
        place(a, device)
    }
    /// Values from `start` up to (not including) `stop` by `step`, as NumPy's arange.
    pub fn arange(start: f64, stop: f64, step: f64, dtype: DType, device: Device) -> Result<Array> {
        if step == 0.0 || !step.is_finite() || !start.is_finite() || !stop.is_finite() {
            return Err(Error::value(
                "arange: step must be a finite non-zero number and the bounds finite",
            )
            .with_help("e.g. arange(0, 10, 2)"));
        }
        let n = ((stop - start) / step).ceil().max(0.0);
        if n >= usize::MAX as f64 {
            return Err(Error::value("arange: too many elements").with_help("use a larger step"));
        }
        let n = n as usize;
        let a = if dtype == DType::Float64 {
            // NumPy's fill: the first two values set (start, start + step),
            // then start + i * (second - first), in the dtype's arithmetic
            // (float32 and float16 in float32), so the last bits agree.
            let v1 = start + step;
            let d = v1 - start;
            alloc_with::<f64>(&[n], |i| match i {
                0 => start,
                1 => v1,
                _ => start + i as f64 * d,
            })?
        } else if dtype.is_float() {
            let first = |v: f64| match dtype {
                DType::Float16 => crate::array::host::f16_of(v).to_f64() as f32,
                _ => v as f32,
            };
            let (v0, v1) = (first(start), first(start + step));
            let d = v1 - v0;
            crate::with_dtype!(dtype, T => alloc_with::<T>(&[n], |i| {
                let v = match i {
                    0 => v0,
                    1 => v1,
                    _ => v0 + i as f32 * d,
                };
                <T as crate::array::Element>::from_f64(v as f64)
            })?)
        } else {
            let (s, st) = (start as i64, step as i64);
            crate::with_dtype!(dtype, T => alloc_with::<T>(&[n], |i| T::from_i64(s.wrapping_add((i as i64).wrapping_mul(st))))?)
        };
        place(a, device)
    }
    /// `num` evenly spaced values over [start, stop] (stop excluded when `endpoint` is false).
    pub fn linspace(
        start: f64,
        stop: f64,
        num: usize,
        endpoint: bool,
        dtype: DType,
        device: Device,
    ) -> Result<Array> {
        let div = if endpoint { num.saturating_sub(1) } else { num };
        let step = if div > 0 {
            (stop - start) / div as f64
        } else {
            0.0
        };
        let a = crate::with_dtype!(dtype, T => alloc_with::<T>(&[num], |i| {
            if endpoint && num > 1 && i == num - 1 { <T as crate::array::Element>::from_f64(stop) } else { <T as crate::array::Element>::from_f64(start + i as f64 * step) }
        })?);
        place(a, device)
    }

    /// The single element of a 0-d or size-1 array as a language scalar (a sync point).
    pub fn item(&self) -> Result<Value> {
        if self.size() != 1 {
            return Err(Error::value(format!(
                "item: can only convert an array of size 1 to a scalar, this one has shape {} (size {})",
                fmt_shape(self.shape()),
                self.size()
            ))
            .with_help("index one element first, e.g. x[0].item(), or use tolist()"));
        }
        let h = self.to_host()?;
        scalar_value(&h, 0)
    }

    /// The elements as nested lists of scalars (a 0-d array gives a scalar).
    pub fn tolist(&self) -> Result<Value> {
        // Every element becomes a value (and each innermost row a list).
        super::alloc::check_budget(self.size(), 2 * std::mem::size_of::<Value>(), "list items")?;
        let h = self.to_host()?.contiguous()?;
        fn rec(h: &Array, dims: &[usize], base: usize) -> Result<Value> {
            match dims.split_first() {
                None => scalar_value(h, base),
                Some((&n, rest)) => {
                    let stride: usize = rest.iter().product();
                    let mut items = super::alloc::try_vec(n, "list items")?;
                    for i in 0..n {
                        items.push(rec(h, rest, base + i * stride)?);
                    }
                    Ok(Value::list(items))
                }
            }
        }
        rec(&h, h.shape(), 0)
    }
}

/// Element `flat` (C order) of a host array as a scalar value.
fn scalar_value(h: &Array, flat: usize) -> Result<Value> {
    let off = super::layout::offset_of_flat(h.shape(), h.strides(), h.offset(), flat);
    let d = h.host_read()?;
    Ok(match h.dtype() {
        DType::Bool => Value::Bool(d.get_i64(off) != 0),
        DType::Int32 | DType::Int64 => Value::Int(d.get_i64(off)),
        DType::Complex64 | DType::Complex128 => {
            let (re, im) = d.get_parts(off);
            Value::Complex(re, im)
        }
        _ => Value::Float(d.get_f64(off)),
    })
}

/// Turn a language value (a scalar, an array, nested lists/tuples of those) into
/// an array. Scalars are weak (NEP 50): ints give int64, floats give `float_x`,
/// unless `dtype` says otherwise. Arrays inside lists are stacked.
pub fn value_to_array(v: &Value, dtype: Option<DType>, float_x: DType) -> Result<Array> {
    // `array(range(n))`, `sum(range(n))`: the range's ints, without a list first.
    if let Value::Range(start, stop, step) = *v {
        let n = crate::value::range_len(start, stop, step);
        let target = dtype.unwrap_or(DType::Int64);
        return crate::with_dtype!(target, T => alloc_with::<T>(&[n], |i| Scalar::Int(start + step * i as i64).to_elem::<T>()));
    }
    let mut shape: Option<Vec<usize>> = None;
    let mut elems: Vec<Scalar> = Vec::new();
    let mut kinds: Vec<Kind> = Vec::new();
    collect(
        v,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut shape,
        &mut elems,
        &mut kinds,
    )?;
    let shape = shape.unwrap_or_default();
    let target = match dtype {
        Some(d) => d,
        None if elems.is_empty() && kinds.is_empty() => float_x,
        None => promote_kinds(&kinds, float_x).dtype(float_x),
    };
    // NumPy 2: a Python int outside int32 is an OverflowError, not wrapped.
    if target == DType::Int32
        && let Some(Scalar::Int(k)) = elems
            .iter()
            .find(|s| matches!(s, Scalar::Int(k) if i32::try_from(*k).is_err()))
    {
        return Err(int32_overflow(*k, None));
    }
    // NumPy: a Python complex does not convert to a real dtype (TypeError),
    // where a complex array would be cast (imaginary parts dropped).
    if !target.is_complex() && elems.iter().any(|s| matches!(s, Scalar::Complex(..))) {
        return Err(complex_into(target, None));
    }
    crate::with_dtype!(target, T => alloc_with::<T>(&shape, |i| elems.get(i).map_or(T::default(), |s| s.to_elem::<T>())))
}

/// Walk nested lists; `pos` is the index path so far (for ragged errors), `dims` the shape seen on this path.
fn collect(
    v: &Value,
    pos: &mut Vec<usize>,
    dims: &mut Vec<usize>,
    shape: &mut Option<Vec<usize>>,
    out: &mut Vec<Scalar>,
    kinds: &mut Vec<Kind>,
) -> Result<()> {
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let items = v.seq_items().unwrap_or_default();
            if dims.len() == crate::npy::MAX_DIMS {
                return Err(Error::value(format!(
                    "array: the list is nested more than {} levels deep; an array has at most {} dimensions (NumPy's limit)",
                    crate::npy::MAX_DIMS,
                    crate::npy::MAX_DIMS
                )));
            }
            dims.push(items.len());
            if items.is_empty() {
                check_leaf(dims, &[], pos, shape)?;
            }
            for (i, it) in items.iter().enumerate() {
                pos.push(i);
                collect(it, pos, dims, shape, out, kinds)?;
                pos.pop();
            }
            dims.pop();
            Ok(())
        }
        Value::Array(a) => {
            check_leaf(dims, a.shape(), pos, shape)?;
            kinds.push(Kind::Strong(a.dtype()));
            let h = a.to_host()?;
            match a.dtype() {
                DType::Bool => out.extend(h.to_vec::<bool>()?.into_iter().map(Scalar::Bool)),
                DType::Int32 | DType::Int64 => {
                    out.extend(h.to_vec::<i64>()?.into_iter().map(Scalar::Int))
                }
                DType::Complex64 | DType::Complex128 => out.extend(
                    h.to_vec::<crate::array::Cf64>()?
                        .into_iter()
                        .map(|z| Scalar::Complex(z.re, z.im)),
                ),
                _ => out.extend(h.to_vec::<f64>()?.into_iter().map(Scalar::Float)),
            }
            Ok(())
        }
        other => match Scalar::from_value(other) {
            Some(s) => {
                check_leaf(dims, &[], pos, shape)?;
                kinds.push(s.kind());
                out.push(s);
                Ok(())
            }
            None => Err(Error::type_(format!(
                "array: cannot make an array element from {}{}",
                other.a_type_name(),
                if pos.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (at [{}])",
                        pos.iter()
                            .map(|p| p.to_string())
                            .collect::<Vec<_>>()
                            .join("][")
                    )
                }
            ))
            .with_help("array elements must be numbers, bools, arrays or lists of them")),
        },
    }
}

fn check_leaf(
    dims: &[usize],
    leaf_dims: &[usize],
    pos: &[usize],
    shape: &mut Option<Vec<usize>>,
) -> Result<()> {
    let full: Vec<usize> = dims.iter().chain(leaf_dims).copied().collect();
    match shape {
        None => *shape = Some(full),
        Some(s) if *s == full => {}
        Some(s) => {
            let d = (0..full.len().max(s.len()))
                .find(|&i| full.get(i) != s.get(i))
                .unwrap_or(0);
            let at = |k: usize| {
                pos[..k.min(pos.len())]
                    .iter()
                    .map(|p| format!("[{p}]"))
                    .collect::<String>()
            };
            let msg = match (full.get(d), s.get(d)) {
                (Some(a), Some(b)) => format!(
                    "the list at x{} has length {a}, but earlier lists at that depth have length {b}",
                    at(d)
                ),
                _ => format!(
                    "the element at x{} is nested to depth {} but earlier elements to depth {}",
                    at(pos.len()),
                    full.len(),
                    s.len()
                ),
            };
            return Err(Error::value(format!("array: ragged nested list: {msg}"))
                .with_help("every row must have the same length"));
        }
    }
    Ok(())
}

/// NumPy 2's OverflowError for a Python int that int32 cannot hold, from
/// `what` (a function name) when given.
pub fn int32_overflow(k: i64, what: Option<&str>) -> Error {
    let at = what.map_or(String::new(), |w| format!("{w}: "));
    Error::new(
        crate::ErrorKind::Overflow,
        format!("{at}Python integer {k} out of bounds for int32"),
    )
    .with_help("use a value int32 holds, or dtype=int64")
}

/// NumPy's TypeError for a Python complex stored as real dtype `d` (the
/// imaginary part would be lost), from `what` when given.
pub fn complex_into(d: DType, what: Option<&str>) -> Error {
    let at = what.map_or(String::new(), |w| format!("{w}: "));
    Error::type_(format!(
        "{at}a complex value cannot be stored as {d} (the imaginary part would be lost)"
    ))
    .with_help("use a complex dtype (dtype=complex128), or take .real first")
}
