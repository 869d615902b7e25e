//! The methods of strings that Python users reach for (`upper lower strip
//! split join replace startswith endswith find count format`...), with
//! Python's semantics. Strings are immutable: every method gives a new value.
//! Found by the receiver's type in `Interp::get_attr`, like list methods.

use super::methods::method_def;
use crate::display::{repr, to_text};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::OpDef;
use crate::value::Value;

pub static STR_METHODS: &[OpDef] = &[
    method_def!("upper", "s.upper()", "The string in upper case.", upper),
    method_def!("lower", "s.lower()", "The string in lower case.", lower),
    method_def!(
        "capitalize",
        "s.capitalize()",
        "The first character upper case, the rest lower case.",
        capitalize
    ),
    method_def!(
        "title",
        "s.title()",
        "Each word's first letter upper case, the rest lower case.",
        title
    ),
    method_def!(
        "strip",
        "s.strip(chars=none)",
        "The string without leading and trailing whitespace (or any of `chars`).",
        strip
    ),
    method_def!(
        "lstrip",
        "s.lstrip(chars=none)",
        "The string without leading whitespace (or any of `chars`).",
        lstrip
    ),
    method_def!(
        "rstrip",
        "s.rstrip(chars=none)",
        "The string without trailing whitespace (or any of `chars`).",
        rstrip
    ),
    method_def!(
        "split",
        "s.split(sep=none, maxsplit=-1)",
        "A list of the parts between each `sep`; without sep, the words between runs of whitespace.",
        split
    ),
    method_def!(
        "rsplit",
        "s.rsplit(sep=none, maxsplit=-1)",
        "As split, counting maxsplit from the right.",
        rsplit
    ),
    method_def!(
        "splitlines",
        "s.splitlines()",
        "A list of the lines, without their line endings.",
        splitlines
    ),
    method_def!(
        "join",
        "sep.join(items)",
        "The strings of `items` joined with sep between them: \", \".join([\"a\", \"b\"]).",
        join
    ),
    method_def!(
        "replace",
        "s.replace(old, new, count=-1)",
        "Every `old` (the first `count` when given) replaced by `new`.",
        replace
    ),
    method_def!(
        "startswith",
        "s.startswith(prefix)",
        "Whether s starts with prefix (or with one of a tuple of prefixes).",
        startswith
    ),
    method_def!(
        "endswith",
        "s.endswith(suffix)",
        "Whether s ends with suffix (or with one of a tuple of suffixes).",
        endswith
    ),
    method_def!(
        "find",
        "s.find(sub)",
        "The position (in characters) of the first `sub`, or -1.",
        find
    ),
    method_def!(
        "rfind",
        "s.rfind(sub)",
        "The position (in characters) of the last `sub`, or -1.",
        rfind
    ),
    method_def!(
        "index",
        "s.index(sub)",
        "The position of the first `sub`; an error when there is none.",
        index
    ),
    method_def!(
        "count",
        "s.count(sub)",
        "How many times `sub` occurs, not overlapping.",
        count
    ),
    method_def!(
        "format",
        "s.format(values..., key=value...)",
        "Python's str.format: `{}`, `{0}`, `{name}`, `{:.2f}`, `{!r}` fields filled from the arguments.",
        format
    ),
    method_def!(
        "isdigit",
        "s.isdigit()",
        "Whether s is not empty and all digits.",
        isdigit
    ),
    method_def!(
        "isalpha",
        "s.isalpha()",
        "Whether s is not empty and all letters.",
        isalpha
    ),
    method_def!(
        "isalnum",
        "s.isalnum()",
        "Whether s is not empty and all letters or digits.",
        isalnum
    ),
    method_def!(
        "isspace",
        "s.isspace()",
        "Whether s is not empty and all whitespace.",
        isspace
    ),
    method_def!(
        "isupper",
        "s.isupper()",
        "Whether s has cased letters and all of them are upper case.",
        isupper
    ),
    method_def!(
        "islower",
        "s.islower()",
        "Whether s has cased letters and all of them are lower case.",
        islower
    ),
    method_def!(
        "center",
        "s.center(width, fillchar=\" \")",
        "s centered in a string of `width` characters.",
        center
    ),
    method_def!(
        "ljust",
        "s.ljust(width, fillchar=\" \")",
        "s padded on the right to `width` characters.",
        ljust
    ),
    method_def!(
        "rjust",
        "s.rjust(width, fillchar=\" \")",
        "s padded on the left to `width` characters.",
        rjust
    ),
    method_def!(
        "zfill",
        "s.zfill(width)",
        "s padded with zeros on the left (after a sign) to `width` characters.",
        zfill
    ),
];

