//! The function rows of the shape and assembly family (issue 17): views,
//! joins and cuts, copies (`roll tile repeat pad`), triangles and
//! diagonals, gathers by index. Their arguments are drawn by this file's
//! generators (`Arg::Gen`), which read the arguments drawn before them:
//! pad widths for the array's rank, indices within an axis's length
//! (sometimes out of it), a part of a split that exists. Tuple results are
//! compared one part at a time (`split(...)[k]`).

use crate::lit::{self, ALL_DTYPES, ArrayLit, DType, Data, INTS};
use crate::ops::{Arg, ArgVal, FnSpec, arr, shape_of, text};
use crate::outcome::Tol;
use crate::rng::Rng;

const ANY: Arg = arr(ALL_DTYPES, 0, 4, Data::Small);
const ANY1: Arg = arr(ALL_DTYPES, 1, 4, Data::Small);
const AXIS: Arg = Arg::Axis { of: 0, none: true };
const AXIS_INT: Arg = Arg::Axis { of: 0, none: false };

const fn row(
    name: &'static str,
    gcalc: &'static str,
    numpy: &'static str,
    args: &'static [Arg],
) -> FnSpec {
    FnSpec {
        name,
        gcalc,
        numpy,
        args,
        tol: Tol::Exact,
    }
}

