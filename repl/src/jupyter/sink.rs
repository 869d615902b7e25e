//! The `Output` a kernel's session writes to: streams, display data,
//! `clear_output`, `progress` (one display updated in place) go to IOPub with
//! the running cell's request as parent; `input(prompt)` asks the front-end
//! on the stdin channel and waits for its `input_reply`.

use super::wire::{self, Request};
use gcalc_runtime::output::Progress;
use gcalc_runtime::{DisplayData, Output};
use jupyter_protocol::JupyterMessage;
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// What goes to the IOPub task: a whole message, or stream text that the
/// task merges with the text queued right behind it.
pub enum IoPub {
    Msg(Box<JupyterMessage>),
    Stream {
        parent: Box<Request>,
        name: &'static str,
        text: String,
    },
}

/// The running cell, as the sink needs it.
#[derive(Default)]
pub struct Ctx {
    pub parent: Option<Request>,
    pub allow_stdin: bool,
    pub progress_id: Option<String>,
}

/// Stream bytes queued for IOPub beyond which printing waits for the IOPub
/// task: a cell printing faster than messages leave must not make the
/// kernel hold every printed byte.
pub const MAX_BACKLOG: usize = 8 << 20;
/// How long printing waits for IOPub to make progress before it drops text
/// instead (a subscriber that does not read stalls IOPub's sends; libzmq's
/// PUB, which ipykernel uses, drops at its high-water mark likewise).
const STALL: Duration = Duration::from_secs(2);

/// State shared by the worker, the sink and the control task.
#[derive(Default)]
pub struct Shared {
    ctx: Mutex<Ctx>,
    /// Set by an interrupt; ends a wait for input.
    pub interrupted: AtomicBool,
    /// Bytes of stream text queued for IOPub and not yet sent.
    pub backlog: AtomicUsize,
    /// IOPub made no progress for `STALL`: stream text is dropped (and
    /// counted in `dropped`) until the backlog halves.
    stalled: AtomicBool,
    dropped: AtomicUsize,
}

impl Shared {
    pub fn ctx(&self) -> MutexGuard<'_, Ctx> {
        self.ctx.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// The note for output dropped since the last note (`None` when nothing was).
    pub fn dropped_note(&self) -> Option<String> {
        let lost = self.dropped.swap(0, Ordering::Relaxed);
        (lost > 0).then(|| {
            format!(
                "\n[gcalc: {lost} bytes of output were dropped: the front-end was not reading]\n"
            )
        })
    }
}

pub struct JupyterOutput {
    pub shared: Arc<Shared>,
    pub iopub: UnboundedSender<IoPub>,
    pub stdin_out: UnboundedSender<JupyterMessage>,
    pub stdin_in: Receiver<String>,
}

/// A MIME bundle for display data.
pub fn mime_bundle(d: &DisplayData) -> Value {
    let mut m = Map::new();
    m.insert("text/plain".into(), json!(d.text));
    if let Some(h) = &d.html {
        m.insert("text/html".into(), json!(h));
    }
    if let Some(png) = &d.png {
        m.insert("image/png".into(), json!(super::b64::standard(png)));
    }
    if let Some(svg) = &d.svg {
        m.insert("image/svg+xml".into(), json!(svg));
    }
    Value::Object(m)
}

impl JupyterOutput {
    fn parent(&self) -> Option<Request> {
        self.shared.ctx().parent.clone()
    }

    fn publish(&self, msg_type: &str, content: Value) {
        let parent = self.parent();
        let _ = self.iopub.send(IoPub::Msg(Box::new(wire::iopub(
            parent.as_ref(),
            msg_type,
            content,
        ))));
    }

