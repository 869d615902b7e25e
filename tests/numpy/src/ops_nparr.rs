//! Rows of NumPy 2's construction, manipulation, set and index-helper
//! functions (issue 17's breadth: gcalc's `ops/nparr/`). Tuple results are
//! compared one part at a time; in-place writers (`put`, `place`) through
//! the written array. Random draws are checked by moments in the runtime's
//! tests (NumPy's bit streams differ).

use crate::lit::{self, ALL_DTYPES, DType, Data, FLOATS, INTS, NUMERIC};
use crate::ops::{Arg, ArgVal, FnSpec, shape_of, text};
use crate::ops_assemble::{ints, list, num, text_of, tuple};
use crate::outcome::Tol;
use crate::rng::Rng;

const fn arr(dtypes: &'static [DType], lo: usize, hi: usize, data: Data) -> Arg {
    Arg::Array {
        dtypes,
        ndim: (lo, hi),
        data,
    }
}

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

const ANY: Arg = arr(ALL_DTYPES, 0, 3, Data::Small);
const ANY1: Arg = arr(ALL_DTYPES, 1, 3, Data::Small);
const NUM1: Arg = arr(NUMERIC, 1, 1, Data::Small);
const AXIS_INT: Arg = Arg::Axis { of: 0, none: false };
const AXIS: Arg = Arg::Axis { of: 0, none: true };

/// Int slices as `r_`/`mgrid` items (float ones give floatX, by decision).
const SLICES: &[(&str, &str)] = &[
    ("0:3", "0:3"),
    ("2:11:3", "2:11:3"),
    ("5:0:-2", "5:0:-2"),
    ("-2:2", "-2:2"),
    ("4", "4"),
];
/// Slices for `mgrid`/`ogrid` (which take slices only).
const GRID_SLICES: &[(&str, &str)] = &[
    ("0:3", "0:3"),
    ("2:11:3", "2:11:3"),
    ("5:0:-2", "5:0:-2"),
    ("-2:2", "-2:2"),
];
const SCALARS: &[(&str, &str)] = &[("7", "7"), ("-2", "-2"), ("[1, 2]", "[1, 2]")];