/// The rows; `functions_match_numpy` runs them beside `ops::FUNCTIONS`.
pub const ASSEMBLE: &[FnSpec] = &[
    row(
        "flip",
        "flip({0}, axis={1})",
        "np.flip({0}, axis={1})",
        &[ANY, Arg::Gen(axes_or_none)],
    ),
    row("fliplr", "fliplr({0})", "np.fliplr({0})", &[ANY]),
    row("flipud", "flipud({0})", "np.flipud({0})", &[ANY]),
    row(
        "rot90",
        "rot90({0}, {1}, axes={2})",
        "np.rot90({0}, {1}, axes={2})",
        &[ANY, Arg::Gen(small_int), Arg::Gen(axis_pair)],
    ),
    row(
        "swapaxes",
        "swapaxes({0}, {1}, {2})",
        "np.swapaxes({0}, {1}, {2})",
        &[ANY1, AXIS_INT, AXIS_INT],
    ),
    row(
        "moveaxis",
        "moveaxis({0}, {1})",
        "np.moveaxis({0}, {1})",
        &[ANY, Arg::Gen(move_axes)],
    ),
    row(
        "diagonal",
        "diagonal({0}, {1}, {2}, {3})",
        "np.diagonal({0}, {1}, {2}, {3})",
        &[ANY, Arg::Gen(small_int), AXIS_INT, AXIS_INT],
    ),
    row(
        "trace",
        "trace({0}, {1}, {2}, {3})",
        "np.trace({0}, {1}, {2}, {3})",
        &[ANY, Arg::Gen(small_int), AXIS_INT, AXIS_INT],
    ),
    row(
        "diag",
        "diag({0}, k={1})",
        "np.diag({0}, k={1})",
        &[arr(ALL_DTYPES, 0, 3, Data::Small), Arg::Gen(small_int)],
    ),
    row(
        "triu",
        "triu({0}, k={1})",
        "np.triu({0}, k={1})",
        &[ANY, Arg::Gen(small_int)],
    ),
    row(
        "tril",
        "tril({0}, k={1})",
        "np.tril({0}, k={1})",
        &[ANY, Arg::Gen(small_int)],
    ),
    row(
        "atleast_1d",
        "atleast_1d({0})",
        "np.atleast_1d({0})",
        &[ANY],
    ),
    row(
        "atleast_2d",
        "atleast_2d({0})",
        "np.atleast_2d({0})",
        &[ANY],
    ),
    row(
        "atleast_3d",
        "atleast_3d({0})",
        "np.atleast_3d({0})",
        &[ANY],
    ),
    row(
        "atleast_2d_parts",
        "atleast_2d({0}, {1})[1]",
        "np.atleast_2d({0}, {1})[1]",
        &[ANY, ANY],
    ),
    row(
        "hstack",
        "hstack([{0}, {1}])",
        "np.hstack([{0}, {1}])",
        &[ANY, Arg::Gen(partner_h)],
    ),
    row(
        "vstack",
        "vstack([{0}, {1}])",
        "np.vstack([{0}, {1}])",
        &[ANY, Arg::Gen(partner_v)],
    ),
    row(
        "dstack",
        "dstack([{0}, {1}])",
        "np.dstack([{0}, {1}])",
        &[ANY, Arg::Gen(partner_d)],
    ),
    row(
        "column_stack",
        "column_stack([{0}, {1}])",
        "np.column_stack([{0}, {1}])",
        &[arr(ALL_DTYPES, 0, 3, Data::Small), Arg::Gen(partner_c)],
    ),
    row(
        "concatenate",
        "concatenate([{0}, {2}], axis={1})",
        "np.concatenate([{0}, {2}], axis={1})",
        &[ANY1, AXIS_INT, Arg::Gen(partner_axis)],
    ),
    row(
        "split",
        "split({0}, {2}, axis={1})[{3}]",
        "np.split({0}, {2}, axis={1})[{3}]",
        &[
            arr(ALL_DTYPES, 1, 3, Data::Small),
            AXIS_INT,
            Arg::Gen(sections),
            Arg::Gen(part),
        ],
    ),
    row(
        "array_split",
        "array_split({0}, {2}, axis={1})[{3}]",
        "np.array_split({0}, {2}, axis={1})[{3}]",
        &[
            arr(ALL_DTYPES, 1, 3, Data::Small),
            AXIS_INT,
            Arg::Gen(sections),
            Arg::Gen(part),
        ],
    ),
    row(
        "meshgrid",
        "meshgrid({0}, {1}, indexing={2})[{3}]",
        "np.meshgrid({0}, {1}, indexing={2})[{3}]",
        &[
            arr(ALL_DTYPES, 0, 2, Data::Small),
            arr(ALL_DTYPES, 0, 2, Data::Small),
            Arg::Gen(indexing),
            Arg::Gen(zero_or_one),
        ],
    ),
    row(
        "meshgrid3",
        "meshgrid({0}, {1}, {0}, indexing={2})[2]",
        "np.meshgrid({0}, {1}, {0}, indexing={2})[2]",
        &[
            arr(ALL_DTYPES, 1, 1, Data::Small),
            arr(ALL_DTYPES, 1, 1, Data::Small),
            Arg::Gen(indexing),
        ],
    ),
    row(
        "roll",
        "roll({0}, {1}, axis={2})",
        "np.roll({0}, {1}, axis={2})",
        &[ANY, Arg::Gen(shift), Arg::Gen(roll_axis)],
    ),
    row(
        "tile",
        "tile({0}, {1})",
        "np.tile({0}, {1})",
        &[ANY, Arg::Gen(reps)],
    ),
    row(
        "repeat",
        "repeat({0}, {2}, axis={1})",
        "np.repeat({0}, {2}, axis={1})",
        &[ANY, AXIS, Arg::Gen(repeats)],
    ),
    row(
        "pad",
        "pad({0}, {1}, mode={2})",
        "np.pad({0}, {1}, mode={2})",
        &[ANY, Arg::Gen(pad_width), Arg::Gen(pad_mode)],
    ),
    row(
        "pad_constant",
        "pad({0}, {1}, constant_values={2})",
        "np.pad({0}, {1}, constant_values={2})",
        &[ANY, Arg::Gen(pad_width), Arg::Gen(pad_values)],
    ),
    row(
        "take",
        "take({0}, {2}, axis={1})",
        "np.take({0}, {2}, axis={1})",
        &[ANY, AXIS, Arg::Gen(take_indices)],
    ),
    row(
        "take_mode",
        "take({0}, {2}, axis={1}, mode={3})",
        "np.take({0}, {2}, axis={1}, mode={3})",
        &[ANY, AXIS, Arg::Gen(wide_indices), Arg::Gen(take_mode)],
    ),
    row(
        "take_along_axis",
        "take_along_axis({0}, {2}, axis={1})",
        "np.take_along_axis({0}, {2}, axis={1})",
        &[ANY, AXIS, Arg::Gen(along_indices)],
    ),
    row(
        "put_along_axis",
        "(put_along_axis({0}, {2}, {3}, axis={1}), {0})[1]",
        "(np.put_along_axis({0}, {2}, {3}, axis={1}), {0})[1]",
        &[ANY, AXIS, Arg::Gen(along_indices), Arg::Gen(put_values)],
    ),
];

pub(crate) fn num(v: i64) -> ArgVal {
    let s = v.to_string();
    text(&s, &s)
}

