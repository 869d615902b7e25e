//! Figures through a Session, as Jupyter drives it (rich output): values and
//! `display()` give PNG + SVG display data; bad input gives clear errors.

use gcalc_runtime::output::{DisplayData, Output};
use gcalc_runtime::{Array, ErrorKind, Flags, Session, Value};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Log {
    stdout: String,
    displays: Vec<DisplayData>,
}

/// A Jupyter-like front-end: rich, recording what it is sent.
struct Rich(Arc<Mutex<Log>>);

impl Output for Rich {
    fn stdout(&mut self, text: &str) {
        self.0.lock().unwrap().stdout.push_str(text);
    }
    fn stderr(&mut self, _text: &str) {}
    fn display(&mut self, data: &DisplayData) {
        self.0.lock().unwrap().displays.push(data.clone());
    }
    fn rich(&self) -> bool {
        true
    }
    fn input(&mut self, _prompt: &str) -> Option<String> {
        None
    }
}

fn session() -> (Session, Arc<Mutex<Log>>) {
    let log = Arc::new(Mutex::new(Log::default()));
    (
        Session::new(Flags::default(), Box::new(Rich(log.clone()))),
        log,
    )
}

fn is_png(b: &[u8]) -> bool {
    b.starts_with(b"\x89PNG\r\n\x1a\n")
}

#[test]
fn a_figure_value_shows_as_png_and_svg() {
    let (mut s, log) = session();
    let out = s.execute(
        "plot([1, 2, 3], [[1, 4, 9], [2, 3, 4]], labels=[\"a\", \"b\"], title=\"squares\")",
        "In[1]",
    );
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    let d = out.value.expect("a figure is shown");
    assert_eq!(d.text, "<figure: plot, 640x480>");
    assert!(is_png(d.png.as_deref().expect("png")));
    let svg = d.svg.expect("svg");
    assert!(svg.contains("squares") && svg.contains("<polyline"));
    // Rich output with no file=: nothing is written, nothing printed.
    assert_eq!(log.lock().unwrap().stdout, "");
}

#[test]
fn display_sends_the_figure_and_attributes_work() {
    let (mut s, log) = session();
    let out = s.execute(
        "f = scatter([1, 2], [3, 4], size=(300, 200), xlabel=\"x\")\ndisplay(f)\n(f.kind, f.size, f.xlabel)",
        "In[1]",
    );
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    assert_eq!(out.value.unwrap().text, "(\"scatter\", (300, 200), \"x\")");
    let log = log.lock().unwrap();
    assert_eq!(log.displays.len(), 1);
    let d = &log.displays[0];
    assert_eq!(d.text, "<figure: scatter, 300x200>");
    assert!(is_png(d.png.as_deref().unwrap()) && d.svg.is_some());
}

#[test]
fn every_builtin_makes_a_figure_from_lists() {
    let (mut s, _) = session();
    for code in [
        "plot([3, 1, 2])",
        "hist([1, 2, 2, 3, 3, 3], bins=3)",
        "imshow([[1, 2], [3, 4]])",
        "bar([\"cpu\", \"gpu\"], [2.5, 0.1], logy=true)",
        "plot(range(1, 10), [1, 2, 3, 4, 5, 6, 7, 8, 9], logx=true, grid=true, legend=false)",
    ] {
        let out = s.execute(code, "In[1]");
        assert!(
            out.error.is_none(),
            "{code}: {:?}",
            out.error.map(|e| e.rendered)
        );
        let d = out.value.unwrap();
        assert!(d.png.is_some() && d.svg.is_some(), "{code}");
    }
}

#[test]
fn arrays_are_plotted_too() {
    let (mut s, _) = session();
    let y = Array::from_vec(
        (0..50).map(|i| (i as f64).sqrt()).collect::<Vec<f64>>(),
        vec![50],
    );
    let m = Array::from_vec((0..12).map(|i| i as f32).collect::<Vec<f32>>(), vec![3, 4]);
    let cols = Array::from_vec((0..20).map(|i| i as i64).collect::<Vec<i64>>(), vec![10, 2]);
    s.interp().globals.insert("y".into(), Value::Array(y));
    s.interp().globals.insert("m".into(), Value::Array(m));
    s.interp().globals.insert("c".into(), Value::Array(cols));
    for code in [
        "plot(y)",
        "hist(y, bins=5)",
        "imshow(m)",
        "plot(c, labels=[\"a\", \"b\"])",
    ] {
        let out = s.execute(code, "In[1]");
        assert!(
            out.error.is_none(),
            "{code}: {:?}",
            out.error.map(|e| e.rendered)
        );
    }
    let out = s.execute("imshow(y)", "In[2]");
    let e = &out.error.expect("1-D imshow fails").errors[0];
    assert_eq!(e.kind, ErrorKind::Shape);
    assert!(
        e.message.contains("2-D") && e.message.contains("(50,)"),
        "{}",
        e.message
    );
}

