//! Input history for `history_request` (tail, range, search with a glob,
//! unique, n): kept in memory and appended to a small JSON-lines file in the
//! data directory so that earlier sessions can be searched too. The file is
//! private (0600, like the REPL's) and bounded: a kernel reads only its last
//! `READ_TAIL` bytes, and past `MAX_FILE` bytes it is cut to its newest
//! `READ_TAIL` (rewritten through a temporary file and a rename).

use serde_json::{Value, json};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Entries kept from earlier sessions.
const KEEP_FROM_FILE: usize = 10_000;
/// Bytes of the file's end read at start.
const READ_TAIL: u64 = 4 << 20;
/// File size past which it is cut to its last `READ_TAIL` bytes.
const MAX_FILE: u64 = 8 << 20;
/// Characters of a cell's output kept (an output is text for searching,
/// not a copy of a printed array).
const MAX_OUTPUT: usize = 16 << 10;
/// Inputs larger than this stay in memory only.
const MAX_INPUT_ON_FILE: usize = 1 << 20;

#[derive(Clone)]
struct Entry {
    session: i64,
    line: i64,
    input: String,
    output: Option<String>,
}

pub struct History {
    loaded: bool,
    session: i64,
    entries: Vec<Entry>,
    path: Option<PathBuf>,
}

/// `$XDG_DATA_HOME/gcalc/jupyter_history.jsonl` (or `~/.local/share/...`);
/// `GCALC_HISTORY=off` keeps history in memory only.
fn history_path() -> Option<PathBuf> {
    if std::env::var("GCALC_HISTORY").is_ok_and(|v| v == "off") {
        return None;
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("gcalc").join("jupyter_history.jsonl"))
}

impl History {
    pub fn new() -> History {
        History {
            loaded: false,
            session: 1,
            entries: Vec::new(),
            path: history_path(),
        }
    }

    /// Read earlier sessions on first use (not at start: start-up stays fast).
    fn load(&mut self) {
        if self.loaded {
            return;
        }
        self.loaded = true;
        let Some(path) = &self.path else { return };
        let Some(text) = read_tail(path, READ_TAIL) else {
            return;
        };
        let mut old: Vec<Entry> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| {
                Some(Entry {
                    session: v.get("session")?.as_i64()?,
                    line: v.get("line")?.as_i64()?,
                    input: v.get("input")?.as_str()?.to_string(),
                    output: v.get("output").and_then(Value::as_str).map(String::from),
                })
            })
            .collect();
        if old.len() > KEEP_FROM_FILE {
            old.drain(..old.len() - KEEP_FROM_FILE);
        }
        let max = old.iter().map(|e| e.session).max().unwrap_or(0);
        self.session = max + 1;
        // Entries of this session recorded before the load move to the new number.
        for e in &mut self.entries {
            e.session = self.session;
        }
        old.append(&mut self.entries);
        self.entries = old;
    }

    pub fn record(&mut self, line: i64, input: &str, output: Option<String>) {
        self.load();
        let e = Entry {
            session: self.session,
            line,
            input: input.to_string(),
            output: output.map(|o| cut(o, MAX_OUTPUT)),
        };
        if let Some(path) = &self.path
            && e.input.len() <= MAX_INPUT_ON_FILE
        {
            let rec =
                json!({"session": e.session, "line": e.line, "input": e.input, "output": e.output});
            append(path, &rec.to_string());
        }
        self.entries.push(e);
    }

    /// The `history` list of a `history_reply` for a request's content.
    pub fn query(&mut self, req: &Value) -> Vec<Value> {
        self.load();
        let output = req.get("output").and_then(Value::as_bool).unwrap_or(false);
        let kind = req
            .get("hist_access_type")
            .and_then(Value::as_str)
            .unwrap_or("tail");
        let n = req.get("n").and_then(Value::as_i64);
        let unique = req.get("unique").and_then(Value::as_bool).unwrap_or(false);
        let mut picked: Vec<&Entry> = match kind {
            "range" => {
                let s = req.get("session").and_then(Value::as_i64).unwrap_or(0);
                let session = if s <= 0 { self.session + s } else { s };
                let start = req.get("start").and_then(Value::as_i64).unwrap_or(0);
                let stop = req.get("stop").and_then(Value::as_i64);
                self.entries
                    .iter()
                    .filter(|e| {
                        e.session == session && e.line >= start && stop.is_none_or(|s| e.line < s)
                    })
                    .collect()
            }
            "search" => {
                let pattern = req.get("pattern").and_then(Value::as_str).unwrap_or("*");
                let p: Vec<char> = pattern.chars().collect();
                self.entries
                    .iter()
                    .filter(|e| glob(&p, &e.input.chars().collect::<Vec<_>>()))
                    .collect()
            }
            _ => self.entries.iter().collect(),
        };
        if unique {
            // Keep the latest of each input, in order.
            let mut seen = std::collections::HashSet::new();
            let mut rev: Vec<&Entry> = picked
                .into_iter()
                .rev()
                .filter(|e| seen.insert(e.input.as_str()))
                .collect();
            rev.reverse();
            picked = rev;
        }
        if kind != "range"
            && let Some(n) = n
        {
            let n = n.max(0) as usize;
            if picked.len() > n {
                picked.drain(..picked.len() - n);
            }
        }
        picked
            .into_iter()
            .map(|e| {
                if output {
                    json!([e.session, e.line, [e.input, e.output]])
                } else {
                    json!([e.session, e.line, e.input])
                }
            })
            .collect()
    }
}

