//! The indexing cases: a base array (possibly a view of another), an index
//! expression of any kind NumPy has, and what is done with it — read,
//! write, augmented write, a view's aliasing, `add_at` — rendered in gcalc
//! and in NumPy. `Feature`s switch kinds of cases on and off: the generator
//! only uses enabled ones, so a kind that fails today stays off (with its
//! reason, see `CI_OFF`) until the runtime is fixed.

mod generate;
mod shape;
mod shrink;

pub use generate::generate;
pub use shape::selection_shape;

use crate::driver::Case;
use crate::lit::{ArrayLit, Scalar};
use crate::outcome::Tol;

/// A kind of case. Operations, index items, and properties of the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// `out = x[idx]`.
    Read,
    /// `x[idx] = v`.
    Write,
    /// `x[idx] += v` (also `-=`, `*=`): NumPy's buffered semantics.
    Aug,
    /// `v = x[idx]; x[:] = y; out = v`: views see writes, copies do not.
    View,
    /// `add_at(x, idx, v)`, NumPy's unbuffered `np.add.at` (not in gcalc yet).
    AddAt,
    /// An integer, negative ones too.
    Int,
    /// `a:b:c` with any bounds, in range or not, and any nonzero step.
    Slice,
    /// `none` as a new axis (gcalc's `None`).
    NoneAxis,
    /// the name `newaxis` (not in gcalc yet).
    NewAxisName,
    /// `...` (not in gcalc yet).
    Ellipsis,
    /// One integer array of any shape (0-d too) among the items.
    IntArray,
    /// A list literal `[0, 2]` as an index.
    List,
    /// Several integer arrays/lists in one index, broadcast together.
    MultiArray,
    /// A boolean mask of the base's whole shape, alone: `x[x > 0]`.
    Mask,
    /// A boolean mask over some of the dims, or beside other items.
    PartialMask,
    /// A 0-d boolean: `true`, `array(false)`.
    ScalarBool,
    /// A 0-d integer array: `array(2)`.
    ZeroDArray,
    /// Out of bounds and bad indices (float, too many, wrong mask shape,
    /// step 0, indices that do not broadcast): errors on both sides.
    Bad,
    /// Size-0 dimensions in the base array.
    EmptyDims,
    /// The base is a view (`b.T`, `b[::-1]`, `b[::2]`) and writes must reach `b`.
    BaseView,
    /// Written values of a higher kind than the array (float into int, int
    /// into bool): NumPy casts them ("unsafe"), gcalc's rule is same_kind.
    CastUnsafe,
    /// `+=`/`*=` of bools into a bool array (NumPy: logical or/and; gcalc's
    /// documented Decision: bool arithmetic gives int64).
    BoolArith,
    /// A value with extra leading length-1 dims (`x[0] = row[none]`):
    /// NumPy drops them.
    ValueLeadingOnes,
    /// `v = x[i, j]` taking one element by integers: NumPy gives a scalar
    /// (a copy), so later writes into `x` do not show in `v`.
    ElementView,
}

pub const ALL_FEATURES: &[Feature] = &[
    Feature::Read,
    Feature::Write,
    Feature::Aug,
    Feature::View,
    Feature::AddAt,
    Feature::Int,
    Feature::Slice,
    Feature::NoneAxis,
    Feature::NewAxisName,
    Feature::Ellipsis,
    Feature::IntArray,
    Feature::List,
    Feature::MultiArray,
    Feature::Mask,
    Feature::PartialMask,
    Feature::ScalarBool,
    Feature::ZeroDArray,
    Feature::Bad,
    Feature::EmptyDims,
    Feature::BaseView,
    Feature::CastUnsafe,
    Feature::BoolArith,
    Feature::ValueLeadingOnes,
    Feature::ElementView,
];

