//! Completion and inspection at a cursor: variables, builtins, keywords,
//! attributes and methods after `.` — also after a call or an attribute chain
//! (`zeros((2,2)).resh`, `x.T.sh`: `receiver` infers the type without running
//! anything) —, flag names and values after `set`, file paths inside strings.
//! Each match has a type label (Jupyter shows it in the popup).

mod receiver;

use crate::session::{Session, var_info};
use crate::value::Value;

/// Matches for the text between `start` and `end` (byte offsets into the code).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Completion {
    pub start: usize,
    pub end: usize,
    pub matches: Vec<String>,
    /// What each match is, in `matches`' order: `function`, `method`,
    /// `property`, `keyword`, `dtype`, `flag`, `value`, `path`, or a
    /// variable's type (`array`, `int`, `function`...).
    pub types: Vec<&'static str>,
}

impl Completion {
    fn new(start: usize, end: usize, mut found: Vec<(String, &'static str)>, prefix: &str) -> Self {
        found.retain(|(n, _)| n.starts_with(prefix));
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found.dedup_by(|a, b| a.0 == b.0);
        let (matches, types) = found.into_iter().unzip();
        Completion {
            start,
            end,
            matches,
            types,
        }
    }
}

/// The label of a variable: a function is a `function`, other values their type.
fn value_label(v: &Value) -> &'static str {
    match v {
        Value::Func(_) | Value::Builtin(_) | Value::Method(..) => "function",
        other => other.type_name(),
    }
}

/// Attributes of every array that are values, not methods (`x.T`, `x.shape`).
pub const ARRAY_PROPERTIES: &[&str] = &[
    "shape", "size", "ndim", "dtype", "device", "nbytes", "itemsize", "strides", "T", "mT", "flat",
];

/// Names that are values without being ops: dtypes and `floatX`.
pub const SPECIAL_NAMES: &[&str] = &[
    "floatX",
    "bool",
    "int32",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
];

/// Every builtin name (ops, dtypes, `floatX`), sorted: what highlighters
/// outside the engine (the JupyterLab mode, the Pygments lexer) colour as builtins.
pub fn builtin_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = crate::ops::all().iter().map(|d| d.name).collect();
    v.extend(SPECIAL_NAMES);
    v.extend(crate::builtins::np_types::names());
    v.sort_unstable();
    v.dedup();
    v
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offset where the identifier ending at `cursor` starts.
fn word_start(code: &str, cursor: usize) -> usize {
    code[..cursor]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_ident(*c))
        .last()
        .map_or(cursor, |(i, _)| i)
}

/// Whether `cursor` is inside a string literal; the literal's content start if so.
fn string_start(code: &str, cursor: usize) -> Option<usize> {
    let mut in_str: Option<usize> = None;
    let mut quote = b'"';
    let mut in_comment = false;
    let b = code.as_bytes();
    let mut i = 0;
    while i < cursor.min(b.len()) {
        let c = b[i];
        match (in_str, c) {
            (None, b'\n') => in_comment = false,
            _ if in_comment => {}
            (None, b'#') => in_comment = true,
            // `"..."` and `'...'`: a string ends at its own quote.
            (None, b'"' | b'\'') => {
                in_str = Some(i + 1);
                quote = c;
            }
            (Some(_), b'\\') => i += 1,
            (Some(_), c) if c == quote => in_str = None,
            _ => {}
        }
        i += 1;
    }
    in_str
}

