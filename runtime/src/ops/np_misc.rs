//! NumPy's small array helpers gcalc lacked: `spacing` (composed of
//! `nextafter`, every device), `iterable`, `may_share_memory
//! shares_memory` (views share their base's buffer), `ascontiguousarray
//! asfortranarray asanyarray require asarray_chkfinite` (layout and checks
//! around `asarray`, through table ops so both devices serve).

use super::creation::{array_arg, dtype_arg, op};
use super::stats::{arr, call_op};
use crate::array::Array;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use std::collections::HashSet;

pub static OPS: &[OpDef] = &[
    OpDef {
        name: "asanyarray",
        sig: "asanyarray(a, dtype=none, device=none, copy=none)",
        doc: "Alias of asarray (gcalc has no array subclasses): a as an array, without a copy when it already is one of the asked dtype and device.",
        ..super::nparr::construct::ASARRAY
    },
    op!(
        "ascontiguousarray",
        "ascontiguousarray(a, dtype=none)",
        "a as a C-contiguous array of at least one dimension (0-d becomes shape (1,)): given back as it is when it already is one, else a contiguous copy on its device.",
        false,
        ascontiguousarray
    ),
    op!(
        "asfortranarray",
        "asfortranarray(a, dtype=none)",
        "a as a Fortran-ordered (column-major) array of at least one dimension: the transpose of a contiguous copy of a's transpose (a view with column-major strides); given back as it is when it already is one.",
        false,
        asfortranarray
    ),
    op!(
        "require",
        "require(a, dtype=none, requirements=none)",
        "a as an array meeting requirements: \"C\" (C-contiguous, \"C_CONTIGUOUS\"), \"F\" (Fortran, \"F_CONTIGUOUS\"), \"A\" \"W\" \"O\" \"E\" (always met: gcalc arrays are aligned, writeable, owned or views); a string or a list of them.",
        false,
        require
    ),
    op!(
        "asarray_chkfinite",
        "asarray_chkfinite(a, dtype=none)",
        "a as an array (as asarray), after checking every element is finite: nan or inf is NumPy's ValueError \"array must not contain infs or NaNs\".",
        false,
        asarray_chkfinite
    ),
    op!(
        "may_share_memory",
        "may_share_memory(a, b)",
        "true if the arrays a and b use one buffer and the memory bounds of their views overlap (a view and its base; x[::2] and x[1::2] too, though no element is shared: see shares_memory); numbers and lists share nothing.",
        false,
        may_share_memory
    ),
    op!(
        "shares_memory",
        "shares_memory(a, b)",
        "true if a and b have an element in common in memory (x[::2] and x[1::2] share a buffer but no element); exact, by the views' element offsets.",
        false,
        shares_memory
    ),
    op!(
        "iterable",
        "iterable(y)",
        "true if y can be iterated (lists, tuples, dicts, strings, ranges, arrays of at least one dimension); false for numbers and 0-d arrays, as NumPy's.",
        false,
        iterable
    ),
];

/// `spacing`, in a table of its own (help's elementwise family).
pub static EW_OPS: &[OpDef] = &[op!(
    "spacing",
    "spacing(x)",
    "The distance from x to the next float of its dtype away from zero (nextafter(x, copysign(inf, x)) - x; negative for negative x); ints give floatX; inf and nan give nan.",
    false,
    spacing
)];

/// `a` as an array, then cast when `dtype` was given.
fn with_dtype(i: &mut Interp, a: &mut Args) -> Result<Array> {
    let x = array_arg(i, &a.req("a")?)?;
    let dt = match a.opt("dtype")? {
        None | Some(Value::None) => None,
        Some(v) => Some(dtype_arg(&v)?),
    };
    match dt {
        Some(d) if d != x.dtype() => arr(
            call_op(i, "astype", vec![Value::Array(x), Value::DType(d)], vec![])?,
            a.name,
        ),
        _ => Ok(x),
    }
}

