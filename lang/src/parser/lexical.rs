//! Lexical pieces of gcalc built from nom combinators: whitespace and `#`
//! comments, numbers, strings (`"..."` and `"""..."""`), names and operator
//! tokens. Every function here takes the rest of the input and never panics.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till, take_while, take_while1},
    character::complete::{char, digit1, one_of, satisfy},
    combinator::{opt, recognize},
    sequence::{pair, preceded},
};

use crate::ast::KEYWORDS;

/// Spaces, tabs, carriage returns and comments; newlines too when `nl`.
pub(crate) fn ws(input: &str, nl: bool) -> &str {
    let mut rest = input;
    loop {
        let before = rest.len();
        let spaces: IResult<&str, &str> = if nl {
            take_while(|c: char| c == ' ' || c == '\t' || c == '\r' || c == '\n').parse(rest)
        } else {
            take_while(|c: char| c == ' ' || c == '\t' || c == '\r').parse(rest)
        };
        if let Ok((r, _)) = spaces {
            rest = r;
        }
        if let Ok((r, _)) = comment(rest) {
            rest = r;
        }
        if rest.len() == before {
            return rest;
        }
    }
}

/// A `#` comment up to (not including) the end of the line.
fn comment(input: &str) -> IResult<&str, &str> {
    recognize(preceded(char('#'), take_till(|c| c == '\n'))).parse(input)
}

pub(crate) fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A name or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn word(input: &str) -> IResult<&str, &str> {
    recognize(pair(satisfy(is_name_start), take_while(is_name_char))).parse(input)
}

pub(crate) fn is_keyword(w: &str) -> bool {
    KEYWORDS.contains(&w)
}

/// The keyword `kw` as a whole word (so `format` is not `for` + `mat`).
pub(crate) fn keyword<'a>(input: &'a str, kw: &str) -> Option<&'a str> {
    match word(input) {
        Ok((rest, w)) if w == kw => Some(rest),
        _ => None,
    }
}

/// The text of a number literal, and whether it is a float.
/// Forms: `3`, `3.0`, `1e-3`, `.5`, `1.`, `1.e5`. `1.x` lexes as `1` then `.x`.
pub(crate) fn number(input: &str) -> IResult<&str, (&str, bool)> {
    if let Some(r) = radix_literal(input) {
        return Ok(r);
    }
    // Python's digit groups: `1_000_000`, `1e1_0` (one `_` between digits).
    let digits = |i| recognize((digit1, nom::multi::many0_count((char('_'), digit1)))).parse(i);
    let exponent = |i| recognize((one_of("eE"), opt(one_of("+-")), digits)).parse(i);
    let frac_lead = recognize((char('.'), digits, opt(exponent)));
    let int_lead = recognize((
        digits,
        opt(alt((
            recognize((char('.'), digits, opt(exponent))),
            // `1.` and `1.e5`, but not `1.shape` or `1..`
            recognize((char('.'), exponent)),
            recognize(pair(
                char('.'),
                nom::combinator::not(satisfy(|c| is_name_start(c) || c == '.')),
            )),
            exponent,
        ))),
    ));
    let (rest, text) = alt((frac_lead, int_lead)).parse(input)?;
    let is_float = text.contains(['.', 'e', 'E']);
    Ok((rest, (text, is_float)))
}

/// Python's `0x1f`, `0o17`, `0b101` (with `_` groups): the text and `false`
/// (an int); `None` when `input` is not one.
fn radix_literal(input: &str) -> Option<(&str, (&str, bool))> {
    let b = input.as_bytes();
    if b.len() < 3 || b[0] != b'0' {
        return None;
    }
    let ok: fn(u8) -> bool = match b[1] {
        b'x' | b'X' => |c| c.is_ascii_hexdigit(),
        b'o' | b'O' => |c| (b'0'..=b'7').contains(&c),
        b'b' | b'B' => |c| c == b'0' || c == b'1',
        _ => return None,
    };
    let mut end = 2;
    while end < b.len() && (ok(b[end]) || (b[end] == b'_' && end + 1 < b.len() && ok(b[end + 1]))) {
        end += 1;
    }
    (end > 2 && ok(b[end - 1])).then(|| (&input[end..], (&input[..end], false)))
}

/// Whether `input` starts a number (`3` or `.5`).
pub(crate) fn starts_number(input: &str) -> bool {
    let r: IResult<&str, &str> = recognize(pair(opt(char('.')), digit1)).parse(input);
    r.is_ok()
}

