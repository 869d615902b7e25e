//! The CPU executor of a fused elementwise program (built by `fuse.rs`): runs
//! the steps block by block, reading contiguous leaves in place, gathering
//! strided/broadcast ones, and writing the root straight into the output.

use crate::array::{Array, Element, HostData, layout};
use crate::dtype::DType;
use crate::error::{Error, ErrorKind, Result};
use gcalc_kernels::cpu::ew::{Kern, KernError, Src};
use half::f16;
use rayon::prelude::*;

/// Elements per block: a few temporaries of this size stay in L1/L2.
pub const BLOCK: usize = 2048;
/// Below this many output elements, run on the calling thread.
pub const PAR_MIN: usize = 32768;
const MAX_DIMS: usize = 32;

#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    B(bool),
    I(i64),
    F(f64),
}

impl Scalar {
    /// The one element of a size-1 array.
    pub fn read(a: &Array) -> Result<Scalar> {
        let h = a.to_host()?;
        let d = h.host_read()?;
        let off = layout::offset_of_flat(h.shape(), h.strides(), h.offset(), 0);
        Ok(match h.dtype() {
            DType::Bool => Scalar::B(d.get_i64(off) != 0),
            DType::Int32 | DType::Int64 => Scalar::I(d.get_i64(off)),
            _ => Scalar::F(d.get_f64(off)),
        })
    }
    /// Rounded through dtype `via` (a float16 leaf's value, where's condition as bool).
    pub fn round(self, via: DType) -> Scalar {
        fn go<V: Element>(s: Scalar) -> Scalar {
            let v: V = match s {
                Scalar::B(b) => V::from_i64(b as i64),
                Scalar::I(i) => V::from_i64(i),
                Scalar::F(f) => V::from_f64(f),
            };
            match V::DTYPE {
                DType::Bool => Scalar::B(v.to_i64() != 0),
                DType::Int32 | DType::Int64 => Scalar::I(v.to_i64()),
                _ => Scalar::F(v.to_f64()),
            }
        }
        crate::with_dtype!(via, V => go::<V>(self))
    }
    #[inline]
    fn get<T: Element>(self) -> T {
        match self {
            Scalar::B(b) => T::from_i64(b as i64),
            Scalar::I(i) => T::from_i64(i),
            Scalar::F(f) => T::from_f64(f),
        }
    }
}

/// A leaf array viewed with the output's shape (broadcast strides, merged dims).
pub struct LeafPlan {
    array: Array,
    direct: bool,
    shape: Vec<usize>,
    strides: Vec<isize>,
}

impl LeafPlan {
    pub fn new(array: Array) -> LeafPlan {
        LeafPlan {
            array,
            direct: false,
            shape: Vec::new(),
            strides: Vec::new(),
        }
    }
}

pub enum SlotSrc {
    /// A contiguous leaf of the compute type, read in place.
    Direct(usize),
    Const(Scalar),
    Temp,
    /// The output buffer (the root, when its type is the output dtype).
    Out,
}

pub struct Slot {
    pub ctype: DType,
    pub src: SlotSrc,
}

#[derive(Clone, Copy)]
pub enum KernAny {
    F32(Kern<f32>),
    F64(Kern<f64>),
    I64(Kern<i64>),
    B(Kern<bool>),
}

impl KernAny {
    pub fn is_pred(&self) -> bool {
        matches!(
            self,
            KernAny::F32(Kern::Pred(_))
                | KernAny::F64(Kern::Pred(_))
                | KernAny::I64(Kern::Pred(_))
                | KernAny::B(Kern::Pred(_))
        )
    }
}

pub enum Step {
    Load {
        leaf: usize,
        via: Option<DType>,
        out: usize,
    },
    Cast {
        from: usize,
        via: DType,
        out: usize,
    },
    Kern {
        op: &'static str,
        kern: KernAny,
        args: [usize; 3],
        nargs: usize,
        out: usize,
    },
}

