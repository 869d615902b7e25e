//! Reading `.npy` and `.npz` files with bounded memory: the header is read
//! first, and the size it declares is checked against what the file (or zip
//! member) holds, against NumPy's limits (64 dimensions, a product of sizes
//! that fits) and against the memory the host can still give (see
//! `host_limits`) before a byte of data is read. Data is read straight into
//! the array's buffer, so a member of N bytes costs about N bytes, and
//! nothing is inflated past what its header declares: a zip bomb is refused
//! at its header. Only regular files are read (`/dev/zero` is refused).

use super::{Loaded, MAGIC};
use crate::array::create::from_host_checked;
use crate::array::layout::fmt_shape;
use crate::array::{Array, HostData};
use crate::dtype::DType;
use crate::error::{Error, Result};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// NumPy's limit on dimensions (`NPY_MAXDIMS`).
pub const MAX_DIMS: usize = 64;
/// Header bytes NumPy reads without `allow_pickle` (`max_header_size`).
const MAX_HEADER: usize = 10_000;
/// Bytes of bool data converted per read.
const BOOL_CHUNK: usize = 1 << 20;

fn bad(path: &str, what: impl std::fmt::Display) -> Error {
    Error::io(format!("load: {path} is not a valid .npy file: {what}"))
        .with_help("the file may be truncated or not written by NumPy/gcalc; save it again")
}

/// What a `.npy` header declares.
struct Header {
    dtype: DType,
    big_endian: bool,
    fortran: bool,
    shape: Vec<usize>,
}

/// Read the magic, version and header of a `.npy` stream; `room` is how many
/// bytes the stream holds in all (the file or member size). Gives the header
/// and the bytes it took.
fn read_header(r: &mut impl Read, room: u64, path: &str) -> Result<(Header, u64)> {
    let truncated = |_| bad(path, "the header is truncated");
    let mut pre = [0u8; 8];
    r.read_exact(&mut pre).map_err(truncated)?;
    if &pre[..6] != MAGIC {
        return Err(bad(path, "it does not start with the .npy magic bytes"));
    }
    let (hlen, start) = match pre[6] {
        1 => {
            let mut l = [0u8; 2];
            r.read_exact(&mut l).map_err(truncated)?;
            (u16::from_le_bytes(l) as usize, 10u64)
        }
        2 | 3 => {
            let mut l = [0u8; 4];
            r.read_exact(&mut l).map_err(truncated)?;
            (u32::from_le_bytes(l) as usize, 12)
        }
        v => return Err(bad(path, format!("unknown format version {v}.{}", pre[7]))),
    };
    if hlen > MAX_HEADER {
        return Err(bad(
            path,
            format!("its header is {hlen} bytes, more than the {MAX_HEADER} NumPy reads"),
        ));
    }
    if start + hlen as u64 > room {
        return Err(bad(path, "the header is truncated"));
    }
    let mut text = vec![0u8; hlen];
    r.read_exact(&mut text).map_err(truncated)?;
    let header = std::str::from_utf8(&text).map_err(|_| bad(path, "the header is not text"))?;
    Ok((parse_header(header, path)?, start + hlen as u64))
}

fn parse_header(header: &str, path: &str) -> Result<Header> {
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
    let dims: Vec<&str> = shape_txt
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if dims.len() > MAX_DIMS {
        return Err(bad(
            path,
            format!(
                "its shape has {} dimensions; at most {MAX_DIMS} are supported (NumPy's limit)",
                dims.len()
            ),
        ));
    }
    let shape = dims
        .iter()
        .map(|s| s.trim_end_matches('L').parse::<usize>())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|_| {
            bad(
                path,
                format!("the shape {shape_txt} is not a tuple of sizes"),
            )
        })?;
    let (big_endian, kind) = match descr.as_bytes().first() {
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
        "c8" => DType::Complex64,
        "c16" => DType::Complex128,
        other => {
            return Err(Error::io(format!("load: {path} holds dtype '{other}', which gcalc does not support"))
                .with_help("gcalc reads bool, int32, int64, float16, float32, float64, complex64 and complex128; convert with NumPy's astype first"));
        }
    };
    Ok(Header {
        dtype,
        big_endian,
        fortran,
        shape,
    })
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

/// `n` elements of `T` read from `r` as little-endian (or big-endian) bytes,
/// into one buffer allocated once.
fn read_plain<T: crate::array::Element>(
    r: &mut impl Read,
    n: usize,
    big_endian: bool,
) -> std::io::Result<Vec<T>> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
    v.resize(n, T::default());
    let size = std::mem::size_of::<T>();
    // SAFETY: T is one of i32, i64, f16, f32, f64 (never bool, see
    // `read_data`): plain old data for which every bit pattern is a value.
    let bytes = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, n * size) };
    r.read_exact(bytes)?;
    if big_endian != cfg!(target_endian = "big") {
        bytes.chunks_exact_mut(size).for_each(<[u8]>::reverse);
    }
    Ok(v)
}

