//! Random indexing cases: a base of 0 to 4 dims (size-0 and size-1 dims
//! often), an index built axis by axis from the enabled item kinds (valid by
//! construction, then sometimes broken on purpose), and a value shaped to
//! broadcast into the selection. A case whose kinds `Kinds` does not allow
//! is drawn again.

use super::shape::{consumes, selection_shape};
use super::{AugOp, BaseView, Feature, Features, IndexCase, Item, Kinds, Op, Val};
use crate::lit::{self, ALL_DTYPES, ArrayLit, DType, Data, NUMERIC, Scalar};
use crate::rng::Rng;

/// One case of the kinds `kinds` allows.
pub fn generate(rng: &mut Rng, kinds: &Kinds) -> IndexCase {
    let mut last = None;
    for _ in 0..200 {
        let c = attempt(rng, kinds.on);
        if kinds.allows(c.features) {
            return c;
        }
        last = Some(c);
    }
    // Nothing allowed came up (a very narrow selection): a plain read.
    let mut c = last.expect("at least one attempt");
    c.op = Op::Read;
    c.features = classify(&c, false);
    c
}

fn kind_rank(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        DType::Int32 | DType::Int64 => 1,
        DType::Float32 | DType::Float64 => 2,
    }
}

fn attempt(rng: &mut Rng, on: Features) -> IndexCase {
    let ops = [
        (Feature::Read, 35),
        (Feature::Write, 25),
        (Feature::Aug, 20),
        (Feature::View, 10),
        (Feature::AddAt, 10),
    ];
    let weights: Vec<u32> = ops
        .iter()
        .map(|(f, w)| if on.has(*f) { *w } else { 0 })
        .collect();
    let op = ops[rng.weighted(&weights)].0;
    let mut dtype = *rng.pick(ALL_DTYPES);
    if op == Feature::Aug && dtype == DType::Bool && !on.has(Feature::BoolArith) {
        dtype = *rng.pick(NUMERIC);
    }
    let zero_consuming = [
        Feature::NoneAxis,
        Feature::NewAxisName,
        Feature::Ellipsis,
        Feature::ScalarBool,
    ]
    .iter()
    .any(|f| on.has(*f));
    let min_nd = if op == Feature::View || op == Feature::AddAt || !zero_consuming {
        1
    } else {
        0
    };
    let nd = min_nd.max(rng.weighted(&[1, 3, 3, 2, 1]));
    let mut shape = lit::random_shape(rng, nd, 5);
    if !on.has(Feature::EmptyDims) {
        for d in &mut shape {
            *d = (*d).max(1);
        }
    }
    let view = (on.has(Feature::BaseView) && nd >= 1 && rng.chance(20))
        .then(|| *rng.pick(&[BaseView::Transpose, BaseView::Reverse, BaseView::Step2]));
    let base = lit::array(rng, dtype, &shape, Data::Small);
    let x_shape = view.map_or(shape.clone(), |v| v.shape(&shape));
    let mut g = ItemGen::new(rng, on, &x_shape, op);
    let mut items = g.index();
    let mut bad = false;
    if on.has(Feature::Bad) && g.rng.chance(12) {
        bad = g.break_index(&mut items);
    }
    let rng = g.rng;
    let sel = selection_shape(&x_shape, &items);
    let op = match op {
        Feature::Write => Op::Write(value(rng, on, dtype, sel.as_deref(), &mut bad)),
        Feature::Aug => {
            let aug = *rng.pick(&[AugOp::Add, AugOp::Sub, AugOp::Mul]);
            Op::Aug(aug, value(rng, on, dtype, sel.as_deref(), &mut bad))
        }
        Feature::View => Op::View(lit::array(rng, dtype, &x_shape, Data::Small)),
        Feature::AddAt => Op::AddAt(value(rng, on, dtype, sel.as_deref(), &mut bad)),
        _ => Op::Read,
    };
    let mut c = IndexCase {
        base,
        view,
        items,
        op,
        features: Features::default(),
    };
    c.features = classify(&c, bad);
    c
}

