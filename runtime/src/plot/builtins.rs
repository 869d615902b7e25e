//! The plotting builtins (`plot`, `scatter`, `hist`, `imshow`, `bar`,
//! `savefig`): argument parsing and checks, and where a new figure goes.
//!
//! When a figure is written to a file: at creation. With `file=` it is
//! written there, in every front-end. Without it, when the session's output
//! is not rich (the REPL, scripts), it is written to the first free
//! `figure-N.png` (N = 1, 2, ...) in the working directory, never overwriting
//! a file. Either way one line on stdout says where
//! (`figure written to figure-1.png`). When the output is rich (Jupyter) and
//! no `file=` is given, nothing is written: the figure shows inline as PNG and
//! SVG when it is the value of a cell or passed to `display()`.

use super::data::{check, check_at, labels, matrix, numbers, series_values};
use super::figure::{Chart, Figure, Format, Mark, Series, Style};
use super::{draw, files};
use crate::builtins::lang::int_arg;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, builtin};
use crate::value::Value;
use std::sync::Arc;

const STYLE_KW: &[&str] = &[
    "title", "xlabel", "ylabel", "legend", "grid", "logx", "logy", "size", "file",
];

pub static OPS: &[OpDef] = &[
    builtin!(
        "plot",
        "plot(x, y, labels=none, title=, xlabel=, ylabel=, legend=, grid=false, logx=false, logy=false, size=(640, 480), file=)",
        "A line plot of y against x (or of y against 0..n with one argument). y may hold several series: a list of arrays or a 2-D array's columns, named by labels=[...]. Jupyter shows the figure inline; the REPL and scripts write it to file= or figure-N.png and say where.",
        plot
    ),
    builtin!(
        "scatter",
        "scatter(x, y, labels=none, c=none, title=, xlabel=, ylabel=, legend=, grid=false, logx=false, logy=false, size=(640, 480), file=) | scatter(x, devices, axis=0)",
        "Points at (x, y), like plot without the lines. c=groups (one number per point, e.g. cluster labels) colours the points by group, one legend entry per distinct value (labels= names them, in increasing order of the values). With a list of devices as second argument (scatter(x, [gpu(0), gpu(1)])): split x along `axis` into len(devices) parts, as array_split does (the first parts one longer when it does not divide evenly), and copy part i to devices[i] (GPU to GPU by peer copy); gives the list of parts, a batch split over the GPUs (gather joins them).",
        scatter
    ),
    builtin!(
        "hist",
        "hist(x, bins=10, title=, xlabel=, ylabel=, grid=false, logx=false, logy=false, size=(640, 480), file=)",
        "A histogram of the values of x in `bins` equal-width bins from the smallest to the largest (log-spaced with logx=true).",
        hist
    ),
    builtin!(
        "imshow",
        "imshow(m, title=, xlabel=, ylabel=, size=(640, 480), file=)",
        "A 2-D array as an image (row 0 at the top), coloured with viridis from its smallest to its largest value, with a colorbar.",
        imshow
    ),
    builtin!(
        "bar",
        "bar(labels, values, title=, xlabel=, ylabel=, grid=false, logy=false, size=(640, 480), file=)",
        "A bar chart: one bar per label, as high as its value.",
        bar
    ),
    builtin!(
        "savefig",
        "savefig(fig, path)",
        "Write a figure to a file, as PNG or SVG after the path's extension (.png, .svg). The write is atomic.",
        savefig
    ),
];

fn text(f: &str, key: &str, v: Value) -> Result<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(Error::type_(format!(
            "{f}(): {key}= must be a string, not {}",
            other.a_type_name()
        ))),
    }
}

fn size(f: &str, v: Value) -> Result<(u32, u32)> {
    let bad = |got: String| {
        Error::value(format!(
            "{f}(): size= must be (width, height) in pixels, each from 64 to 8192; got {got}"
        ))
        .with_help("e.g. size=(800, 600)")
    };
    let items = match &v {
        Value::Tuple(_) | Value::List(_) if v.seq_items().is_some_and(|t| t.len() == 2) => {
            v.seq_items().unwrap_or_default()
        }
        other => return Err(bad(crate::display::repr(other))),
    };
    let mut wh = [0u32; 2];
    for (k, item) in items.iter().enumerate() {
        let n = int_arg(item, "size").map_err(|_| bad(crate::display::repr(&v)))?;
        if !(64..=8192).contains(&n) {
            return Err(bad(crate::display::repr(&v)));
        }
        wh[k] = n as u32;
    }
    Ok((wh[0], wh[1]))
}