/// Result of lexing a string literal.
pub(crate) enum StrLex<'a> {
    /// The decoded value and the rest of the input.
    Ok(&'a str, String),
    /// No closing quote before the end of the line (`"`) or of the input (`"""`).
    Unclosed { triple: bool },
}

/// Whether `c` opens a string: `"` or, as in Python, `'`.
pub(crate) fn is_quote(c: char) -> bool {
    c == '"' || c == '\''
}

/// The quote a string literal at `input` uses, and its closing delimiter
/// (`"`, `'`, `"""` or `'''`).
pub(crate) fn delimiter(input: &str) -> (char, &'static str) {
    let q = if input.starts_with('\'') { '\'' } else { '"' };
    let triple = match q {
        '"' => "\"\"\"",
        _ => "\'\'\'",
    };
    if input.starts_with(triple) {
        (q, triple)
    } else if q == '"' {
        (q, "\"")
    } else {
        (q, "\'")
    }
}

/// A string literal starting at `input` (which starts with `"` or `'`).
/// Escapes in `"..."` and `'...'`: `\n \t \r \0 \\ \" \'`; an unknown
/// escape is kept as written. `"""..."""` (and `'''...'''`) is raw (no
/// escapes): it holds CUDA sources, whose `printf("%d\n")` must reach the
/// compiler as written.
pub(crate) fn string(input: &str) -> StrLex<'_> {
    let (q, close) = delimiter(input);
    let triple = close.len() == 3;
    let Some(body) = input.get(close.len()..) else {
        return StrLex::Unclosed { triple };
    };
    if triple {
        return match body.find(close) {
            Some(end) => StrLex::Ok(body.get(end + 3..).unwrap_or(""), body[..end].to_string()),
            None => StrLex::Unclosed { triple },
        };
    }
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, e)) => match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    '\\' => out.push('\\'),
                    '"' => out.push('"'),
                    '\'' => out.push('\''),
                    '\n' => return StrLex::Unclosed { triple },
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                },
                None => return StrLex::Unclosed { triple },
            },
            c if c == q => {
                return StrLex::Ok(body.get(i + 1..).unwrap_or(""), out);
            }
            '\n' => return StrLex::Unclosed { triple },
            c => out.push(c),
        }
    }
    StrLex::Unclosed { triple }
}

/// Whether the quote at byte `quote` of `src` opens an f-string: an `f` or
/// `F` right before it that is not the end of a longer name.
pub(crate) fn is_fstring_quote(src: &str, quote: usize) -> bool {
    let b = src.as_bytes();
    quote >= 1
        && matches!(b.get(quote - 1), Some(b'f' | b'F'))
        && (quote < 2 || !b.get(quote - 2).is_some_and(|&c| is_name_char(c as char)))
}

/// The extent of an f-string whose quote starts `input`: replacement fields
/// `{...}` may hold strings (with quotes) and brackets of their own. Only the
/// rest after it is meaningful in `StrLex::Ok` (the text is left empty); the
/// parser decodes the parts itself (`parser::fstring`).
pub(crate) fn fstring_extent(input: &str) -> StrLex<'_> {
    fstring_extent_at(input, 0)
}

/// Past this many f-strings nested in each other's fields, the scan gives up
/// (the parser reports the nesting as too deep).
const MAX_FSTRING_NESTING: usize = 64;

