//! Python's format-spec mini-language, for f-strings and `format(x, spec)`:
//! `[[fill]align][sign][z][#][0][width][grouping][.precision][type]` on ints,
//! floats, bools and strings, as `format()` does in Python 3.11 (no crate
//! implements it; Rust's `format!` differs in exponents, `g`, grouping and
//! signs). Arrays are formatted element by element in NumPy's layout
//! (`f"{x:.2f}"` gives `[1.00 2.50]`); a 0-d array formats as its scalar.

use crate::array::print;
use crate::display::{float_text, repr, to_text};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::value::Value;

/// A parsed spec.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    pub fill: Option<char>,
    pub align: Option<char>,
    pub sign: Option<char>,
    pub no_neg_zero: bool,
    pub alternate: bool,
    pub zero: bool,
    pub width: usize,
    pub grouping: Option<char>,
    pub precision: Option<usize>,
    pub ty: Option<char>,
}

fn bad_spec(spec: &str, why: &str) -> Error {
    Error::value(format!("invalid format spec {spec:?}: {why}")).with_help(
        "a spec is [[fill]align][sign][#][0][width][,][.precision][type], e.g. `>8`, `.3f`, `,`, `.1%`, `e`",
    )
}

/// Parse `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`.
pub fn parse_spec(spec: &str) -> Result<Spec> {
    let c: Vec<char> = spec.chars().collect();
    let mut s = Spec::default();
    let mut i = 0;
    let is_align = |ch: char| matches!(ch, '<' | '>' | '^' | '=');
    if c.len() >= 2 && is_align(c[1]) {
        s.fill = Some(c[0]);
        s.align = Some(c[1]);
        i = 2;
    } else if !c.is_empty() && is_align(c[0]) {
        s.align = Some(c[0]);
        i = 1;
    }
    if let Some(&ch) = c.get(i)
        && matches!(ch, '+' | '-' | ' ')
    {
        s.sign = Some(ch);
        i += 1;
    }
    if c.get(i) == Some(&'z') {
        s.no_neg_zero = true;
        i += 1;
    }
    if c.get(i) == Some(&'#') {
        s.alternate = true;
        i += 1;
    }
    if c.get(i) == Some(&'0') {
        s.zero = true;
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while c.get(*i).is_some_and(|d| d.is_ascii_digit()) {
            *i += 1;
        }
        c[start..*i].iter().collect::<String>()
    };
    let w = digits(&mut i);
    if !w.is_empty() {
        s.width = w
            .parse()
            .map_err(|_| bad_spec(spec, "the width is too large"))?;
    }
    if let Some(&g) = c.get(i)
        && matches!(g, ',' | '_')
    {
        s.grouping = Some(g);
        i += 1;
    }
    if c.get(i) == Some(&'.') {
        i += 1;
        let p = digits(&mut i);
        if p.is_empty() {
            return Err(bad_spec(spec, "`.` must be followed by a precision"));
        }
        s.precision = Some(
            p.parse()
                .map_err(|_| bad_spec(spec, "the precision is too large"))?,
        );
    }
    if let Some(&t) = c.get(i) {
        if !"bcdeEfFgGnosxX%".contains(t) {
            return Err(bad_spec(spec, &format!("unknown type `{t}`")));
        }
        s.ty = Some(t);
        i += 1;
    }
    if i != c.len() {
        return Err(bad_spec(spec, "unexpected characters at the end"));
    }
    if s.width > 10_000 || s.precision.is_some_and(|p| p > 1_000) {
        return Err(bad_spec(
            spec,
            "width and precision are limited to 10000 and 1000",
        ));
    }
    Ok(s)
}

/// `format(v, spec)`: the text of `v` under `spec` (an empty spec gives `str(v)`).
pub fn format_value(v: &Value, spec: &str) -> Result<String> {
    if spec.is_empty() {
        return Ok(to_text(v));
    }
    let s = parse_spec(spec)?;
    match v {
        Value::Int(i) => format_int(*i, &s, spec),
        Value::Float(f) => format_float(*f, None, &s, spec),
        Value::Bool(b) => match s.ty {
            Some(_) => format_int(*b as i64, &s, spec),
            None => format_str(&to_text(v), &s, spec),
        },
        Value::Str(t) => format_str(t, &s, spec),
        Value::Array(a) if a.ndim() == 0 => format_element(a.item()?, a.dtype(), &s, spec),
        Value::Array(a) => {
            let elem = |x: Value, dt: DType| format_element(x, dt, &s, spec);
            print::format_array_with(a, &elem)
        }
        other => match s.ty {
            None | Some('s') => format_str(&repr(other), &s, spec),
            Some(t) => Err(Error::type_(format!(
                "format code `{t}` does not apply to {}",
                other.a_type_name()
            ))
            .with_help("numeric codes format numbers and arrays; use {x!s} or a width alone")),
        },
    }
}