impl Feature {
    pub fn name(self) -> &'static str {
        match self {
            Feature::Read => "read",
            Feature::Write => "write",
            Feature::Aug => "aug",
            Feature::View => "view",
            Feature::AddAt => "add_at",
            Feature::Int => "int",
            Feature::Slice => "slice",
            Feature::NoneAxis => "none_axis",
            Feature::NewAxisName => "newaxis_name",
            Feature::Ellipsis => "ellipsis",
            Feature::IntArray => "int_array",
            Feature::List => "list",
            Feature::MultiArray => "multi_array",
            Feature::Mask => "mask",
            Feature::PartialMask => "partial_mask",
            Feature::ScalarBool => "scalar_bool",
            Feature::ZeroDArray => "zero_d_array",
            Feature::Bad => "bad",
            Feature::EmptyDims => "empty_dims",
            Feature::BaseView => "base_view",
            Feature::CastUnsafe => "cast_unsafe",
            Feature::BoolArith => "bool_arith",
            Feature::ValueLeadingOnes => "value_leading_ones",
            Feature::ElementView => "element_view",
        }
    }

    pub fn from_name(s: &str) -> Option<Feature> {
        ALL_FEATURES.iter().copied().find(|f| f.name() == s)
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Features(u32);

impl Features {
    pub fn all() -> Features {
        Features::of(ALL_FEATURES)
    }
    pub fn of(fs: &[Feature]) -> Features {
        Features(fs.iter().fold(0, |b, f| b | f.bit()))
    }
    /// Every feature but those listed.
    pub fn all_but(off: &[Feature]) -> Features {
        Features(Features::all().0 & !Features::of(off).0)
    }
    pub fn has(self, f: Feature) -> bool {
        self.0 & f.bit() != 0
    }
    pub fn with(self, f: Feature) -> Features {
        Features(self.0 | f.bit())
    }
    pub fn without(self, f: Feature) -> Features {
        Features(self.0 & !f.bit())
    }
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        ALL_FEATURES.iter().copied().filter(move |f| self.has(*f))
    }
    /// Names joined by `+`.
    pub fn names(self) -> String {
        self.iter().map(|f| f.name()).collect::<Vec<_>>().join("+")
    }
    /// From names separated by commas or `+` (`read,int,slice`); `all`
    /// alone is every feature.
    pub fn parse(s: &str) -> Result<Features, String> {
        if s.trim() == "all" {
            return Ok(Features::all());
        }
        let mut f = Features::default();
        for n in s.split([',', '+']).map(str::trim).filter(|n| !n.is_empty()) {
            f = f.with(Feature::from_name(n).ok_or_else(|| {
                format!(
                    "unknown case kind `{n}`; kinds: {}",
                    Features::all().names().replace('+', ", ")
                )
            })?);
        }
        Ok(f)
    }
}

/// Which cases a run generates: those whose kinds are all `on`, except the
/// combinations in `off` (each with why it is off).
#[derive(Clone, Debug)]
pub struct Kinds {
    pub on: Features,
    pub off: Vec<(Features, &'static str)>,
}

impl Kinds {
    /// Every kind, nothing excluded.
    pub fn all() -> Kinds {
        Kinds {
            on: Features::all(),
            off: vec![],
        }
    }

    /// Whether a case of these kinds may run.
    pub fn allows(&self, f: Features) -> bool {
        f.0 & !self.on.0 == 0 && !self.off.iter().any(|(o, _)| o.0 & f.0 == o.0)
    }

    /// What CI runs: every kind but the combinations of `CI_OFF`.
    pub fn ci() -> Kinds {
        Kinds {
            on: Features::all(),
            off: CI_OFF
                .iter()
                .map(|(fs, why)| (Features::of(fs), *why))
                .collect(),
        }
    }

