//! Showing arrays: NumPy 2's `str()` layout (shortest-unique floats capped at 8
//! digits, common widths, scientific when NumPy would, `...` summaries above
//! 1000 elements, wrapping at the line width: NumPy's 75 columns, the
//! terminal's width at the REPL), the `<3x2 float32 @cpu(0)>` trailer, and the
//! same text with the trailer as HTML for Jupyter. Bools print as gcalc's
//! `true`/`false`.

use super::Array;
use super::layout::fmt_shape_x;
use crate::dtype::DType;
use crate::error::Result;

use super::print_options::{FloatMode, PrintOptions, options};

/// NumPy's default `linewidth`.
pub const DEFAULT_LINE_WIDTH: usize = 75;

thread_local! {
    /// The line width of the session running on this thread (`Session::execute`
    /// sets it), like NumPy's `printoptions(linewidth=...)`.
    static LINE_WIDTH: std::cell::Cell<usize> = const { std::cell::Cell::new(DEFAULT_LINE_WIDTH) };
}

/// Wrap arrays (and listings) at `width` columns on this thread (at least 20).
pub fn set_line_width(width: usize) {
    LINE_WIDTH.with(|w| w.set(width.max(20)));
}

/// The line width in force on this thread: `set_printoptions(linewidth=)`'s,
/// else the session's.
pub fn line_width() -> usize {
    options()
        .linewidth
        .unwrap_or_else(|| LINE_WIDTH.with(|w| w.get()))
}

/// Shortest digits that read back as the same value in `dtype`:
/// (negative, digits without leading zeros, decimal exponent of the first digit).
fn shortest(x: f64, dtype: DType) -> (bool, String, i32) {
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
    let neg = x.is_sign_negative();
    parse_sci(&s, neg)
}

/// Split Rust's `1.2345e-5` into digits and exponent, trailing zeros dropped.
fn parse_sci(s: &str, neg: bool) -> (bool, String, i32) {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let mut digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    (neg, digits, e.parse().unwrap_or(0))
}

/// Positional text split into (int part with sign, fraction digits): the
/// shortest digits that read back, at most `cap` fraction digits.
fn positional(x: f64, dtype: DType, cap: Option<usize>) -> (String, String) {
    let (neg, digits, e) = shortest(x, dtype);
    let sign = if neg { "-" } else { "" };
    let nfrac = digits.len() as i32 - 1 - e;
    if let Some(p) = cap.filter(|&p| nfrac > p as i32) {
        let s = format!("{:.*}", p, x.abs());
        let (i, f) = s.split_once('.').unwrap_or((&s, ""));
        return (format!("{sign}{i}"), f.trim_end_matches('0').to_string());
    }
    if e >= 0 {
        let e = e as usize;
        let mut int: String = digits.chars().take(e + 1).collect();
        while int.len() < e + 1 {
            int.push('0');
        }
        (format!("{sign}{int}"), digits.chars().skip(e + 1).collect())
    } else {
        let zeros = "0".repeat((-e - 1) as usize);
        (format!("{sign}0"), format!("{zeros}{digits}"))
    }
}

/// Scientific text split into (first digit with sign, fraction digits,
/// exponent): the shortest digits, at most `cap` after the point.
fn scientific(x: f64, dtype: DType, cap: Option<usize>) -> (String, String, i32) {
    let (neg, mut digits, mut e) = shortest(x, dtype);
    if let Some(p) = cap.filter(|&p| digits.len() > p + 1) {
        (_, digits, e) = parse_sci(&format!("{:.*e}", p, x.abs()), neg);
    }
    let sign = if neg { "-" } else { "" };
    (
        format!("{sign}{}", &digits[..1]),
        digits[1..].to_string(),
        e,
    )
}

fn exp_text(e: i32, width: usize) -> String {
    format!(
        "e{}{:0width$}",
        if e < 0 { '-' } else { '+' },
        e.unsigned_abs(),
        width = width
    )
}

