//! NumPy's file formats: `.npy` (written as v1.0, read as v1/v2/v3, C or
//! Fortran order, either byte order) and `.npz` (a zip of `.npy` files).
//! Saves go through a temp file in the same directory, fsync and rename, so a
//! failed save never leaves a torn file or destroys the old one.

use crate::array::create::from_host_checked;
use crate::array::{Array, HostData};
use crate::dtype::DType;
use crate::error::{Error, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

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
    }
}

/// The bytes of a `.npy` file holding `a` (GPU arrays are copied to the host).
pub fn to_npy_bytes(a: &Array) -> Result<Vec<u8>> {
    let h = a.to_host()?.contiguous()?;
    let shape = match h.ndim() {
        0 => "()".to_string(),
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
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        descr(h.dtype())
    );
    let (version, len_bytes) = if header.len() + 11 < 65536 {
        (1u8, 2usize)
    } else {
        (2u8, 4usize)
    };
    let unpadded = MAGIC.len() + 2 + len_bytes + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(unpadded + 64 + h.nbytes());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if len_bytes == 2 {
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    let d = h.host_read()?;
    let bytes = d.as_bytes();
    let es = h.dtype().size();
    out.extend_from_slice(
        bytes
            .get(h.offset() * es..(h.offset() + h.size()) * es)
            .unwrap_or(&[]),
    );
    Ok(out)
}

fn bad(path: &str, what: impl std::fmt::Display) -> Error {
    Error::io(format!("load: {path} is not a valid .npy file: {what}"))
        .with_help("the file may be truncated or not written by NumPy/gcalc; save it again")
}

/// Parse the bytes of a `.npy` file; `path` names it in errors.
pub fn from_npy_bytes(b: &[u8], path: &str) -> Result<Array> {
    if b.len() < 10 || &b[..6] != MAGIC {
        return Err(bad(path, "it does not start with the .npy magic bytes"));
    }
    let (hlen, start) = match b[6] {
        1 => (u16::from_le_bytes([b[8], b[9]]) as usize, 10usize),
        2 | 3 if b.len() >= 12 => (u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize, 12),
        v => return Err(bad(path, format!("unknown format version {v}.{}", b[7]))),
    };
    let end = start
        .checked_add(hlen)
        .filter(|&e| e <= b.len())
        .ok_or_else(|| bad(path, "the header is truncated"))?;
    let header =
        std::str::from_utf8(&b[start..end]).map_err(|_| bad(path, "the header is not text"))?;
    let descr =
        dict_value(header, "descr").ok_or_else(|| bad(path, "the header has no 'descr'"))?;
    let descr = descr.trim_matches(|c| c == '\'' || c == '"');
    let fortran = match dict_value(header, "fortran_order") {
        Some("True") => true,
        Some("False") => false,
        _ => return Err(bad(path, "the header has no valid 'fortran_order'")),
    };
    let shape_txt =
        dict_value(header, "shape").ok_or_else(|| bad(path, "the header has no 'shape'"))?;
    let shape = shape_txt
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<usize>())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|_| {
            bad(
                path,
                format!("the shape {shape_txt} is not a tuple of sizes"),
            )
        })?;
    let (big, kind) = match descr.as_bytes().first() {
        Some(b'>') => (true, &descr[1..]),
        Some(b'<' | b'|' | b'=') => (false, &descr[1..]),
        _ => (false, descr),
    };
    let dtype = match kind {
        "b1" => DType::Bool,
        "i4" => DType::Int32,
        "i8" => DType::Int64,
        "f2" => DType::Float16,
        "f4" => DType::Float32,
        "f8" => DType::Float64,
        other => {
            return Err(Error::io(format!("load: {path} holds dtype '{other}', which gcalc does not support"))
                .with_help("gcalc reads bool, int32, int64, float16, float32 and float64; convert with NumPy's astype first"));
        }
    };
    let n = crate::array::create::checked_numel(&shape, dtype)
        .map_err(|_| bad(path, format!("the shape {shape_txt} is too large")))?;
    let need = n * dtype.size();
    let data = &b[end..];
    if data.len() < need {
        return Err(bad(
            path,
            format!(
                "truncated: the shape {shape_txt} needs {need} bytes of data, the file has {}",
                data.len()
            ),
        ));
    }
    let mut raw = data[..need].to_vec();
    if big {
        for c in raw.chunks_exact_mut(dtype.size()) {
            c.reverse();
        }
    }
    let host = HostData::from_bytes(dtype, &raw)
        .ok_or_else(|| bad(path, "the data length is not a whole number of elements"))?;
    if fortran && shape.len() > 1 {
        let rev: Vec<usize> = shape.iter().rev().copied().collect();
        from_host_checked(host, rev)?.t().contiguous()
    } else {
        from_host_checked(host, shape)
    }
}

