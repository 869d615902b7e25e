//! Gradient cases: `grad` through an index read, write or `op=` in gcalc,
//! and the same gradient computed by NumPy from what indexing is (linear):
//! the positions `x[idx]` names are `arange(x.size).reshape(x.shape)[idx]`,
//! so a read's gradient is `bincount` of the weights at those positions; a
//! write's zeroes the written positions, and the value's is the weights at
//! the positions it landed on (for a repeated position only the last
//! element, which a store keeps), summed back to the value's shape. The
//! NumPy side also performs the forward write, so bad cases raise NumPy's
//! own errors. Everything is float64 with small integer values: exact.

use super::generate::value;
use super::{AugOp, Feature, Features, Val};
use crate::lit::{self, ArrayLit, DType, Data, Scalar};
use crate::rng::Rng;

/// What the gradient goes through.
#[derive(Clone, Debug, PartialEq)]
pub enum GradOp {
    /// `sum(w * x[idx])`, w of the selection's shape: d/dx.
    Read { w: ArrayLit },
    /// `y = x * 1.0; y[idx] = v` (or `op= v`); `sum(w * y)`, w of x's shape:
    /// d/dx and d/dv.
    Write {
        w: ArrayLit,
        v: ArrayLit,
        aug: Option<AugOp>,
    },
}

/// NumPy: `_k`, whether each selected position is the last one naming its
/// element (what a store keeps), from the flat positions `_f`.
const KEPT: &str = "_k = np.zeros(_f.size, dtype=bool)\n_seen = set()\n\
for _i in range(_f.size - 1, -1, -1):\n    if _f[_i] not in _seen:\n        _seen.add(_f[_i])\n        _k[_i] = True\n";

/// NumPy: `gv`, the selected gradient `_gs` summed back to v's shape as
/// setitem broadcast v (its extra leading 1-dims dropped).
const SUM_TO_V: &str = "_vs = np.shape(v)\n_gs = np.asarray(_gs)\n\
while _gs.ndim > len(_vs):\n    _gs = _gs.sum(0)\n\
for _a in range(_gs.ndim):\n    if _vs[len(_vs) - _gs.ndim + _a] == 1 and _gs.shape[_a] != 1:\n        _gs = _gs.sum(_a, keepdims=True)\n\
gv = _gs.reshape(_vs)\n";

impl GradOp {
    /// The program after `x` (and `b`) are set; `idx` is the index text.
    pub fn render(&self, idx: &str, np: bool) -> String {
        let lit = |a: &ArrayLit| if np { a.numpy() } else { a.gcalc() };
        match (self, np) {
            (GradOp::Read { w }, false) => format!(
                "w = {}\nfn f(x) {{ sum(w * x[{idx}]) }}\nout = grad(f)(x)\n",
                lit(w)
            ),
            (GradOp::Read { w }, true) => format!(
                "w = {}\n_p = np.arange(x.size).reshape(x.shape)[{idx}]\n\
out = np.bincount(np.ravel(_p), weights=np.ravel(w * np.ones(np.shape(_p))), minlength=x.size).astype(np.float64).reshape(x.shape)\n",
                lit(w)
            ),
            (GradOp::Write { w, v, aug }, false) => {
                let op = aug.map_or("=", AugOp::symbol);
                format!(
                    "w = {}\nv = {}\nfn f(x, v) {{ y = x * 1.0; y[{idx}] {op} v; sum(w * y) }}\n\
gx, gv = grad(f, (0, 1))(x, v)\nout = concat([gx.ravel(), gv.ravel()])\n",
                    lit(w),
                    lit(v)
                )
            }
            (GradOp::Write { w, v, aug }, true) => {
                let op = aug.map_or("=", AugOp::symbol);
                let mut s = format!(
                    "w = {}\nv = {}\ny = np.array(x, dtype=np.float64)\ny[{idx}] {op} v\n\
_p = np.arange(x.size).reshape(x.shape)[{idx}]\n_f = np.ravel(_p)\n{KEPT}",
                    lit(w),
                    lit(v)
                );
                s += "gx = np.array(w, dtype=np.float64)\n";
                if aug.is_none() {
                    s += "gx.reshape(-1)[_f] = 0.0\n";
                }
                s += "_gs = (np.ravel(w)[_f] * _k).reshape(np.shape(_p))\n";
                if *aug == Some(AugOp::Sub) {
                    s += "_gs = -_gs\n";
                }
                s += SUM_TO_V;
                s += "out = np.concatenate([gx.ravel(), gv.ravel()])\n";
                s
            }
        }
    }
}

/// A gradient case: through a read (half of them), a write or `+=`/`-=`.
pub(super) fn generate(
    rng: &mut Rng,
    on: Features,
    x_shape: &[usize],
    sel: Option<&[usize]>,
    bad: &mut bool,
) -> GradOp {
    let weights =
        |rng: &mut Rng, shape: &[usize]| lit::array(rng, DType::Float64, shape, Data::Small);
    if rng.chance(50) {
        let w = weights(rng, sel.unwrap_or(&[1]));
        return GradOp::Read { w };
    }
    let aug = match rng.below(3) {
        0 => Some(*rng.pick(&[AugOp::Add, AugOp::Sub])),
        _ => None,
    };
    let w = weights(rng, x_shape);
    // The value is differentiated too: float64 whatever value() chose.
    let on = on.without(Feature::CastUnsafe);
    let v = match value(rng, on, DType::Float64, sel, bad) {
        Val::Array(a) => a,
        Val::Scalar(x) => ArrayLit {
            dtype: DType::Float64,
            shape: vec![],
            values: vec![x],
        },
    };
    let v = ArrayLit {
        dtype: DType::Float64,
        values: v
            .values
            .iter()
            .map(|x| match *x {
                Scalar::Bool(b) => Scalar::Float(b as u8 as f64),
                Scalar::Int(i) => Scalar::Float(i as f64),
                f => f,
            })
            .collect(),
        ..v
    };
    GradOp::Write { w, v, aug }
}