pub struct Exec {
    leaves: Vec<LeafPlan>,
    slots: Vec<Slot>,
    steps: Vec<Step>,
    /// The slot to convert into the output at the end (None: the root wrote it).
    store: Option<usize>,
    shape: Vec<usize>,
    out_dtype: DType,
    /// Index of each Temp slot within the scratch pool of its type.
    temp_idx: Vec<usize>,
    temp_count: [usize; 4],
}

fn tix(d: DType) -> usize {
    match d {
        DType::Float32 => 0,
        DType::Float64 => 1,
        DType::Int64 => 2,
        _ => 3,
    }
}

/// Block temporaries, one pool per compute type.
#[derive(Default)]
pub struct Scratch {
    f32: Vec<Vec<f32>>,
    f64: Vec<Vec<f64>>,
    i64: Vec<Vec<i64>>,
    b: Vec<Vec<bool>>,
}

/// The four compute types of the CPU loops.
trait Compute: Element {
    fn pool(s: &Scratch) -> &Vec<Vec<Self>>;
    fn pool_mut(s: &mut Scratch) -> &mut Vec<Vec<Self>>;
}
macro_rules! compute {
    ($t:ty, $f:ident) => {
        impl Compute for $t {
            fn pool(s: &Scratch) -> &Vec<Vec<Self>> {
                &s.$f
            }
            fn pool_mut(s: &mut Scratch) -> &mut Vec<Vec<Self>> {
                &mut s.$f
            }
        }
    };
}
compute!(f32, f32);
compute!(f64, f64);
compute!(i64, i64);
compute!(bool, b);

macro_rules! with_compute {
    ($d:expr, $T:ident => $body:expr) => {
        match $d {
            DType::Float32 => {
                type $T = f32;
                $body
            }
            DType::Float64 => {
                type $T = f64;
                $body
            }
            DType::Int64 => {
                type $T = i64;
                $body
            }
            _ => {
                type $T = bool;
                $body
            }
        }
    };
}

/// A block of the output, typed.
pub enum OutChunk<'a> {
    B(&'a mut [bool]),
    I32(&'a mut [i32]),
    I64(&'a mut [i64]),
    F16(&'a mut [f16]),
    F32(&'a mut [f32]),
    F64(&'a mut [f64]),
}

trait OutElt: Element {
    fn make(c: &mut [Self]) -> OutChunk<'_>;
    fn get<'b>(c: &'b mut OutChunk<'_>) -> Option<&'b mut [Self]>;
}
macro_rules! out_elt {
    ($t:ty, $v:ident) => {
        impl OutElt for $t {
            fn make(c: &mut [Self]) -> OutChunk<'_> {
                OutChunk::$v(c)
            }
            fn get<'b>(c: &'b mut OutChunk<'_>) -> Option<&'b mut [Self]> {
                match c {
                    OutChunk::$v(s) => Some(&mut **s),
                    _ => None,
                }
            }
        }
    };
}
out_elt!(bool, B);
out_elt!(i32, I32);
out_elt!(i64, I64);
out_elt!(f16, F16);
out_elt!(f32, F32);
out_elt!(f64, F64);

impl OutChunk<'_> {
    fn sub(&mut self, r: std::ops::Range<usize>) -> OutChunk<'_> {
        match self {
            OutChunk::B(s) => OutChunk::B(&mut s[r]),
            OutChunk::I32(s) => OutChunk::I32(&mut s[r]),
            OutChunk::I64(s) => OutChunk::I64(&mut s[r]),
            OutChunk::F16(s) => OutChunk::F16(&mut s[r]),
            OutChunk::F32(s) => OutChunk::F32(&mut s[r]),
            OutChunk::F64(s) => OutChunk::F64(&mut s[r]),
        }
    }
}

fn kern_error(e: KernError, op: &str) -> Error {
    match e {
        KernError::ZeroDivision => Error::new(
            ErrorKind::ZeroDivision,
            format!("integer division by zero in {op}"),
        )
        .with_op(op)
        .with_help("make the divisor nonzero (e.g. where(y == 0, 1, y)), or divide floats"),
        KernError::NegativeIntPower => {
            Error::value("Integers to negative integer powers are not allowed.")
                .with_op(op)
                .with_help("use a float base: x.astype(floatX) ** n, or 1.0 / x ** -n")
        }
    }
}

struct Ctx<'a> {
    exec: &'a Exec,
    data: &'a [&'a HostData],
}

