//! Per-block conversion loops of the fused executor: rounding through a
//! dtype, casting a slot, gathering a strided or broadcast leaf.

use super::MAX_DIMS;
use super::plan::LeafPlan;
use crate::array::Element;
use gcalc_kernels::cpu::ew::Src;

pub(super) fn round_via<T: Element, V: Element>(buf: &mut [T]) {
    for x in buf {
        *x = crate::array::convert::<V, T>(crate::array::convert::<T, V>(*x));
    }
}

pub(super) fn cast<S: Element, V: Element, T: Element>(src: Src<'_, S>, out: &mut [T]) {
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

/// Copy (converted) the output positions `start..start+out.len()` of a leaf:
/// a contiguous run for a direct leaf, else along its broadcast/strided plan.
pub(super) fn gather<L: Element, T: Element>(
    data: &[L],
    lp: &LeafPlan,
    start: usize,
    out: &mut [T],
) {
    use crate::array::convert;
    if lp.direct {
        let (b, n) = (lp.array.offset() + start, out.len());
        for (o, &x) in out.iter_mut().zip(&data[b..b + n]) {
            *o = convert::<L, T>(x);
        }
        return;
    }
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
