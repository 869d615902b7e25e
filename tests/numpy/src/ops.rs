//! Function cases from a table: each row is a gcalc call template, the NumPy
//! call template and a generator per argument (arrays of some dtypes and
//! ranks, arrays broadcasting with another argument, axes, flags, weak
//! scalars). A new function is one row in `FUNCTIONS` (issues 17 and 18 add
//! theirs); the differential test runs every row with random arguments.

use crate::driver::Case;
use crate::lit::{
    self, ALL_DTYPES, ArrayLit, DType, Data, FLOATS, NUMERIC, readable, smaller_arrays,
};
use crate::outcome::Tol;
use crate::rng::Rng;

/// How one argument is drawn. Arrays are bound to variables `a0, a1, ...`
/// before the call; everything else is written into the call as text.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// An array of one of `dtypes` with `ndim.0..=ndim.1` dims (size-0 and
    /// size-1 dims included).
    Array {
        dtypes: &'static [DType],
        ndim: (usize, usize),
        data: Data,
    },
    /// An array whose shape broadcasts with argument `of`'s (trailing dims
    /// of it, some set to 1; sometimes with more leading dims).
    Broadcast {
        of: usize,
        dtypes: &'static [DType],
        data: Data,
    },
    /// An axis of argument `of` (negative ones too), or `none` when `none`.
    Axis { of: usize, none: bool },
    /// `true` or `false`.
    Bool,
    /// A weak scalar literal of one of the dtypes' kinds.
    Scalar {
        dtypes: &'static [DType],
        data: Data,
    },
    /// Made by a function of the arguments drawn before it (pad widths,
    /// index arrays in bounds of an axis...): a table's own generator.
    Gen(fn(&mut Rng, &[ArgVal]) -> ArgVal),
    /// A matrix (or a stack of them) of a kind, or an array shaped after
    /// an earlier argument (`ops_linalg::MatKind`).
    Matrix {
        dtypes: &'static [DType],
        kind: crate::ops_linalg::MatKind,
    },
    /// One of these texts, as (gcalc, NumPy).
    Choice(&'static [(&'static str, &'static str)]),
    /// An array whose dims are named by letters (`"bij"`): a letter's size
    /// is drawn once per case, so arguments sharing a letter agree (`.`:
    /// the case's shared leading dims).
    Labeled {
        labels: &'static str,
        dtypes: &'static [DType],
        data: Data,
    },
}

/// One function: `{0}`, `{1}`... in the templates stand for the arguments.
#[derive(Debug)]
pub struct FnSpec {
    pub name: &'static str,
    pub gcalc: &'static str,
    pub numpy: &'static str,
    pub args: &'static [Arg],
    pub tol: Tol,
}

pub const fn arr(dtypes: &'static [DType], lo: usize, hi: usize, data: Data) -> Arg {
    Arg::Array {
        dtypes,
        ndim: (lo, hi),
        data,
    }
}

pub const fn bcast(of: usize, dtypes: &'static [DType], data: Data) -> Arg {
    Arg::Broadcast { of, dtypes, data }
}

const AXIS0: Arg = Arg::Axis { of: 0, none: true };
const NUM_SMALL: Arg = arr(NUMERIC, 0, 4, Data::Small);

