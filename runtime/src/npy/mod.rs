//! NumPy's file formats: `.npy` (written as v1.0, read as v1/v2/v3, C or
//! Fortran order, either byte order) and `.npz` (a zip of `.npy` files).
//! Saves stream the header and the array's own buffer through
//! `crate::safe_write` (a temporary file renamed into place where the path
//! allows it); loads are bounded (`load.rs`).

mod load;

pub use load::{MAX_DIMS, from_npy_bytes, load};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::safe_write::write_file;
use std::io::Write;
use std::path::Path;

const MAGIC: &[u8] = b"\x93NUMPY";

/// What `load` found: one array (`.npy`) or named arrays in file order (`.npz`).
pub enum Loaded {
    Array(Array),
    Archive(Vec<(String, Array)>),
}

fn descr(d: DType) -> &'static str {
    match d {
        DType::Bool => "|b1",
        DType::Int32 => "<i4",
        DType::Int64 => "<i8",
        DType::Float16 => "<f2",
        DType::Float32 => "<f4",
        DType::Float64 => "<f8",
        DType::Complex64 => "<c8",
        DType::Complex128 => "<c16",
    }
}

/// The `.npy` header (magic, version, length, dict, padding) of the
/// contiguous host array `h`.
fn header(h: &Array) -> Vec<u8> {
    let shape = match h.ndim() {
        1 => format!("({},)", h.shape()[0]),
        _ => format!(
            "({})",
            h.shape()
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        descr(h.dtype())
    );
    let (version, len_bytes) = if dict.len() + 11 < 65536 {
        (1u8, 2usize)
    } else {
        (2u8, 4usize)
    };
    let unpadded = MAGIC.len() + 2 + len_bytes + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut out = Vec::with_capacity(unpadded + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if len_bytes == 2 {
        out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(dict.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out
}

/// A `.npy` file's worth of `a` (GPU arrays are copied to the host; a
/// contiguous host array is written from its own buffer, not copied).
struct NpyImage {
    h: Array,
    header: Vec<u8>,
}

impl NpyImage {
    fn of(a: &Array) -> Result<NpyImage> {
        let h = a.to_host()?.contiguous()?;
        let header = header(&h);
        Ok(NpyImage { h, header })
    }
    fn len(&self) -> usize {
        self.header.len() + self.h.nbytes()
    }
    fn write_to(&self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.header)?;
        let d = self.h.host_read().map_err(std::io::Error::other)?;
        let es = self.h.dtype().size();
        let (o, n) = (self.h.offset(), self.h.size());
        w.write_all(d.as_bytes().get(o * es..(o + n) * es).unwrap_or(&[]))
    }
}

/// `save(path, x)`: one array as `.npy` (see `crate::safe_write` for what
/// happens to what is at `path`).
pub fn save(path: &Path, a: &Array) -> Result<()> {
    save_checked(path, a, &|| false)
}

/// `save`, stopping with an interrupted error when `interrupted()` says so.
pub fn save_checked(path: &Path, a: &Array, interrupted: &dyn Fn() -> bool) -> Result<()> {
    let image = NpyImage::of(a)?;
    write_file(path, "save", interrupted, |w| image.write_to(w))
}

/// `savez(path, ...)`: named arrays as an uncompressed `.npz` (`name.npy` members).
pub fn savez(path: &Path, arrays: &[(String, Array)]) -> Result<()> {
    savez_checked(path, arrays, &|| false)
}

/// `savez`, stopping with an interrupted error when `interrupted()` says so.
pub fn savez_checked(
    path: &Path,
    arrays: &[(String, Array)],
    interrupted: &dyn Fn() -> bool,
) -> Result<()> {
    write_npz(
        path,
        arrays,
        interrupted,
        "savez",
        npyz::zip::CompressionMethod::Stored,
    )
}

/// `savez_compressed(path, ...)`: like `savez`, the members deflated.
pub fn savez_compressed_checked(
    path: &Path,
    arrays: &[(String, Array)],
    interrupted: &dyn Fn() -> bool,
) -> Result<()> {
    write_npz(
        path,
        arrays,
        interrupted,
        "savez_compressed",
        npyz::zip::CompressionMethod::Deflated,
    )
}

fn write_npz(
    path: &Path,
    arrays: &[(String, Array)],
    interrupted: &dyn Fn() -> bool,
    op: &str,
    method: npyz::zip::CompressionMethod,
) -> Result<()> {
    let images = arrays
        .iter()
        .map(|(n, a)| Ok((format!("{n}.npy"), NpyImage::of(a)?)))
        .collect::<Result<Vec<_>>>()?;
    write_file(path, op, interrupted, |f| {
        let mut w = npyz::zip::ZipWriter::new(f);
        for (name, image) in &images {
            let opts = npyz::zip::write::FileOptions::default()
                .compression_method(method)
                .large_file(image.len() >= u32::MAX as usize);
            w.start_file(name.as_str(), opts)
                .map_err(std::io::Error::other)?;
            image.write_to(&mut w)?;
        }
        w.finish().map_err(std::io::Error::other)?;
        Ok(())
    })
}