/// The receiver of a string method.
fn this(a: &mut Args) -> Result<std::sync::Arc<str>> {
    match a.req("self")? {
        Value::Str(s) => Ok(s),
        other => Err(Error::internal(format!(
            "string method called on {}",
            other.a_type_name()
        ))),
    }
}

/// A string argument.
fn text_arg(v: &Value, what: &str) -> Result<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(Error::type_(format!(
            "{what} must be a string, not {}",
            other.a_type_name()
        ))
        .with_help("convert it with str(x)")),
    }
}

/// An optional string argument where `none` means "not given".
fn opt_text(a: &mut Args, name: &str, what: &str) -> Result<Option<String>> {
    match a.opt(name)? {
        None | Some(Value::None) => Ok(None),
        Some(v) => text_arg(&v, what).map(Some),
    }
}

fn opt_int(a: &mut Args, name: &str, default: i64) -> Result<i64> {
    match a.opt(name)? {
        None => Ok(default),
        Some(v) => crate::builtins::lang::int_arg(&v, name),
    }
}

/// A method of no arguments giving a new string.
fn map_str(mut a: Args, f: impl Fn(&str) -> String) -> Result<Value> {
    let s = this(&mut a)?;
    a.finish()?;
    Ok(Value::str(f(&s)))
}

fn upper(_: &mut Interp, a: Args) -> Result<Value> {
    map_str(a, str::to_uppercase)
}

fn lower(_: &mut Interp, a: Args) -> Result<Value> {
    map_str(a, str::to_lowercase)
}

fn capitalize(_: &mut Interp, a: Args) -> Result<Value> {
    map_str(a, |s| {
        let mut cs = s.chars();
        match cs.next() {
            Some(c) => c
                .to_uppercase()
                .chain(cs.as_str().to_lowercase().chars())
                .collect(),
            None => String::new(),
        }
    })
}

fn title(_: &mut Interp, a: Args) -> Result<Value> {
    map_str(a, |s| {
        let mut out = String::with_capacity(s.len());
        let mut prev_cased = false;
        for c in s.chars() {
            if prev_cased {
                out.extend(c.to_lowercase());
            } else {
                out.extend(c.to_uppercase());
            }
            prev_cased = c.is_alphabetic();
        }
        out
    })
}

/// `strip`, `lstrip`, `rstrip`: `left`/`right` say which ends.
fn strip_ends(mut a: Args, left: bool, right: bool) -> Result<Value> {
    let s = this(&mut a)?;
    let chars = opt_text(&mut a, "chars", "the characters to strip")?;
    a.finish()?;
    let is_strip = |c: char| match &chars {
        Some(set) => set.contains(c),
        None => c.is_whitespace(),
    };
    let mut t: &str = &s;
    if left {
        t = t.trim_start_matches(is_strip);
    }
    if right {
        t = t.trim_end_matches(is_strip);
    }
    Ok(Value::str(t))
}

fn strip(_: &mut Interp, a: Args) -> Result<Value> {
    strip_ends(a, true, true)
}

fn lstrip(_: &mut Interp, a: Args) -> Result<Value> {
    strip_ends(a, true, false)
}

fn rstrip(_: &mut Interp, a: Args) -> Result<Value> {
    strip_ends(a, false, true)
}