/// The functions the differential test runs. Add a row for a new function.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec {
        name: "sum",
        gcalc: "sum({0}, axis={1}, keepdims={2})",
        numpy: "np.sum({0}, axis={1}, keepdims={2})",
        args: &[arr(ALL_DTYPES, 0, 4, Data::Small), AXIS0, Arg::Bool],
        tol: Tol::Ulps(0),
    },
    FnSpec {
        name: "mean",
        gcalc: "mean({0}, axis={1}, keepdims={2})",
        numpy: "np.mean({0}, axis={1}, keepdims={2})",
        args: &[NUM_SMALL, AXIS0, Arg::Bool],
        tol: Tol::Ulps(1),
    },
    FnSpec {
        name: "max",
        gcalc: "max({0}, axis={1}, keepdims={2})",
        numpy: "np.max({0}, axis={1}, keepdims={2})",
        args: &[arr(ALL_DTYPES, 0, 4, Data::Small), AXIS0, Arg::Bool],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "min",
        gcalc: "min({0}, axis={1})",
        numpy: "np.min({0}, axis={1})",
        args: &[NUM_SMALL, AXIS0],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "add",
        gcalc: "{0} + {1}",
        numpy: "{0} + {1}",
        args: &[NUM_SMALL, bcast(0, NUMERIC, Data::Small)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "multiply",
        gcalc: "{0} * {1}",
        numpy: "{0} * {1}",
        args: &[NUM_SMALL, bcast(0, NUMERIC, Data::Small)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "true_divide",
        gcalc: "{0} / {1}",
        numpy: "{0} / {1}",
        args: &[NUM_SMALL, bcast(0, NUMERIC, Data::Small)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "maximum",
        gcalc: "maximum({0}, {1})",
        numpy: "np.maximum({0}, {1})",
        args: &[NUM_SMALL, bcast(0, NUMERIC, Data::Small)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "less",
        gcalc: "{0} < {1}",
        numpy: "{0} < {1}",
        args: &[NUM_SMALL, bcast(0, NUMERIC, Data::Small)],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "add_weak_scalar",
        gcalc: "{0} + {1}",
        numpy: "{0} + {1}",
        args: &[
            NUM_SMALL,
            Arg::Scalar {
                dtypes: NUMERIC,
                data: Data::Small,
            },
        ],
        tol: Tol::Exact,
    },
    FnSpec {
        name: "exp",
        gcalc: "exp({0})",
        numpy: "np.exp({0})",
        args: &[arr(FLOATS, 0, 3, Data::Random)],
        tol: Tol::Ulps(2),
    },
];

/// A drawn argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgVal {
    Array(ArrayLit),
    Text { gcalc: String, numpy: String },
}

/// One call of a table function with drawn arguments.
#[derive(Clone, Debug)]
pub struct FnCase {
    pub spec: &'static FnSpec,
    pub args: Vec<ArgVal>,
}

/// A case of a random row of `table`.
pub fn generate(rng: &mut Rng, table: &'static [FnSpec]) -> FnCase {
    let spec = &table[rng.below(table.len())];
    generate_for(rng, spec)
}

/// A case of `spec` with random arguments.
pub fn generate_for(rng: &mut Rng, spec: &'static FnSpec) -> FnCase {
    let mut args: Vec<ArgVal> = Vec::with_capacity(spec.args.len());
    let mut letters: [Option<usize>; 128] = [None; 128];
    for a in spec.args {
        let v = match *a {
            Arg::Matrix { dtypes, kind } => {
                let shapes: Vec<Vec<usize>> = (0..args.len()).map(|k| shape_of(&args, k)).collect();
                let d = *rng.pick(dtypes);
                ArgVal::Array(crate::ops_linalg::matrix(rng, d, kind, &shapes))
            }
            Arg::Choice(options) => {
                let (g, n) = *rng.pick(options);
                text(g, n)
            }
            Arg::Labeled {
                labels,
                dtypes,
                data,
            } => {
                let shape = crate::ops_linalg::labeled_shape(rng, labels, &mut letters);
                let d = *rng.pick(dtypes);
                ArgVal::Array(lit::array(rng, d, &shape, data))
            }
            Arg::Array { dtypes, ndim, data } => {
                let nd = rng.range(ndim.0 as i64, ndim.1 as i64) as usize;
                let shape = lit::random_shape(rng, nd, 4);
                {
                    let d = *rng.pick(dtypes);
                    ArgVal::Array(lit::array(rng, d, &shape, data))
                }
            }
            Arg::Broadcast { of, dtypes, data } => {
                let base = shape_of(&args, of);
                let drop = rng.below(base.len() + 1);
                let mut shape: Vec<usize> = base[drop..]
                    .iter()
                    .map(|&d| if rng.chance(30) { 1 } else { d })
                    .collect();
                if drop == 0 && rng.chance(15) {
                    shape.insert(0, rng.range(1, 3) as usize);
                }
                {
                    let d = *rng.pick(dtypes);
                    ArgVal::Array(lit::array(rng, d, &shape, data))
                }
            }
            Arg::Axis { of, none } => {
                let nd = shape_of(&args, of).len() as i64;
                if (none && rng.chance(25)) || nd == 0 {
                    text("none", "None")
                } else {
                    let ax = rng.range(-nd, nd - 1).to_string();
                    text(&ax, &ax)
                }
            }
            Arg::Bool => {
                if rng.chance(50) {
                    text("true", "True")
                } else {
                    text("false", "False")
                }
            }
            Arg::Scalar { dtypes, data } => {
                let d = *rng.pick(dtypes);
                let s = lit::scalar(rng, d, data);
                text(&s.gcalc(), &s.numpy())
            }
            Arg::Gen(f) => f(rng, &args),
        };
        args.push(v);
    }
    FnCase { spec, args }
}

pub fn text(g: &str, n: &str) -> ArgVal {
    ArgVal::Text {
        gcalc: g.into(),
        numpy: n.into(),
    }
}

pub fn shape_of(args: &[ArgVal], of: usize) -> Vec<usize> {
    match args.get(of) {
        Some(ArgVal::Array(a)) => a.shape.clone(),
        _ => vec![],
    }
}

impl FnCase {
    fn render(&self, np: bool) -> String {
        let mut s = String::new();
        let mut call = if np { self.spec.numpy } else { self.spec.gcalc }.to_string();
        for (i, a) in self.args.iter().enumerate() {
            let text = match a {
                ArgVal::Array(lit) => {
                    s += &format!("a{i} = {}\n", if np { lit.numpy() } else { lit.gcalc() });
                    format!("a{i}")
                }
                ArgVal::Text { gcalc, numpy } => if np { numpy } else { gcalc }.clone(),
            };
            call = call.replace(&format!("{{{i}}}"), &text);
        }
        s += &format!("out = {call}\n");
        s
    }
}

impl Case for FnCase {
    fn gcalc(&self) -> String {
        self.render(false)
    }
    fn numpy(&self) -> String {
        self.render(true)
    }
    fn tol(&self) -> Tol {
        self.spec.tol
    }
    /// The function and its arrays' dtypes: `sum(int32)`.
    fn label(&self) -> String {
        let dts: Vec<&str> = self
            .args
            .iter()
            .filter_map(|a| match a {
                ArgVal::Array(l) => Some(l.dtype.name()),
                _ => None,
            })
            .collect();
        format!("{}({})", self.spec.name, dts.join(", "))
    }
    fn shrink(&self) -> Vec<FnCase> {
        let mut out = Vec::new();
        for (i, a) in self.args.iter().enumerate() {
            let ArgVal::Array(l) = a else { continue };
            let mut vs = smaller_arrays(l);
            if readable(l) != *l {
                vs.push(readable(l));
            }
            for v in vs {
                let mut c = self.clone();
                c.args[i] = ArgVal::Array(v);
                out.push(c);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_renders_with_all_placeholders_filled() {
        let mut rng = Rng::seeded(1);
        for spec in FUNCTIONS.iter().chain(crate::ops_ew::EW_FUNCTIONS) {
            for _ in 0..20 {
                let c = generate_for(&mut rng, spec);
                for p in [c.gcalc(), c.numpy()] {
                    assert!(!p.contains('{'), "{} left a placeholder: {p}", spec.name);
                    assert!(p.ends_with('\n') && p.contains("out = "), "{p}");
                }
            }
        }
    }
}
