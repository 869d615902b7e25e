//! The figure value: what was asked for (a chart and its style), rendered on
//! demand to PNG and SVG (each at most once), with the text a prompt shows.

use crate::error::{Error, Result};
use crate::output::DisplayData;
use crate::value::{Object, Value};
use std::sync::OnceLock;

/// How the points of an x-y series are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Line,
    Point,
}

/// One x-y series, checked: equal lengths, finite, not empty.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: Option<String>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// What a figure shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// `plot` (lines) and `scatter` (points).
    Xy { mark: Mark, series: Vec<Series> },
    /// `hist`: `edges` has one more element than `counts`.
    Hist { edges: Vec<f64>, counts: Vec<f64> },
    /// `bar`: one bar per label.
    Bars {
        labels: Vec<String>,
        values: Vec<f64>,
    },
    /// `imshow`: a row-major matrix, row 0 at the top.
    Image {
        rows: usize,
        cols: usize,
        data: Vec<f64>,
    },
}

/// Title, labels and axes of a figure (the keywords every plotting builtin takes).
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    pub title: Option<String>,
    pub xlabel: Option<String>,
    pub ylabel: Option<String>,
    /// `None`: a legend when some series has a label.
    pub legend: Option<bool>,
    pub grid: bool,
    pub logx: bool,
    pub logy: bool,
    pub width: u32,
    pub height: u32,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            title: None,
            xlabel: None,
            ylabel: None,
            legend: None,
            grid: false,
            logx: false,
            logy: false,
            width: 640,
            height: 480,
        }
    }
}

/// A figure: a value of the language (`Value::Object`).
pub struct Figure {
    /// The builtin that made it: `plot`, `scatter`, `hist`, `imshow`, `bar`.
    pub kind: &'static str,
    pub chart: Chart,
    pub style: Style,
    png: OnceLock<Result<Vec<u8>>>,
    svg: OnceLock<Result<String>>,
}

/// The image formats a figure can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

impl Format {
    /// The format a file name asks for, from its extension (case-insensitive).
    pub fn from_path(path: &str) -> Result<Format> {
        let ext = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("svg") => Ok(Format::Svg),
            other => Err(Error::value(format!(
                "cannot write a figure to \"{path}\": {}",
                match other {
                    Some(e) => format!("unknown format `.{e}`"),
                    None => "the file name has no extension".into(),
                }
            ))
            .with_help("figures are written as png or svg: use a name ending in .png or .svg")),
        }
    }
}

impl Figure {
    pub fn new(kind: &'static str, chart: Chart, style: Style) -> Figure {
        Figure {
            kind,
            chart,
            style,
            png: OnceLock::new(),
            svg: OnceLock::new(),
        }
    }

    /// The figure as PNG bytes (rendered once, then kept).
    pub fn png(&self) -> Result<Vec<u8>> {
        self.png
            .get_or_init(|| super::render::render_png(self))
            .clone()
    }

    /// The figure as an SVG document (rendered once, then kept).
    pub fn svg(&self) -> Result<String> {
        self.svg
            .get_or_init(|| super::render::render_svg(self))
            .clone()
    }

    /// The bytes of the figure in `format`.
    pub fn encode(&self, format: Format) -> Result<Vec<u8>> {
        match format {
            Format::Png => self.png(),
            Format::Svg => self.svg().map(String::into_bytes),
        }
    }

    /// Write the figure to `path` (format from its extension), atomically.
    pub fn save(&self, path: &str) -> Result<()> {
        let format = Format::from_path(path)?;
        let bytes = self.encode(format)?;
        super::files::write_atomic(std::path::Path::new(path), &bytes)
    }

    /// What a rich front-end shows: PNG and SVG, with the text as a fallback.
    pub fn display_data(&self) -> DisplayData {
        let png = self.png();
        let svg = self.svg();
        let mut text = self.repr();
        if let Err(e) = png.as_ref().and(svg.as_ref()) {
            text = format!("{text} (could not be drawn: {})", e.full_message());
        }
        DisplayData {
            text,
            html: None,
            png: png.ok(),
            svg: svg.ok(),
        }
    }
}

impl Object for Figure {
    fn type_name(&self) -> &'static str {
        "figure"
    }

    fn repr(&self) -> String {
        format!(
            "<figure: {}, {}x{}>",
            self.kind, self.style.width, self.style.height
        )
    }

    fn attr(&self, name: &str) -> Option<Value> {
        let opt = |s: &Option<String>| s.as_deref().map(Value::str).unwrap_or(Value::None);
        Some(match name {
            "kind" => Value::str(self.kind),
            "size" => Value::tuple(vec![
                Value::Int(self.style.width.into()),
                Value::Int(self.style.height.into()),
            ]),
            "title" => opt(&self.style.title),
            "xlabel" => opt(&self.style.xlabel),
            "ylabel" => opt(&self.style.ylabel),
            _ => return None,
        })
    }

    fn attr_names(&self) -> Vec<String> {
        ["kind", "size", "title", "xlabel", "ylabel"]
            .map(String::from)
            .to_vec()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