    /// The kinds and combinations left out, one per line, with why.
    pub fn describe_off(&self) -> String {
        let mut s = String::new();
        for f in Features::all().iter().filter(|f| !self.on.has(*f)) {
            s += &format!("  off: {}\n", f.name());
        }
        for (o, why) in &self.off {
            s += &format!("  off: {} ({why})\n", o.names());
        }
        s
    }
}

/// Combinations of kinds CI leaves off today, each with its reason (a class
/// in tests/numpy/FINDINGS.md): a case having all the kinds of one entry is
/// not generated. The fixer deletes an entry when its class passes (try it
/// with `GCALC_DIFF_KINDS=all`); CI then runs those cases.
pub const CI_OFF: &[(&[Feature], &str)] = &[
    (&[Feature::AddAt], "add_at does not exist yet (F11)"),
    (&[Feature::EmptyDims], "views into size-0 arrays panic (F1)"),
    (
        &[Feature::Aug, Feature::IntArray],
        "`x[idx] op= v` writes into a copy (F2)",
    ),
    (
        &[Feature::Aug, Feature::List],
        "`x[idx] op= v` writes into a copy (F2)",
    ),
    (
        &[Feature::Aug, Feature::Mask],
        "`x[idx] op= v` writes into a copy (F2)",
    ),
    (
        &[Feature::Aug, Feature::PartialMask],
        "`x[idx] op= v` writes into a copy (F2)",
    ),
    (&[Feature::ScalarBool], "0-d boolean indices (F3)"),
    (
        &[Feature::ElementView],
        "an element taken by ints is a view (F4)",
    ),
    (
        &[Feature::View, Feature::ZeroDArray],
        "a 0-d integer array index gives a view (F4)",
    ),
    (
        &[Feature::ValueLeadingOnes],
        "values with extra leading 1-dims are refused (F5)",
    ),
    (
        &[Feature::CastUnsafe],
        "writes cast same_kind, NumPy casts unsafe (F6)",
    ),
    (
        &[Feature::BoolArith],
        "Decision: bool arithmetic gives int64 (F7)",
    ),
];

/// One item of an index expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    /// `none` / `None`.
    NoneAxis,
    /// `newaxis` / `np.newaxis`.
    NewAxisName,
    Ellipsis,
    /// An integer array (int32 or int64), 0-d to 2-d; or a bad float array.
    Array(ArrayLit),
    List(Vec<i64>),
    /// A boolean array, 0-d too.
    Mask(ArrayLit),
    /// `true` / `True`.
    Bool(bool),
    /// A float scalar (always an error).
    Float(f64),
}

impl Item {
    fn render(&self, np: bool) -> String {
        let b = |v: &Option<i64>| v.map(|i| i.to_string()).unwrap_or_default();
        match self {
            Item::Int(i) => i.to_string(),
            Item::Slice(a, z, None) => format!("{}:{}", b(a), b(z)),
            Item::Slice(a, z, s) => format!("{}:{}:{}", b(a), b(z), b(s)),
            Item::NoneAxis if np => "None".into(),
            Item::NoneAxis => "none".into(),
            Item::NewAxisName if np => "np.newaxis".into(),
            Item::NewAxisName => "newaxis".into(),
            Item::Ellipsis => "...".into(),
            Item::Array(a) | Item::Mask(a) if np => a.numpy(),
            Item::Array(a) | Item::Mask(a) => a.gcalc(),
            Item::List(v) => format!(
                "[{}]",
                v.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Item::Bool(v) => Scalar::Bool(*v).render(np),
            Item::Float(f) => crate::lit::float_text(*f),
        }
    }
}

impl Scalar {
    fn render(self, np: bool) -> String {
        if np { self.numpy() } else { self.gcalc() }
    }
}

/// A value written: a weak scalar literal or an array.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Scalar(Scalar),
    Array(ArrayLit),
}

impl Val {
    fn render(&self, np: bool) -> String {
        match self {
            Val::Scalar(s) => s.render(np),
            Val::Array(a) if np => a.numpy(),
            Val::Array(a) => a.gcalc(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AugOp {
    Add,
    Sub,
    Mul,
}

impl AugOp {
    fn symbol(self) -> &'static str {
        match self {
            AugOp::Add => "+=",
            AugOp::Sub => "-=",
            AugOp::Mul => "*=",
        }
    }
}

/// What the case does with `x[idx]`.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Read,
    Write(Val),
    Aug(AugOp, Val),
    /// `x[:] = y` after taking `v = x[idx]` (y has x's shape and dtype).
    View(ArrayLit),
    AddAt(Val),
}

/// The base `x`: the literal `b` itself, or a view of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseView {
    /// `x = b.T`
    Transpose,
    /// `x = b[::-1]`
    Reverse,
    /// `x = b[::2]`
    Step2,
}

impl BaseView {
    fn text(self) -> &'static str {
        match self {
            BaseView::Transpose => ".T",
            BaseView::Reverse => "[::-1]",
            BaseView::Step2 => "[::2]",
        }
    }
    /// The view's shape for a base of `shape`.
    pub fn shape(self, shape: &[usize]) -> Vec<usize> {
        let mut s = shape.to_vec();
        match self {
            BaseView::Transpose => s.reverse(),
            BaseView::Reverse => {}
            BaseView::Step2 => {
                if let Some(d) = s.first_mut() {
                    *d = d.div_ceil(2);
                }
            }
        }
        s
    }
}

