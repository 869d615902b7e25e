//! Building an index for an array axis by axis from the enabled item kinds
//! (valid by construction), and breaking one on purpose the ways users do.

use super::shape::{consumes, selection_shape};
use super::{Feature, Features, Item};
use crate::lit::{ArrayLit, DType, Scalar};
use crate::rng::Rng;

/// Builds an index for `x` of `shape` axis by axis.
pub(super) struct ItemGen<'a> {
    pub(super) rng: &'a mut Rng,
    on: Features,
    shape: Vec<usize>,
    op: Feature,
    /// The shape every integer array broadcasts to (MultiArray).
    bshape: Vec<usize>,
    arrays: usize,
    zero_consuming: usize,
}

impl<'a> ItemGen<'a> {
    pub(super) fn new(rng: &'a mut Rng, on: Features, shape: &[usize], op: Feature) -> ItemGen<'a> {
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

    pub(super) fn index(&mut self) -> Vec<Item> {
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
            } else if nd > 0 && self.op == Feature::AddAt {
                let n = self.shape[0];
                items.push(Item::List(if n == 0 {
                    vec![]
                } else {
                    vec![self.int_in(n)]
                }));
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
        // np.add.at with a new axis is inconsistent (an AxisError for some
        // values that broadcast): not generated (FINDINGS.md F13).
        let at = self.op == Feature::AddAt;
        if self.on.has(Feature::NoneAxis) && !at {
            kinds.push(Item::NoneAxis);
        }
        if self.on.has(Feature::NewAxisName) && !at {
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
            // np.add.at takes slice objects, which gcalc values cannot spell.
            if on(Feature::Slice) && self.op != Feature::AddAt {
                3
            } else {
                0
            },
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
            _ if self.op == Feature::AddAt => {
                Item::List(if n == 0 { vec![] } else { vec![self.int_in(n)] })
            }
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
    pub(super) fn break_index(&mut self, items: &mut Vec<Item>) -> bool {
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
