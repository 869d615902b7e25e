//! The worker thread: owns the `Session` and answers every shell request in
//! order (execute, complete, inspect, is_complete, history, kernel_info,
//! comms, anything else with an error reply), so the socket tasks stay free
//! for heartbeats, control and interrupts while a cell runs.

use super::history::History;
use super::sink::{IoPub, JupyterOutput, Shared, mime_bundle};
use super::wire::{self, Request};
use gcalc_lang::Completeness;
use gcalc_runtime::{Flags, Session};
use jupyter_protocol::JupyterMessage;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use tokio::sync::mpsc::UnboundedSender;

pub enum Job {
    Shell(Request),
}

pub struct Worker {
    pub session: Session,
    pub shared: Arc<Shared>,
    pub iopub: UnboundedSender<IoPub>,
    pub shell_out: UnboundedSender<JupyterMessage>,
    pub jobs: Receiver<Job>,
    /// Told when a shutdown request came on the shell socket.
    pub exit: UnboundedSender<bool>,
    pub execution_count: i64,
    pub history: History,
    /// When the last execute failed with stop_on_error (wall clock in
    /// microseconds since the epoch, and monotonic).
    pub abort_since: Option<(i64, std::time::Instant)>,
}

fn now_micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// `language_info` and the rest of a `kernel_info_reply`.
pub fn kernel_info() -> Value {
    let v = env!("CARGO_PKG_VERSION");
    json!({
        "status": "ok",
        "protocol_version": "5.3",
        "implementation": "gcalc",
        "implementation_version": v,
        "language_info": {
            "name": "gcalc",
            "version": v,
            "mimetype": "text/x-gcalc",
            "file_extension": ".gcalc",
            // Both installed by `gcalc jupyter install`: the CodeMirror 6
            // language of the JupyterLab extension (jupyter/labextension)
            // and the Pygments lexer nbconvert uses (jupyter/pygments).
            "pygments_lexer": "gcalc",
            "codemirror_mode": "gcalc",
            "nbconvert_exporter": "script",
        },
        "banner": format!("gcalc {v}: an array language for the CPU and NVIDIA GPUs. help() lists the builtins."),
        "help_links": [],
        "debugger": false,
    })
}

/// Jupyter cursor positions count code points; the session wants bytes.
pub fn cp_to_byte(code: &str, cp: i64) -> usize {
    let cp = cp.max(0) as usize;
    code.char_indices().nth(cp).map_or(code.len(), |(i, _)| i)
}

pub fn byte_to_cp(code: &str, b: usize) -> usize {
    let b = b.min(code.len());
    code.char_indices().take_while(|(i, _)| *i < b).count()
}

fn traceback(rendered: &str) -> Vec<String> {
    rendered.lines().map(String::from).collect()
}

pub fn new_output(
    shared: Arc<Shared>,
    iopub: UnboundedSender<IoPub>,
    stdin_out: UnboundedSender<JupyterMessage>,
    stdin_in: Receiver<String>,
) -> JupyterOutput {
    JupyterOutput {
        shared,
        iopub,
        stdin_out,
        stdin_in,
    }
}

pub fn make_session(flags: Flags, out: JupyterOutput) -> Session {
    Session::new(flags, Box::new(out))
}

impl Worker {
    fn publish(&self, parent: &Request, msg_type: &str, content: Value) {
        let _ = self.iopub.send(IoPub::Msg(Box::new(wire::iopub(
            Some(parent),
            msg_type,
            content,
        ))));
    }

    fn status(&self, parent: &Request, state: &str) {
        self.publish(parent, "status", json!({ "execution_state": state }));
    }

    fn reply(&self, req: &Request, content: Value) {
        let t = wire::reply_type(req.msg_type());
        let _ = self.shell_out.send(wire::reply(req, &t, content));
    }

    pub fn run(mut self) {
        while let Ok(Job::Shell(req)) = self.jobs.recv() {
            if self.dispatch(req) {
                self.abort_queued();
            }
        }
    }

    /// After an error with `stop_on_error`: the executes already queued are
    /// aborted now; see `should_abort` for those still on their way.
    fn abort_queued(&mut self) {
        while let Ok(Job::Shell(req)) = self.jobs.try_recv() {
            self.dispatch(req);
        }
    }

