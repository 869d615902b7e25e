//! The indexing cases: a base array (possibly a view of another), an index
//! expression of any kind NumPy has, and what is done with it — read,
//! write, augmented write, a view's aliasing, `add_at` — rendered in gcalc
//! and in NumPy. `Feature`s switch kinds of cases on and off: the generator
//! only uses enabled ones, so a kind that fails today stays off (with its
//! reason, see `CI_OFF`) until the runtime is fixed.

mod generate;
mod grad;
mod items;
mod kinds;
mod shape;
mod shrink;

pub use generate::generate;
pub use kinds::{ALL_FEATURES, CI_OFF, Feature, Features, Kinds};
pub use shape::selection_shape;

use crate::driver::Case;
use crate::lit::{ArrayLit, Scalar};
use crate::outcome::Tol;

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
    pub(crate) fn symbol(self) -> &'static str {
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
    /// `grad` of `sum(w * x[idx])`, or of `sum(w * y)` after `y = x * 1.0;
    /// y[idx] = v` (or `op=`), with respect to x (and v).
    Grad(grad::GradOp),
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
                // NumPy 2.4's np.add.at reads past a value it must broadcast
                // along an index array's leading dims (FINDINGS.md F13): it
                // gets the value broadcast already.
                let value = match v {
                    Val::Array(_) if np => {
                        format!("np.broadcast_to({}, x[{tuple}].shape)", v.render(np))
                    }
                    v => v.render(np),
                };
                let call = if np { "np.add.at" } else { "add_at" };
                s += &format!("{call}(x, {tuple}, {value})\nout = {whole}\n")
            }
            Op::Grad(g) => s += &g.render(&idx.join(", "), np),
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
        match self.op {
            // Gradients are computed: exact, but the sign of a zero sum is not a result.
            Op::Grad(_) => Tol::Ulps(0),
            _ => Tol::Exact,
        }
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
