//! NumPy's text files on the host: `loadtxt`, `genfromtxt` (missing fields
//! filled), `savetxt` (printf formats through the `%` operator's
//! formatter) and `savez_compressed`. Reads are checked against the memory
//! budget before the file is read; writes go through `safe_write` (a new
//! temporary file renamed into place). Arrays read land where `load`'s do.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::creation::{device_arg, dtype_arg, op};
use crate::ops::nparr::{int, int_list};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use std::path::{Path, PathBuf};

pub static OPS: &[OpDef] = &[
    op!(
        "loadtxt",
        "loadtxt(fname, dtype=float64, comments=\"#\", delimiter=none, skiprows=0, usecols=none, unpack=false, ndmin=0, max_rows=none, encoding=none, device=none)",
        "An array from a text file of numbers, one row a line: fields split at delimiter (none: any whitespace), text after a comment marker dropped, blank lines skipped, the first skiprows lines skipped, at most max_rows rows; usecols picks columns (an int or a list, negative from the end); dims of size 1 squeezed, then at least ndmin (0, 1 or 2) dims; unpack=true transposes (x, y = loadtxt(..., unpack=true)). A bad field is an error naming the file, line and column. On device (default: the device flag).",
        false,
        loadtxt
    ),
    op!(
        "genfromtxt",
        "genfromtxt(fname, dtype=float64, comments=\"#\", delimiter=none, skip_header=0, skip_footer=0, usecols=none, filling_values=nan, max_rows=none, unpack=false, ndmin=0, encoding=none, device=none)",
        "Like loadtxt, but a missing (empty) or unreadable field becomes filling_values (nan for floats, -1 for ints) instead of an error; skip_header/skip_footer lines are dropped at the ends. A row with another number of columns is an error naming the line.",
        false,
        genfromtxt
    ),
    op!(
        "savetxt",
        "savetxt(fname, X, fmt=\"%.18e\", delimiter=\" \", newline=\"\\n\", header=\"\", footer=\"\", comments=\"# \", encoding=none)",
        "Write a 1-d (one value a line) or 2-d array as text: each value by fmt (one printf format for every column, a list of one per column, or one format for the whole row), joined by delimiter; header and footer lines are prefixed with comments. The file is replaced atomically.",
        false,
        savetxt
    ),
    op!(
        "savez_compressed",
        "savez_compressed(path, a, b, ..., name=c)",
        "Like savez, with the members deflate-compressed (NumPy's savez_compressed): positional arrays as arr_0, arr_1, ..., keywords by name.",
        false,
        savez_compressed
    ),
];

fn path_arg(v: Value, name: &str) -> Result<PathBuf> {
    match v {
        Value::Str(s) => Ok(PathBuf::from(s.as_ref())),
        v => Err(Error::type_(format!(
            "{name}: fname must be a path string, got {}",
            v.a_type_name()
        ))
        .with_op(name)
        .with_help(format!("e.g. {name}(\"data.txt\", ...)"))),
    }
}