impl Session {
    pub fn complete(&self, code: &str, cursor: usize) -> Completion {
        let cursor = gcalc_lang::span::floor_char_boundary(code, cursor);
        if let Some(s) = string_start(code, cursor) {
            return complete_path(code, s, cursor);
        }
        let start = word_start(code, cursor);
        let prefix = &code[start..cursor];
        let before = code[..start].trim_end_matches([' ', '\t']);
        let mut names: Vec<(String, &'static str)> = Vec::new();
        let line_start = code[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_before = code[line_start..start].trim_start();
        if line_before == "set " || line_before == "set" {
            names.extend(crate::flags::flag_names().map(|f| (f.to_string(), "flag")));
        } else if let Some(flag) = line_before
            .strip_prefix("set ")
            .and_then(|r| r.trim().strip_suffix('='))
        {
            let values = crate::flags::FLAG_DOCS
                .iter()
                .find(|f| f.0 == flag.trim())
                .map_or("", |f| f.1);
            names.extend(values.split_whitespace().map(|v| (v.to_string(), "value")));
        } else if code[..start].ends_with('.') {
            let dot = start - 1;
            let recv = &code[receiver::chain_start(code, dot)..dot];
            // `1.` is a number being typed, not an attribute.
            let number = recv.starts_with(|c: char| c.is_ascii_digit());
            if !number && let Some(v) = receiver::infer(&self.interp, recv) {
                names = self.attr_matches(&v);
            }
        } else if !before.ends_with('.') {
            names.extend(
                self.interp
                    .globals
                    .iter()
                    .map(|(k, v)| (k.clone(), value_label(v))),
            );
            names.extend(
                crate::ops::all()
                    .iter()
                    .map(|d| (d.name.to_string(), "function")),
            );
            names.extend(
                gcalc_lang::KEYWORDS
                    .iter()
                    .map(|k| (k.to_string(), "keyword")),
            );
            names.extend(SPECIAL_NAMES.iter().map(|n| (n.to_string(), "dtype")));
            names.extend(crate::builtins::np_types::names().map(|n| (n.to_string(), "dtype")));
            names.extend(
                crate::builtins::constants::CONSTANTS
                    .iter()
                    .map(|c| (c.name.to_string(), "constant")),
            );
            names.push(("time".into(), "keyword"));
        }
        Completion::new(start, cursor, names, prefix)
    }

    /// Attribute names of a value, labelled: array attributes and object
    /// attributes are `property`, op-table methods `method`.
    fn attr_matches(&self, v: &Value) -> Vec<(String, &'static str)> {
        self.interp
            .attr_names(v)
            .into_iter()
            .map(|n| {
                let label = match v {
                    Value::Object(o) => o.attr(&n).map_or("property", |a| match a {
                        Value::Func(_) | Value::Builtin(_) | Value::Method(..) => "method",
                        Value::Object(_) => "function",
                        _ => "property",
                    }),
                    _ if crate::ops::lookup(&n).is_some_and(|d| d.method)
                        && !ARRAY_PROPERTIES.contains(&n.as_str()) =>
                    {
                        "method"
                    }
                    // A list's or dict's methods (`xs.append`, `d.items`).
                    _ if crate::containers::methods::method(v, &n).is_some() => "method",
                    _ => "property",
                };
                (n, label)
            })
            .collect()
    }

    /// Help for the name at (or just before) the cursor: a builtin's doc, or a
    /// variable's type, shape, dtype, device and bytes.
    pub fn inspect(&self, code: &str, cursor: usize) -> Option<crate::output::DisplayData> {
        let cursor = gcalc_lang::span::floor_char_boundary(code, cursor);
        let end = cursor
            + code[cursor..]
                .chars()
                .take_while(|c| is_ident(*c))
                .map(char::len_utf8)
                .sum::<usize>();
        let mut start = word_start(code, end);
        let mut name = &code[start..end];
        if name.is_empty() {
            // `exp(|` : inspect the function being called.
            let before = code[..cursor].trim_end_matches(|c: char| c != '(' && c != '\n');
            let b = before.strip_suffix('(')?;
            start = word_start(b, b.len());
            name = &b[start..];
        }
        if name.is_empty() {
            return None;
        }
        if let Some(v) = self.interp.globals.get(name) {
            let text = describe(name, v);
            return Some(crate::output::DisplayData::text(text.trim_end()));
        }
        crate::builtins::help::name_help(name, &self.interp.flags)
            .map(crate::output::DisplayData::text)
    }
}

/// What a variable is: its type, and an array's shape, dtype, device and
/// bytes, or another value's text (Shift-Tab, `name?`).
pub(crate) fn describe(name: &str, v: &Value) -> String {
    let info = var_info(name, v);
    let mut text = format!("{name}: {}\n", info.type_name);
    if let (Some(s), Some(d), Some(dev), Some(b)) =
        (&info.shape, &info.dtype, &info.device, info.bytes)
    {
        text.push_str(&format!(
            "shape: {}\ndtype: {d}\ndevice: {dev}\nbytes: {b}\n",
            crate::array::layout::fmt_shape(s)
        ));
    }
    if let Value::Func(_) = v {
        text.push_str(&format!("{}\n", crate::display::repr(v)));
    } else if !matches!(v, Value::Array(_)) {
        text.push_str(&format!("value: {}\n", crate::display::repr(v)));
    }
    text
}

fn complete_path(code: &str, content_start: usize, cursor: usize) -> Completion {
    let typed = &code[content_start..cursor];
    let (dir, file_prefix) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let read_dir = if dir.is_empty() { "." } else { dir };
    let mut matches = Vec::new();
    if let Ok(entries) = std::fs::read_dir(read_dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with(file_prefix)
                && (file_prefix.starts_with('.') || !name.starts_with('.'))
            {
                let slash = if e.file_type().is_ok_and(|t| t.is_dir()) {
                    "/"
                } else {
                    ""
                };
                matches.push(format!("{dir}{name}{slash}"));
            }
        }
    }
    let found = matches.into_iter().map(|m| (m, "path")).collect();
    Completion::new(content_start, cursor, found, "")
}
