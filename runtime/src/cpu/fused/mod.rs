//! The CPU executor of a fused elementwise program (`fused::Program`, typed
//! by `ops::fuse`): one op over contiguous operands runs straight through its
//! loop (`simple.rs`); otherwise the program is planned (`plan.rs`) and its
//! steps run block by block, the output cut into blocks that stay in cache
//! (on rayon for large outputs), contiguous leaves read in place, strided
//! and broadcast ones gathered, the root written straight into the output.

mod buffers;
mod loops;
mod plan;
mod simple;

use crate::array::{Array, Dims, Element, HostData, layout};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::fused::{KernAny, Program};
use buffers::{Compute, OutChunk, OutElt, Scratch, with_compute};
use gcalc_kernels::cpu::ew::{Kern, KernError, Src};
use loops::{cast, gather, round_via};
pub use plan::kern_error;
use plan::{LeafPlan, Slot, SlotSrc, Step};
use rayon::prelude::*;
use std::cell::RefCell;

/// Elements per block: a few temporaries of this size stay in L1/L2.
pub const BLOCK: usize = 2048;
/// Below this many output elements, run on the calling thread.
pub const PAR_MIN: usize = 32768;
const MAX_DIMS: usize = 32;
/// Tiled traversal (a leaf read across its rows, `m.T + 0`): output rows per
/// band and columns per tile, so a tile's strided reads (one cache line per
/// column) stay in L1 while the band's rows use them up.
const TILE_ROWS: usize = 16;
const TILE_COLS: usize = 256;

/// Run a typed program on host arrays: its value as a new host array (0-d
/// when the program has no array leaf).
#[inline]
pub fn run(p: &mut Program<'_>) -> Result<Array> {
    if let Some(a) = simple::run(p)? {
        return Ok(a);
    }
    let plan = plan::plan(p)?;
    let shape = Dims::from_slice(&p.shape);
    Exec::new(
        plan.leaves,
        plan.slots,
        plan.steps,
        plan.store,
        shape,
        p.out,
    )?
    .run()
}

struct Exec<'a> {
    leaves: Vec<LeafPlan<'a>>,
    slots: Vec<Slot>,
    steps: Vec<Step>,
    /// The slot to convert into the output at the end (None: the root wrote it).
    store: Option<usize>,
    shape: Dims,
    out_dtype: DType,
    /// Index of each Temp slot within the scratch pool of its type.
    temp_idx: Vec<usize>,
    temp_count: [usize; 4],
    /// Set (to the output's last dim) when some leaf steps across cache
    /// lines along the output's rows but not down its columns: walk tiles.
    tile_cols: Option<usize>,
}

fn tix(d: DType) -> usize {
    match d {
        DType::Float32 => 0,
        DType::Float64 => 1,
        DType::Int64 => 2,
        _ => 3,
    }
}

struct Ctx<'a> {
    exec: &'a Exec<'a>,
    data: &'a [&'a HostData],
    /// Looked at between blocks: an interrupt stops a long evaluation.
    stop: crate::interrupt::Stop,
}