/// An array element (or a 0-d array): floats without a type or precision
/// show their dtype's shortest digits (`0.1` for a float32 0.1), as NumPy does.
fn format_element(x: Value, dtype: DType, s: &Spec, spec: &str) -> Result<String> {
    match x {
        Value::Float(f) => format_float(f, Some(dtype), s, spec),
        Value::Int(i) => format_int(i, s, spec),
        Value::Bool(b) if s.ty.is_some() => format_int(b as i64, s, spec),
        other => format_str(&to_text(&other), s, spec),
    }
}

fn format_str(t: &str, s: &Spec, spec: &str) -> Result<String> {
    if let Some(ty) = s.ty.filter(|&t| t != 's') {
        return Err(Error::value(format!(
            "format code `{ty}` does not apply to a string (in {spec:?})"
        ))
        .with_help("convert it first, e.g. float(s)"));
    }
    if s.sign.is_some() || s.grouping.is_some() || s.alternate {
        return Err(bad_spec(spec, "a string takes no sign, `#` or grouping"));
    }
    let body: String = match s.precision {
        Some(p) => t.chars().take(p).collect(),
        None => t.to_string(),
    };
    Ok(pad("", &body, s, '<'))
}

/// Fill to the width: `sign` goes before the padding when aligning with `=`.
fn pad(sign: &str, body: &str, s: &Spec, default_align: char) -> String {
    let (fill, align) = match (s.align, s.zero) {
        (Some(a), _) => (s.fill.unwrap_or(' '), a),
        (None, true) => (s.fill.unwrap_or('0'), '='),
        (None, false) => (' ', default_align),
    };
    let len = sign.chars().count() + body.chars().count();
    if len >= s.width {
        return format!("{sign}{body}");
    }
    let n = s.width - len;
    let fills = |k: usize| fill.to_string().repeat(k);
    match align {
        '<' => format!("{sign}{body}{}", fills(n)),
        '^' => format!("{}{sign}{body}{}", fills(n / 2), fills(n - n / 2)),
        '=' => format!("{sign}{}{body}", fills(n)),
        _ => format!("{}{sign}{body}", fills(n)),
    }
}

fn sign_text(negative: bool, s: &Spec) -> &'static str {
    match (negative, s.sign) {
        (true, _) => "-",
        (false, Some('+')) => "+",
        (false, Some(' ')) => " ",
        _ => "",
    }
}

/// Digits grouped by `sep` every `every` from the right.
fn group(digits: &str, sep: char, every: usize) -> String {
    let n = digits.chars().count();
    let mut out = String::with_capacity(n + n / every);
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (n - k).is_multiple_of(every) {
            out.push(sep);
        }
        out.push(ch);
    }
    out
}

fn format_int(i: i64, s: &Spec, spec: &str) -> Result<String> {
    let ty = s.ty.unwrap_or('d');
    if matches!(ty, 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') {
        return format_float(i as f64, None, s, spec);
    }
    if s.precision.is_some() {
        return Err(bad_spec(
            spec,
            "an integer takes no precision (use `.2f` for a float)",
        ));
    }
    let mag = i.unsigned_abs();
    let (digits, prefix, every) = match ty {
        'b' => (format!("{mag:b}"), "0b", 4),
        'o' => (format!("{mag:o}"), "0o", 4),
        'x' => (format!("{mag:x}"), "0x", 4),
        'X' => (format!("{mag:X}"), "0X", 4),
        'c' => {
            let ch = u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| Error::value(format!("{i} is not a character code")))?;
            return Ok(pad("", &ch.to_string(), s, '<'));
        }
        's' => return Err(bad_spec(spec, "`s` formats strings, not ints")),
        _ => (mag.to_string(), "", 3),
    };
    let digits = match s.grouping {
        Some(g) => group(&digits, g, every),
        None => digits,
    };
    let prefix = if s.alternate { prefix } else { "" };
    let sign = format!("{}{prefix}", sign_text(i < 0, s));
    Ok(pad(&sign, &digits, s, '>'))
}

