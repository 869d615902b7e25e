//! Reading Rust source as text for `tidy`: comments and string contents
//! stripped with lines kept, and the paths of `crate::` use trees.

/// The text with comments removed and, when `blank_strings`, string and
/// char literals' contents blanked; line breaks are kept, so lines match.
pub fn strip(text: &str, blank_strings: bool) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep = |out: &mut String, c: u8, blank: bool| {
        if c == b'\n' {
            out.push('\n');
        } else if blank {
            out.push(' ');
        } else {
            out.push(c as char);
        }
    };
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    keep(&mut out, b[i], true);
                    i += 1;
                }
            }
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            out.push_str(&text[i..=j]);
            i = j + 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while i < b.len() && !b[i..].starts_with(&close) {
                keep(&mut out, b[i], blank_strings);
                i += 1;
            }
            out.push_str(&text[i..(i + close.len()).min(b.len())]);
            i += close.len();
        } else if c == b'"' {
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    keep(&mut out, b[i], blank_strings);
                    i += 1;
                }
                keep(&mut out, b[i], blank_strings);
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A char literal like '"' (lifetimes have no closing quote there).
            out.push_str("' '");
            i += 3;
        } else if c == b'\'' && b.get(i + 1) == Some(&b'\\') {
            let end = text[i + 2..].find('\'').map_or(b.len(), |k| i + 2 + k + 1);
            out.push_str("' '");
            i = end;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// The line (1-based) of byte `pos`.
pub fn line_of(text: &str, pos: usize) -> usize {
    text[..pos].matches('\n').count() + 1
}

/// The full paths a use tree names, from the text just after `crate::`
/// (`array::{Array, layout::fmt_shape}` gives `array::Array`, `array::layout::fmt_shape`).
pub fn expand(rest: &str) -> Vec<String> {
    fn tree(s: &[u8], i: &mut usize, prefix: &str, out: &mut Vec<String>) {
        let skip = |i: &mut usize| {
            while *i < s.len() && (s[*i] as char).is_whitespace() {
                *i += 1;
            }
        };
        skip(i);
        if s.get(*i) == Some(&b'{') {
            *i += 1;
            loop {
                skip(i);
                if s.get(*i) == Some(&b'}') || *i >= s.len() {
                    *i += 1;
                    return;
                }
                tree(s, i, prefix, out);
                skip(i);
                if s.get(*i) == Some(&b',') {
                    *i += 1;
                }
            }
        }
        let start = *i;
        while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_') {
            *i += 1;
        }
        let ident = std::str::from_utf8(&s[start..*i]).unwrap_or("");
        let path = if prefix.is_empty() {
            ident.to_string()
        } else if ident.is_empty() || ident == "self" {
            prefix.to_string()
        } else {
            format!("{prefix}::{ident}")
        };
        if s[*i..].starts_with(b"::") {
            *i += 2;
            tree(s, i, &path, out);
        } else if !path.is_empty() {
            out.push(path);
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    tree(rest.as_bytes(), &mut i, "", &mut out);
    out
}

/// Every `crate::` path of a stripped text, with its byte position.
pub fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut v = Vec::new();
    for (pos, _) in code.match_indices("crate::") {
        let before = code[..pos].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        for p in expand(&code[pos + "crate::".len()..]) {
            v.push((pos, p));
        }
    }
    v
}
