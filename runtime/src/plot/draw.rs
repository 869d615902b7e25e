//! Laying out and drawing one figure on any plotters backend: axis ranges
//! (linear or log), the mesh and its labels, the marks of each chart kind,
//! the legend and the colorbar. `render` turns the result into PNG or SVG.

use super::colormap;
use super::figure::{Chart, Figure, Mark};
use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;
use std::ops::Range;

/// Width of the colorbar strip at the right of an `imshow` figure.
const COLORBAR_W: u32 = 90;
/// Steps drawn in the colorbar.
pub const COLORBAR_STEPS: usize = 64;

/// Pixels of the plotting area (inside the axes), for drawing images onto it.
#[derive(Clone, Debug, PartialEq)]
pub struct PixelRect {
    pub x: Range<i32>,
    pub y: Range<i32>,
}

/// The data ranges of the axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranges {
    pub x: (f64, f64),
    pub y: (f64, f64),
}

pub(crate) fn draw_err<E: std::fmt::Debug>(e: E) -> Error {
    Error::internal(format!("drawing the figure failed: {e:?}"))
}

fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// Tick label text: short, no float noise (`0.30000000000000004` is `0.3`).
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if a < 1e-12 {
        return "0".into();
    }
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if !(1e-4..1e6).contains(&a) {
        let s = format!("{v:.2e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{e}", trim(m.to_string()));
    }
    trim(format!("{v:.4}"))
}