/// The family's rows.
pub const NPARR: &[FnSpec] = &[
    // NumPy's index tricks (builtins/index_tricks.rs).
    row(
        "r_",
        "r_[{0}, {1}, {2}]",
        "np.r_[{0}, {1}, {2}]",
        &[NUM1, Arg::Choice(SLICES), Arg::Choice(SCALARS)],
    ),
    row(
        "c_",
        "c_[{0}, {0} * 2, {0}]",
        "np.c_[{0}, {0} * 2, {0}]",
        &[arr(NUMERIC, 1, 2, Data::Small)],
    ),
    row(
        "mgrid",
        "mgrid[{0}, {1}]",
        "np.mgrid[{0}, {1}]",
        &[Arg::Choice(GRID_SLICES), Arg::Choice(GRID_SLICES)],
    ),
    row(
        "ogrid",
        "ogrid[{0}, {1}, {2}][{3}]",
        "np.ogrid[{0}, {1}, {2}][{3}]",
        &[
            Arg::Choice(GRID_SLICES),
            Arg::Choice(GRID_SLICES),
            Arg::Choice(GRID_SLICES),
            Arg::Choice(&[("0", "0"), ("1", "1"), ("2", "2")]),
        ],
    ),
    row(
        "asarray",
        "asarray({0}, dtype=float64)",
        "np.asarray({0}, dtype=np.float64)",
        &[ANY],
    ),
    FnSpec {
        name: "logspace",
        gcalc: "logspace({0}, {1}, num={2}, endpoint={3}, dtype=float64)",
        numpy: "np.logspace({0}, {1}, num={2}, endpoint={3})",
        args: &[
            Arg::Gen(float_small),
            Arg::Gen(float_small),
            Arg::Gen(count),
            Arg::Bool,
        ],
        tol: Tol::Ulps(4),
    },
    FnSpec {
        name: "geomspace",
        gcalc: "geomspace({0}, {1}, num={2}, endpoint={3}, dtype=float64)",
        numpy: "np.geomspace({0}, {1}, num={2}, endpoint={3})",
        args: &[
            Arg::Gen(nonzero),
            Arg::Gen(same_sign),
            Arg::Gen(count),
            Arg::Bool,
        ],
        // NumPy's SIMD log10 and pow differ from libm by an ulp, which the
        // exponential amplifies.
        tol: Tol::Ulps(16),
    },
    row(
        "tri",
        "tri({0}, {1}, k={2}, dtype=float64)",
        "np.tri({0}, {1}, k={2})",
        &[Arg::Gen(size), Arg::Gen(size), Arg::Gen(offset)],
    ),
    row(
        "tril_indices",
        "tril_indices({0}, k={1}, m={2})[{3}]",
        "np.tril_indices({0}, k={1}, m={2})[{3}]",
        &[
            Arg::Gen(size),
            Arg::Gen(offset),
            Arg::Gen(size),
            Arg::Gen(part2),
        ],
    ),
    row(
        "triu_indices",
        "triu_indices({0}, k={1}, m={2})[{3}]",
        "np.triu_indices({0}, k={1}, m={2})[{3}]",
        &[
            Arg::Gen(size),
            Arg::Gen(offset),
            Arg::Gen(size),
            Arg::Gen(part2),
        ],
    ),
    row(
        "tril_indices_from",
        "tril_indices_from({0}, k={1})[{2}]",
        "np.tril_indices_from({0}, k={1})[{2}]",
        &[
            arr(NUMERIC, 2, 2, Data::Small),
            Arg::Gen(offset),
            Arg::Gen(part2),
        ],
    ),
    row(
        "triu_indices_from",
        "triu_indices_from({0}, k={1})[{2}]",
        "np.triu_indices_from({0}, k={1})[{2}]",
        &[
            arr(NUMERIC, 2, 2, Data::Small),
            Arg::Gen(offset),
            Arg::Gen(part2),
        ],
    ),
    row(
        "diag_indices",
        "diag_indices({0}, ndim={1})[0]",
        "np.diag_indices({0}, ndim={1})[0]",
        &[Arg::Gen(size), Arg::Gen(size)],
    ),
    row(
        "diagflat",
        "diagflat({0}, k={1})",
        "np.diagflat({0}, k={1})",
        &[arr(ALL_DTYPES, 0, 2, Data::Small), Arg::Gen(offset)],
    ),
    row(
        "indices",
        "indices({0})",
        "np.indices({0})",
        &[Arg::Gen(dims)],
    ),
    row(
        "indices_sparse",
        "indices({0}, sparse=true)[0]",
        "np.indices({0}, sparse=True)[0]",
        &[Arg::Gen(dims1)],
    ),
    row(
        "ix_",
        "ix_({0}, {1})[{2}]",
        "np.ix_({0}, {1})[{2}]",
        &[Arg::Gen(int_list), Arg::Gen(int_list), Arg::Gen(part2)],
    ),
    row(
        "vander",
        "vander({0}, N={1}, increasing={2})",
        "np.vander({0}, N={1}, increasing={2})",
        &[NUM1, Arg::Gen(small_n), Arg::Bool],
    ),
    row("size", "array(size({0}))", "np.array(np.size({0}))", &[ANY]),
    row("ndim", "array(ndim({0}))", "np.array(np.ndim({0}))", &[ANY]),
    row(
        "append",
        "append({0}, {1})",
        "np.append({0}, {1})",
        &[ANY, ANY],
    ),
    row(
        "append_axis",
        "append({0}, {0}, axis={1})",
        "np.append({0}, {0}, axis={1})",
        &[ANY1, AXIS_INT],
    ),
    row(
        "delete",
        "delete({0}, {2}, axis={1})",
        "np.delete({0}, {2}, axis={1})",
        &[ANY1, AXIS, Arg::Gen(positions)],
    ),
    row(
        "insert",
        "insert({0}, {2}, {3}, axis={1})",
        "np.insert({0}, {2}, {3}, axis={1})",
        &[
            ANY1,
            AXIS,
            Arg::Gen(insert_positions),
            Arg::Gen(insert_value),
        ],
    ),
    row(
        "resize",
        "resize({0}, {1})",
        "np.resize({0}, {1})",
        &[ANY, Arg::Gen(new_shape)],
    ),
    row(
        "hsplit",
        "hsplit({0}, {1})[0]",
        "np.hsplit({0}, {1})[0]",
        &[ANY, Arg::Gen(cut_points)],
    ),
    row(
        "vsplit",
        "vsplit({0}, {1})[-1]",
        "np.vsplit({0}, {1})[-1]",
        &[ANY, Arg::Gen(cut_points)],
    ),
    row(
        "dsplit",
        "dsplit({0}, {1})[0]",
        "np.dsplit({0}, {1})[0]",
        &[ANY, Arg::Gen(cut_points)],
    ),
    row(
        "rollaxis",
        "rollaxis({0}, {1}, {2})",
        "np.rollaxis({0}, {1}, {2})",
        &[ANY1, AXIS_INT, Arg::Gen(offset)],
    ),
    row(
        "broadcast_arrays",
        "broadcast_arrays({0}, {1})[{2}]",
        "np.broadcast_arrays({0}, {1})[{2}]",
        &[
            ANY,
            Arg::Broadcast {
                of: 0,
                dtypes: ALL_DTYPES,
                data: Data::Small,
            },
            Arg::Gen(part2),
        ],
    ),
    row(
        "choose",
        "choose({2}, [{0}, {1}])",
        "np.choose({2}, [{0}, {1}])",
        &[
            arr(NUMERIC, 0, 3, Data::Small),
            Arg::Broadcast {
                of: 0,
                dtypes: NUMERIC,
                data: Data::Small,
            },
            Arg::Gen(choice_index),
        ],
    ),
    row(
        "choose_mode",
        "choose({2}, [{0}, {1}], mode={3})",
        "np.choose({2}, [{0}, {1}], mode={3})",
        &[
            arr(NUMERIC, 0, 3, Data::Small),
            Arg::Broadcast {
                of: 0,
                dtypes: NUMERIC,
                data: Data::Small,
            },
            Arg::Gen(wild_index),
            Arg::Gen(mode),
        ],
    ),
    row(
        "select",
        "select([{0} > 2, {1} < 0], [{0}, {1}], {2})",
        "np.select([{0} > 2, {1} < 0], [{0}, {1}], {2})",
        &[
            arr(NUMERIC, 0, 3, Data::Small),
            Arg::Broadcast {
                of: 0,
                dtypes: NUMERIC,
                data: Data::Small,
            },
            Arg::Scalar {
                dtypes: NUMERIC,
                data: Data::Small,
            },
        ],
    ),
    row(
        "place",
        "(place({0}, {0} > 0, {1}), {0})[1]",
        "(np.place({0}, {0} > 0, {1}), {0})[1]",
        &[
            arr(NUMERIC, 1, 3, Data::Small),
            arr(NUMERIC, 1, 1, Data::Small),
        ],
    ),
    row(
        "put",
        "(put({0}, {1}, {2}, mode={3}), {0})[1]",
        "(np.put({0}, {1}, {2}, mode={3}), {0})[1]",
        &[
            arr(NUMERIC, 1, 3, Data::Small),
            Arg::Gen(flat_positions),
            arr(NUMERIC, 0, 1, Data::Small),
            Arg::Gen(mode),
        ],
    ),
    row(
        "intersect1d",
        "intersect1d({0}, {1})",
        "np.intersect1d({0}, {1})",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            arr(NUMERIC, 0, 2, Data::Small),
        ],
    ),
    row(
        "intersect1d_indices",
        "intersect1d({0}, {1}, return_indices=true)[{2}]",
        "np.intersect1d({0}, {1}, return_indices=True)[{2}]",
        &[
            arr(INTS, 1, 1, Data::Small),
            arr(INTS, 1, 1, Data::Small),
            Arg::Gen(part3),
        ],
    ),
    row(
        "union1d",
        "union1d({0}, {1})",
        "np.union1d({0}, {1})",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            arr(NUMERIC, 0, 2, Data::Small),
        ],
    ),
    row(
        "setdiff1d",
        "setdiff1d({0}, {1})",
        "np.setdiff1d({0}, {1})",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            arr(NUMERIC, 0, 2, Data::Small),
        ],
    ),
    row(
        "setxor1d",
        "setxor1d({0}, {1})",
        "np.setxor1d({0}, {1})",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            arr(NUMERIC, 0, 2, Data::Small),
        ],
    ),
    row(
        "unique_values",
        "unique_values({0})",
        "np.sort(np.unique_values({0}))",
        &[arr(NUMERIC, 0, 3, Data::Small)],
    ),
    row(
        "unique_counts",
        "unique_counts({0})[{1}]",
        "np.unique_counts({0})[{1}]",
        &[arr(NUMERIC, 0, 3, Data::Small), Arg::Gen(part2)],
    ),
    row(
        "unique_inverse",
        "unique_inverse({0})[{1}]",
        "np.unique_inverse({0})[{1}]",
        &[arr(NUMERIC, 0, 3, Data::Small), Arg::Gen(part2)],
    ),
    row(
        "unique_all",
        "unique_all({0})[{1}]",
        "np.unique_all({0})[{1}]",
        &[arr(FLOATS, 0, 3, Data::Random), Arg::Gen(part4)],
    ),
    row(
        "lexsort",
        "lexsort([{0}, {1}], axis={2})",
        "np.lexsort([{0}, {1}], axis={2})",
        &[
            arr(NUMERIC, 1, 3, Data::Small),
            Arg::Gen(same_shape_ints),
            Arg::Axis { of: 0, none: false },
        ],
    ),
    row(
        "unravel_index",
        "unravel_index({1}, {0})[{2}]",
        "np.unravel_index({1}, {0})[{2}]",
        &[
            Arg::Gen(dims1),
            Arg::Gen(flat_in_dims),
            Arg::Gen(part_of_dims),
        ],
    ),
    row(
        "ravel_multi_index",
        "ravel_multi_index(({0}, {1}), (3, 4), mode={2})",
        "np.ravel_multi_index(({0}, {1}), (3, 4), mode={2})",
        &[Arg::Gen(coord), Arg::Gen(coord), Arg::Gen(mode)],
    ),
    row(
        "histogram2d",
        "histogram2d({0}, {1}, bins={2})[{3}]",
        "np.histogram2d({0}, {1}, bins={2})[{3}]",
        &[
            arr(FLOATS, 1, 1, Data::Random),
            Arg::Gen(partner_1d),
            Arg::Gen(bins2),
            Arg::Gen(part3),
        ],
    ),
    row(
        "intersect1d_unique",
        "intersect1d(unique({0}), unique({1}), assume_unique=true, return_indices=true)[{2}]",
        "np.intersect1d(np.unique({0}), np.unique({1}), assume_unique=True, return_indices=True)[{2}]",
        &[
            arr(NUMERIC, 1, 1, Data::Small),
            arr(NUMERIC, 1, 1, Data::Small),
            Arg::Gen(part3),
        ],
    ),
    row(
        "setdiff1d_unique",
        "setdiff1d({0}, {1}, assume_unique=true)",
        "np.setdiff1d({0}, {1}, assume_unique=True)",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            arr(NUMERIC, 0, 2, Data::Small),
        ],
    ),
    // Random floats, not Special: `unique` (the sorting family's) gives 0.0
    // for -0.0 where NumPy keeps -0.0; unique_all's row likewise.
    row(
        "setxor1d_random",
        "setxor1d({0}, {1})",
        "np.setxor1d({0}, {1})",
        &[
            arr(FLOATS, 0, 2, Data::Random),
            arr(FLOATS, 0, 2, Data::Random),
        ],
    ),
    row(
        "piecewise",
        "piecewise({0}, [{0} < 0, {0} > 10], [{1}, fn(v) { v * 2 }, {2}])",
        "np.piecewise({0}, [{0} < 0, {0} > 10], [{1}, lambda v: v * 2, {2}])",
        &[
            arr(NUMERIC, 0, 2, Data::Small),
            Arg::Scalar {
                dtypes: NUMERIC,
                data: Data::Small,
            },
            Arg::Scalar {
                dtypes: NUMERIC,
                data: Data::Small,
            },
        ],
    ),
    row(
        "unravel_index_f",
        "unravel_index({1}, {0}, order=\"F\")[{2}]",
        "np.unravel_index({1}, {0}, order='F')[{2}]",
        &[
            Arg::Gen(dims1),
            Arg::Gen(flat_in_dims),
            Arg::Gen(part_of_dims),
        ],
    ),
    row(
        "ravel_multi_index_f",
        "ravel_multi_index(({0}, {1}), (3, 4), mode=\"clip\", order=\"F\")",
        "np.ravel_multi_index(({0}, {1}), (3, 4), mode='clip', order='F')",
        &[Arg::Gen(coord), Arg::Gen(coord)],
    ),
    row(
        "histogram2d_weights",
        "histogram2d({0}, {1}, bins={2}, weights={3}, density={4})[0]",
        "np.histogram2d({0}, {1}, bins={2}, weights={3}, density={4})[0]",
        &[
            arr(FLOATS, 1, 1, Data::Random),
            Arg::Gen(partner_1d),
            Arg::Gen(bins2),
            Arg::Gen(partner_1d),
            Arg::Bool,
        ],
    ),
    row(
        "tri_int",
        "tri({0}, k={1}, dtype=int32)",
        "np.tri({0}, k={1}, dtype=np.int32)",
        &[Arg::Gen(size), Arg::Gen(offset)],
    ),
    row(
        "empty_like_shape",
        "empty_like({0}).shape == shape({0})",
        "np.empty_like({0}).shape == np.shape({0})",
        &[ANY],
    ),
];