/// One indexing case.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexCase {
    pub base: ArrayLit,
    pub view: Option<BaseView>,
    pub items: Vec<Item>,
    pub op: Op,
    /// The kinds this case exercises (its label).
    pub features: Features,
}

impl IndexCase {
    /// The shape of `x` (the base, or the view of it).
    pub fn x_shape(&self) -> Vec<usize> {
        match self.view {
            Some(v) => v.shape(&self.base.shape),
            None => self.base.shape.clone(),
        }
    }

    fn render(&self, np: bool) -> String {
        let mut s = String::new();
        let lit = if np {
            self.base.numpy()
        } else {
            self.base.gcalc()
        };
        match self.view {
            None => s += &format!("x = {lit}\n"),
            Some(v) => s += &format!("b = {lit}\nx = b{}\n", v.text()),
        }
        let idx: Vec<String> = self.items.iter().map(|i| i.render(np)).collect();
        let sub = format!("x[{}]", idx.join(", "));
        let whole = if self.view.is_some() { "b" } else { "x" };
        match &self.op {
            Op::Read => s += &format!("out = {sub}\n"),
            Op::Write(v) => s += &format!("{sub} = {}\nout = {whole}\n", v.render(np)),
            Op::Aug(op, v) => {
                s += &format!("{sub} {} {}\nout = {whole}\n", op.symbol(), v.render(np))
            }
            Op::View(y) => {
                let y = if np { y.numpy() } else { y.gcalc() };
                s += &format!("v = {sub}\nx[:] = {y}\nout = v\n")
            }
            Op::AddAt(v) => {
                let tuple = match idx.len() {
                    1 => idx[0].clone(),
                    _ => format!("({})", idx.join(", ")),
                };
                let call = if np { "np.add.at" } else { "add_at" };
                s += &format!("{call}(x, {tuple}, {})\nout = {whole}\n", v.render(np))
            }
        }
        s
    }
}

impl Case for IndexCase {
    fn gcalc(&self) -> String {
        self.render(false)
    }
    fn numpy(&self) -> String {
        self.render(true)
    }
    fn tol(&self) -> Tol {
        Tol::Exact
    }
    fn label(&self) -> String {
        self.features.names()
    }
    fn shrink(&self) -> Vec<IndexCase> {
        shrink::candidates(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::DType;

    #[test]
    fn renders_both_languages() {
        let c = IndexCase {
            base: ArrayLit {
                dtype: DType::Int64,
                shape: vec![3],
                values: vec![Scalar::Int(1), Scalar::Int(2), Scalar::Int(3)],
            },
            view: Some(BaseView::Reverse),
            items: vec![Item::List(vec![1, 1]), Item::Bool(true)],
            op: Op::Aug(AugOp::Add, Val::Scalar(Scalar::Int(1))),
            features: Features::of(&[Feature::Aug, Feature::List]),
        };
        assert_eq!(
            c.gcalc(),
            "b = array([1, 2, 3], dtype=int64)\nx = b[::-1]\nx[[1, 1], true] += 1\nout = b\n"
        );
        assert_eq!(
            c.numpy(),
            "b = np.array([1, 2, 3], dtype=np.int64)\nx = b[::-1]\nx[[1, 1], True] += 1\nout = b\n"
        );
        assert_eq!(c.label(), "aug+list");
        assert_eq!(
            Features::parse("read, int+slice").unwrap(),
            Features::of(&[Feature::Read, Feature::Int, Feature::Slice])
        );
        assert!(Features::parse("nope").is_err());
    }
}