/// The keywords every plotting builtin takes, and `file=` (its format checked now).
fn style(i: &Interp, a: &mut Args, f: &str) -> Result<(Style, Option<String>)> {
    let mut s = Style::default();
    for (key, slot) in [
        ("title", &mut s.title),
        ("xlabel", &mut s.xlabel),
        ("ylabel", &mut s.ylabel),
    ] {
        if let Some(v) = a.kw(key) {
            *slot = Some(text(f, key, v)?);
        }
    }
    if let Some(v) = a.kw("legend") {
        s.legend = Some(i.truthy(&v)?);
    }
    for (key, slot) in [
        ("grid", &mut s.grid),
        ("logx", &mut s.logx),
        ("logy", &mut s.logy),
    ] {
        if let Some(v) = a.kw(key) {
            *slot = i.truthy(&v)?;
        }
    }
    if let Some(v) = a.kw("size") {
        (s.width, s.height) = size(f, v)?;
    }
    let file = match a.kw("file") {
        Some(v) => {
            let p = text(f, "file", v)?;
            Format::from_path(&p)?;
            Some(p)
        }
        None => None,
    };
    Ok((s, file))
}

/// Keywords accepted by a builtin, for `finish_with`'s suggestions.
fn accepted(extra: &[&'static str], drop: &[&str]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = STYLE_KW
        .iter()
        .copied()
        .filter(|k| !drop.contains(k))
        .collect();
    v.extend_from_slice(extra);
    v
}

/// Check a new figure can be drawn, write it where it must go, and give it as a value.
fn deliver(i: &mut Interp, fig: Figure, file: Option<String>) -> Result<Value> {
    draw::ranges(&fig)?;
    if let Some(path) = file {
        fig.save(&path)?;
        i.print(&format!("figure written to {path}\n"));
    } else if !i.out.rich() {
        let path = files::write_numbered(std::path::Path::new("."), "png", &fig.png()?)?;
        i.print(&format!("figure written to {}\n", path.display()));
    }
    Ok(Value::Object(Arc::new(fig)))
}

fn xy(i: &mut Interp, mut a: Args, f: &'static str, mark: Mark) -> Result<Value> {
    let first = a.req("x")?;
    let second = a.opt("y")?;
    let names = a
        .kw("labels")
        .map(|v| labels(f, "labels", &v))
        .transpose()?;
    let groups = match (mark, a.kw("c")) {
        (Mark::Point, Some(v)) => Some(numbers(f, "c", &v)?),
        _ => None,
    };
    let (style, file) = style(i, &mut a, f)?;
    let extra: &[&'static str] = if mark == Mark::Point {
        &["labels", "c"]
    } else {
        &["labels"]
    };
    a.finish_with(&accepted(extra, &[]))?;
    let (x, ys) = match second {
        Some(y) => (Some(numbers(f, "x", &first)?), series_values(f, &y)?),
        None => (None, series_values(f, &first)?),
    };
    if let Some(x) = &x {
        check(f, "x", x)?;
    }
    if let Some(c) = groups {
        let (Some(x), [y]) = (&x, &ys[..]) else {
            return Err(
                Error::value(format!("{f}(): c= colours the points of one x and one y"))
                    .with_help("e.g. scatter(X[:, 0], X[:, 1], c=labels)"),
            );
        };
        check(f, "y", y)?;
        if x.len() != y.len() {
            return Err(
                Error::shape(f, format!("x has {} values but y has {}", x.len(), y.len()))
                    .with_help("x and y must have the same length"),
            );
        }
        let series = super::groups::split(f, x, y, &c, names)?;
        return deliver(i, Figure::new(f, Chart::Xy { mark, series }, style), file);
    }
    if let Some(n) = &names
        && n.len() != ys.len()
    {
        return Err(Error::value(format!(
            "{f}(): {} label{} for {} series",
            n.len(),
            if n.len() == 1 { "" } else { "s" },
            ys.len()
        ))
        .with_help("give one label per series, e.g. labels=[\"a\", \"b\"] for y=[y1, y2]"));
    }
    let multi = ys.len() > 1;
    let mut series = Vec::with_capacity(ys.len());
    for (k, y) in ys.into_iter().enumerate() {
        let name = if multi { format!("y[{k}]") } else { "y".into() };
        check(f, &name, &y)?;
        let x = match &x {
            Some(x) if x.len() != y.len() => {
                return Err(Error::shape(
                    f,
                    format!("x has {} values but {name} has {}", x.len(), y.len()),
                )
                .with_help("x and y must have the same length"));
            }
            Some(x) => x.clone(),
            None => (0..y.len()).map(|j| j as f64).collect(),
        };
        let label = names.as_ref().map(|n| n[k].clone());
        series.push(Series { label, x, y });
    }
    deliver(i, Figure::new(f, Chart::Xy { mark, series }, style), file)
}

fn plot(i: &mut Interp, a: Args) -> Result<Value> {
    xy(i, a, "plot", Mark::Line)
}

fn scatter(i: &mut Interp, a: Args) -> Result<Value> {
    if crate::ops::collective::splits_over_devices(&a) {
        return crate::ops::collective::scatter(i, a);
    }
    xy(i, a, "scatter", Mark::Point)
}

/// Bin edges and counts of `x` (equal width, or equal in log space).
pub fn histogram(x: &[f64], bins: usize, log: bool) -> (Vec<f64>, Vec<f64>) {
    let t = |v: f64| if log { v.log10() } else { v };
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(t(*v)), h.max(t(*v)))
        });
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, hi + 0.5)
    };
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0.0; bins];
    for v in x {
        let k = (((t(*v) - lo) / width).floor().max(0.0) as usize).min(bins - 1);
        counts[k] += 1.0;
    }
    let edges = (0..=bins)
        .map(|k| {
            let e = if k == bins { hi } else { lo + width * k as f64 };
            if log { 10f64.powf(e) } else { e }
        })
        .collect();
    (edges, counts)
}

