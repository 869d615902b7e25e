//! A tiny standalone lexer for syntax highlighting at the prompt: keywords,
//! numbers, strings, comments and matching brackets. It never calls the
//! engine, so a keystroke's redraw costs microseconds and cannot block.

use std::fmt::Write;

/// What a stretch of input is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Keyword,
    Constant,
    Number,
    Str,
    Comment,
    Bracket,
    Other,
}

/// One token: `kind` over the bytes `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

const CONSTANTS: &[&str] = &["true", "false", "none", "True", "False", "None"];

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Split `src` into tokens. Anything unknown becomes `Other`; unclosed
/// strings run to the end. Never panics on any input.
pub fn tokens(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c == b'#' {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            Kind::Comment
        } else if c == b'"' || c == b'\'' {
            i = string_end(b, i);
            Kind::Str
        } else if (c == b'f' || c == b'F') && matches!(b.get(i + 1), Some(b'"' | b'\'')) {
            // An f-string: its `{...}` fields may hold quotes of their own.
            i = gcalc_lang::string_literal_end(src, i + 1).unwrap_or_else(|| string_end(b, i + 1));
            Kind::Str
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i = number_end(b, i);
            Kind::Number
        } else if is_ident_start(c) {
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            let word = &src[start..i];
            if CONSTANTS.contains(&word) {
                Kind::Constant
            } else if gcalc_lang::KEYWORDS.contains(&word) {
                Kind::Keyword
            } else {
                Kind::Other
            }
        } else if b"()[]{}".contains(&c) {
            i += 1;
            Kind::Bracket
        } else {
            // One whole character (multi-byte ones included).
            i += src[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Other
        };
        out.push(Token {
            kind,
            start,
            end: i,
        });
    }
    out
}

/// End of the string literal starting at `i` (a `"`, `'`, `"""` or `'''`).
fn string_end(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let triple = [q, q, q];
    if b[i..].starts_with(&triple) {
        let mut j = i + 3;
        while j < b.len() {
            if b[j] == b'\\' {
                j += 2;
            } else if b[j..].starts_with(&triple) {
                return j + 3;
            } else {
                j += 1;
            }
        }
        return b.len();
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == q => return j + 1,
            b'\n' => return j,
            _ => j += 1,
        }
    }
    b.len()
}

/// End of the number starting at `i`: digits, one `.`, an exponent.
fn number_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' && !b.get(i + 1).is_some_and(|c| is_ident_start(*c)) {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            i = j;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    i.min(b.len())
}

/// The bracket matching the one at or just before `cursor`: both byte offsets.
pub fn matching_bracket(toks: &[Token], src: &str, cursor: usize) -> Option<(usize, usize)> {
    let b = src.as_bytes();
    let brackets: Vec<usize> = toks
        .iter()
        .filter(|t| t.kind == Kind::Bracket)
        .map(|t| t.start)
        .collect();
    let at = brackets
        .iter()
        .position(|&p| p == cursor)
        .or_else(|| brackets.iter().position(|&p| p + 1 == cursor))?;
    let (open, close) = match b[brackets[at]] {
        b'(' | b')' => (b'(', b')'),
        b'[' | b']' => (b'[', b']'),
        _ => (b'{', b'}'),
    };
    let mut depth = 0i32;
    if b[brackets[at]] == open {
        for &p in &brackets[at..] {
            depth += i32::from(b[p] == open) - i32::from(b[p] == close);
            if depth == 0 {
                return Some((brackets[at], p));
            }
        }
    } else {
        for &p in brackets[..=at].iter().rev() {
            depth += i32::from(b[p] == close) - i32::from(b[p] == open);
            if depth == 0 {
                return Some((p, brackets[at]));
            }
        }
    }
    None
}

fn color(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Keyword => Some("\x1b[1;35m"),
        Kind::Constant => Some("\x1b[35m"),
        Kind::Number => Some("\x1b[36m"),
        Kind::Str => Some("\x1b[32m"),
        Kind::Comment => Some("\x1b[2;37m"),
        Kind::Bracket | Kind::Other => None,
    }
}

