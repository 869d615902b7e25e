//! NumPy's printing functions: `set_printoptions`/`get_printoptions` (the
//! session's options, read by every array print), `array2string`,
//! `array_str`, `array_repr`, `format_float_positional`,
//! `format_float_scientific`, `base_repr` and `binary_repr`.

use crate::array::Array;
use crate::array::print;
use crate::array::print_options::{FloatMode, PrintOptions, options, set_options};
use crate::builtins::lang::{float_arg, int_arg};
use crate::containers::Dict;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, builtin};
use crate::value::Value;

pub static OPS: &[OpDef] = &[
    builtin!(
        "set_printoptions",
        "set_printoptions(precision=none, threshold=none, edgeitems=none, linewidth=none, suppress=none, sign=none, floatmode=none)",
        "Change how arrays print for the rest of the session (the REPL, print, f-strings, Jupyter), as NumPy's: only the options given change. precision: fraction digits (8); threshold: summarise arrays of more elements (1000; inf: never); edgeitems: items at each end of a summary (3); linewidth: columns (75); suppress: no scientific notation for small numbers; sign: \"-\", \"+\" or \" \"; floatmode: \"maxprec\", \"fixed\", \"unique\" or \"maxprec_equal\".",
        set_printoptions
    ),
    builtin!(
        "get_printoptions",
        "get_printoptions()",
        "The print options in force, as a dict with NumPy's keys (precision threshold edgeitems linewidth suppress sign floatmode nanstr infstr formatter legacy override_repr).",
        get_printoptions
    ),
    builtin!(
        "array2string",
        "array2string(a, max_line_width=none, precision=none, suppress_small=none, separator=\" \", prefix=\"\", threshold=none, edgeitems=none, sign=none, floatmode=none)",
        "The text of an array as NumPy's array2string: elements between `separator`, continuation lines indented by len(prefix) + 1 (the prefix itself is not written), the print options overridden by the arguments given.",
        array2string
    ),
    builtin!(
        "array_str",
        "array_str(a, max_line_width=none, precision=none, suppress_small=none)",
        "NumPy's str of an array (what print shows), with these options overridden.",
        array_str
    ),
    builtin!(
        "array_repr",
        "array_repr(a, max_line_width=none, precision=none, suppress_small=none)",
        "NumPy's repr of an array (array([1, 2]), dtype= when not implied), with these options overridden.",
        array_repr
    ),
    builtin!(
        "format_float_positional",
        "format_float_positional(x, precision=none, unique=true, fractional=true, trim=\"k\", sign=false, pad_left=none, pad_right=none, min_digits=none)",
        "A float in positional notation as NumPy's (Dragon4): the shortest digits that read back (unique), or exactly `precision` digits (unique=false); trim \"k\" keeps trailing zeros, \".\" drops them, \"0\" keeps one, \"-\" drops the point too; sign=true writes +; pad_left/pad_right pad the parts with spaces. A float32 0-d array gives float32's shortest digits.",
        format_float_positional
    ),
    builtin!(
        "format_float_scientific",
        "format_float_scientific(x, precision=none, unique=true, trim=\"k\", sign=false, pad_left=none, exp_digits=none, min_digits=none)",
        "A float in scientific notation as NumPy's (Dragon4): 1.5e+00; arguments as format_float_positional, exp_digits the exponent's least digits (2).",
        format_float_scientific
    ),
    builtin!(
        "base_repr",
        "base_repr(number, base=2, padding=0)",
        "An integer written in `base` (2 to 36, digits then uppercase letters), with `padding` zeros in front: base_repr(255, 16) is \"FF\".",
        base_repr
    ),
    builtin!(
        "binary_repr",
        "binary_repr(num, width=none)",
        "An integer in binary; with width, zero-padded to it, and a negative number in two's complement of that width: binary_repr(-3, width=4) is \"1101\".",
        binary_repr
    ),
];

fn opt_int(a: &mut Args, key: &str, what: &str) -> Result<Option<i64>> {
    match a.opt(key)? {
        None | Some(Value::None) => Ok(None),
        Some(v) => int_arg(&v, what).map(Some),
    }
}