fn hist(i: &mut Interp, mut a: Args) -> Result<Value> {
    let x = numbers("hist", "x", &a.req("x")?)?;
    let bins = match a.opt("bins")? {
        Some(v) => int_arg(&v, "bins")?,
        None => 10,
    };
    let (style, file) = style(i, &mut a, "hist")?;
    a.finish_with(&accepted(&["bins"], &["legend"]))?;
    if !(1..=10_000).contains(&bins) {
        return Err(
            Error::value(format!("hist(): bins must be from 1 to 10000, got {bins}"))
                .with_help("e.g. hist(x, bins=30)"),
        );
    }
    check("hist", "x", &x)?;
    if style.logx
        && let Some(p) = x.iter().position(|v| *v <= 0.0)
    {
        return Err(Error::value(format!(
            "hist(): logx=true needs positive data, but x[{p}] is {}",
            crate::display::float_text(x[p])
        ))
        .with_help("drop the values <= 0 or plot without logx"));
    }
    let (edges, counts) = histogram(&x, bins as usize, style.logx);
    deliver(
        i,
        Figure::new("hist", Chart::Hist { edges, counts }, style),
        file,
    )
}

fn imshow(i: &mut Interp, mut a: Args) -> Result<Value> {
    let m = a.req("m")?;
    let (style, file) = style(i, &mut a, "imshow")?;
    a.finish_with(&accepted(&[], &["legend", "grid", "logx", "logy"]))?;
    let (rows, cols, data) = matrix("imshow", &m)?;
    if rows == 0 || cols == 0 {
        return Err(
            Error::value(format!("imshow(): the matrix is empty ({rows} x {cols})"))
                .with_help("an image needs at least one row and one column"),
        );
    }
    check_at("imshow", "m", &data, &|k| {
        format!("({}, {})", k / cols, k % cols)
    })?;
    let chart = Chart::Image { rows, cols, data };
    deliver(i, Figure::new("imshow", chart, style), file)
}

fn bar(i: &mut Interp, mut a: Args) -> Result<Value> {
    let names = labels("bar", "labels", &a.req("labels")?)?;
    let values = numbers("bar", "values", &a.req("values")?)?;
    let (style, file) = style(i, &mut a, "bar")?;
    a.finish_with(&accepted(&[], &["legend", "logx"]))?;
    if names.len() != values.len() {
        return Err(Error::shape(
            "bar",
            format!("{} labels but {} values", names.len(), values.len()),
        )
        .with_help("give one label per value"));
    }
    check("bar", "values", &values)?;
    let chart = Chart::Bars {
        labels: names,
        values,
    };
    deliver(i, Figure::new("bar", chart, style), file)
}

fn savefig(_i: &mut Interp, mut a: Args) -> Result<Value> {
    let fig = a.req("fig")?;
    let path = text("savefig", "path", a.req("path")?)?;
    a.finish()?;
    let Value::Object(o) = &fig else {
        return Err(not_a_figure(&fig));
    };
    let Some(fig) = o.as_any().downcast_ref::<Figure>() else {
        return Err(not_a_figure(&fig));
    };
    fig.save(&path)?;
    Ok(Value::None)
}

fn not_a_figure(v: &Value) -> Error {
    Error::type_(format!("savefig() needs a figure, not {}", v.a_type_name())).with_help(
        "make one with plot, scatter, hist, imshow or bar: fig = plot(y); savefig(fig, \"a.png\")",
    )
}