/// `x` with at least one dimension (a 0-d array as shape (1,)).
fn at_least_1d(i: &mut Interp, x: Array, name: &str) -> Result<Array> {
    if x.ndim() > 0 {
        return Ok(x);
    }
    arr(
        call_op(
            i,
            "reshape",
            vec![Value::Array(x), Value::tuple(vec![Value::Int(1)])],
            vec![],
        )?,
        name,
    )
}

fn c_order(i: &mut Interp, x: Array, name: &str) -> Result<Array> {
    let x = at_least_1d(i, x, name)?;
    if x.is_contiguous() {
        return Ok(x);
    }
    arr(call_op(i, "copy", vec![Value::Array(x)], vec![])?, name)
}

fn f_order(i: &mut Interp, x: Array, name: &str) -> Result<Array> {
    let x = at_least_1d(i, x, name)?;
    let t = arr(
        call_op(i, "transpose", vec![Value::Array(x)], vec![])?,
        name,
    )?;
    if t.is_contiguous() {
        return arr(
            call_op(i, "transpose", vec![Value::Array(t)], vec![])?,
            name,
        );
    }
    let c = call_op(i, "copy", vec![Value::Array(t)], vec![])?;
    arr(call_op(i, "transpose", vec![c], vec![])?, name)
}

fn ascontiguousarray(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = with_dtype(i, &mut a)?;
    a.finish_with(&["dtype"])?;
    Ok(Value::Array(c_order(i, x, "ascontiguousarray")?))
}

fn asfortranarray(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = with_dtype(i, &mut a)?;
    a.finish_with(&["dtype"])?;
    Ok(Value::Array(f_order(i, x, "asfortranarray")?))
}

fn require(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "require";
    let mut x = with_dtype(i, &mut a)?;
    let reqs = match a.opt("requirements")? {
        None | Some(Value::None) => Vec::new(),
        Some(Value::Str(s)) => vec![s.to_string()],
        Some(v @ (Value::List(_) | Value::Tuple(_))) => i
            .collect_items(v)?
            .into_iter()
            .map(|r| match r {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(Error::type_(format!(
                    "require(): each requirement must be a string, not {}",
                    other.a_type_name()
                ))),
            })
            .collect::<Result<_>>()?,
        Some(v) => {
            return Err(Error::type_(format!(
                "require(): requirements must be a string or a list of strings, not {}",
                v.a_type_name()
            )));
        }
    };
    a.finish_with(&["dtype", "requirements"])?;
    let (mut c, mut f) = (false, false);
    for r in &reqs {
        match r.to_ascii_uppercase().as_str() {
            "C" | "C_CONTIGUOUS" | "CONTIGUOUS" => c = true,
            "F" | "F_CONTIGUOUS" | "FORTRAN" => f = true,
            "A" | "ALIGNED" | "W" | "WRITEABLE" | "O" | "OWNDATA" | "E" | "ENSUREARRAY" => {}
            other => {
                return Err(
                    Error::value(format!("require(): unknown requirement \"{other}\""))
                        .with_help("requirements: \"C\" \"F\" \"A\" \"W\" \"O\" \"E\""),
                );
            }
        }
    }
    if c && f {
        return Err(
            Error::value("require(): cannot be both C and Fortran contiguous")
                .with_help("ask for \"C\" or \"F\", not both"),
        );
    }
    if c {
        x = c_order(i, x, name)?;
    } else if f {
        x = f_order(i, x, name)?;
    }
    Ok(Value::Array(x))
}

fn asarray_chkfinite(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "asarray_chkfinite";
    let x = with_dtype(i, &mut a)?;
    a.finish_with(&["dtype"])?;
    if x.dtype().is_float() || x.dtype().is_complex() {
        let fin = call_op(i, "isfinite", vec![Value::Array(x.clone())], vec![])?;
        let all = arr(call_op(i, "all", vec![fin], vec![])?, name)?;
        if !all.to_f64_vec()?.first().is_some_and(|&v| v != 0.0) {
            return Err(Error::value("array must not contain infs or NaNs")
                .with_op(name)
                .with_help("find them with isfinite(a); replace them with nan_to_num(a) or where(isfinite(a), a, 0)"));
        }
    }
    Ok(Value::Array(x))
}

