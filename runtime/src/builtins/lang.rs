//! Builtins of the language: print, len, range, args, input, display,
//! progress, timeit, conversions and comparisons of whole arrays.

use crate::display::{repr, to_text};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, builtin};
use crate::output::Progress;
use crate::value::{Object, Value};
use std::time::Instant;

pub static OPS: &[OpDef] = &[
    builtin!(
        "print",
        "print(values..., sep=\" \", end=\"\\n\", file=stdout, flush=false)",
        "Write the values to standard output (file=stderr: standard error), separated by `sep`, then `end`. Arrays print as NumPy prints them. Output is written at once, so flush=true changes nothing.",
        print_
    ),
    builtin!(
        "eprint",
        "eprint(values...)",
        "Like print, to standard error.",
        eprint
    ),
    builtin!(
        "len",
        "len(x)",
        "Length of a string, tuple, list, range, or the first axis of an array.",
        len
    ),
    builtin!(
        "range",
        "range(stop) | range(start, stop, step=1)",
        "Integers from start (0) up to but not including stop, for loops.",
        range
    ),
    builtin!(
        "args",
        "args()",
        "The command-line arguments given to a script after its file name, as a list of strings.",
        args_
    ),
    builtin!(
        "input",
        "input(prompt=\"\")",
        "Read a line of text from the user (the terminal or the notebook's input box).",
        input
    ),
    builtin!(
        "display",
        "display(x)",
        "Show a value now (rich output in Jupyter: arrays as tables, figures inline).",
        display
    ),
    builtin!(
        "clear_output",
        "clear_output(wait=false)",
        "Clear the output of the current cell (Jupyter) or do nothing (terminal).",
        clear_output
    ),
    builtin!(
        "progress",
        "progress(iterable)",
        "Wrap a loop's iterable to show a progress bar with rate and ETA.",
        progress
    ),
    builtin!(
        "timeit",
        "timeit(f, n=100)",
        "Call the function `f` n times (after one warm-up call), waiting for the devices, and give the mean seconds per call.",
        timeit
    ),
    builtin!(
        "str",
        "str(x)",
        "The text of a value, as print shows it.",
        str_
    ),
    builtin!(
        "int",
        "int(x, base=10)",
        "An integer from a number, a one-element array or a string (in `base`, 2 to 36, for a string: int(\"ff\", 16)).",
        int_
    ),
    builtin!(
        "float",
        "float(x)",
        "A float from a number, a one-element array or a string.",
        float_
    ),
    builtin!("type", "type(x)", "The name of a value's type.", type_),
    builtin!(
        "allclose",
        "allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=false)",
        "Whether every element of a and b is close: |a - b| <= atol + rtol * |b| (NumPy's rule); with equal_nan=true a nan matches a nan. Operands on one device.",
        allclose
    ),
    builtin!(
        "enumerate",
        "enumerate(xs, start=0)",
        "A list of (index, item) tuples; arrays give their rows. enumerate(progress(xs)) shows a bar over the result.",
        enumerate
    ),
    builtin!(
        "zip",
        "zip(xs, ys, ...)",
        "A list of tuples taking one item from each sequence (arrays give their rows), as long as the shortest.",
        zip
    ),
];

fn join_values(args: &mut Args) -> Result<String> {
    let sep = match args.kw("sep") {
        Some(Value::Str(s)) => s.to_string(),
        None | Some(Value::None) => " ".into(),
        Some(other) => {
            return Err(Error::type_(format!(
                "sep must be a string, not {}",
                other.a_type_name()
            )));
        }
    };
    let end = match args.kw("end") {
        Some(Value::Str(s)) => s.to_string(),
        None | Some(Value::None) => "\n".into(),
        Some(other) => {
            return Err(Error::type_(format!(
                "end must be a string, not {}",
                other.a_type_name()
            )));
        }
    };
    let parts: Vec<String> = args.rest().iter().map(to_text).collect();
    Ok(parts.join(&sep) + &end)
}

fn print_(i: &mut Interp, mut a: Args) -> Result<Value> {
    let to_stderr = match a.kw("file") {
        Some(f) => crate::builtins::pyobjects::file_is_stderr(&f)?,
        None => false,
    };
    if let Some(f) = a.kw("flush")
        && !matches!(f, Value::Bool(_) | Value::Int(_) | Value::None)
    {
        return Err(Error::type_(format!(
            "print(): flush must be true or false, not {}",
            f.a_type_name()
        )));
    }
    let s = join_values(&mut a)?;
    a.finish()?;
    if to_stderr {
        i.out.stderr(&s);
    } else {
        i.out.stdout(&s);
    }
    Ok(Value::None)
}