/// The file's text, its size checked against the memory budget first
/// (the parsed values take at most as many bytes again per field).
fn read_text(path: &Path, encoding: Option<Value>, name: &str) -> Result<String> {
    let shown = path.display().to_string();
    let cannot = |e: std::io::Error| {
        Error::io(format!("{name}: cannot read {shown}: {e}"))
            .with_op(name)
            .with_help("check the path; relative paths start at the current directory")
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(Error::io(format!("{name}: {shown} is not a regular file"))
            .with_op(name)
            .with_help("give the path of a text file"));
    }
    // The text, and up to 8 bytes of value per 2 bytes of text ("1 ").
    crate::host_limits::check(meta.len().saturating_mul(5), || {
        format!("{name} of {shown} ({} bytes)", meta.len())
    })?;
    let bytes = std::fs::read(path).map_err(cannot)?;
    let enc = match encoding {
        None | Some(Value::None) => "utf-8".to_string(),
        Some(Value::Str(s)) => s.to_ascii_lowercase().replace('_', "-"),
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}: encoding must be a string, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    match enc.as_str() {
        "utf-8" | "utf8" | "bytes" | "ascii" => String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let (line, col) = line_col(e.as_bytes(), at);
            Error::value(format!(
                "{name}: {shown} line {line}, column {col}: the bytes are not UTF-8"
            ))
            .with_op(name)
            .with_help("give encoding=\"latin1\" for a Latin-1 file")
        }),
        "latin1" | "latin-1" | "iso-8859-1" => Ok(bytes.iter().map(|&b| b as char).collect()),
        e => Err(Error::value(format!(
            "{name}: unknown encoding \"{e}\" (gcalc reads utf-8 and latin1)"
        ))
        .with_op(name)
        .with_help("encoding=\"utf-8\" or encoding=\"latin1\"")),
    }
}