fn min_max(vals: impl Iterator<Item = f64>) -> (f64, f64) {
    vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// Widen a range by 5% each side (in log space for a log axis); a point becomes a range.
fn pad((lo, hi): (f64, f64), log: bool) -> (f64, f64) {
    if log {
        let (l, h) = pad((lo.log10(), hi.log10()), false);
        return (10f64.powf(l), 10f64.powf(h));
    }
    if hi > lo {
        let d = (hi - lo) * 0.05;
        (lo - d, hi + d)
    } else {
        let d = (lo.abs() * 0.05).max(0.5);
        (lo - d, hi + d)
    }
}

fn positive(f: &str, axis: &str, what: &str, vals: &[f64]) -> Result<()> {
    let bad = vals.iter().filter(|v| **v <= 0.0).count();
    if bad > 0 {
        let first = vals.iter().position(|v| *v <= 0.0).unwrap_or(0);
        return Err(Error::value(format!(
            "{f}(): log{axis}=true needs positive {what}, but {bad} of {} are <= 0 (first at index {first})",
            vals.len()
        ))
        .with_help(format!("drop those values or plot without log{axis}")));
    }
    Ok(())
}

/// The axis ranges of a figure; errors when a log axis meets values <= 0.
pub fn ranges(fig: &Figure) -> Result<Ranges> {
    let (lx, ly) = (fig.style.logx, fig.style.logy);
    let f = fig.kind;
    Ok(match &fig.chart {
        Chart::Xy { series, .. } => {
            for (i, s) in series.iter().enumerate() {
                let name = |a: &str| {
                    if series.len() > 1 {
                        format!("{a}[{i}]")
                    } else {
                        a.to_string()
                    }
                };
                if lx {
                    positive(f, "x", &format!("{} values", name("x")), &s.x)?;
                }
                if ly {
                    positive(f, "y", &format!("{} values", name("y")), &s.y)?;
                }
            }
            let x = min_max(series.iter().flat_map(|s| s.x.iter().copied()));
            let y = min_max(series.iter().flat_map(|s| s.y.iter().copied()));
            Ranges {
                x: pad(x, lx),
                y: pad(y, ly),
            }
        }
        Chart::Hist { edges, counts } => {
            if lx {
                positive(f, "x", "data", edges)?;
            }
            let top = counts.iter().copied().fold(0.0, f64::max).max(1.0);
            let y = if ly {
                let lo = counts
                    .iter()
                    .copied()
                    .filter(|c| *c > 0.0)
                    .fold(top, f64::min);
                (lo * 0.5, top * 1.5)
            } else {
                (0.0, top * 1.05)
            };
            let x = (edges[0], edges[edges.len() - 1]);
            Ranges { x, y }
        }
        Chart::Bars { values, .. } => {
            if lx {
                return Err(Error::value("bar(): logx does not apply to categories")
                    .with_help("use logy=true for a log scale of the values"));
            }
            let (lo, hi) = min_max(values.iter().copied());
            let y = if ly {
                positive(f, "y", "values", values)?;
                pad((lo, hi), true)
            } else {
                let (lo, hi) = (lo.min(0.0), hi.max(0.0));
                let d = if hi > lo { (hi - lo) * 0.05 } else { 0.5 };
                (
                    if lo < 0.0 { lo - d } else { 0.0 },
                    if hi > 0.0 { hi + d } else { 0.0 },
                )
            };
            Ranges {
                x: (-0.5, values.len() as f64 - 0.5),
                y,
            }
        }
        Chart::Image { rows, cols, .. } => {
            if lx || ly {
                return Err(
                    Error::value("imshow(): logx and logy do not apply to images")
                        .with_help("take the log of the data instead, e.g. imshow(log(m))"),
                );
            }
            Ranges {
                x: (0.0, *cols as f64),
                y: (-(*rows as f64), 0.0),
            }
        }
    })
}

/// Draw the figure on `root`; for `imshow`, the pixels the image must fill.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
) -> Result<Option<PixelRect>> {
    root.fill(&WHITE).map_err(draw_err)?;
    let r = ranges(fig)?;
    let image = matches!(fig.chart, Chart::Image { .. });
    let (main, strip) = if image {
        let (a, b) = root.split_horizontally(fig.style.width.saturating_sub(COLORBAR_W));
        (a, Some(b))
    } else {
        (root.clone(), None)
    };
    let s = &fig.style;
    let mut b = ChartBuilder::on(&main);
    b.margin(15)
        .x_label_area_size(if s.xlabel.is_some() { 55 } else { 35 })
        .y_label_area_size(if s.ylabel.is_some() { 80 } else { 60 });
    if let Some(t) = &s.title {
        b.caption(t, ("sans-serif", 22));
    }
    let (x, y) = (r.x.0..r.x.1, r.y.0..r.y.1);
    let rect = match (s.logx, s.logy) {
        (false, false) => finish(b.build_cartesian_2d(x, y).map_err(draw_err)?, fig),
        (true, false) => finish(
            b.build_cartesian_2d(x.log_scale(), y).map_err(draw_err)?,
            fig,
        ),
        (false, true) => finish(
            b.build_cartesian_2d(x, y.log_scale()).map_err(draw_err)?,
            fig,
        ),
        (true, true) => finish(
            b.build_cartesian_2d(x.log_scale(), y.log_scale())
                .map_err(draw_err)?,
            fig,
        ),
    }?;
    if let (Some(strip), Chart::Image { data, .. }) = (strip, &fig.chart) {
        colorbar(&strip, &rect, min_max(data.iter().copied()))?;
        return Ok(Some(rect));
    }
    Ok(None)
}

