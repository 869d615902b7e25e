//! Reductions (`sum mean prod max min argmax argmin std var any all`) with
//! `axis=` and `keepdims=`, NumPy's dtype rules (sum/prod of ints -> int64,
//! mean/std/var of ints -> floatX, argmax -> int64, any/all -> bool), f64
//! accumulation for floats, and results that do not depend on the thread count
//! (fixed chunking).

use super::{OpDef, OpKind};
use crate::array::{Array, Element, HostData, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;
use gcalc_kernels::cpu::reduce::{extreme, fold_sum};
use rayon::prelude::*;

/// Contiguous lanes longer than this are summed in parallel chunks of `CHUNK`.
const PAR_LANE: usize = 1 << 20;
const CHUNK: usize = 1 << 16;

macro_rules! red {
    ($name:literal, $sig:literal, $doc:literal $(, grad: $g:expr)?) => {
        OpDef {
            name: $name,
            sig: $sig,
            doc: $doc,
            method: true,
            kind: OpKind::Func(|i: &mut Interp, a: Args| builtin(i, a)),
            grad: { #[allow(unused_mut, unused_assignments)] let mut g: Option<crate::autodiff::GradFn> = None; $(g = Some($g);)? g },
        }
    };
}

pub static OPS: &[OpDef] = &[
    red!(
        "sum",
        "sum(x, axis=none, keepdims=false)",
        "Sum of the elements over axis (all when none); ints sum in int64.",
        grad: crate::autodiff::rules::sum_grad
    ),
    red!(
        "mean",
        "mean(x, axis=none, keepdims=false)",
        "Arithmetic mean over axis; ints give floatX.",
        grad: crate::autodiff::rules::mean_grad
    ),
    red!(
        "prod",
        "prod(x, axis=none, keepdims=false)",
        "Product of the elements over axis; ints in int64.",
        grad: crate::autodiff::rules::prod_grad
    ),
    red!(
        "max",
        "max(x, axis=none, keepdims=false)",
        "Largest element over axis (nan if any is nan).",
        grad: crate::autodiff::rules::max_grad
    ),
    red!(
        "min",
        "min(x, axis=none, keepdims=false)",
        "Smallest element over axis (nan if any is nan).",
        grad: crate::autodiff::rules::min_grad
    ),
    red!(
        "argmax",
        "argmax(x, axis=none, keepdims=false)",
        "Index of the first largest element (flat index when axis is none)."
    ),
    red!(
        "argmin",
        "argmin(x, axis=none, keepdims=false)",
        "Index of the first smallest element (flat index when axis is none)."
    ),
    red!(
        "std",
        "std(x, axis=none, keepdims=false, ddof=0)",
        "Standard deviation over axis, dividing by n - ddof.",
        grad: crate::autodiff::rules::std_grad
    ),
    red!(
        "var",
        "var(x, axis=none, keepdims=false, ddof=0)",
        "Variance over axis, dividing by n - ddof.",
        grad: crate::autodiff::rules::var_grad
    ),
    red!(
        "any",
        "any(x, axis=none, keepdims=false)",
        "Whether any element over axis is nonzero."
    ),
    red!(
        "all",
        "all(x, axis=none, keepdims=false)",
        "Whether every element over axis is nonzero."
    ),
];

fn builtin(interp: &mut Interp, mut args: Args) -> Result<Value> {
    let name = args.name;
    let x = match args.req("x")? {
        Value::Array(a) => a,
        Value::Int(i) => Array::scalar(i),
        Value::Float(f) => Array::scalar(f),
        Value::Bool(b) => Array::scalar(b),
        // NumPy's `np.sum([1, 2, 3])`: a list or tuple is made an array first.
        v @ (Value::List(_) | Value::Tuple(_)) => {
            crate::array::create::value_to_array(&v, None, interp.float_x())?
        }
        v => {
            return Err(
                Error::type_(format!("{name}() needs an array, got a {}", v.type_name()))
                    .with_op(name)
                    .with_help("make one with array([...])"),
            );
        }
    };
    let axes: Option<Vec<isize>> = match args.opt("axis")? {
        None | Some(Value::None) => None,
        Some(Value::Int(i)) => Some(vec![i as isize]),
        Some(Value::Tuple(t)) => Some(
            t.iter()
                .map(|v| match v {
                    Value::Int(i) => Ok(*i as isize),
                    v => Err(
                        Error::type_(format!("axis must hold ints, got a {}", v.type_name()))
                            .with_op(name),
                    ),
                })
                .collect::<Result<_>>()?,
        ),
        Some(v) => {
            return Err(Error::type_(format!(
                "axis must be an int, a tuple of ints or none, got a {}",
                v.type_name()
            ))
            .with_op(name));
        }
    };
    let keepdims = match args.opt("keepdims")? {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(v) => {
            return Err(Error::type_(format!(
                "keepdims must be true or false, got a {}",
                v.type_name()
            ))
            .with_op(name));
        }
    };
    let ddof = if matches!(name, "std" | "var") {
        match args.opt("ddof")? {
            None => 0,
            Some(Value::Int(i)) => i,
            Some(v) => {
                return Err(
                    Error::type_(format!("ddof must be an int, got a {}", v.type_name()))
                        .with_op(name),
                );
            }
        }
    } else {
        0
    };
    args.finish_with(&["axis", "keepdims", "ddof"])?;
    Ok(Value::Array(reduce_ddof(
        name,
        &x,
        axes.as_deref(),
        keepdims,
        ddof,
        interp.float_x(),
    )?))
}

/// Reduce `a` by the reduction `name` over `axes` (None: all).
pub fn reduce(
    name: &str,
    a: &Array,
    axes: Option<&[isize]>,
    keepdims: bool,
    float_x: DType,
) -> Result<Array> {
    reduce_ddof(name, a, axes, keepdims, 0, float_x)
}

/// `reduce` with `ddof` for std/var.
pub fn reduce_ddof(
    name: &str,
    a: &Array,
    axes: Option<&[isize]>,
    keepdims: bool,
    ddof: i64,
    float_x: DType,
) -> Result<Array> {
    let nd = a.ndim();
    let mut red = vec![false; nd];
    match axes {
        None => red.iter_mut().for_each(|r| *r = true),
        Some(ax) => {
            for &x in ax {
                let k = if x < 0 { x + nd as isize } else { x };
                if k < 0 || k >= nd as isize {
                    return Err(Error::index(format!(
                        "axis {x} is out of bounds for an array of dimension {nd}"
                    ))
                    .with_op(name)
                    .with_help(format!(
                        "axes run from {} to {}",
                        -(nd as isize),
                        nd as isize - 1
                    )));
                }
                if red[k as usize] {
                    return Err(Error::value(format!("repeated axis {x}")).with_op(name));
                }
                red[k as usize] = true;
            }
            if matches!(name, "argmax" | "argmin") && ax.len() > 1 {
                return Err(
                    Error::value(format!("{name} takes one axis or none, not a tuple"))
                        .with_op(name)
                        .with_help("reshape first to combine axes"),
                );
            }
        }
    }
    let m: usize = (0..nd).filter(|&d| red[d]).map(|d| a.shape()[d]).product();
    if m == 0 && matches!(name, "max" | "min" | "argmax" | "argmin") {
        return Err(Error::value(format!(
            "zero-size array to reduction operation {name} which has no identity"
        ))
        .with_op(name)
        .with_help("check the array is not empty before reducing"));
    }
    if a.device().is_gpu() {
        return crate::cuda::reduce::reduce_named(name, a, &red, keepdims, ddof, float_x);
    }
    let (mut ks, mut kst, mut rs, mut rst, mut out_shape) =
        (vec![], vec![], vec![], vec![], vec![]);
    for (d, &r) in red.iter().enumerate() {
        if r {
            rs.push(a.shape()[d]);
            rst.push(a.strides()[d]);
            if keepdims {
                out_shape.push(1);
            }
        } else {
            ks.push(a.shape()[d]);
            kst.push(a.strides()[d]);
            out_shape.push(a.shape()[d]);
        }
    }
    let plan = Plan {
        ks,
        kst,
        rs,
        rst,
        offset: a.offset(),
        m,
    };
    let data = a.host_read()?;
    let host = crate::with_dtype!(a.dtype(), S => {
        let d = S::slice(&data).ok_or_else(|| Error::internal("reduce: dtype mismatch"))?;
        run::<S>(name, d, &plan, ddof, float_x)?
    });
    Ok(Array::from_host(host, out_shape))
}

struct Plan {
    ks: Vec<usize>,
    kst: Vec<isize>,
    rs: Vec<usize>,
    rst: Vec<isize>,
    offset: usize,
    m: usize,
}

/// The reduced elements of one output position.
enum Lane<'a, S> {
    Slice(&'a [S]),
    Strided(&'a [S], layout::OffsetIter),
}

impl<S: Element> Lane<'_, S> {
    fn sum_f64(self, f: impl Fn(S) -> f64 + Sync + Send) -> f64 {
        match self {
            Lane::Slice(s) if s.len() >= PAR_LANE => {
                let parts: Vec<f64> = s.par_chunks(CHUNK).map(|c| fold_sum(c, &f)).collect();
                parts.iter().sum()
            }
            Lane::Slice(s) => fold_sum(s, f),
            Lane::Strided(d, it) => it.map(|o| f(d[o])).sum(),
        }
    }
    fn for_each(self, mut f: impl FnMut(S)) {
        match self {
            Lane::Slice(s) => s.iter().for_each(|&x| f(x)),
            Lane::Strided(d, it) => it.for_each(|o| f(d[o])),
        }
    }
}

impl Plan {
    fn lanes<'a, S: Element, R: Send>(
        &self,
        d: &'a [S],
        f: impl Fn(Lane<'a, S>) -> R + Sync,
    ) -> Vec<R> {
        let n_out: usize = self.ks.iter().product();
        let (ms, mst) = layout::merge_dims(&self.rs, &[&self.rst]);
        let contiguous = ms.is_empty() || (ms.len() == 1 && mst[0][0] == 1);
        let lane = |base: usize| {
            if self.m == 0 {
                // Empty lanes read nothing (their base may lie past the buffer).
                Lane::Slice(&d[..0])
            } else if contiguous {
                Lane::Slice(&d[base..base + self.m])
            } else {
                Lane::Strided(d, layout::OffsetIter::new(&self.rs, &self.rst, base))
            }
        };
        let bases = layout::OffsetIter::new(&self.ks, &self.kst, self.offset);
        if n_out > 1 && n_out * self.m >= 1 << 16 {
            let bases: Vec<usize> = bases.collect();
            bases.into_par_iter().map(|b| f(lane(b))).collect()
        } else {
            bases.map(|b| f(lane(b))).collect()
        }
    }
}

fn run<S: Element>(name: &str, d: &[S], p: &Plan, ddof: i64, float_x: DType) -> Result<HostData> {
    let is_float = S::DTYPE.is_float();
    let float_out = if is_float { S::DTYPE } else { float_x };
    let m = p.m as f64;
    Ok(match name {
        "sum" | "mean" if is_float => {
            let v = p.lanes(d, |l| l.sum_f64(|x| x.to_f64()));
            let div = if name == "mean" { m } else { 1.0 };
            HostData::from_f64s(float_out, v.into_iter().map(|s| s / div))
        }
        "sum" => HostData::I64(p.lanes(d, |l| {
            let mut s = 0i64;
            l.for_each(|x| s = s.wrapping_add(x.to_i64()));
            s
        })),
        "mean" => {
            let v = p.lanes(d, |l| l.sum_f64(|x| x.to_i64() as f64));
            HostData::from_f64s(float_out, v.into_iter().map(|s| s / m))
        }
        "prod" if is_float => HostData::from_f64s(
            S::DTYPE,
            p.lanes(d, |l| {
                let mut s = 1.0;
                l.for_each(|x| s *= x.to_f64());
                s
            })
            .into_iter(),
        ),
        "prod" => HostData::I64(p.lanes(d, |l| {
            let mut s = 1i64;
            l.for_each(|x| s = s.wrapping_mul(x.to_i64()));
            s
        })),
        "var" | "std" => {
            let v = p.lanes(d, |l| {
                let (mean, ss) = match l {
                    Lane::Slice(s) => {
                        let mean = Lane::Slice(s).sum_f64(|x| x.to_f64()) / m;
                        (
                            mean,
                            Lane::Slice(s).sum_f64(move |x| (x.to_f64() - mean).powi(2)),
                        )
                    }
                    Lane::Strided(dd, it) => {
                        let offs: Vec<usize> = it.collect();
                        let mean = offs.iter().map(|&o| dd[o].to_f64()).sum::<f64>() / m;
                        (
                            mean,
                            offs.iter().map(|&o| (dd[o].to_f64() - mean).powi(2)).sum(),
                        )
                    }
                };
                let _ = mean;
                let var = ss / (m - ddof as f64);
                let var = if m - ddof as f64 <= 0.0 {
                    f64::NAN
                } else {
                    var
                };
                if name == "std" { var.sqrt() } else { var }
            });
            HostData::from_f64s(float_out, v.into_iter())
        }
        "max" | "min" => {
            let max = name == "max";
            let v = p.lanes(d, |l| extreme_lane(l, max));
            crate::with_dtype!(S::DTYPE, T => T::wrap(v.into_iter().map(|x| crate::array::convert::<S, T>(x)).collect()))
        }
        "argmax" | "argmin" => {
            let max = name == "argmax";
            HostData::I64(p.lanes(d, |l| {
                let (mut best, mut bi, mut i) = (None::<S>, 0i64, 0i64);
                l.for_each(|x| {
                    let better = match best {
                        None => true,
                        Some(b) => {
                            let (xf, bf) = (x.to_f64(), b.to_f64());
                            !bf.is_nan()
                                && (xf.is_nan()
                                    || if is_float {
                                        if max { xf > bf } else { xf < bf }
                                    } else if max {
                                        x.to_i64() > b.to_i64()
                                    } else {
                                        x.to_i64() < b.to_i64()
                                    })
                        }
                    };
                    if better {
                        best = Some(x);
                        bi = i;
                    }
                    i += 1;
                });
                bi
            }))
        }
        "any" | "all" => {
            let any = name == "any";
            HostData::Bool(p.lanes(d, |l| {
                let mut r = !any;
                l.for_each(|x| {
                    let nz = if is_float {
                        x.to_f64() != 0.0
                    } else {
                        x.to_i64() != 0
                    };
                    if any { r |= nz } else { r &= nz }
                });
                r
            }))
        }
        _ => return Err(Error::name(format!("`{name}` is not a reduction"))),
    })
}

/// Max/min of a lane in its own type, nan-propagating (the lane is not empty).
fn extreme_lane<S: Element>(l: Lane<'_, S>, max: bool) -> S {
    macro_rules! fast {
        ($t:ty, $s:expr) => {{
            // SAFETY-free reinterpretation through the Element trait: S is $t here.
            let s: &[$t] = $s;
            let init = s[0];
            let r = if max {
                extreme::<$t, true>(s, init)
            } else {
                extreme::<$t, false>(s, init)
            };
            return S::from_f64(r as f64);
        }};
    }
    if let Lane::Slice(s) = &l {
        if let Some(f) = f32_slice(s) {
            fast!(f32, f)
        }
        if let Some(f) = f64_slice(s) {
            fast!(f64, f)
        }
    }
    let mut best: Option<S> = None;
    let is_float = S::DTYPE.is_float();
    l.for_each(|x| {
        best = Some(match best {
            None => x,
            Some(b) if is_float => {
                let (xf, bf) = (x.to_f64(), b.to_f64());
                if bf.is_nan() || (!xf.is_nan() && (if max { bf >= xf } else { bf <= xf })) {
                    b
                } else {
                    x
                }
            }
            Some(b) => {
                if (max && x.to_i64() > b.to_i64()) || (!max && x.to_i64() < b.to_i64()) {
                    x
                } else {
                    b
                }
            }
        })
    });
    best.unwrap_or_default()
}

fn f32_slice<S: Element>(s: &[S]) -> Option<&[f32]> {
    (S::DTYPE == DType::Float32).then(|| {
        // SAFETY: S is f32 (checked through its dtype), so the layouts are identical.
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const f32, s.len()) }
    })
}

fn f64_slice<S: Element>(s: &[S]) -> Option<&[f64]> {
    (S::DTYPE == DType::Float64).then(|| {
        // SAFETY: S is f64 (checked through its dtype), so the layouts are identical.
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const f64, s.len()) }
    })
}