/// `s` cut to at most `max` bytes (at a character boundary), marked when cut.
fn cut(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}

/// The whole lines in the last `tail` bytes of `path`.
fn read_tail(path: &Path, tail: u64) -> Option<String> {
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let start = len.saturating_sub(tail);
    f.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::with_capacity((len - start) as usize);
    f.read_to_end(&mut bytes).ok()?;
    if start > 0 {
        // The first line is cut: skip it.
        let nl = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..nl);
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Append one JSON line to the history file (created 0600 in a 0700
/// folder; an older file readable by others is made private), and cut the
/// file to its newest lines when it has grown past `MAX_FILE`.
fn append(path: &Path, line: &str) {
    if let Some(dir) = path.parent()
        && !dir.exists()
    {
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir);
    }
    let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
    else {
        return;
    };
    let Ok(meta) = f.metadata() else { return };
    if meta.permissions().mode() & 0o077 != 0 {
        let _ = f.set_permissions(std::fs::Permissions::from_mode(0o600));
    }
    let _ = writeln!(f, "{line}");
    if meta.len() + line.len() as u64 + 1 > MAX_FILE
        && let Some(kept) = read_tail(path, READ_TAIL)
    {
        let _ = gcalc_runtime::safe_write::write_file(path, "history", &|| false, |w| {
            w.write_all(kept.as_bytes())
        });
    }
}

/// Glob match of the whole text: `*` any run, `?` one character, `[abc]` a set.
fn glob(p: &[char], t: &[char]) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ti));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                '[' => {
                    if let Some(close) = p[pi + 1..].iter().position(|&c| c == ']') {
                        let set = &p[pi + 1..pi + 1 + close];
                        if set.contains(&t[ti]) {
                            pi += close + 2;
                            ti += 1;
                            continue;
                        }
                    } else if t[ti] == '[' {
                        pi += 1;
                        ti += 1;
                        continue;
                    }
                }
                c if c == t[ti] => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, st)) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(p: &str, t: &str) -> bool {
        glob(
            &p.chars().collect::<Vec<_>>(),
            &t.chars().collect::<Vec<_>>(),
        )
    }

    #[test]
    fn glob_patterns() {
        assert!(g("*", "anything"));
        assert!(g("6*", "67"));
        assert!(!g("6*", "76"));
        assert!(g("a?c", "abc"));
        assert!(g("*[xy]", "ax"));
        assert!(!g("abc", "abcd"));
    }

    fn at(path: PathBuf) -> History {
        History {
            loaded: false,
            session: 1,
            entries: Vec::new(),
            path: Some(path),
        }
    }

    #[test]
    fn the_file_is_private_and_bounded_and_only_its_tail_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gcalc").join("jupyter_history.jsonl");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let mut h = at(path.clone());
        h.record(1, "a = 1", Some("x".repeat(100_000)));
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert!(h.entries[0].output.as_ref().unwrap().len() < MAX_OUTPUT + 4);
        // An older world-readable file becomes private.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        h.record(2, "b = 2", None);
        assert_eq!(mode(&path), 0o600);

        // A 24 MiB history from earlier sessions: a new kernel reads its
        // tail only, and the next record cuts the file.
        let mut big = String::new();
        let mut n = 0;
        while big.len() < 24 << 20 {
            n += 1;
            let rec = json!({"session": 1 + n / 1000, "line": n, "input": format!("x{n} = {}", "y".repeat(200)), "output": null});
            big.push_str(&rec.to_string());
            big.push('\n');
        }
        std::fs::write(&path, &big).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let t = std::time::Instant::now();
        let mut h = at(path.clone());
        let last = h.query(&json!({"hist_access_type": "tail", "n": 1}));
        assert!(
            t.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            t.elapsed()
        );
        assert!(
            last[0][2]
                .as_str()
                .unwrap()
                .starts_with(&format!("x{n} = "))
        );
        assert!(h.entries.len() <= KEEP_FROM_FILE);
        assert_eq!(h.session, 2 + n / 1000);
        h.record(1, "new = 1", None);
        let len = std::fs::metadata(&path).unwrap().len();
        assert!(len <= READ_TAIL + 1024, "{len}");
        assert_eq!(mode(&path), 0o600);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.lines()
                .all(|l| serde_json::from_str::<Value>(l).is_ok())
        );
        assert!(text.lines().last().unwrap().contains("\"new = 1\""));
    }

    #[test]
    fn tail_range_search() {
        let mut h = History {
            loaded: true,
            session: 3,
            entries: Vec::new(),
            path: None,
        };
        h.record(1, "a = 1", None);
        h.record(2, "print(a)", None);
        h.record(3, "a = 1", Some("x".into()));
        assert_eq!(
            h.query(&json!({"hist_access_type": "tail", "n": 2})).len(),
            2
        );
        let r = h.query(&json!({"hist_access_type": "range", "session": 0, "start": 2, "stop": 3}));
        assert_eq!(r, vec![json!([3, 2, "print(a)"])]);
        let s = h.query(&json!({"hist_access_type": "search", "pattern": "a =*", "unique": true}));
        assert_eq!(s.len(), 1);
        let o = h.query(&json!({"hist_access_type": "tail", "n": 1, "output": true}));
        assert_eq!(o, vec![json!([3, 3, ["a = 1", "x"]])]);
    }
}