fn float_small(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let v = rng.range(-12, 12) as f64 / 4.0;
    let s = format!("{v:?}");
    text(&s, &s)
}

fn nonzero(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let mut v = rng.range(1, 40) as f64 / 4.0;
    if rng.chance(30) {
        v = -v;
    }
    let s = format!("{v:?}");
    text(&s, &s)
}

/// A nonzero number of argument 0's sign.
fn same_sign(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let neg = matches!(args.first(), Some(ArgVal::Text { gcalc, .. }) if gcalc.starts_with('-'));
    let mut v = rng.range(1, 400) as f64 / 8.0;
    if neg {
        v = -v;
    }
    let s = format!("{v:?}");
    text(&s, &s)
}

fn count(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 9))
}

fn size(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 4))
}

fn small_n(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 4))
}

fn offset(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(-3, 3))
}

fn part2(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 1))
}

fn part3(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 2))
}

fn part4(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 3))
}

fn dims(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let nd = rng.range(0, 3) as usize;
    let v: Vec<i64> = (0..nd).map(|_| rng.range(0, 3)).collect();
    let t = tuple(&v);
    if nd == 0 {
        return text("()", "()");
    }
    text(&t, &t)
}

fn dims1(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let nd = rng.range(1, 3) as usize;
    let v: Vec<i64> = (0..nd).map(|_| rng.range(1, 4)).collect();
    let t = tuple(&v);
    text(&t, &t)
}