/// The mesh, the marks and the legend, on a chart of any coordinate kind.
fn finish<'a, DB, X, Y>(
    mut chart: ChartContext<'a, DB, Cartesian2d<X, Y>>,
    fig: &Figure,
) -> Result<PixelRect>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let s = &fig.style;
    let cats: &[String] = match &fig.chart {
        Chart::Bars { labels, .. } => labels,
        _ => &[],
    };
    let image = matches!(fig.chart, Chart::Image { .. });
    let xfmt = |v: &f64| -> String {
        if cats.is_empty() {
            return tick(*v);
        }
        let i = v.round();
        if (v - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        cats.get(i as usize).cloned().unwrap_or_default()
    };
    let yfmt = |v: &f64| -> String { if image { tick(-*v) } else { tick(*v) } };
    {
        let mut mesh = chart.configure_mesh();
        if !s.grid || image {
            mesh.disable_mesh();
        }
        if !cats.is_empty() {
            mesh.disable_x_mesh().x_labels(cats.len().min(40));
        }
        if let Chart::Image { rows, cols, .. } = &fig.chart {
            // At most one tick per cell, so small images get whole-number ticks.
            mesh.x_labels((cols + 1).min(11))
                .y_labels((rows + 1).min(11));
        }
        mesh.label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .x_label_formatter(&xfmt)
            .y_label_formatter(&yfmt);
        if let Some(l) = &s.xlabel {
            mesh.x_desc(l.as_str());
        }
        if let Some(l) = &s.ylabel {
            mesh.y_desc(l.as_str());
        }
        mesh.draw().map_err(draw_err)?;
    }
    let base = chart.y_range().start;
    match &fig.chart {
        Chart::Xy { mark, series } => {
            for (i, sr) in series.iter().enumerate() {
                let c = rgb(colormap::series(i));
                let pts = sr.x.iter().copied().zip(sr.y.iter().copied());
                let anno = match mark {
                    Mark::Line => chart
                        .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                        .map_err(draw_err)?,
                    Mark::Point => chart
                        .draw_series(pts.map(|p| Circle::new(p, 3, c.filled())))
                        .map_err(draw_err)?,
                };
                match (&sr.label, mark) {
                    (Some(l), Mark::Point) => {
                        anno.label(l.as_str())
                            .legend(move |(x, y)| Circle::new((x + 10, y), 3, c.filled()));
                    }
                    (Some(l), Mark::Line) => {
                        anno.label(l.as_str()).legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                        });
                    }
                    (None, _) => {}
                }
            }
        }
        Chart::Hist { edges, counts } => {
            let c = rgb(colormap::series(0));
            let bins = edges.windows(2).zip(counts).filter(|(_, n)| **n > 0.0);
            chart
                .draw_series(bins.map(|(e, n)| {
                    let mut r = Rectangle::new([(e[0], base), (e[1], *n)], c.filled());
                    r.set_margin(0, 0, 0, 1);
                    r
                }))
                .map_err(draw_err)?;
        }
        Chart::Bars { values, .. } => {
            let c = rgb(colormap::series(0));
            let bottom = if s.logy { base } else { 0.0 };
            chart
                .draw_series(values.iter().enumerate().map(|(i, v)| {
                    let x = i as f64;
                    Rectangle::new([(x - 0.4, bottom), (x + 0.4, *v)], c.filled())
                }))
                .map_err(draw_err)?;
        }
        Chart::Image { .. } => {}
    }
    let legend = s.legend.unwrap_or(true);
    let labelled =
        matches!(&fig.chart, Chart::Xy { series, .. } if series.iter().any(|s| s.label.is_some()));
    if legend && labelled {
        chart
            .configure_series_labels()
            .label_font(("sans-serif", 14))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(draw_err)?;
    }
    let (x, y) = chart.plotting_area().get_pixel_range();
    Ok(PixelRect { x, y })
}

/// The colorbar of `imshow`: viridis from the smallest to the largest value,
/// level with the image.
fn colorbar<DB: DrawingBackend>(
    strip: &DrawingArea<DB, Shift>,
    img: &PixelRect,
    (lo, hi): (f64, f64),
) -> Result<()> {
    let (_, sy) = strip.get_pixel_range();
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, hi + 0.5)
    };
    let mut b = ChartBuilder::on(strip);
    b.margin_top((img.y.start - sy.start).max(0))
        .margin_bottom((sy.end - img.y.end).max(0))
        .margin_left(10)
        .margin_right(5)
        .right_y_label_area_size(55);
    let mut chart = b.build_cartesian_2d(0f64..1f64, lo..hi).map_err(draw_err)?;
    let fmt = |v: &f64| tick(*v);
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(("sans-serif", 12))
        .y_label_formatter(&fmt)
        .draw()
        .map_err(draw_err)?;
    let step = (hi - lo) / COLORBAR_STEPS as f64;
    chart
        .draw_series((0..COLORBAR_STEPS).map(|k| {
            let v0 = lo + step * k as f64;
            let c = rgb(colormap::viridis((k as f64 + 0.5) / COLORBAR_STEPS as f64));
            Rectangle::new([(0.0, v0), (1.0, v0 + step)], c.filled())
        }))
        .map_err(draw_err)?;
    Ok(())
}
