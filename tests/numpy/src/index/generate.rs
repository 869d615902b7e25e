//! Random indexing cases: a base of 0 to 4 dims (size-0 and size-1 dims
//! often), an index built axis by axis from the enabled item kinds (valid by
//! construction, then sometimes broken on purpose), and a value shaped to
//! broadcast into the selection. A case whose kinds `Kinds` does not allow
//! is drawn again.

use super::grad::GradOp;
use super::items::ItemGen;
use super::shape::selection_shape;
use super::{AugOp, BaseView, Feature, Features, IndexCase, Item, Kinds, Op, Val};
use crate::lit::{self, ALL_DTYPES, DType, Data, NUMERIC, Scalar};
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
        (Feature::Grad, 12),
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
    if op == Feature::Grad {
        dtype = DType::Float64;
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
        Feature::Grad => Op::Grad(super::grad::generate(
            rng,
            on,
            &x_shape,
            sel.as_deref(),
            &mut bad,
        )),
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
pub(super) fn value(
    rng: &mut Rng,
    on: Features,
    dtype: DType,
    sel: Option<&[usize]>,
    bad: &mut bool,
) -> Val {
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
        Op::Grad(_) => Feature::Grad,
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
    let grad_v = match &c.op {
        Op::Grad(GradOp::Write { v, .. }) => Some(Val::Array(v.clone())),
        _ => None,
    };
    let val = match &c.op {
        Op::Write(v) | Op::Aug(_, v) | Op::AddAt(v) => Some(v),
        _ => grad_v.as_ref(),
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