/// A value for `x[idx] = v` of an array of `dtype` whose selection has shape
/// `sel`: a weak scalar or an array broadcasting into the selection, of a
/// dtype `x` can take (same_kind), or of any dtype with `CastUnsafe`.
fn value(rng: &mut Rng, on: Features, dtype: DType, sel: Option<&[usize]>, bad: &mut bool) -> Val {
    let unsafe_ok: Vec<DType> = ALL_DTYPES
        .iter()
        .copied()
        .filter(|d| kind_rank(*d) > kind_rank(dtype))
        .collect();
    let vd = if on.has(Feature::CastUnsafe) && !unsafe_ok.is_empty() && rng.chance(25) {
        *rng.pick(&unsafe_ok)
    } else if rng.chance(60) {
        dtype
    } else {
        let safe: Vec<DType> = ALL_DTYPES
            .iter()
            .copied()
            .filter(|d| kind_rank(*d) <= kind_rank(dtype))
            .collect();
        *rng.pick(&safe)
    };
    if rng.chance(40) {
        let s = lit::scalar(rng, vd, Data::Small);
        // A weak literal has its kind only: int32/int64 are both `3`.
        return Val::Scalar(s);
    }
    let mut shape: Vec<usize> = match sel {
        Some(sel) => {
            let drop = rng.below(sel.len() + 1);
            sel[drop..]
                .iter()
                .map(|&d| if rng.chance(30) { 1 } else { d })
                .collect()
        }
        None => {
            let nd = rng.below(3);
            lit::random_shape(rng, nd, 3)
        }
    };
    if on.has(Feature::ValueLeadingOnes) && rng.chance(10) {
        shape.insert(0, 1);
    }
    // One defect at a time: a wrong shape only with a castable dtype.
    let castable = kind_rank(vd) <= kind_rank(dtype);
    if on.has(Feature::Bad) && castable && !shape.is_empty() && rng.chance(8) {
        let k = rng.below(shape.len());
        shape[k] += 2;
        *bad = true;
    }
    Val::Array(lit::array(rng, vd, &shape, Data::Small))
}

/// The kinds a case exercises (`bad`: broken on purpose).
pub(super) fn classify(c: &IndexCase, bad: bool) -> Features {
    let mut f = Features::default();
    f = f.with(match c.op {
        Op::Read => Feature::Read,
        Op::Write(_) => Feature::Write,
        Op::Aug(..) => Feature::Aug,
        Op::View(_) => Feature::View,
        Op::AddAt(_) => Feature::AddAt,
    });
    let x_shape = c.x_shape();
    let mut arrays = 0;
    for it in &c.items {
        f = f.with(match it {
            Item::Int(_) => Feature::Int,
            Item::Slice(..) => Feature::Slice,
            Item::NoneAxis => Feature::NoneAxis,
            Item::NewAxisName => Feature::NewAxisName,
            Item::Ellipsis => Feature::Ellipsis,
            Item::Array(a) if a.dtype.is_float() => Feature::Bad,
            Item::Array(a) if a.shape.is_empty() => Feature::ZeroDArray,
            Item::Array(_) => {
                arrays += 1;
                Feature::IntArray
            }
            Item::List(_) => {
                arrays += 1;
                Feature::List
            }
            Item::Mask(m) if m.shape.is_empty() => Feature::ScalarBool,
            Item::Mask(m) => {
                arrays += 1;
                if c.items.len() == 1 && m.shape == x_shape {
                    Feature::Mask
                } else {
                    Feature::PartialMask
                }
            }
            Item::Bool(_) => Feature::ScalarBool,
            Item::Float(_) => Feature::Bad,
        });
    }
    if arrays >= 2 {
        f = f.with(Feature::MultiArray);
    }
    if c.base.shape.contains(&0) {
        f = f.with(Feature::EmptyDims);
    }
    if c.view.is_some() {
        f = f.with(Feature::BaseView);
    }
    let val = match &c.op {
        Op::Write(v) | Op::Aug(_, v) | Op::AddAt(v) => Some(v),
        _ => None,
    };
    if let Some(v) = val {
        let vk = match v {
            Val::Scalar(Scalar::Bool(_)) => 0,
            Val::Scalar(Scalar::Int(_)) => 1,
            Val::Scalar(Scalar::Float(_)) => 2,
            Val::Array(a) => kind_rank(a.dtype),
        };
        if vk > kind_rank(c.base.dtype) {
            f = f.with(Feature::CastUnsafe);
        }
        if matches!(c.op, Op::Aug(..)) && c.base.dtype == DType::Bool && vk == 0 {
            f = f.with(Feature::BoolArith);
        }
    }
    let sel = selection_shape(&x_shape, &c.items);
    if bad || sel.is_none() {
        f = f.with(Feature::Bad);
    }
    if let (Some(sel), Some(Val::Array(a))) = (&sel, val)
        && a.shape.len() > sel.len()
        && a.shape[..a.shape.len() - sel.len()].contains(&1)
    {
        f = f.with(Feature::ValueLeadingOnes);
    }
    let all_ints = c
        .items
        .iter()
        .all(|i| matches!(i, Item::Int(_)) || matches!(i, Item::Array(a) if a.shape.is_empty()));
    if matches!(c.op, Op::View(_)) && all_ints && c.items.len() == x_shape.len() {
        f = f.with(Feature::ElementView);
    }
    f
}