fn opt_bool(a: &mut Args, key: &str, what: &str) -> Result<Option<bool>> {
    match a.opt(key)? {
        None | Some(Value::None) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(b)),
        Some(Value::Int(i)) => Ok(Some(i != 0)),
        Some(other) => Err(Error::type_(format!(
            "{what} must be true or false, not {}",
            other.a_type_name()
        ))),
    }
}

fn opt_str(a: &mut Args, key: &str, what: &str) -> Result<Option<String>> {
    match a.opt(key)? {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_string())),
        Some(other) => Err(Error::type_(format!(
            "{what} must be a string, not {}",
            other.a_type_name()
        ))),
    }
}

/// Reads the option keywords (under the names `names` gives: NumPy calls
/// them `linewidth`/`suppress` in set_printoptions and
/// `max_line_width`/`suppress_small` in array2string) into `o`.
fn read_options(a: &mut Args, o: &mut PrintOptions, op: &str, names: (&str, &str)) -> Result<()> {
    let fail = |msg: String| Error::value(msg).with_op(op);
    if let Some(p) = opt_int(a, "precision", "precision")? {
        if p < 0 {
            return Err(fail(format!("precision must be >= 0, not {p}")));
        }
        o.precision = p as usize;
    }
    match a.opt("threshold")? {
        None | Some(Value::None) => {}
        Some(Value::Float(f)) if f.is_nan() => {
            return Err(fail(
                "threshold must be non-NAN, try inf for untruncated representation".into(),
            ));
        }
        Some(Value::Float(f)) if f == f64::INFINITY => o.threshold = usize::MAX,
        Some(v) => {
            let t = int_arg(&v, "threshold")?;
            o.threshold = t.max(0) as usize;
        }
    }
    if let Some(e) = opt_int(a, "edgeitems", "edgeitems")? {
        if e < 1 {
            return Err(fail(format!("edgeitems must be >= 1, not {e}")));
        }
        o.edgeitems = e as usize;
    }
    if let Some(w) = opt_int(a, names.0, names.0)? {
        if w < 1 {
            return Err(fail(format!("{} must be >= 1, not {w}", names.0)));
        }
        o.linewidth = Some(w as usize);
    }
    if let Some(s) = opt_bool(a, names.1, names.1)? {
        o.suppress = s;
    }
    if let Some(s) = opt_str(a, "sign", "sign")? {
        o.sign = match s.as_str() {
            "-" => '-',
            "+" => '+',
            " " => ' ',
            _ => {
                return Err(fail(format!(
                    "sign option must be one of ' ', '+', or '-', not {s:?}"
                )));
            }
        };
    }
    if let Some(m) = opt_str(a, "floatmode", "floatmode")? {
        o.floatmode = FloatMode::parse(&m).ok_or_else(|| {
            fail(format!(
                "floatmode option must be one of \"fixed\", \"unique\", \"maxprec\", \"maxprec_equal\", not {m:?}"
            ))
        })?;
    }
    Ok(())
}

fn set_printoptions(i: &mut Interp, mut a: Args) -> Result<Value> {
    let mut o = i.print_options;
    read_options(
        &mut a,
        &mut o,
        "set_printoptions",
        ("linewidth", "suppress"),
    )?;
    a.finish()?;
    i.print_options = o;
    set_options(o);
    Ok(Value::None)
}

fn get_printoptions(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let o = options();
    let d = Dict::new();
    let threshold = if o.threshold == usize::MAX {
        Value::Float(f64::INFINITY)
    } else {
        Value::Int(o.threshold as i64)
    };
    let pairs = [
        ("edgeitems", Value::Int(o.edgeitems as i64)),
        ("threshold", threshold),
        ("floatmode", Value::str(o.floatmode.name())),
        ("precision", Value::Int(o.precision as i64)),
        ("suppress", Value::Bool(o.suppress)),
        ("linewidth", Value::Int(print::line_width() as i64)),
        ("nanstr", Value::str("nan")),
        ("infstr", Value::str("inf")),
        ("sign", Value::str(o.sign.to_string())),
        ("formatter", Value::None),
        ("legacy", Value::Bool(false)),
        ("override_repr", Value::None),
    ];
    for (k, v) in pairs {
        d.insert(Value::str(k), v)?;
    }
    Ok(Value::Dict(d))
}