impl<'a> Exec<'a> {
    fn new(
        mut leaves: Vec<LeafPlan<'a>>,
        mut slots: Vec<Slot>,
        mut steps: Vec<Step>,
        store: Option<usize>,
        shape: Dims,
        out_dtype: DType,
    ) -> Result<Exec<'a>> {
        let mut tile_cols = None;
        for lp in &mut leaves {
            let a = lp.array;
            lp.direct = a.shape() == &shape[..] && a.is_contiguous();
            if lp.direct {
                // Read in place, or converted as one contiguous run (`gather`).
                continue;
            }
            let bs = layout::broadcast_strides(a.shape(), a.strides(), &shape);
            if let [.., down, across] = bs[..]
                && across.unsigned_abs() >= 16
                && down != 0
                && down.unsigned_abs() < across.unsigned_abs()
                && shape[shape.len() - 1] >= 64
            {
                tile_cols = Some(shape[shape.len() - 1]);
            }
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
        if !loads.is_empty() {
            loads.append(&mut steps);
            steps = loads;
        }
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
            steps,
            store,
            shape,
            out_dtype,
            temp_idx,
            temp_count,
            tile_cols,
        })
    }

    /// Run `f` with this thread's scratch buffers sized for the program and
    /// `n`-element blocks (kept between calls: no allocation per fused tree).
    fn with_scratch<R>(&self, n: usize, f: impl FnOnce(&mut Scratch) -> R) -> R {
        thread_local! {
            static SCRATCH: RefCell<Scratch> = RefCell::default();
        }
        SCRATCH.with(|c| match c.try_borrow_mut() {
            Ok(mut s) => {
                s.ensure(self.temp_count, n);
                f(&mut s)
            }
            Err(_) => {
                let mut s = Scratch::default();
                s.ensure(self.temp_count, n);
                f(&mut s)
            }
        })
    }

    /// Run the program over the whole output.
    fn run(self) -> Result<Array> {
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
            stop: crate::interrupt::Stop::current(),
        };
        let host = crate::with_real_dtype!(self.out_dtype, D => {
            let mut h = crate::cpu::pool::out_host::<D>(n)?;
            let v = D::slice_mut(&mut h).ok_or_else(|| Error::internal("output buffer type"))?;
            ctx.fill::<D>(v)?;
            h
        },
            complex => return Err(crate::error::Error::dtype("elementwise", format!("elementwise does not support {} arrays", self.out_dtype))));
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
        if let Some(cols) = self.exec.tile_cols {
            return self.fill_tiled(out, cols);
        }
        if n < PAR_MIN {
            return self
                .exec
                .with_scratch(n.min(BLOCK), |s| self.task(0, D::make(out), s));
        }
        let threads = rayon::current_num_threads().max(1);
        let task = n.div_ceil(threads * 4).div_ceil(BLOCK).max(4) * BLOCK;
        out.par_chunks_mut(task)
            .enumerate()
            .try_for_each(|(i, ch)| {
                self.exec
                    .with_scratch(BLOCK, |s| self.task(i * task, D::make(ch), s))
            })
    }

    /// `fill` in bands of `TILE_ROWS` output rows (on rayon when large), each
    /// band walked in tiles of `TILE_COLS` columns.
    fn fill_tiled<D: OutElt>(&self, out: &mut [D], cols: usize) -> Result<()> {
        let band = TILE_ROWS * cols;
        let run = |(b, ch): (usize, &mut [D])| {
            self.exec.with_scratch(TILE_COLS, |s| {
                let mut o = D::make(ch);
                let rows = o.len() / cols;
                for c0 in (0..cols).step_by(TILE_COLS) {
                    let w = TILE_COLS.min(cols - c0);
                    for r in 0..rows {
                        let at = r * cols + c0;
                        self.block(b * band + at, w, &mut o.sub(at..at + w), s)?;
                    }
                }
                Ok(())
            })
        };
        if out.len() < PAR_MIN {
            out.chunks_mut(band).enumerate().try_for_each(run)
        } else {
            out.par_chunks_mut(band).enumerate().try_for_each(run)
        }
    }

    fn task(&self, start: usize, mut out: OutChunk<'_>, s: &mut Scratch) -> Result<()> {
        let len = out.len();
        let mut b = 0;
        while b < len {
            self.stop.check()?;
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
                           crate::with_real_dtype!(ex.out_dtype, D => {
                               let o = D::get(out).ok_or_else(|| Error::internal("output dtype mismatch"))?;
                               cast::<S, D, D>(src, o);
                           },
            complex => return Err(crate::error::Error::dtype("elementwise", format!("elementwise does not support {} arrays", ex.out_dtype))));
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
            SlotSrc::Const(c) => Src::S(c.to_elem::<T>()),
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
                    U::get(out).ok_or_else(|| Err(Error::internal("fused output type")))?,
                ),
            }
        };
        if let Some(v) = taken {
            U::pool_mut(s)[ex.temp_idx[o]] = v;
        }
        r.map_err(Ok)
    }
}