/// The text of a drawn argument (gcalc's).
pub(crate) fn text_of(args: &[ArgVal], k: usize) -> String {
    match args.get(k) {
        Some(ArgVal::Text { gcalc, .. }) => gcalc.clone(),
        _ => String::new(),
    }
}

/// The axis drawn as argument `k` (`None` for `none`), made non-negative.
fn axis_of(args: &[ArgVal], k: usize, nd: usize) -> Option<usize> {
    let t = text_of(args, k);
    let a: i64 = t.parse().ok()?;
    let n = nd as i64;
    (-n..n)
        .contains(&a)
        .then(|| a.rem_euclid(n.max(1)) as usize)
}

pub(crate) fn tuple(v: &[i64]) -> String {
    match v {
        [x] => format!("({x},)"),
        _ => format!(
            "({})",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub(crate) fn list(v: &[i64]) -> String {
    format!(
        "[{}]",
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn small_int(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(-3, 3))
}

fn zero_or_one(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 1))
}

/// An axis in `-nd..nd` (one time in twenty out of range).
fn some_axis(rng: &mut Rng, nd: usize) -> i64 {
    let n = nd as i64;
    if n == 0 || rng.chance(5) {
        return rng.range(-n - 1, n);
    }
    rng.range(-n, n - 1)
}

/// `none`, an axis, or a tuple of distinct axes of argument 0.
fn axes_or_none(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    match rng.below(4) {
        0 => text("none", "None"),
        1 => num(some_axis(rng, nd)),
        _ => {
            let mut axes: Vec<i64> = (0..nd as i64).filter(|_| rng.chance(50)).collect();
            for a in &mut axes {
                if rng.chance(30) {
                    *a -= nd as i64;
                }
            }
            let t = tuple(&axes);
            text(&t, &t)
        }
    }
}

fn axis_pair(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    let t = tuple(&[some_axis(rng, nd), some_axis(rng, nd)]);
    text(&t, &t)
}

fn move_axes(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    if rng.chance(40) {
        let s = format!("{}, {}", some_axis(rng, nd), some_axis(rng, nd));
        return text(&s, &s);
    }
    let k = rng.range(0, nd as i64) as usize;
    let pick = |rng: &mut Rng| {
        let mut all: Vec<i64> = (0..nd as i64).collect();
        let mut out = Vec::new();
        for _ in 0..k.min(nd) {
            let j = rng.below(all.len());
            let a = all.remove(j);
            out.push(if rng.chance(30) { a - nd as i64 } else { a });
        }
        out
    };
    let (s, d) = (pick(rng), pick(rng));
    let t = format!("{}, {}", tuple(&s), tuple(&d));
    text(&t, &t)
}

/// A second array for a join of `kind` with argument 0: the prepared shape
/// of argument 0 with another length along the joining axis (one time in
/// ten a random shape, which usually does not fit).
fn partner(
    rng: &mut Rng,
    args: &[ArgVal],
    prep: impl Fn(Vec<usize>) -> (Vec<usize>, usize),
) -> ArgVal {
    let d = *rng.pick(ALL_DTYPES);
    let (mut shape, axis) = prep(shape_of(args, 0));
    if rng.chance(10) {
        let nd = rng.range(0, 3) as usize;
        shape = lit::random_shape(rng, nd, 3);
    } else if axis < shape.len() {
        shape[axis] = rng.range(0, 3) as usize;
    }
    ArgVal::Array(lit::array(rng, d, &shape, Data::Small))
}

fn partner_h(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    partner(rng, args, |s| match s.len() {
        0 => (vec![1], 0),
        1 => (s, 0),
        _ => (s, 1),
    })
}

fn partner_v(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    partner(rng, args, |s| match s.len() {
        0 => (vec![1, 1], 0),
        1 => (vec![1, s[0]], 0),
        _ => (s, 0),
    })
}

fn partner_d(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    partner(rng, args, |s| match s.len() {
        0 => (vec![1, 1, 1], 2),
        1 => (vec![1, s[0], 1], 2),
        2 => (vec![s[0], s[1], 1], 2),
        _ => (s, 2),
    })
}

fn partner_c(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    partner(rng, args, |s| match s.len() {
        0 => (vec![1, 1], 1),
        1 => (vec![s[0], 1], 1),
        _ => (s, 1),
    })
}

fn partner_axis(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    let axis = axis_of(args, 1, nd).unwrap_or(nd);
    partner(rng, args, move |s| (s, axis))
}

/// A number of sections (mostly one that divides the axis) or a list of
/// split points (any, as Python slices take them).
fn sections(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let shape = shape_of(args, 0);
    let len = axis_of(args, 1, shape.len()).map_or(0, |a| shape[a]) as i64;
    if rng.chance(60) {
        let divisors: Vec<i64> = (1..=4).filter(|d| len % d == 0).collect();
        let n = if rng.chance(70) && !divisors.is_empty() {
            *rng.pick(&divisors)
        } else {
            rng.range(1, 4)
        };
        return num(n);
    }
    let k = rng.range(0, 3) as usize;
    let pts: Vec<i64> = (0..k).map(|_| rng.range(-len - 1, len + 1)).collect();
    let l = list(&pts);
    text(&l, &l)
}

/// A part that the split drawn as argument 2 gives.
fn part(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let t = text_of(args, 2);
    let count = match t.strip_prefix('[') {
        Some(rest) if rest.starts_with(']') => 1,
        Some(rest) => rest.matches(',').count() as i64 + 2,
        None => t.parse().unwrap_or(1),
    };
    num(rng.range(0, count - 1))
}

fn indexing(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    if rng.chance(50) {
        text("\"xy\"", "'xy'")
    } else {
        text("\"ij\"", "'ij'")
    }
}

fn shift(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    if rng.chance(60) {
        return num(rng.range(-7, 7));
    }
    let k = rng.range(1, 3) as usize;
    let t = tuple(&(0..k).map(|_| rng.range(-7, 7)).collect::<Vec<_>>());
    text(&t, &t)
}

/// `none`, an axis, or as many axes as argument 1 has shifts (repeats allowed).
fn roll_axis(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    let sh = text_of(args, 1);
    if rng.chance(25) {
        return text("none", "None");
    }
    if !sh.starts_with('(') {
        return num(some_axis(rng, nd));
    }
    let k = sh.matches(',').count().max(1);
    let k = if sh.ends_with(",)") {
        1
    } else {
        k + usize::from(!sh.ends_with(",)")) - 1
    };
    let t = tuple(&(0..k).map(|_| some_axis(rng, nd)).collect::<Vec<_>>());
    text(&t, &t)
}

fn reps(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    if rng.chance(40) {
        return num(rng.range(0, 3));
    }
    let k = rng.range(0, 4) as usize;
    let t = tuple(&(0..k).map(|_| rng.range(0, 3)).collect::<Vec<_>>());
    text(&t, &t)
}

/// The length `axis` (argument `k`) selects: the size for `none`.
fn axis_len(args: &[ArgVal], k: usize) -> usize {
    let shape = shape_of(args, 0);
    match text_of(args, k).as_str() {
        "none" => shape.iter().product(),
        _ => axis_of(args, k, shape.len()).map_or(0, |a| shape[a]),
    }
}

fn repeats(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let n = axis_len(args, 1);
    if rng.chance(50) {
        return num(rng.range(0, 3));
    }
    let len = if rng.chance(10) { n + 1 } else { n };
    let l = list(&(0..len).map(|_| rng.range(0, 3)).collect::<Vec<_>>());
    text(&l, &l)
}

/// NumPy's pad_width forms for argument 0's rank: n, (n,), (b, a), one
/// pair per axis, one (n,) per axis; now and then a negative width.
fn pad_width(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    let w = |rng: &mut Rng| if rng.chance(3) { -1 } else { rng.range(0, 3) };
    // Per-axis forms of a 0-d array would be `()`, which NumPy reads as a
    // float array (a TypeError): a 0-d array takes the scalar forms.
    let t = match rng.below(if nd == 0 { 3 } else { 5 }) {
        0 => w(rng).to_string(),
        1 => tuple(&[w(rng)]),
        2 => tuple(&[w(rng), w(rng)]),
        3 => {
            let rows: Vec<String> = (0..nd).map(|_| tuple(&[w(rng), w(rng)])).collect();
            format!("({}{})", rows.join(", "), if nd == 1 { "," } else { "" })
        }
        _ => {
            let rows: Vec<String> = (0..nd).map(|_| tuple(&[w(rng)])).collect();
            format!("({}{})", rows.join(", "), if nd == 1 { "," } else { "" })
        }
    };
    text(&t, &t)
}

fn pad_mode(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let m = *rng.pick(&["constant", "edge", "reflect", "symmetric", "wrap"]);
    text(&format!("\"{m}\""), &format!("'{m}'"))
}

fn pad_values(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len();
    let v = |rng: &mut Rng| rng.range(-9, 9);
    let t = match rng.below(if nd == 0 { 2 } else { 3 }) {
        0 => v(rng).to_string(),
        1 => tuple(&[v(rng), v(rng)]),
        _ => {
            let rows: Vec<String> = (0..nd).map(|_| tuple(&[v(rng), v(rng)])).collect();
            format!("({}{})", rows.join(", "), if nd == 1 { "," } else { "" })
        }
    };
    text(&t, &t)
}

/// An int array of a random shape with entries in `lo..=hi`.
pub(crate) fn ints(rng: &mut Rng, shape: &[usize], lo: i64, hi: i64) -> ArgVal {
    let d = *rng.pick(INTS);
    let n: usize = shape.iter().product();
    ArgVal::Array(ArrayLit {
        dtype: d,
        shape: shape.to_vec(),
        values: (0..n)
            .map(|_| lit::Scalar::Int(rng.range(lo, hi)))
            .collect(),
    })
}

/// Indices of the axis drawn as argument 1: within -n..n, one time in
/// twenty out of it.
fn take_indices(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let n = axis_len(args, 1) as i64;
    let nd = rng.range(0, 2) as usize;
    let shape = lit::random_shape(rng, nd, 3);
    if rng.chance(5) || n == 0 {
        return ints(rng, &shape, -n - 2, n + 1);
    }
    ints(rng, &shape, -n, n - 1)
}

fn wide_indices(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let n = axis_len(args, 1) as i64;
    let nd = rng.range(0, 2) as usize;
    let shape = lit::random_shape(rng, nd, 3);
    ints(rng, &shape, -2 * n - 1, 2 * n + 1)
}

/// A mode for `take`; not "wrap" over an empty axis, where NumPy's wrap
/// loop never ends (it adds 0 until the index is not negative).
fn take_mode(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let modes: &[&str] = if axis_len(args, 1) == 0 {
        &["raise", "clip"]
    } else {
        &["raise", "wrap", "clip"]
    };
    let m = *rng.pick(modes);
    text(&format!("\"{m}\""), &format!("'{m}'"))
}

/// Indices for `take_along_axis` with argument 0 and the axis drawn as
/// argument 1: argument 0's rank, each other axis its length or 1 (one
/// time in ten something else), any length along the axis.
fn along_indices(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let shape0 = shape_of(args, 0);
    let n = axis_len(args, 1) as i64;
    let shape: Vec<usize> = match axis_of(args, 1, shape0.len()) {
        None if text_of(args, 1) == "none" => vec![rng.range(0, 4) as usize],
        ax => (0..shape0.len())
            .map(|d| {
                if Some(d) == ax {
                    rng.range(0, 4) as usize
                } else if rng.chance(10) {
                    rng.range(0, 3) as usize
                } else if rng.chance(30) {
                    1
                } else {
                    shape0[d]
                }
            })
            .collect(),
    };
    if rng.chance(5) || n == 0 {
        return ints(rng, &shape, -n - 2, n + 1);
    }
    ints(rng, &shape, -n, n - 1)
}

/// Values for `put_along_axis` into argument 0 at the indices of argument
/// 2: a scalar or an array broadcasting to them, of a dtype argument 0's
/// dtype holds under same_kind casting.
fn put_values(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let d0 = match args.first() {
        Some(ArgVal::Array(a)) => a.dtype,
        _ => DType::Float64,
    };
    let kinds: &[DType] = match d0 {
        DType::Bool => &[DType::Bool],
        DType::Int32 | DType::Int64 => &[DType::Bool, DType::Int32, DType::Int64],
        _ => ALL_DTYPES,
    };
    let d = *rng.pick(kinds);
    let ishape = shape_of(args, 2);
    let shape: Vec<usize> = if rng.chance(30) {
        vec![]
    } else {
        ishape
            .iter()
            .map(|&n| if rng.chance(30) { 1 } else { n })
            .collect()
    };
    ArgVal::Array(lit::array(rng, d, &shape, Data::Small))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Case;
    use crate::ops::generate_for;

    #[test]
    fn every_row_renders_with_all_placeholders_filled() {
        let mut rng = Rng::seeded(3);
        for spec in ASSEMBLE {
            for _ in 0..50 {
                let c = generate_for(&mut rng, spec);
                for p in [c.gcalc(), c.numpy()] {
                    assert!(!p.contains('{'), "{} left a placeholder: {p}", spec.name);
                }
            }
        }
    }
}