/// Runs `f` with the options `o` in force, then puts the session's back.
fn with_options<T>(o: PrintOptions, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let saved = options();
    set_options(o);
    let r = f();
    set_options(saved);
    r
}

fn array_of(i: &Interp, v: Value) -> Result<Array> {
    match v {
        Value::Array(a) => Ok(a),
        other => crate::array::create::value_to_array(&other, None, i.float_x()),
    }
}

fn array2string(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_of(i, a.req("a")?)?;
    let mut o = options();
    read_options(
        &mut a,
        &mut o,
        "array2string",
        ("max_line_width", "suppress_small"),
    )?;
    let sep = opt_str(&mut a, "separator", "separator")?.unwrap_or_else(|| " ".into());
    let prefix = opt_str(&mut a, "prefix", "prefix")?.unwrap_or_default();
    a.finish()?;
    let text = with_options(o, || {
        print::array_to_string(&x, &sep, prefix.chars().count())
    })?;
    Ok(Value::str(text))
}

fn array_str(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_of(i, a.req("a")?)?;
    let mut o = options();
    read_options(
        &mut a,
        &mut o,
        "array_str",
        ("max_line_width", "suppress_small"),
    )?;
    a.finish()?;
    Ok(Value::str(with_options(o, || print::format_array(&x))?))
}

fn array_repr(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = array_of(i, a.req("a")?)?;
    let mut o = options();
    read_options(
        &mut a,
        &mut o,
        "array_repr",
        ("max_line_width", "suppress_small"),
    )?;
    a.finish()?;
    Ok(Value::str(with_options(o, || print::numpy_repr(&x))?))
}

/// How trailing zeros go (NumPy's `trim`).
#[derive(Clone, Copy, PartialEq)]
enum Trim {
    Keep,
    Point,
    Zero,
    Dash,
}

/// The float `x` and the dtype whose shortest digits it prints with.
fn float_value(v: &Value, op: &str) -> Result<(f64, DType)> {
    match v {
        Value::Array(a) if a.size() == 1 && a.dtype().is_float() => {
            Ok((a.to_vec::<f64>()?[0], a.dtype()))
        }
        Value::Array(a) if a.size() == 1 && !a.dtype().is_complex() => {
            Ok((a.to_vec::<f64>()?[0], DType::Float64))
        }
        other => Ok((float_arg(other, &format!("{op}'s x"))?, DType::Float64)),
    }
}

/// The arguments both format_float functions share.
struct FloatFmt {
    x: f64,
    dtype: DType,
    precision: Option<usize>,
    unique: bool,
    trim: Trim,
    sign: bool,
    pad_left: Option<usize>,
    min_digits: Option<usize>,
}

fn read_float_fmt(a: &mut Args, op: &str) -> Result<FloatFmt> {
    let (x, dtype) = float_value(&a.req("x")?, op)?;
    let nonneg = |v: Option<i64>, what: &str| -> Result<Option<usize>> {
        match v {
            Some(n) if n < 0 => {
                Err(Error::value(format!("{what} must be >= 0, not {n}")).with_op(op))
            }
            v => Ok(v.map(|n| n as usize)),
        }
    };
    let precision = nonneg(opt_int(a, "precision", "precision")?, "precision")?;
    let unique = opt_bool(a, "unique", "unique")?.unwrap_or(true);
    let trim = match opt_str(a, "trim", "trim")?.as_deref() {
        None | Some("k") => Trim::Keep,
        Some(".") => Trim::Point,
        Some("0") => Trim::Zero,
        Some("-") => Trim::Dash,
        Some(t) => {
            return Err(Error::value(format!(
                "trim must be one of \"k\", \".\", \"0\", \"-\", not {t:?}"
            ))
            .with_op(op));
        }
    };
    let sign = opt_bool(a, "sign", "sign")?.unwrap_or(false);
    let pad_left = nonneg(opt_int(a, "pad_left", "pad_left")?, "pad_left")?;
    let min_digits = nonneg(opt_int(a, "min_digits", "min_digits")?, "min_digits")?;
    if !unique && precision.is_none() {
        return Err(Error::value("precision must be given when unique=false").with_op(op));
    }
    Ok(FloatFmt {
        x,
        dtype,
        precision,
        unique,
        trim,
        sign,
        pad_left,
        min_digits,
    })
}