impl OutChunk<'_> {
    fn len(&self) -> usize {
        match self {
            OutChunk::B(s) => s.len(),
            OutChunk::I32(s) => s.len(),
            OutChunk::I64(s) => s.len(),
            OutChunk::F16(s) => s.len(),
            OutChunk::F32(s) => s.len(),
            OutChunk::F64(s) => s.len(),
        }
    }
}

impl Exec {
    pub fn new(
        mut leaves: Vec<LeafPlan>,
        mut slots: Vec<Slot>,
        mut steps: Vec<Step>,
        store: Option<usize>,
        shape: Vec<usize>,
        out_dtype: DType,
    ) -> Result<Exec> {
        for lp in &mut leaves {
            let a = &lp.array;
            lp.direct = a.shape() == shape.as_slice() && a.is_contiguous();
            let bs = layout::broadcast_strides(a.shape(), a.strides(), &shape);
            let (s, st) = layout::merge_dims(&shape, &[&bs]);
            if s.len() > MAX_DIMS {
                return Err(Error::value(format!(
                    "arrays of more than {MAX_DIMS} dimensions are not supported"
                )));
            }
            lp.shape = s;
            lp.strides = st.into_iter().next().unwrap_or_default();
        }
        // A leaf of the compute type that is not contiguous with the output is gathered.
        let mut loads = Vec::new();
        for (i, sl) in slots.iter_mut().enumerate() {
            if let SlotSrc::Direct(l) = sl.src
                && !leaves[l].direct
            {
                sl.src = SlotSrc::Temp;
                loads.push(Step::Load {
                    leaf: l,
                    via: None,
                    out: i,
                });
            }
        }
        loads.append(&mut steps);
        let mut temp_count = [0usize; 4];
        let temp_idx = slots
            .iter()
            .map(|s| match s.src {
                SlotSrc::Temp => {
                    let t = &mut temp_count[tix(s.ctype)];
                    *t += 1;
                    *t - 1
                }
                _ => 0,
            })
            .collect();
        Ok(Exec {
            leaves,
            slots,
            steps: loads,
            store,
            shape,
            out_dtype,
            temp_idx,
            temp_count,
        })
    }

    fn scratch(&self, n: usize) -> Scratch {
        let c = self.temp_count;
        Scratch {
            f32: (0..c[0]).map(|_| vec![0.0; n]).collect(),
            f64: (0..c[1]).map(|_| vec![0.0; n]).collect(),
            i64: (0..c[2]).map(|_| vec![0; n]).collect(),
            b: (0..c[3]).map(|_| vec![false; n]).collect(),
        }
    }

    /// Run the program over the whole output.
    pub fn run(self) -> Result<Array> {
        let n: usize = self.shape.iter().product();
        let guards = self
            .leaves
            .iter()
            .map(|l| l.array.host_read())
            .collect::<Result<Vec<_>>>()?;
        let data: Vec<&HostData> = guards.iter().map(|g| &**g).collect();
        let ctx = Ctx {
            exec: &self,
            data: &data,
        };
        let host = crate::with_dtype!(self.out_dtype, D => {
            let mut v: Vec<D> = vec![D::default(); n];
            ctx.fill::<D>(&mut v)?;
            D::wrap(v)
        });
        drop(guards);
        Ok(Array::from_host(host, self.shape))
    }
}

