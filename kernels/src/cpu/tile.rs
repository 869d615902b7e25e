//! Strided views copied into C order: runs along a contiguous last axis
//! copied straight, and any other layout (a transposed matrix, a column
//! slice) walked in square tiles over its last two axes so both the strided
//! reads and the contiguous writes stay in L1 (`m.T.copy()`, `astype` of a
//! transposed view).

/// Tile edge: a 32x32 tile reads 32 cache lines of 32 elements at most.
const TILE: usize = 32;

/// `shape`/`strides` with size-1 axes dropped and mergeable neighbours joined.
fn merge(shape: &[usize], strides: &[isize]) -> (Vec<usize>, Vec<isize>) {
    let (mut sh, mut st): (Vec<usize>, Vec<isize>) = (vec![], vec![]);
    for (&n, &s) in shape.iter().zip(strides) {
        if n == 1 {
            continue;
        }
        match (sh.last_mut(), st.last_mut()) {
            (Some(pn), Some(ps)) if *ps == s * n as isize => {
                *pn *= n;
                *ps = s;
            }
            _ => {
                sh.push(n);
                st.push(s);
            }
        }
    }
    (sh, st)
}

/// Write the elements of the view (`shape`, `strides`, `offset`) of `d` in
/// C order into `out` (exactly the view's size), each through `conv`.
pub fn gather<S: Copy, T: Copy>(
    d: &[S],
    shape: &[usize],
    strides: &[isize],
    offset: usize,
    out: &mut [T],
    conv: impl Fn(S) -> T,
) {
    if out.is_empty() {
        return;
    }
    let (sh, st) = merge(shape, strides);
    let nd = sh.len();
    if nd == 0 {
        out[0] = conv(d[offset]);
        return;
    }
    let (c, sc) = (sh[nd - 1], st[nd - 1]);
    let (r, sr) = if nd >= 2 {
        (sh[nd - 2], st[nd - 2])
    } else {
        (1, 0)
    };
    let outer = &sh[..nd.saturating_sub(2)];
    let mut idx = vec![0usize; outer.len()];
    for plane in out.chunks_exact_mut(r * c) {
        let base = offset as isize
            + idx
                .iter()
                .zip(&st)
                .map(|(&i, &s)| i as isize * s)
                .sum::<isize>();
        if sc == 1 {
            for (i, o) in plane.chunks_exact_mut(c).enumerate() {
                let b = (base + i as isize * sr) as usize;
                for (o, &x) in o.iter_mut().zip(&d[b..b + c]) {
                    *o = conv(x);
                }
            }
        } else {
            for i0 in (0..r).step_by(TILE) {
                for j0 in (0..c).step_by(TILE) {
                    for i in i0..(i0 + TILE).min(r) {
                        let row = base + i as isize * sr;
                        let o = &mut plane[i * c + j0..i * c + (j0 + TILE).min(c)];
                        for (k, o) in o.iter_mut().enumerate() {
                            *o = conv(d[(row + (j0 + k) as isize * sc) as usize]);
                        }
                    }
                }
            }
        }
        for k in (0..outer.len()).rev() {
            idx[k] += 1;
            if idx[k] < outer[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}