impl FloatFmt {
    /// How many fraction digits to make: the shortest unique ones capped by
    /// precision and raised to min_digits, or exactly precision (unique=false).
    fn fraction_digits(&self, unique_digits: usize) -> usize {
        let mut n = match (self.unique, self.precision) {
            (false, Some(p)) => p,
            (true, Some(p)) => unique_digits.min(p),
            _ => unique_digits,
        };
        if self.unique
            && let Some(m) = self.min_digits
        {
            n = n.max(m);
        }
        n
    }

    /// The digits made (`int` and `frac`) with trailing zeros and the point
    /// as `trim` says. Unique digits have no trailing zeros of their own
    /// (Dragon4 stops there), unless min_digits asked for more; "k" keeps
    /// the zeros of an asked precision (unique=false).
    fn trimmed(&self, int: &str, frac: &str) -> String {
        let asked = !self.unique || self.min_digits.is_some();
        let mut frac = frac.to_string();
        if !(asked && self.trim == Trim::Keep) {
            while frac.ends_with('0') {
                frac.pop();
            }
        }
        let mut s = int.to_string();
        match (self.trim, frac.is_empty()) {
            (Trim::Dash, true) => {}
            (Trim::Zero, true) => s.push_str(".0"),
            (_, true) => s.push('.'),
            (_, false) => {
                s.push('.');
                s.push_str(&frac);
            }
        }
        s
    }

    fn signed(&self, body: String) -> String {
        if self.x.is_sign_negative() {
            format!("-{body}")
        } else if self.sign {
            format!("+{body}")
        } else {
            body
        }
    }
}

/// Shortest digits of |x| in `dtype`: (digits without the point, exponent).
fn shortest_digits(x: f64, dtype: DType) -> (String, i32) {
    let s = match dtype {
        DType::Float32 => format!("{:e}", (x as f32).abs()),
        DType::Float16 => {
            let v = crate::array::host::f16_of(x.abs());
            (0..8)
                .map(|p| format!("{:.*e}", p, v.to_f64()))
                .find(|s| s.parse::<f64>().map(crate::array::host::f16_of) == Ok(v))
                .unwrap_or_else(|| format!("{:e}", v.to_f64()))
        }
        _ => format!("{:e}", x.abs()),
    };
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits.to_string(), e.parse().unwrap_or(0))
}

fn special(x: f64, sign: bool) -> Option<String> {
    if x.is_nan() {
        return Some(if sign { "+nan" } else { "nan" }.into());
    }
    if x.is_infinite() {
        return Some(
            if x < 0.0 {
                "-inf"
            } else if sign {
                "+inf"
            } else {
                "inf"
            }
            .into(),
        );
    }
    None
}