/// NumPy's FloatingFormat: decides widths from the shown values, then formats each.
fn format_floats(vals: &[f64], dtype: DType) -> Vec<String> {
    format_floats_signed(vals, dtype, options().sign == '+')
}

/// NumPy's ComplexFloatingFormat: the real parts as one float column, the
/// imaginary parts as another with an explicit sign, `j` before the
/// imaginary part's padding (`[1.+2.j 3.-4.j]`).
fn format_complex(vals: &[(f64, f64)], dtype: DType) -> Vec<String> {
    let part = dtype.real_part();
    let re: Vec<f64> = vals.iter().map(|v| v.0).collect();
    let im: Vec<f64> = vals.iter().map(|v| v.1).collect();
    let re = format_floats_signed(&re, part, options().sign == '+');
    let im = format_floats_signed(&im, part, true);
    re.into_iter()
        .zip(im)
        .map(|(r, i)| {
            let sp = i.trim_end().len();
            format!("{r}{}j{}", &i[..sp], &i[sp..])
        })
        .collect()
}

/// A complex scalar as Python's `repr(complex)` (NumPy's `str` of a complex
/// scalar): `(1+2j)`, `(1.5-0.25j)`, `2j` when the real part is +0.
pub fn format_complex_scalar(re: f64, im: f64, dtype: DType) -> String {
    let part = dtype.real_part();
    let text = |x: f64| {
        let s = format_float_scalar(x, part);
        match s.strip_suffix(".0") {
            Some(t) => t.to_string(),
            None => s,
        }
    };
    let i = text(im);
    let i = if i.starts_with('-') || i.starts_with('+') {
        i
    } else {
        format!("+{i}")
    };
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", i.trim_start_matches('+'));
    }
    format!("({}{i}j)", text(re))
}

/// Where NumPy 2.3+ switches to scientific notation: 10**precision of the
/// dtype (float16 3, float32 and complex64 6), capped at `wide` (arrays 1e8,
/// scalars 1e16: float64's own cutoffs).
fn exp_cutoff(dtype: DType, wide: f64) -> f64 {
    match dtype {
        DType::Float16 => 1e3,
        DType::Float32 | DType::Complex64 => 1e6,
        _ => wide,
    }
}