/// Builds an index for `x` of `shape` axis by axis.
struct ItemGen<'a> {
    rng: &'a mut Rng,
    on: Features,
    shape: Vec<usize>,
    op: Feature,
    /// The shape every integer array broadcasts to (MultiArray).
    bshape: Vec<usize>,
    arrays: usize,
    zero_consuming: usize,
}

impl<'a> ItemGen<'a> {
    fn new(rng: &'a mut Rng, on: Features, shape: &[usize], op: Feature) -> ItemGen<'a> {
        let bn = rng.range(1, 2) as usize;
        let bshape = (0..bn).map(|_| rng.range(1, 4) as usize).collect();
        ItemGen {
            rng,
            on,
            shape: shape.to_vec(),
            op,
            bshape,
            arrays: 0,
            zero_consuming: 0,
        }
    }

    fn index(&mut self) -> Vec<Item> {
        let nd = self.shape.len();
        let mut items = Vec::new();
        let ellipsis =
            self.on.has(Feature::Ellipsis) && self.op != Feature::AddAt && self.rng.chance(20);
        if ellipsis {
            let p = self.rng.range(0, nd as i64) as usize;
            let q = self.rng.range(0, (nd - p) as i64) as usize;
            self.fill(&mut items, 0, p);
            items.push(Item::Ellipsis);
            self.fill(&mut items, nd - q, nd);
        } else if self.on.has(Feature::Mask)
            && nd >= 1
            && self.op != Feature::View
            && self.rng.chance(12)
        {
            items.push(self.mask(0, nd));
        } else {
            let p = if nd == 0 {
                0
            } else {
                self.rng.range(1, nd as i64) as usize
            };
            self.fill(&mut items, 0, p);
        }
        while items.is_empty() {
            if let Some(it) = self.zero_item() {
                items.push(it);
            } else if nd > 0 {
                items.push(Item::Slice(None, None, None));
            } else {
                // A 0-d base with no item that consumes no dims enabled.
                items.push(Item::Bool(true));
            }
        }
        items
    }

    /// Items consuming exactly the axes `lo..hi`.
    fn fill(&mut self, items: &mut Vec<Item>, lo: usize, hi: usize) {
        let mut axis = lo;
        while axis < hi {
            if self.zero_consuming < 2
                && self.rng.chance(12)
                && let Some(it) = self.zero_item()
            {
                items.push(it);
                continue;
            }
            let it = self.item(axis, hi);
            axis += consumes(&it);
            items.push(it);
        }
        if self.zero_consuming < 2
            && self.rng.chance(10)
            && let Some(it) = self.zero_item()
        {
            items.push(it);
        }
    }

    /// An item that consumes no dims, from the enabled kinds.
    fn zero_item(&mut self) -> Option<Item> {
        let mut kinds = Vec::new();
        if self.on.has(Feature::NoneAxis) {
            kinds.push(Item::NoneAxis);
        }
        if self.on.has(Feature::NewAxisName) {
            kinds.push(Item::NewAxisName);
        }
        if self.on.has(Feature::ScalarBool) && self.op != Feature::View {
            let b = self.rng.chance(70);
            kinds.push(Item::Bool(b));
            kinds.push(Item::Mask(ArrayLit {
                dtype: DType::Bool,
                shape: vec![],
                values: vec![Scalar::Bool(b)],
            }));
        }
        if kinds.is_empty() {
            return None;
        }
        self.zero_consuming += 1;
        Some(kinds.swap_remove(self.rng.below(kinds.len())))
    }

    /// An item for axis `axis` (consuming at most up to `hi`).
    fn item(&mut self, axis: usize, hi: usize) -> Item {
        let n = self.shape[axis];
        let more_arrays = self.arrays == 0 || self.on.has(Feature::MultiArray);
        let on = |f: Feature| self.on.has(f);
        let weights = [
            if on(Feature::Int) && n > 0 { 3 } else { 0 },
            if on(Feature::Slice) { 3 } else { 0 },
            if on(Feature::IntArray) && more_arrays {
                2
            } else {
                0
            },
            if on(Feature::List) && more_arrays && n > 0 {
                1
            } else {
                0
            },
            if on(Feature::PartialMask) && more_arrays {
                1
            } else {
                0
            },
            if on(Feature::ZeroDArray) && n > 0 {
                1
            } else {
                0
            },
        ];
        match self.rng.weighted(&weights) {
            0 if weights[0] > 0 => Item::Int(self.int_in(n)),
            2 if weights[2] > 0 => {
                self.arrays += 1;
                let shape = self.array_shape(n);
                let dtype = if self.rng.chance(25) {
                    DType::Int32
                } else {
                    DType::Int64
                };
                let size: usize = shape.iter().product();
                let values = (0..size).map(|_| Scalar::Int(self.int_in(n))).collect();
                Item::Array(ArrayLit {
                    dtype,
                    shape,
                    values,
                })
            }
            3 if weights[3] > 0 => {
                self.arrays += 1;
                let len = if self.on.has(Feature::MultiArray) {
                    *self.bshape.last().unwrap_or(&1)
                } else {
                    self.rng.range(1, 4) as usize
                };
                Item::List((0..len).map(|_| self.int_in(n)).collect())
            }
            4 if weights[4] > 0 => {
                self.arrays += 1;
                let k = self.rng.range(1, (hi - axis) as i64) as usize;
                self.mask(axis, axis + k)
            }
            5 if weights[5] > 0 => Item::Array(ArrayLit {
                dtype: DType::Int64,
                shape: vec![],
                values: vec![Scalar::Int(self.int_in(n))],
            }),
            _ => self.slice(n),
        }
    }

    /// A valid index into an axis of length `n > 0`, negative ones too.
    fn int_in(&mut self, n: usize) -> i64 {
        if n == 0 {
            return 0;
        }
        self.rng.range(-(n as i64), n as i64 - 1)
    }

    /// The shape of an integer index array for an axis of length `n`: a
    /// broadcast-compatible part of `bshape` with several arrays, else 1-d
    /// or 2-d; size 0 when the axis is empty.
    fn array_shape(&mut self, n: usize) -> Vec<usize> {
        let mut shape: Vec<usize> = if self.on.has(Feature::MultiArray) {
            let drop = self.rng.below(self.bshape.len());
            self.bshape[drop..]
                .iter()
                .map(|&d| if self.rng.chance(25) { 1 } else { d })
                .collect()
        } else {
            let k = self.rng.range(1, 2) as usize;
            (0..k).map(|_| self.rng.range(0, 4) as usize).collect()
        };
        if n == 0 && !shape.contains(&0) {
            shape[0] = 0;
        }
        shape
    }

    fn slice(&mut self, n: usize) -> Item {
        let n = n as i64;
        let bound = |rng: &mut Rng| -> Option<i64> {
            if rng.chance(30) {
                None
            } else {
                Some(rng.range(-n - 3, n + 3))
            }
        };
        let a = bound(self.rng);
        let z = bound(self.rng);
        let s = match self.rng.below(10) {
            0..=3 => None,
            4 => Some(1),
            5 => Some(2),
            6 => Some(3),
            7 => Some(-1),
            8 => Some(-2),
            _ => Some(self.rng.range(-7, 7)).filter(|s| *s != 0).or(Some(-3)),
        };
        Item::Slice(a, z, s)
    }

    /// A boolean mask over axes `lo..hi`.
    fn mask(&mut self, lo: usize, hi: usize) -> Item {
        let shape = self.shape[lo..hi].to_vec();
        let size: usize = shape.iter().product();
        let p = match self.rng.below(8) {
            0 => 0,
            1 => 100,
            _ => 50,
        };
        let values = (0..size)
            .map(|_| Scalar::Bool(self.rng.chance(p)))
            .collect();
        Item::Mask(ArrayLit {
            dtype: DType::Bool,
            shape,
            values,
        })
    }

    /// Break a valid index in one of the ways users do; true when it is now
    /// an error by NumPy's rules.
    fn break_index(&mut self, items: &mut Vec<Item>) -> bool {
        let nd = self.shape.len();
        for _ in 0..4 {
            let mut t = items.clone();
            match self.rng.below(8) {
                0 => {
                    let extra = nd + 1 - t.iter().map(consumes).sum::<usize>().min(nd);
                    t.extend((0..extra).map(|_| Item::Int(0)));
                }
                1 => {
                    if let Some(k) = t
                        .iter()
                        .position(|i| matches!(i, Item::Int(_) | Item::Slice(..)))
                    {
                        let n = self.axis_len(&t, k) as i64;
                        let r = self.rng.range(0, 3);
                        t[k] = Item::Int(if self.rng.chance(50) {
                            n + r
                        } else {
                            -n - 1 - r
                        });
                    }
                }
                2 => {
                    for it in t.iter_mut() {
                        if let Item::Array(a) = it
                            && let Some(v) = a.values.first_mut()
                        {
                            *v = Scalar::Int(100);
                        }
                        if let Item::List(v) = it
                            && let Some(v) = v.first_mut()
                        {
                            *v = -100;
                        }
                    }
                }
                3 => {
                    let k = self.rng.below(t.len() + 1);
                    t.insert(k, Item::Float(1.0));
                }
                4 => {
                    for it in t.iter_mut() {
                        if let Item::Array(a) = it {
                            a.dtype = DType::Float64;
                            for v in a.values.iter_mut() {
                                if let Scalar::Int(i) = v {
                                    *v = Scalar::Float(*i as f64);
                                }
                            }
                        }
                    }
                }
                5 => {
                    for it in t.iter_mut() {
                        if let Item::Mask(m) = it
                            && let Some(d) = m.shape.first_mut()
                        {
                            *d += 1;
                            let n: usize = m.shape.iter().product();
                            m.values.resize(n, Scalar::Bool(true));
                        }
                    }
                }
                6 => {
                    for it in t.iter_mut() {
                        if let Item::Slice(_, _, s) = it {
                            *s = Some(0);
                        }
                    }
                }
                _ => {
                    if self.on.has(Feature::Ellipsis) {
                        t.push(Item::Ellipsis);
                        t.push(Item::Ellipsis);
                    } else if self.on.has(Feature::MultiArray) && nd >= 2 {
                        t = vec![Item::List(vec![0, 0]), Item::List(vec![0, 0, 0])];
                    }
                }
            }
            if selection_shape(&self.shape, &t).is_none() {
                *items = t;
                return true;
            }
        }
        false
    }

    /// The length of the axis item `k` of `items` indexes (0 past the end).
    fn axis_len(&self, items: &[Item], k: usize) -> usize {
        let nd = self.shape.len();
        let consumed: usize = items.iter().map(consumes).sum();
        let mut axis = 0;
        for it in &items[..k] {
            axis += match it {
                Item::Ellipsis => nd.saturating_sub(consumed),
                it => consumes(it),
            };
        }
        self.shape.get(axis).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Case;

    #[test]
    fn cases_respect_the_kinds() {
        let kinds = Kinds {
            on: Features::of(&[Feature::Read, Feature::Int, Feature::Slice]),
            off: vec![],
        };
        let mut rng = Rng::seeded(3);
        for _ in 0..300 {
            let c = generate(&mut rng, &kinds);
            assert!(kinds.allows(c.features), "{}", c.gcalc());
            assert!(
                c.items
                    .iter()
                    .all(|i| matches!(i, Item::Int(_) | Item::Slice(..))),
                "{}",
                c.gcalc()
            );
        }
    }

    #[test]
    fn every_kind_comes_up() {
        let kinds = Kinds::all();
        let mut rng = Rng::seeded(5);
        let mut seen = Features::default();
        for _ in 0..3000 {
            let c = generate(&mut rng, &kinds);
            seen = Features(seen.0 | c.features.0);
        }
        assert_eq!(
            seen,
            Features::all(),
            "missing: {}",
            Features(Features::all().0 & !seen.0).names()
        );
    }
}
