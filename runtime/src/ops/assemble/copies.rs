//! The copies made by one remap pass on the array's device: `roll tile
//! repeat pad`. Each builds its plan (the per-axis tables of
//! `opid::assemble`) from the arguments alone; the gradient rules build the
//! same plan again to send the gradient back (a remap the other way, or a
//! segment sum along each mapped axis).

use super::{choice_arg, data_arg, int_list, opt_axis, table_with};
use crate::array::shape_ops::norm_axis;
use crate::array::{Array, Scalar};
use crate::backend;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::opid::assemble::{AxisMap, PadMode, Remap};
use crate::value::Value;

/// `roll`'s plan: the shift of each axis (axis 0 of the flattened array
/// when `flat`).
pub(crate) struct RollPlan {
    pub flat: bool,
    pub shifts: Vec<(usize, i64)>,
}

/// NumPy's `roll` arguments: shift and axis broadcast together (ints or 1-d
/// sequences); shifts of one axis add up.
pub(crate) fn roll_plan(shape: &[usize], shift: &Value, axis: Option<&Value>) -> Result<RollPlan> {
    let sh = int_list(shift, "shift")?;
    let (flat, axes) = match axis {
        None | Some(Value::None) => (true, vec![0i64]),
        Some(v) => (false, int_list(v, "axis")?),
    };
    let nd = if flat { 1 } else { shape.len() };
    let n = sh.len().max(axes.len());
    if (sh.len() != n && sh.len() != 1) || (axes.len() != n && axes.len() != 1) {
        return Err(Error::value(format!(
            "roll: {} shifts and {} axes do not pair up",
            sh.len(),
            axes.len()
        ))
        .with_op("roll")
        .with_help("give one shift per axis, or one shift for all the axes"));
    }
    let mut shifts: Vec<(usize, i64)> = Vec::new();
    for k in 0..n {
        let ax = norm_axis(axes[k.min(axes.len() - 1)], nd, "roll")?;
        let s = sh[k.min(sh.len() - 1)];
        match shifts.iter_mut().find(|(a, _)| *a == ax) {
            Some((_, t)) => *t = t.wrapping_add(s),
            None => shifts.push((ax, s)),
        }
    }
    Ok(RollPlan { flat, shifts })
}

/// `x` rolled by the plan (by minus its shifts when `back`: the gradient).
pub(crate) fn roll_apply(x: &Array, plan: &RollPlan, back: bool) -> Result<Array> {
    let src = if plan.flat {
        x.reshape(&[-1])?
    } else {
        x.clone()
    };
    let mut m = Remap::identity(src.shape());
    for &(ax, s) in &plan.shifts {
        let n = src.shape()[ax] as i64;
        if n == 0 {
            continue;
        }
        let s = if back { s.wrapping_neg() } else { s }.rem_euclid(n);
        if s != 0 {
            m.axes[ax] = AxisMap::Roll { shift: s };
        }
    }
    let out = backend::assemble::remap(&src, &m)?;
    if plan.flat {
        out.reshape(&ishape(x.shape()))
    } else {
        Ok(out)
    }
}

pub(crate) fn ishape(s: &[usize]) -> Vec<i64> {
    s.iter().map(|&d| d as i64).collect()
}

pub(super) fn roll(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let shift = a.req("shift")?;
    let axis = a.opt("axis")?;
    a.finish()?;
    let plan = roll_plan(x.shape(), &shift, axis.as_ref())?;
    Ok(roll_apply(&x, &plan, false)?.into())
}

/// `tile`'s plan: the repetitions per axis of the source made to `reps`'s
/// length (leading axes of length 1 added to x), and that source's shape.
pub(crate) struct TilePlan {
    pub reps: Vec<usize>,
    pub src_shape: Vec<usize>,
}

pub(crate) fn tile_plan(shape: &[usize], reps: &Value) -> Result<TilePlan> {
    let mut r: Vec<usize> = Vec::new();
    for v in int_list(reps, "reps")? {
        r.push(usize::try_from(v).map_err(|_| {
            Error::value(format!("tile: reps must not be negative, got {v}"))
                .with_op("tile")
                .with_help("each repetition count is 0 or more")
        })?);
    }
    let nd = r.len().max(shape.len());
    let mut src_shape = vec![1usize; nd - shape.len()];
    src_shape.extend_from_slice(shape);
    let mut reps = vec![1usize; nd - r.len()];
    reps.extend(r);
    Ok(TilePlan { reps, src_shape })
}

pub(super) fn tile(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("x")?)?;
    let reps = a.req("reps")?;
    a.finish()?;
    let plan = tile_plan(x.shape(), &reps)?;
    let mut src = x.clone();
    while src.ndim() < plan.src_shape.len() {
        src = src.expand_dims(0)?;
    }
    let m = tile_remap(&plan)?;
    crate::array::alloc::checked_numel(&m.shape, x.dtype())?;
    Ok(backend::assemble::remap(&src, &m)?.into())
}