fn format_floats_signed(vals: &[f64], dtype: DType, plus: bool) -> Vec<String> {
    let opts: PrintOptions = options();
    let cap = opts.digits_cap();
    let fixed = opts.floatmode == FloatMode::Fixed;
    // `fixed` and `maxprec_equal` print every element with the longest's digits.
    let equal = fixed || opts.floatmode == FloatMode::MaxPrecEqual;
    let sign = |neg: bool, s: String| if plus && !neg { format!("+{s}") } else { s };
    let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite()).collect();
    let nonzero: Vec<f64> = finite
        .iter()
        .map(|v| v.abs())
        .filter(|&v| v != 0.0)
        .collect();
    let (mx, mn) = nonzero
        .iter()
        .fold((0.0f64, f64::INFINITY), |(a, b), &v| (a.max(v), b.min(v)));
    let exp_mode = !nonzero.is_empty()
        && (mx >= exp_cutoff(dtype, 1e8) || (!opts.suppress && (mn < 1e-4 || mx / mn > 1e3)));
    let (mut pad_left, pad_right, prec, exp_size);
    if finite.is_empty() {
        (pad_left, pad_right, prec, exp_size) = (0, 0, 0, 0);
    } else if exp_mode {
        let parts: Vec<_> = finite
            .iter()
            .map(|&v| {
                let (i, f, e) = if fixed {
                    let p = opts.precision;
                    let (_, d, e) = parse_sci(&format!("{:.p$e}", v.abs()), false);
                    let d = format!("{d:0<w$}", w = p + 1);
                    let s = if v.is_sign_negative() { "-" } else { "" };
                    (format!("{s}{}", &d[..1]), d[1..].to_string(), e)
                } else {
                    scientific(v, dtype, cap)
                };
                (sign(v.is_sign_negative(), i), f, e)
            })
            .collect();
        exp_size = parts
            .iter()
            .map(|p| p.2.unsigned_abs().to_string().len().max(2))
            .max()
            .unwrap_or(2);
        prec = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
        pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
        pad_right = exp_size + 2 + prec;
    } else {
        let parts: Vec<_> = finite
            .iter()
            .map(|&v| {
                let (i, f) = if fixed {
                    fixed_positional(v, opts.precision)
                } else {
                    positional(v, dtype, cap)
                };
                (sign(v.is_sign_negative(), i), f)
            })
            .collect();
        pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
        pad_right = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
        (prec, exp_size) = (0, 0);
    }
    // sign=' ': a space where a sign would be, when no element is negative.
    if opts.sign == ' ' && !finite.is_empty() && !finite.iter().any(|v| v.is_sign_negative()) {
        pad_left += 1;
    }
    if finite.len() != vals.len() {
        let neginf = (plus || vals.iter().any(|v| v.is_infinite() && *v < 0.0)) as usize;
        let offset = pad_right + 1;
        pad_left = pad_left
            .max(3usize.saturating_sub(offset))
            .max((3 + neginf).saturating_sub(offset));
    }
    vals.iter()
        .map(|&v| {
            if !v.is_finite() {
                let s = if v.is_nan() {
                    if plus { "+nan" } else { "nan" }
                } else if v < 0.0 {
                    "-inf"
                } else if plus {
                    "+inf"
                } else {
                    "inf"
                };
                format!("{s:>w$}", w = pad_left + pad_right + 1)
            } else if exp_mode {
                // NumPy prints `prec` real digits here (min_digits), not zero padding.
                let t = format!("{:.*e}", prec, v.abs());
                let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
                let (i, f) = m.split_once('.').unwrap_or((m, ""));
                let i = if v.is_sign_negative() {
                    format!("-{i}")
                } else {
                    sign(false, i.to_string())
                };
                format!(
                    "{i:>pad_left$}.{f}{}",
                    exp_text(e.parse().unwrap_or(0), exp_size)
                )
            } else {
                let (i, f) = if equal {
                    fixed_positional(v, pad_right)
                } else {
                    positional(v, dtype, cap)
                };
                let i = sign(v.is_sign_negative(), i);
                format!("{i:>pad_left$}.{f:<pad_right$}")
            }
        })
        .collect()
}

/// `x` with exactly `digits` fraction digits (NumPy's `min_digits`: real
/// digits of the value, rounded): (int part with sign, fraction digits).
fn fixed_positional(x: f64, digits: usize) -> (String, String) {
    let t = format!("{:.digits$}", x.abs());
    let (i, f) = t.split_once('.').unwrap_or((&t, ""));
    let s = if x.is_sign_negative() { "-" } else { "" };
    (format!("{s}{i}"), f.to_string())
}

/// A float scalar as NumPy's `str(np.float32(x))`: `1.0`, `0.1`, `1e-05`, `1.5e+16`.
pub fn format_float_scalar(x: f64, dtype: DType) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let a = x.abs();
    let (neg, digits, e) = shortest(x, dtype);
    let sign = if neg { "-" } else { "" };
    if a == 0.0 || (1e-4..exp_cutoff(dtype, 1e16)).contains(&a) {
        let (i, f) = if e >= 0 {
            let e = e as usize;
            let mut int: String = digits.chars().take(e + 1).collect();
            while int.len() < e + 1 {
                int.push('0');
            }
            (int, digits.chars().skip(e + 1).collect::<String>())
        } else {
            (
                "0".to_string(),
                format!("{}{digits}", "0".repeat((-e - 1) as usize)),
            )
        };
        let f = if f.is_empty() { "0".to_string() } else { f };
        format!("{sign}{i}.{f}")
    } else {
        let frac = if digits.len() > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        format!("{sign}{}{frac}{}", &digits[..1], exp_text(e, 2))
    }
}

