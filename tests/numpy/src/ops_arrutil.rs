//! Rows of NumPy's functions that take callables, its in-place helpers and
//! assembly helpers (gcalc's `ops/arrutil/`). In-place writers are compared
//! through the written array; packbits/unpackbits through int64 (gcalc has
//! no uint8: see the Decision in the language reference).

use crate::lit::{ALL_DTYPES, DType, Data, FLOATS, INTS, NUMERIC};
use crate::ops::{Arg, ArgVal, FnSpec, shape_of, text};
use crate::ops_assemble::num;
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

const fn lab(labels: &'static str) -> Arg {
    Arg::Labeled {
        labels,
        dtypes: NUMERIC,
        data: Data::Small,
    }
}

const NUM13: Arg = arr(NUMERIC, 1, 3, Data::Small);
const NUM03: Arg = arr(NUMERIC, 0, 3, Data::Small);
const AXIS_INT: Arg = Arg::Axis { of: 0, none: false };
const AXIS: Arg = Arg::Axis { of: 0, none: true };
const BITORDER: Arg = Arg::Choice(&[("\"big\"", "'big'"), ("\"little\"", "'little'")]);

/// The family's rows.
pub const ARRUTIL: &[FnSpec] = &[
    row(
        "apply_along_axis",
        "apply_along_axis(fn(v) { sum(v * v) }, {1}, {0})",
        "np.apply_along_axis(lambda v: np.sum(v * v), {1}, {0})",
        &[NUM13, AXIS_INT],
    ),
    row(
        "apply_along_axis",
        "apply_along_axis(fn(v) { stack([v, v * 2]) }, {1}, {0})",
        "np.apply_along_axis(lambda v: np.stack([v, v * 2]), {1}, {0})",
        &[NUM13, AXIS_INT],
    ),
    row(
        "apply_along_axis",
        "apply_along_axis(fn(v, k) { v + k }, {1}, {0}, 3)",
        "np.apply_along_axis(lambda v, k: v + k, {1}, {0}, 3)",
        &[NUM13, AXIS_INT],
    ),
    row(
        "apply_over_axes",
        "apply_over_axes(sum, {0}, {1})",
        "np.apply_over_axes(np.sum, {0}, {1})",
        &[arr(FLOATS, 1, 3, Data::Small), Arg::Gen(axes_of_0)],
    ),
    row(
        "vectorize",
        "vectorize(fn(a, b) { a * 2 + b })({0}, {1})",
        "np.vectorize(lambda a, b: a * 2 + b)({0}, {1})",
        &[
            arr(FLOATS, 0, 3, Data::Small),
            Arg::Broadcast {
                of: 0,
                dtypes: FLOATS,
                data: Data::Small,
            },
        ],
    ),
    row(
        "vectorize",
        "vectorize(fn(a) { a * 3 }, otypes=\"d\")({0})",
        "np.vectorize(lambda a: a * 3, otypes='d')({0})",
        &[NUM03],
    ),
    row(
        "fromfunction",
        "fromfunction(fn(i, j) { i * 10 + j }, ({0}, {1}))",
        "np.fromfunction(lambda i, j: i * 10 + j, ({0}, {1}))",
        &[Arg::Gen(size), Arg::Gen(size)],
    ),
    row(
        "fromfunction",
        "fromfunction(fn(i, j, k) { i - j * k }, ({0}, {1}, {2}), dtype=int64)",
        "np.fromfunction(lambda i, j, k: i - j * k, ({0}, {1}, {2}), dtype=np.int64)",
        &[Arg::Gen(size), Arg::Gen(size), Arg::Gen(size)],
    ),
    row(
        "fill_diagonal",
        "(fill_diagonal({0}, {1}, wrap={2}), {0})[1]",
        "(np.fill_diagonal({0}, {1}, wrap={2}), {0})[1]",
        &[
            arr(NUMERIC, 2, 2, Data::Small),
            Arg::Scalar {
                dtypes: NUMERIC,
                data: Data::Small,
            },
            Arg::Bool,
        ],
    ),
    row(
        "fill_diagonal",
        "(fill_diagonal({0}, [7, 8]), {0})[1]",
        "(np.fill_diagonal({0}, [7, 8]), {0})[1]",
        &[arr(NUMERIC, 2, 3, Data::Small)],
    ),
    row(
        "putmask",
        "(putmask({0}, {0} > 1, {0} * 2 + 1), {0})[1]",
        "(np.putmask({0}, {0} > 1, {0} * 2 + 1), {0})[1]",
        &[NUM03],
    ),
    row(
        "putmask",
        "(putmask({0}, {0} < 3, [7, 8, 9]), {0})[1]",
        "(np.putmask({0}, {0} < 3, [7, 8, 9]), {0})[1]",
        &[NUM03],
    ),
    row(
        "copyto",
        "(copyto({0}, {1}, where={0} > 0), {0})[1]",
        "(np.copyto({0}, {1}, where={0} > 0), {0})[1]",
        &[
            NUM03,
            Arg::Broadcast {
                of: 0,
                dtypes: NUMERIC,
                data: Data::Small,
            },
        ],
    ),
    row(
        "copyto",
        "(copyto({0}, {1}), {0})[1]",
        "(np.copyto({0}, {1}), {0})[1]",
        &[
            NUM03,
            Arg::Scalar {
                dtypes: NUMERIC,
                data: Data::Small,
            },
        ],
    ),
    row(
        "compress",
        "compress({1}, {0}, axis={2})",
        "np.compress({1}, {0}, axis={2})",
        &[arr(ALL_DTYPES, 1, 3, Data::Small), Arg::Gen(bools), AXIS],
    ),
    row(
        "extract",
        "extract({0} > 2, {1})",
        "np.extract({0} > 2, {1})",
        &[
            NUM03,
            Arg::Broadcast {
                of: 0,
                dtypes: NUMERIC,
                data: Data::Small,
            },
        ],
    ),
    row(
        "unstack",
        "unstack({0}, axis={1})[-1]",
        "np.unstack({0}, axis={1})[-1]",
        &[arr(ALL_DTYPES, 1, 3, Data::Small), AXIS_INT],
    ),
    row(
        "matvec",
        "matvec({0}, {1})",
        "np.matvec({0}, {1})",
        &[lab(".mn"), lab(".n")],
    ),
    row(
        "vecmat",
        "vecmat({0}, {1})",
        "np.vecmat({0}, {1})",
        &[lab(".n"), lab(".nm")],
    ),
    row(
        "block",
        "block([[{0}, {1}], [{2}, {3}]])",
        "np.block([[{0}, {1}], [{2}, {3}]])",
        &[lab("mn"), lab("mk"), lab("pn"), lab("pk")],
    ),
    row(
        "block",
        "block([{0}, {1}])",
        "np.block([{0}, {1}])",
        &[lab(".n"), lab(".k")],
    ),
    row(
        "packbits",
        "packbits({0}, axis={1}, bitorder={2})",
        "np.packbits({0}, axis={1}, bitorder={2}).astype(np.int64)",
        &[arr(ALL_DTYPES, 0, 3, Data::Unit), AXIS, BITORDER],
    ),
    row(
        "unpackbits",
        "unpackbits({0}, axis={1}, count={2}, bitorder={3})",
        "np.unpackbits(np.asarray({0}).astype(np.uint8), axis={1}, count={2}, bitorder={3}).astype(np.int64)",
        &[
            arr(INTS, 0, 3, Data::Small),
            AXIS,
            Arg::Gen(count),
            BITORDER,
        ],
    ),
];

