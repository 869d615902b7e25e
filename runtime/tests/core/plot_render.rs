//! Figures rendered from Rust: the PNG decodes to the asked size and is not
//! blank, the SVG parses and holds the axes, the text and one mark per datum.

use gcalc_runtime::plot::{Chart, Figure, Mark, Series, Style};
use std::collections::HashSet;

struct Png {
    w: u32,
    h: u32,
    rgb: Vec<u8>,
}

impl Png {
    fn decode(bytes: &[u8]) -> Png {
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut r = dec.read_info().expect("png header");
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        let info = r.next_frame(&mut buf).expect("png frame");
        assert_eq!(info.color_type, png::ColorType::Rgb);
        buf.truncate(info.buffer_size());
        Png {
            w: info.width,
            h: info.height,
            rgb: buf,
        }
    }
    fn px(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let i = ((y * self.w + x) * 3) as usize;
        (self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])
    }
    fn colors(&self) -> usize {
        self.rgb
            .chunks(3)
            .map(|c| (c[0], c[1], c[2]))
            .collect::<HashSet<_>>()
            .len()
    }
    /// Pixels not white in the central region (inside any plot's axes).
    fn inked_center(&self) -> usize {
        let mut n = 0;
        for y in self.h / 4..self.h * 3 / 4 {
            for x in self.w / 4..self.w * 3 / 4 {
                if self.px(x, y) != (255, 255, 255) {
                    n += 1;
                }
            }
        }
        n
    }
}

fn style(title: &str) -> Style {
    Style {
        title: Some(title.into()),
        xlabel: Some("time (s)".into()),
        ylabel: Some("value".into()),
        ..Style::default()
    }
}

fn line_fig(n: usize, k: usize, labels: bool) -> Figure {
    let series = (0..k)
        .map(|s| Series {
            label: labels.then(|| format!("series {s}")),
            x: (0..n).map(|i| i as f64).collect(),
            y: (0..n)
                .map(|i| ((i as f64) * 0.1 + s as f64).sin())
                .collect(),
        })
        .collect();
    Figure::new(
        "plot",
        Chart::Xy {
            mark: Mark::Line,
            series,
        },
        style("Sine waves"),
    )
}

fn svg_doc(fig: &Figure) -> String {
    let svg = fig.svg().expect("svg renders");
    roxmltree::Document::parse(&svg).expect("svg parses");
    svg
}

fn count(svg: &str, tag: &str, pred: impl Fn(roxmltree::Node) -> bool) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("svg parses");
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag && pred(*n))
        .count()
}

fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("svg parses");
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn line_plot_png_has_size_and_ink() {
    let fig = line_fig(200, 2, true);
    let png = Png::decode(&fig.png().unwrap());
    assert_eq!((png.w, png.h), (640, 480));
    assert!(png.colors() > 50, "only {} colours", png.colors());
    assert!(png.inked_center() > 500, "blank plot area");
    // Both series' colours are present (tab10 blue and orange).
    let has = |c| png.rgb.chunks(3).any(|p| (p[0], p[1], p[2]) == c);
    assert!(has((0x1f, 0x77, 0xb4)) && has((0xff, 0x7f, 0x0e)));
}

#[test]
fn text_is_drawn_into_the_png() {
    // Same figure with and without a title: the title's pixels differ at the top.
    let with = Png::decode(&line_fig(50, 1, false).png().unwrap());
    let mut plain = line_fig(50, 1, false);
    plain.style.title = None;
    let without = Png::decode(&plain.png().unwrap());
    let dark = |p: &Png| {
        (0..30)
            .flat_map(|y| (0..p.w).map(move |x| (x, y)))
            .filter(|&(x, y)| p.px(x, y).0 < 128)
            .count()
    };
    assert!(
        dark(&with) > dark(&without) + 100,
        "no title glyphs in the png ({} vs {})",
        dark(&with),
        dark(&without)
    );
}