/// The two arrays of a memory query; `None` when either is not an array.
fn pair(a: &mut Args) -> Result<Option<(Array, Array)>> {
    let (x, y) = (a.req("a")?, a.req("b")?);
    Ok(match (x, y) {
        (Value::Array(x), Value::Array(y)) => Some((x, y)),
        _ => None,
    })
}

fn may_share_memory(_: &mut Interp, mut a: Args) -> Result<Value> {
    let p = pair(&mut a)?;
    a.finish_with(&["max_work"])?;
    Ok(Value::Bool(p.is_some_and(|(x, y)| {
        x.size() > 0 && y.size() > 0 && x.shares_buffer(&y) && {
            let ((x0, x1), (y0, y1)) = (extent(&x), extent(&y));
            x0 < y1 && y0 < x1
        }
    })))
}

/// The bytes a non-empty view spans in its buffer, [first, end) (NumPy's
/// memory bounds, which `may_share_memory` compares).
fn extent(x: &Array) -> (usize, usize) {
    let (mut lo, mut hi) = (x.offset() as isize, x.offset() as isize);
    for (&n, &st) in x.shape().iter().zip(x.strides()) {
        let span = st * (n as isize - 1);
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    let sz = x.dtype().size();
    (lo.max(0) as usize * sz, (hi.max(0) as usize + 1) * sz)
}

fn shares_memory(_: &mut Interp, mut a: Args) -> Result<Value> {
    let p = pair(&mut a)?;
    a.finish_with(&["max_work"])?;
    let Some((x, y)) = p else {
        return Ok(Value::Bool(false));
    };
    if x.size() == 0 || y.size() == 0 || !x.shares_buffer(&y) {
        return Ok(Value::Bool(false));
    }
    // Byte ranges of each element, so views of different dtypes compare too.
    let (sx, sy) = (x.dtype().size(), y.dtype().size());
    let (small, big, ss, sb) = if x.size() <= y.size() {
        (&x, &y, sx, sy)
    } else {
        (&y, &x, sy, sx)
    };
    let mut bytes = HashSet::new();
    for o in small.offsets() {
        let start = o * ss;
        bytes.extend(start..start + ss);
    }
    let hit = big.offsets().any(|o| {
        let start = o * sb;
        (start..start + sb).any(|b| bytes.contains(&b))
    });
    Ok(Value::Bool(hit))
}

fn iterable(_: &mut Interp, mut a: Args) -> Result<Value> {
    let y = a.req("y")?;
    a.finish()?;
    Ok(Value::Bool(match &y {
        Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Str(_) | Value::Range(..) => {
            true
        }
        Value::Array(x) => x.ndim() > 0,
        _ => false,
    }))
}

fn spacing(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    let x = match x {
        Value::Array(x) if !x.dtype().is_float() => {
            if x.dtype().is_complex() {
                return Err(Error::type_(
                    "spacing(): complex input is not supported (NumPy's ufunc has no complex loop)",
                )
                .with_op("spacing")
                .with_help("spacing(z.real), spacing(z.imag)"));
            }
            call_op(
                i,
                "astype",
                vec![Value::Array(x), Value::DType(i.float_x())],
                vec![],
            )?
        }
        Value::Int(n) => Value::Float(n as f64),
        Value::Bool(b) => Value::Float(f64::from(u8::from(b))),
        v => v,
    };
    // x + 0.0: -0.0's spacing is +5e-324, as NumPy's.
    let sign = call_op(i, "add", vec![x.clone(), Value::Float(0.0)], vec![])?;
    let toward = call_op(
        i,
        "copysign",
        vec![Value::Float(f64::INFINITY), sign],
        vec![],
    )?;
    let next = call_op(i, "nextafter", vec![x.clone(), toward], vec![])?;
    call_op(i, "subtract", vec![next, x], vec![])
}