/// Run `code`, expect an error; give its kind, message and help.
fn err(code: &str) -> (ErrorKind, String, String) {
    let (mut s, _) = session();
    let out = s.execute(code, "In[1]");
    let e = out.error.unwrap_or_else(|| panic!("{code} should fail"));
    let e = &e.errors[0];
    (e.kind, e.full_message(), e.help.clone().unwrap_or_default())
}

#[test]
fn bad_input_gives_clear_errors() {
    let (k, m, h) = err("plot([1, 2, 3], [1, 2])");
    assert_eq!(k, ErrorKind::Shape);
    assert!(m.contains("x has 3 values but y has 2"), "{m}");
    assert!(h.contains("same length"));

    let (_, m, _) = err("plot([1, 2], [[1, 2], [1, 2, 3]])");
    assert!(m.contains("y[1] has 3"), "{m}");

    let (k, m, _) = err("plot([])");
    assert_eq!(k, ErrorKind::Value);
    assert!(m.contains("empty"), "{m}");

    let (_, m, h) = err("plot([1, float(\"nan\"), 3, float(\"inf\"), float(\"nan\")])");
    assert!(
        m.contains("2 NaN and 1 infinite values of 5 (first at index 1)"),
        "{m}"
    );
    assert!(h.contains("filter"), "{h}");

    let (_, m, _) = err("imshow([[1, 2], [3, float(\"inf\")]])");
    assert!(m.contains("(1, 1)"), "{m}");

    let (k, m, _) = err("imshow([1, 2, 3])");
    assert_eq!(k, ErrorKind::Shape);
    assert!(m.contains("2-D") && m.contains("(3,)"), "{m}");

    let (_, m, _) = err("imshow([[1, 2], [3]])");
    assert!(m.contains("row 1 has 1"), "{m}");

    let (_, m, h) = err("plot([1, 2], [[1, 2], [3, 4]], labels=[\"a\"])");
    assert!(m.contains("1 label for 2 series"), "{m}");
    assert!(h.contains("one label per series"));

    let (_, m, _) = err("bar([\"a\", \"b\"], [1, 2, 3])");
    assert!(m.contains("2 labels but 3 values"), "{m}");

    for size in ["(0, 100)", "(100,)", "\"big\"", "(100, 100000)"] {
        let (_, m, h) = err(&format!("plot([1, 2], size={size})"));
        assert!(m.contains("size= must be (width, height)"), "{m}");
        assert!(h.contains("size=(800, 600)"));
    }

    let (_, m, _) = err("plot([1, 2], [0, 1], logy=true)");
    assert!(
        m.contains("logy=true needs positive") && m.contains("index 0"),
        "{m}"
    );

    let (_, m, _) = err("hist([1, 2], bins=0)");
    assert!(m.contains("bins must be from 1"), "{m}");

    let (_, m, h) = err("plot([1, 2], colour=\"red\")");
    assert!(m.contains("unexpected keyword argument `colour`"), "{m}");
    assert!(!h.is_empty());

    let (k, m, _) = err("plot([1, 2], \"a\")");
    assert_eq!(k, ErrorKind::Type);
    assert!(m.contains("not a string"), "{m}");
}

#[test]
fn savefig_checks_format_and_path() {
    let (_, m, h) = err("savefig(plot([1, 2]), \"out.jpg\")");
    assert!(m.contains("out.jpg") && m.contains(".jpg"), "{m}");
    assert!(h.contains("png") && h.contains("svg"), "{h}");

    let (_, _, h) = err("plot([1, 2], file=\"out\")");
    assert!(h.contains(".png or .svg"), "{h}");

    let (k, m, h) = err("savefig(plot([1, 2]), \"/nonexistent-dir/sub/a.png\")");
    assert_eq!(k, ErrorKind::Io);
    assert!(m.contains("/nonexistent-dir/sub/a.png"), "{m}");
    assert!(h.contains("writable"), "{h}");

    let (k, m, _) = err("savefig([1, 2], \"a.png\")");
    assert_eq!(k, ErrorKind::Type);
    assert!(m.contains("needs a figure"), "{m}");
}

#[test]
fn savefig_writes_png_and_svg() {
    let dir = std::env::temp_dir().join(format!("gcalc-plot-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut s, log) = session();
    let (png, svg, direct) = (dir.join("a.PNG"), dir.join("a.svg"), dir.join("b.svg"));
    let code = format!(
        "f = hist([1, 2, 2, 3])\nsavefig(f, {:?})\nsavefig(f, {:?})\nbar([\"x\"], [1], file={:?})",
        png.display().to_string(),
        svg.display().to_string(),
        direct.display().to_string(),
    );
    let out = s.execute(&code, "In[1]");
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    assert!(is_png(&std::fs::read(&png).unwrap()));
    let text = std::fs::read_to_string(&svg).unwrap();
    roxmltree::Document::parse(&text).unwrap();
    assert!(
        std::fs::read_to_string(&direct)
            .unwrap()
            .starts_with("<svg")
    );
    // file= writes and says where, even in Jupyter; savefig is silent.
    let said = log.lock().unwrap().stdout.clone();
    assert_eq!(said, format!("figure written to {}\n", direct.display()));
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