/// `dtype`: the array dtype a float came from (its shortest digits), `None`
/// for a Python float.
fn format_float(x: f64, dtype: Option<DType>, s: &Spec, spec: &str) -> Result<String> {
    let ty = s.ty;
    if matches!(ty, Some('d' | 'b' | 'o' | 'x' | 'X' | 'c' | 's')) {
        return Err(Error::value(format!(
            "format code `{}` does not apply to a float (in {spec:?})",
            ty.unwrap_or('d')
        ))
        .with_help("use `.0f` for no decimals, or int(x) first"));
    }
    let x = if s.no_neg_zero && x == 0.0 { 0.0 } else { x };
    let negative = x.is_sign_negative() && !x.is_nan();
    let a = x.abs();
    let upper = matches!(ty, Some('E' | 'F' | 'G'));
    let body = if !a.is_finite() {
        let t = if a.is_nan() { "nan" } else { "inf" };
        let t = if upper {
            t.to_uppercase()
        } else {
            t.to_string()
        };
        if ty == Some('%') { format!("{t}%") } else { t }
    } else {
        match ty {
            Some('f' | 'F') => fixed(a, s.precision.unwrap_or(6), s.alternate),
            Some('e' | 'E') => sci(a, s.precision.unwrap_or(6), s.alternate, upper),
            Some('g' | 'G' | 'n') => {
                general(a, s.precision.unwrap_or(6), s.alternate, upper, false)
            }
            Some('%') => format!(
                "{}%",
                fixed(a * 100.0, s.precision.unwrap_or(6), s.alternate)
            ),
            _ => match (s.precision, dtype) {
                (Some(p), _) => general(a, p, s.alternate, false, true),
                (None, Some(dt)) if dt != DType::Float64 => print::format_float_scalar(a, dt),
                (None, _) => float_text(a),
            },
        }
    };
    let body = match s.grouping {
        Some(g) if a.is_finite() => {
            let end = body.find(['.', 'e', 'E', '%']).unwrap_or(body.len());
            format!("{}{}", group(&body[..end], g, 3), &body[end..])
        }
        _ => body,
    };
    Ok(pad(sign_text(negative, s), &body, s, '>'))
}

fn fixed(a: f64, prec: usize, alternate: bool) -> String {
    let t = format!("{a:.prec$}");
    if alternate && prec == 0 {
        format!("{t}.")
    } else {
        t
    }
}

/// Rust's `1.5e3` made Python's `1.5e+03`.
fn sci(a: f64, prec: usize, alternate: bool, upper: bool) -> String {
    let t = format!("{a:.prec$e}");
    let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    let m = if alternate && prec == 0 {
        format!("{m}.")
    } else {
        m.to_string()
    };
    let e = if upper { 'E' } else { 'e' };
    format!("{m}{e}{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// `g` (and the no-type form with a precision, `repr_like`): fixed or
/// scientific by the exponent after rounding to `prec` significant digits.
fn general(a: f64, prec: usize, alternate: bool, upper: bool, repr_like: bool) -> String {
    let p = prec.max(1);
    if a == 0.0 {
        return match (alternate, repr_like) {
            (true, _) => format!("{:.*}", p - 1, 0.0),
            (false, true) => "0.0".into(),
            (false, false) => "0".into(),
        };
    }
    let t = format!("{a:.prec$e}", prec = p - 1);
    let exp: i32 = t
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let limit = if repr_like { p as i32 - 1 } else { p as i32 };
    let mut out = if exp < -4 || exp >= limit {
        sci(a, p - 1, false, upper)
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        format!("{a:.decimals$}")
    };
    if !alternate {
        out = strip_zeros(&out);
    }
    if repr_like && !out.contains(['.', 'e', 'E', 'n', 'i']) {
        out.push_str(".0");
    }
    out
}

/// Trailing zeros of the mantissa (and a bare `.`) removed: `1.500` -> `1.5`.
fn strip_zeros(t: &str) -> String {
    let (m, e) = match t.find(['e', 'E']) {
        Some(k) => (&t[..k], &t[k..]),
        None => (t, ""),
    };
    let m = if m.contains('.') {
        m.trim_end_matches('0').trim_end_matches('.')
    } else {
        m
    };
    format!("{m}{e}")
}