fn int_list(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let n = rng.range(1, 3) as usize;
    let v: Vec<i64> = (0..n).map(|_| rng.range(-2, 4)).collect();
    let l = list(&v);
    text(&l, &l)
}

/// The length of the axis drawn as argument 1 of argument 0 (the flat
/// size for `none`).
fn axis_len(args: &[ArgVal]) -> i64 {
    let s = shape_of(args, 0);
    match text_of(args, 1).parse::<i64>() {
        Ok(a) => {
            let n = s.len() as i64;
            if (-n..n).contains(&a) {
                s[a.rem_euclid(n.max(1)) as usize] as i64
            } else {
                0
            }
        }
        Err(_) => s.iter().product::<usize>() as i64,
    }
}

/// Positions to delete: an int or a list, within -n..n (one time in
/// twenty out of it).
fn positions(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let n = axis_len(args);
    let (lo, hi) = if rng.chance(5) || n == 0 {
        (-n - 2, n + 1)
    } else {
        (-n, n - 1)
    };
    if rng.chance(40) {
        return num(rng.range(lo, hi));
    }
    let k = rng.range(0, 3) as usize;
    let v: Vec<i64> = (0..k).map(|_| rng.range(lo, hi)).collect();
    let l = list(&v);
    text(&l, &l)
}

