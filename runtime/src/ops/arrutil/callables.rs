//! NumPy's functions that take a Python callable, taking a gcalc function
//! (a user `fn`, a lambda or a builtin): `apply_along_axis` (one call per
//! 1-d slice, results stacked), `apply_over_axes`, `vectorize` (a callable
//! object that loops over the broadcast elements) and `fromfunction` (one
//! call with the index arrays, as NumPy does).

use crate::array::Array;
use crate::array::index::Index;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{dtype_arg, op};
use crate::ops::nparr::norm_axis;
use crate::ops::nparr::{
    arr, astype, call, data, data_on, device_of, int_list, reshape, value_err,
};
use crate::ops::{OpDef, OpKind};
use crate::value::{Object, Value};

pub static OPS: &[OpDef] = &[
    op!(
        "apply_along_axis",
        "apply_along_axis(func1d, axis, arr, *args, **kwargs)",
        "func1d(a_1d, *args, **kwargs) on every 1-d slice of arr along axis; its results (a number or an array, one shape for all) are stacked where the axis was: a number removes the axis, an array of k dims puts its k dims there. One call per slice (cost: the interpreter's per call). Differentiable when func1d is.",
        false,
        apply_along_axis
    ),
    op!(
        "apply_over_axes",
        "apply_over_axes(func, a, axes)",
        "func(a, axis) for each axis in axes in turn, each result fed to the next; a result with one dimension less gets it back (expand_dims), so the ndim stays a's. Differentiable when func is.",
        false,
        apply_over_axes
    ),
    op!(
        "vectorize",
        "vectorize(pyfunc, otypes=none, excluded=none)",
        "A callable that broadcasts its array arguments together and calls pyfunc on each element (as a 0-d array of the argument's dtype, on the CPU), giving an array of the broadcast shape on the arguments' device (a tuple of arrays when pyfunc gives a tuple). The dtype is otypes[0] (e.g. \"d\", [float64]) or that of the first result. A loop: one interpreter call per element. excluded: positions or keyword names passed through unchanged.",
        false,
        vectorize
    ),
    op!(
        "fromfunction",
        "fromfunction(function, shape, dtype=float64, **kwargs)",
        "function(*indices(shape, dtype), **kwargs): function is called ONCE with one index array per axis (each of the full shape), as NumPy does, and its result is returned as it is.",
        false,
        fromfunction
    ),
];

fn callable(v: Value, name: &str, what: &str) -> Result<Value> {
    match v {
        Value::Func(_) | Value::Builtin(_) | Value::Method(..) | Value::Object(_) => Ok(v),
        v => Err(Error::type_(format!(
            "{name}: `{what}` must be a function, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help(format!(
            "pass a function: fn f(x): return sum(x)  then {name}(f, ...), or a lambda"
        ))),
    }
}