impl Ctx<'_> {
    fn fill<D: OutElt>(&self, out: &mut [D]) -> Result<()> {
        let n = out.len();
        if n == 0 {
            return Ok(());
        }
        if n < PAR_MIN {
            let mut s = self.exec.scratch(n.min(BLOCK));
            return self.task(0, D::make(out), &mut s);
        }
        let threads = rayon::current_num_threads().max(1);
        let task = n.div_ceil(threads * 4).div_ceil(BLOCK).max(4) * BLOCK;
        out.par_chunks_mut(task)
            .enumerate()
            .try_for_each(|(i, ch)| {
                let mut s = self.exec.scratch(BLOCK);
                self.task(i * task, D::make(ch), &mut s)
            })
    }

    fn task(&self, start: usize, mut out: OutChunk<'_>, s: &mut Scratch) -> Result<()> {
        let len = out.len();
        let mut b = 0;
        while b < len {
            let m = BLOCK.min(len - b);
            self.block(start + b, m, &mut out.sub(b..b + m), s)?;
            b += m;
        }
        Ok(())
    }

    fn block(&self, start: usize, n: usize, out: &mut OutChunk<'_>, s: &mut Scratch) -> Result<()> {
        let ex = self.exec;
        for step in &ex.steps {
            match *step {
                Step::Load { leaf, via, out: o } => {
                    let lp = &ex.leaves[leaf];
                    let data = self.data[leaf];
                    with_compute!(ex.slots[o].ctype, T => {
                        let idx = ex.temp_idx[o];
                        let buf = &mut T::pool_mut(s)[idx][..n];
                        crate::with_dtype!(lp.array.dtype(), L => {
                            let d = L::slice(data).ok_or_else(|| Error::internal("leaf dtype mismatch"))?;
                            gather::<L, T>(d, lp, start, buf);
                        });
                        if let Some(v) = via {
                            crate::with_dtype!(v, V => round_via::<T, V>(buf));
                        }
                    })
                }
                Step::Cast { from, via, out: o } => {
                    with_compute!(ex.slots[o].ctype, T => {
                        let idx = ex.temp_idx[o];
                        let mut buf = std::mem::take(&mut T::pool_mut(s)[idx]);
                        with_compute!(ex.slots[from].ctype, S => {
                            let src = self.src::<S>(from, start, n, s)?;
                            crate::with_dtype!(via, V => cast::<S, V, T>(src, &mut buf[..n]));
                        });
                        T::pool_mut(s)[idx] = buf;
                    })
                }
                Step::Kern {
                    op,
                    kern,
                    args,
                    nargs,
                    out: o,
                } => {
                    let r = match kern {
                        KernAny::F32(k) => self.kern::<f32>(k, &args[..nargs], o, start, n, s, out),
                        KernAny::F64(k) => self.kern::<f64>(k, &args[..nargs], o, start, n, s, out),
                        KernAny::I64(k) => self.kern::<i64>(k, &args[..nargs], o, start, n, s, out),
                        KernAny::B(k) => self.kern::<bool>(k, &args[..nargs], o, start, n, s, out),
                    };
                    r.map_err(|e| match e {
                        Ok(e) => kern_error(e, op),
                        Err(e) => e,
                    })?;
                }
            }
        }
        if let Some(st) = ex.store {
            with_compute!(ex.slots[st].ctype, S => {
                let src = self.src::<S>(st, start, n, s)?;
                crate::with_dtype!(ex.out_dtype, D => {
                    let o = D::get(out).ok_or_else(|| Error::internal("output dtype mismatch"))?;
                    cast::<S, D, D>(src, o);
                });
            });
        }
        Ok(())
    }

    fn src<'s, T: Compute>(
        &'s self,
        slot: usize,
        start: usize,
        n: usize,
        s: &'s Scratch,
    ) -> Result<Src<'s, T>> {
        let ex = self.exec;
        Ok(match ex.slots[slot].src {
            SlotSrc::Direct(l) => {
                let d = T::slice(self.data[l])
                    .ok_or_else(|| Error::internal("direct leaf dtype mismatch"))?;
                let off = ex.leaves[l].array.offset() + start;
                Src::V(
                    d.get(off..off + n)
                        .ok_or_else(|| Error::internal("leaf view out of its buffer"))?,
                )
            }
            SlotSrc::Const(c) => Src::S(c.get::<T>()),
            SlotSrc::Temp => Src::V(&T::pool(s)[ex.temp_idx[slot]][..n]),
            SlotSrc::Out => return Err(Error::internal("fused output read as an input")),
        })
    }

    #[allow(clippy::result_large_err)]
    fn kern<T: Compute + OutElt>(
        &self,
        k: Kern<T>,
        args: &[usize],
        o: usize,
        start: usize,
        n: usize,
        s: &mut Scratch,
        out: &mut OutChunk<'_>,
    ) -> Result<(), Result<KernError, Error>> {
        match k {
            Kern::Map(f) => self.call_into::<T, T>(f, args, o, start, n, s, out),
            Kern::Pred(f) => self.call_into::<T, bool>(f, args, o, start, n, s, out),
        }
    }

    #[allow(clippy::result_large_err)]
    fn call_into<T: Compute, U: Compute + OutElt>(
        &self,
        f: fn(&[Src<'_, T>], &mut [U]) -> Result<(), KernError>,
        args: &[usize],
        o: usize,
        start: usize,
        n: usize,
        s: &mut Scratch,
        out: &mut OutChunk<'_>,
    ) -> Result<(), Result<KernError, Error>> {
        let ex = self.exec;
        let mut taken = match ex.slots[o].src {
            SlotSrc::Temp => Some(std::mem::take(&mut U::pool_mut(s)[ex.temp_idx[o]])),
            _ => None,
        };
        let r = {
            let mut srcs = [Src::S(T::default()); 3];
            for (i, &a) in args.iter().enumerate() {
                srcs[i] = self.src::<T>(a, start, n, s).map_err(Err)?;
            }
            match &mut taken {
                Some(v) => f(&srcs[..args.len()], &mut v[..n]),
                None => f(
                    &srcs[..args.len()],
                    U::get(out).ok_or(Err(Error::internal("fused output type")))?,
                ),
            }
        };
        if let Some(v) = taken {
            U::pool_mut(s)[ex.temp_idx[o]] = v;
        }
        r.map_err(Ok)
    }
}

fn round_via<T: Element, V: Element>(buf: &mut [T]) {
    for x in buf {
        *x = crate::array::convert::<V, T>(crate::array::convert::<T, V>(*x));
    }
}

fn cast<S: Element, V: Element, T: Element>(src: Src<'_, S>, out: &mut [T]) {
    use crate::array::convert;
    match src {
        Src::V(v) => {
            for (o, &x) in out.iter_mut().zip(v) {
                *o = convert::<V, T>(convert::<S, V>(x));
            }
        }
        Src::S(x) => out.fill(convert::<V, T>(convert::<S, V>(x))),
    }
}

/// Copy the output positions `start..start+out.len()` of a broadcast/strided leaf.
fn gather<L: Element, T: Element>(data: &[L], lp: &LeafPlan, start: usize, out: &mut [T]) {
    use crate::array::convert;
    let (shape, strides) = (&lp.shape, &lp.strides);
    let base0 = lp.array.offset() as isize;
    let nd = shape.len();
    if nd == 0 {
        out.fill(convert::<L, T>(data[base0 as usize]));
        return;
    }
    let mut idx = [0usize; MAX_DIMS];
    let mut rem = start;
    for d in (0..nd).rev() {
        idx[d] = rem % shape[d];
        rem /= shape[d];
    }
    let last = nd - 1;
    let st = strides[last];
    let n = out.len();
    let mut done = 0;
    while done < n {
        let mut base = base0;
        for d in 0..nd {
            base += idx[d] as isize * strides[d];
        }
        let cnt = (shape[last] - idx[last]).min(n - done);
        let o = &mut out[done..done + cnt];
        if st == 1 {
            let b = base as usize;
            for (o, &x) in o.iter_mut().zip(&data[b..b + cnt]) {
                *o = convert::<L, T>(x);
            }
        } else {
            for (k, o) in o.iter_mut().enumerate() {
                *o = convert::<L, T>(data[(base + k as isize * st) as usize]);
            }
        }
        done += cnt;
        idx[last] += cnt;
        let mut d = last;
        while d > 0 && idx[d] >= shape[d] {
            idx[d] = 0;
            d -= 1;
            idx[d] += 1;
        }
    }
}