/// Python's split (from the left, or the right for rsplit).
fn split_parts(s: &str, sep: Option<&str>, maxsplit: i64, from_right: bool) -> Vec<String> {
    let limit = if maxsplit < 0 {
        usize::MAX
    } else {
        maxsplit as usize
    };
    match sep {
        Some(sep) => {
            let parts: Vec<&str> = if from_right {
                let mut v: Vec<&str> = s.rsplitn(limit.saturating_add(1), sep).collect();
                v.reverse();
                v
            } else {
                s.splitn(limit.saturating_add(1), sep).collect()
            };
            parts.into_iter().map(String::from).collect()
        }
        None => {
            // Runs of whitespace; no empty strings at the ends.
            let words: Vec<&str> = s.split_whitespace().collect();
            if words.len() <= limit.saturating_add(1) {
                return words.into_iter().map(String::from).collect();
            }
            if from_right {
                let keep = &words[words.len() - limit..];
                let mut head = s.trim_end();
                for w in keep.iter().rev() {
                    head = head[..head.len() - w.len()].trim_end();
                }
                std::iter::once(head.to_string())
                    .chain(keep.iter().map(|w| w.to_string()))
                    .collect()
            } else {
                let mut rest = s.trim_start();
                let mut out = Vec::new();
                for w in &words[..limit] {
                    out.push(w.to_string());
                    rest = rest[w.len()..].trim_start();
                }
                out.push(rest.to_string());
                out
            }
        }
    }
}

fn split_method(mut a: Args, from_right: bool) -> Result<Value> {
    let s = this(&mut a)?;
    let sep = opt_text(&mut a, "sep", "the separator")?;
    let maxsplit = opt_int(&mut a, "maxsplit", -1)?;
    a.finish()?;
    if sep.as_deref() == Some("") {
        return Err(
            Error::value("split(): empty separator").with_help("list(s) gives the characters of s")
        );
    }
    let parts = split_parts(&s, sep.as_deref(), maxsplit, from_right);
    Ok(Value::list(parts.into_iter().map(Value::str).collect()))
}

fn split(_: &mut Interp, a: Args) -> Result<Value> {
    split_method(a, false)
}

fn rsplit(_: &mut Interp, a: Args) -> Result<Value> {
    split_method(a, true)
}

fn splitlines(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = this(&mut a)?;
    a.finish()?;
    Ok(Value::list(
        s.lines()
            .map(|l| Value::str(l.trim_end_matches('\r')))
            .collect(),
    ))
}

fn join(i: &mut Interp, mut a: Args) -> Result<Value> {
    let sep = this(&mut a)?;
    let items = a.req("items")?;
    a.finish()?;
    let mut parts = Vec::new();
    for (n, item) in i.collect_items(items)?.into_iter().enumerate() {
        match item {
            Value::Str(s) => parts.push(s.to_string()),
            other => {
                return Err(Error::type_(format!(
                    "join(): item {n} is {}, not a string",
                    other.a_type_name()
                ))
                .with_help("convert the items first: \", \".join(str(x) for x in xs)"));
            }
        }
    }
    Ok(Value::str(parts.join(&sep)))
}

fn replace(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = this(&mut a)?;
    let old = text_arg(&a.req("old")?, "replace()'s old")?;
    let new = text_arg(&a.req("new")?, "replace()'s new")?;
    let n = opt_int(&mut a, "count", -1)?;
    a.finish()?;
    Ok(Value::str(if n < 0 {
        s.replace(&old, &new)
    } else {
        s.replacen(&old, &new, n as usize)
    }))
}

/// `startswith`/`endswith`: a string or a tuple of strings.
fn affix(mut a: Args, name: &str, test: fn(&str, &str) -> bool) -> Result<Value> {
    let s = this(&mut a)?;
    let p = a.req(name)?;
    a.finish()?;
    let options = match &p {
        Value::Tuple(t) => t
            .iter()
            .map(|v| text_arg(v, name))
            .collect::<Result<Vec<_>>>()?,
        v => vec![text_arg(v, name)?],
    };
    Ok(Value::Bool(options.iter().any(|o| test(&s, o))))
}

