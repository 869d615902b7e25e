//! The kinds of indexing case (`Feature`): operations, index items and
//! properties of the data; sets of them; which a run generates (`Kinds`),
//! and the combinations CI leaves off, each with its class in
//! tests/numpy/FINDINGS.md (`CI_OFF`).

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
    /// `add_at(x, idx, v)`, NumPy's unbuffered `np.add.at`.
    AddAt,
    /// An integer, negative ones too.
    Int,
    /// `a:b:c` with any bounds, in range or not, and any nonzero step.
    Slice,
    /// `none` as a new axis (gcalc's `None`).
    NoneAxis,
    /// the name `newaxis`.
    NewAxisName,
    /// `...`.
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
    /// into bool): both cast them ("unsafe"); `op=` keeps same_kind.
    CastUnsafe,
    /// `+=`/`*=` of bools into a bool array (NumPy: logical or/and; gcalc's
    /// documented Decision: bool arithmetic gives int64, an error here).
    BoolArith,
    /// A value with extra leading length-1 dims (`x[0] = row[none]`):
    /// NumPy drops them.
    ValueLeadingOnes,
    /// `v = x[i, j]` taking one element by integers: NumPy gives a scalar
    /// (a copy), so later writes into `x` do not show in `v`.
    ElementView,
    /// `grad` through the read, write or `op=` (float64; NumPy computes the
    /// gradient: reads are linear, writes zero the written positions).
    Grad,
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
    Feature::Grad,
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
            Feature::Grad => "grad",
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
pub struct Features(pub(super) u32);

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
    (
        &[Feature::AddAt, Feature::Ellipsis],
        "`...` is an index item, not a value: add_at(x, (..., 0), v) does not parse (F12)",
    ),
    (
        &[Feature::BoolArith],
        "Decision: bool arithmetic gives int64, so bool `+=` is a dtype error (F7)",
    ),
];
