//! Completion and inspection at a cursor: variables, builtins, keywords,
//! attributes and methods after `.` by the value's type, flag names and values
//! after `set`, file paths inside strings.

use crate::session::{Session, var_info};
use crate::value::Value;

/// Matches for the text between `start` and `end` (byte offsets into the code).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Completion {
    pub start: usize,
    pub end: usize,
    pub matches: Vec<String>,
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

/// Whether `cursor` is inside a string literal (`"..."` or `'...'`); the
/// literal's content start if so.
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
        let mut names: Vec<String> = Vec::new();
        let line_start = code[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_before = code[line_start..start].trim_start();
        if line_before == "set " || line_before == "set" {
            names.extend(crate::flags::flag_names().map(String::from));
        } else if let Some(flag) = line_before
            .strip_prefix("set ")
            .and_then(|r| r.trim().strip_suffix('='))
        {
            let values = crate::flags::FLAG_DOCS
                .iter()
                .find(|f| f.0 == flag.trim())
                .map_or("", |f| f.1);
            names.extend(values.split_whitespace().map(String::from));
        } else if let Some(obj) = before.strip_suffix('.') {
            let ostart = word_start(obj, obj.len());
            let oname = &obj[ostart..];
            if let Some(v) = self.interp.globals.get(oname) {
                names = self.interp.attr_names(v);
            } else if oname.chars().next().is_some_and(|c| c.is_ascii_digit()) || oname.is_empty() {
                return Completion {
                    start,
                    end: cursor,
                    matches: vec![],
                };
            }
        } else {
            names.extend(self.interp.globals.keys().cloned());
            names.extend(crate::ops::all().iter().map(|d| d.name.to_string()));
            names.extend(gcalc_lang::KEYWORDS.iter().map(|k| k.to_string()));
            names.extend(
                crate::builtins::constants::CONSTANTS
                    .iter()
                    .map(|c| c.name.to_string()),
            );
            names.extend(
                [
                    "floatX", "time", "bool", "int32", "int64", "float16", "float32", "float64",
                ]
                .map(String::from),
            );
        }
        let mut matches: Vec<String> = names
            .into_iter()
            .filter(|n| n.starts_with(prefix))
            .collect();
        matches.sort();
        matches.dedup();
        Completion {
            start,
            end: cursor,
            matches,
        }
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
            let info = var_info(name, v);
            let mut text = format!("{name}: {}", info.type_name);
            if let (Some(s), Some(d), Some(dev), Some(b)) =
                (&info.shape, &info.dtype, &info.device, info.bytes)
            {
                text.push_str(&format!(
                    "\nshape: {}\ndtype: {d}\ndevice: {dev}\nbytes: {b}",
                    crate::array::layout::fmt_shape(s)
                ));
            }
            if let Value::Func(_) = v {
                text.push_str(&format!("\n{}", crate::display::repr(v)));
            } else if !matches!(v, Value::Array(_)) {
                text.push_str(&format!("\nvalue: {}", crate::display::repr(v)));
            }
            return Some(crate::output::DisplayData::text(text));
        }
        crate::builtins::help::name_help(name).map(crate::output::DisplayData::text)
    }
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
    matches.sort();
    Completion {
        start: content_start,
        end: cursor,
        matches,
    }
}