/// The remap of a tile: every repeated axis read modulo its length.
pub(crate) fn tile_remap(plan: &TilePlan) -> Result<Remap> {
    let mut m = Remap::identity(&plan.src_shape);
    for (d, (&n, &r)) in plan.src_shape.iter().zip(&plan.reps).enumerate() {
        m.shape[d] = n.checked_mul(r).ok_or_else(|| too_large("tile"))?;
        if r != 1 {
            m.axes[d] = AxisMap::Roll { shift: 0 };
        }
    }
    Ok(m)
}

pub(crate) fn too_large(op: &str) -> Error {
    Error::new(
        crate::error::ErrorKind::OutOfMemory,
        format!("{op}: the result would be too large to allocate"),
    )
    .with_help("use smaller counts or widths")
}

/// `repeat`'s table: coordinate `j` of the source `counts[j]` times in
/// order (one count for all, or one per coordinate of an axis of `n`).
pub(crate) fn repeat_table(counts: &[i64], n: usize) -> Result<Vec<i64>> {
    if counts.len() != 1 && counts.len() != n {
        return Err(Error::value(format!(
            "repeat: {} counts for an axis of length {n}",
            counts.len()
        ))
        .with_op("repeat")
        .with_help("give one count for all the elements, or one per element along the axis"));
    }
    if let Some(c) = counts.iter().find(|&&c| c < 0) {
        return Err(
            Error::value(format!("repeat: counts must not be negative, got {c}"))
                .with_op("repeat")
                .with_help("each count is 0 or more"),
        );
    }
    let count = |j: usize| counts[if counts.len() == 1 { 0 } else { j }] as usize;
    let mut total: usize = 0;
    for j in 0..n {
        total = total
            .checked_add(count(j))
            .ok_or_else(|| too_large("repeat"))?;
    }
    let mut t = table_with(total, |_| 0)?;
    let mut k = 0;
    for j in 0..n {
        for _ in 0..count(j) {
            t[k] = j as i64;
            k += 1;
        }
    }
    Ok(t)
}

pub(super) fn repeat(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("a")?)?;
    let counts = int_list(&a.req("repeats")?, "repeats")?;
    let axis = opt_axis(&mut a, None)?;
    a.finish()?;
    let (src, ax) = match axis {
        None => (x.reshape(&[-1])?, 0),
        Some(ax) => (x.clone(), norm_axis(ax, x.ndim(), "repeat")?),
    };
    let m = repeat_remap(src.shape(), ax, &counts)?;
    crate::array::alloc::checked_numel(&m.shape, x.dtype())?;
    Ok(backend::assemble::remap(&src, &m)?.into())
}

/// The remap of `repeat` along `ax`: a formula for one count, else a table.
pub(crate) fn repeat_remap(shape: &[usize], ax: usize, counts: &[i64]) -> Result<Remap> {
    let n = shape[ax];
    let mut m = Remap::identity(shape);
    match counts {
        [c] if *c >= 0 => {
            m.shape[ax] = n
                .checked_mul(*c as usize)
                .ok_or_else(|| too_large("repeat"))?;
            m.axes[ax] = AxisMap::Div { by: (*c).max(1) };
        }
        _ => {
            let t = repeat_table(counts, n)?;
            m.shape[ax] = t.len();
            m.axes[ax] = AxisMap::Table(t);
        }
    }
    Ok(m)
}

/// `pad`'s plan: (before, after) per axis, the mode (`None`: wrap), the
/// constant fills.
pub(crate) struct PadPlan {
    pub widths: Vec<(usize, usize)>,
    pub mode: Option<PadMode>,
    pub fill: Vec<[Scalar; 2]>,
}

impl PadPlan {
    /// The remap of the padded array.
    pub(crate) fn remap(&self, shape: &[usize]) -> Result<Remap> {
        let mut m = Remap::identity(shape);
        m.fill = self.fill.clone();
        for (d, &(b, a)) in self.widths.iter().enumerate() {
            if b == 0 && a == 0 {
                continue;
            }
            let n = shape[d];
            m.shape[d] = n
                .checked_add(b)
                .and_then(|l| l.checked_add(a))
                .ok_or_else(|| too_large("pad"))?;
            m.axes[d] = match self.mode {
                Some(mode) => AxisMap::Pad {
                    before: b as i64,
                    mode,
                },
                None => AxisMap::Roll {
                    shift: (b % n.max(1)) as i64,
                },
            };
        }
        Ok(m)
    }
}