fn format_float_positional(_: &mut Interp, mut a: Args) -> Result<Value> {
    let f = read_float_fmt(&mut a, "format_float_positional")?;
    let fractional = opt_bool(&mut a, "fractional", "fractional")?.unwrap_or(true);
    let pad_right = match opt_int(&mut a, "pad_right", "pad_right")? {
        Some(n) if n < 0 => {
            return Err(Error::value("pad_right must be >= 0").with_op("format_float_positional"));
        }
        v => v.map(|n| n as usize),
    };
    a.finish()?;
    if !fractional {
        return Err(Error::value(
            "format_float_positional(fractional=false) (precision as significant digits) is not supported",
        )
        .with_help("use format_float_scientific(x, precision=p) for p significant digits"));
    }
    if let Some(s) = special(f.x, f.sign) {
        return Ok(Value::str(s));
    }
    let (digits, e) = shortest_digits(f.x, f.dtype);
    // Fraction digits of the shortest form.
    let shortest = (digits.len() as i32 - 1 - e).max(0) as usize;
    let n = f.fraction_digits(shortest);
    let text = format!("{:.n$}", f.x.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let body = f.trimmed(int, frac);
    let s = f.signed(body);
    let (ip, fp) = s
        .split_once('.')
        .map_or((s.as_str(), None), |(i, p)| (i, Some(p)));
    let ip = format!("{ip:>w$}", w = f.pad_left.unwrap_or(0));
    Ok(Value::str(match fp {
        Some(fp) => format!("{ip}.{fp:<w$}", w = pad_right.unwrap_or(0)),
        None => ip,
    }))
}

fn format_float_scientific(_: &mut Interp, mut a: Args) -> Result<Value> {
    let f = read_float_fmt(&mut a, "format_float_scientific")?;
    let exp_digits = match opt_int(&mut a, "exp_digits", "exp_digits")? {
        Some(n) if n < 0 => {
            return Err(Error::value("exp_digits must be >= 0").with_op("format_float_scientific"));
        }
        v => v.map(|n| n as usize).unwrap_or(2),
    };
    a.finish()?;
    if let Some(s) = special(f.x, f.sign) {
        return Ok(Value::str(s));
    }
    let (digits, _) = shortest_digits(f.x, f.dtype);
    let shortest = digits.len() - 1;
    let n = f.fraction_digits(shortest);
    let text = format!("{:.n$e}", f.x.abs());
    let (m, e) = text.split_once('e').unwrap_or((&text, "0"));
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    let body = f.trimmed(int, frac);
    let s = f.signed(body);
    let (ip, rest) = s.split_once('.').map_or((s.as_str(), ""), |(i, r)| (i, r));
    let ip = format!("{ip:>w$}", w = f.pad_left.unwrap_or(0));
    let point = if s.contains('.') { "." } else { "" };
    let exp: i32 = e.parse().unwrap_or(0);
    Ok(Value::str(format!(
        "{ip}{point}{rest}e{}{:0w$}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs(),
        w = exp_digits
    )))
}

fn int_value(v: &Value, what: &str) -> Result<i64> {
    int_arg(v, what)
}

/// The digits of |n| in `base` (2..=36), uppercase letters past 9.
fn digits_in(n: i64, base: u32) -> String {
    let mut m = n.unsigned_abs() as u128;
    if m == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while m > 0 {
        let d = (m % base as u128) as u32;
        out.push(
            std::char::from_digit(d, base)
                .unwrap_or('?')
                .to_ascii_uppercase(),
        );
        m /= base as u128;
    }
    out.iter().rev().collect()
}

fn base_repr(_: &mut Interp, mut a: Args) -> Result<Value> {
    let n = int_value(&a.req("number")?, "base_repr's number")?;
    let base = opt_int(&mut a, "base", "base")?.unwrap_or(2);
    let padding = opt_int(&mut a, "padding", "padding")?.unwrap_or(0);
    a.finish()?;
    if !(2..=36).contains(&base) {
        return Err(Error::value(if base > 36 {
            "Bases greater than 36 not handled in base_repr."
        } else {
            "Bases less than 2 not handled in base_repr."
        })
        .with_op("base_repr"));
    }
    let body = format!(
        "{}{}",
        "0".repeat(padding.clamp(0, 4096) as usize),
        digits_in(n, base as u32)
    );
    Ok(Value::str(if n < 0 { format!("-{body}") } else { body }))
}

fn binary_repr(_: &mut Interp, mut a: Args) -> Result<Value> {
    let n = int_value(&a.req("num")?, "binary_repr's num")?;
    let width = opt_int(&mut a, "width", "width")?;
    a.finish()?;
    let bits = digits_in(n, 2);
    let Some(w) = width else {
        return Ok(Value::str(if n < 0 { format!("-{bits}") } else { bits }));
    };
    let w = w.clamp(0, 4096) as usize;
    if n >= 0 {
        if bits.len() > w {
            return Err(insufficient(w, bits.len()));
        }
        return Ok(Value::str(format!("{bits:0>w$}")));
    }
    // Two's complement in `w` bits: 2**w + n, which needs bits.len() + 1 bits at most.
    let need = if (n.unsigned_abs()).is_power_of_two() {
        bits.len()
    } else {
        bits.len() + 1
    };
    if w < need {
        return Err(insufficient(w, need));
    }
    // Two's complement bits: an arithmetic shift, ones past the 64th.
    let out: String = (0..w)
        .rev()
        .map(|k| {
            if k >= 63 || (n >> k) & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    Ok(Value::str(out))
}

fn insufficient(w: usize, need: usize) -> Error {
    Error::value(format!(
        "Insufficient bit width={w} provided for binwidth={need}"
    ))
    .with_op("binary_repr")
    .with_help("give a width of at least the number's bits")
}