fn line_col(b: &[u8], at: usize) -> (usize, usize) {
    let before = &b[..at.min(b.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = at
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

/// The options both readers share.
struct ReadOpts {
    name: &'static str,
    dtype: DType,
    comments: Vec<String>,
    delimiter: Option<String>,
    skip_first: usize,
    skip_last: usize,
    usecols: Option<Vec<i64>>,
    max_rows: Option<usize>,
    ndmin: usize,
    unpack: bool,
    /// genfromtxt: missing or unreadable fields become this.
    filling: Option<f64>,
    dev: Device,
}

fn str_or_none(
    v: Option<Value>,
    name: &str,
    what: &str,
    default: Option<&str>,
) -> Result<Option<String>> {
    match v {
        None => Ok(default.map(str::to_string)),
        Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_string())),
        Some(v) => Err(Error::type_(format!(
            "{name}: {what} must be a string or none, got {}",
            v.a_type_name()
        ))
        .with_op(name)),
    }
}

fn opts(
    i: &Interp,
    a: &mut Args,
    name: &'static str,
    genfrom: bool,
) -> Result<(PathBuf, Option<Value>, ReadOpts)> {
    let path = path_arg(a.req("fname")?, name)?;
    let dtype = match a.opt("dtype")? {
        None | Some(Value::None) => DType::Float64,
        Some(v) => dtype_arg(&v)?,
    };
    let comments = match a.opt("comments")? {
        None => vec!["#".to_string()],
        Some(Value::None) => Vec::new(),
        Some(Value::Str(s)) => vec![s.to_string()],
        Some(v @ (Value::List(_) | Value::Tuple(_))) => v
            .seq_items()
            .unwrap_or_default()
            .iter()
            .map(|c| match c {
                Value::Str(s) => Ok(s.to_string()),
                c => Err(Error::type_(format!(
                    "{name}: comments must be strings, got {}",
                    c.a_type_name()
                ))
                .with_op(name)),
            })
            .collect::<Result<_>>()?,
        Some(v) => {
            return Err(Error::type_(format!(
                "{name}: comments must be a string, a list of strings or none, got {}",
                v.a_type_name()
            ))
            .with_op(name));
        }
    };
    let delimiter = str_or_none(a.opt("delimiter")?, name, "delimiter", None)?;
    if delimiter.as_deref() == Some("") {
        return Err(
            Error::value(format!("{name}: the delimiter cannot be empty"))
                .with_op(name)
                .with_help("delimiter=none splits at whitespace"),
        );
    }
    let count = |v: Option<Value>, what: &str| -> Result<usize> {
        match v {
            None | Some(Value::None) => Ok(0),
            Some(v) => {
                let k = int(&v, name, what)?;
                usize::try_from(k).map_err(|_| {
                    Error::value(format!("{name}: {what} must be >= 0, got {k}")).with_op(name)
                })
            }
        }
    };
    let (skip_first, skip_last) = if genfrom {
        (
            count(a.opt("skip_header")?, "skip_header")?,
            count(a.opt("skip_footer")?, "skip_footer")?,
        )
    } else {
        (count(a.opt("skiprows")?, "skiprows")?, 0)
    };
    let usecols = match a.opt("usecols")? {
        None | Some(Value::None) => None,
        Some(v) => Some(int_list(&v, name, "usecols")?),
    };
    let (unpack, ndmin, max_rows, filling, encoding);
    if genfrom {
        filling = Some(match a.opt("filling_values")? {
            None | Some(Value::None) => {
                if dtype.is_int() {
                    -1.0
                } else {
                    f64::NAN
                }
            }
            Some(Value::Int(k)) => k as f64,
            Some(Value::Float(f)) => f,
            Some(Value::Bool(b)) => b as i64 as f64,
            Some(v) => {
                return Err(Error::type_(format!(
                    "{name}: filling_values must be a number, got {}",
                    v.a_type_name()
                ))
                .with_op(name));
            }
        });
        max_rows = a.kw("max_rows");
        unpack = a.kw("unpack");
        ndmin = a.kw("ndmin");
        encoding = a.kw("encoding");
    } else {
        filling = None;
        unpack = a.opt("unpack")?;
        ndmin = a.opt("ndmin")?;
        max_rows = a.opt("max_rows")?;
        encoding = a.opt("encoding")?;
    }
    let unpack = match unpack {
        None => false,
        Some(v) => i.truthy(&v)?,
    };
    let ndmin = count(ndmin, "ndmin")?;
    if ndmin > 2 {
        return Err(
            Error::value(format!("{name}: Illegal value of ndmin keyword: {ndmin}"))
                .with_op(name)
                .with_help("ndmin is 0, 1 or 2"),
        );
    }
    let max_rows = match max_rows {
        None | Some(Value::None) => None,
        Some(v) => {
            let k = int(&v, name, "max_rows")?;
            if k < 0 {
                return Err(
                    Error::value(format!("{name}: max_rows must be >= 0, got {k}")).with_op(name),
                );
            }
            Some(k as usize)
        }
    };
    let dev = match a.kw("device") {
        Some(v) => device_arg(&v)?,
        None => i.default_device(),
    };
    if dtype.is_complex() {
        return Err(
            Error::type_(format!("{name}: complex dtypes are not read from text yet"))
                .with_op(name)
                .with_help("read the real and imaginary parts as float columns"),
        );
    }
    Ok((
        path,
        encoding,
        ReadOpts {
            name,
            dtype,
            comments,
            delimiter,
            skip_first,
            skip_last,
            usecols,
            max_rows,
            ndmin,
            unpack,
            filling,
            dev,
        },
    ))
}

/// A field as a number of the dtype's kind (Python's float()/int() spellings).
fn parse_field(s: &str, d: DType) -> Option<f64> {
    let t = s.trim();
    if d.is_int() || d == DType::Bool {
        return t.parse::<i64>().ok().map(|k| k as f64);
    }
    let l = t.to_ascii_lowercase();
    let body = l.trim_start_matches(['+', '-']);
    let neg = l.starts_with('-');
    let special = match body {
        "nan" => Some(f64::NAN),
        "inf" | "infinity" => Some(f64::INFINITY),
        _ => None,
    };
    if let Some(v) = special {
        return Some(if neg { -v } else { v });
    }
    if t.is_empty() || t.contains(char::is_whitespace) {
        return None;
    }
    t.replace('_', "").parse::<f64>().ok()
}

/// Ints are kept exactly (an f64 holds only 53 bits).
enum Cells {
    Float(Vec<f64>),
    Int(Vec<i64>),
}

fn read_table(text: &str, path: &Path, o: &ReadOpts) -> Result<(Cells, usize, usize)> {
    let name = o.name;
    let shown = path.display().to_string();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let end = lines.len().saturating_sub(o.skip_last);
    let mut rows = 0usize;
    let mut ncols: Option<usize> = None;
    let mut fcells = Vec::new();
    let mut icells = Vec::new();
    let int_kind = o.dtype.is_int() || o.dtype == DType::Bool;
    for (ln, raw) in lines.iter().enumerate().take(end).skip(o.skip_first) {
        if o.max_rows.is_some_and(|m| rows >= m) {
            break;
        }
        let mut line = raw.trim_end_matches(['\n', '\r']);
        for c in &o.comments {
            if let Some(p) = line.find(c.as_str()) {
                line = &line[..p];
            }
        }
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = match &o.delimiter {
            None => line.split_whitespace().collect(),
            Some(d) => line.split(d.as_str()).collect(),
        };
        let width = fields.len();
        let picked: Vec<(usize, &str)> = match &o.usecols {
            None => fields.iter().copied().enumerate().collect(),
            Some(cols) => cols
                .iter()
                .map(|&c| {
                    let k = if c < 0 { c + width as i64 } else { c };
                    if k < 0 || k >= width as i64 {
                        Err(Error::value(format!(
                            "{name}: {shown} line {}: usecols has column {c}, but the line has {width} columns",
                            ln + 1
                        ))
                        .with_op(name)
                        .with_help("columns count from 0; negative ones from the end"))
                    } else {
                        Ok((k as usize, fields[k as usize]))
                    }
                })
                .collect::<Result<_>>()?,
        };
        match ncols {
            None => ncols = Some(picked.len()),
            Some(n) if n != picked.len() => {
                return Err(Error::value(format!(
                    "{name}: {shown} line {}: the number of columns changed from {n} to {}",
                    ln + 1,
                    picked.len()
                ))
                .with_op(name)
                .with_help("use usecols to select a subset of the columns, or fix the line"));
            }
            _ => {}
        }
        for (col, f) in picked {
            let v = match parse_field(f, o.dtype) {
                Some(v) => v,
                None => match o.filling {
                    Some(fill) => fill,
                    None => {
                        return Err(Error::value(format!(
                            "{name}: {shown} line {}, column {}: could not convert string {:?} to {}",
                            ln + 1,
                            col + 1,
                            f.trim(),
                            o.dtype.name()
                        ))
                        .with_op(name)
                        .with_help("fix the field, skip the line (skiprows, comments) or pick columns (usecols); genfromtxt fills bad fields with nan"));
                    }
                },
            };
            if int_kind {
                // Exact for ints written in the file; a fill value as given.
                let k = f.trim().parse::<i64>().unwrap_or(v as i64);
                icells.push(k);
            } else {
                fcells.push(v);
            }
        }
        rows += 1;
    }
    let cells = if int_kind {
        Cells::Int(icells)
    } else {
        Cells::Float(fcells)
    };
    Ok((cells, rows, ncols.unwrap_or(0)))
}

/// NumPy's `_ensure_ndmin_ndarray`: squeeze when above ndmin, then
/// atleast_1d, or atleast_2d transposed.
fn final_shape(rows: usize, cols: usize, ndmin: usize) -> Vec<usize> {
    let mut s: Vec<usize> = if rows == 0 { vec![0] } else { vec![rows, cols] };
    if s.len() > ndmin {
        s.retain(|&d| d != 1);
    }
    if s.len() < ndmin {
        s = match (ndmin, s.len()) {
            (1, _) => vec![1],
            (2, 0) => vec![1, 1],
            (2, _) => vec![s[0], 1],
            _ => s,
        };
    }
    s
}

fn read_array(i: &mut Interp, mut a: Args, genfrom: bool) -> Result<Value> {
    let name = if genfrom { "genfromtxt" } else { "loadtxt" };
    let (path, encoding, o) = opts(i, &mut a, name, genfrom)?;
    if genfrom {
        a.finish_with(&[
            "dtype",
            "comments",
            "delimiter",
            "skip_header",
            "skip_footer",
            "usecols",
            "filling_values",
            "max_rows",
            "unpack",
            "ndmin",
            "encoding",
            "device",
        ])?;
    } else {
        a.finish_with(&[
            "dtype",
            "comments",
            "delimiter",
            "skiprows",
            "usecols",
            "unpack",
            "ndmin",
            "max_rows",
            "encoding",
            "device",
        ])?;
    }
    let text = read_text(&path, encoding, name)?;
    let (cells, rows, cols) = read_table(&text, &path, &o)?;
    drop(text);
    let shape = final_shape(rows, cols, o.ndmin);
    let x = match cells {
        Cells::Float(v) => Array::from_vec(v, shape).astype(o.dtype)?,
        Cells::Int(v) => Array::from_vec(v, shape).astype(o.dtype)?,
    };
    let x = if o.unpack && x.ndim() >= 2 {
        x.transpose(None)?.contiguous()?
    } else {
        x
    };
    Ok(Value::Array(crate::backend::to_device(&x, o.dev)?))
}

fn loadtxt(i: &mut Interp, a: Args) -> Result<Value> {
    read_array(i, a, false)
}

fn genfromtxt(i: &mut Interp, a: Args) -> Result<Value> {
    read_array(i, a, true)
}

fn text_arg(v: Option<Value>, name: &str, what: &str, default: &str) -> Result<String> {
    Ok(str_or_none(v, name, what, Some(default))?.unwrap_or_default())
}

fn savetxt(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "savetxt";
    let path = path_arg(a.req("fname")?, name)?;
    let x = crate::ops::nparr::data(i, a.req("X")?, name, "X")?;
    let fmt = a.opt("fmt")?;
    let delimiter = text_arg(a.opt("delimiter")?, name, "delimiter", " ")?;
    let newline = text_arg(a.opt("newline")?, name, "newline", "\n")?;
    let header = text_arg(a.opt("header")?, name, "header", "")?;
    let footer = text_arg(a.opt("footer")?, name, "footer", "")?;
    let comments = text_arg(a.opt("comments")?, name, "comments", "# ")?;
    let encoding = a.opt("encoding")?;
    a.finish_with(&[
        "fmt",
        "delimiter",
        "newline",
        "header",
        "footer",
        "comments",
        "encoding",
    ])?;
    if let Some(Value::Str(e)) = &encoding {
        let e = e.to_ascii_lowercase();
        if !matches!(
            e.as_str(),
            "utf-8" | "utf8" | "latin1" | "latin-1" | "bytes"
        ) {
            return Err(Error::value(format!(
                "{name}: unknown encoding \"{e}\" (gcalc writes utf-8)"
            ))
            .with_op(name));
        }
    }
    if x.dtype().is_complex() {
        return Err(Error::type_(format!(
            "{name}: complex arrays are not written as text yet"
        ))
        .with_op(name)
        .with_help("write real(X) and imag(X) as columns"));
    }
    let (rows, cols) = match x.shape() {
        [n] => (*n, 1),
        [r, c] => (*r, *c),
        s => {
            return Err(Error::value(format!(
                "{name}: Expected 1D or 2D array, got {}D array instead",
                s.len()
            ))
            .with_op(name)
            .with_help("reshape X to 2-d first (X.reshape(-1, n))"));
        }
    };
    let row_fmt = row_format(fmt, cols, &delimiter, name)?;
    let host = crate::backend::to_device(&x.contiguous()?, Device::Cpu)?;
    let vals: Vec<Value> = if x.dtype().is_float() {
        host.astype(DType::Float64)?
            .to_vec::<f64>()?
            .into_iter()
            .map(Value::Float)
            .collect()
    } else {
        host.astype(DType::Int64)?
            .to_vec::<i64>()?
            .into_iter()
            .map(Value::Int)
            .collect()
    };
    let mut lines = Vec::with_capacity(rows);
    for r in 0..rows {
        let row = Value::tuple(vals[r * cols..(r + 1) * cols].to_vec());
        let text = crate::containers::str_methods::percent_format(&row_fmt, &row).map_err(|e| {
            Error::value(format!(
                "{name}: fmt {row_fmt:?} does not fit row {r}: {}",
                e.message
            ))
            .with_op(name)
            .with_help("give one % format per column, e.g. fmt=\"%.6f\" or fmt=[\"%d\", \"%.3f\"]")
        })?;
        lines.push(text);
    }
    let interrupted = || i.check_interrupt().is_err();
    crate::safe_write::write_file(&path, name, &interrupted, |w| {
        use std::io::Write;
        if !header.is_empty() {
            let h = header.replace('\n', &format!("\n{comments}"));
            write!(w, "{comments}{h}{newline}")?;
        }
        for l in &lines {
            write!(w, "{l}{newline}")?;
        }
        if !footer.is_empty() {
            let f = footer.replace('\n', &format!("\n{comments}"));
            write!(w, "{comments}{f}{newline}")?;
        }
        Ok(())
    })?;
    Ok(Value::None)
}

/// The printf format of a whole row.
fn row_format(fmt: Option<Value>, cols: usize, delimiter: &str, name: &str) -> Result<String> {
    let specs = |s: &str| s.matches('%').count() - 2 * s.matches("%%").count();
    match fmt {
        None | Some(Value::None) => Ok(vec!["%.18e"; cols].join(delimiter)),
        Some(Value::Str(s)) => {
            let n = specs(&s);
            if n == 1 {
                Ok(vec![s.as_ref(); cols].join(delimiter))
            } else if n == cols {
                Ok(s.to_string())
            } else {
                Err(Error::value(format!(
                    "{name}: fmt has wrong number of % formats: {s:?} ({n} for {cols} columns)"
                ))
                .with_op(name)
                .with_help("one format for every column (\"%.6f\"), or one per column"))
            }
        }
        Some(v @ (Value::List(_) | Value::Tuple(_))) => {
            let items = v.seq_items().unwrap_or_default();
            if items.len() != cols {
                return Err(Error::value(format!(
                    "{name}: fmt has wrong number of formats: {} for {cols} columns",
                    items.len()
                ))
                .with_op(name));
            }
            let parts = items
                .iter()
                .map(|f| match f {
                    Value::Str(s) => Ok(s.to_string()),
                    f => Err(Error::type_(format!(
                        "{name}: fmt entries must be strings, got {}",
                        f.a_type_name()
                    ))
                    .with_op(name)),
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(parts.join(delimiter))
        }
        Some(v) => Err(Error::type_(format!(
            "{name}: fmt must be a string or a list of strings, got {}",
            v.a_type_name()
        ))
        .with_op(name)),
    }
}

fn savez_compressed(i: &mut Interp, mut a: Args) -> Result<Value> {
    let name = "savez_compressed";
    let path = path_arg(a.req("path")?, name)?;
    let mut arrays = Vec::new();
    for (k, v) in a.rest().into_iter().enumerate() {
        arrays.push((
            format!("arr_{k}"),
            crate::ops::nparr::data(i, v, name, "arrays")?,
        ));
    }
    for (key, v) in std::mem::take(&mut a.kw) {
        if arrays.iter().any(|(n, _)| *n == key) {
            return Err(Error::value(format!(
                "{name}: cannot use `{key}` as a keyword: it names a positional array"
            ))
            .with_op(name)
            .with_help("pick another name"));
        }
        arrays.push((key, crate::ops::nparr::data(i, v, name, "arrays")?));
    }
    a.finish()?;
    crate::npy::savez_compressed_checked(&path, &arrays, &|| i.check_interrupt().is_err())?;
    Ok(Value::None)
}
