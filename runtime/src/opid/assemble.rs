//! How the assembly ops that copy (`pad roll tile repeat take
//! take_along_axis`) move elements, as data the backends read: each output
//! axis maps its coordinate to a source coordinate (`AxisMap`: a formula,
//! a table of the axis's length, or an index array already on the
//! device), and one remap pass per device gathers through the maps. The
//! adjoint of a map (`Segments`) lists, per source coordinate, the output
//! coordinates that read it: the gradients add them up.

use crate::array::{Array, Scalar};

/// A table entry for "the fill value before the source" (a `pad` constant).
pub const FILL_BEFORE: i64 = i64::MIN;
/// A table entry for "the fill value after the source".
pub const FILL_AFTER: i64 = i64::MIN + 1;

/// How an index array's entries outside `0..n` are treated (NumPy's `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexMode {
    /// Checked beforehand to lie in `-n..n`; negative ones count from the end.
    Raise,
    /// Taken modulo `n`.
    Wrap,
    /// Clamped to `0..n`.
    Clip,
}

/// How `pad` fills outside the source (`Wrap` is an `AxisMap::Roll`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMode {
    /// The axis's fill values.
    Constant,
    /// The edge element repeated.
    Edge,
    /// Mirrored about the edge element (`3 2 | 1 2 3 | 2 1`).
    Reflect,
    /// Mirrored with the edge element repeated (`2 1 | 1 2 3 | 3 2`).
    Symmetric,
}

impl IndexMode {
    /// NumPy's names of the modes (`take(..., mode="clip")`).
    pub const NAMES: [(&'static str, IndexMode); 3] = [
        ("raise", IndexMode::Raise),
        ("wrap", IndexMode::Wrap),
        ("clip", IndexMode::Clip),
    ];

    /// The mode NumPy calls `name`.
    pub fn named(name: &str) -> Option<IndexMode> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, m)| m)
    }

    /// Index `i` of an axis of length `n` made a coordinate (`Raise`:
    /// already checked to lie in `-n..n`).
    pub fn apply(self, i: i64, n: usize) -> i64 {
        let n = n as i64;
        match self {
            IndexMode::Raise if i < 0 => i + n,
            IndexMode::Raise => i,
            IndexMode::Wrap => i.rem_euclid(n.max(1)),
            IndexMode::Clip => i.clamp(0, (n - 1).max(0)),
        }
    }
}

/// How one output axis reads the source axis of the same position (`n`
/// below is the source axis's length). The formulas cost nothing to send
/// to a device; a table costs one entry per output coordinate.
pub enum AxisMap {
    /// The source coordinate is the output coordinate (equal lengths, or a
    /// broadcast source axis of stride 0).
    Same,
    /// `(i - shift) mod n`, `shift` in `0..n`: `roll`, `tile`, pad's wrap.
    Roll { shift: i64 },
    /// `i / by`: `repeat` with one count.
    Div { by: i64 },
    /// `i - before`, and outside `0..n` as `mode` says: `pad`.
    Pad { before: i64, mode: PadMode },
    /// `table[i]` is the source coordinate of output coordinate `i`: in
    /// `0..n`, or `FILL_BEFORE`/`FILL_AFTER` for the axis's fill values.
    Table(Vec<i64>),
    /// `idx[i]` (a contiguous int64 array on the source's device, one entry
    /// per output coordinate), read under `mode`.
    Indices { idx: Array, mode: IndexMode },
    /// The entry of `idx` at the output element's flat position (a
    /// contiguous int64 array of the output's size on the source's device,
    /// checked beforehand to lie in `-n..n`): `take_along_axis`.
    PerElement(Array),
}

impl AxisMap {
    /// The source coordinate (or `FILL_*`) of output coordinate `i` over a
    /// source axis of length `n`, for the maps that are not index arrays.
    pub fn source(&self, i: usize, n: usize) -> Option<i64> {
        let (i, n) = (i as i64, n as i64);
        Some(match self {
            AxisMap::Same => i,
            AxisMap::Roll { shift } => (i - shift).rem_euclid(n.max(1)),
            AxisMap::Div { by } => i / (*by).max(1),
            AxisMap::Table(t) => t[i as usize],
            AxisMap::Pad { before, mode } => {
                let p = i - before;
                match mode {
                    PadMode::Constant if p < 0 => FILL_BEFORE,
                    PadMode::Constant if p >= n => FILL_AFTER,
                    PadMode::Constant => p,
                    PadMode::Edge => p.clamp(0, (n - 1).max(0)),
                    PadMode::Reflect if n <= 1 => 0,
                    PadMode::Reflect => {
                        let q = p.rem_euclid(2 * (n - 1));
                        if q < n { q } else { 2 * (n - 1) - q }
                    }
                    PadMode::Symmetric => {
                        let q = p.rem_euclid(2 * n.max(1));
                        if q < n { q } else { 2 * n - 1 - q }
                    }
                }
            }
            AxisMap::Indices { .. } | AxisMap::PerElement(_) => return None,
        })
    }
}

/// A gather through one map per axis: `out[c] = src[map_0(c_0), ...]`, or
/// the fill value of the last axis whose map gives a fill.
pub struct Remap {
    /// The output's shape (one entry per axis of the source).
    pub shape: Vec<usize>,
    pub axes: Vec<AxisMap>,
    /// Per axis, the values of `FILL_BEFORE` and `FILL_AFTER` (converted to
    /// the source's dtype as `astype` converts).
    pub fill: Vec<[Scalar; 2]>,
}

impl Remap {
    /// A remap with every axis `Same` and fills of zero.
    pub fn identity(shape: &[usize]) -> Remap {
        Remap {
            shape: shape.to_vec(),
            axes: shape.iter().map(|_| AxisMap::Same).collect(),
            fill: vec![[Scalar::Int(0); 2]; shape.len()],
        }
    }
}

/// The adjoint of an axis table: for each source coordinate `j` in `0..n`,
/// the output coordinates `members[starts[j]..starts[j + 1]]` (increasing)
/// whose table entry is `j`. Fill entries read nothing and are left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segments {
    pub n: usize,
    pub starts: Vec<i64>,
    pub members: Vec<i64>,
}

impl Segments {
    /// The segments of `table` over a source axis of length `n` (entries
    /// outside `0..n` are left out): a counting sort, stable.
    pub fn of_table(table: &[i64], n: usize) -> Segments {
        let inside = |t: i64| (0..n as i64).contains(&t);
        let mut starts = vec![0i64; n + 1];
        for &t in table.iter().filter(|&&t| inside(t)) {
            starts[t as usize + 1] += 1;
        }
        for j in 0..n {
            starts[j + 1] += starts[j];
        }
        let mut next = starts.clone();
        let mut members = vec![0i64; starts[n] as usize];
        for (i, &t) in table.iter().enumerate() {
            if inside(t) {
                members[next[t as usize] as usize] = i as i64;
                next[t as usize] += 1;
            }
        }
        Segments { n, starts, members }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_group_a_table_by_source_in_order() {
        let s = Segments::of_table(&[2, 0, FILL_BEFORE, 2, 1, FILL_AFTER, 0], 3);
        assert_eq!(s.starts, vec![0, 2, 3, 5]);
        assert_eq!(s.members, vec![1, 6, 4, 0, 3]);
    }
}