/// `v` (a number, a sequence, a sequence of pairs, or an array) broadcast
/// to `ndim` (before, after) pairs as NumPy's `pad` reads `pad_width` and
/// `constant_values`.
fn pairs(v: &Value, ndim: usize, what: &str) -> Result<Vec<[Scalar; 2]>> {
    let bad = |shape: &str| {
        Error::value(format!(
            "pad: {what} of shape {shape} does not fit an array of {ndim} dimension{}",
            if ndim == 1 { "" } else { "s" }
        ))
        .with_op("pad")
        .with_help(format!(
            "{what} is n, (before, after), or one (before, after) per axis"
        ))
    };
    let a = crate::array::create::value_to_array(v, None, crate::dtype::DType::Float64)
        .map_err(|_| bad("(ragged)"))?;
    let vals: Vec<Scalar> = if a.dtype().is_float() {
        a.to_vec::<f64>()?.into_iter().map(Scalar::Float).collect()
    } else if a.dtype().is_bool() {
        a.to_vec::<bool>()?.into_iter().map(Scalar::Bool).collect()
    } else {
        a.to_vec::<i64>()?.into_iter().map(Scalar::Int).collect()
    };
    let (rows, cols) = match *a.shape() {
        [] => (1, 1),
        [c] => (1, c),
        [r, c] => (r, c),
        _ => (usize::MAX, 0),
    };
    if !(rows == 1 || rows == ndim) || !(cols == 1 || cols == 2) {
        return Err(bad(&crate::array::layout::fmt_shape(a.shape())));
    }
    Ok((0..ndim)
        .map(|d| {
            let r = if rows == 1 { 0 } else { d };
            let at = |c: usize| vals[r * cols + if cols == 1 { 0 } else { c }];
            [at(0), at(1)]
        })
        .collect())
}

fn width(s: Scalar) -> Result<usize> {
    let w = match s {
        Scalar::Int(i) => i,
        Scalar::Bool(b) => b as i64,
        Scalar::Float(f) if f.is_finite() => f.round_ties_even() as i64,
        Scalar::Float(f) => {
            return Err(
                Error::value(format!("pad: a pad width must be finite, not {f}")).with_op("pad"),
            );
        }
        Scalar::Complex(..) => {
            return Err(Error::type_("pad: a pad width must be an int, not complex").with_op("pad"));
        }
    };
    usize::try_from(w).map_err(|_| {
        Error::value(format!("pad: pad widths must not be negative, got {w}"))
            .with_op("pad")
            .with_help("widths are 0 or more: (before, after) per axis")
    })
}

pub(crate) fn pad_plan(
    shape: &[usize],
    pad_width: &Value,
    mode: &str,
    constant_values: Option<&Value>,
) -> Result<PadPlan> {
    let nd = shape.len();
    let widths = pairs(pad_width, nd, "pad_width")?
        .into_iter()
        .map(|[b, a]| Ok((width(b)?, width(a)?)))
        .collect::<Result<Vec<_>>>()?;
    if nd == 0 {
        // No axis to pad, but NumPy still rejects a negative width.
        for [b, a] in pairs(pad_width, 1, "pad_width")? {
            width(b)?;
            width(a)?;
        }
    }
    let mode = match mode {
        "constant" => Some(PadMode::Constant),
        "edge" => Some(PadMode::Edge),
        "reflect" => Some(PadMode::Reflect),
        "symmetric" => Some(PadMode::Symmetric),
        _ => None,
    };
    let fill = match constant_values {
        Some(v) => pairs(v, nd, "constant_values")?,
        None => vec![[Scalar::Int(0); 2]; nd],
    };
    if mode != Some(PadMode::Constant) {
        for (d, &(b, a)) in widths.iter().enumerate() {
            if shape[d] == 0 && (b > 0 || a > 0) {
                return Err(Error::value(format!(
                    "pad: cannot extend the empty axis {d} with a mode other than \"constant\""
                ))
                .with_op("pad")
                .with_help("an empty axis can only be padded with mode=\"constant\""));
            }
        }
    }
    Ok(PadPlan { widths, mode, fill })
}

pub(super) fn pad(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = data_arg(i, &a.req("x")?)?;
    let pad_width = a.req("pad_width")?;
    let mode = match a.opt("mode")? {
        None => "constant",
        Some(v) => choice_arg(
            &v,
            "pad",
            "mode",
            &["constant", "edge", "reflect", "symmetric", "wrap"],
        )?,
    };
    let cv = a.kw("constant_values");
    if let Some(v) = a.kw("reflect_type")
        && !(matches!(&v, Value::Str(s) if &**s == "even")
            && matches!(mode, "reflect" | "symmetric"))
    {
        return Err(Error::value(
            "pad: only reflect_type=\"even\" with mode \"reflect\" or \"symmetric\" is supported",
        )
        .with_op("pad"));
    }
    a.finish_with(&["mode", "constant_values", "reflect_type"])?;
    if cv.is_some() && mode != "constant" {
        return Err(Error::value(format!(
            "pad: constant_values goes with mode=\"constant\", not mode=\"{mode}\""
        ))
        .with_op("pad")
        .with_help("drop constant_values, or use mode=\"constant\""));
    }
    let plan = pad_plan(x.shape(), &pad_width, mode, cv.as_ref())?;
    // NumPy 2: a Python int that int32 cannot hold is an OverflowError.
    if x.dtype() == crate::dtype::DType::Int32
        && let Some(k) = plan.fill.iter().flatten().find_map(|s| match *s {
            Scalar::Int(k) if i32::try_from(k).is_err() => Some(k),
            _ => None,
        })
    {
        return Err(crate::array::create::int32_overflow(k, Some("pad"))
            .with_op("pad")
            .with_help("use a constant int32 holds, or astype(int64) first"));
    }
    let m = plan.remap(x.shape())?;
    crate::array::alloc::checked_numel(&m.shape, x.dtype())?;
    Ok(backend::assemble::remap(&x, &m)?.into())
}