fn eprint(i: &mut Interp, mut a: Args) -> Result<Value> {
    let s = join_values(&mut a)?;
    a.finish()?;
    i.out.stderr(&s);
    Ok(Value::None)
}

fn len(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::Int(match &x {
        Value::Str(s) => s.chars().count() as i64,
        Value::Tuple(t) => t.len() as i64,
        Value::List(l) => l.len() as i64,
        Value::Dict(d) => d.len() as i64,
        Value::Array(arr) if arr.ndim() > 0 => arr.shape()[0] as i64,
        Value::Range(s, e, st) => crate::value::range_len(*s, *e, *st) as i64,
        Value::Object(o) if o.len().is_some() => o.len().unwrap_or(0) as i64,
        other => {
            return Err(Error::type_(format!("{} has no length", repr_type(other))));
        }
    }))
}

fn repr_type(v: &Value) -> String {
    match v {
        Value::Array(a) if a.ndim() == 0 => "a 0-d array".into(),
        other => other.a_type_name(),
    }
}

/// An integer argument (weak int, or an integer 0-d array).
pub fn int_arg(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::Array(a) if a.size() == 1 && (a.dtype().is_int() || a.dtype().is_bool()) => {
            Ok(a.to_vec::<i64>()?[0])
        }
        other => Err(Error::type_(format!(
            "{what} must be an integer, not {}",
            repr_type(other)
        ))),
    }
}

/// A float argument (any number, or a one-element array).
pub fn float_arg(v: &Value, what: &str) -> Result<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        Value::Bool(b) => Ok(*b as i64 as f64),
        Value::Array(a) if a.size() == 1 => Ok(a.to_vec::<f64>()?[0]),
        other => Err(Error::type_(format!(
            "{what} must be a number, not {}",
            repr_type(other)
        ))),
    }
}

fn range(_: &mut Interp, mut a: Args) -> Result<Value> {
    let first = a.req("stop")?;
    let second = a.opt("stop2")?;
    let step = a
        .opt("step")?
        .map(|v| int_arg(&v, "step"))
        .transpose()?
        .unwrap_or(1);
    a.finish()?;
    let (start, stop) = match second {
        None => (0, int_arg(&first, "stop")?),
        Some(s) => (int_arg(&first, "start")?, int_arg(&s, "stop")?),
    };
    if step == 0 {
        return Err(Error::value("range() step must not be zero"));
    }
    Ok(Value::Range(start, stop, step))
}

fn args_(i: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::list(
        i.script_args
            .iter()
            .map(|s| Value::str(s.as_str()))
            .collect(),
    ))
}

fn input(i: &mut Interp, mut a: Args) -> Result<Value> {
    let prompt = a.opt("prompt")?.map(|v| to_text(&v)).unwrap_or_default();
    a.finish()?;
    match i.out.input(&prompt) {
        Some(s) => Ok(Value::str(s.trim_end_matches(['\n', '\r']))),
        None => {
            // Ctrl-C at the prompt, or a Jupyter interrupt, ends the wait.
            i.check_interrupt()?;
            Err(Error::io("input(): no input available (end of input)"))
        }
    }
}

fn display(i: &mut Interp, mut a: Args) -> Result<Value> {
    let vals = a.rest();
    a.finish()?;
    for v in vals {
        if let Some(d) = crate::display::display_data(&v) {
            i.out.display(&d);
        }
    }
    Ok(Value::None)
}

fn clear_output(i: &mut Interp, mut a: Args) -> Result<Value> {
    let wait = a
        .opt("wait")?
        .map(|v| i.truthy(&v))
        .transpose()?
        .unwrap_or(false);
    a.finish()?;
    i.out.clear_output(wait);
    Ok(Value::None)
}

/// The value `progress(xs)` gives: iterating it shows a bar.
pub struct ProgressIter {
    pub inner: Value,
}

/// A running progress bar.
pub struct ProgressState {
    start: Instant,
    last: Instant,
    done: u64,
    /// Items in the whole iterable, counted when the loop starts.
    total: Option<u64>,
}

impl ProgressIter {
    /// Start a bar over `total` items (`None`: unknown).
    pub fn start(&self, total: Option<u64>) -> ProgressState {
        let now = Instant::now();
        ProgressState {
            start: now,
            last: now,
            done: 0,
            total,
        }
    }
}