/// Positions to insert before: an int or a list, within -n..=n.
fn insert_positions(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let n = axis_len(args);
    if rng.chance(50) {
        return num(rng.range(-n, n));
    }
    let k = rng.range(1, 3) as usize;
    let v: Vec<i64> = (0..k).map(|_| rng.range(-n, n)).collect();
    let l = list(&v);
    text(&l, &l)
}

fn insert_value(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(-9, 9))
}

fn new_shape(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let nd = rng.range(1, 2) as usize;
    let v: Vec<i64> = (0..nd).map(|_| rng.range(0, 5)).collect();
    let t = tuple(&v);
    text(&t, &t)
}

/// Sections (1) or cut points for h/v/dsplit.
fn cut_points(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    if rng.chance(30) {
        return num(1);
    }
    let k = rng.range(1, 2) as usize;
    let v: Vec<i64> = (0..k).map(|_| rng.range(0, 3)).collect();
    let l = list(&v);
    text(&l, &l)
}

/// Choice indices 0 or 1 of argument 0's shape.
fn choice_index(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let s = shape_of(args, 0);
    ints(rng, &s, 0, 1)
}

fn wild_index(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let s = shape_of(args, 0);
    ints(rng, &s, -3, 4)
}

fn mode(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let m = *rng.pick(&["raise", "wrap", "clip"]);
    text(&format!("\"{m}\""), &format!("'{m}'"))
}

