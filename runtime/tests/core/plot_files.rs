//! Figures from the REPL and scripts (output not rich): each new figure is
//! written at creation to file= or the first free figure-N.png in the working
//! directory, never over an existing file, and one line says where.
//! (One test: it changes the process's working directory.)

use gcalc_runtime::{DisplayData, Flags, Output, Session};
use std::sync::{Arc, Mutex};

/// A terminal-like output (not rich) whose stdout we keep.
struct Tee(Arc<Mutex<String>>);

impl Output for Tee {
    fn stdout(&mut self, t: &str) {
        self.0.lock().unwrap().push_str(t);
    }
    fn stderr(&mut self, _: &str) {}
    fn display(&mut self, _: &DisplayData) {}
    fn input(&mut self, _: &str) -> Option<String> {
        None
    }
}

#[test]
fn figures_go_to_numbered_files_in_the_working_directory() {
    let dir = std::env::temp_dir().join(format!("gcalc-plot-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_current_dir(&dir).unwrap();
    std::fs::write("figure-2.png", b"keep me").unwrap();

    let text = Arc::new(Mutex::new(String::new()));
    let mut s = Session::new(Flags::default(), Box::new(Tee(text.clone())));
    let out = s.execute(
        "a = plot([1, 2, 3])\nb = hist([1, 2, 3])\nc = imshow([[1, 2], [3, 4]], file=\"img.svg\")\nd = bar([\"x\"], [1])",
        "script.gcalc",
    );
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    assert_eq!(
        *text.lock().unwrap(),
        "figure written to figure-1.png\nfigure written to figure-3.png\n\
         figure written to img.svg\nfigure written to figure-4.png\n"
    );
    text.lock().unwrap().clear();

    assert!(
        std::fs::read("figure-1.png")
            .unwrap()
            .starts_with(b"\x89PNG")
    );
    assert_eq!(std::fs::read("figure-2.png").unwrap(), b"keep me");
    assert!(
        std::fs::read("figure-3.png")
            .unwrap()
            .starts_with(b"\x89PNG")
    );
    assert!(
        std::fs::read("figure-4.png")
            .unwrap()
            .starts_with(b"\x89PNG")
    );
    assert!(
        std::fs::read_to_string("img.svg")
            .unwrap()
            .contains("<image")
    );
    assert!(!std::path::Path::new("figure-5.png").exists());

    let out = s.execute(
        "scatter([1], [2])\nplot([1, 2], file=\"line.png\")",
        "script.gcalc",
    );
    assert!(out.error.is_none(), "{:?}", out.error.map(|e| e.rendered));
    assert_eq!(
        *text.lock().unwrap(),
        "figure written to figure-5.png\nfigure written to line.png\n"
    );
    // At a prompt the figure's value shows as its text.
    assert_eq!(out.value.unwrap().text, "<figure: plot, 640x480>");

    // An error writes nothing.
    let out = s.execute("plot([1, 2], [1])", "script.gcalc");
    assert!(out.error.is_some());
    assert!(!std::path::Path::new("figure-6.png").exists());

    std::env::set_current_dir(std::env::temp_dir()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