fn size(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    num(rng.range(0, 4))
}

/// unpackbits' count: none, or -9..=20 (none for an empty array: NumPy
/// then fills the count with uninitialised bytes).
fn count(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    if rng.below(3) == 0 || shape_of(args, 0).contains(&0) {
        text("none", "None")
    } else {
        num(rng.range(-9, 20))
    }
}

/// A list of 0..4 bools (compress's condition).
fn bools(rng: &mut Rng, _: &[ArgVal]) -> ArgVal {
    let n = rng.below(5);
    let v: Vec<bool> = (0..n).map(|_| rng.below(2) == 1).collect();
    let g: Vec<&str> = v
        .iter()
        .map(|&b| if b { "true" } else { "false" })
        .collect();
    let p: Vec<&str> = v
        .iter()
        .map(|&b| if b { "True" } else { "False" })
        .collect();
    text(
        &format!("[{}]", g.join(", ")),
        &format!("[{}]", p.join(", ")),
    )
}

/// One or two distinct axes of argument 0, as a list.
fn axes_of_0(rng: &mut Rng, args: &[ArgVal]) -> ArgVal {
    let nd = shape_of(args, 0).len().max(1) as i64;
    let a = rng.range(-nd, nd - 1);
    let s = if nd > 1 && rng.below(2) == 1 {
        let b = (a.rem_euclid(nd) + 1) % nd;
        format!("[{a}, {b}]")
    } else {
        format!("[{a}]")
    };
    text(&s, &s)
}