/// A function's result as an array on `dev` (numbers with NumPy's dtypes).
fn result_array(i: &Interp, v: Value, dev: crate::device::Device, name: &str) -> Result<Array> {
    match v {
        Value::Array(a) if a.device() != dev => crate::backend::to_device(&a, dev),
        Value::Array(a) => Ok(a),
        Value::Float(f) => crate::backend::to_device(&Array::scalar(f), dev),
        v @ (Value::Int(_) | Value::Bool(_) | Value::List(_) | Value::Tuple(_)) => {
            data_on(i, v, dev, name, "the function's result")
        }
        v => Err(Error::type_(format!(
            "{name}: the function gave {}, not a number or an array",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help("return a number or an array from the function")),
    }
}

fn apply_along_axis(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "apply_along_axis";
    let f = callable(a.req("func1d")?, name, "func1d")?;
    let axis = a.req("axis")?;
    let x = data(i, a.req("arr")?, name, "arr")?;
    let extra = a.rest();
    let kw = std::mem::take(&mut a.kw);
    a.finish()?;
    let nd = x.ndim();
    let axis = norm_axis(crate::ops::nparr::int(&axis, name, "axis")?, nd, name)?;
    let outer: Vec<usize> = (0..nd)
        .filter(|&k| k != axis)
        .map(|k| x.shape()[k])
        .collect();
    let n: usize = outer.iter().product();
    if n == 0 {
        return Err(value_err(
            name,
            "Cannot apply_along_axis when any iteration dimensions are 0".into(),
            "give an array whose other axes are not empty",
        ));
    }
    let dev = x.device();
    let mut results: Vec<Array> = Vec::with_capacity(n);
    let mut pos = vec![0usize; outer.len()];
    for _ in 0..n {
        let mut idx = Vec::with_capacity(nd);
        let mut it = pos.iter();
        for k in 0..nd {
            if k == axis {
                idx.push(Index::full());
            } else {
                idx.push(Index::Int(*it.next().unwrap_or(&0) as i64));
            }
        }
        let slice = i.index_array(&x, &idx)?;
        let mut args = vec![Value::Array(slice)];
        args.extend(extra.iter().cloned());
        let r = i.call_value(f.clone(), args, kw.clone(), span)?;
        let r = result_array(i, r, dev, name)?;
        if let Some(first) = results.first()
            && first.shape() != r.shape()
        {
            return Err(value_err(
                name,
                format!(
                    "func1d gave shape {:?} for slice {} but {:?} for the first slice",
                    r.shape(),
                    results.len(),
                    first.shape()
                ),
                "func1d must give one shape for every slice",
            ));
        }
        results.push(r);
        // The next outer position, C order.
        for k in (0..pos.len()).rev() {
            pos[k] += 1;
            if pos[k] < outer[k] {
                break;
            }
            pos[k] = 0;
        }
    }
    let d = results[0].dtype();
    let rshape = results[0].shape().to_vec();
    let results = results
        .iter()
        .map(|r| astype(i, span, r, d).map(Value::Array))
        .collect::<Result<Vec<_>>>()?;
    let stacked = arr(i, span, "stack", vec![Value::list(results)], vec![])?;
    let mut shape = outer.clone();
    shape.extend(&rshape);
    let out = reshape(i, span, &stacked, &shape)?;
    // The result's dims go where the axis was.
    let k = rshape.len();
    let mut perm: Vec<usize> = (0..axis).collect();
    perm.extend(outer.len()..outer.len() + k);
    perm.extend(axis..outer.len());
    let out = crate::ops::linalg_calls::Calls::new(i, span).permute(&out, &perm)?;
    Ok(Value::Array(out))
}

fn apply_over_axes(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "apply_over_axes";
    let f = callable(a.req("func")?, name, "func")?;
    let x = data(i, a.req("a")?, name, "a")?;
    let axes = int_list(&a.req("axes")?, name, "axes")?;
    a.finish()?;
    let nd = x.ndim();
    let mut val = x;
    for ax in axes {
        let ax = norm_axis(ax, nd, name)?;
        let r = i.call_value(
            f.clone(),
            vec![Value::Array(val.clone()), Value::Int(ax as i64)],
            vec![],
            span,
        )?;
        let r = result_array(i, r, val.device(), name)?;
        val = if r.ndim() == val.ndim() {
            r
        } else {
            let e = arr(
                i,
                span,
                "expand_dims",
                vec![r.into(), Value::Int(ax as i64)],
                vec![],
            )?;
            if e.ndim() != val.ndim() {
                return Err(value_err(
                    name,
                    "function is not returning an array of the correct shape".into(),
                    "func(a, axis) must keep a's ndim or remove the one axis",
                ));
            }
            e
        };
    }
    Ok(Value::Array(val))
}

fn fromfunction(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "fromfunction";
    let f = callable(a.req("function")?, name, "function")?;
    let shape = int_list(&a.req("shape")?, name, "shape")?;
    let d = match a.kw("dtype") {
        Some(v) => dtype_arg(&v)?,
        None => DType::Float64,
    };
    let kw = std::mem::take(&mut a.kw);
    a.finish()?;
    if let Some(&k) = shape.iter().find(|&&k| k < 0) {
        return Err(value_err(
            name,
            format!("negative dimensions are not allowed ({k})"),
            "give a shape of sizes >= 0",
        ));
    }
    let grids = call(
        i,
        span,
        "indices",
        vec![Value::tuple(shape.iter().map(|&k| Value::Int(k)).collect())],
        vec![("dtype", Value::DType(d))],
    )?;
    let grids = match grids {
        Value::Array(g) => g,
        _ => return Err(Error::internal("indices gave a non-array")),
    };
    let args = (0..shape.len())
        .map(|k| {
            crate::ops::linalg_calls::Calls::new(i, span)
                .index(&grids, &[Index::Int(k as i64)])
                .map(Value::Array)
        })
        .collect::<Result<Vec<_>>>()?;
    i.call_value(f, args, kw, span)
}

fn vectorize(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "vectorize";
    let f = callable(a.req("pyfunc")?, name, "pyfunc")?;
    let otypes = match a.opt("otypes")? {
        None | Some(Value::None) => Vec::new(),
        Some(Value::Str(s)) => s.chars().map(type_char).collect::<Result<_>>()?,
        Some(v @ (Value::List(_) | Value::Tuple(_))) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|v| match v {
                Value::Str(t) if t.chars().count() == 1 => {
                    type_char(t.chars().next().unwrap_or('d'))
                }
                v => dtype_arg(v),
            })
            .collect::<Result<_>>()?,
        Some(v) => vec![dtype_arg(&v)?],
    };
    let mut excl_pos = Vec::new();
    let mut excl_kw = Vec::new();
    if let Some(v) = a.opt("excluded")? {
        let items: Vec<Value> = match &v {
            Value::None => Vec::new(),
            Value::List(_) | Value::Tuple(_) => {
                v.seq_items().unwrap_or_default().iter().cloned().collect()
            }
            v => vec![v.clone()],
        };
        for it in items {
            match it {
                Value::Int(k) => excl_pos.push(k as usize),
                Value::Str(s) => excl_kw.push(s.to_string()),
                v => {
                    return Err(Error::type_(format!(
                        "vectorize: excluded holds positions (ints) and keyword names (strings), got {}",
                        v.a_type_name()
                    ))
                    .with_op(name));
                }
            }
        }
    }
    a.finish_with(&["otypes", "excluded"])?;
    Ok(Value::Object(std::sync::Arc::new(Vectorized {
        f,
        otypes,
        excl_pos,
        excl_kw,
    })))
}

/// The callable `vectorize` gives.
struct Vectorized {
    f: Value,
    otypes: Vec<DType>,
    excl_pos: Vec<usize>,
    excl_kw: Vec<String>,
}

impl Object for Vectorized {
    fn type_name(&self) -> &'static str {
        "vectorized function"
    }

    fn repr(&self) -> String {
        let f = match &self.f {
            Value::Func(f) => f.name.clone(),
            Value::Builtin(d) | Value::Method(_, d) => d.name.to_string(),
            v => v.a_type_name(),
        };
        format!("<vectorized {f}>")
    }

    fn call(&self, i: &mut Interp, a: Args) -> Result<Value> {
        self.run(i, a)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Vectorized {
    fn run(&self, i: &mut Interp, a: Args) -> Result<Value> {
        let name = "vectorize";
        let span = a.span;
        // Which arguments loop: (position or keyword, value).
        let mut looped: Vec<Value> = Vec::new();
        for (k, v) in a.pos.iter().enumerate() {
            if !self.excl_pos.contains(&k) {
                looped.push(v.clone());
            }
        }
        for (k, v) in &a.kw {
            if !self.excl_kw.contains(k) {
                looped.push(v.clone());
            }
        }
        let refs: Vec<&Value> = looped.iter().collect();
        let dev = device_of(i, &refs);
        let arrays = looped
            .into_iter()
            .map(|v| data_on(i, v, dev, name, "argument"))
            .collect::<Result<Vec<_>>>()?;
        let shapes: Vec<&[usize]> = arrays.iter().map(|x| x.shape()).collect();
        let bshape = broadcast_shape(&shapes).ok_or_else(|| {
            value_err(
                name,
                format!(
                    "the arguments' shapes {} do not broadcast together",
                    shapes
                        .iter()
                        .map(|s| format!("{s:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "give arguments whose shapes broadcast",
            )
        })?;
        let size: usize = bshape.iter().product();
        // Each looped argument broadcast and read to the host once.
        let host = arrays
            .iter()
            .map(|x| {
                let b = x.broadcast_to(&bshape)?;
                let b = crate::backend::to_device(&b.contiguous()?, crate::device::Device::Cpu)?;
                let flat = b.reshape(&[size as i64])?;
                Ok(flat)
            })
            .collect::<Result<Vec<_>>>()?;
        if size == 0 {
            let Some(&d) = self.otypes.first() else {
                return Err(value_err(
                    name,
                    "cannot call `vectorize` on size 0 inputs unless `otypes` is set".into(),
                    "give otypes, e.g. vectorize(f, otypes=[float64])",
                ));
            };
            let z = Array::zeros(&bshape, d, dev)?;
            return Ok(Value::Array(z));
        }
        let mut outs: Vec<Vec<Value>> = Vec::new();
        let mut nout: Option<usize> = None;
        for e in 0..size {
            i.check_interrupt()?;
            let mut pos = Vec::with_capacity(a.pos.len());
            let mut kw = Vec::with_capacity(a.kw.len());
            let mut h = host.iter();
            for (k, v) in a.pos.iter().enumerate() {
                if self.excl_pos.contains(&k) {
                    pos.push(v.clone());
                } else {
                    pos.push(element(h.next(), e)?);
                }
            }
            for (k, v) in &a.kw {
                if self.excl_kw.contains(k) {
                    kw.push((k.clone(), v.clone()));
                } else {
                    kw.push((k.clone(), element(h.next(), e)?));
                }
            }
            let r = i.call_value(self.f.clone(), pos, kw, span)?;
            let parts: Vec<Value> = match &r {
                Value::Tuple(_) => r.seq_items().unwrap_or_default().iter().cloned().collect(),
                _ => vec![r],
            };
            match nout {
                None => {
                    nout = Some(parts.len());
                    outs = vec![Vec::with_capacity(size); parts.len()];
                }
                Some(m) if m != parts.len() => {
                    return Err(value_err(
                        name,
                        format!(
                            "pyfunc gave {} results at one element and {m} at the first",
                            parts.len()
                        ),
                        "give one number of results for every element",
                    ));
                }
                _ => {}
            }
            for (o, p) in outs.iter_mut().zip(parts) {
                o.push(p);
            }
        }
        let mut res = Vec::with_capacity(outs.len());
        for (k, vals) in outs.into_iter().enumerate() {
            let cpu = crate::device::Device::Cpu;
            let arrs = vals
                .into_iter()
                .map(|v| result_array(i, v, cpu, name))
                .collect::<Result<Vec<_>>>()?;
            if let Some(bad) = arrs.iter().find(|x| x.ndim() != 0) {
                return Err(value_err(
                    name,
                    format!(
                        "pyfunc gave an array of shape {:?}; vectorize needs one number per element",
                        bad.shape()
                    ),
                    "return a number from pyfunc",
                ));
            }
            let d = self.otypes.get(k).copied().unwrap_or(arrs[0].dtype());
            let arrs = arrs
                .iter()
                .map(|x| astype(i, span, x, d).map(Value::Array))
                .collect::<Result<Vec<_>>>()?;
            let flat = arr(i, span, "stack", vec![Value::list(arrs)], vec![])?;
            let out = reshape(i, span, &flat, &bshape)?;
            res.push(Value::Array(crate::backend::to_device(&out, dev)?));
        }
        Ok(if res.len() == 1 {
            res.pop().unwrap_or(Value::None)
        } else {
            Value::tuple(res)
        })
    }
}

/// Element `e` of a flat host array as a 0-d array of its dtype.
fn element(x: Option<&Array>, e: usize) -> Result<Value> {
    let x = x.ok_or_else(|| Error::internal("vectorize: argument count"))?;
    let idx = [Index::Int(e as i64)];
    let r = x.resolve_index(&idx)?;
    Ok(Value::Array(x.index_resolved(&r)?))
}

/// NumPy's broadcast shape of `shapes` (`None` when they do not broadcast).
fn broadcast_shape(shapes: &[&[usize]]) -> Option<Vec<usize>> {
    let nd = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; nd];
    for s in shapes {
        for (k, &d) in s.iter().rev().enumerate() {
            let o = &mut out[nd - 1 - k];
            if *o == 1 {
                *o = d;
            } else if d != 1 && d != *o {
                return None;
            }
        }
    }
    Some(out)
}

/// NumPy's one-letter type codes (`otypes="d"`, `"fi"`).
fn type_char(c: char) -> Result<DType> {
    Ok(match c {
        '?' => DType::Bool,
        'i' => DType::Int32,
        'l' | 'q' | 'p' => DType::Int64,
        'e' => DType::Float16,
        'f' => DType::Float32,
        'd' | 'g' => DType::Float64,
        'F' => DType::Complex64,
        'D' | 'G' => DType::Complex128,
        c => {
            return Err(Error::type_(format!(
                "vectorize: otypes: unknown type code '{c}' (gcalc has ? i l e f d F D)"
            ))
            .with_op("vectorize")
            .with_help("e.g. otypes=\"d\" or otypes=[float64]"));
        }
    })
}