/// The text after `'key':` in a Python dict literal, up to its closing `,`/`}`.
fn dict_value<'a>(h: &'a str, key: &str) -> Option<&'a str> {
    let i = h
        .find(&format!("'{key}'"))
        .or_else(|| h.find(&format!("\"{key}\"")))?;
    let rest = h[i + key.len() + 2..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')')? + 1
    } else if let Some(q) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') {
        rest[1..].find(q)? + 2
    } else {
        rest.find([',', '}'])?
    };
    Some(rest[..end].trim())
}

/// Write `bytes` to `path` atomically: temp file in the same directory, fsync, rename.
pub fn write_atomic(
    path: &Path,
    op: &str,
    f: impl FnOnce(std::fs::File) -> std::io::Result<std::fs::File>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or(PathBuf::from("."), Path::to_path_buf);
    let name = path
        .file_name()
        .ok_or_else(|| Error::io(format!("{op}: {} is not a file name", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let io_err = |e: std::io::Error| {
        Error::io(format!("{op}: could not write {}: {e}", path.display())).with_help(
            "check that the directory exists and is writable, and that the disk has room",
        )
    };
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let file = f(file)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(e)
    })
}

/// `save(path, x)`: one array as `.npy`.
pub fn save(path: &Path, a: &Array) -> Result<()> {
    let bytes = to_npy_bytes(a)?;
    write_atomic(path, "save", |mut f| {
        f.write_all(&bytes)?;
        Ok(f)
    })
}

/// `savez(path, ...)`: named arrays as an uncompressed `.npz` (`name.npy` members).
pub fn savez(path: &Path, arrays: &[(String, Array)]) -> Result<()> {
    let blobs = arrays
        .iter()
        .map(|(n, a)| Ok((format!("{n}.npy"), to_npy_bytes(a)?)))
        .collect::<Result<Vec<_>>>()?;
    write_atomic(path, "savez", |f| {
        let mut w = npyz::npz::NpzWriter::new(f);
        for (name, bytes) in &blobs {
            let opts = npyz::zip::write::FileOptions::default()
                .compression_method(npyz::zip::CompressionMethod::Stored)
                .large_file(bytes.len() >= u32::MAX as usize);
            w.zip_writer()
                .start_file(name.as_str(), opts)
                .map_err(std::io::Error::other)?;
            w.zip_writer().write_all(bytes)?;
        }
        w.zip_writer().finish().map_err(std::io::Error::other)
    })
}

/// `load(path)`: a `.npy` file gives one array, a `.npz` file its named arrays.
pub fn load(path: &Path) -> Result<Loaded> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        Error::io(format!("load: cannot read {shown}: {e}"))
            .with_help("check the path; relative paths start at the current directory")
    })?;
    if bytes.starts_with(b"PK") {
        let mut ar = npyz::npz::NpzArchive::new(std::io::Cursor::new(bytes))
            .map_err(|e| Error::io(format!("load: {shown} is not a valid .npz archive: {e}")))?;
        let z = ar.zip_archive();
        let mut out = Vec::new();
        for i in 0..z.len() {
            let mut f = z
                .by_index(i)
                .map_err(|e| Error::io(format!("load: {shown}: member {i} is unreadable: {e}")))?;
            let name = f.name().to_string();
            let mut b = Vec::new();
            f.read_to_end(&mut b).map_err(|e| {
                Error::io(format!("load: {shown}: member {name} is unreadable: {e}"))
            })?;
            let a = from_npy_bytes(&b, &format!("{shown}[{name}]"))?;
            out.push((name.strip_suffix(".npy").unwrap_or(&name).to_string(), a));
        }
        return Ok(Loaded::Archive(out));
    }
    from_npy_bytes(&bytes, &shown).map(Loaded::Array)
}