fn fstring_extent_at(input: &str, nesting: usize) -> StrLex<'_> {
    /// An open replacement field: brackets opened inside its expression, and
    /// whether its format spec (after a top-level `:`) has started.
    struct Field {
        brackets: usize,
        in_spec: bool,
    }
    let (q, close) = delimiter(input);
    let triple = close.len() == 3;
    let q = q as u8;
    let b = input.as_bytes();
    let mut i = close.len();
    let mut fields: Vec<Field> = Vec::new();
    while i < b.len() {
        let c = b[i];
        let Some(top) = fields.last_mut() else {
            match c {
                b'\\' if !triple => i += 2,
                b'{' if b.get(i + 1) == Some(&b'{') => i += 2,
                b'}' if b.get(i + 1) == Some(&b'}') => i += 2,
                b'{' => {
                    fields.push(Field {
                        brackets: 0,
                        in_spec: false,
                    });
                    i += 1;
                }
                c if c == q && !triple => return StrLex::Ok(&input[i + 1..], String::new()),
                c if c == q && input[i..].starts_with(close) => {
                    return StrLex::Ok(&input[i + 3..], String::new());
                }
                b'\n' if !triple => return StrLex::Unclosed { triple },
                _ => i += 1,
            }
            continue;
        };
        if top.in_spec {
            match c {
                b'{' => fields.push(Field {
                    brackets: 0,
                    in_spec: false,
                }),
                b'}' => {
                    fields.pop();
                }
                b'\n' if !triple => return StrLex::Unclosed { triple },
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' => {
                let rest = &input[i..];
                let inner = if is_fstring_quote(input, i) {
                    if nesting >= MAX_FSTRING_NESTING {
                        return StrLex::Unclosed { triple };
                    }
                    fstring_extent_at(rest, nesting + 1)
                } else {
                    string(rest)
                };
                match inner {
                    StrLex::Ok(after, _) => i = input.len() - after.len(),
                    StrLex::Unclosed { .. } => return StrLex::Unclosed { triple },
                }
                continue;
            }
            b'{' | b'(' | b'[' => top.brackets += 1,
            b')' | b']' => top.brackets = top.brackets.saturating_sub(1),
            b'}' if top.brackets > 0 => top.brackets -= 1,
            b'}' => {
                fields.pop();
            }
            b':' if top.brackets == 0 => top.in_spec = true,
            // Inside a field newlines and comments are free (PEP 701).
            b'#' => {
                i += input[i..].find('\n').unwrap_or(input.len() - i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    StrLex::Unclosed { triple }
}

/// A string literal (plain or f-string) whose quote is at byte `quote` of `src`.
pub(crate) fn any_string(src: &str, quote: usize) -> StrLex<'_> {
    let rest = src.get(quote..).unwrap_or("");
    if is_fstring_quote(src, quote) {
        fstring_extent(rest)
    } else {
        string(rest)
    }
}

/// An operator or punctuation token, longest match first.
pub(crate) fn op_token(input: &str) -> IResult<&str, &str> {
    // Fast path: every operator starts with one of these bytes.
    if !input.starts_with([
        '+', '-', '*', '/', '%', '@', '<', '>', '=', '!', '&', '|', '^', '~',
    ]) {
        let kind = nom::error::ErrorKind::Tag;
        return Err(nom::Err::Error(nom::error::Error::new(input, kind)));
    }
    alt((
        alt((tag("**="), tag("//="), tag("<<="), tag(">>="))),
        alt((
            tag("=="),
            tag("!="),
            tag("<="),
            tag(">="),
            tag("<<"),
            tag(">>"),
            tag("+="),
            tag("-="),
            tag("*="),
            tag("/="),
            tag("%="),
            tag("@="),
            tag("&="),
            tag("|="),
            tag("^="),
        )),
        alt((
            tag("**"),
            tag("//"),
            tag("+"),
            tag("-"),
            tag("*"),
            tag("/"),
            tag("%"),
            tag("@"),
            tag("<"),
            tag(">"),
            tag("="),
            tag("&"),
            tag("|"),
            tag("^"),
            tag("~"),
        )),
    ))
    .parse(input)
}

/// The length in bytes of the token at the start of `input` (at least one
/// character, 0 only at the end), for pointing a caret at it.
pub(crate) fn token_len(input: &str) -> usize {
    if let Ok((rest, _)) = word(input) {
        return input.len() - rest.len();
    }
    if let Ok((rest, _)) = number(input) {
        return input.len() - rest.len();
    }
    if input.starts_with(is_quote) {
        if let StrLex::Ok(rest, _) = string(input) {
            return input.len() - rest.len();
        }
        return 1;
    }
    if let Ok((rest, _)) = op_token(input) {
        return input.len() - rest.len();
    }
    let blanks: IResult<&str, &str> =
        take_while1(|c: char| c.is_whitespace() && c != '\n').parse(input);
    if let Ok((rest, _)) = blanks {
        return input.len() - rest.len();
    }
    input.chars().next().map_or(0, char::len_utf8)
}

/// A human description of the token at the start of `input`: "end of line",
/// "`)`", "keyword `in`", "the number `3`"...
pub(crate) fn describe(input: &str) -> String {
    if input.is_empty() {
        return "end of input".into();
    }
    if input.starts_with('\n') {
        return "end of line".into();
    }
    let len = token_len(input);
    let text = input.get(..len).unwrap_or("");
    if let Ok((_, w)) = word(input) {
        if is_keyword(w) {
            return format!("keyword `{w}`");
        }
        return format!("name `{w}`");
    }
    if starts_number(input) {
        return format!("number `{text}`");
    }
    if input.starts_with(is_quote) {
        return "a string".into();
    }
    format!("`{text}`")
}