/// Writes one element (its value and the array's dtype) for `format_array_with`.
pub type ElemFmt<'a> = &'a dyn Fn(crate::value::Value, DType) -> Result<String>;

/// The element strings of `vals` (already summarised) for `dtype`; `custom`
/// writes each one instead when given (NumPy's `formatter`: no padding).
fn format_elements(a: &Array, flat: &[usize], custom: Option<ElemFmt>) -> Result<Vec<String>> {
    let d = a.host_read()?;
    if let Some(f) = custom {
        let dt = a.dtype();
        return flat
            .iter()
            .map(|&o| {
                let v = match dt {
                    DType::Bool => crate::value::Value::Bool(d.get_i64(o) != 0),
                    DType::Int32 | DType::Int64 => crate::value::Value::Int(d.get_i64(o)),
                    DType::Complex64 | DType::Complex128 => {
                        let (re, im) = d.get_parts(o);
                        crate::value::Value::Complex(re, im)
                    }
                    _ => crate::value::Value::Float(d.get_f64(o)),
                };
                f(v, dt)
            })
            .collect();
    }
    Ok(match a.dtype() {
        DType::Bool => {
            let v: Vec<bool> = flat.iter().map(|&o| d.get_i64(o) != 0).collect();
            v.iter()
                .map(|&b| {
                    if b {
                        " true".to_string()
                    } else {
                        "false".to_string()
                    }
                })
                .collect()
        }
        DType::Int32 | DType::Int64 => {
            // NumPy's IntegerFormat: sign=' ' is '-' when some element is negative.
            let mut sign = options().sign;
            if sign == ' ' && flat.iter().any(|&o| d.get_i64(o) < 0) {
                sign = '-';
            }
            let s: Vec<String> = flat
                .iter()
                .map(|&o| match (d.get_i64(o), sign) {
                    (v, '+') if v >= 0 => format!("+{v}"),
                    (v, ' ') if v >= 0 => format!(" {v}"),
                    (v, _) => v.to_string(),
                })
                .collect();
            let w = s.iter().map(|x| x.len()).max().unwrap_or(0);
            s.into_iter().map(|x| format!("{x:>w$}")).collect()
        }
        dt if dt.is_complex() => format_complex(
            &flat.iter().map(|&o| d.get_parts(o)).collect::<Vec<_>>(),
            dt,
        ),
        dt => format_floats(&flat.iter().map(|&o| d.get_f64(o)).collect::<Vec<_>>(), dt),
    })
}

/// NumPy's `str()` of an array (`print(x)` shows this). A 0-d array shows its scalar.
pub fn format_array(a: &Array) -> Result<String> {
    format_array_impl(a, None)
}

/// `format_array` with each element written by `elem` (f-strings' `{x:.2f}`),
/// in the same layout: brackets, rows, `...` summaries, 75-column lines.
pub fn format_array_with(a: &Array, elem: ElemFmt) -> Result<String> {
    format_array_impl(a, Some(elem))
}

fn format_array_impl(a: &Array, custom: Option<ElemFmt>) -> Result<String> {
    layout(a, custom, " ", 0, line_width())
}