impl ProgressState {
    pub(crate) fn step(&mut self, interp: &mut Interp, ended: bool) {
        if ended {
            return;
        }
        self.done += 1;
        // Redraw at most ten times a second.
        if self.last.elapsed().as_millis() >= 100 || self.done == 1 {
            self.last = Instant::now();
            let p = Progress {
                done: self.done - 1,
                total: self.total,
                elapsed_s: self.start.elapsed().as_secs_f64(),
                finished: false,
            };
            interp.out.progress(&p);
        }
    }
    pub(crate) fn finish(&mut self, interp: &mut Interp) {
        let p = Progress {
            done: self.done,
            total: self.total,
            elapsed_s: self.start.elapsed().as_secs_f64(),
            finished: true,
        };
        interp.out.progress(&p);
    }
}

impl Object for ProgressIter {
    fn type_name(&self) -> &'static str {
        "progress"
    }
    fn repr(&self) -> String {
        format!("progress({})", repr(&self.inner))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn progress(_: &mut Interp, mut a: Args) -> Result<Value> {
    let inner = a.req("iterable")?;
    a.finish()?;
    Ok(Value::Object(std::sync::Arc::new(ProgressIter { inner })))
}

fn timeit(i: &mut Interp, mut a: Args) -> Result<Value> {
    let f = a.req("f")?;
    let n = a
        .opt("n")?
        .map(|v| int_arg(&v, "n"))
        .transpose()?
        .unwrap_or(100);
    let span = a.span;
    a.finish_with(&["n"])?;
    if n <= 0 {
        return Err(Error::value("timeit(): n must be positive"));
    }
    i.call_value(f.clone(), vec![], vec![], span)?;
    super::device::sync_all()?;
    let t0 = Instant::now();
    for _ in 0..n {
        i.check_interrupt()?;
        i.call_value(f.clone(), vec![], vec![], span)?;
    }
    super::device::sync_all()?;
    Ok(Value::Float(t0.elapsed().as_secs_f64() / n as f64))
}

fn str_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::str(to_text(&x)))
}

fn int_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    let base = a.opt("base")?.map(|v| int_arg(&v, "base")).transpose()?;
    a.finish()?;
    if let Some(b) = base {
        let Value::Str(s) = &x else {
            return Err(
                Error::type_("int() takes a base only with a string").with_help("int(\"ff\", 16)")
            );
        };
        if !(2..=36).contains(&b) {
            return Err(Error::value(format!(
                "int(): base must be 2 to 36, not {b}"
            )));
        }
        let t = s.trim().replace('_', "");
        let (neg, t) = match t.strip_prefix('-') {
            Some(r) => (true, r.to_string()),
            None => (false, t.trim_start_matches('+').to_string()),
        };
        let prefix = match b {
            16 => ["0x", "0X"],
            8 => ["0o", "0O"],
            2 => ["0b", "0B"],
            _ => ["", ""],
        };
        let digits = prefix
            .iter()
            .filter(|p| !p.is_empty())
            .find_map(|p| t.strip_prefix(p))
            .unwrap_or(&t);
        return i64::from_str_radix(digits, b as u32)
            .map(|v| Value::Int(if neg { -v } else { v }))
            .map_err(|_| {
                Error::value(format!(
                    "int(): cannot read {s:?} as an integer in base {b}"
                ))
            });
    }
    match &x {
        Value::Str(s) => s
            .trim()
            .parse::<i64>()
            .map(Value::Int)
            .map_err(|_| Error::value(format!("int(): cannot read {s:?} as an integer"))),
        Value::Float(f) if f.is_finite() => Ok(Value::Int(f.trunc() as i64)),
        Value::Float(f) => Err(Error::value(format!(
            "int(): cannot convert {f} to an integer"
        ))),
        other => Ok(Value::Int(float_arg(other, "int()")?.trunc() as i64)),
    }
}

fn float_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    match &x {
        Value::Str(s) => s
            .trim()
            .parse::<f64>()
            .map(Value::Float)
            .map_err(|_| Error::value(format!("float(): cannot read {s:?} as a number"))),
        other => Ok(Value::Float(float_arg(other, "float()")?)),
    }
}

fn type_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("x")?;
    a.finish()?;
    Ok(Value::str(x.type_name()))
}