fn startswith(_: &mut Interp, a: Args) -> Result<Value> {
    affix(a, "prefix", |s, p| s.starts_with(p))
}

fn endswith(_: &mut Interp, a: Args) -> Result<Value> {
    affix(a, "suffix", |s, p| s.ends_with(p))
}

/// A byte offset in `s` as a character position.
fn char_pos(s: &str, byte: usize) -> i64 {
    s[..byte].chars().count() as i64
}

fn find_in(mut a: Args, from_right: bool) -> Result<(std::sync::Arc<str>, String, Option<usize>)> {
    let s = this(&mut a)?;
    let sub = text_arg(&a.req("sub")?, "the text to find")?;
    a.finish()?;
    let at = if from_right {
        s.rfind(&sub)
    } else {
        s.find(&sub)
    };
    Ok((s, sub, at))
}

fn find(_: &mut Interp, a: Args) -> Result<Value> {
    let (s, _, at) = find_in(a, false)?;
    Ok(Value::Int(at.map_or(-1, |b| char_pos(&s, b))))
}

fn rfind(_: &mut Interp, a: Args) -> Result<Value> {
    let (s, _, at) = find_in(a, true)?;
    Ok(Value::Int(at.map_or(-1, |b| char_pos(&s, b))))
}

fn index(_: &mut Interp, a: Args) -> Result<Value> {
    let (s, sub, at) = find_in(a, false)?;
    match at {
        Some(b) => Ok(Value::Int(char_pos(&s, b))),
        None => Err(
            Error::value(format!("substring {} not found", repr(&Value::str(sub))))
                .with_help("s.find(sub) gives -1 instead of an error"),
        ),
    }
}

fn count(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = this(&mut a)?;
    let sub = text_arg(&a.req("sub")?, "the text to count")?;
    a.finish()?;
    let n = if sub.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(sub.as_str()).count()
    };
    Ok(Value::Int(n as i64))
}

fn class_test(mut a: Args, f: impl Fn(&str) -> bool) -> Result<Value> {
    let s = this(&mut a)?;
    a.finish()?;
    Ok(Value::Bool(f(&s)))
}

fn isdigit(_: &mut Interp, a: Args) -> Result<Value> {
    class_test(a, |s| !s.is_empty() && s.chars().all(|c| c.is_numeric()))
}

fn isalpha(_: &mut Interp, a: Args) -> Result<Value> {
    class_test(a, |s| !s.is_empty() && s.chars().all(char::is_alphabetic))
}

fn isalnum(_: &mut Interp, a: Args) -> Result<Value> {
    class_test(a, |s| !s.is_empty() && s.chars().all(char::is_alphanumeric))
}

fn isspace(_: &mut Interp, a: Args) -> Result<Value> {
    class_test(a, |s| !s.is_empty() && s.chars().all(char::is_whitespace))
}

fn isupper(_: &mut Interp, a: Args) -> Result<Value> {
    class_test(a, |s| {
        s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase)
    })
}

fn islower(_: &mut Interp, a: Args) -> Result<Value> {
    class_test(a, |s| {
        s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase)
    })
}

/// `center`, `ljust`, `rjust`: s padded to `width` with one fill character.
fn pad(mut a: Args, align: char) -> Result<Value> {
    let s = this(&mut a)?;
    let width = crate::builtins::lang::int_arg(&a.req("width")?, "width")?;
    let fill = opt_text(&mut a, "fillchar", "the fill character")?.unwrap_or_else(|| " ".into());
    a.finish()?;
    let mut fc = fill.chars();
    let (Some(f), None) = (fc.next(), fc.next()) else {
        return Err(Error::type_(
            "the fill character must be exactly one character",
        ));
    };
    let n = s.chars().count() as i64;
    let total = (width - n).max(0) as usize;
    let (l, r) = match align {
        '<' => (0, total),
        '>' => (total, 0),
        // Python's center puts the odd extra on the left when width is odd.
        _ => {
            let l = total / 2 + (total & width as usize & 1);
            (l, total - l)
        }
    };
    let side = |k: usize| std::iter::repeat_n(f, k).collect::<String>();
    Ok(Value::str(format!("{}{s}{}", side(l), side(r))))
}

