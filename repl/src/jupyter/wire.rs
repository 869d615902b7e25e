//! The wire format seam: turns a signed ZeroMQ multipart message into a
//! leniently parsed request (missing fields get defaults, a bad signature is
//! rejected, and so is a replayed one), and builds replies and IOPub
//! messages as raw JSON content so that nothing is ever sent as `null` where
//! the spec wants `{}`.

use jupyter_protocol::{Header, JupyterMessage, UnknownMessage};
use jupyter_zmq_client::RawMessage;
use serde_json::{Map, Value, json};
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

/// One verified incoming message.
#[derive(Clone)]
pub struct Request {
    /// Header, identities and parent: what replies are built from.
    pub msg: JupyterMessage,
    pub content: Value,
}

impl Request {
    pub fn msg_type(&self) -> &str {
        &self.msg.header.msg_type
    }
    pub fn msg_id(&self) -> &str {
        &self.msg.header.msg_id
    }
    pub fn str_field(&self, name: &str) -> Option<&str> {
        self.content.get(name).and_then(Value::as_str)
    }
    pub fn bool_field(&self, name: &str, default: bool) -> bool {
        self.content
            .get(name)
            .and_then(Value::as_bool)
            .unwrap_or(default)
    }
    pub fn int_field(&self, name: &str) -> Option<i64> {
        self.content.get(name).and_then(Value::as_i64)
    }
}

/// Why an incoming message was dropped.
pub enum Rejected {
    BadSignature,
    /// A signature seen before: the same signed bytes sent again.
    Replayed,
    Malformed(String),
}

/// Signatures kept to refuse replays, as ipykernel's `digest_history_size`.
const DIGESTS_KEPT: usize = 1 << 16;

/// The signatures of the last `DIGESTS_KEPT` verified messages, on every
/// channel (a message replayed on another socket is refused too).
#[derive(Default)]
pub struct Digests {
    inner: Mutex<(HashSet<Vec<u8>>, VecDeque<Vec<u8>>)>,
}

impl Digests {
    /// Record `sig`; false when it was seen before.
    fn first_time(&self, sig: &[u8]) -> bool {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (seen, order) = &mut *g;
        if !seen.insert(sig.to_vec()) {
            return false;
        }
        order.push_back(sig.to_vec());
        if order.len() > DIGESTS_KEPT
            && let Some(old) = order.pop_front()
        {
            seen.remove(&old);
        }
        true
    }
}

/// Verify the signature (refusing one seen before) and parse a message;
/// never fails on missing fields.
pub fn parse(
    zmsg: zeromq::ZmqMessage,
    mac: &Option<ring::hmac::Key>,
    digests: &Digests,
) -> Result<Request, Rejected> {
    // The signature is the frame after the delimiter.
    let sig = zmsg
        .iter()
        .position(|p| &p[..] == b"<IDS|MSG>")
        .and_then(|i| zmsg.get(i + 1))
        .map(|b| b.to_vec());
    let raw = RawMessage::from_multipart(zmsg, mac).map_err(|e| match e {
        jupyter_zmq_client::RuntimeError::VerifyError(_) => Rejected::BadSignature,
        other => Rejected::Malformed(other.to_string()),
    })?;
    if mac.is_some()
        && let Some(sig) = sig
        && !digests.first_time(&sig)
    {
        return Err(Rejected::Replayed);
    }
    let header_v: Value = raw
        .jparts
        .first()
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or_else(|| json!({}));
    let header = lenient_header(header_v);
    let parent_header = raw
        .jparts
        .get(1)
        .and_then(|b| serde_json::from_slice::<Value>(b).ok())
        .map(lenient_header_opt)
        .unwrap_or(None);
    let content: Value = raw
        .jparts
        .get(3)
        .and_then(|b| serde_json::from_slice(b).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let msg = JupyterMessage {
        zmq_identities: raw.zmq_identities,
        header: header.clone(),
        parent_header,
        metadata: json!({}),
        content: UnknownMessage {
            msg_type: header.msg_type.clone(),
            content: json!({}),
        }
        .into(),
        buffers: Vec::new(),
        channel: None,
    };
    Ok(Request { msg, content })
}

fn lenient_header_opt(v: Value) -> Option<Header> {
    match &v {
        Value::Object(m) if m.contains_key("msg_id") => Some(lenient_header(v)),
        _ => None,
    }
}

/// A header with every required field present (defaults for the missing).
fn lenient_header(v: Value) -> Header {
    let mut m = match v {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    for key in ["msg_id", "username", "session", "msg_type"] {
        if !m.get(key).is_some_and(Value::is_string) {
            m.insert(key.into(), json!(""));
        }
    }
    if !m.get("version").is_some_and(Value::is_string) {
        m.insert("version".into(), json!("5.3"));
    }
    let full = Value::Object(m.clone());
    serde_json::from_value::<Header>(full).unwrap_or_else(|_| {
        // A date we cannot read: drop it and take the default.
        m.remove("date");
        serde_json::from_value::<Header>(Value::Object(m)).unwrap_or_else(|_| fallback_header())
    })
}

fn fallback_header() -> Header {
    JupyterMessage::new(UnknownMessage::default(), None).header
}

/// A reply to `parent` on its own socket (same identities).
pub fn reply(parent: &Request, msg_type: &str, content: Value) -> JupyterMessage {
    JupyterMessage::new(
        UnknownMessage {
            msg_type: msg_type.into(),
            content,
        },
        Some(&parent.msg),
    )
}

/// An IOPub message whose parent is `parent` (no routing identities: every
/// subscriber gets it).
pub fn iopub(parent: Option<&Request>, msg_type: &str, content: Value) -> JupyterMessage {
    let mut m = JupyterMessage::new(
        UnknownMessage {
            msg_type: msg_type.into(),
            content,
        },
        parent.map(|p| &p.msg),
    );
    m.zmq_identities = Vec::new();
    m
}

/// `execute_request` -> `execute_reply`.
pub fn reply_type(msg_type: &str) -> String {
    match msg_type.strip_suffix("_request") {
        Some(base) => format!("{base}_reply"),
        None => format!("{msg_type}_reply"),
    }
}

/// The content of an error reply for a request gcalc does not handle.
pub fn unsupported(msg_type: &str) -> Value {
    json!({
        "status": "error",
        "ename": "UnsupportedRequest",
        "evalue": format!("gcalc does not support `{msg_type}`"),
        "traceback": [],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_is_taken_once_and_the_oldest_are_forgotten() {
        let d = Digests::default();
        assert!(d.first_time(b"aa"));
        assert!(!d.first_time(b"aa"));
        assert!(d.first_time(b"bb"));
        for i in 0..DIGESTS_KEPT {
            assert!(d.first_time(format!("{i:08}").as_bytes()));
        }
        // "aa" and "bb" were the oldest: forgotten, so bounded.
        let g = d.inner.lock().unwrap();
        assert_eq!((g.0.len(), g.1.len()), (DIGESTS_KEPT, DIGESTS_KEPT));
        drop(g);
        assert!(!d.first_time(format!("{:08}", DIGESTS_KEPT - 1).as_bytes()));
    }
}