fn allclose(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.req("a")?;
    let y = a.req("b")?;
    let rtol = a
        .opt("rtol")?
        .map(|v| float_arg(&v, "rtol"))
        .transpose()?
        .unwrap_or(1e-5);
    let atol = a
        .opt("atol")?
        .map(|v| float_arg(&v, "atol"))
        .transpose()?
        .unwrap_or(1e-8);
    let equal_nan = crate::ops::stat_args::flag_with(a.opt("equal_nan")?, false, |v| {
        Error::type_(format!(
            "equal_nan must be true or false, got {}",
            v.a_type_name()
        ))
    })?;
    a.finish_with(&["rtol", "atol", "equal_nan"])?;
    let fx = i.float_x();
    let xa = crate::array::create::value_to_array(&x, None, fx)?;
    let ya = crate::array::create::value_to_array(&y, None, fx)?;
    if xa.device() != ya.device() {
        return Err(Error::device_mismatch("allclose", xa.device(), ya.device()));
    }
    let shape = crate::array::layout::broadcast_shapes(xa.shape(), ya.shape(), "allclose")?;
    let xs = xa.to_f64_vec()?;
    let ys = ya.to_f64_vec()?;
    let xb = crate::array::layout::broadcast_strides(
        xa.shape(),
        &crate::array::layout::contiguous_strides(xa.shape()),
        &shape,
    );
    let yb = crate::array::layout::broadcast_strides(
        ya.shape(),
        &crate::array::layout::contiguous_strides(ya.shape()),
        &shape,
    );
    let xo = crate::array::layout::OffsetIter::new(&shape, &xb, 0);
    let yo = crate::array::layout::OffsetIter::new(&shape, &yb, 0);
    let ok = xo.zip(yo).all(|(p, q)| {
        let (u, v) = (xs[p], ys[q]);
        (u == v)
            || (u - v).abs() <= atol + rtol * v.abs()
            || (equal_nan && u.is_nan() && v.is_nan())
    });
    Ok(Value::Bool(ok))
}

fn seq(v: &Value) -> Result<Vec<Value>> {
    match v {
        Value::Tuple(t) => Ok(t.to_vec()),
        Value::List(l) => Ok(l.snapshot().to_vec()),
        Value::Dict(d) => Ok(d.keys()),
        Value::Range(s, e, st) => {
            let mut out = Vec::new();
            let mut c = *s;
            while (*st > 0 && c < *e) || (*st < 0 && c > *e) {
                out.push(Value::Int(c));
                c += st;
            }
            Ok(out)
        }
        Value::Str(s) => Ok(s.chars().map(|c| Value::str(c.to_string())).collect()),
        // Arrays by their first axis, as a `for` loop walks them.
        Value::Array(x) if x.ndim() > 0 => (0..x.shape()[0])
            .map(|i| {
                x.index(&[crate::array::index::Index::Int(i as i64)])
                    .map(Value::Array)
            })
            .collect(),
        other => Err(
            Error::type_(format!("expected a sequence, not {}", other.a_type_name()))
                .with_help("enumerate and zip take lists, tuples, ranges, strings and arrays"),
        ),
    }
}

/// `enumerate(progress(xs))`, `zip(progress(xs), ys)`: the bar moves to the
/// outside (`progress(enumerate(xs))`), so it ticks once per item of the
/// result and its total is the result's length (tqdm's habit, with a total).
fn unwrap_progress(v: Value) -> (Value, bool) {
    if let Value::Object(o) = &v
        && let Some(p) = o.as_any().downcast_ref::<ProgressIter>()
    {
        return (p.inner.clone(), true);
    }
    (v, false)
}

fn with_progress(v: Value, wrap: bool) -> Value {
    if wrap {
        Value::Object(std::sync::Arc::new(ProgressIter { inner: v }))
    } else {
        v
    }
}

fn enumerate(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (x, bar) = unwrap_progress(a.req("xs")?);
    let start = a
        .opt("start")?
        .map(|v| int_arg(&v, "start"))
        .transpose()?
        .unwrap_or(0);
    a.finish()?;
    let items = seq(&x)?
        .into_iter()
        .enumerate()
        .map(|(k, v)| Value::tuple(vec![Value::Int(start + k as i64), v]))
        .collect();
    Ok(with_progress(Value::list(items), bar))
}

fn zip(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mut bar = false;
    let seqs: Vec<Vec<Value>> = a
        .rest()
        .iter()
        .map(|v| {
            let (v, b) = unwrap_progress(v.clone());
            bar |= b;
            seq(&v)
        })
        .collect::<Result<_>>()?;
    a.finish()?;
    let n = seqs.iter().map(|s| s.len()).min().unwrap_or(0);
    let items = (0..n)
        .map(|k| Value::tuple(seqs.iter().map(|s| s[k].clone()).collect()))
        .collect();
    Ok(with_progress(Value::list(items), bar))
}