fn center(_: &mut Interp, a: Args) -> Result<Value> {
    pad(a, '^')
}

fn ljust(_: &mut Interp, a: Args) -> Result<Value> {
    pad(a, '<')
}

fn rjust(_: &mut Interp, a: Args) -> Result<Value> {
    pad(a, '>')
}

fn zfill(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = this(&mut a)?;
    let width = crate::builtins::lang::int_arg(&a.req("width")?, "width")?;
    a.finish()?;
    let n = s.chars().count() as i64;
    if n >= width {
        return Ok(Value::Str(s));
    }
    let zeros = "0".repeat((width - n) as usize);
    let (sign, digits) = match s.chars().next() {
        Some(c @ ('+' | '-')) => (c.to_string(), &s[1..]),
        _ => (String::new(), &s[..]),
    };
    Ok(Value::str(format!("{sign}{zeros}{digits}")))
}

/// Python's `str.format`: literal text with `{{`/`}}`, and fields `{}`,
/// `{0}`, `{name}`, `{0[1]}`-free, with `!r`/`!s` and a format spec.
fn format(_: &mut Interp, mut a: Args) -> Result<Value> {
    let template = this(&mut a)?;
    let pos = a.rest();
    let kw = std::mem::take(&mut a.kw);
    a.finish()?;
    let mut out = String::with_capacity(template.len());
    let mut auto = 0usize;
    let mut chars = template.char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                out.push('}');
            }
            '}' => {
                return Err(Error::value(
                    "format(): a single `}` in the text; write `}}` for a brace",
                ));
            }
            '{' => {
                let body_start = k + 1;
                let mut depth = 1;
                let mut end = None;
                for (j, d) in chars.by_ref() {
                    match d {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(j);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    return Err(Error::value(
                        "format(): a `{` without its `}`; write `{{` for a brace",
                    ));
                };
                let field = &template[body_start..end];
                out.push_str(&format_field(field, &pos, &kw, &mut auto)?);
            }
            c => out.push(c),
        }
    }
    Ok(Value::str(out))
}

/// One `{name!conv:spec}` field of `str.format`.
fn format_field(
    field: &str,
    pos: &[Value],
    kw: &[(String, Value)],
    auto: &mut usize,
) -> Result<String> {
    let (head, spec) = match field.find(':') {
        Some(c) => (&field[..c], &field[c + 1..]),
        None => (field, ""),
    };
    let (name, conv) = match head.find('!') {
        Some(b) => (&head[..b], Some(&head[b + 1..])),
        None => (head, None),
    };
    let value = if name.is_empty() {
        let v = pos.get(*auto).ok_or_else(|| {
            Error::index(format!(
                "format(): field {} has no value: {} positional argument{} given",
                *auto,
                pos.len(),
                if pos.len() == 1 { "" } else { "s" }
            ))
        })?;
        *auto += 1;
        v
    } else if let Ok(n) = name.parse::<usize>() {
        pos.get(n).ok_or_else(|| {
            Error::index(format!(
                "format(): field {{{n}}} has no value: {} positional argument{} given",
                pos.len(),
                if pos.len() == 1 { "" } else { "s" }
            ))
        })?
    } else {
        kw.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                Error::new(
                    crate::ErrorKind::Key,
                    format!("format(): no keyword argument `{name}`"),
                )
                .with_help(format!("pass it: .format({name}=...)"))
            })?
    };
    match conv {
        None => crate::pyformat::format_value(value, spec),
        Some("r") => crate::pyformat::format_value(&Value::str(repr(value)), spec),
        Some("s") => crate::pyformat::format_value(&Value::str(to_text(value)), spec),
        Some(other) => Err(Error::value(format!(
            "format(): unknown conversion `!{other}`; use !r or !s"
        ))),
    }
}