    /// An execute sent before the last stop_on_error failure was answered
    /// (by its header's date, and only shortly after that failure, so a
    /// skewed client clock cannot abort later cells) is aborted.
    fn should_abort(&self, req: &Request) -> bool {
        let Some((at_us, at)) = self.abort_since else {
            return false;
        };
        let sent = req.msg.header.date.timestamp_micros();
        req.msg_type() == "execute_request"
            && sent > 0
            && sent <= at_us
            && at.elapsed() < std::time::Duration::from_secs(1)
    }

    fn dispatch(&mut self, req: Request) -> bool {
        self.status(&req, "busy");
        if self.should_abort(&req) {
            self.reply(
                &req,
                json!({"status": "aborted", "execution_count": self.execution_count}),
            );
            self.status(&req, "idle");
            return false;
        }
        let failed =
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle(&req))) {
                Ok(failed) => failed,
                Err(_) => {
                    eprintln!("gcalc kernel: internal error handling {}", req.msg_type());
                    if req.msg_type().ends_with("_request") {
                        self.reply(&req, wire::unsupported(req.msg_type()));
                    }
                    false
                }
            };
        self.status(&req, "idle");
        failed
    }

    /// Answer one request; true when an execute failed with `stop_on_error`.
    fn handle(&mut self, req: &Request) -> bool {
        match req.msg_type() {
            "execute_request" => return self.execute(req),
            "kernel_info_request" => self.reply(req, kernel_info()),
            "complete_request" => {
                let code = req.str_field("code").unwrap_or("");
                let cp = req
                    .int_field("cursor_pos")
                    .unwrap_or(code.chars().count() as i64);
                let c = self.session.complete(code, cp_to_byte(code, cp));
                let (start, end) = (byte_to_cp(code, c.start), byte_to_cp(code, c.end));
                // JupyterLab shows each match's type in its popup (the
                // IPython kernel's experimental metadata).
                let types: Vec<Value> = c
                    .matches
                    .iter()
                    .zip(&c.types)
                    .map(|(m, t)| json!({"start": start, "end": end, "text": m, "type": t}))
                    .collect();
                self.reply(
                    req,
                    json!({
                        "status": "ok",
                        "matches": c.matches,
                        "cursor_start": start,
                        "cursor_end": end,
                        "metadata": {"_jupyter_types_experimental": types},
                    }),
                );
            }
            "inspect_request" => {
                let code = req.str_field("code").unwrap_or("");
                let cp = req
                    .int_field("cursor_pos")
                    .unwrap_or(code.chars().count() as i64);
                let r = self.session.inspect(code, cp_to_byte(code, cp));
                let (found, data) = match &r {
                    Some(d) => (true, mime_bundle(d)),
                    None => (false, json!({})),
                };
                self.reply(
                    req,
                    json!({"status": "ok", "found": found, "data": data, "metadata": {}}),
                );
            }
            "is_complete_request" => {
                let code = req.str_field("code").unwrap_or("");
                let content = match self.session.is_complete(code) {
                    Completeness::Complete => json!({"status": "complete"}),
                    Completeness::Incomplete { indent } => {
                        json!({"status": "incomplete", "indent": indent})
                    }
                    Completeness::Invalid => json!({"status": "invalid"}),
                };
                self.reply(req, content);
            }
            "history_request" => {
                let h = self.history.query(&req.content);
                self.reply(req, json!({"status": "ok", "history": h}));
            }
            "comm_info_request" => self.reply(req, json!({"status": "ok", "comms": {}})),
            "comm_open" => {
                // No comm targets: close it, as ipykernel does for unknown targets.
                let id = req.str_field("comm_id").unwrap_or("");
                self.publish(req, "comm_close", json!({"comm_id": id, "data": {}}));
            }
            "comm_msg" | "comm_close" => {}
            "shutdown_request" => {
                let restart = req.bool_field("restart", false);
                self.reply(req, json!({"status": "ok", "restart": restart}));
                let _ = self.exit.send(restart);
            }
            "interrupt_request" => {
                self.session.interrupt_handle().interrupt();
                self.reply(req, json!({"status": "ok"}));
            }
            t if t.ends_with("_request") => self.reply(req, wire::unsupported(t)),
            t => eprintln!("gcalc kernel: ignoring `{t}` on the shell channel"),
        }
        false
    }

    fn execute(&mut self, req: &Request) -> bool {
        let code = req.str_field("code").unwrap_or("").to_string();
        let silent = req.bool_field("silent", false);
        let store_history = req.bool_field("store_history", true) && !silent;
        let stop_on_error = req.bool_field("stop_on_error", true);
        if store_history {
            self.execution_count += 1;
        }
        let n = self.execution_count;
        if !silent {
            self.publish(
                req,
                "execute_input",
                json!({"code": code, "execution_count": n}),
            );
        }
        {
            let mut c = self.shared.ctx();
            c.parent = Some(req.clone());
            c.allow_stdin = req.bool_field("allow_stdin", false);
            c.progress_id = None;
        }
        self.shared.interrupted.store(false, Ordering::Relaxed);
        // A stored input gets IPython's habits and its value as `_`, `_n`.
        let outcome = if store_history {
            self.session
                .execute_entry(&code, &format!("In [{n}]"), n as u64)
        } else {
            self.session.execute(&code, &format!("In [{n}]"))
        };
        if let Some(note) = self.shared.dropped_note() {
            let _ = self.iopub.send(IoPub::Stream {
                parent: Box::new(req.clone()),
                name: "stderr",
                text: note,
            });
        }
        // IPython's exit() in a kernel asks the front-end to shut the kernel
        // down (JupyterLab then restarts it, every variable lost); gcalc
        // stops the cell and keeps the kernel and its variables.
        if let Some(status) = outcome.exit {
            let _ = self.iopub.send(IoPub::Stream {
                parent: Box::new(req.clone()),
                name: "stderr",
                text: format!(
                    "exit({status}): the rest of this cell is skipped; the kernel keeps running with every variable (restart or shut it down from the Kernel menu)\n"
                ),
            });
        }
        let mut output_text = None;
        if let Some(v) = &outcome.value
            && !silent
        {
            output_text = Some(v.text.clone());
            self.publish(
                req,
                "execute_result",
                json!({"execution_count": n, "data": mime_bundle(v), "metadata": {}}),
            );
        }
        if store_history {
            self.history.record(n, &code, output_text);
        }
        if let Some(e) = &outcome.error {
            if stop_on_error {
                // Before the reply leaves: a request sent after the client
                // saw this reply is dated later and runs.
                self.abort_since = Some((now_micros(), std::time::Instant::now()));
            }
            let tb = traceback(&e.rendered_color);
            self.publish(
                req,
                "error",
                json!({"ename": e.ename(), "evalue": e.evalue(), "traceback": tb}),
            );
            self.reply(
                req,
                json!({
                    "status": "error",
                    "execution_count": n,
                    "ename": e.ename(),
                    "evalue": e.evalue(),
                    "traceback": tb,
                    "user_expressions": {},
                    "payload": [],
                }),
            );
            return stop_on_error;
        }
        let ue = self.user_expressions(req);
        self.reply(
            req,
            json!({
                "status": "ok",
                "execution_count": n,
                "payload": [],
                "user_expressions": ue,
            }),
        );
        false
    }

    fn user_expressions(&mut self, req: &Request) -> Value {
        let mut out = Map::new();
        let Some(Value::Object(exprs)) = req.content.get("user_expressions") else {
            return Value::Object(out);
        };
        for (name, expr) in exprs {
            let code = expr.as_str().unwrap_or("");
            let r = self.session.execute(code, "<user_expression>");
            let v = match (r.error, r.value) {
                (Some(e), _) => json!({
                    "status": "error",
                    "ename": e.ename(),
                    "evalue": e.evalue(),
                    "traceback": traceback(&e.rendered_color),
                }),
                (None, Some(d)) => json!({"status": "ok", "data": mime_bundle(&d), "metadata": {}}),
                (None, None) => {
                    json!({"status": "ok", "data": {"text/plain": "none"}, "metadata": {}})
                }
            };
            out.insert(name.clone(), v);
        }
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_conversions() {
        let s = "é = 1; ab";
        assert_eq!(cp_to_byte(s, 1), 2);
        assert_eq!(cp_to_byte(s, 100), s.len());
        assert_eq!(byte_to_cp(s, 2), 1);
        assert_eq!(byte_to_cp(s, s.len()), s.chars().count());
    }
}
