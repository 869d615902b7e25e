//! The kernel process: reads the connection file, binds the five sockets to
//! exactly the addresses it names, and runs one task per socket on a
//! single-threaded tokio runtime while the worker thread runs cells.
//! Control (interrupt, shutdown) and heartbeats never wait for a cell.

use super::sink::{IoPub, Shared};
use super::wire::{self, Rejected, Request};
use super::worker::{self, Job, Worker};
use gcalc_runtime::{Flags, InterruptHandle};
use jupyter_protocol::{ConnectionInfo, JupyterMessage};
use jupyter_zmq_client::{
    Connection, SubscriptionEvent, create_kernel_control_connection,
    create_kernel_heartbeat_connection, create_kernel_iopub_xpub_connection,
    create_kernel_shell_connection, create_kernel_stdin_connection,
};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use zeromq::{SocketRecv, SocketSend};

/// Run the kernel for `connection_file`; the process exit status.
pub fn run(connection_file: &str, flags: Flags) -> u8 {
    let info: ConnectionInfo = match std::fs::read_to_string(connection_file)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(i) => i,
        Err(e) => {
            eprintln!("gcalc kernel: cannot read connection file {connection_file}: {e}");
            return 2;
        }
    };
    if !info.key.is_empty() && info.signature_scheme != "hmac-sha256" {
        eprintln!(
            "gcalc kernel: signature scheme `{}` is not supported (only hmac-sha256)",
            info.signature_scheme
        );
        return 2;
    }
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("gcalc kernel: cannot start the runtime: {e}");
            return 70;
        }
    };
    match rt.block_on(serve(info, flags)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("gcalc kernel: {e}");
            1
        }
    }
}

fn log_rejected(channel: &str, r: Rejected) {
    match r {
        Rejected::BadSignature => {
            eprintln!("gcalc kernel: dropped a {channel} message with an invalid signature")
        }
        Rejected::Replayed => eprintln!(
            "gcalc kernel: dropped a replayed {channel} message (its signature was seen before)"
        ),
        Rejected::Malformed(m) => {
            eprintln!("gcalc kernel: dropped a malformed {channel} message: {m}")
        }
    }
}