/// NumPy's `_formatArray`: the elements between `sep` (" " for `str`, ", "
/// for `repr`), continuation lines indented past `[` and a `prefix`-column
/// prefix (`array(` is 6), lines at most `width` columns.
fn layout(
    a: &Array,
    custom: Option<ElemFmt>,
    sep: &str,
    prefix: usize,
    width: usize,
) -> Result<String> {
    let h = a.to_host()?;
    if h.ndim() == 0 {
        let off = h.offset();
        let d = h.host_read()?;
        return Ok(match h.dtype() {
            DType::Bool => (if d.get_i64(off) != 0 { "true" } else { "false" }).to_string(),
            DType::Int32 | DType::Int64 => d.get_i64(off).to_string(),
            dt if dt.is_complex() => {
                let (re, im) = d.get_parts(off);
                format_complex_scalar(re, im, dt)
            }
            dt => format_float_scalar(d.get_f64(off), dt),
        });
    }
    if h.size() == 0 {
        return Ok("[]".into());
    }
    let opts = options();
    let edge = opts.edgeitems;
    let summarize = h.size() > opts.threshold;
    // The indices shown along each axis.
    let shown: Vec<Vec<usize>> = h
        .shape()
        .iter()
        .map(|&n| {
            if summarize && n > 2 * edge {
                (0..edge).chain(n - edge..n).collect()
            } else {
                (0..n).collect()
            }
        })
        .collect();
    let sshape: Vec<usize> = shown.iter().map(|s| s.len()).collect();
    let count: usize = sshape.iter().product();
    let mut flat = Vec::with_capacity(count);
    let mut pos = vec![0usize; sshape.len()];
    for _ in 0..count {
        let off: isize = h.offset() as isize
            + pos
                .iter()
                .enumerate()
                .map(|(d, &p)| shown[d][p] as isize * h.strides()[d])
                .sum::<isize>();
        flat.push(off.max(0) as usize);
        for d in (0..pos.len()).rev() {
            pos[d] += 1;
            if pos[d] < sshape[d] {
                break;
            }
            pos[d] = 0;
        }
    }
    let strs = format_elements(&h, &flat, custom)?;
    let f = Fmt {
        strs: &strs,
        shape: h.shape(),
        sshape: &sshape,
        summarize,
        edge,
        sep,
    };
    let hanging = " ".repeat(prefix + 1);
    Ok(f.rec(&mut Vec::new(), &hanging, width))
}

struct Fmt<'a> {
    sep: &'a str,
    edge: usize,
    strs: &'a [String],
    shape: &'a [usize],
    sshape: &'a [usize],
    summarize: bool,
}

fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, prefix: &str) {
    if line.len() + word.len() > width && line.len() > prefix.len() {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = prefix.to_string();
    }
    line.push_str(word);
}

impl Fmt<'_> {
    fn rec(&self, index: &mut Vec<usize>, hanging: &str, width: usize) -> String {
        let axis = index.len();
        let left = self.shape.len() - axis;
        if left == 0 {
            let flat = index
                .iter()
                .zip(self.sshape)
                .fold(0, |acc, (&i, &n)| acc * n + i);
            return self.strs[flat].clone();
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width.saturating_sub(1);
        let n = self.sshape[axis];
        let summary = self.summarize && self.shape[axis] > 2 * self.edge;
        let (leading, trailing) = if summary {
            (self.edge, self.edge)
        } else {
            (0, n)
        };
        let mut child = |i: usize, this: &Self| {
            index.push(i);
            let r = this.rec(index, &next_hanging, next_width);
            index.pop();
            r
        };
        let mut s = String::new();
        if left == 1 {
            let elem_width = width.saturating_sub(1);
            let mut line = hanging.to_string();
            for i in 0..leading {
                let w = child(i, self);
                extend_line(&mut s, &mut line, &w, elem_width, hanging);
                line.push_str(self.sep);
            }
            if summary {
                extend_line(&mut s, &mut line, "...", elem_width, hanging);
                line.push_str(self.sep);
            }
            for i in (2..=trailing).rev() {
                let w = child(n - i, self);
                extend_line(&mut s, &mut line, &w, elem_width, hanging);
                line.push_str(self.sep);
            }
            let w = child(n - 1, self);
            extend_line(&mut s, &mut line, &w, elem_width, hanging);
            s.push_str(&line);
        } else {
            let sep = format!("{}{}", self.sep.trim_end(), "\n".repeat(left - 1));
            for i in 0..leading {
                s.push_str(hanging);
                s.push_str(&child(i, self));
                s.push_str(&sep);
            }
            if summary {
                s.push_str(hanging);
                s.push_str("...");
                s.push_str(&sep);
            }
            for i in (2..=trailing).rev() {
                s.push_str(hanging);
                s.push_str(&child(n - i, self));
                s.push_str(&sep);
            }
            s.push_str(hanging);
            s.push_str(&child(n - 1, self));
        }
        format!("[{}]", &s[hanging.len().min(s.len())..])
    }
}