/// `line` with ANSI colours. `context` is the input before it (earlier lines of
/// a multi-line entry), lexed with it so that a `"""` string carries over;
/// `cursor` (a byte offset into `line`) selects the bracket pair to mark.
/// The result has the same display width as `line`.
pub fn highlight(context: &str, line: &str, cursor: Option<usize>) -> String {
    let src = format!("{context}{line}");
    let off = context.len();
    let toks = tokens(&src);
    let pair = cursor.and_then(|c| matching_bracket(&toks, &src, off + c));
    let mut s = String::with_capacity(line.len() * 2);
    for t in toks.iter().filter(|t| t.end > off) {
        let start = t.start.max(off);
        let text = &src[start..t.end];
        let marked = pair.is_some_and(|(a, b)| t.start == a || t.start == b);
        if marked {
            let _ = write!(s, "\x1b[1;4;33m{text}\x1b[0m");
        } else if let Some(c) = color(t.kind) {
            let _ = write!(s, "{c}{text}\x1b[0m");
        } else {
            s.push_str(text);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Kind, &str)> {
        tokens(src)
            .into_iter()
            .filter(|t| !src[t.start..t.end].trim().is_empty())
            .map(|t| (t.kind, &src[t.start..t.end]))
            .collect()
    }

    #[test]
    fn lexes_the_language() {
        assert_eq!(
            kinds(r#"for i in range(3) { x = 1.5e-3 + .5 # hi"#),
            vec![
                (Kind::Keyword, "for"),
                (Kind::Other, "i"),
                (Kind::Keyword, "in"),
                (Kind::Other, "range"),
                (Kind::Bracket, "("),
                (Kind::Number, "3"),
                (Kind::Bracket, ")"),
                (Kind::Bracket, "{"),
                (Kind::Other, "x"),
                (Kind::Other, "="),
                (Kind::Number, "1.5e-3"),
                (Kind::Other, "+"),
                (Kind::Number, ".5"),
                (Kind::Comment, "# hi"),
            ]
        );
        assert_eq!(
            kinds(r#"s = "a\"b" + """x"y""" true"#),
            vec![
                (Kind::Other, "s"),
                (Kind::Other, "="),
                (Kind::Str, r#""a\"b""#),
                (Kind::Other, "+"),
                (Kind::Str, r#""""x"y""""#),
                (Kind::Constant, "true"),
            ]
        );
        // A method call on a number literal: `3.sum` is not `3.` then `sum`.
        assert_eq!(kinds("3.sum")[0], (Kind::Number, "3"));
        // f-strings are one string, quotes in their fields included; Python's
        // constants are constants; `in` is a keyword in a comprehension.
        assert_eq!(
            kinds(r#"f"{d["w"]:.2f}" + x[None] if y in [v for v in z]"#),
            vec![
                (Kind::Str, r#"f"{d["w"]:.2f}""#),
                (Kind::Other, "+"),
                (Kind::Other, "x"),
                (Kind::Bracket, "["),
                (Kind::Constant, "None"),
                (Kind::Bracket, "]"),
                (Kind::Keyword, "if"),
                (Kind::Other, "y"),
                (Kind::Keyword, "in"),
                (Kind::Bracket, "["),
                (Kind::Other, "v"),
                (Kind::Keyword, "for"),
                (Kind::Other, "v"),
                (Kind::Keyword, "in"),
                (Kind::Other, "z"),
                (Kind::Bracket, "]"),
            ]
        );
        assert_eq!(kinds("f\"{x")[0], (Kind::Str, "f\"{x"));
        assert_eq!(
            kinds(r#"d['w'] + f'{a["k"]}' + '''x'y'''"#),
            vec![
                (Kind::Other, "d"),
                (Kind::Bracket, "["),
                (Kind::Str, "'w'"),
                (Kind::Bracket, "]"),
                (Kind::Other, "+"),
                (Kind::Str, r#"f'{a["k"]}'"#),
                (Kind::Other, "+"),
                (Kind::Str, "'''x'y'''"),
            ]
        );
        assert_eq!(kinds("format")[0], (Kind::Other, "format"));
    }

    #[test]
    fn never_panics_on_odd_input() {
        for s in [
            "\"", "\"\"\"", "\\", "1e", "1e+", ".", "é\"é", "\"\\", "#", "ü(", "\"\"\"\\", "f\"",
            "f\"{", "f\"{\"", "f\"{x:{", "F\"\"\"{", "xf\"é",
        ] {
            let t = tokens(s);
            assert_eq!(t.last().map_or(0, |t| t.end), s.len(), "{s:?}");
            for c in 0..=s.len() {
                if s.is_char_boundary(c) {
                    let _ = highlight("", s, Some(c));
                }
            }
        }
    }

    #[test]
    fn brackets_match() {
        let src = "f(a[1], {b})";
        let t = tokens(src);
        assert_eq!(matching_bracket(&t, src, 1), Some((1, 11)));
        assert_eq!(matching_bracket(&t, src, 12), Some((1, 11)));
        assert_eq!(matching_bracket(&t, src, 4), Some((3, 5)));
        assert_eq!(matching_bracket(&t, src, 0), None);
        assert_eq!(matching_bracket(&tokens("(("), "((", 1), None);
    }

    #[test]
    fn highlighting_keeps_the_text() {
        let strip = |s: &str| {
            let mut out = String::new();
            let mut esc = false;
            for c in s.chars() {
                match (esc, c) {
                    (false, '\x1b') => esc = true,
                    (true, 'm') => esc = false,
                    (false, c) => out.push(c),
                    _ => {}
                }
            }
            out
        };
        let line = r#"fn f(x) = x * 2.0 # "c" é"#;
        let h = highlight("", line, Some(4));
        assert_ne!(h, line);
        assert_eq!(strip(&h), line);
        assert!(h.contains("\x1b[1;35mfn\x1b[0m"));
        // A `"""` opened on an earlier line colours this one as a string.
        let h = highlight("k = \"\"\"\n", "for x", None);
        assert_eq!(h, "\x1b[32mfor x\x1b[0m");
    }
}