    fn stream(&self, name: &'static str, text: &str) {
        if text.is_empty() {
            return;
        }
        let Some(parent) = self.parent() else { return };
        let sh = &self.shared;
        if sh.stalled.load(Ordering::Relaxed) {
            if sh.backlog.load(Ordering::Relaxed) > MAX_BACKLOG / 2 {
                sh.dropped.fetch_add(text.len(), Ordering::Relaxed);
                return;
            }
            sh.stalled.store(false, Ordering::Relaxed);
            if let Some(note) = sh.dropped_note() {
                self.queue(&parent, "stderr", note);
            }
        }
        self.queue(&parent, name, text.to_string());
        // Back-pressure while IOPub makes progress (an interrupt stops the
        // wait; the statement then stops at its next check).
        let (mut last, mut since) = (usize::MAX, std::time::Instant::now());
        loop {
            let now = sh.backlog.load(Ordering::Relaxed);
            if now <= MAX_BACKLOG
                || sh.interrupted.load(Ordering::Relaxed)
                || self.iopub.is_closed()
            {
                return;
            }
            if now < last {
                (last, since) = (now, std::time::Instant::now());
            } else if since.elapsed() > STALL {
                sh.stalled.store(true, Ordering::Relaxed);
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Queue stream text for IOPub, counted in the backlog.
    fn queue(&self, parent: &Request, name: &'static str, text: String) {
        self.shared.backlog.fetch_add(text.len(), Ordering::Relaxed);
        let _ = self.iopub.send(IoPub::Stream {
            parent: Box::new(parent.clone()),
            name,
            text,
        });
    }
}

impl Output for JupyterOutput {
    fn stdout(&mut self, text: &str) {
        self.stream("stdout", text);
    }
    fn stderr(&mut self, text: &str) {
        self.stream("stderr", text);
    }
    fn display(&mut self, data: &DisplayData) {
        self.publish(
            "display_data",
            json!({"data": mime_bundle(data), "metadata": {}, "transient": {}}),
        );
    }
    fn rich(&self) -> bool {
        true
    }
    fn clear_output(&mut self, wait: bool) {
        self.publish("clear_output", json!({ "wait": wait }));
    }
    fn input(&mut self, prompt: &str) -> Option<String> {
        let (parent, allow) = {
            let c = self.shared.ctx();
            (c.parent.clone(), c.allow_stdin)
        };
        let parent = match parent {
            Some(p) if allow => p,
            _ => {
                self.stderr("input(): this front-end does not accept input requests\n");
                return None;
            }
        };
        while self.stdin_in.try_recv().is_ok() {}
        let req = wire::reply(
            &parent,
            "input_request",
            json!({"prompt": prompt, "password": false}),
        );
        self.stdin_out.send(req).ok()?;
        loop {
            match self.stdin_in.recv_timeout(Duration::from_millis(50)) {
                Ok(s) => return Some(s),
                Err(RecvTimeoutError::Timeout) => {
                    if self.shared.interrupted.swap(false, Ordering::Relaxed) {
                        return None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
    fn progress(&mut self, p: &Progress) {
        // text/plain (consoles) has the ASCII bar; HTML draws one bar, the
        // browser's, with the numbers beside it on the same line.
        let line = p.render_line(30);
        let stats = p.render_stats();
        let html = match p.total {
            Some(t) => format!(
                "<div style=\"white-space:nowrap\"><progress value=\"{}\" max=\"{t}\" style=\"width:30em;vertical-align:middle\"></progress> <code>{stats}</code></div>",
                p.done.min(t)
            ),
            None => format!("<code style=\"white-space:nowrap\">{stats}</code>"),
        };
        let data = json!({"text/plain": line, "text/html": html});
        let (id, first) = {
            let mut c = self.shared.ctx();
            match &c.progress_id {
                Some(id) => (id.clone(), false),
                None => {
                    let id = uuid::Uuid::new_v4().to_string();
                    c.progress_id = Some(id.clone());
                    (id, true)
                }
            }
        };
        let content = json!({"data": data, "metadata": {}, "transient": {"display_id": id}});
        if first {
            self.publish("display_data", content);
        } else {
            self.publish("update_display_data", content);
        }
        if p.finished {
            self.shared.ctx().progress_id = None;
        }
    }
}