/// Flat positions into argument 0 (a list), sometimes out of bounds.
fn flat_positions(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let n = shape_of(args, 0).iter().product::<usize>() as i64;
    let k = rng.range(1, 3) as usize;
    let (lo, hi) = if rng.chance(20) || n == 0 {
        (-n - 3, n + 3)
    } else {
        (-n, n - 1)
    };
    let v: Vec<i64> = (0..k).map(|_| rng.range(lo, hi)).collect();
    let l = list(&v);
    text(&l, &l)
}

fn same_shape_ints(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let s = shape_of(args, 0);
    ints(rng, &s, 0, 3)
}

/// Flat positions in the shape drawn as argument 0 (a list).
fn flat_in_dims(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let t = text_of(args, 0);
    let n: i64 = t
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .filter_map(|p| p.trim().parse::<i64>().ok())
        .product();
    let k = rng.range(1, 4) as usize;
    let v: Vec<i64> = (0..k).map(|_| rng.range(0, n - 1)).collect();
    let l = list(&v);
    text(&l, &l)
}

fn part_of_dims(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let t = text_of(args, 0);
    let nd = t
        .split(',')
        .filter(|p| !p.trim().trim_matches(')').is_empty())
        .count() as i64;
    num(rng.range(0, nd.max(1) - 1))
}

fn coord(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    // Three coordinates (both arguments the same length), sometimes
    // outside (3, 4) for the modes.
    let v: Vec<i64> = (0..3).map(|_| rng.range(-1, 4)).collect();
    let l = list(&v);
    text(&l, &l)
}

fn partner_1d(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let s = shape_of(args, 0);
    let d = match args.first() {
        Some(ArgVal::Array(a)) => a.dtype,
        _ => DType::Float64,
    };
    ArgVal::Array(lit::array(rng, d, &s, Data::Random))
}

fn bins2(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    match rng.range(0, 2) {
        0 => num(rng.range(1, 5)),
        1 => {
            let t = format!("[{}, {}]", rng.range(1, 4), rng.range(1, 4));
            text(&t, &t)
        }
        _ => text("[-3.0, -1.0, 0.5, 2.0, 4.0]", "[-3.0, -1.0, 0.5, 2.0, 4.0]"),
    }
}
