//! How values look: at the prompt (`repr`, with array trailers) and in
//! `print` (`to_text`, NumPy's str for arrays), and as rich display data.

use crate::array::print;
use crate::dtype::DType;
use crate::output::DisplayData;
use crate::value::Value;

/// Python-style float text: shortest round-trip, always with a `.` or exponent.
pub fn float_text(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        // 1e-05, 1.5e+20 like Python
        let s = format!("{f:e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = e.parse().unwrap_or(0);
        return format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    let s = format!("{f}");
    if s.contains('.') { s } else { format!("{s}.0") }
}

/// The text `print` shows for a value.
pub fn to_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Array(a) => {
            print::format_array(a).unwrap_or_else(|e| format!("<{}>", e.full_message()))
        }
        other => repr(other),
    }
}

/// The text a prompt shows for a value.
pub fn repr(v: &Value) -> String {
    match v {
        Value::None => "none".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => float_text(*f),
        Value::Complex(re, im) => print::format_complex_scalar(*re, *im, DType::Complex128),
        Value::Str(s) => format!("{s:?}"),
        Value::Array(a) => print::repr(a),
        // Walked with an explicit stack: any depth of nesting prints, and a
        // list or dict that holds itself shows `[...]` / `{...}` there.
        Value::Tuple(_) | Value::List(_) | Value::Dict(_) => crate::nested::repr_nested(v, py_repr),
        Value::Func(f) => {
            let params: Vec<&str> = f.def.params.iter().map(|p| p.name.name.as_str()).collect();
            format!("<fn {}({})>", f.name, params.join(", "))
        }
        Value::Builtin(d) => format!("<builtin {}>", d.sig),
        Value::Method(recv, d) => format!("<method {} of {}>", d.name, recv.type_name()),
        Value::Device(d) => d.to_string(),
        Value::DType(d) => d.name().to_string(),
        Value::Range(a, b, s) => {
            if *s == 1 {
                format!("range({a}, {b})")
            } else {
                format!("range({a}, {b}, {s})")
            }
        }
        Value::Object(o) => o.repr(),
    }
}

/// Python's `repr()` of a value: what `repr(x)` and `f"{x!r}"` give and
/// what tuples, lists and dicts show for their items. Arrays show as NumPy's
/// repr (`array([1, 2])`, `array([0.5, 1. ], dtype=float32)`), without the
/// prompt's `<2 int64 @cpu(0)>` trailer.
pub fn py_repr(v: &Value) -> String {
    match v {
        Value::Array(a) => {
            print::numpy_repr(a).unwrap_or_else(|e| format!("<{}>", e.full_message()))
        }
        Value::Tuple(_) | Value::List(_) | Value::Dict(_) => crate::nested::repr_nested(v, py_repr),
        other => repr(other),
    }
}

/// Rich display data for a value (`None` for `none`, which a prompt does not show).
/// A figure gives PNG and SVG (rendered once per figure) and its text.
pub fn display_data(v: &Value) -> Option<DisplayData> {
    match v {
        Value::None => None,
        Value::Array(a) => Some(DisplayData {
            text: repr(v),
            html: print::format_html(a).ok(),
            ..Default::default()
        }),
        Value::Object(o) => {
            if let Some(fig) = o.as_any().downcast_ref::<crate::plot::Figure>() {
                return Some(fig.display_data());
            }
            if let Some(fig) = o.as_any().downcast_ref::<crate::output::DisplayData>() {
                return Some(fig.clone());
            }
            Some(DisplayData::text(o.repr()))
        }
        other => Some(DisplayData::text(repr(other))),
    }
}
