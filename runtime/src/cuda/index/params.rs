//! A `Select` as the kernels' `GcSel` parameter block (index_sel.cuh),
//! passed by value at launch: the index arrays are named by their device
//! addresses and read by the kernels, never by the host.

use super::super::buffer::array_buffer;
use crate::array::select::{EntryKind, Select, too_complex};
use crate::dtype::DType;
use crate::error::{Error, Result};

pub const SEL_DIMS: usize = 16;
pub const SEL_ENTRIES: usize = 8;
pub const FLAT_DIMS: usize = 4;

/// `GcEnt`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct GcEnt {
    p: u64,
    is32: i32,
    kind: i32,
    vst: [i64; SEL_DIMS],
    len: i64,
    stride: i64,
    axis: i64,
    nflat: i64,
    flen: [i64; FLAT_DIMS],
    fst: [i64; FLAT_DIMS],
}

/// `GcSel`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct GcSel {
    pub n: i64,
    offset: i64,
    nd: i32,
    ne: i32,
    bstart: i32,
    bnd: i32,
    shape: [i64; SEL_DIMS],
    st: [i64; SEL_DIMS],
    e: [GcEnt; SEL_ENTRIES],
}

// The kernels' structs have these sizes too (static_asserts in index_sel.cuh).
const _: () = assert!(std::mem::size_of::<GcEnt>() == 240);
const _: () = assert!(std::mem::size_of::<GcSel>() == 2208);

const NO_ENTRY: GcEnt = GcEnt {
    p: 0,
    is32: 0,
    kind: 0,
    vst: [0; SEL_DIMS],
    len: 0,
    stride: 0,
    axis: 0,
    nflat: 0,
    flen: [0; FLAT_DIMS],
    fst: [0; FLAT_DIMS],
};

/// The parameter block of `sel` (its index arrays on the GPU already).
pub fn pack(sel: &Select) -> Result<GcSel> {
    let nd = sel.shape.len();
    if nd > SEL_DIMS {
        return Err(too_complex("dimensions", nd, SEL_DIMS, &sel.shape));
    }
    if sel.entries.len() > SEL_ENTRIES {
        return Err(too_complex(
            "index arrays",
            sel.entries.len(),
            SEL_ENTRIES,
            &sel.shape,
        ));
    }
    let mut p = GcSel {
        n: sel.size() as i64,
        offset: sel.offset as i64,
        nd: nd as i32,
        ne: sel.entries.len() as i32,
        bstart: sel.block.start as i32,
        bnd: sel.block.len() as i32,
        shape: [0; SEL_DIMS],
        st: [0; SEL_DIMS],
        e: [NO_ENTRY; SEL_ENTRIES],
    };
    for d in 0..nd {
        p.shape[d] = sel.shape[d] as i64;
        p.st[d] = sel.strides[d] as i64;
    }
    for (k, e) in sel.entries.iter().enumerate() {
        let is32 = match e.values.dtype() {
            DType::Int32 => 1,
            DType::Int64 => 0,
            d => return Err(Error::internal(format!("index values of dtype {d}"))),
        };
        let mut g = GcEnt {
            p: array_buffer(&e.values)?.ptr_at(e.values.offset()),
            is32,
            ..NO_ENTRY
        };
        for d in 0..nd {
            g.vst[d] = e.vstrides[d] as i64;
        }
        match &e.kind {
            EntryKind::Axis { len, stride, axis } => {
                g.kind = 0;
                g.len = *len as i64;
                g.stride = *stride as i64;
                g.axis = *axis as i64;
            }
            EntryKind::Flat { lens, strides } => {
                if lens.len() > FLAT_DIMS {
                    return Err(too_complex(
                        "mask axes that do not merge",
                        lens.len(),
                        FLAT_DIMS,
                        &sel.shape,
                    ));
                }
                g.kind = 1;
                g.nflat = lens.len() as i64;
                for (d, (&n, &s)) in lens.iter().zip(strides).enumerate() {
                    g.flen[d] = n as i64;
                    g.fst[d] = s as i64;
                }
            }
        }
        p.e[k] = g;
    }
    Ok(p)
}