#[test]
fn line_plot_svg_has_axes_text_and_one_polyline_per_series() {
    let svg = svg_doc(&line_fig(100, 3, true));
    let t = texts(&svg);
    for want in ["Sine waves", "time (s)", "value", "series 0", "series 2"] {
        assert!(t.iter().any(|s| s == want), "no text {want:?} in {t:?}");
    }
    // Tick labels are numbers.
    assert!(t.iter().filter(|s| s.parse::<f64>().is_ok()).count() >= 6);
    // 3 series + 3 legend samples are polylines; the axes are lines or polylines.
    let series = count(&svg, "polyline", |n| {
        n.attribute("points")
            .is_some_and(|p| p.split_whitespace().count() == 100)
    });
    assert_eq!(series, 3);
    let axes = count(&svg, "line", |_| true) + count(&svg, "polyline", |_| true);
    assert!(axes > 3 + 2);
}

#[test]
fn scatter_draws_one_circle_per_point() {
    let fig = Figure::new(
        "scatter",
        Chart::Xy {
            mark: Mark::Point,
            series: vec![Series {
                label: None,
                x: vec![1.0, 2.0, 3.0, 4.0, 5.0],
                y: vec![2.0, 4.0, 1.0, 3.0, 5.0],
            }],
        },
        Style::default(),
    );
    assert_eq!(count(&svg_doc(&fig), "circle", |_| true), 5);
    assert!(Png::decode(&fig.png().unwrap()).inked_center() > 20);
}

#[test]
fn hist_and_bar_draw_one_rect_per_bin_and_bar() {
    let x: Vec<f64> = (0..1000)
        .map(|i| ((i * 7919) % 1000) as f64 / 10.0)
        .collect();
    let (edges, counts) = gcalc_runtime::plot::builtins::histogram(&x, 20, false);
    assert_eq!(counts.iter().sum::<f64>(), 1000.0);
    assert_eq!(edges.len(), 21);
    let fig = Figure::new("hist", Chart::Hist { edges, counts }, Style::default());
    let blue = |n: roxmltree::Node| n.attribute("fill") == Some("#1F77B4");
    assert_eq!(count(&svg_doc(&fig), "rect", blue), 20);

    let fig = Figure::new(
        "bar",
        Chart::Bars {
            labels: vec!["cpu".into(), "gpu".into(), "tpu".into()],
            values: vec![3.0, 0.5, -1.0],
        },
        style("Times"),
    );
    let svg = svg_doc(&fig);
    assert_eq!(count(&svg, "rect", blue), 3);
    let t = texts(&svg);
    for want in ["cpu", "gpu", "tpu", "Times"] {
        assert!(t.iter().any(|s| s == want), "no {want:?} in {t:?}");
    }
    assert!(Png::decode(&fig.png().unwrap()).colors() > 20);
}

#[test]
fn imshow_embeds_the_image_and_a_viridis_colorbar() {
    let (rows, cols) = (4, 6);
    let data: Vec<f64> = (0..rows * cols).map(|i| i as f64).collect();
    let fig = Figure::new(
        "imshow",
        Chart::Image { rows, cols, data },
        Style::default(),
    );
    let svg = svg_doc(&fig);
    assert_eq!(count(&svg, "image", |_| true), 1);
    use gcalc_runtime::plot::colormap::{hex, viridis};
    let first_step = hex(viridis(
        0.5 / gcalc_runtime::plot::draw::COLORBAR_STEPS as f64,
    ));
    let viridis_low = |n: roxmltree::Node| n.attribute("fill") == Some(first_step.as_str());
    let steps = count(&svg, "rect", |n| {
        n.attribute("fill")
            .is_some_and(|f| f != "#FFFFFF" && f.starts_with('#'))
    });
    assert!(steps >= gcalc_runtime::plot::draw::COLORBAR_STEPS);
    assert!(
        count(&svg, "rect", viridis_low) >= 1,
        "no dark viridis step"
    );
    let png = Png::decode(&fig.png().unwrap());
    // The top-left cell is the smallest value (dark purple), the bottom-right the largest (yellow).
    let dark = (0..png.h)
        .flat_map(|y| (0..png.w).map(move |x| (x, y)))
        .filter(|&(x, y)| png.px(x, y) == (0x44, 0x01, 0x54))
        .count();
    let yellow = png
        .rgb
        .chunks(3)
        .filter(|p| (p[0], p[1], p[2]) == (0xfd, 0xe7, 0x25))
        .count();
    assert!(dark > 500 && yellow > 500, "dark {dark}, yellow {yellow}");
}