fn read_data(r: &mut impl Read, h: &Header, n: usize) -> std::io::Result<HostData> {
    Ok(match h.dtype {
        DType::Bool => {
            let mut v = Vec::new();
            v.try_reserve_exact(n)
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
            let mut buf = vec![0u8; BOOL_CHUNK.min(n)];
            while v.len() < n {
                let k = (n - v.len()).min(BOOL_CHUNK);
                r.read_exact(&mut buf[..k])?;
                v.extend(buf[..k].iter().map(|&b| b != 0));
            }
            HostData::Bool(v)
        }
        DType::Int32 => HostData::I32(read_plain(r, n, h.big_endian)?),
        DType::Int64 => HostData::I64(read_plain(r, n, h.big_endian)?),
        DType::Float16 => HostData::F16(read_plain(r, n, h.big_endian)?),
        DType::Float32 => HostData::F32(read_plain(r, n, h.big_endian)?),
        DType::Float64 => HostData::F64(read_plain(r, n, h.big_endian)?),
        // Pairs of floats, each part byte-swapped on its own.
        DType::Complex64 => {
            let parts: Vec<f32> = read_plain(r, n * 2, h.big_endian)?;
            HostData::C64(
                parts
                    .chunks_exact(2)
                    .map(|p| crate::array::Cf32::new(p[0], p[1]))
                    .collect(),
            )
        }
        DType::Complex128 => {
            let parts: Vec<f64> = read_plain(r, n * 2, h.big_endian)?;
            HostData::C128(
                parts
                    .chunks_exact(2)
                    .map(|p| crate::array::Cf64::new(p[0], p[1]))
                    .collect(),
            )
        }
    })
}

/// One array from a `.npy` stream of `room` bytes, checked before reading.
fn read_npy(r: &mut impl Read, room: u64, path: &str) -> Result<Array> {
    let (h, used) = read_header(r, room, path)?;
    let shape_txt = fmt_shape(&h.shape);
    let n = crate::array::create::checked_numel(&h.shape, h.dtype)
        .map_err(|_| bad(path, format!("the shape {shape_txt} is too large")))?;
    let need = (n * h.dtype.size()) as u64;
    let have = room - used;
    if have < need {
        return Err(bad(
            path,
            format!(
                "truncated: the shape {shape_txt} needs {need} bytes of data, the file has {have}"
            ),
        ));
    }
    crate::host_limits::check(need, || {
        format!("load: {path} (a {} array of shape {shape_txt})", h.dtype)
    })?;
    let host = read_data(r, &h, n).map_err(|e| match e.kind() {
        std::io::ErrorKind::OutOfMemory => crate::host_limits::check(u64::MAX, || {
            format!("load: {path} (a {} array of shape {shape_txt})", h.dtype)
        })
        .err()
        .unwrap_or_else(|| Error::io(format!("load: {path}: out of memory"))),
        std::io::ErrorKind::UnexpectedEof => bad(path, "the data is truncated"),
        _ => Error::io(format!("load: cannot read {path}: {e}")),
    })?;
    if h.fortran && h.shape.len() > 1 {
        let rev: Vec<usize> = h.shape.iter().rev().copied().collect();
        from_host_checked(host, rev)?.t().contiguous()
    } else {
        from_host_checked(host, h.shape)
    }
}

/// Parse the bytes of a `.npy` file; `path` names it in errors.
pub fn from_npy_bytes(b: &[u8], path: &str) -> Result<Array> {
    read_npy(&mut std::io::Cursor::new(b), b.len() as u64, path)
}

/// What kind of thing is at a path that is not a regular file.
fn kind_of(ft: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_dir() {
        "a folder"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// `load(path)`: a `.npy` file gives one array, a `.npz` file its named arrays.
pub fn load(path: &Path) -> Result<Loaded> {
    let shown = path.display().to_string();
    let cannot = |e: std::io::Error| {
        Error::io(format!("load: cannot read {shown}: {e}"))
            .with_help("check the path; relative paths start at the current directory")
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(Error::io(format!(
            "load: {shown} is {}, not a .npy or .npz file",
            kind_of(meta.file_type())
        ))
        .with_help("load reads regular files written by save, savez or NumPy"));
    }
    let mut f = std::fs::File::open(path).map_err(cannot)?;
    let mut magic = [0u8; 4];
    let n = f.read(&mut magic).map_err(cannot)?;
    f.seek(SeekFrom::Start(0)).map_err(cannot)?;
    if n >= 2 && &magic[..2] == b"PK" {
        return load_npz(f, &shown).map(Loaded::Archive);
    }
    let room = f.metadata().map_err(cannot)?.len();
    read_npy(&mut std::io::BufReader::new(f), room, &shown).map(Loaded::Array)
}

/// The members of a `.npz` archive, each streamed from the archive (deflated
/// or stored) into its array.
fn load_npz(f: std::fs::File, shown: &str) -> Result<Vec<(String, Array)>> {
    let mut z = npyz::zip::ZipArchive::new(std::io::BufReader::new(f))
        .map_err(|e| Error::io(format!("load: {shown} is not a valid .npz archive: {e}")))?;
    let mut out = Vec::new();
    for i in 0..z.len() {
        let mut m = z
            .by_index(i)
            .map_err(|e| Error::io(format!("load: {shown}: member {i} is unreadable: {e}")))?;
        let name = m.name().to_string();
        let room = m.size();
        let a = read_npy(&mut m, room, &format!("{shown}[{name}]"))?;
        out.push((name.strip_suffix(".npy").unwrap_or(&name).to_string(), a));
    }
    Ok(out)
}