/// Python's printf-style `fmt % args`: `%d %i %u %f %F %e %E %g %G %x %X %o
/// %c %s %r %%` with flags `- + space # 0`, a width and a precision (`*`
/// not supported); `args` is a tuple of values or one value.
pub(crate) fn percent_format(fmt: &str, args: &Value) -> Result<String> {
    let vals: Vec<Value> = match args {
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    let mut next = 0usize;
    let mut out = String::with_capacity(fmt.len());
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek().filter(|f| "-+ #0".contains(**f)) {
            flags.push(f);
            chars.next();
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            chars.next();
        }
        let mut precision = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                chars.next();
            }
            precision = Some(if p.is_empty() { "0".to_string() } else { p });
        }
        let Some(ty) = chars.next() else {
            return Err(
                Error::value("`%` formatting: the text ends in the middle of a `%` field")
                    .with_help("write `%%` for a percent sign"),
            );
        };
        if ty == '%' {
            out.push('%');
            continue;
        }
        if matches!(ty, '(' | '*') {
            return Err(Error::value(format!(
                "`%` formatting: `%{ty}...` fields are not supported"
            ))
            .with_help("use an f-string: f\"{name:.3f}\""));
        }
        let v = vals.get(next).ok_or_else(|| {
            Error::type_(format!(
                "`%` formatting: not enough values for the fields ({} given)",
                vals.len()
            ))
        })?;
        next += 1;
        out.push_str(&percent_field(&flags, &width, precision.as_deref(), ty, v)?);
    }
    if next < vals.len() {
        return Err(Error::type_(format!(
            "`%` formatting: {} values given but the text has {next} fields",
            vals.len()
        ))
        .with_help("to format a tuple as one value, wrap it: \"%s\" % (t,)"));
    }
    Ok(out)
}

/// One `%` field, through the format-spec mini-language of f-strings.
fn percent_field(
    flags: &str,
    width: &str,
    precision: Option<&str>,
    ty: char,
    v: &Value,
) -> Result<String> {
    let mut spec = String::new();
    let zero = flags.contains('0') && !flags.contains('-');
    if !zero {
        spec.push(if flags.contains('-') { '<' } else { '>' });
    }
    if flags.contains('+') {
        spec.push('+');
    } else if flags.contains(' ') {
        spec.push(' ');
    }
    if flags.contains('#') {
        spec.push('#');
    }
    if zero {
        spec.push('0');
    }
    spec.push_str(width);
    let text_of = |s: String| -> Result<String> {
        let mut t = s;
        if let Some(p) = precision.and_then(|p| p.parse::<usize>().ok()) {
            t = t.chars().take(p).collect();
        }
        crate::pyformat::format_value(&Value::str(t), &spec)
    };
    match ty {
        's' => text_of(to_text(v)),
        'r' | 'a' => text_of(repr(v)),
        'c' => match v {
            Value::Int(k) => text_of(
                u32::try_from(*k)
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from)
                    .unwrap_or_default(),
            ),
            Value::Str(s) if s.chars().count() == 1 => text_of(s.to_string()),
            other => Err(Error::type_(format!(
                "`%c` needs an int or one character, not {}",
                other.a_type_name()
            ))),
        },
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' => {
            // Python's %d truncates a float.
            let n = match v {
                Value::Float(f) if f.is_finite() => Value::Int(f.trunc() as i64),
                Value::Bool(b) => Value::Int(*b as i64),
                v => v.clone(),
            };
            let t = if matches!(ty, 'i' | 'u') { 'd' } else { ty };
            spec.push(t);
            crate::pyformat::format_value(&n, &spec)
        }
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' => {
            spec.push('.');
            spec.push_str(precision.unwrap_or("6"));
            spec.push(ty);
            let x = match v {
                Value::Int(k) => Value::Float(*k as f64),
                Value::Bool(b) => Value::Float(*b as i64 as f64),
                v => v.clone(),
            };
            crate::pyformat::format_value(&x, &spec)
        }
        other => Err(
            Error::value(format!("`%` formatting: unknown conversion `%{other}`"))
                .with_help("conversions: %d %f %e %g %x %o %c %s %r %%"),
        ),
    }
}
