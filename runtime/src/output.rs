//! What a running program sends to its front-end: text on stdout/stderr, rich
//! display data, progress, input requests. The REPL, scripts and the Jupyter
//! kernel each implement `Output`.

/// One displayable thing, in as many formats as it has.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DisplayData {
    pub text: String,
    pub html: Option<String>,
    pub png: Option<Vec<u8>>,
    pub svg: Option<String>,
}

impl DisplayData {
    pub fn text(s: impl Into<String>) -> DisplayData {
        DisplayData {
            text: s.into(),
            ..Default::default()
        }
    }
}

/// State of a `progress(...)` loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: u64,
    pub total: Option<u64>,
    pub elapsed_s: f64,
    pub finished: bool,
}

impl Progress {
    /// `[#####-----]  50/100  50.0% 12.3 it/s ETA 4.0s` (terminal style, one line, no newline).
    pub fn render_line(&self, width: usize) -> String {
        match self.fraction() {
            Some(frac) => {
                let filled = (frac * width as f64).round() as usize;
                format!(
                    "[{}{}] {}",
                    "#".repeat(filled),
                    "-".repeat(width - filled.min(width)),
                    self.render_stats()
                )
            }
            None => self.render_stats(),
        }
    }

    /// The line without its bar: `50/100  50.0% 12.3 it/s ETA 4.0s`, or
    /// `50 it 12.3 it/s 4.1s` without a total (beside a graphical bar).
    pub fn render_stats(&self) -> String {
        let rate = if self.elapsed_s > 0.0 {
            self.done as f64 / self.elapsed_s
        } else {
            0.0
        };
        match (self.total, self.fraction()) {
            (Some(t), Some(frac)) => {
                let eta = if rate > 0.0 {
                    (t - self.done.min(t)) as f64 / rate
                } else {
                    0.0
                };
                format!(
                    "{}/{} {:5.1}% {:.1} it/s ETA {:.1}s",
                    self.done,
                    t,
                    frac * 100.0,
                    rate,
                    eta
                )
            }
            _ => format!("{} it {:.1} it/s {:.1}s", self.done, rate, self.elapsed_s),
        }
    }

    /// Done over total, in [0, 1]; `None` without a (nonzero) total.
    pub fn fraction(&self) -> Option<f64> {
        self.total
            .filter(|&t| t > 0)
            .map(|t| (self.done as f64 / t as f64).clamp(0.0, 1.0))
    }
}

pub trait Output: Send {
    fn stdout(&mut self, text: &str);
    fn stderr(&mut self, text: &str);
    /// `display(x)` and figures.
    fn display(&mut self, data: &DisplayData);
    /// Whether figures are shown inline (Jupyter) rather than written to files.
    fn rich(&self) -> bool {
        false
    }
    fn clear_output(&mut self, _wait: bool) {}
    /// `input(prompt)`: `None` when no input can be had (end of input, no stdin channel).
    fn input(&mut self, prompt: &str) -> Option<String>;
    fn progress(&mut self, _p: &Progress) {}
    /// The output a watched loop body wrote through, and whether it wrote
    /// (only the interpreter's watch wrapper answers: `interp/loop_graph.rs`).
    fn into_watched(self: Box<Self>) -> Option<(Box<dyn Output>, bool)> {
        None
    }
}

/// Collects everything (tests, and `-e` without a terminal).
#[derive(Default)]
pub struct Captured {
    pub stdout: String,
    pub stderr: String,
    pub displays: Vec<DisplayData>,
    pub inputs: Vec<String>,
}

impl Output for Captured {
    fn stdout(&mut self, text: &str) {
        self.stdout.push_str(text);
    }
    fn stderr(&mut self, text: &str) {
        self.stderr.push_str(text);
    }
    fn display(&mut self, data: &DisplayData) {
        self.displays.push(data.clone());
    }
    fn input(&mut self, _prompt: &str) -> Option<String> {
        if self.inputs.is_empty() {
            None
        } else {
            Some(self.inputs.remove(0))
        }
    }
}