/// Read the next verified message from a ROUTER half; bad and replayed
/// ones are logged and skipped.
async fn next_request<S: SocketRecv>(
    conn: &mut Connection<S>,
    channel: &str,
    digests: &wire::Digests,
) -> Option<Request> {
    loop {
        match conn.socket.recv().await {
            Ok(z) => match wire::parse(z, &conn.mac, digests) {
                Ok(r) => return Some(r),
                Err(e) => log_rejected(channel, e),
            },
            Err(e) => {
                eprintln!("gcalc kernel: {channel} socket: {e}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

async fn serve(info: ConnectionInfo, flags: Flags) -> Result<(), String> {
    let session_id = uuid::Uuid::new_v4().to_string();
    let err = |what: &str, e: jupyter_zmq_client::RuntimeError| format!("cannot bind {what}: {e}");
    let iopub = create_kernel_iopub_xpub_connection(&info, &session_id)
        .await
        .map_err(|e| err("iopub", e))?;
    let shell = create_kernel_shell_connection(&info, &session_id)
        .await
        .map_err(|e| err("shell", e))?;
    let control = create_kernel_control_connection(&info, &session_id)
        .await
        .map_err(|e| err("control", e))?;
    let stdin = create_kernel_stdin_connection(&info, &session_id)
        .await
        .map_err(|e| err("stdin", e))?;
    let mut hb = create_kernel_heartbeat_connection(&info)
        .await
        .map_err(|e| err("heartbeat", e))?;

    let shared = Arc::new(Shared::default());
    let digests = Arc::new(wire::Digests::default());
    let (iopub_tx, iopub_rx) = unbounded_channel::<IoPub>();
    let (shell_out_tx, mut shell_out_rx) = unbounded_channel::<JupyterMessage>();
    let (stdin_out_tx, mut stdin_out_rx) = unbounded_channel::<JupyterMessage>();
    let (exit_tx, mut exit_rx) = unbounded_channel::<bool>();
    let (answer_tx, answer_rx) = std::sync::mpsc::channel::<String>();
    let (jobs_tx, jobs_rx) = std::sync::mpsc::channel::<Job>();
    let (handle_tx, handle_rx) = std::sync::mpsc::sync_channel::<InterruptHandle>(1);

    // The worker owns the session; it hands back the interrupt handle.
    let out = worker::new_output(shared.clone(), iopub_tx.clone(), stdin_out_tx, answer_rx);
    let w_shared = shared.clone();
    let w_iopub = iopub_tx.clone();
    let w_exit = exit_tx.clone();
    std::thread::Builder::new()
        .name("gcalc-cell".into())
        .stack_size(crate::STACK_BYTES)
        .spawn(move || {
            let session = worker::make_session(flags, out);
            let _ = handle_tx.send(session.interrupt_handle());
            Worker {
                session,
                shared: w_shared,
                iopub: w_iopub,
                shell_out: shell_out_tx,
                jobs: jobs_rx,
                exit: w_exit,
                execution_count: 0,
                history: super::history::History::new(),
                abort_since: None,
            }
            .run();
        })
        .map_err(|e| format!("cannot start the worker thread: {e}"))?;
    let handle = handle_rx
        .recv()
        .map_err(|_| "the worker thread stopped at start".to_string())?;

    tokio::spawn(iopub_task(iopub, iopub_rx, shared.clone()));

    let (mut shell_send, mut shell_recv) = shell.split();
    let d = digests.clone();
    tokio::spawn(async move {
        while let Some(req) = next_request(&mut shell_recv, "shell", &d).await {
            if jobs_tx.send(Job::Shell(req)).is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        while let Some(m) = shell_out_rx.recv().await {
            if let Err(e) = shell_send.send(m).await {
                eprintln!("gcalc kernel: shell send: {e}");
            }
        }
    });

    let (mut stdin_send, mut stdin_recv) = stdin.split();
    tokio::spawn(async move {
        while let Some(m) = stdin_out_rx.recv().await {
            if let Err(e) = stdin_send.send(m).await {
                eprintln!("gcalc kernel: stdin send: {e}");
            }
        }
    });
    let d = digests.clone();
    tokio::spawn(async move {
        while let Some(req) = next_request(&mut stdin_recv, "stdin", &d).await {
            if req.msg_type() == "input_reply" {
                let v = req.str_field("value").unwrap_or("").to_string();
                let _ = answer_tx.send(v);
            }
        }
    });

    tokio::spawn(async move {
        loop {
            match hb.socket.recv().await {
                Ok(m) => {
                    let _ = hb.socket.send(m).await;
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    });

    tokio::spawn(control_task(
        control,
        shared.clone(),
        handle.clone(),
        exit_tx,
        digests,
    ));

    // SIGINT interrupts the running cell, like an interrupt_request.
    if let Ok(mut sig) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()) {
        let shared = shared.clone();
        tokio::spawn(async move {
            while sig.recv().await.is_some() {
                shared.interrupted.store(true, Ordering::Relaxed);
                handle.interrupt();
            }
        });
    }

    let _restart = exit_rx.recv().await;
    // Let the shutdown reply and the last IOPub messages leave.
    tokio::time::sleep(Duration::from_millis(30)).await;
    Ok(())
}

async fn control_task(
    mut control: jupyter_zmq_client::KernelControlConnection,
    shared: Arc<Shared>,
    handle: InterruptHandle,
    exit: UnboundedSender<bool>,
    digests: Arc<wire::Digests>,
) {
    while let Some(req) = next_request(&mut control, "control", &digests).await {
        let t = req.msg_type().to_string();
        let content = match t.as_str() {
            "interrupt_request" => {
                shared.interrupted.store(true, Ordering::Relaxed);
                handle.interrupt();
                json!({"status": "ok"})
            }
            "shutdown_request" => {
                json!({"status": "ok", "restart": req.bool_field("restart", false)})
            }
            "kernel_info_request" => worker::kernel_info(),
            _ if t.ends_with("_request") => wire::unsupported(&t),
            _ => {
                eprintln!("gcalc kernel: ignoring `{t}` on the control channel");
                continue;
            }
        };
        let reply = wire::reply(&req, &wire::reply_type(&t), content);
        if let Err(e) = control.send(reply).await {
            eprintln!("gcalc kernel: control send: {e}");
        }
        if t == "shutdown_request" {
            let _ = exit.send(req.bool_field("restart", false));
        }
    }
}

enum IoEvent {
    Out(Option<IoPub>),
    Sub(Result<SubscriptionEvent, jupyter_zmq_client::RuntimeError>),
}

/// Sends IOPub traffic, merging stream text queued back to back into
/// messages of at most `MAX_MERGED` bytes, and answers each subscription with
/// `iopub_welcome` (JEP 65). What it has sent leaves the shared backlog.
async fn iopub_task(
    mut iopub: jupyter_zmq_client::KernelIoPubXPubConnection,
    mut rx: UnboundedReceiver<IoPub>,
    shared: Arc<Shared>,
) {
    loop {
        let ev = tokio::select! {
            m = rx.recv() => IoEvent::Out(m),
            s = iopub.recv_subscription() => IoEvent::Sub(s),
        };
        match ev {
            IoEvent::Out(None) => break,
            IoEvent::Out(Some(first)) => {
                let mut batch = vec![first];
                while let Ok(m) = rx.try_recv() {
                    batch.push(m);
                }
                let bytes: usize = batch
                    .iter()
                    .map(|m| match m {
                        IoPub::Stream { text, .. } => text.len(),
                        IoPub::Msg(_) => 0,
                    })
                    .sum();
                for m in merge_streams(batch) {
                    if let Err(e) = iopub.send(m).await {
                        eprintln!("gcalc kernel: iopub send: {e}");
                    }
                }
                shared.backlog.fetch_sub(bytes, Ordering::Relaxed);
            }
            IoEvent::Sub(Ok(SubscriptionEvent::Subscribe(topic))) => {
                let m = wire::iopub(None, "iopub_welcome", json!({ "subscription": topic }));
                let _ = iopub.send(m).await;
            }
            IoEvent::Sub(_) => {}
        }
    }
}

/// Bytes of stream text merged into one IOPub message at most (one print
/// larger than this goes alone).
const MAX_MERGED: usize = 1 << 20;

fn merge_streams(batch: Vec<IoPub>) -> Vec<JupyterMessage> {
    let mut out = Vec::new();
    let mut pending: Option<(Request, &'static str, String)> = None;
    let flush = |p: &mut Option<(Request, &'static str, String)>, out: &mut Vec<JupyterMessage>| {
        if let Some((parent, name, text)) = p.take() {
            out.push(wire::iopub(
                Some(&parent),
                "stream",
                json!({"name": name, "text": text}),
            ));
        }
    };
    for m in batch {
        match m {
            IoPub::Msg(msg) => {
                flush(&mut pending, &mut out);
                out.push(*msg);
            }
            IoPub::Stream { parent, name, text } => match &mut pending {
                Some((p, n, t))
                    if *n == name
                        && p.msg_id() == parent.msg_id()
                        && t.len() + text.len() <= MAX_MERGED =>
                {
                    t.push_str(&text)
                }
                _ => {
                    flush(&mut pending, &mut out);
                    pending = Some((*parent, name, text));
                }
            },
        }
    }
    flush(&mut pending, &mut out);
    out
}