#[test]
fn log_axes_and_custom_size() {
    let fig = Figure::new(
        "plot",
        Chart::Xy {
            mark: Mark::Line,
            series: vec![Series {
                label: None,
                x: (1..=100).map(|i| i as f64 * 10.0).collect(),
                y: (1..=100).map(|i| (i as f64).powi(3)).collect(),
            }],
        },
        Style {
            logx: true,
            logy: true,
            grid: true,
            width: 300,
            height: 200,
            ..Style::default()
        },
    );
    let png = Png::decode(&fig.png().unwrap());
    assert_eq!((png.w, png.h), (300, 200));
    let svg = svg_doc(&fig);
    assert!(svg.contains("width=\"300\""));
    let t = texts(&svg);
    assert!(
        t.iter().any(|s| s == "100") && t.iter().any(|s| s == "1e6"),
        "log ticks: {t:?}"
    );
}

/// `PLOT_DUMP=dir cargo test ...` writes every test figure there, to look at.
#[test]
fn dump_for_eyes() {
    let Ok(dir) = std::env::var("PLOT_DUMP") else {
        return;
    };
    let x: Vec<f64> = (0..1000)
        .map(|i| ((i * 7919) % 1000) as f64 / 10.0)
        .collect();
    let (edges, counts) = gcalc_runtime::plot::builtins::histogram(&x, 20, false);
    let figs = [
        ("line", line_fig(200, 3, true)),
        (
            "hist",
            Figure::new("hist", Chart::Hist { edges, counts }, style("Hist")),
        ),
        (
            "bar",
            Figure::new(
                "bar",
                Chart::Bars {
                    labels: vec!["cpu".into(), "gpu".into()],
                    values: vec![3.0, 0.5],
                },
                style("Times"),
            ),
        ),
        (
            "imshow",
            Figure::new(
                "imshow",
                Chart::Image {
                    rows: 4,
                    cols: 6,
                    data: (0..24).map(|i| i as f64).collect(),
                },
                style("Image"),
            ),
        ),
    ];
    for (name, f) in figs {
        f.save(&format!("{dir}/{name}.png")).unwrap();
        f.save(&format!("{dir}/{name}.svg")).unwrap();
    }
}

#[test]
fn ten_thousand_point_line_renders_quickly() {
    let fig = line_fig(10_000, 1, false);
    let t = std::time::Instant::now();
    let png = fig.png().unwrap();
    let dt = t.elapsed();
    eprintln!("10k-point line plot to png: {dt:?} ({} bytes)", png.len());
    // Generous for debug builds and a loaded machine; release is far below 100 ms.
    assert!(dt.as_secs_f64() < 5.0);
}

/// A log axis whose data stays inside one decade still gets labelled ticks.
#[test]
fn log_axis_within_one_decade_has_tick_labels() {
    let dir = std::env::temp_dir().join(format!("gcalc-logy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("logy.svg");
    let mut s = gcalc_runtime::Session::new(
        gcalc_runtime::Flags::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    let code = format!(
        "savefig(plot([0, 1, 2, 3], [0.7, 0.3, 0.15, 0.12], logy=true, file={:?}), {:?})",
        dir.join("logy.png").display().to_string(),
        path.display().to_string()
    );
    let out = s.execute(&code, "In[1]");
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    let svg = std::fs::read_to_string(&path).expect("svg written");
    let doc = roxmltree::Document::parse(&svg).expect("valid svg");
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for want in ["0.1", "0.5", "1"] {
        assert!(texts.contains(&want), "no tick label {want} in {texts:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
