//! Rendering a figure to PNG bytes and SVG text with plotters, and the one
//! font every figure uses: DejaVu Sans, bundled in the binary and registered
//! with plotters from bytes (the `ab_glyph` feature), so text renders on a
//! machine with no system fonts and nothing ever asks fontconfig.

use super::colormap;
use super::draw::{PixelRect, draw, draw_err};
use super::figure::{Chart, Figure};
use crate::error::{Error, Result};
use plotters::backend::{BitMapBackend, RGBPixel, SVGBackend};
use plotters::prelude::IntoDrawingArea;
use plotters::style::FontStyle;
use std::sync::OnceLock;

/// DejaVu Sans (Bitstream Vera license, see assets/fonts/LICENSE-DejaVu.txt).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Register the bundled font under the families plotters asks for (once).
fn fonts() -> Result<()> {
    static DONE: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        for family in ["sans-serif", "serif", "monospace"] {
            plotters::style::register_font(family, FontStyle::Normal, FONT)
                .map_err(|_| "the bundled font could not be read".to_string())?;
        }
        Ok(())
    })
    .clone()
    .map_err(Error::internal)
}

/// Run a drawing step, turning a panic inside plotters into an error.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(Error::internal(format!(
            "drawing the figure as {what} failed: {msg}"
        )))
    })
}

fn png_err(e: png::EncodingError) -> Error {
    Error::internal(format!("encoding the figure as png failed: {e}"))
}

/// Encode 8-bit RGB pixels as PNG.
pub fn encode_png(w: u32, h: u32, rgb: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut wr = enc.write_header().map_err(png_err)?;
        wr.write_image_data(rgb).map_err(png_err)?;
        wr.finish().map_err(png_err)?;
    }
    Ok(out)
}

/// The colour of each cell of an `imshow` matrix.
fn cell_colors(data: &[f64]) -> Vec<(u8, u8, u8)> {
    let (lo, hi) = data
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    data.iter()
        .map(|v| colormap::viridis(colormap::normalize(*v, lo, hi)))
        .collect()
}

/// The figure as a PNG image of its size.
pub fn render_png(fig: &Figure) -> Result<Vec<u8>> {
    fonts()?;
    let (w, h) = (fig.style.width, fig.style.height);
    let mut buf = vec![255u8; w as usize * h as usize * 3];
    let rect = guarded("png", || {
        let backend = BitMapBackend::<RGBPixel>::with_buffer_and_format(&mut buf, (w, h))
            .map_err(draw_err)?;
        let root = backend.into_drawing_area();
        let rect = draw(&root, fig)?;
        root.present().map_err(draw_err)?;
        Ok(rect)
    })?;
    if let (Some(r), Chart::Image { rows, cols, data }) = (rect, &fig.chart) {
        paint_image(&mut buf, w, h, &r, (*rows, *cols), &cell_colors(data));
    }
    encode_png(w, h, &buf)
}

/// Fill the plotting area with the matrix, nearest cell per pixel.
fn paint_image(
    buf: &mut [u8],
    w: u32,
    h: u32,
    r: &PixelRect,
    (rows, cols): (usize, usize),
    colors: &[(u8, u8, u8)],
) {
    let (pw, ph) = ((r.x.end - r.x.start).max(1), (r.y.end - r.y.start).max(1));
    for py in r.y.start.max(0)..r.y.end.min(h as i32) {
        let row = (((py - r.y.start) as usize * rows) / ph as usize).min(rows - 1);
        for px in r.x.start.max(0)..r.x.end.min(w as i32) {
            let col = (((px - r.x.start) as usize * cols) / pw as usize).min(cols - 1);
            let (cr, cg, cb) = colors[row * cols + col];
            let i = (py as usize * w as usize + px as usize) * 3;
            buf[i..i + 3].copy_from_slice(&[cr, cg, cb]);
        }
    }
}

/// The figure as an SVG document. An `imshow` matrix is embedded as one
/// PNG `<image>` of one pixel per cell, scaled without smoothing.
pub fn render_svg(fig: &Figure) -> Result<String> {
    fonts()?;
    let (w, h) = (fig.style.width, fig.style.height);
    let mut svg = String::new();
    let rect = guarded("svg", || {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let rect = draw(&root, fig)?;
        root.present().map_err(draw_err)?;
        Ok(rect)
    })?;
    if let (Some(r), Chart::Image { rows, cols, data }) = (rect, &fig.chart) {
        let rgb: Vec<u8> = cell_colors(data)
            .into_iter()
            .flat_map(|(a, b, c)| [a, b, c])
            .collect();
        let png = encode_png(*cols as u32, *rows as u32, &rgb)?;
        let tag = format!(
            "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" \
             style=\"image-rendering:pixelated\" href=\"data:image/png;base64,{}\"/>\n",
            r.x.start,
            r.y.start,
            r.x.end - r.x.start,
            r.y.end - r.y.start,
            base64(&png)
        );
        let at = svg.rfind("</svg>").unwrap_or(svg.len());
        svg.insert_str(at, &tag);
    }
    Ok(svg)
}

/// Standard base64 with padding (for the image embedded in SVG).
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ABC[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