/// `<3x2 float32 @cpu(0)>`; a 0-d array gives `<scalar float32 @cpu(0)>`.
pub fn trailer(a: &Array) -> String {
    format!("<{} {} @{}>", fmt_shape_x(a.shape()), a.dtype(), a.device())
}

/// What the REPL shows: body, newline, trailer; a 0-d array on one line
/// (`1.5 <scalar float32 @cpu(0)>`). An array that cannot be read (a failed
/// GPU) shows the error in place of its body.
pub fn repr(a: &Array) -> String {
    let body = format_array(a).unwrap_or_else(|e| format!("<{}>", e.full_message()));
    if a.ndim() == 0 {
        format!("{body} {}", trailer(a))
    } else {
        format!("{body}\n{}", trailer(a))
    }
}

/// NumPy's `array2string(a, separator=sep, prefix=...)`: the elements
/// between `sep`, continuation lines indented past a prefix of
/// `prefix` columns (not written), a 0-d array as its scalar.
pub fn array_to_string(a: &Array, sep: &str, prefix: usize) -> Result<String> {
    if a.ndim() == 0 {
        return format_array(a);
    }
    if a.size() == 0 {
        return Ok("[]".into());
    }
    layout(a, None, sep, prefix, line_width())
}

/// NumPy's `repr()` of an array: `array([1, 2])`, `array([0.5, 1. ],
/// dtype=float32)`, continuation lines under the first element, `dtype=`
/// unless NumPy implies it (float64, int64, bool, complex128), `shape=` for
/// summarised and empty n-d arrays (NumPy 2.2). What `repr(x)` gives and what
/// tuples, lists and dicts show for an array they hold. A 0-d array shows its
/// scalar, as the scalars NumPy gives for an element print.
pub fn numpy_repr(a: &Array) -> Result<String> {
    if a.ndim() == 0 {
        return format_array(a);
    }
    let width = line_width();
    let prefix = "array(";
    let body = if a.size() == 0 {
        "[]".to_string()
    } else {
        layout(a, None, ", ", prefix.len(), width.saturating_sub(1))?
    };
    let mut extras = Vec::new();
    if (a.size() == 0 && a.ndim() != 1) || a.size() > options().threshold {
        extras.push(format!("shape={}", py_shape(a.shape())));
    }
    let implied = matches!(
        a.dtype(),
        DType::Float64 | DType::Int64 | DType::Bool | DType::Complex128
    );
    if !implied || a.size() == 0 {
        extras.push(format!("dtype={}", a.dtype()));
    }
    if extras.is_empty() {
        return Ok(format!("{prefix}{body})"));
    }
    let arr = format!("{prefix}{body},");
    let extra = format!("{})", extras.join(", "));
    let last = arr.len() - arr.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last + extra.len() + 1 > width {
        format!("\n{}", " ".repeat(prefix.len()))
    } else {
        " ".to_string()
    };
    Ok(format!("{arr}{spacer}{extra}"))
}

/// A shape as a Python tuple: `(2000,)`, `(0, 3)`.
fn py_shape(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// What Jupyter shows for an array: the text the REPL shows (NumPy's layout,
/// any number of dimensions, summarised alike) with the trailer on its own
/// line below it, which never wraps. One layout for 0-d to n-d.
pub fn format_html(a: &Array) -> Result<String> {
    Ok(format!(
        "<div class=\"gcalc-array\"><pre style=\"margin:0\">{}</pre><div class=\"gcalc-caption\" style=\"white-space:nowrap;font-family:monospace;font-size:85%;opacity:0.75\">{}</div></div>",
        esc(&format_array(a)?),
        esc(&trailer(a))
    ))
}
